package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/testdocs"
	"github.com/finbot/finbot/internal/testscans"
	"github.com/finbot/finbot/library/ocr"
)

// The rent clause every test document holds, and what a caption asks about it.
const (
	rentClause = "Арендная плата составляет 185 000 рублей в месяц и вносится до 5 числа."
	rentAsked  = "какой размер арендной платы"
	// The replies of the bot that these tests expect, word for word (bot/voice.go).
	voiceOff    = "Голосовые сообщения не распознаю: не настроен сервис распознавания речи. Напишите вопрос текстом."
	voiceTooBig = "Запись больше 20 МБ — Telegram не даёт ботам скачивать такие файлы. Запишите вопрос короче или напишите его текстом."
	voiceFormat = "Не распознаю аудио в этом формате. Пришлите голосовое сообщение или файл MP3, M4A, OGG, WAV, WEBM или FLAC."
)

// askFileResult is the part of `ask --json` these tests read.
type askFileResult struct {
	Scenario string   `json:"scenario"`
	Text     string   `json:"text"`
	Replies  []string `json:"replies"`
	Debug    *struct {
		Route struct {
			Rule string `json:"rule"`
		} `json:"route"`
	} `json:"debug"`
	File *struct {
		Name  string `json:"name"`
		Size  int64  `json:"size"`
		As    string `json:"as"`
		Taken bool   `json:"taken"`
		Heard string `json:"heard"`
	} `json:"file"`
}

// testFiles writes the files the tests send into a temporary directory and returns its path.
func testFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string][]byte{
		"arenda.docx":  testdocs.DOCX("Договор аренды № А-7", testdocs.Section{Heading: "4. Арендная плата", Body: rentClause}),
		"arenda.pdf":   testdocs.PDF("Договор аренды № А-7", testdocs.Section{Heading: "4. Арендная плата", Body: rentClause}),
		"arenda.txt":   []byte("Договор аренды № А-7\n\n4. Арендная плата\n\n4.1. " + rentClause + "\n"),
		"scan.jpg":     []byte("\xFF\xD8\xFF\xE0\x00\x10JFIF\x00"),
		"question.ogg": []byte("Кто нам должен на 31 марта?"),
		"note.oga":     []byte("Кто нам должен на 31 марта?"),
		"call.amr":     []byte("#!AMR\n"),
		"locked.pdf":   testdocs.PDF("Закрытый", testdocs.Section{Heading: "1", Body: rentClause}),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dir, "locked.pdf"), 0); err != nil {
		t.Fatal(err)
	}
	// Past Telegram's 20 MB download limit, without writing 21 MB: sparse files.
	for _, name := range []string{"big.pdf", "big.ogg"} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(21 << 20); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	return dir
}

// `finbot ask --file PATH [TEXT]` sends a file the way a Telegram message carries one, on the
// embedded defaults (no Redis, no LLM, no speech-to-text, no network): a document is stored
// and its caption answered about it under the receipt, as one message; what the bot refuses
// gets the bot's words and a non-zero exit; a path that names no readable file, a Russian
// error and nothing sent.
func TestAskFile(t *testing.T) {
	dir := testFiles(t)
	in := func(name string) string { return filepath.Join(dir, name) }
	const receipt = "📄 Загрузил «"
	tests := []struct {
		name    string
		args    []string
		want    []string // in stdout, in this order
		notWant []string // not in stdout
		wantErr string   // "" = exit 0; else in the error run returns
		notRoot bool     // root reads any file
	}{
		{name: "DOCX with a caption", args: []string{"--file", in("arenda.docx"), rentAsked},
			want: []string{receipt, "DOCX", "185 000 рублей", "Кнопки", "Выбрать для вопросов"}},
		{name: "DOCX alone", args: []string{"--file", in("arenda.docx")},
			want: []string{receipt, "DOCX", "Спрашивайте", "Выбрать для вопросов"}, notWant: []string{"185 000"}},
		{name: "PDF with a caption", args: []string{"--user", "501", "--file", in("arenda.pdf"), rentAsked},
			want: []string{receipt, "PDF, 1 стр.", "185 000 рублей"}},
		{name: "PDF alone", args: []string{"--file", in("arenda.pdf")},
			want: []string{receipt, "PDF, 1 стр.", "Спрашивайте"}, notWant: []string{"185 000"}},
		{name: "TXT with a caption in a group", args: []string{"--user", "7", "--chat", "-100500", "--file", in("arenda.txt"), rentAsked},
			want: []string{receipt, "TXT", "185 000 рублей"}},
		{name: "TXT alone", args: []string{"--file", in("arenda.txt")},
			want: []string{receipt, "TXT", "Спрашивайте"}, notWant: []string{"185 000"}},
		{name: "missing file", args: []string{"--file", in("nope.pdf"), rentAsked},
			wantErr: "не нашёл такого файла: " + in("nope.pdf")},
		{name: "a directory", args: []string{"--file", dir},
			wantErr: "это не файл: " + dir},
		{name: "unreadable file", args: []string{"--file", in("locked.pdf")},
			wantErr: "нет прав на чтение файла: " + in("locked.pdf"), notRoot: true},
		{name: "oversized document", args: []string{"--file", in("big.pdf"), rentAsked},
			want:    []string{"Файл «big.pdf» больше 20 МБ — это предел, который Telegram разрешает ботам скачивать."},
			notWant: []string{receipt}, wantErr: "бот не принял файл"},
		{name: "a broken photo (said so, with OCR or without)", args: []string{"--file", in("scan.jpg"), "что в счёте"},
			want:    []string{"Не смог прочитать «scan[.]jpg»."},
			notWant: []string{receipt}, wantErr: "бот не принял файл"},
		{name: "voice file with no speech-to-text configured", args: []string{"--file", in("question.ogg")},
			want: []string{voiceOff}, wantErr: "бот не принял файл"},
		{name: "oversized voice file with no speech-to-text configured", args: []string{"--file", in("big.ogg")},
			want: []string{voiceOff}, wantErr: "бот не принял файл"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.notRoot && os.Geteuid() == 0 {
				t.Skip("root reads files without read permission")
			}
			var out, errs bytes.Buffer
			err := run(t.Context(), append([]string{"ask"}, tt.args...), getenv(nil), nil, &out, &errs)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("ask %q: %v\n%s%s", tt.args, err, out.String(), errs.String())
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("ask %q error = %v, want it to say %q\n%s", tt.args, err, tt.wantErr, out.String())
			}
			got, at := out.String(), 0
			for _, w := range tt.want {
				i := strings.Index(got[at:], w)
				if i < 0 {
					t.Errorf("ask %q printed no %q after byte %d:\n%s", tt.args, w, at, got)
					break
				}
				at += i + len(w)
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("ask %q printed %q:\n%s", tt.args, w, got)
				}
			}
			if len(tt.want) == 0 && got != "" {
				t.Errorf("ask %q printed %q, want nothing sent", tt.args, got)
			}
		})
	}
}

// `ask --json --file` prints the result `ask --json` prints, with the file's fate: the receipt
// and the caption's answer as one message, with the answer's debug payload; a refusal's
// words in the replies and a non-zero exit.
func TestAskFileJSON(t *testing.T) {
	dir := testFiles(t)
	tests := []struct {
		name, file, caption string
		wantAs              string
		wantTaken           bool
		wantText            []string
		wantDebug           bool
	}{
		{name: "DOCX with a caption", file: "arenda.docx", caption: rentAsked, wantAs: "document", wantTaken: true,
			wantText: []string{"📄 Загрузил «", "185 000 рублей"}, wantDebug: true},
		{name: "TXT alone", file: "arenda.txt", wantAs: "document", wantTaken: true,
			wantText: []string{"📄 Загрузил «", "Спрашивайте"}, wantDebug: true},
		{name: "voice file with no speech-to-text configured", file: "question.ogg", wantAs: "voice", wantText: []string{voiceOff}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"ask", "--json", "--file", filepath.Join(dir, tt.file)}
			if tt.caption != "" {
				args = append(args, tt.caption)
			}
			var out, errs bytes.Buffer
			err := run(t.Context(), args, getenv(nil), nil, &out, &errs)
			if (err == nil) != tt.wantTaken {
				t.Errorf("ask %q error = %v, want an error %v", args, err, !tt.wantTaken)
			}
			var res askFileResult
			if err := json.Unmarshal(out.Bytes(), &res); err != nil {
				t.Fatalf("ask %q output is not JSON: %v\n%s", args, err, out.String())
			}
			st, _ := os.Stat(filepath.Join(dir, tt.file))
			if f := res.File; f == nil || f.Name != tt.file || f.Size != st.Size() || f.As != tt.wantAs || f.Taken != tt.wantTaken {
				t.Errorf("ask %q file = %+v, want %s of %d bytes as %s, taken %v", args, f, tt.file, st.Size(), tt.wantAs, tt.wantTaken)
			}
			for _, w := range tt.wantText {
				if !strings.Contains(res.Text, w) {
					t.Errorf("ask %q text lacks %q: %q", args, w, res.Text)
				}
			}
			if len(res.Replies) != 1 || res.Replies[0] == "" {
				t.Errorf("ask %q replies = %q, want one message", args, res.Replies)
			}
			if (res.Debug != nil) != tt.wantDebug {
				t.Errorf("ask %q debug = %+v, want present %v", args, res.Debug, tt.wantDebug)
			}
		})
	}
}

// With speech-to-text configured (the OpenAI stand-in, which hears a recording's bytes as its
// words), an audio file is transcribed and answered as a voice message is in Telegram: the
// words recognised on top, the caption not part of the question; past 20 MB it is refused
// before anything is sent to the service.
func TestAskFileVoice(t *testing.T) {
	dir := testFiles(t)
	speech := fakes.NewTestLLM(t, fakes.LLMOptions{})
	env := getenv(map[string]string{"TRANSCRIBE_URL": speech.URL() + "/v1"})
	tests := []struct {
		name     string
		args     []string
		want     []string
		wantErr  bool
		wantSent string // the file name the service saw; "" = nothing sent to it
	}{
		{name: "audio file", args: []string{"--file", filepath.Join(dir, "question.ogg"), "не вопрос"},
			want: []string{"🎙 Распознал: «Кто нам должен на 31 марта?»", "Нам должны", "18 контрагентов"}, wantSent: "audio.ogg"},
		{name: "voice note", args: []string{"--file", filepath.Join(dir, "note.oga")},
			want: []string{"🎙 Распознал: «Кто нам должен на 31 марта?»", "18 контрагентов"}, wantSent: "voice.ogg"},
		{name: "audio file, JSON", args: []string{"--json", "--file", filepath.Join(dir, "question.ogg")},
			want: []string{`"as": "voice"`, `"taken": true`, `"heard": "Кто нам должен на 31 марта?"`, `"rule": "receivables"`}, wantSent: "audio.ogg"},
		{name: "oversized audio file", args: []string{"--file", filepath.Join(dir, "big.ogg")},
			want: []string{voiceTooBig}, wantErr: true},
		{name: "audio in a format the service does not take", args: []string{"--file", filepath.Join(dir, "call.amr")},
			want: []string{voiceFormat}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(speech.Transcriptions())
			var out, errs bytes.Buffer
			err := run(t.Context(), append([]string{"ask"}, tt.args...), env, nil, &out, &errs)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ask %q error = %v, want an error %v\n%s%s", tt.args, err, tt.wantErr, out.String(), errs.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("ask %q printed no %q:\n%s", tt.args, w, out.String())
				}
			}
			var saw []string
			for _, c := range speech.Transcriptions()[before:] {
				saw = append(saw, c.FileName+" in "+c.Language)
			}
			if want := []string{tt.wantSent + " in ru"}; (tt.wantSent == "" && len(saw) > 0) || (tt.wantSent != "" && !slices.Equal(saw, want)) {
				t.Errorf("the service saw %q, want %q (never the file's own name)", saw, tt.wantSent)
			}
		})
	}
}

// The console's /upload goes the same way as `ask --file`.
func TestChatUpload(t *testing.T) {
	dir := testFiles(t)
	in := strings.NewReader("/upload " + filepath.Join(dir, "arenda.txt") + "\n" + rentAsked + "\n" +
		"/upload " + filepath.Join(dir, "nope.pdf") + "\n/upload " + filepath.Join(dir, "question.ogg") + "\n")
	var out bytes.Buffer
	if err := run(t.Context(), []string{"chat"}, getenv(nil), in, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	got, at := out.String(), 0
	for _, w := range []string{"📄 Загрузил «", "185 000 рублей", "Не нашёл такого файла: " + filepath.Join(dir, "nope.pdf"), voiceOff} {
		i := strings.Index(got[at:], w)
		if i < 0 {
			t.Fatalf("console printed no %q after byte %d:\n%s", w, at, got)
		}
		at += i + len(w)
	}
}

// TestAskFilePhoto: `ask --file photo.png` sends a photo of a счёт as Telegram would: recognised,
// checked, found in the demo 1C, kept; with a caption, the caption is answered from it.
func TestAskFilePhoto(t *testing.T) {
	if m := ocr.New(ocr.Options{}).Missing(); len(m) > 0 {
		if os.Getenv("FINBOT_REQUIRE_OCR") == "1" {
			t.Fatalf("OCR required (FINBOT_REQUIRE_OCR=1) but missing: %v", m)
		}
		t.Skipf("OCR not installed: %v", m)
	}
	path := filepath.Join(t.TempDir(), "photo.png")
	if err := os.WriteFile(path, testscans.Read("invoice.png"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := run(t.Context(), []string{"ask", "--user", "77", "--file", path}, getenv(nil), nil, &out, &errs); err != nil {
		t.Fatalf("ask --file photo.png: %v\n%s\n%s", err, out.String(), errs.String())
	}
	got := strings.ReplaceAll(out.String(), "\u00a0", " ")
	for _, want := range []string{"Распознал и сохранил «Счёт на оплату № 28 от 02.03.2026", "✗ НДС", "Контрагент в 1С"} {
		if want == "✗ НДС" {
			if strings.Contains(got, want) {
				t.Errorf("a right invoice with a wrong VAT:\n%s", got)
			}
			continue
		}
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}
