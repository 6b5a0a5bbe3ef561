package postcheck

import (
	"strings"
	"testing"
	"unicode"

	"github.com/finbot/finbot/agent/facts"
)

var fuzzSeeds = []string{
	ratesOK, ledgerOK, leaseOK, badAnswer,
	"1 250 000,00 ₽ и 1,25 млн", "31.03.2026, 31 марта 2026, 2026-03-31, 31 марта", "№ СВ00-000050",
	"[1] – Банк России", "{\"a\": {\"b\": \"}\\\"\"}}", "1 2 3 4 5 6 7 8 9 000", "1.2.3.4.5", "1,,2..3",
	"99999999999999999999999,99999 трлн", "с 1 по 99 марта 9999", "29.02.2025 29.02.2024", "25:61 23:59:59",
	"№", "№ ", "№-", "3-", "3-й-", "5млнx", "1С:Бухгалтерия 8.3", "u:1 doc_id= chunk", "\\", "\\\\[1\\]",
	"k3j5m2n7p4q6r2s5 kb-000000000000 e1cib/ https://x.y/1 www.", "\xff\xfe1\xc0 000", "Источники", "[1]x\n[2]y",
	"Других упоминаний не найдено.", "Я — языковая модель.", "12.05 и 31.03.", "\u00a0\u202f\u2009\u2007",
}

func FuzzNumbers(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, n := range Numbers(text) {
			if n == "" || strings.ContainsFunc(n, unicode.IsSpace) {
				t.Fatalf("Numbers(%q) has %q", text, n)
			}
		}
	})
}

func FuzzCheck(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, fuzzSeeds[(i+1)%len(fuzzSeeds)], fuzzSeeds[(i+7)%len(fuzzSeeds)])
	}
	kinds := map[Kind]bool{Empty: true, Artifact: true, SourceList: true, ForbiddenPhrase: true, NegativeTail: true, InventedNumber: true,
		Unattributed: true}
	f.Fuzz(func(t *testing.T, answer, question, fact string) {
		p := facts.Payload{
			Found:       fact != "",
			Items:       []facts.Item{{Kind: "passage", Title: question, Text: fact, Fields: []facts.Field{{Name: fact, Value: answer}}}},
			Sources:     []facts.Source{{Title: fact}},
			Limitations: []string{question},
		}
		vs := Check(answer, p, question)
		for _, v := range vs {
			if !kinds[v.Kind] || v.Detail == "" {
				t.Fatalf("Check(%q) gave %q", answer, v)
			}
			if v.Kind == InventedNumber {
				// Every number of the answer is in the facts: a field value is the answer.
				t.Fatalf("Check(%q) with the answer among the facts gave %q", answer, v)
			}
		}
		if got := Instructions(vs); (got == "") != (len(vs) == 0) {
			t.Fatalf("Instructions(%q) = %q", vs, got)
		}
		// Without the facts it must not panic either.
		vs = Check(answer, facts.Payload{}, "")
		if got := Instructions(vs); (got == "") != (len(vs) == 0) {
			t.Fatalf("Instructions(%q) = %q", vs, got)
		}
	})
}
