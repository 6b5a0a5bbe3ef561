// Package kb is the knowledge-base skill (S2): [Skill] answers from the
// company knowledge base behind its relevance gate ([Gate]), a rules
// question first from the user's own documents, and serves the planner's
// search_general_kb tool ([Search]).
//
// The knowledge base is short Markdown articles on accounting and tax that
// an accountant maintains in a spreadsheet and exports as CSV.
//
// The CSV has a header row with the columns title, content, topic,
// jurisdiction and updated_at, in any order and any letter case. Files are
// UTF-8 (a byte order mark is ignored) with a comma separator; a semicolon
// separator is accepted when the header line has semicolons and no commas,
// which is what Excel writes in the Russian locale. Dates are 2026-01-15 or
// 15.01.2026.
//
// [Parse] separates two kinds of failure. A file that cannot be read as a
// knowledge base at all (not UTF-8, a wrong header, broken quoting, too
// large) is rejected with an error that matches [ErrFormat] or
// [ErrTooLarge]. Bad rows in an otherwise good file are reported together
// in a [*ParseError] next to the articles that are fine; its problems are
// written in Russian for the person who edits the spreadsheet, and they
// number rows as a spreadsheet does (the header is row 1).
//
// [Sample] is a built-in knowledge base of about thirty articles for a
// Russian company on the general tax regime (ОСНО), used for demos and
// retrieval tests.
package kb
