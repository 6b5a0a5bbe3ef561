package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/finbot/finbot/internal/testdocs"
	"github.com/finbot/finbot/internal/testredis"
)

// The docs CLI runs the upload pipeline for a user; `ask --user` then answers over those
// documents, and nobody else's `ask` sees them. Documents live in Redis across processes.
func TestDocsCommandsAndAskOverThem(t *testing.T) {
	url, prefix := testredis.URL(), testredis.Prefix(t, testredis.Client(t))
	env := getenv(map[string]string{"REDIS_URL": url, "REDIS_PREFIX": prefix})
	dir := t.TempDir()
	pdf := filepath.Join(dir, "dogovor.pdf")
	os.WriteFile(pdf, testdocs.PDF("Договор аренды № А-7",
		testdocs.Section{Heading: "4. Арендная плата", Body: "Арендная плата составляет 185 000 рублей в месяц и вносится до 5 числа."}), 0o600)
	bad := filepath.Join(dir, "photo.png")
	os.WriteFile(bad, []byte("\x89PNG\r\n\x1a\nxxxx"), 0o600)

	runCLI := func(args ...string) (string, error) {
		var out, errOut bytes.Buffer
		err := run(t.Context(), args, env, nil, &out, &errOut)
		return out.String(), err
	}
	out, err := runCLI("docs", "add", "--user", "501", pdf, bad)
	if err == nil || !strings.Contains(out, "✓ "+pdf) || !strings.Contains(out, "✗ "+bad) || !strings.Contains(out, "изображение") {
		t.Fatalf("docs add: err %v\n%s", err, out)
	}
	id := regexp.MustCompile(`→ ([a-z2-7]{16}) `).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("no id in %q", out)
	}
	if out, _ := runCLI("docs", "list", "--user", "501"); !strings.Contains(out, id[1]) || !strings.Contains(out, "Договор аренды № А-7") {
		t.Errorf("docs list:\n%s", out)
	}

	answer := func(user string) string {
		out, err := runCLI("ask", "--json", "--user", user, "найди в договоре аренды размер арендной платы")
		if err != nil {
			t.Fatal(err)
		}
		var res struct{ Text string }
		json.Unmarshal([]byte(out), &res)
		return res.Text
	}
	if got := answer("501"); !strings.Contains(got, "185 000") {
		t.Errorf("ask --user 501 = %q, want the rent", got)
	}
	if got := answer("502"); strings.Contains(got, "185 000") {
		t.Errorf("another user's ask saw the document: %q", got)
	}

	if out, err := runCLI("docs", "rm", "--user", "502", id[1]); err == nil {
		t.Errorf("user 502 removed user 501's document: %s", out)
	}
	if out, err := runCLI("docs", "rm", "--user", "501", id[1]); err != nil || !strings.Contains(out, "удалён") {
		t.Errorf("docs rm: %v %s", err, out)
	}
	if got := answer("501"); strings.Contains(got, "185 000") {
		t.Errorf("removed document still answers: %q", got)
	}
}

func TestDocsNeedRedis(t *testing.T) {
	var out bytes.Buffer
	err := run(t.Context(), []string{"docs", "list", "--user", "1"}, getenv(nil), nil, &out, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "REDIS_URL") {
		t.Errorf("docs without Redis: %v", err)
	}
}

// kb ingest replaces the knowledge base in Redis; every replica then answers from it.
func TestKBIngest(t *testing.T) {
	url, prefix := testredis.URL(), testredis.Prefix(t, testredis.Client(t))
	env := getenv(map[string]string{"REDIS_URL": url, "REDIS_PREFIX": prefix})
	csv := filepath.Join(t.TempDir(), "kb.csv")
	os.WriteFile(csv, []byte("title,content,topic,jurisdiction,updated_at\n"+
		"Командировочные расходы,\"Суточные при командировках по России не облагаются НДФЛ в пределах 700 рублей за день.\",Зарплата,РФ,2026-03-01\n"+
		",пустой заголовок,НДС,РФ,2026-03-01\n"), 0o600)
	var out bytes.Buffer
	err := run(t.Context(), []string{"kb", "ingest", csv}, env, nil, &out, &bytes.Buffer{})
	if err == nil || !strings.Contains(out.String(), "строка 3") || !strings.Contains(out.String(), "заменена: 1 статья, ") {
		t.Fatalf("kb ingest: err %v\n%s", err, out.String())
	}
	out.Reset()
	if err := run(t.Context(), []string{"ask", "--json", "что такое суточные при командировках"}, env, nil, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var res struct {
		Text    string
		Sources []struct{ Title string }
	}
	json.Unmarshal(out.Bytes(), &res)
	if !strings.Contains(res.Text, "700 рублей") || len(res.Sources) == 0 || !strings.Contains(res.Sources[0].Title, "Командировочные расходы") {
		t.Errorf("answer from the ingested knowledge base: %q %+v", res.Text, res.Sources)
	}
}
