package extract

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// benchDOCX builds a DOCX of about 1 MB (compressed) of varied Russian text.
func benchDOCX(b testing.TB) []byte {
	rng := rand.New(rand.NewSource(1))
	words := strings.Fields("поставщик покупатель товар оплата договор акт счёт сумма срок поставки условия " +
		"ответственность стороны обязуется передать принять течение банковских дней подписания " +
		"неустойка пени претензия арбитражный суд реквизиты банк корреспондентский расчётный")
	var body strings.Builder
	for body.Len() < 11<<19 {
		var p strings.Builder
		for w := 0; w < 60; w++ {
			if rng.Intn(8) == 0 {
				fmt.Fprintf(&p, "%d %03d,%02d ", rng.Intn(1000), rng.Intn(1000), rng.Intn(100))
			}
			p.WriteString(words[rng.Intn(len(words))])
			p.WriteString(fmt.Sprintf("%c ", 'а'+rune(rng.Intn(32))))
		}
		body.WriteString(wPara("", p.String()))
	}
	return makeDOCXBody(b, body.String(), false)
}

func BenchmarkExtractDOCX(b *testing.B) {
	data := benchDOCX(b)
	b.Logf("DOCX: %d bytes", len(data))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Extract(context.Background(), "bench.docx", data, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkChunks(b *testing.B) {
	d := chunkDoc(1, 3)
	for len(d.Pages[0].Text) < 1<<20 {
		d.Pages[0].Text += "\n\n" + chunkDoc(1, int64(len(d.Pages[0].Text))).Pages[0].Text
	}
	b.SetBytes(int64(len(d.Pages[0].Text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Chunks(d, ChunkOptions{})
	}
}

func BenchmarkNormalize(b *testing.B) {
	s := strings.Repeat(sampleText+"\n\n", (1<<20)/len(sampleText))
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Normalize(s)
	}
}

func BenchmarkExtractPDF(b *testing.B) {
	data := fixturePDF(b, pdfOpts{compress: true})
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Extract(context.Background(), "b.pdf", data, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}
