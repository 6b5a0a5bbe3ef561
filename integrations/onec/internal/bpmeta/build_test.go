package bpmeta

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// dump is a tiny configuration dump in the format of kassya20/buh, enough for every rule.
var dump = map[string]string{
	"Configuration.xml": md(`<Configuration><Properties><Name>Тест</Name><Version>1.2.3</Version></Properties>
		<ChildObjects><Catalog>Контрагенты</Catalog><Catalog>Договоры</Catalog><Document>Акт</Document>
		<ChartOfAccounts>Хозрасчетный</ChartOfAccounts><Enum>Виды</Enum></ChildObjects></Configuration>`),
	"Catalogs/Контрагенты.xml": md(`<Catalog><Properties><Name>Контрагенты</Name><Hierarchical>true</Hierarchical>
		<HierarchyType>HierarchyFoldersAndItems</HierarchyType><CodeLength>9</CodeLength><DescriptionLength>100</DescriptionLength>
		<Owners/>` + stdAttrs("Ref", "DeletionMark", "Predefined", "PredefinedDataName", "Code", "Description", "Owner", "Parent", "IsFolder") + `
		</Properties><ChildObjects>
		<Attribute><Properties><Name>ИНН</Name><Type><v8:Type>xs:string</v8:Type></Type></Properties></Attribute>
		<Attribute><Properties><Name>Сумма</Name><Type><v8:TypeSet>cfg:DefinedType.Деньги</v8:TypeSet></Type></Properties></Attribute>
		</ChildObjects></Catalog>`),
	"Catalogs/Контрагенты/Ext/Predefined.xml": `<PredefinedData><Item><Name>Розница</Name><Code>1</Code></Item></PredefinedData>`,
	"Catalogs/Договоры.xml": md(`<Catalog><Properties><Name>Договоры</Name><Hierarchical>false</Hierarchical>
		<CodeLength>0</CodeLength><DescriptionLength>50</DescriptionLength>
		<Owners><xr:Item xsi:type="xr:MDObjectRef">Catalog.Контрагенты</xr:Item></Owners>` +
		stdAttrs("Ref", "DeletionMark", "Predefined", "PredefinedDataName", "Description", "Owner") + `</Properties></Catalog>`),
	"Documents/Акт.xml": md(`<Document><Properties><Name>Акт</Name><NumberLength>11</NumberLength><Posting>Deny</Posting>` +
		stdAttrs("Ref", "DeletionMark", "Date", "Number") + `</Properties><ChildObjects>
		<Attribute><Properties><Name>Контрагент</Name><Type><v8:Type>cfg:CatalogRef.Контрагенты</v8:Type></Type></Properties></Attribute>
		<TabularSection><Properties><Name>Строки</Name></Properties><ChildObjects>
			<Attribute><Properties><Name>Сумма</Name><Type><v8:Type>xs:decimal</v8:Type></Type></Properties></Attribute>
		</ChildObjects></TabularSection>
		<TabularSection><Properties><Name>Прочее</Name></Properties></TabularSection>
		</ChildObjects></Document>`),
	"DefinedTypes/Деньги.xml": md(`<DefinedType><Properties><Name>Деньги</Name><Type><v8:Type>xs:decimal</v8:Type></Type></Properties></DefinedType>`),
	"Enums/Виды.xml": md(`<Enum><Properties><Name>Виды</Name></Properties><ChildObjects>
		<EnumValue><Properties><Name>Первый</Name></Properties></EnumValue><EnumValue><Properties><Name>Второй</Name></Properties></EnumValue>
		</ChildObjects></Enum>`),
	"ChartsOfAccounts/Хозрасчетный.xml": md(`<ChartOfAccounts><Properties><Name>Хозрасчетный</Name>
		<ExtDimensionTypes>ChartOfCharacteristicTypes.ВидыСубконто</ExtDimensionTypes><MaxExtDimensionCount>2</MaxExtDimensionCount>
		<CodeLength>8</CodeLength><DescriptionLength>120</DescriptionLength><OrderLength>8</OrderLength>` +
		stdAttrs("Ref", "DeletionMark", "Predefined", "PredefinedDataName", "Code", "Description", "Parent", "Type", "OffBalance", "Order") + `
		<StandardTabularSections><xr:StandardTabularSection name="ExtDimensionTypes"/></StandardTabularSections>
		</Properties><ChildObjects>
		<AccountingFlag><Properties><Name>Валютный</Name><Type><v8:Type>xs:boolean</v8:Type></Type></Properties></AccountingFlag>
		<ExtDimensionAccountingFlag><Properties><Name>Суммовой</Name><Type><v8:Type>xs:boolean</v8:Type></Type></Properties></ExtDimensionAccountingFlag>
		</ChildObjects></ChartOfAccounts>`),
	"ChartsOfAccounts/Хозрасчетный/Ext/Predefined.xml": `<PredefinedData>
		<Item><Name>Покупатели</Name><Code>62</Code><ChildItems>
			<Item><Name>РасчетыСПокупателями</Name><Code>62.01</Code><ExtDimensionTypes>
				<ExtDimensionType name="ChartOfCharacteristicTypes.ВидыСубконто.Контрагенты"/></ExtDimensionTypes></Item>
		</ChildItems></Item>
		<Item><Name>Касса</Name><Code>50</Code></Item></PredefinedData>`,
	"ChartsOfCharacteristicTypes/ВидыСубконто.xml": md(`<ChartOfCharacteristicTypes><Properties><Name>ВидыСубконто</Name>
		<CodeLength>5</CodeLength><DescriptionLength>100</DescriptionLength>
		<Type><v8:Type>cfg:CatalogRef.Контрагенты</v8:Type><v8:Type>cfg:DocumentRef.Акт</v8:Type></Type>
		</Properties></ChartOfCharacteristicTypes>`),
	"AccountingRegisters/Хозрасчетный.xml": md(`<AccountingRegister><Properties><Name>Хозрасчетный</Name>
		<ChartOfAccounts>ChartOfAccounts.Хозрасчетный</ChartOfAccounts><Correspondence>true</Correspondence>
		</Properties><ChildObjects>
		<Dimension><Properties><Name>Организация</Name><Type><v8:Type>cfg:CatalogRef.Контрагенты</v8:Type></Type><Balance>true</Balance></Properties></Dimension>
		<Dimension><Properties><Name>Валюта</Name><Type><v8:Type>cfg:CatalogRef.Договоры</v8:Type></Type><Balance>false</Balance></Properties></Dimension>
		<Resource><Properties><Name>Сумма</Name><Type><v8:Type>xs:decimal</v8:Type></Type><Balance>true</Balance></Properties></Resource>
		<Resource><Properties><Name>Количество</Name><Type><v8:Type>xs:decimal</v8:Type></Type><Balance>false</Balance></Properties></Resource>
		<Attribute><Properties><Name>Содержание</Name><Type><v8:Type>xs:string</v8:Type></Type></Properties></Attribute>
		</ChildObjects></AccountingRegister>`),
}

func md(body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><MetaDataObject xmlns="http://v8.1c.ru/8.3/MDClasses" ` +
		`xmlns:v8="http://v8.1c.ru/8.1/data/core" xmlns:xr="http://v8.1c.ru/8.3/xcf/readable" ` +
		`xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` + body + `</MetaDataObject>`
}

func stdAttrs(names ...string) string {
	var b strings.Builder
	b.WriteString("<StandardAttributes>")
	for _, n := range names {
		fmt.Fprintf(&b, `<xr:StandardAttribute name="%s"/>`, n)
	}
	b.WriteString("</StandardAttributes>")
	return b.String()
}

func readDump(files map[string]string) ReadFunc {
	return func(path string) ([]byte, error) {
		s, ok := files[path]
		if !ok {
			return nil, fmt.Errorf("%s: %w", path, fs.ErrNotExist)
		}
		return []byte(s), nil
	}
}

var testSpec = Spec{
	Repository: "test/dump", Commit: "abc",
	Full: []string{"Справочник.Контрагенты", "Справочник.Договоры", "Документ.Акт", "Перечисление.Виды",
		"ПланСчетов.Хозрасчетный", "ПланВидовХарактеристик.ВидыСубконто", "РегистрБухгалтерии.Хозрасчетный"},
	Tabular:         []string{"Документ.Акт.Строки"},
	AccountPrefixes: []string{"62"},
	NameKinds:       []string{Catalog, Document},
}

func fieldNames(fs []*Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}

func TestBuild(t *testing.T) {
	x, err := Build(readDump(dump), testSpec)
	if err != nil {
		t.Fatalf("Build() error: %v", err)
	}
	obj := func(kind, name string) *Object {
		o := x.Object(kind, name)
		if o == nil {
			t.Fatalf("no %s.%s in the extract", kind, name)
		}
		return o
	}
	tests := []struct {
		name      string
		got, want any
	}{
		{"source", x.Source, Source{Repository: "test/dump", Commit: "abc", Configuration: "Тест", Version: "1.2.3", Path: "Configuration.xml"}},
		{"names", x.Names, map[string][]string{Catalog: {"Договоры", "Контрагенты"}, Document: {"Акт"}}},
		{"hierarchical catalog with folders, no owners", fieldNames(obj(Catalog, "Контрагенты").Fields),
			[]string{"Ссылка", "ПометкаУдаления", "Предопределенный", "ИмяПредопределенныхДанных", "Код", "Наименование",
				"Родитель", "ЭтоГруппа", "ВерсияДанных", "Представление", "ИНН", "Сумма"}},
		{"defined type expanded", obj(Catalog, "Контрагенты").Field("Сумма").Types, []string{"Число"}},
		{"predefined items", obj(Catalog, "Контрагенты").Predefined, &Predefined{Path: "Catalogs/Контрагенты/Ext/Predefined.xml", Names: []string{"Розница"}}},
		{"owned catalog without code or hierarchy", fieldNames(obj(Catalog, "Договоры").Fields),
			[]string{"Ссылка", "ПометкаУдаления", "Предопределенный", "ИмяПредопределенныхДанных", "Наименование", "Владелец",
				"ВерсияДанных", "Представление"}},
		{"owner type", obj(Catalog, "Договоры").Field("Владелец").Types, []string{"Справочник.Контрагенты"}},
		{"no predefined items", obj(Catalog, "Договоры").Predefined, (*Predefined)(nil)},
		{"document that cannot be posted", fieldNames(obj(Document, "Акт").Fields),
			[]string{"Ссылка", "ПометкаУдаления", "Дата", "МоментВремени", "Номер", "ВерсияДанных", "Представление", "Контрагент"}},
		{"tabular sections", obj(Document, "Акт").TabularSections, []*TabularSection{
			{Name: "Строки", Fields: []*Field{std("Ссылка", "Документ.Акт"), std("НомерСтроки", "Число"), {Name: "Сумма", Types: []string{"Число"}}}},
			{Name: "Прочее", Omitted: true}}},
		{"enum values", obj(Enum, "Виды").Values, []string{"Первый", "Второй"}},
		{"value type of the subconto", obj(ChartOfCharacteristic, "ВидыСубконто").ValueTypes, []string{"Справочник.Контрагенты", "Документ.Акт"}},
		{"chart of accounts: flags and ВидыСубконто", fieldNames(obj(ChartOfAccounts, "Хозрасчетный").TabularSections[0].Fields),
			[]string{"Ссылка", "НомерСтроки", "ВидСубконто", "ТолькоОбороты", "Предопределенный", "Суммовой"}},
		{"predefined accounts", obj(ChartOfAccounts, "Хозрасчетный").Predefined, &Predefined{
			Path: "ChartsOfAccounts/Хозрасчетный/Ext/Predefined.xml", Names: []string{"Касса", "Покупатели", "РасчетыСПокупателями"},
			Accounts: []*Account{{Code: "62", Name: "Покупатели"}, {Code: "62.01", Name: "РасчетыСПокупателями", ExtDimensions: []string{"Контрагенты"}}}}},
		{"records table", fieldNames(obj(AccountingRegister, "Хозрасчетный").Fields), []string{
			"Период", "Регистратор", "НомерСтроки", "Активность", "МоментВремени", "СчетДт", "СчетКт",
			"СубконтоДт1", "СубконтоДт2", "СубконтоКт1", "СубконтоКт2", "ВидСубконтоДт1", "ВидСубконтоДт2", "ВидСубконтоКт1", "ВидСубконтоКт2",
			"Организация", "ВалютаДт", "ВалютаКт", "Сумма", "КоличествоДт", "КоличествоКт", "Содержание"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := gocmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestVirtualTables(t *testing.T) {
	x, err := Build(readDump(dump), testSpec)
	if err != nil {
		t.Fatalf("Build() error: %v", err)
	}
	reg := x.Object(AccountingRegister, "Хозрасчетный")
	tests := []struct {
		table      string
		params     []string
		wantFields []string // a sample of the columns
	}{
		{"Остатки", []string{"Период", "УсловиеСчета", "Субконто", "Условие"},
			[]string{"Счет", "Субконто2", "Организация", "Валюта", "СуммаОстатокДт", "СуммаРазвернутыйОстатокКт", "КоличествоОстаток"}},
		{"Обороты", []string{"НачалоПериода", "КонецПериода", "Периодичность", "УсловиеСчета", "Субконто", "Условие", "УсловиеКорСчета", "КорСубконто"},
			[]string{"КорСчет", "КорСубконто2", "ВалютаКор", "СуммаОборотДт", "СуммаКорОборотКт", "ПериодМесяц", "Регистратор"}},
		{"ОстаткиИОбороты", []string{"НачалоПериода", "КонецПериода", "Периодичность", "МетодДополнения", "УсловиеСчета", "Субконто", "Условие"},
			[]string{"СуммаНачальныйОстатокДт", "СуммаОборотКт", "СуммаКонечныйРазвернутыйОстатокКт", "ПериодДень"}},
		{"ДвиженияССубконто", []string{"НачалоПериода", "КонецПериода", "Условие", "Порядок", "Первые"},
			[]string{"СчетДт", "СубконтоКт2", "ВидСубконтоДт1", "ВалютаКт", "Сумма", "КоличествоДт", "Содержание"}},
		{"ОборотыДтКт", []string{"НачалоПериода", "КонецПериода", "Периодичность", "УсловиеСчетаДт", "СубконтоДт", "УсловиеСчетаКт", "СубконтоКт", "Условие"},
			[]string{"СчетКт", "СубконтоДт1", "Организация", "ВалютаДт", "СуммаОборот", "КоличествоОборотКт"}},
	}
	for _, tt := range tests {
		t.Run(tt.table, func(t *testing.T) {
			vt := reg.VirtualTable(tt.table)
			if vt == nil {
				t.Fatalf("no virtual table %s", tt.table)
			}
			var params []string
			for _, p := range vt.Params {
				params = append(params, p.Name)
			}
			if diff := gocmp.Diff(tt.params, params); diff != "" {
				t.Errorf("params (-want +got):\n%s", diff)
			}
			for _, f := range tt.wantFields {
				if vt.Field(f) == nil {
					t.Errorf("no column %s among %v", f, fieldNames(vt.Fields))
				}
			}
			if len(vt.Source) == 0 {
				t.Errorf("no documented source")
			}
		})
	}
	if vt := reg.VirtualTable("Остатки"); vt.Field("СуммаОборотДт") != nil || vt.Field("ВалютаДт") != nil {
		t.Errorf("Остатки has turnover or sided columns: %v", fieldNames(vt.Fields))
	}
}

func TestBuildErrors(t *testing.T) {
	broken := func(path, body string) map[string]string {
		m := map[string]string{}
		for k, v := range dump {
			m[k] = v
		}
		m[path] = body
		return m
	}
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"object missing", broken("Documents/Акт.xml", ""), "Документ.Акт"},
		{"rule invents a standard attribute", broken("Catalogs/Договоры.xml", md(`<Catalog><Properties><Name>Договоры</Name>
			<DescriptionLength>50</DescriptionLength>`+stdAttrs("Ref")+`</Properties></Catalog>`)),
			"standard attribute ПометкаУдаления (DeletionMark) is not in the dump"},
		{"wrong name inside", broken("Enums/Виды.xml", md(`<Enum><Properties><Name>Другие</Name></Properties></Enum>`)),
			`Enums/Виды.xml names "Другие", want "Виды"`},
		{"bad XML", broken("Enums/Виды.xml", "<MetaDataObject><Enum>"), "Enums/Виды.xml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := tt.files
			if tt.name == "object missing" {
				delete(files, "Documents/Акт.xml")
			}
			_, err := Build(readDump(files), testSpec)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Build() error = %v, want it to mention %q", err, tt.want)
			}
			if tt.name == "object missing" && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Build() error does not wrap fs.ErrNotExist: %v", err)
			}
		})
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	x, err := Build(readDump(dump), testSpec)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Marshal(x)
	if err != nil {
		t.Fatalf("Marshal() error: %v", err)
	}
	var back Extract
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("Marshal() output does not decode: %v\n%s", err, b)
	}
	if diff := gocmp.Diff(x, &back); diff != "" {
		t.Errorf("round trip (-built +decoded):\n%s", diff)
	}
	if !strings.Contains(string(b), `{"name": "Ссылка", "types": ["Справочник.Контрагенты"], "standard": true}`) {
		t.Errorf("a field is not on one line:\n%s", b)
	}
}

func TestScanQueries(t *testing.T) {
	module := "// \"ВЫБРАТЬ в комментарии\"\n" +
		"Запрос.Текст = \"ВЫБРАТЬ\n\t|\tК.Ссылка КАК Ссылка, \"\"строка\"\" КАК С\n\t|ИЗ\n\t|\tСправочник.К КАК К\";\n" +
		"Выбрать = \"ВыбратьФайл\"; Текст = \"// комментарий\n|SELECT 1\";\n" +
		"Запрос2 = \"ВЫБРАТЬ 2\";"
	got := ScanQueries(module)
	want := []QueryText{
		{Line: 2, Text: "ВЫБРАТЬ\n\tК.Ссылка КАК Ссылка, \"строка\" КАК С\nИЗ\n\tСправочник.К КАК К"},
		{Line: 6, Text: "// комментарий\nSELECT 1"},
		{Line: 8, Text: "ВЫБРАТЬ 2"},
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("ScanQueries (-want +got):\n%s", diff)
	}
}

func TestRecordUsage(t *testing.T) {
	x, err := Build(readDump(dump), testSpec)
	if err != nil {
		t.Fatal(err)
	}
	reg := x.Object(AccountingRegister, "Хозрасчетный")
	module := "А = \"ВЫБРАТЬ 1 ИЗ РегистрБухгалтерии.Хозрасчетный.Остатки(&Д, , , ) КАК О\";\n" +
		"Б = \"ВЫБРАТЬ 1 ИЗ РегистрБухгалтерии.Хозрасчетный.Остатки(&Д) КАК О\";\n" +
		"В = \"ВЫБРАТЬ 1 ИЗ {ГДЕ}\";"
	stats := ScanStats{MaxErrors: 5}
	RecordUsage(reg, "M.bsl", module, &stats)
	if diff := gocmp.Diff(&Usage{Queries: 2, MaxParams: 4, Example: "M.bsl:1"}, reg.VirtualTable("Остатки").BPUsage); diff != "" {
		t.Errorf("usage (-want +got):\n%s", diff)
	}
	if stats.Queries != 3 || stats.Parsed != 2 || len(stats.Errors) != 1 {
		t.Errorf("stats = %+v, want 3 queries, 2 parsed, 1 error", stats)
	}
}
