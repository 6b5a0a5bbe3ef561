package passages

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// Parts of a form's total paid by their days — «Оплата: 50 % суммы счёта — не позднее
// 04.12.2026, оставшиеся 50 % — не позднее 10.12.2026»: each part computed from the total the
// form states (docTotalFor's reading), with its day.

var (
	// shareOfForm: a clause that pays a share of the form's own sum.
	shareOfForm = regexp.MustCompile(`(?i)(\d{1,3}(?:,\d{1,2})?)\s*%\s*(?:\([^()]{1,40}\)\s*)?(?:от\s+)?(?:суммы|стоимости)\s+(?:сч[её]та|заказа|спецификации|упд|накладной)`)
	// sharePart: one part and its day («50 % … — не позднее 04.12.2026», «оставшиеся 50 % — до 10.12.2026»).
	sharePart = regexp.MustCompile(`(?i)(\d{1,3}(?:,\d{1,2})?)\s*%[^;]{0,60}?(?:не\s+позднее|до)\s+(\d{2}\.\d{2}\.\d{4})`)
	// asksPart: the question asks a part paid ahead or after («предоплата», «аванс», «остаток»,
	// «вторая часть»).
	asksPart = regexp.MustCompile(`(?i)предоплат|аванс|остат|оставш|втор\p{L}*\s+част|перв\p{L}*\s+част|половин|част\p{L}*\s+оплат`)
)

// formSharesFor is the line (Markdown) that computes the parts of the total of the form the
// question names that a clause of the form pays by days of their own, and the clause; "" when
// the question names no such form or asks no part, or the form states no total that adds up.
func formSharesFor(q Question, rds []*readDoc, docs []docstore.Doc) (string, library.ClauseHit) {
	// «а остаток» after «предоплату по счёту до какого»: the form the dialog is about
	kind := formKind.FindStringSubmatch(q.Text + " " + q.Continues)
	if kind == nil || !asksPart.MatchString(q.Text) {
		return "", library.ClauseHit{}
	}
	stem := formStem(kind[2])
	var forms []int
	for di, rd := range rds {
		title := strings.ReplaceAll(strings.ToLower(rd.header.Title+" "+docs[di].Meta.Title), "ё", "е")
		if strings.Contains(title, strings.ReplaceAll(stem, "ё", "е")) {
			forms = append(forms, di)
		}
	}
	if len(forms) > 1 {
		// several invoices: the one asked is named by more than its kind — left to the clauses
		var named []int
		for _, di := range forms {
			if !namesNoLine(Question{Text: q.Text}, rds[di].header.Title+" "+docs[di].Meta.Title) {
				continue
			}
			named = append(named, di)
		}
		forms = named
	}
	if len(forms) != 1 {
		return "", library.ClauseHit{}
	}
	for _, di := range forms {
		rd := rds[di]
		for _, u := range rd.cd.Units {
			if !shareOfForm.MatchString(u.Text) {
				continue
			}
			t, _, ok := totalsOf(rd.cd.Units)
			if !ok {
				return "", library.ClauseHit{}
			}
			parts := sharePart.FindAllStringSubmatch(u.Text, -1)
			if len(parts) == 0 {
				continue
			}
			esc := md.Escape
			var b strings.Builder
			b.WriteString(esc(fmt.Sprintf("По «%s» на %s (%s):", docs[di].Meta.Title, ru.Money(t.gross), unitPlace(u, docs[di].Meta))))
			var sum int64
			for _, p := range parts {
				r, ok := new(big.Rat).SetString(strings.Replace(p[1], ",", ".", 1))
				if !ok {
					return "", library.ClauseHit{}
				}
				k := ru.Kopecks(new(big.Rat).Quo(new(big.Rat).Mul(big.NewRat(t.gross, 100), r), big.NewRat(100, 1)))
				sum += k
				b.WriteString("\n" + esc(fmt.Sprintf("- %s %% — ", p[1])) + "**" + esc(ru.Money(k)) + "**" + esc(" не позднее "+p[2]))
			}
			if diff := t.gross - sum; diff != 0 && len(parts) > 1 && (diff > 1 || diff < -1) {
				return "", library.ClauseHit{} // parts that do not make up the total: not read right
			}
			return b.String(), library.ClauseHit{Doc: di, Unit: u}
		}
	}
	return "", library.ClauseHit{}
}
