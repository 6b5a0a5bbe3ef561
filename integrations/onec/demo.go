// Package onec reads 1C:Accounting data. This file holds the demo ledger: a synthetic company
// embedded in the binary, which is the 1C default when no 1C proxy is configured.
package onec

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"
)

// demoFS is a byte-for-byte copy of shared/demo-ledger/data (a test checks it).
//
//go:embed demodata/*.json
var demoFS embed.FS

// DemoFiles returns the embedded demo ledger files (demodata/*.json).
func DemoFiles() fs.FS {
	sub, err := fs.Sub(demoFS, "demodata")
	if err != nil {
		panic(err) // the embed pattern guarantees the folder
	}
	return sub
}

// Organization is our own legal entity (Справочник.Организации).
type Organization struct {
	Ref     string `json:"ref"`
	Name    string `json:"name"`
	INN     string `json:"inn"`
	KPP     string `json:"kpp"`
	Default bool   `json:"default"`
	// HeadRef is the head organization of an обособленное подразделение on its own balance
	// (BP keeps it as an organization of its own, with the head's INN and its own KPP); empty
	// for a head organization. Only the realistic demo base has one.
	HeadRef string `json:"head_ref,omitempty"`
}

// Counterparty is Справочник.Контрагенты.
type Counterparty struct {
	Ref          string `json:"ref"`
	Name         string `json:"name"`
	FullName     string `json:"full_name"`
	INN          string `json:"inn"`
	KPP          string `json:"kpp"`
	Kind         string `json:"kind"`
	Role         string `json:"role"`
	DeletionMark bool   `json:"deletion_mark"`
}

// Contract is Справочник.ДоговорыКонтрагентов.
type Contract struct {
	Ref             string `json:"ref"`
	OwnerRef        string `json:"owner_ref"`
	OrganizationRef string `json:"organization_ref"`
	Number          string `json:"number"`
	Date            string `json:"date"`
	Name            string `json:"name"`
	Kind            string `json:"kind"`
	Currency        string `json:"currency"`
	DeletionMark    bool   `json:"deletion_mark"`
	// PaymentTermSet and PaymentTermDays are the contract's payment term as BP 3.0 keeps it:
	// УстановленСрокОплаты («Установлен срок оплаты по договору») and СрокОплаты, days after
	// the settlement document. BP reads the days only when the flag is set; a contract without
	// it takes the base's default (Константа СрокОплатыПокупателей / СрокОплатыПоставщикам).
	// Omitted when unset: the shared demo ledger's files predate them.
	PaymentTermSet  bool `json:"payment_term_set,omitempty"`
	PaymentTermDays int  `json:"payment_term_days,omitempty"`
}

// Document is a document of any type.
type Document struct {
	Ref             string    `json:"ref"`
	Type            string    `json:"type"`
	Journal         *string   `json:"journal"`
	Number          string    `json:"number"`
	Date            LocalTime `json:"date"`
	Posted          bool      `json:"posted"`
	DeletionMark    bool      `json:"deletion_mark"`
	OrganizationRef string    `json:"organization_ref"`
	CounterpartyRef string    `json:"counterparty_ref"`
	ContractRef     string    `json:"contract_ref"`
	Amount          Kopecks   `json:"amount"`
	VATAmount       Kopecks   `json:"vat_amount"`
	BankAccount     *string   `json:"bank_account"`
	Purpose         string    `json:"purpose"`
	// IncomingNumber and IncomingDate are BP's НомерВходящегоДокумента and
	// ДатаВходящегоДокумента: the supplier's number and date of its invoice on a purchase, the
	// payment order's on a bank document. Only the realistic demo base fills them; the default
	// one has none, so its files are unchanged.
	IncomingNumber string     `json:"incoming_number,omitempty"`
	IncomingDate   *LocalTime `json:"incoming_date,omitempty"`
}

// Subconto is one analytic dimension of a register record.
type Subconto struct {
	Kind string `json:"kind"`
	Ref  string `json:"ref"`
	// Name describes a value of a kind the ledger has no catalog of (an employee on 71, a kind
	// of budget payment on 68): the Наименование the demo shows for the reference.
	Name string `json:"name,omitempty"`
}

// Movement is one record of РегистрБухгалтерии.Хозрасчетный.
type Movement struct {
	Period          LocalTime  `json:"period"`
	RecorderRef     string     `json:"recorder_ref"`
	RecorderType    string     `json:"recorder_type"`
	Line            int        `json:"line"`
	OrganizationRef string     `json:"organization_ref"`
	AccountDr       string     `json:"account_dr"`
	AccountCr       string     `json:"account_cr"`
	SubcontoDr      []Subconto `json:"subconto_dr"`
	SubcontoCr      []Subconto `json:"subconto_cr"`
	Amount          Kopecks    `json:"amount"`
	Content         string     `json:"content"`
	// The register's other resources, per side, as BP keeps them where the account has them:
	// currency accounts (52, 60.21, 62.21 …) carry Валюта and ВалютнаяСумма, quantity accounts
	// (10.01, 41.01) Количество (1C's Число(15, 3): «15.3» кг). Only the realistic demo base
	// fills them; the default one has none, so its files are unchanged.
	CurrencyDr       string   `json:"currency_dr,omitempty"`
	CurrencyAmountDr Kopecks  `json:"currency_amount_dr,omitempty"`
	QuantityDr       Quantity `json:"quantity_dr,omitempty"`
	CurrencyCr       string   `json:"currency_cr,omitempty"`
	CurrencyAmountCr Kopecks  `json:"currency_amount_cr,omitempty"`
	QuantityCr       Quantity `json:"quantity_cr,omitempty"`
}

// Account is one account of ПланСчетов.Хозрасчетный.
type Account struct {
	Code     string   `json:"code"`
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Subconto []string `json:"subconto"`
	// Currency is the chart's «Валютный» flag (признак учёта): the account keeps Валюта and
	// ВалютнаяСумма beside the rouble amount (52, 60.21, 62.21 …). Only the realistic demo base
	// sets it; the default chart has no currency accounts, so its file is unchanged.
	Currency bool `json:"currency,omitempty"`
	// Quantity is the chart's «Количественный» flag (признак учёта): the account keeps the
	// resource Количество beside the amount (10.01, 41.01 …), by every subconto it has. Only the
	// realistic demo base sets it; the default chart has none, so its file is unchanged.
	Quantity bool `json:"quantity,omitempty"`
}

// Item is an entry of Справочник.Номенклатура, the subconto «Номенклатура» of the quantity
// accounts: its code, name and unit of measure (ЕдиницаИзмерения, a reference to
// Справочник.КлассификаторЕдиницИзмерения, by its short name «шт», «кг» and full name
// «Штука», «Килограмм»).
type Item struct {
	Ref          string `json:"ref"`
	Code         string `json:"code"`
	Name         string `json:"name"`
	Unit         string `json:"unit,omitempty"`
	UnitFullName string `json:"unit_full_name,omitempty"`
	DeletionMark bool   `json:"deletion_mark,omitempty"`
}

// Ledger is a whole 1C company in memory.
type Ledger struct {
	Organizations  []Organization
	Counterparties []Counterparty
	Contracts      []Contract
	Documents      []Document
	Movements      []Movement
	Accounts       []Account
	// Items are Справочник.Номенклатура (nomenclature.json, optional: only the realistic demo
	// base has it; a subconto of the kind Номенклатура names an entry).
	Items []Item
}

// LocalTime is a 1C local datetime without a zone ("2024-12-31T23:59:59").
type LocalTime struct{ time.Time }

// UnmarshalJSON reads "2006-01-02T15:04:05" or "2006-01-02" as a local (zone-less) time.
func (t *LocalTime) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		return nil
	}
	if len(s) < 2 || s[0] != '"' {
		return fmt.Errorf("date %s is not a string", s)
	}
	s = s[1 : len(s)-1]
	for _, layout := range []string{"2006-01-02T15:04:05", time.DateOnly} {
		if v, err := time.Parse(layout, s); err == nil {
			t.Time = v
			return nil
		}
	}
	return fmt.Errorf("date %q is not YYYY-MM-DD[THH:MM:SS]", s)
}

// itemsFile holds Справочник.Номенклатура, when a ledger has it.
const itemsFile = "nomenclature.json"

// LoadLedger parses a ledger from a folder holding the six JSON files (and nomenclature.json,
// when it has one).
func LoadLedger(fsys fs.FS) (*Ledger, error) {
	var l Ledger
	files := []struct {
		name string
		dst  any
	}{
		{"organizations.json", &l.Organizations},
		{"counterparties.json", &l.Counterparties},
		{"contracts.json", &l.Contracts},
		{"documents.json", &l.Documents},
		{"movements.json", &l.Movements},
		{"chart_of_accounts.json", &l.Accounts},
	}
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f.name)
		if err != nil {
			return nil, fmt.Errorf("onec: ledger: %w", err)
		}
		if err := json.Unmarshal(b, f.dst); err != nil {
			return nil, fmt.Errorf("onec: ledger: %s: %w", f.name, err)
		}
	}
	// The nomenclature is optional: the shared demo ledger's format has no such file.
	if b, err := fs.ReadFile(fsys, itemsFile); err == nil {
		if err := json.Unmarshal(b, &l.Items); err != nil {
			return nil, fmt.Errorf("onec: ledger: %s: %w", itemsFile, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("onec: ledger: %w", err)
	}
	if len(l.Organizations) == 0 {
		return nil, fmt.Errorf("onec: ledger: no organizations")
	}
	return &l, nil
}

// LoadDemo parses the embedded demo ledger.
func LoadDemo() (*Ledger, error) { return LoadLedger(DemoFiles()) }

// MainOrganization is the INN of the demo company's main organization: what BP keeps in the
// user's settings (which no query reads), the demo ledger marks "default". The lane is told it
// through its Options.Organization.
func (d *Demo) MainOrganization() string { return d.l.DefaultOrganization().INN }

// DefaultOrganization returns the organization marked default (or the first one).
func (l *Ledger) DefaultOrganization() Organization {
	for _, o := range l.Organizations {
		if o.Default {
			return o
		}
	}
	return l.Organizations[0]
}
