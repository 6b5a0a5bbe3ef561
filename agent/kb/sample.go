package kb

import (
	"bytes"
	_ "embed"
	"slices"
	"sync"
)

//go:embed sample.csv
var sampleCSV []byte

var parsedSample = sync.OnceValue(func() []Article {
	articles, err := Parse(bytes.NewReader(sampleCSV))
	if err != nil {
		panic("kb: embedded sample.csv: " + err.Error()) // TestSample keeps this from happening
	}
	return articles
})

// Sample returns the built-in knowledge base: about thirty Russian articles
// on accounting and tax for a company on the general tax regime, as of
// November 2026. Each call returns a fresh slice the caller may modify. It
// panics only if the embedded sample.csv is broken, which a test rules out.
func Sample() []Article {
	return slices.Clone(parsedSample())
}
