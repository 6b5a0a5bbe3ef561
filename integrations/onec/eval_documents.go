package onec

// The tabular sections of the demo's documents beyond their headers. The ledger keeps one
// counterparty, contract and amount per document; a section's lines are derived from them, and
// a payment's decoding (РасшифровкаПлатежа) from the document's own register records, as BP
// posts one record per line of it.

// debtCorrectionType is BP's КорректировкаДолга: its counterparties are КонтрагентДебитор and
// КонтрагентКредитор, its contracts and amounts lines of ДебиторскаяЗадолженность and
// КредиторскаяЗадолженность.
const debtCorrectionType = "КорректировкаДолга"

// paymentLines is Документ.<typ>.РасшифровкаПлатежа of a payment by bank or cash: per document, one
// line per contract its settlement records name (the contract subconto of either side), with
// the amount posted under it — a payment split over two contracts has two lines. Where those
// amounts do not add up to the document's (unposted, or no contract on the records), the one
// line is the header's contract and amount.
func (d *Demo) paymentLines(typ string) *table {
	type part struct {
		ctr int32
		sum Kopecks
	}
	parts := map[int32][]part{}
	for k := range d.movs {
		m := &d.movs[k]
		if d.docType[m.rec] != typ {
			continue
		}
		for s := range 2 {
			for pos, kind := range d.kindLists[m.kinds[s]] {
				if kind.t != tCtr || pos >= 3 || m.sub[s][pos] < 0 {
					continue
				}
				ps := parts[m.rec]
				j := 0
				for j < len(ps) && ps[j].ctr != m.sub[s][pos] {
					j++
				}
				if j == len(ps) {
					ps = append(ps, part{ctr: m.sub[s][pos]})
				}
				ps[j].sum += m.amount
				parts[m.rec] = ps
			}
		}
	}
	var rows [][]val
	for i := range d.docs.known {
		if d.docType[i] != typ {
			continue
		}
		ps, total := parts[i], Kopecks(0)
		for _, p := range ps {
			total += p.sum
		}
		if len(ps) == 0 || total != d.docSrc[i].Amount {
			ps = []part{{ctr: d.docCtr[i], sum: d.docSrc[i].Amount}}
		}
		for n, p := range ps {
			rows = append(rows, []val{refVal(tDoc, i), intVal(int64(n + 1)), refVal(tCtr, p.ctr), numVal(p.sum)})
		}
	}
	return rowsTable(foldAll("Ссылка", "НомерСтроки", "ДоговорКонтрагента", "СуммаПлатежа"), rows)
}

// debtLines is a tabular section of КорректировкаДолга: the ledger's correction is one line of
// its receivables (ДебиторскаяЗадолженность) under its contract and amount; its payables
// section is empty.
func (d *Demo) debtLines(receivables bool) *table {
	var rows [][]val
	for i := range d.docs.known {
		if receivables && d.docType[i] == debtCorrectionType {
			rows = append(rows, []val{refVal(tDoc, i), intVal(1), refVal(tCtr, d.docCtr[i]), numVal(d.docSrc[i].Amount)})
		}
	}
	return rowsTable(foldAll("Ссылка", "НомерСтроки", "ДоговорКонтрагента", "Сумма"), rows)
}
