package onec

import (
	"fmt"
	"slices"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// The tables the demo base has, and the fields of its documents, as BP 3.0 names them: a query
// naming anything else fails as it would on a real base ("Таблица не найдена", "Поле не
// найдено"), instead of being answered by an engine that never reads the text.

// knownTables are the tables the demo base serves, by folded name.
var knownTables = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range []string{
		"Справочник.Организации", "Справочник.Контрагенты", "Справочник.ДоговорыКонтрагентов", "Справочник.БанковскиеСчета",
		"Справочник.Номенклатура", "Справочник.КлассификаторЕдиницИзмерения",
		"ПланСчетов.Хозрасчетный", "ПланСчетов.Хозрасчетный.ВидыСубконто", "РегистрБухгалтерии.Хозрасчетный",
		"РегистрБухгалтерии.Хозрасчетный.Остатки", "РегистрБухгалтерии.Хозрасчетный.Обороты",
		"РегистрБухгалтерии.Хозрасчетный.ДвиженияССубконто", "РегистрБухгалтерии.Хозрасчетный.ОстаткиИОбороты",
	} {
		m[foldName(t)] = true
	}
	for t := range bpTabularAttributes {
		m[foldName("Документ."+t)] = true
	}
	for typ := range bpDocumentAttributes {
		m[foldName("Документ."+typ)] = true
	}
	return m
}()

// documentStandard are the standard attributes of a document; tabularStandard those of a line
// of its tabular section.
var (
	documentStandard = []string{"Ссылка", "Номер", "Дата", "Проведен", "ПометкаУдаления", "Представление", "МоментВремени", "ВерсияДанных"}
	tabularStandard  = []string{"Ссылка", "НомерСтроки"}
)

// checkTables refuses a table the demo base does not have.
func checkTables(b *qlang.Batch) error {
	var err error
	qlang.Walk(b, func(n qlang.Node) bool {
		if src, ok := n.(*qlang.Source); ok && src.Table != nil && src.Temp == nil && err == nil && !knownTables[foldName(src.Name())] {
			err = &QueryError{Message: fmt.Sprintf("{%s}: Таблица не найдена \"%s\"", src.Pos, src.Name())}
		}
		return err == nil
	})
	return err
}

// checkDocumentFields refuses a field a BP 3.0 document (or its settlement lines) does not have,
// following a nested query's columns down to the document they read.
func checkDocumentFields(b *qlang.Batch) error {
	refs, err := qlang.Fields(b)
	if err != nil {
		return &QueryError{Message: "{(1, 1)}: Поле не найдено: " + err.Error()}
	}
	for _, r := range refs {
		if r.Source == nil {
			continue
		}
		if err := checkField(r.Path, r.Source, r.Field, 0); err != nil {
			return err
		}
	}
	return nil
}

// checkField checks the attribute path field of source; depth bounds the nested queries.
func checkField(p *qlang.Path, src *qlang.Source, field []string, depth int) error {
	if len(field) == 0 || depth > 4 {
		return nil
	}
	if src.Subquery != nil { // a column of the nested query: check what it reads
		col := src.Subquery.Column(field[0])
		if col == nil {
			return notFound(p)
		}
		cp, ok := col.Expr.(*qlang.Path)
		if !ok || len(src.Subquery.Selects) != 1 {
			return nil // a computed column: nothing to follow
		}
		s := src.Subquery.Selects[0]
		inner, rest := s.Source(cp.Parts[0]), cp.Parts[1:]
		if inner == nil && len(s.Sources()) == 1 {
			inner, rest = s.Sources()[0], cp.Parts
		}
		if inner == nil {
			return nil
		}
		return checkField(p, inner, append(slices.Clone(rest), field[1:]...), depth+1)
	}
	if len(src.Table) < 2 || !qlang.EqualNames(src.Table[0], "Документ") {
		return nil // catalogs and the register: checked by the templates' own tests
	}
	typ := src.Table[1]
	attrs, ok := bpDocumentAttributes[canonicalType(typ)]
	if !ok {
		return nil // checkTables refuses the table
	}
	switch len(src.Table) {
	case 2:
		if !hasName(documentStandard, field[0]) && !hasName(attrs, field[0]) {
			return notFound(p)
		}
	case 3:
		if !hasName(tabularStandard, field[0]) && !hasName(tabularAttributes(typ, src.Table[2]), field[0]) {
			return notFound(p)
		}
		if qlang.EqualNames(field[0], "Ссылка") && len(field) > 1 && !hasName(documentStandard, field[1]) && !hasName(attrs, field[1]) {
			return notFound(p)
		}
	}
	return nil
}

// tabularAttributes are the attributes of the tabular section sec of document type typ.
func tabularAttributes(typ, sec string) []string {
	for t, attrs := range bpTabularAttributes {
		if qlang.EqualNames(t, canonicalType(typ)+"."+sec) {
			return attrs
		}
	}
	return nil
}

func canonicalType(typ string) string {
	for t := range bpDocumentAttributes {
		if qlang.EqualNames(t, typ) {
			return t
		}
	}
	return typ
}

func hasName(list []string, name string) bool {
	return slices.ContainsFunc(list, func(s string) bool { return qlang.EqualNames(s, name) })
}

func notFound(p *qlang.Path) *QueryError {
	return &QueryError{Message: fmt.Sprintf("{%s}: Поле не найдено \"%s\"", p.Pos, p)}
}
