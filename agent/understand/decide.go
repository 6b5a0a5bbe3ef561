package understand

import (
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/ru"
)

// ledgerFigures are the concepts that ask for a figure of the ledger (a «карточка» alone is
// no figure: see CAccountCard).
var ledgerFigures = []Concept{CReceivables, CPayables, CDebt, COwesUs, CWeOwe, CBalance, COpenItems, CBankOps, CForming, CTurnoverSheet}

// decide picks the kind and the recipe from what the scan found. The order is the order of
// precedence: a request to change data, small talk, the user's documents, a how-to question,
// the key rate, rates, news, the ledger, then the knowledge base.
func (p *Parser) decide(s *scan, d *Decision) {
	set := func(k Kind, rule, why string, sure bool) {
		d.Kind, d.Rule, d.Sure = k, rule, sure
		d.Reasons = append(d.Reasons, why)
	}
	letters := 0
	for _, t := range s.toks { // not s.in.Text: settlement accounts are blanked out of it
		for _, r := range t.Text {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				letters++
			}
		}
	}
	ledgerAsk := s.is(ledgerFigures...) || s.is(CContracts) && s.is(CNotClosed) || s.asksAging(d) || s.asksAct(d) || s.asksStock() ||
		s.is(COffsets) || s.asksPartyCard(d, d.Unknown != "") ||
		s.hasValue(CAccountCard, "") || s.is(CAccountCard) && (d.Period.Set || d.Date.Set) || // «карточка за март»
		d.Counterparty.Set || len(d.Parties) > 0 || d.Contract.Set || len(d.Candidates) > 0 ||
		d.BankAccount.Set || d.UnknownBankAccount != "" || len(d.BankAccountCandidates) > 0 || d.UnknownContract != "" ||
		s.is(CDocuments) && (d.Counterparty.Set || len(d.Parties) > 0 || d.Contract.Set || d.Unknown != "" || d.Period.Set && salesOrPurchases(s.in.Text) != "")
	dated := d.Date.Set || d.Period.Set
	named := d.Counterparty.Set || len(d.Parties) > 0 || d.Contract.Set
	// A how-to or what-is question asks about rules, not figures, unless it names a company or
	// a date; a rules topic («проводки», «срок давности») with debt words and neither is one too.
	kbAsk := s.is(CKBQuestion) && (s.first(CKBQuestion) <= 1 || !dated) && !named ||
		s.is(CKBTopic) && !dated && !named && !s.is(CSmallTalk)
	// «а за март?», «и по другому?»: a continuation with nothing of its own to answer. «а что по
	// курсу юаня» names its currency and its subject: a question of its own.
	selfContained := d.Currencies.Set && s.is(CRate) || s.hasValue(CKeyRate, "strong") || s.is(CNews)
	followUp := s.first(CFollowUp) == 0 && len(s.toks) <= 6 && !selfContained
	if d.PartOfName && !s.is(ledgerFigures...) && !s.is(CDocuments, CContracts, CAccountCard) && !d.Contract.Set && !d.Account.Set &&
		!d.Date.Set && !d.Period.Set && howWhy.MatchString(s.folded) {
		// «когда передают ключи от склада»: «склад» of «Склад-Сервис», and nothing of 1C's asked —
		// the company is offered, not its debt stated as the answer
		d.Kind, d.Rule, d.Sure = KindClarify, "part_of_name", true
		d.Candidates = []recipe.Entity{d.Counterparty.Value}
		d.Counterparty = Slot[recipe.Entity]{}
		d.Reasons = append(d.Reasons, "слово из названия контрагента, но вопрос не о расчётах")
		return
	}
	switch {
	case letters < 2:
		set(KindClarify, "too_short", "в сообщении нет вопроса", true)
	case subscribeAsked.MatchString(s.folded) && !s.hasValue(CKBQuestion, "definition"):
		set(KindSubscribe, "subscribe", "подписка на сводки или уведомления, отписка или список подписок", true)
	case s.is(CWrite) && s.first(CWrite) <= 1 && !kbAsk:
		set(KindLedgerWrite, "write", "просьба изменить данные 1С — бот только читает", true)
	case followUp:
		set(KindClarify, "follow_up_without_context", "продолжение вопроса, которого нет", false)
	case s.is(CSmallTalk) && !ledgerAsk && !s.is(CRate, CKeyRate, CNews, CKBQuestion, CKBTopic, CMyDocs, CDocTerms) && len(s.toks) <= 8:
		set(KindSmallTalk, "smalltalk", "приветствие или разговор о боте", true)
	case p.aboutMyDocs(s, d):
		rule := "docs"
		if s.asksAct(d) && s.in.Catalogs == nil {
			rule = "docs_act" // NeedsCatalogs: the company it names may be another than the act's
		}
		set(KindDocs, rule, "вопрос о загруженных документах", true)
	case kbAsk && !(d.Currencies.Set && s.is(CRate)) && !s.is(CNews):
		switch {
		case s.hasValue(CKBQuestion, "definition"):
			set(KindKB, "kb_definition", "вопрос-определение: термин или правило учёта", true)
		case s.is(CKBQuestion):
			set(KindKB, "kb_question", "вопрос о правилах учёта, а не о цифрах 1С", true)
		default:
			set(KindKB, "kb_topic", "вопрос о терминах, учёте или нормативке", true)
		}
	case s.is(CNews) && !ledgerAsk:
		set(KindNews, "news", "запрос финансовых новостей", true)
	case s.keyRate(d, ledgerAsk):
		set(KindKeyRate, "key_rate", "вопрос о ключевой ставке", true)
	case (d.Currencies.Set || s.is(CRate)) && !ledgerAsk:
		set(KindRate, "rate", "вопрос о курсе валют", d.Currencies.Set || s.is(CRate))
	case ledgerAsk || d.Account.Set || d.UnknownAccount != "" || d.Unknown != "" && s.is(CDocuments):
		p.ledger(s, d)
	case s.is(CKBTopic, CKBQuestion, CDocTerms):
		set(KindKB, "kb_topic", "вопрос о терминах, учёте или нормативке", true)
	case s.hasStemPrefix("аванс") && (dated || len(s.toks) <= 3) && !s.is(CKBTopic, CKBQuestion, CDocTerms, CMyDocs) &&
		!s.hasStemPrefix("фактур") && !s.hasStemPrefix("счет") &&
		!s.hasStemPrefix("зарплат") && !s.hasStemPrefix("сотрудник") && !s.hasStemPrefix("работник") && !s.hasStemPrefix("подотчет"):
		// «авансы на 31.12»: advances issued (60.02) or received (62.02)? Asked back with both.
		set(KindClarify, "advance_direction", "не сказано, какие авансы: выданные или полученные", true)
	case len(s.toks) <= 4 && !s.is(CKBTopic, CKBQuestion):
		set(KindClarify, "vague", "слишком общий запрос", false)
	default:
		set(KindKB, "default", "нет признаков документа, курса, новостей или 1С", false)
	}
}

// subscribeAsked: the message asks for digests or alerts on a schedule, or to stop them, or for
// the list of them — «подпиши на ключевую ставку», «присылай курсы каждое утро в 9», «сообщай,
// если кто-то должен больше миллиона», «отпишись от утренней сводки», «мои подписки». A request
// to send something regularly needs its rhythm or a digest named («присылай курсы» alone is a
// question about rates); a request to be told is a verb of repeated telling with its subject
// («уведомляй о просрочке») or its condition («сообщай, если»): «сообщи, когда срок оплаты»
// asks a question. «Подписать» (sign) a document is not one: subscribing takes «на».
var subscribeAsked = regexp.MustCompile(`(^|\s)(` +
	`подпиш(и|ите)(\s+(меня|нас|чат))?\s+на\s|подписать(ся)?\s+(меня\s+|нас\s+|чат\s+)?на\s|подписыва(й|йте)\s+на\s|` +
	`(присыла|отправля|скидыва|высыла|шли)\p{L}*\s+(.*\s)?(кажд\p{L}*\s+(утр|ден|дн|недел|понедельн|вторн|сред|четверг|пятниц)|ежеднев|еженедел|по\s+утрам|по\s+(понедельник|вторник|сред|четверг|пятниц)|утренн\p{L}*\s+сводк|сводк\p{L}*\s+по\s+утрам)|` +
	`(уведомля\p{L}*|уведоми(те)?|сообща(й|йте)|оповеща(й|йте)|оповести(те)?|предупрежда(й|йте))\s+(мне\s+|меня\s+|нам\s+|нас\s+)?((о|об|про)\s|(.*\s)?(если|когда|как\s+только)\s)|` +
	`отпиш\p{L}*|отписать\p{L}*|отмени\p{L}*\s+(все\s+)?(подписк|рассылк|утренн\p{L}*\s+сводк)|` +
	`(мои|наши|какие)(\s+(у\s+(меня|нас)|есть))?\s+подписк\p{L}*)`)

// hasValue reports whether a hit of concept c carries value v.
func (s *scan) hasValue(c Concept, v string) bool {
	for _, h := range s.hits {
		if h.Concept == c && h.Value == v {
			return true
		}
	}
	return false
}

// first returns the token index where concept c is first found, or a large number.
func (s *scan) first(c Concept) int {
	best := 1 << 30
	for _, h := range s.hits {
		if h.Concept == c && h.Start < best {
			best = h.Start
		}
	}
	return best
}

// keyRate reports whether the message asks for the key rate: a phrase that means it alone
// («ключевая», «кс»), or «ставка» with no currency and nothing of the ledger.
func (s *scan) keyRate(d *Decision, ledgerAsk bool) bool {
	for _, h := range s.hits {
		if h.Concept == CKeyRate && h.Value != "strong" && s.rateOfSomething(h.End) {
			continue // «ставка аренды за метр», «ставка по займу»: a rate of something else
		}
		if h.Concept == CKeyRate && (h.Value == "strong" || !d.Currencies.Set && !ledgerAsk && !s.is(CKBTopic)) {
			return !ledgerAsk || h.Value == "strong" && !s.is(CReceivables, CPayables, CBalance)
		}
	}
	return false
}

// rateOfSomething reports whether the words after a bare «ставка» (at token i) say what it is
// the rate of — rent, a loan, a tax, an hour — so that it is not the key rate.
func (s *scan) rateOfSomething(i int) bool {
	for k := i; k < min(i+2, len(s.toks)); k++ {
		t := s.toks[k].Stem
		if k == i && (t == "по" || t == "за") {
			continue
		}
		for _, p := range rateObjects {
			if strings.HasPrefix(t, p) {
				return true
			}
		}
		return false
	}
	return false
}

// rateObjects are what a rate other than the key rate is of: «ставка аренды», «ставка по
// займу», «ставка за час».
var rateObjects = []string{"аренд", "займ", "заем", "кредит", "депозит", "вклад", "процент", "налог", "ндс", "ндфл", "взнос", "пен",
	"купон", "дисконт", "метр", "кв", "час", "сотрудник", "работник", "лизинг", "субаренд", "обслуживан", "договор"}

// aboutMyDocs reports whether the question is about the user's uploaded documents: it says so
// («в моём договоре», «в загруженном акте»), or names one of them — its kind together with
// something of its own («акт сверки с гранитом», «договор поставки от 10 марта»), or its number
// («15-П») — or asks for a contract's terms of a company one of them is with. A question that
// names an account or asks for the list of debtors stays with the ledger.
func (p *Parser) aboutMyDocs(s *scan, d *Decision) bool {
	strong, weak, search := false, false, false
	for _, h := range s.hits {
		if h.Concept == CMyDocs {
			switch h.Value {
			case "weak":
				weak = true
			case "search":
				search = true
			default:
				strong = true
			}
		}
	}
	if search && !s.is(ledgerFigures...) && !s.is(CRate, CKeyRate, CNews) && !d.Currencies.Set && !d.Account.Set {
		return true // «найди премию главному бухгалтеру»
	}
	if strong {
		return true // «найди договор», «в моём договоре»: even with nothing uploaded, the answer says so
	}
	if len(s.in.Docs) == 0 {
		return false
	}
	if d.Account.Set || d.Contract.Set || s.is(CReceivables, CPayables, CByParty) {
		return false // the uploaded contract is not in 1C: a 1C contract number is the ledger's
	}
	kind, noun, own, number, named := s.uploadedRefs(d)
	if s.asksAct(d) && !weak {
		// «сделай акт сверки с …», or an act with a company no uploaded document names: the act
		// of 1C, not the uploaded one («акт сверки с гранитом» of an uploaded act with Гранит
		// stays the document's)
		if makeAct.MatchString(s.folded) || d.Counterparty.Set && !named {
			return false
		}
	}
	figures := s.is(CBalance, COpenItems, CBankOps, COwesUs, CWeOwe, CForming, CDebt)
	switch {
	case number:
		return true
	case kind && (own || weak):
		return true
	case (weak || noun) && own && !figures:
		return true
	case s.is(CDocTerms) && (own || weak) && !figures:
		return true
	}
	return false
}

// docKinds are the nouns that begin a document's title and say what kind of document it is.
var docKinds = map[string]bool{"договор": true, "акт": true, "счет": true, "накладн": true, "соглашен": true,
	"спецификац": true, "дополнительн": true, "приложен": true, "упд": true}

// makeAct: the message asks to make an act, not about one («сделай акт сверки», «нужен акт
// сверки», «пришли сверку»).
var makeAct = regexp.MustCompile(`(^|\s)(сделай|сделайте|сформируй|сформируйте|составь|составьте|подготовь|подготовьте|выгрузи|выгрузите|нужен|нужна|пришли|пришлите|распечатай|построй|сверь|сверьте|давай)(\s|$)`)

// uploadedRefs reports what the message names of the uploaded documents: the kind of one
// («акт сверки»: its first two words), something of its own (a company in its title, a number
// of its title, its date), its number («15-П», a number with a dash or slash), and whether
// what it names of its own is a word of a title (a company's name), not a number or a date.
func (s *scan) uploadedRefs(d *Decision) (kind, noun, own, number, named bool) {
	for _, title := range s.in.Docs {
		tt := Tokenize(title)
		if len(tt) >= 2 && docKinds[tt[0].Stem] && s.hasBigram(tt[0].Stem, tt[1].Stem) {
			kind = true
		}
		if len(tt) >= 1 && docKinds[tt[0].Stem] && slices.ContainsFunc(s.toks, func(t Token) bool { return t.Stem == tt[0].Stem }) {
			noun = true
		}
		if per, ok, _ := ru.ParsePeriod(title, s.in.Now); ok && d.Date.Set && per.Single() && per.From.Equal(d.Date.Value) {
			own = true
		}
		for _, t := range tt {
			isNum := strings.ContainsAny(t.Text, "0123456789")
			for _, m := range s.toks {
				switch {
				case isNum && strings.ContainsAny(t.Text, "-/") && m.Text == t.Text:
					number = true
				case isNum && m.Text == t.Text && !strings.Contains(t.Text, "."):
					own = own || len(t.Text) <= 2 && kind // «за 1 квартал»
				case !isNum && len([]rune(t.Text)) >= 5 && !genericTitleWord(t.Stem) && !docKinds[t.Stem] &&
					(m.Text == t.Text || declined(m.Text, t.Text) || typoEligible(m.Stem) && within1(m.Stem, t.Stem)):
					own, named = true, true
				}
			}
		}
	}
	return kind, noun, own, number, named
}

// hasBigram reports whether two stems follow each other in the message.
func (s *scan) hasBigram(a, b string) bool {
	for i := 0; i+1 < len(s.toks); i++ {
		if s.toks[i].Stem == a && s.toks[i+1].Stem == b {
			return true
		}
	}
	return false
}

// genericTitleWord are the words of document titles that name no particular document.
func genericTitleWord(stem string) bool {
	switch stem {
	case "договор", "поставк", "сверк", "квартал", "кварта", "оказан", "услуг", "аренд", "подряд", "выполнен", "работ",
		"соглашен", "дополнительн", "приложен", "спецификац", "счет", "накладн":
		return true
	}
	return false
}

// saysToUs reports whether a phrase of the message says outright that the debt is to us
// («нам должен», «должны нам»).
func (s *scan) saysToUs() bool {
	for _, h := range s.hits {
		if h.Concept == COwesUs && (strings.Contains(h.Phrase, "нам") || strings.Contains(h.Phrase, "кто")) {
			return true
		}
	}
	return false
}

// hasTok reports whether the message has the word w («перед», «нами»).
func (s *scan) hasTok(w string) bool {
	return slices.ContainsFunc(s.toks, func(t Token) bool { return t.Text == w })
}

// ledger picks the recipe of a question for 1C.
func (p *Parser) ledger(s *scan, d *Decision) {
	d.Top = topAsked(s.folded)
	d.AtLeast = atLeastAsked(s.folded)
	d.NetOfVAT = strings.Contains(s.folded, "без ндс")
	set := func(r recipe.Name, rule, why string) {
		d.Kind, d.Recipe, d.Rule, d.Sure = KindLedger, r, rule, true
		d.Reasons = append(d.Reasons, why)
	}
	party := d.Counterparty.Set || len(d.Parties) > 0
	single := party || d.Contract.Set
	switch {
	case !party && len(d.Candidates) > 1:
		d.Kind, d.Rule, d.Sure = KindClarify, "ambiguous_counterparty", true
		d.Reasons = append(d.Reasons, "название подходит нескольким контрагентам")
		return
	case len(d.BankAccountCandidates) > 1:
		d.Kind, d.Rule, d.Sure = KindClarify, "ambiguous_bank_account", true
		d.Reasons = append(d.Reasons, "так оканчиваются несколько расчётных счетов")
		return
	}
	if d.UnknownBankAccount != "" {
		// The recipe is picked as if the account were known; the 1C lane says it is not ours.
		defer func() {
			d.Kind, d.Rule, d.Sure = KindUnknownEntity, "unknown_bank_account", true
			d.Reasons = append(d.Reasons, "такого расчётного счёта нет у наших организаций")
		}()
	}
	if d.UnknownContract != "" {
		defer func() {
			d.Kind, d.Rule, d.Sure = KindUnknownEntity, "unknown_contract", true
			d.Reasons = append(d.Reasons, "договора с таким номером нет в справочнике")
		}()
	}
	if !single && d.Unknown != "" {
		// Pick the recipe as if the company were known, so the 1C lane can still try the name
		// with its own resolver; the decision says no catalog entry matched it.
		defer func() {
			d.Kind, d.Rule, d.Sure = KindUnknownEntity, "unknown_counterparty", true
			d.Reasons = append(d.Reasons, "контрагента с таким названием нет в справочнике")
		}()
		party = true
	}
	// Which side of a debt: «нам должен» says it outright; «поставщики» or «покупатели» decide
	// a debt, an open item or an unpaid bill that does not.
	toUs := s.is(CReceivables) || s.saysToUs() || s.hasValue(CAging, "receivables")
	fromUs := s.is(CPayables, CWeOwe) || len(s.toks) > 0 && s.toks[0].Text == "кому" && s.hasStemPrefix("должн") ||
		s.hasValue(CAging, "payables")
	if !toUs && !fromUs || s.is(COwesUs) && !s.saysToUs() {
		switch {
		case s.is(CSuppliers) && !s.is(CCustomers):
			toUs, fromUs = false, true
		case s.is(CCustomers) && !s.is(CSuppliers):
			toUs, fromUs = true, false
		case s.is(COwesUs):
			toUs = true
		}
	}
	tradeKind := salesOrPurchases(s.in.Text)
	item := ""
	if s.asksStock() {
		item = s.stockItem()
	}
	switch {
	case s.asksStock() && !s.is(CDocuments, CTurnoverSheet, CAccountCard, CForming) && !single &&
		(item != "" || !d.Account.Set || s.hasValue(CStock, "units") || s.hasValue(CStock, "unit")):
		// «сколько штук бумаги на складе», «остаток товара картридж в штуках», «остаток по 41 в
		// штуках»: the stock of the quantity accounts in the items' units, of the item named (the
		// lane finds it in 1C's nomenclature). «товары на складе», «остаток товаров на 41.01»
		// stay the balance of the account, which shows its items anyway.
		d.Item = item
		set(recipe.StockBalance, "stock", "остатки номенклатуры в количестве")
	case s.asksAct(d):
		// «акт сверки с альфой за 1 квартал», «сверка с бетой по договору № 5 за март», «сделай
		// акт сверки с ромашкой на 31.03»: the act of the company (and the contract) over the
		// period; a date alone is its end, a day «за» it its whole period
		if d.Date.Set && strings.HasPrefix(d.Date.Text, "за ") {
			d.Period = slot(ru.Period{From: d.Date.Value, To: d.Date.Value, Kind: ru.KindDay, Text: d.Date.Text}, d.Date.Source, d.Date.Text)
			d.Date = Slot[time.Time]{}
		}
		set(recipe.ReconciliationAct, "reconciliation_act", "акт сверки взаиморасчётов с контрагентом")
	case s.is(COffsets) && !s.is(CDocuments, CBankOps, CTurnoverSheet, CForming) && !d.Contract.Set && !d.Account.Set:
		// «взаимозачёт», «кого можно зачесть», «встречные долги на 31.03»: the companies both our
		// debtor and our creditor, on a day (a period asked: its end)
		set(recipe.OffsetCandidates, "offsets", "встречные долги: кандидаты на взаимозачёт")
		asOfPeriodEnd(d)
	case s.asksPartyCard(d, party):
		// «карточка контрагента альфа», «что у нас с бетой», «досье на ромашку»: everything about
		// one company on a day
		set(recipe.CounterpartyCard, "counterparty_card", "карточка контрагента: расчёты, просрочка, оплаты, документы")
		asOfPeriodEnd(d)
	case s.asksAging(d) && !s.is(CDocuments, CForming, CTurnoverSheet, CAccountCard) && (s.is(CAging) || !s.is(CBankOps)):
		// «просрочка по покупателям на 1.04», «старение кредиторки», «дз старше 90 дней»: the
		// debt by days overdue, on the side the message names
		d.OverdueDays = overdueDays(s.folded)
		switch {
		case fromUs && !toUs:
			set(recipe.PayablesAging, "payables_aging", "кредиторская задолженность по срокам долга")
		case toUs && !fromUs:
			set(recipe.ReceivablesAging, "receivables_aging", "дебиторская задолженность по срокам долга")
		case party || d.Contract.Set:
			// «на сколько дней вектор просрочил оплату»: the company's debt to us first; the
			// skill looks at what we owe it when it owes nothing
			set(recipe.ReceivablesAging, "aging_of_party", "просрочка контрагента: сторона долга не названа")
		default:
			d.Kind, d.Rule, d.Sure = KindClarify, "aging_direction", false
			d.Reasons = append(d.Reasons, "просрочка, но непонятно чья: покупателей или наша поставщикам")
		}
	case s.is(CAccountCard) && (s.hasValue(CAccountCard, "") || d.Account.Set || d.UnknownAccount != "" || single || d.Period.Set || d.Date.Set):
		set(recipe.AccountCard, "account_card", "карточка счёта за период")
	case s.is(CTurnoverSheet) && !asOfDate(d):
		set(recipe.TurnoverSheet, "turnover_sheet", "оборотно-сальдовая ведомость за период")
		switch {
		case s.is(CContracts) || d.Contract.Set || s.hasStemPrefix("договор"):
			d.Detail = recipe.DetailContract // «осв по 62 по договорам», «… в разрезе договоров»
		case s.is(CByParty):
			d.Detail = recipe.DetailCounterparty // «осв по 62 по контрагентам»
		}
	case s.is(CForming) && !s.is(CByParty):
		set(recipe.DocumentsFormBalance, "forming", "какие документы формируют остаток")
	case s.is(CContracts) && s.is(CNotClosed) && !d.Contract.Set && !s.is(CDocuments, CBankOps):
		set(recipe.OpenContracts, "open_contracts", "незакрытые договоры")
	case d.Contract.Set && s.is(CDocuments, CBankOps) && !s.is(COpenItems, CDebt, CNotClosed):
		set(recipe.DocumentsByContract, "documents_by_contract", "документы по договору")
	case d.Contract.Set:
		set(recipe.OpenItemsByContract, "open_items_by_contract", "открытые позиции по договору")
	case s.is(CBankOps) && !party && !d.Contract.Set && !d.BankAccount.Set && len(d.BankAccountCandidates) == 0 &&
		(d.Period.Set || d.Date.Set) && (!d.Account.Set || d.Account.Value == "51") &&
		!s.is(COpenItems, CDebt, CReceivables, CPayables, COwesUs, CWeOwe, CDocuments):
		// «выписка за 16 января», «поступления на р/с за март», «списания за вчера»: the bank's
		// movements of a period with no counterparty are the card of 51 (receipts are its
		// debit, payments its credit). A named settlement account is left to the bank recipe:
		// the card does not tell one account of 51 from another.
		d.Account = slot("51", FromLexicon, "выписка по расчётному счёту")
		set(recipe.AccountCard, "bank_statement", "движение по расчётному счёту за период: карточка счёта 51")
		if w := s.unreadScope(); w != "" {
			// «сколько заплатили за аренду в марте», «сколько заплатили грузэкспрессу в ноябре»:
			// the whole of 51's payments would answer what was not asked — the word that narrows
			// them is neither a counterparty 1C knows nor anything a statement selects by
			d.Kind, d.Rule, d.Sure = KindClarify, "payment_scope", true
			d.Scope = w
			d.Reasons = append(d.Reasons, "платежи отобраны словом, по которому выписку не отобрать: «"+w+"»")
			return
		}
		// «сколько поступило с начала года», «платежи поставщикам за март»: the side asked, and
		// whom (the corresponding account)
		in, out := moneyIn.MatchString(s.folded), moneyOut.MatchString(s.folded)
		switch {
		case in && !out:
			d.Turnover = "debit"
		case out && !in:
			d.Turnover = "credit"
		}
		for _, c := range corrWords {
			if d.Turnover != "" && c.re.MatchString(s.folded) {
				d.Corr = c.account
				break
			}
		}
	case s.is(CBankOps) && !s.is(COpenItems) && (party || !s.is(CDebt, CReceivables, CPayables, COwesUs, CWeOwe)):
		set(recipe.BankOpsByParty, "bank_ops", "банковские операции с контрагентом")
		if !lastAsked.MatchString(s.folded) {
			// «сколько заплатили вектору в марте»: what we sent, not what it sent us
			switch in, out := moneyIn.MatchString(s.folded) || theyPaidUs.MatchString(s.folded) || paidToUs.MatchString(s.folded),
				wePaidThem.MatchString(s.folded); {
			case in && !out:
				d.Flow = "in"
			case out && !in:
				d.Flow = "out"
			}
		}
		if lastAsked.MatchString(s.folded) {
			// «когда вектор последний раз платил», «последний платёж от вектора»: the latest one,
			// received (the company paid) or sent (we paid it) as the message says
			d.Last = "any"
			switch in, out := moneyIn.MatchString(s.folded) || theyPaid.MatchString(s.folded), s.saysWePaid(); {
			case in && !out:
				d.Last = "in"
			case out && !in:
				d.Last = "out"
			}
		}
	case tradeKind != "" && !party && !d.Contract.Set && !d.Account.Set && d.Period.Set &&
		!s.is(COpenItems, CDebt, CReceivables, CPayables, COwesUs, CWeOwe, CBankOps):
		// «продажи за март», «сколько закупили в 1 квартале»: no counterparty — the period's sales
		// are the credit turnover of 90.01 (revenue, VAT included), its purchases that of 60.01
		// (what suppliers delivered, VAT included)
		// (what suppliers delivered, VAT included); by counterparty, the sales are the debit
		// turnover of 62.01 (90.01 is kept by item groups, not by customers)
		switch {
		case tradeKind == "РеализацияТоваровУслуг" && s.is(CByParty):
			d.Account = slot("62.01", FromLexicon, "продажи по контрагентам")
			set(recipe.TurnoverSheet, "turnover_of_period", "продажи за период по контрагентам: оборот Дт 62.01")
			d.Detail, d.Turnover = recipe.DetailCounterparty, "debit"
		case tradeKind == "РеализацияТоваровУслуг":
			d.Account = slot("90.01", FromLexicon, "продажи за период")
			set(recipe.TurnoverSheet, "turnover_of_period", "продажи за период: оборот Кт 90.01")
			d.Turnover = "credit"
		default:
			d.Account = slot("60.01", FromLexicon, "закупки за период")
			set(recipe.TurnoverSheet, "purchases_of_period", "закупки за период: оборот Кт 60.01")
			d.Turnover = "credit"
			if s.is(CByParty) {
				d.Detail = recipe.DetailCounterparty
			}
		}
	case s.is(CDocuments) && !s.is(COpenItems, CDebt, CReceivables, CPayables, COwesUs, CWeOwe, CNotClosed) &&
		!(party && s.is(CBalance)): // «незакрытые доки по X», «сальдо по X для акта сверки»: its open items
		set(recipe.DocumentsByParty, "documents", "документы контрагента")
	case party && d.Period.Set && d.Period.Value.From.Before(d.Period.Value.To) &&
		!s.is(CDebt, COwesUs, CWeOwe, CBalance, COpenItems, CReceivables, CPayables, CNotClosed):
		// «что было по Энергии с начала года»: what happened over a period is its documents.
		set(recipe.DocumentsByParty, "documents_over_period", "документы контрагента за период")
	case party:
		set(recipe.OpenItemsByParty, "open_items_by_counterparty", "расчёты с одним контрагентом")
		// «сколько мы должны альфе», «долг перед альфой»: the side asked, said back when the
		// saldo is the other's
		// «сколько должны меридиану»: owed to the company, in the dative — our debt to it
		owedTo := s.hasStemPrefix("должн") && !s.hasTok("нам") && d.Counterparty.Set && writtenDative(d.Counterparty.Text, d.Counterparty.Value.Name)
		switch in, out := s.saysToUs() || s.hasTok("нами"), s.is(CWeOwe) || s.hasTok("перед") && !s.hasTok("нами") || owedTo; {
		case in && !out:
			d.Flow = "in"
		case out && !in:
			d.Flow = "out"
		}
	// Advances named by their words decide the side themselves: «какие авансы выданы
	// поставщикам» is 60.02's debit balances (the suppliers owe us the goods), whatever
	// «поставщикам» would say about a debt's direction.
	case d.Account.Set && d.Account.Source == FromLexicon && d.Account.Value == "60.02" && !s.is(CBalance):
		// «авансы выданные на 31.12»: whom we prepaid, by supplier, with the total.
		set(recipe.Receivables, "advances_issued", "авансы выданные по контрагентам")
	case d.Account.Set && d.Account.Source == FromLexicon && d.Account.Value == "62.02" && !s.is(CBalance):
		// «авансы полученные на 31.03»: who prepaid us, by customer, with the total.
		set(recipe.Payables, "advances_received", "авансы полученные по контрагентам")
	case s.is(CReceivables) && s.is(CPayables) && !d.Account.Set && d.UnknownAccount == "":
		// «дебиторка и кредиторка на 31.03»: both lists, one after the other.
		set(recipe.Receivables, "receivables_and_payables", "дебиторская и кредиторская задолженность")
	case toUs && !fromUs:
		set(recipe.Receivables, "receivables", "кто должен нам")
		if s.is(CSuppliers) && !s.is(CCustomers) && !d.Account.Set && d.UnknownAccount == "" {
			// «кто из поставщиков нам должен»: advances paid to suppliers, debit balances of 60.
			d.Account = slot("60", FromLexicon, "поставщики нам должны")
		}
	case fromUs && !toUs:
		set(recipe.Payables, "payables", "кому должны мы")
		if s.is(CCustomers) && !s.is(CSuppliers) && !d.Account.Set && d.UnknownAccount == "" {
			// «кому из покупателей мы должны»: advances received, credit balances of 62.
			d.Account = slot("62", FromLexicon, "мы должны покупателям")
		}
	case d.Account.Set && turnoverAccount(d.Account.Value) && d.Period.Set && d.Period.Value.From.Before(d.Period.Value.To):
		// «выручка за март», «расходы по 26 за квартал»: what a period added to an account the
		// year accumulates and closes (sales, costs) is its turnover over the period; its balance
		// at the period's end would count the months before it too.
		set(recipe.TurnoverSheet, "turnover_of_period", "обороты счёта за период")
		d.Turnover = turnoverSide(d.Account.Value)
	case d.Account.Set || d.UnknownAccount != "":
		set(recipe.AccountBalance, "balance", "остаток по счёту")
	case s.is(CBalance):
		d.Kind, d.Rule, d.Sure = KindClarify, "balance_without_account", false
		d.Reasons = append(d.Reasons, "не назван счёт")
		return
	default:
		d.Kind, d.Rule, d.Sure = KindClarify, "debt_direction", false
		d.Reasons = append(d.Reasons, "непонятно, чей долг: нам или наш")
	}
}

// asksPartyCard reports whether the message asks for a counterparty's card: a phrase that means
// it alone («карточка контрагента», «досье»), or with a company named and nothing else asked of
// it — «что у нас с бетой», «всё по гранит», «карточка альфы» (a «карточка» with no account and
// no period: with them it is the account's card). party: a company is named (or a name 1C does
// not know).
func (s *scan) asksPartyCard(d *Decision, party bool) bool {
	if d.Contract.Set || d.Account.Set || d.UnknownAccount != "" || d.UnknownContract != "" || d.BankAccount.Set {
		return false
	}
	asked := s.is(CReceivables, CPayables, CDebt, COwesUs, CWeOwe, CBalance, COpenItems, CDocuments, CBankOps, CContracts,
		CForming, CTurnoverSheet, CAging, CNotClosed)
	switch {
	case s.hasValue(CPartyCard, "strong"):
		return true
	case !party || asked:
		return false
	case s.is(CPartyCard):
		// «что по энергии за март»: what happened over a period is its documents, not a card
		return !d.Period.Set || !d.Period.Value.From.Before(d.Period.Value.To)
	}
	for _, h := range s.hits {
		if h.Concept == CAccountCard && h.Phrase == "карточка" {
			return !d.Period.Set && !s.hasValue(CAccountCard, "")
		}
	}
	return false
}

// asOfPeriodEnd makes a period the message names its end's day: a card or the offsets are as of
// a day («досье на ромашку за март»: on 31.03).
func asOfPeriodEnd(d *Decision) {
	if d.Period.Set && !d.Date.Set {
		d.Date = slot(d.Period.Value.To, d.Period.Source, d.Period.Text)
		d.Period = Slot[ru.Period]{}
	}
}

// hasStemPrefix reports whether a word of the message starts with prefix («должны», «должен»).
func (s *scan) hasStemPrefix(prefix string) bool {
	for _, t := range s.toks {
		if strings.HasPrefix(t.Text, prefix) {
			return true
		}
	}
	return false
}

// olderThan is a debt's age in days overdue, not its amount: «больше 90 дней», «старше 60 дн».
var olderThan = regexp.MustCompile(`(^|\s)(больше|более|свыше|старше|дольше)\s+(\d+)\s*(дн|день|дня|дней)`)

// overdueDays is the days an aging asks past («больше 90 дней»: 90); 0 when it names none.
func overdueDays(folded string) int {
	if m := olderThan.FindStringSubmatch(folded); m != nil {
		if n, err := strconv.Atoi(m[3]); err == nil && n > 0 && n <= 3650 {
			return n
		}
	}
	return 0
}

// asksAging reports whether the message asks for a debt by days overdue: a phrase that means
// the aging alone («старение дебиторки», «по срокам долга»), or one that does beside a debt or
// its side («просрочка по покупателям», «дебиторка по срокам», «кто должен нам больше 90 дней»).
func (s *scan) asksAging(d *Decision) bool {
	if s.hasValue(CAging, "strong") || s.hasValue(CAging, "receivables") || s.hasValue(CAging, "payables") {
		return true
	}
	aged := s.is(CAging) || olderThan.MatchString(s.folded)
	// …or days overdue with the word for it («просрочка свыше 30 дней»: whose, it is asked back)
	return aged && (s.is(CReceivables, CPayables, CDebt, COwesUs, CWeOwe, CCustomers, CSuppliers) || d.Counterparty.Set || d.Unknown != "" ||
		s.is(CAging) && olderThan.MatchString(s.folded))
}

// actsListed: «акты сверки с альфой за 2025» in the plural are the act documents 1C keeps, not
// an act to make; «сальдо для акта сверки» asks for the balance to put in one.
var actsListed = regexp.MustCompile(`(^|\s)(акты|актов|актам|актами|актах)\s+сверк|(^|\s)(для|к|под|в)\s+акт\p{L}*\s+сверк`)

// asksAct reports whether the message asks for the act of reconciliation with a company («акт
// сверки с альфой», «сверка с бетой за март», «сделай акт сверки»), not for the act documents
// of 1C nor about acts in general («акт сверки обязателен или по желанию?»): it names a company
// or a contract, a date or a period, asks to make one, or says no more than «акт сверки».
func (s *scan) asksAct(d *Decision) bool {
	if !s.is(CReconcile) || actsListed.MatchString(s.folded) {
		return false
	}
	return d.Counterparty.Set || len(d.Candidates) > 0 || d.Unknown != "" || d.Contract.Set || d.UnknownContract != "" ||
		d.Date.Set || d.Period.Set || makeAct.MatchString(s.folded) || len(s.toks) <= 3
}

// asksStock reports whether the message asks for a stock in its units: a phrase that means it
// alone («на складе», «в наличии», «в штуках»), or a unit of measure beside a balance or
// «осталось» («сколько кг цемента осталось», «остаток бумаги в пачках»).
func (s *scan) asksStock() bool {
	if s.hasValue(CStock, "strong") || s.hasValue(CStock, "units") {
		return true
	}
	return s.hasValue(CStock, "unit") && (s.is(CBalance) || s.hasStemPrefix("остал") || s.hasStemPrefix("налич") || s.hasStemPrefix("запас"))
}

// stockItemStop are the words around an item's name in a stock question that are no part of it
// (by stem): «сколько у нас …», «какой остаток …», «… осталось на основном складе».
var stockItemStop = map[string]bool{"скольк": true, "сколько": true, "у": true, "нас": true, "есть": true, "какой": true,
	"как": true, "какая": true, "какое": true, "какие": true, "каков": true, "покаж": true, "скаж": true, "дай": true,
	"мне": true, "по": true, "на": true, "в": true, "во": true, "из": true, "с": true, "со": true, "о": true, "об": true, "про": true,
	"для": true, "и": true, "а": true, "ли": true, "там": true, "сейчас": true, "всег": true, "итог": true, "товар": true,
	"материал": true, "номенклатур": true, "позиц": true, "остал": true, "осталос": true, "остат": true, "склад": true,
	"основн": true, "наличи": true, "числ": true, "хран": true, "имеет": true, "имеетс": true, "ещ": true, "счет": true,
	"сч": true, "еще": true, "нам": true, "мы": true, "это": true, "эт": true, "к": true, "за": true, "тепер": true,
	"что": true, "чего": true, "где": true}

// stockItem is the item a stock question names, as written: the words left when the lexicon's
// terms, the names of ours, dates, numbers and the words around a question are taken out
// («сколько штук бумаги на складе» → «бумаги»; «остаток товара Картридж HP 85A в штуках» →
// «Картридж HP 85A»). "" when none is left, or more than a name's words (a sentence is no item).
func (s *scan) stockItem() string {
	covered := s.covered()
	var kept []Token
	for i, t := range s.toks {
		letters := strings.IndexFunc(t.Text, unicode.IsLetter) >= 0
		if covered[i] || !letters || stockItemStop[t.Text] || stockItemStop[t.Stem] || calendarWord(t.Text) || pronoun[t.Text] ||
			t.Text == "г" || t.Text == "года" || t.Text == "гг" || strings.HasPrefix(t.Text, "остал") || strings.HasPrefix(t.Text, "остат") {
			continue
		}
		kept = append(kept, t)
	}
	if len(kept) == 0 || len(kept) > 5 {
		return ""
	}
	return asWritten(strings.Fields(s.in.Text), kept)
}

// asOfDate reports whether the message gives an as-of date («на 1.04», «на конец марта»): a
// turnover sheet then asks for the account's balance at that date. A day named as a period
// («за 15.03») is the sheet of that day.
func asOfDate(d *Decision) bool {
	return d.Date.Set && !strings.HasPrefix(d.Date.Text, "за ")
}

// reportWording reports whether the analysis words of the message are the report's own
// («обороты по 51», «осв в разрезе договоров»): a turnover sheet or a card answers them whole.
func (s *scan) reportWording(d *Decision) bool {
	if d.Recipe != recipe.TurnoverSheet && d.Recipe != recipe.AccountCard {
		return false
	}
	for _, h := range s.hits {
		if h.Concept == CAnalysis && h.Phrase != "обороты по" && h.Phrase != "оборот по" && h.Phrase != "в разрезе" &&
			!s.namesAccount(h) {
			return false
		}
	}
	return true
}

// namesAccount reports whether the words of h also name an account («выручка» is 90.01.1 as
// well as a word of analysis): in a report of that account they name it, they ask for nothing more.
func (s *scan) namesAccount(h Hit) bool {
	return slices.ContainsFunc(s.hits, func(o Hit) bool { return o.Concept == CAccount && o.Start == h.Start && o.End == h.End })
}

// turnoverAccount reports an account whose figure for a period is its turnover: sales (90),
// other income and expenses (91), production and overheads (20, 23, 25, 26), selling costs
// (44) — they accumulate over the year and are closed, so a balance «на конец марта» holds
// January and February too.
var (
	// lastAsked: the latest one is asked («последний платёж», «когда последний раз платил»).
	lastAsked = regexp.MustCompile(`последн`)
	// theyPaid: the company paid us («вектор платил», «от вектора»).
	// wePaidThem: we sent the money («заплатили вектору», «оплатили», «перечислили»); paidToUs:
	// they sent it to us («нам»).
	wePaidThem = regexp.MustCompile(`(^|\s)(мы\s+)?(заплатили|оплатили|перечислили|выплатили|отправили|списали)(\s|$)`)
	paidToUs   = regexp.MustCompile(`(^|\s)нам(\s|$)`)
	// theyPaidUs: the company sent it («от вектора», «вектор заплатил»: the verb in the singular).
	theyPaidUs = regexp.MustCompile(`(^|\s)от\s|\p{L}+\s+(платил|оплатил|заплатил|перечислил|рассчитался)(\s|$)`)
	theyPaid   = regexp.MustCompile(`(^|\s)от\s|\p{L}+\s+(последний\s+раз\s+)?(платил|оплатил|заплатил|перечислил|рассчитал)`)
	// moneyIn and moneyOut: money received or paid out («поступило», «пришло»; «списано»,
	// «заплатили», «платежи»).
	moneyIn  = regexp.MustCompile(`поступ|пришл|получил|зачисл|приход`)
	moneyOut = regexp.MustCompile(`списан|списал|заплат|оплат|перечисл|ушл[ои]|потрат|платеж|расход`)
	// corrWords name the other side of a bank posting: suppliers (60), customers (62), taxes
	// (68, 69), salaries (70), accountable persons (71).
	corrWords = []struct {
		re      *regexp.Regexp
		account string
	}{
		{regexp.MustCompile(`поставщик`), "60"},
		{regexp.MustCompile(`покупател|клиент|заказчик`), "62"},
		{regexp.MustCompile(`налог|бюджет|взнос`), "68"},
		{regexp.MustCompile(`зарплат|заработн`), "70"},
		{regexp.MustCompile(`подотчет`), "71"},
	}
)

// saysWePaid: «мы платили», «мы заплатили вектору», «наш последний платёж».
func (s *scan) saysWePaid() bool {
	return strings.Contains(" "+s.folded+" ", " мы ") || strings.Contains(" "+s.folded+" ", " наш")
}

// howWhy: a question of how, when, where or why — of rules or facts, not of figures.
var howWhy = regexp.MustCompile(`(^|\s)(как|когда|где|зачем|почему|кто|куда|что\s+такое)(\s|$)`)

// turnoverSide is the side of an account's turnover a period's question asks: revenue and
// other income (90.01, 91.01) are credited, costs debited; "" for the whole of 90 or 91, whose
// two sides are both asked.
func turnoverSide(code string) string {
	switch {
	case strings.HasPrefix(code, "90.01"), strings.HasPrefix(code, "91.01"):
		return "credit"
	case code == "90", code == "91":
		return ""
	}
	return "debit"
}

// salesOrPurchases is the kind of trade documents a message asks about («продажи»,
// «отгрузили», «закупки», «купили»), "" for none or both.
func salesOrPurchases(text string) string {
	kind := ""
	for _, k := range documentKinds[:2] {
		if k.re.MatchString(text) {
			if kind != "" {
				return ""
			}
			kind = k.kind
		}
	}
	return kind
}

func turnoverAccount(code string) bool {
	syn, _, _ := strings.Cut(code, ".")
	switch syn {
	case "90", "91", "20", "23", "25", "26", "44":
		return true
	}
	return false
}

// dutyAsk and dutyVerb make a question about what the law requires of a payment or a report:
// when, until which date, how or how much («когда», «в какой срок», «до какого числа», «как»,
// «сколько») something is paid, filed, transferred or withheld.
var (
	dutyAsk  = regexp.MustCompile(`(?i)(^|[^\p{L}])(когда|в\s+как(ой|ие)\s+срок\p{L}*|до\s+какого|не\s+позднее\s+какого|срок\p{L}*|как|каким\s+образом|сколько)([^\p{L}]|$)`)
	dutyVerb = regexp.MustCompile(`(?i)(^|[^\p{L}])(за|у|вы|пере|о)?(плат|плач|сда[вюёетч]|пода[вюёетч]|подач|перечисл|представ|удерж|начисл|отчит)`)
)

// dutyQuestion reports whether text asks when, until which date, how or how much something is
// paid, filed, transferred or withheld (Decision.Duty).
func dutyQuestion(text string) bool {
	return dutyAsk.MatchString(text) && dutyVerb.MatchString(text)
}

// speaksOfMoney reports whether the message speaks of payments or money in words
// (Decision.Money): a bank-operations term of the lexicon, or a word for money (moneyStems).
func (s *scan) speaksOfMoney() bool {
	for _, h := range s.found {
		if h.Concept == CBankOps {
			return true
		}
	}
	for _, t := range s.toks {
		if moneyStems[t.Stem] {
			return true
		}
	}
	return false
}

var (
	// topN: «топ 5», «топ-3», «5 крупнейших», «пять самых крупных».
	topN = regexp.MustCompile(`(?:^|\s)(?:топ\s?-?\s?(\d{1,2})|(\d{1,2})\s+(?:крупнейш|самы\S*\s+крупн|самы\S*\s+больш))`)
	// topOne: «самый крупный должник», «кому больше всех должны», «крупнейший кредитор».
	topOne = regexp.MustCompile(`(?:^|\s)(?:сам\S*\s+(?:крупн|больш)|больше\s+(?:всех|всего)|крупнейш|максимальн\S*\s+(?:долг|задолж))`)
)

// atLeast: «больше миллиона», «свыше 500 тыс», «более 2 млн», «от 100 000 руб»: a debt the
// list's rows must reach.
var atLeast = regexp.MustCompile(`(?:^|\s)(?:больше|более|свыше|выше|от|>)\s*(\d{1,3}(?:[ \x{00a0}]\d{3})*(?:[.,]\d+)?|\d+(?:[.,]\d+)?)?\s*(млн|миллион\p{L}*|лям\p{L}*|млрд|тыс\p{L}*|т\.р\.?|к)?(?:\s|$|\.|,|\?)`)

// atLeastAsked is the smallest debt the folded message asks for, in kopecks; 0 when it names
// none. A number with no multiplier is roubles; a multiplier with no number is one of it
// («больше миллиона»).
func atLeastAsked(folded string) int64 {
	for _, m := range atLeast.FindAllStringSubmatch(folded, -1) {
		if m[1] == "" && m[2] == "" {
			continue
		}
		n := new(big.Rat).SetInt64(1)
		if m[1] != "" {
			if _, ok := n.SetString(strings.NewReplacer(" ", "", "\u00a0", "", ",", ".").Replace(m[1])); !ok {
				continue
			}
		}
		switch {
		case strings.HasPrefix(m[2], "млрд"):
			n.Mul(n, big.NewRat(1_000_000_000, 1))
		case strings.HasPrefix(m[2], "млн"), strings.HasPrefix(m[2], "миллион"), strings.HasPrefix(m[2], "лям"):
			n.Mul(n, big.NewRat(1_000_000, 1))
		case m[2] != "":
			n.Mul(n, big.NewRat(1_000, 1))
		case m[1] == "" || n.Cmp(big.NewRat(1000, 1)) < 0:
			continue // «от 5» is no sum: a day, a count
		}
		k := new(big.Rat).Mul(n, big.NewRat(100, 1))
		if !k.IsInt() {
			continue
		}
		return k.Num().Int64()
	}
	return 0
}

// topAsked is how many of the largest debts the folded message asks for; 0 for the list.
func topAsked(folded string) int {
	if m := topN.FindStringSubmatch(folded); m != nil {
		n, _ := strconv.Atoi(m[1] + m[2])
		return n
	}
	if topOne.MatchString(folded) {
		return 1
	}
	return 0
}

// covered marks the tokens the reading took: the lexicon's terms and the spans of names, dates
// and numbers.
func (s *scan) covered() []bool {
	covered := make([]bool, len(s.toks))
	for _, h := range s.hits {
		for i := h.Start; i < h.End && i < len(covered); i++ {
			covered[i] = true
		}
	}
	for _, sp := range s.spans {
		for i := sp[0]; i < sp[1] && i < len(covered); i++ {
			covered[i] = true
		}
	}
	return covered
}

// unreadScope is a word that narrows a question about the bank's movements and that the
// reading left unread: the payment's purpose after «за» («за аренду», «за доставку») or its
// payee after the verb («заплатили грузэкспрессу»). "" when the message has none: the period's
// words, amounts, pronouns and the like narrow nothing.
func (s *scan) unreadScope() string {
	covered := s.covered()
	raw := strings.Fields(s.in.Text)
	for i := 0; i+1 < len(s.toks); i++ {
		t := s.toks[i]
		after := t.Text == "за" || paidVerb.MatchString(t.Text)
		j := i + 1
		if !after || covered[j] {
			continue
		}
		w := s.toks[j]
		short := 4 // «за тко», «за газ»: a purpose may be short
		if t.Text == "за" {
			short = 3
		}
		if !isWordToken(w.Text) || utf8.RuneCountInString(w.Text) < short || calendarWord(w.Text) || pronoun[w.Text] || scopeless[w.Text] ||
			notName[w.Stem] || scopeless[w.Stem] || legalForms[w.Text] {
			continue
		}
		if t.Text == "за" {
			return "за " + asWritten(raw, s.toks[j:j+1])
		}
		return asWritten(raw, s.toks[j:j+1])
	}
	// …or what was paid, written before the verb: «коммуналку за август оплатили?», «аренду
	// перечислили?»
	for i := 1; i < len(s.toks); i++ {
		if !paidVerb.MatchString(s.toks[i].Text) {
			continue
		}
		// back over the period's words («за август», «в марте») to the first other word
		k := i - 1
		for k >= 0 && (s.toks[k].Text == "за" || s.toks[k].Text == "в" || calendarWord(s.toks[k].Text) || !isWordToken(s.toks[k].Text)) {
			k--
		}
		if k < 0 {
			continue
		}
		w := s.toks[k]
		if covered[k] || utf8.RuneCountInString(w.Text) < 4 || pronoun[w.Text] || askWord[w.Text] || scopeless[w.Text] ||
			notName[w.Stem] || scopeless[w.Stem] || legalForms[w.Text] || paidVerb.MatchString(w.Text) || sideWord(w.Text) {
			continue
		}
		return asWritten(raw, s.toks[k:k+1])
	}
	return ""
}

// sideWord: a word that names a side of the bank's turnover the statement reads («поставщикам»,
// «налоги»), not a scope it cannot.
func sideWord(w string) bool {
	for _, c := range corrWords {
		if c.re.MatchString(w) {
			return true
		}
	}
	return false
}

// askWord are the words that ask, not narrow, before a verb of paying («когда оплатили», «уже
// перечислили», «точно заплатили»).
var askWord = map[string]bool{"когда": true, "куда": true, "зачем": true, "почему": true, "сколько": true, "скока": true,
	"скоко": true, "разве": true, "неужели": true, "точно": true, "ещё": true, "еще": true, "уже": true, "также": true,
	"тоже": true, "всего": true, "обратно": true, "вовремя": true, "полностью": true, "частично": true, "сегодня": true,
	"вчера": true, "давно": true, "недавно": true, "сразу": true, "заранее": true, "авансом": true, "вообще": true,
	"они": true, "оно": true, "она": true, "этот": true, "тогда": true, "потом": true, "снова": true, "опять": true}

// paidVerb: a verb of paying whose object or addressee narrows the payments («заплатили
// грузэкспрессу», «перечислили за аренду»).
var paidVerb = regexp.MustCompile(`^(за|о|у|вы|пере)?(плат|плач|числ|перечисл|отправ|перевел|перевед|списал|ушл|ушло|пришл|поступ)`)

// scopeless are stems that follow «за» or a verb of paying without narrowing anything: a
// period's words and adverbs («за прошлый месяц», «заплатили всего», «перечислили реально»).
var scopeless = map[string]bool{"прошл": true, "текущ": true, "эт": true, "этот": true, "последн": true, "весь": true, "вес": true,
	"пер": true, "период": true, "недел": true, "ден": true, "дня": true, "дни": true, "сутк": true, "год": true, "полгод": true,
	"реальн": true, "фактическ": true, "итог": true, "уж": true, "вообщ": true, "тольк": true, "прям": true, "примерн": true,
	"нынешн": true, "отчетн": true, "отчётн": true, "предыдущ": true, "минувш": true, "указан": true, "данн": true,
	"полугод": true, "квартал": true, "месяц": true, "вчерашн": true, "сегодняшн": true, "позавчер": true,
	"все": true, "всё": true, "всю": true, "тот": true, "ту": true}

// writtenDative reports whether a counterparty is written in the dative, as one is owed to
// («меридиану», «вектору», «ромашке» for ООО «Меридиан», «Вектор», «Ромашка»): the last word
// written is a word of its name with the dative's ending.
func writtenDative(written, name string) bool {
	ws := strings.Fields(strings.ToLower(strings.ReplaceAll(written, "ё", "е")))
	if len(ws) == 0 {
		return false
	}
	w := []rune(ws[len(ws)-1])
	for _, nw := range strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(name, "ё", "е")), func(r rune) bool { return !unicode.IsLetter(r) }) {
		n := []rune(nw)
		if len(n) < 3 {
			continue
		}
		switch last := n[len(n)-1]; {
		case string(w) == nw+"у" || string(w) == nw+"ю":
			return true // Меридиан — меридиану
		case (last == 'а' || last == 'я') && string(w) == string(n[:len(n)-1])+"е":
			return true // Ромашка — ромашке
		case last == 'й' && string(w) == string(n[:len(n)-1])+"ю":
			return true // Алтай — алтаю
		}
	}
	return false
}
