package recipe

// Entity is one catalog entry the resolver can choose: a counterparty, a contract or one of
// our organizations.
type Entity struct {
	Ref      string
	Name     string // Наименование: «ООО «Альфа»»
	FullName string // НаименованиеПолное (counterparties)
	INN      string
	Number   string // contracts: «П-15/2025»
	OwnerRef string // contracts: the counterparty
	OrgRef   string // contracts: our organization
	HeadRef  string `json:",omitempty"` // organizations: the head organization of an обособленное подразделение (ГоловнаяОрганизация), "" for a head
	Date     string // contracts: YYYY-MM-DD
	Deleted  bool   // deletion-marked: never chosen
	// TermSet and TermDays are a contract's payment term as BP keeps it: УстановленСрокОплаты
	// («Установлен срок оплаты по договору») and СрокОплаты, in days (the counterparty card).
	TermSet  bool `json:",omitempty"`
	TermDays int  `json:",omitempty"`
}

// Catalogs are the reference lists a question's names are resolved against.
type Catalogs struct {
	Organizations, Counterparties, Contracts []Entity
	// Accounts are the chart's codes: «62», «62.01», «90.01.1».
	Accounts []string
	// BankAccounts are our organizations' settlement accounts.
	BankAccounts []BankAccount
}

// BankAccount is a settlement account of one of our organizations (Справочник.БанковскиеСчета
// owned by Справочник.Организации), as catalog.bank_accounts reads it.
type BankAccount struct {
	Ref      string
	Number   string // НомерСчета: 20 digits, «40702810927616318153»
	OrgRef   string // Владелец: our organization
	OrgName  string // the organization's name, for answers
	Bank     string // Банк.Наименование; "" when the catalog names none
	Currency string // ВалютаДенежныхСредств.Наименование
	Deleted  bool   // deletion-marked: never chosen
}

// Label is how an answer names the account: its number, and its bank when 1C knows it.
func (b BankAccount) Label() string {
	if b.Bank == "" {
		return b.Number
	}
	return b.Number + " в " + b.Bank
}
