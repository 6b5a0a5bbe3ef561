package onectest

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/qlang"
)

// AccessViolation is the error 1C gives a query that reads records the user's record-level
// restrictions (RLS) hide, when the query does not say РАЗРЕШЕННЫЕ. BP's own modules raise the
// same words when they refuse data themselves (НСтр("ru = 'Нарушение прав доступа'"), e.g.
// CommonModules/ОФД); the platform's message ends with «!».
const AccessViolation = "Нарушение прав доступа!"

// Restricted is a 1C base as a user whom record-level restrictions confine to some of its
// organizations sees it, the way BP 3.0 restricts by organization: the accounting register's
// records, the documents and the catalogs Организации, ДоговорыКонтрагентов and БанковскиеСчета
// of any other organization are hidden; Контрагенты and the chart of accounts are not
// restricted. A query whose selections say ВЫБРАТЬ РАЗРЕШЕННЫЕ gets exactly the records the user
// may see, without a word about the rest; a query without it that reads a restricted table
// fails with AccessViolation, as 1C's does. It is safe for concurrent use.
type Restricted struct {
	visible *onec.Demo // the base with only what the user may read

	mu      sync.Mutex
	refused []string // query texts refused for want of РАЗРЕШЕННЫЕ
}

// NewRestricted returns the base l as a user allowed only the organizations orgs (their
// references) sees it.
func NewRestricted(l *onec.Ledger, orgs ...string) *Restricted {
	ok := func(org string) bool { return slices.Contains(orgs, org) }
	// Контрагенты, the chart and Номенклатура are not restricted by organization in BP.
	v := &onec.Ledger{Counterparties: l.Counterparties, Accounts: l.Accounts, Items: l.Items}
	for _, o := range l.Organizations {
		if ok(o.Ref) {
			v.Organizations = append(v.Organizations, o)
		}
	}
	for _, c := range l.Contracts {
		if ok(c.OrganizationRef) {
			v.Contracts = append(v.Contracts, c)
		}
	}
	for _, d := range l.Documents {
		if ok(d.OrganizationRef) {
			v.Documents = append(v.Documents, d)
		}
	}
	for _, m := range l.Movements {
		if ok(m.OrganizationRef) {
			v.Movements = append(v.Movements, m)
		}
	}
	return &Restricted{visible: onec.NewNamedDemo(v, "демо-база 1С под пользователем с ограниченными правами")}
}

// Name says where the answers come from.
func (r *Restricted) Name() string { return r.visible.Name() }

// Execute runs the query as the restricted user: refused with AccessViolation when it reads a
// restricted table without РАЗРЕШЕННЫЕ, else on the records the user may see.
func (r *Restricted) Execute(ctx context.Context, query string, params map[string]any, limit int) ([]map[string]any, error) {
	b, err := qlang.Parse(query)
	switch {
	case err != nil || allowed(b):
	case readsRestricted(b):
		r.mu.Lock()
		r.refused = append(r.refused, query)
		r.mu.Unlock()
		return nil, &onec.QueryError{Message: AccessViolation}
	default:
		// 1C runs it, reading nothing restricted; the demo runs only its whitelist, whose texts
		// say РАЗРЕШЕННЫЕ: a template without the word is run as the template.
		if q := strings.Replace(query, "\nВЫБРАТЬ", "\nВЫБРАТЬ РАЗРЕШЕННЫЕ", 1); isTemplate(q) {
			query = q
		}
	}
	return r.visible.Execute(ctx, query, params, limit)
}

// Refused returns the query texts refused so far for want of РАЗРЕШЕННЫЕ.
func (r *Restricted) Refused() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.refused)
}

func isTemplate(q string) bool { _, ok := onec.QueryID(q); return ok }

// restrictedTables are the tables BP restricts by organization (by prefix of the folded name).
var restrictedTables = []string{"РЕГИСТРБУХГАЛТЕРИИ.", "ДОКУМЕНТ.", "СПРАВОЧНИК.ОРГАНИЗАЦИИ", "СПРАВОЧНИК.ДОГОВОРЫКОНТРАГЕНТОВ",
	"СПРАВОЧНИК.БАНКОВСКИЕСЧЕТА"}

// readsRestricted: a data source of the batch, nested queries included, is a restricted table.
func readsRestricted(b *qlang.Batch) bool {
	found := false
	qlang.Walk(b, func(n qlang.Node) bool {
		if src, ok := n.(*qlang.Source); ok {
			name := strings.ToUpper(strings.ReplaceAll(src.Name(), "ё", "е"))
			for _, t := range restrictedTables {
				if strings.HasPrefix(name, t) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// allowed: every query of the batch says РАЗРЕШЕННЫЕ in its first selection, which covers its
// ОБЪЕДИНИТЬ and its nested queries.
func allowed(b *qlang.Batch) bool {
	for _, q := range b.Queries {
		if len(q.Selects) > 0 && !q.Selects[0].Allowed {
			return false
		}
	}
	return true
}
