package onec

import (
	"cmp"
	"crypto/sha1"
	"fmt"
	"slices"
	"strings"
)

// The demo ledger has no catalog of bank accounts: its bank documents carry the number of our
// organization's settlement account (documents.json's bank_account). The demo derives
// Справочник.БанковскиеСчета from them: one entry per organization and number, with a reference
// that depends on nothing else, so it is the same in every process. The ledger names no bank
// and no currency; the accounts are rouble accounts.

// indexBankAccounts collects the accounts of the bank documents, ordered as the template
// orders them: by the organization's name, then by number.
func (d *Demo) indexBankAccounts() {
	type key struct {
		org    int32
		number string
	}
	var found []key
	for _, doc := range d.l.Documents {
		if !isBankDocument(doc.Type) || doc.BankAccount == nil || strings.TrimSpace(*doc.BankAccount) == "" {
			continue
		}
		k := key{lookup(d.orgs, doc.OrganizationRef), strings.TrimSpace(*doc.BankAccount)}
		if k.org >= 0 && !slices.Contains(found, k) {
			found = append(found, k)
		}
	}
	slices.SortFunc(found, func(a, b key) int {
		return cmp.Or(cmp.Compare(d.orgs.rankOf(a.org), d.orgs.rankOf(b.org)), strings.Compare(a.number, b.number))
	})
	for _, k := range found {
		d.banks.add(bankAccountUUID(d.orgs.uuids[k.org], k.number), TypeBankAccount, k.number)
		d.bankOrgs = append(d.bankOrgs, k.org)
	}
}

// bankAccountUUID is a name-based UUID (RFC 4122 version 5 layout) of an organization's account.
func bankAccountUUID(orgUUID, number string) string {
	h := sha1.Sum([]byte("finbot demo bank account\x00" + orgUUID + "\x00" + number))
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}
