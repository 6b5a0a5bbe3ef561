package runner

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

// Register-record primitives: query_movements and drilldown_related_objects.

// queryMovements (query_movements) reads the register records of the account (default: the
// settlement accounts) for the period, on the side that carries the anchor, with the debit and
// credit turnover of each (sub-)account.
func (p *prober) queryMovements(ctx context.Context) {
	hits, _, ok := p.scopedMovements(ctx)
	if !ok {
		return
	}
	type acc struct {
		debit, credit onec.Kopecks
		n             int
	}
	by := map[string]*acc{}
	get := func(code string) *acc {
		if by[code] == nil {
			by[code] = &acc{}
		}
		return by[code]
	}
	for _, h := range hits {
		if h.dr {
			x := get(h.m.AccountDr)
			x.debit += h.m.Amount
			x.n++
		}
		if h.cr {
			x := get(h.m.AccountCr)
			x.credit += h.m.Amount
			if !h.dr || h.m.AccountCr != h.m.AccountDr {
				x.n++
			}
		}
	}
	codes := make([]string, 0, len(by))
	for code := range by {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	for _, code := range codes {
		x := by[code]
		text := fmt.Sprintf("оборот по дебету %s, по кредиту %s (записей: %d)", x.debit, x.credit, x.n)
		if name := p.cats.accounts[code].name; name != "" {
			text = "«" + name + "»: " + text
		}
		p.summary = append(p.summary, fact("Счёт "+code, text, field("Счёт", code), field("Оборот по дебету", x.debit.String()),
			field("Оборот по кредиту", x.credit.String()), field("Записей", strconv.Itoa(x.n))))
	}
	for _, h := range hits {
		p.rows = append(p.rows, movFact(h))
	}
}

// movementScope resolves what a movement probe reads: the optional anchor, the accounts and
// the organizations; it sets the scope.
func (p *prober) movementScope(ctx context.Context) (probeAnchor, []recipe.Entity, []string, bool) {
	var a probeAnchor
	if !p.loadCatalogs(ctx) {
		return a, nil, nil, false
	}
	if p.args.Entity != "" {
		var ok bool
		if a, ok = p.anchor(false); !ok {
			return a, nil, nil, false
		}
	}
	tokens, ok := p.accounts()
	if !ok {
		return a, nil, nil, false
	}
	orgs, ok := p.organizations(a)
	if !ok {
		return a, nil, nil, false
	}
	p.setScope(false, orgs, tokens)
	return a, orgs, tokens, true
}

// movHit is a matched register record: which sides carry the account and the anchor.
type movHit struct {
	m      onec.MovementRow
	org    string
	dr, cr bool
}

// collectMovements runs the register-record template per organization and account, keeps the
// records of the period whose account side fits the anchor, and merges the records that two
// accounts both read (Дт 60 Кт 62 is read for 60 and for 62, and is one record).
// scopedMovements reads the register records in the probe's scope (movementScope) and returns
// them with the account tokens read. ok is false when the probe already has its outcome:
// nothing resolved, an error, or no records (reported as unknown).
func (p *prober) scopedMovements(ctx context.Context) (hits []movHit, tokens []string, ok bool) {
	a, orgs, tokens, ok := p.movementScope(ctx)
	if !ok {
		return nil, nil, false
	}
	if hits, ok = p.collectMovements(ctx, a, orgs, tokens); !ok {
		return nil, nil, false
	}
	p.out.RowsMatched = len(hits)
	if len(hits) == 0 {
		p.unknown(fmt.Sprintf("проводок по счетам %s%s за период нет", strings.Join(tokens, ", "), a.suffix()))
		return nil, nil, false
	}
	return hits, tokens, true
}

func (p *prober) collectMovements(ctx context.Context, a probeAnchor, orgs []recipe.Entity, tokens []string) ([]movHit, bool) {
	var hits []movHit
	for _, org := range orgs {
		seen := map[string][]int{} // record key → its hits, in order of occurrence
		for _, token := range tokens {
			res, ok := p.exec(ctx, idRegisterRecords, onec.Params{"НаДату": boundary(p.toTime), "Организация": refParam(org, refOrg),
				"СчетКод": token, "СчетМаска": token + ".%", "Контрагент": refParam(a.party, refParty), "Договор": refParam(a.contract, refContract)})
			if !ok {
				return nil, false
			}
			p.dropped(res.Dropped)
			movs := res.Movements
			occurrence := map[string]int{}
			for _, m := range movs {
				if p.from != "" && day(m.Period) < p.from {
					continue
				}
				dr := accountMatches(m.AccountDr, token) && a.fits(m.PartyDr, m.ContractDr)
				cr := accountMatches(m.AccountCr, token) && a.fits(m.PartyCr, m.ContractCr)
				if !dr && !cr {
					continue
				}
				key := movKey(m)
				k := occurrence[key]
				occurrence[key]++
				if k < len(seen[key]) {
					h := &hits[seen[key][k]]
					h.dr, h.cr = h.dr || dr, h.cr || cr
					continue
				}
				seen[key] = append(seen[key], len(hits))
				hits = append(hits, movHit{m: m, org: org.Name, dr: dr, cr: cr})
			}
		}
	}
	slices.SortStableFunc(hits, func(x, y movHit) int {
		return cmp.Or(y.m.Period.Compare(x.m.Period), cmp.Compare(y.m.Number, x.m.Number))
	})
	return hits, true
}

func movKey(m onec.MovementRow) string {
	return strings.Join([]string{m.Registrar.UUID, m.Period.String(), m.Number, m.AccountDr, m.AccountCr, m.Amount.Decimal(),
		m.PartyDr.UUID, m.PartyCr.UUID, m.ContractDr.UUID, m.ContractCr.UUID}, "\x00")
}

func movFact(h movHit) facts.Item {
	m := h.m
	title := docTitle(m.Registrar.Kind(), m.Number, day(m.Period))
	party, deal := m.PartyDr.Presentation, m.ContractDr.Presentation
	if !h.dr {
		party, deal = m.PartyCr.Presentation, m.ContractCr.Presentation
	}
	text := fmt.Sprintf("Дт %s — Кт %s, %s", m.AccountDr, m.AccountCr, m.Amount)
	for _, s := range []string{party, deal} {
		if s != "" {
			text += ", " + s
		}
	}
	return fact(title, text, field("Дата", ruDay(m.Period)), field("Дебет", m.AccountDr), field("Кредит", m.AccountCr),
		field("Сумма", m.Amount.String()), field("Контрагент", party), field("Договор", deal), field("Организация", h.org))
}

// drilldownRelated (drilldown_related_objects) shows what hangs on an object as of DateTo: a
// counterparty's contracts and open settlement documents, a contract's open settlement
// documents, or, for an account alone, the documents that form its balance.
func (p *prober) drilldownRelated(ctx context.Context) {
	if p.args.Entity == "" && p.args.Account == "" {
		p.unsupported("Для расшифровки нужен контрагент, договор или счёт.")
		return
	}
	if !p.loadCatalogs(ctx) {
		return
	}
	var a probeAnchor
	if p.args.Entity != "" {
		var ok bool
		if a, ok = p.anchor(false); !ok {
			return
		}
	}
	tokens, ok := p.accounts()
	if !ok {
		return
	}
	orgs, ok := p.organizations(a)
	if !ok {
		return
	}
	p.setScope(true, orgs, tokens)
	if a.party.Ref == "" && a.contract.Ref == "" {
		p.balanceDocuments(ctx, orgs, tokens)
		return
	}
	if a.party.Ref != "" {
		for _, ctr := range p.cats.contracts {
			if ctr.OwnerRef != a.party.Ref || ctr.Deleted || p.args.Organization != "" && ctr.OrgRef != orgs[0].Ref {
				continue
			}
			p.rows = append(p.rows, p.contractFact(ctr))
			p.out.RowsMatched++
		}
	}
	id := idOpenItemsParty
	if a.contract.Ref != "" {
		id = idOpenItemsTreaty
	}
	var open []Row
	for _, org := range orgs {
		params := onec.Params{"НаДату": boundary(p.toTime), "Организация": refParam(org, refOrg),
			"Контрагент": refParam(a.party, refParty), "Договор": refParam(a.contract, refContract)}
		res, ok := p.exec(ctx, id, params)
		if !ok {
			return
		}
		p.dropped(res.Dropped)
		rows := res.Balances
		rows = slices.DeleteFunc(rows, func(r onec.BalanceRow) bool { return !anyAccountMatches(r.Account, tokens) })
		items, _ := openItems(rows, tokens, anchors{org: org, party: a.party, contract: a.contract}, p.cats)
		open = append(open, items...)
	}
	p.out.RowsMatched += len(open)
	if len(open) == 0 {
		p.unknown(fmt.Sprintf("открытых расчётов%s на %s нет", a.suffix(), ruDate(p.to)))
	} else {
		// Per account: a customer's debt on 62 and our debt to the same company on 60 do not net.
		fields := []facts.Field{field("Документов", strconv.Itoa(len(open)))}
		var parts []string
		for _, s := range accountSubtotals(open, nil) {
			parts = append(parts, fmt.Sprintf("по счёту %s — %s (%d)", s.Key, saldoMeaning(s.Key, s.Amount), s.Rows))
			fields = append(fields, field("Сальдо "+s.Key, s.Amount.String()))
		}
		p.summary = append(p.summary, fact("Открытые расчёты", fmt.Sprintf("документов расчётов%s на %s: %d; %s",
			a.suffix(), ruDate(p.to), len(open), strings.Join(parts, "; ")), fields...))
	}
	slices.SortStableFunc(open, func(x, y Row) int { return cmp.Compare(y.Date, x.Date) })
	for _, r := range open {
		title := docTitle(r.Type, r.Number, r.Date)
		text := fmt.Sprintf("дебет %s, кредит %s, остаток %s", r.Debit, r.Credit, r.Amount)
		for _, s := range []string{r.Party, r.Deal} {
			if s != "" {
				text += ", " + s
			}
		}
		p.rows = append(p.rows, fact(title, text, field("Дебет", r.Debit.String()), field("Кредит", r.Credit.String()),
			field("Остаток", r.Amount.String()), field("Контрагент", r.Party), field("Договор", r.Deal)))
	}
}

// balanceDocuments are the documents that form the balance of the accounts as of DateTo.
func (p *prober) balanceDocuments(ctx context.Context, orgs []recipe.Entity, tokens []string) {
	var docs []Row
	for _, org := range orgs {
		for _, token := range tokens {
			res, ok := p.exec(ctx, idRegisterRecords, onec.Params{"НаДату": boundary(p.toTime), "Организация": refParam(org, refOrg),
				"СчетКод": token, "СчетМаска": token + ".%", "Контрагент": nil, "Договор": nil})
			if !ok {
				return
			}
			p.dropped(res.Dropped)
			movs := res.Movements
			rows, _ := drilldown(movs, []string{token}, anchors{org: org})
			docs = append(docs, rows...)
		}
	}
	p.out.RowsMatched = len(docs)
	if len(docs) == 0 {
		p.unknown(fmt.Sprintf("на %s остаток по счетам %s не формируют никакие документы", ruDate(p.to), strings.Join(tokens, ", ")))
		return
	}
	var saldo onec.Kopecks
	for _, r := range docs {
		saldo += r.Amount
	}
	p.summary = append(p.summary, fact("Сальдо", fmt.Sprintf("по счетам %s на %s (дебет − кредит): %s; документов, которые его формируют: %d",
		strings.Join(tokens, ", "), ruDate(p.to), saldo, len(docs)), field("Сальдо", saldo.String()), field("Документов", strconv.Itoa(len(docs)))))
	slices.SortStableFunc(docs, func(x, y Row) int { return cmp.Or(cmp.Compare(y.Date, x.Date), cmp.Compare(y.Number, x.Number)) })
	for _, r := range docs {
		title := docTitle(r.Type, r.Number, r.Date)
		p.rows = append(p.rows, fact(title, fmt.Sprintf("дебет %s, кредит %s, изменение сальдо %s", r.Debit, r.Credit, r.Amount),
			field("Дебет", r.Debit.String()), field("Кредит", r.Credit.String()), field("Изменение сальдо", r.Amount.String())))
	}
}
