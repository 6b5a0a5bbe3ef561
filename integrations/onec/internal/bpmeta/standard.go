package bpmeta

// Standard attributes: the columns the platform gives every object of a kind, in the query
// language's Russian names. Which of them an object has follows from its properties in the dump
// (a catalog without owners has no Владелец, a non-hierarchical one no Родитель or ЭтоГруппа, a
// document that cannot be posted no Проведен); each rule below names the property it reads.

func std(name string, types ...string) *Field {
	return &Field{Name: name, Types: types, Standard: true}
}

// codeType is the type of Код or Номер: Строка unless the dump says Number.
func codeType(t string) string {
	if t == "Number" {
		return "Число"
	}
	return "Строка"
}

// standardFields returns the standard attributes of an object.
func standardFields(kind, name string, p *mdProps) []*Field {
	self := kind + "." + name
	var fs []*Field
	add := func(cond bool, f *Field) {
		if cond {
			fs = append(fs, f)
		}
	}
	switch kind {
	case Catalog, ChartOfCharacteristic:
		fs = append(fs, std("Ссылка", self), std("ПометкаУдаления", "Булево"), std("Предопределенный", "Булево"),
			std("ИмяПредопределенныхДанных", "Строка"))
		add(p.CodeLength > 0, std("Код", codeType(p.CodeType)))          // CodeLength
		add(p.DescriptionLength > 0, std("Наименование", "Строка"))      // DescriptionLength
		add(len(p.Owners) > 0, std("Владелец", ownerTypes(p.Owners)...)) // Owners
		add(p.Hierarchical, std("Родитель", self))                       // Hierarchical
		// HierarchyType: only a hierarchy of folders and items has folders.
		add(p.Hierarchical && p.HierarchyType != "HierarchyOfItems", std("ЭтоГруппа", "Булево"))
		add(kind == ChartOfCharacteristic, std("ТипЗначения", "ОписаниеТипов"))
	case Document:
		fs = append(fs, std("Ссылка", self), std("ПометкаУдаления", "Булево"), std("Дата", "Дата"),
			std("МоментВремени", "МоментВремени"))
		add(p.NumberLength > 0, std("Номер", codeType(p.NumberType))) // NumberLength
		add(p.Posting == "Allow", std("Проведен", "Булево"))          // Posting
	case ChartOfAccounts:
		fs = append(fs, std("Ссылка", self), std("ПометкаУдаления", "Булево"), std("Предопределенный", "Булево"),
			std("ИмяПредопределенныхДанных", "Строка"), std("Родитель", self), std("Вид", "ВидСчета"),
			std("Забалансовый", "Булево"))
		add(p.CodeLength > 0, std("Код", "Строка"))
		add(p.DescriptionLength > 0, std("Наименование", "Строка"))
		add(p.OrderLength > 0, std("Порядок", "Строка"))
	case Enum:
		fs = append(fs, std("Ссылка", self), std("Порядок", "Число"))
	}
	if kind != Enum {
		fs = append(fs, std("ВерсияДанных", "Строка"))
	}
	return append(fs, std("Представление", "Строка"))
}

func ownerTypes(owners []string) []string {
	ts := make([]string, len(owners))
	for i, o := range owners {
		ts[i] = typeName(o)
	}
	return ts
}

// tabularStandard returns the standard columns of a tabular section of self.
func tabularStandard(self string) []*Field {
	return []*Field{std("Ссылка", self), std("НомерСтроки", "Число")}
}
