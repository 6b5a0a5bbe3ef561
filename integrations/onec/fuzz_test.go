package onec

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bodyTransport answers every request with one status and body, without a network.
type bodyTransport struct {
	status int
	body   []byte
}

func (b bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r.Body.Close()
	return &http.Response{StatusCode: b.status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(b.body)), Request: r}, nil
}

// FuzzProxyResponse plays the 1C proxy answering with any status and body. Execute never
// panics, returns either rows or an error, succeeds only on HTTP 200, and every error is one
// the agent knows how to word: a sentinel of the package or a *QueryError.
func FuzzProxyResponse(f *testing.F) {
	for _, s := range []string{
		`{"success":true,"data":[{"Контрагент":{"_objectRef":true,"УникальныйИдентификатор":"cb61f26c-a4d1-11ee-8c90-0242ac120002","ТипОбъекта":"СправочникСсылка.Контрагенты","Представление":"ООО «Альфа»"},"Сумма":125000.5}],"count":1}`,
		`{"success":true,"data":[],"count":0}`,
		`{"success":true,"data":null}`,
		`{"success":true}`,
		`{"success":true,"data":"rows[1]{a}:\n  1"}`,
		`{"success":true,"data":[1,2],"count":2}`,
		`{"success":true,"data":[null,{}]}`,
		`{"success":false,"error":"{(1, 1)}: Синтаксическая ошибка"}`,
		`{"success":false,"error":"Таймаут ожидания ответа от 1С"}`,
		`{"success":false,"error":{"code":1}}`,
		`{"success":"yes"}`,
		`{"detail":[{"loc":["body","limit"],"msg":"Input should be less than or equal to 1000"}]}`,
		"<html><body><h1>502 Bad Gateway</h1></body></html>",
		"", "null", "\xff\xfe{", `{"success":true,"data":[{"n":1e999}]}`,
	} {
		for _, status := range []int{200, 400, 401, 422, 500, 502, 302} {
			f.Add(status, []byte(s))
		}
	}
	files, _ := filepath.Glob("testdata/*.json")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(200, append(append([]byte(`{"success":true,"data":`), b...), '}'))
	}
	query, _ := Query("address.receivables.counterparty_totals")

	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 100 || status > 999 {
			return // net/http never hands such a status to a client
		}
		p, err := NewProxy(ProxyOptions{URL: "http://1c.invalid:6003", Token: "tok-secret", Timeout: time.Second,
			HTTPClient: &http.Client{Transport: bodyTransport{status, body}}})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := p.Execute(context.Background(), query, map[string]any{"Дата": "2026-03-31"}, 10)
		if (rows == nil) == (err == nil) {
			t.Fatalf("Execute = %v rows, error %v: want exactly one of them", rows, err)
		}
		if err == nil {
			if status != http.StatusOK {
				t.Fatalf("HTTP %d succeeded with %d rows", status, len(rows))
			}
			return
		}
		var qe *QueryError
		known := errors.As(err, &qe)
		for _, s := range []error{ErrUnavailable, ErrBadResponse, ErrUnauthorized, ErrRejected} {
			known = known || errors.Is(err, s)
		}
		if !known {
			t.Fatalf("HTTP %d: error %v matches no sentinel", status, err)
		}
		if qe != nil && status != http.StatusOK {
			t.Fatalf("HTTP %d became a 1C query error: %v", status, err)
		}
		if !strings.HasPrefix(err.Error(), "onec: execute") {
			t.Fatalf("error %q does not name the operation", err)
		}
	})
}
