// Package retrieval is finbot's lexical retrieval core: an in-memory BM25
// index over document chunks with Russian and English Snowball stemming,
// accounting-aware tokenisation and reciprocal rank fusion.
//
// The package is deliberately storage-agnostic. A caller loads an owner's
// stored chunks, calls [Build] once (tokenisation and stemming happen there,
// in parallel for large inputs) and keeps the resulting immutable [*Index]
// for as long as the owner's documents do not change; [Index.Search] is safe
// for concurrent use. Indexes share no chunk data (only a process-wide,
// bounded word → stem cache), so an index built from one owner's chunks can
// only ever return that owner's chunks.
//
// # Tokenisation
//
// [Tokens] exposes the exact term stream the index uses:
//
//   - text is lower-cased, ё is folded to е, soft hyphens, zero-width
//     characters and combining marks from PDF extraction are repaired;
//   - Cyrillic words are stemmed with the Russian Snowball stemmer, Latin
//     words with the English one; words of up to three letters (ИНН, КПП,
//     НДС) are kept as they are; a short curated list of stop words of both
//     languages is dropped; a small accounting thesaurus folds derivational
//     families onto one term (поставка/поставщик/поставлять, оплата/платёж,
//     неустойка/пени/штраф, …);
//   - numbers are kept whole: «1 250 000,00», «1250000.00» and «1.250.000,00»
//     all become "1250000"; a non-zero fraction is kept ("1250000.50") and the
//     integer part is emitted as well, so amounts match with or without
//     kopecks; account codes such as «62.01» also emit their parent "62";
//   - dates «01.03.2026», «1.3.26», «2026-03-01» and «1 марта 2026 г.» all
//     become "2026-03-01" plus the year-less "--03-01", so «на 31 марта»
//     finds «31.03.2026»;
//   - INNs, KPPs, BIKs and bank accounts are digit runs and stay whole;
//   - document numbers such as «П-15/2025», «СВ00-000123» or «№ 77» are kept
//     whole, plus their prefixes ("п-15", so «П-15» matches «П-15/2025») and
//     the parts that identify something on their own ("000123" and "123",
//     the INN in «7714583920/771401001»; not "15" or the year); Latin
//     letters that look like Cyrillic ones are folded in codes, so
//     «CB00-000123» typed in Latin matches «СВ00-000123»; «№» adds a
//     "№<number>" term; «%» and «₽» add the terms for «процент» and «рубль»;
//   - «3 млн», «385 тыс.» also emit "3000000" and "385000".
//
// # Ranking
//
// Scores are Okapi BM25 with the non-negative Lucene IDF
// ln(1 + (N − df + 0.5)/(df + 0.5)); k1 = 1.2 and b = 0.75 unless
// [BuildWithOptions] says otherwise. A chunk's heading is indexed together
// with its text. Each matching chunk also receives [Options.DocWeight]
// (0.5) times the BM25 score of its whole document, because questions name
// the document («по договору с Техснабом») while the answering clause does
// not. [RRF] fuses ranked lists (for example BM25 and a future embedding
// retriever) by reciprocal rank.
package retrieval
