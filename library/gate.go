package library

// The knowledge base's answer gate: a passage answers a question only when it holds at least
// this much lexical evidence for it (Passage.Evidence, its BM25 score in units of the index's
// largest term weight, about «how many distinctive terms of the question it matches») on top of
// the usual overlap floor. Without it, a passage sharing half of a short question's words —
// «оплат» in «что там по оплатам от ромашки» — was an answer, and any question got some
// article.
//
// A question the parser recognised as one about rules («что такое…», «как учитывать…», a
// rules topic) needs less: its intent is known, the gate only checks that the knowledge base
// covers it, and such questions are short («нужна ли печать на первичке»). Anything else — a
// message nothing in it was understood, a query the planner wrote — needs more.
//
// Both values are calibrated, not chosen: agent's TestKBGateCalibrated sweeps each over its
// half of the calibration lines of agent/testdata/kbgate (accountants' questions the sample
// knowledge base answers, and questions it must not: 1C figures asked vaguely, chat, other
// domains, accounting it has no article on) and keeps each at the midpoint of the interval
// that maximises F0.5 of «answered from the right article» — precision weighted over recall:
// a wrong article misleads, a refusal offers the likeliest readings as buttons. Re-run it with
// -kbgate-calibrate after changing the knowledge base, the tokenizer or the ranking.
const (
	// KBMinEvidence is the gate for a message not read as a question about rules.
	KBMinEvidence = 2.0734
	// KBMinEvidenceRules is the gate for a question the parser read as one about rules.
	KBMinEvidenceRules = 1.6857
)

// minGateChunks is the smallest index the gate applies to. Evidence reads a BM25 score in units
// of MaxIDF; the weight of a term found in one chunk is 0.71 of it at 20 chunks, 0.78 at the
// sample's 70 and 0.86 at 1,000, but 0.21 at one chunk: below about 20, every term is common
// and the score no longer tells a distinctive match from a chance one, so only the overlap floor
// applies.
const minGateChunks = 20

// relevant reports whether passage p of an index of n chunks qualifies for query q: it shares
// enough of the question's terms or, without a gate, means nearly the same; with a gate it must
// also carry q.MinEvidence of lexical evidence.
func relevant(p Passage, q Query, n int) bool {
	if q.MinEvidence > 0 && n >= minGateChunks {
		return p.Overlap >= q.MinOverlap && p.Evidence >= q.MinEvidence
	}
	return p.Overlap >= q.MinOverlap || p.Dense >= MinDense
}
