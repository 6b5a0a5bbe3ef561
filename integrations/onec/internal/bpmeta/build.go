package bpmeta

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// accountTypeSource: ВидСчета is the platform's, so the dump has no file for it; BP's own
// queries name all three values, e.g. in this module.
const accountTypeSource = "platform system enumeration; all three values in ЗНАЧЕНИЕ(ВидСчета.…) of " +
	"CommonModules/ЗаполнениеБухгалтерскойОтчетностиПоясненияЗадолженность/Ext/Module.bsl"

// Spec says what to extract.
type Spec struct {
	Repository, Commit string
	// Full are the objects extracted with every attribute and tabular section, as
	// "Справочник.Контрагенты".
	Full []string
	// Tabular are the tabular sections whose columns are extracted, as
	// "Документ.ВводНачальныхОстатков.РасчетыСКонтрагентами"; the others of a full object are
	// listed by name only.
	Tabular []string
	// AccountPrefixes selects the predefined accounts detailed with code and subconto kinds.
	AccountPrefixes []string
	// NameKinds are the kinds whose every object name is listed in Extract.Names.
	NameKinds  []string
	Regenerate string
}

// ReadFunc reads a file of the dump by its path (Catalogs/Контрагенты.xml); a missing file is an
// error wrapping fs.ErrNotExist.
type ReadFunc func(path string) ([]byte, error)

// Build extracts the metadata spec asks for from a configuration dump.
func Build(read ReadFunc, spec Spec) (*Extract, error) {
	b := &builder{read: read, spec: spec, defined: map[string][]string{}, done: map[string]bool{}}
	return b.build()
}

type builder struct {
	read    ReadFunc
	spec    Spec
	x       *Extract
	defined map[string][]string // expanded defined types
	done    map[string]bool     // objects already added
}

func (b *builder) build() (*Extract, error) {
	root, err := b.read("Configuration.xml")
	if err != nil {
		return nil, fmt.Errorf("bpmeta: %w", err)
	}
	var cfg cfgFile
	if err := xml.NewDecoder(bytes.NewReader(root)).Decode(&cfg); err != nil {
		return nil, fmt.Errorf("bpmeta: Configuration.xml: %w", err)
	}
	b.x = &Extract{
		Source: Source{Repository: b.spec.Repository, Commit: b.spec.Commit, Configuration: cfg.Configuration.Properties.Name,
			Version: cfg.Configuration.Properties.Version, Path: "Configuration.xml"},
		Regenerate: b.spec.Regenerate,
		Names:      map[string][]string{},
		SystemEnums: []*SystemEnum{{Name: "ВидСчета", Values: []string{"Активный", "Пассивный", "АктивноПассивный"},
			Source: accountTypeSource}},
	}
	for _, it := range cfg.Configuration.Children.Items {
		k, ok := kinds[it.XMLName.Local]
		if ok && slices.Contains(b.spec.NameKinds, k.kind) {
			b.x.Names[k.kind] = append(b.x.Names[k.kind], strings.TrimSpace(it.Name))
		}
	}
	for _, names := range b.x.Names {
		slices.Sort(names)
	}
	for _, full := range b.spec.Full {
		kind, name, _ := strings.Cut(full, ".")
		if err := b.object(kind, name, false); err != nil {
			return nil, err
		}
	}
	// The subconto's value type: every member gets its standard attributes, so that a field path
	// through Субконто1 can be checked against any type it may hold.
	for _, o := range slices.Clone(b.x.Objects) {
		for _, t := range o.ValueTypes {
			kind, name, ok := strings.Cut(t, ".")
			if !ok || b.done[t] {
				continue
			}
			if err := b.object(kind, name, true); err != nil {
				return nil, err
			}
		}
	}
	return b.x, nil
}

func dirOf(kind string) string {
	for _, k := range kinds {
		if k.kind == kind {
			return k.dir
		}
	}
	return ""
}

// object adds one object, full or partial.
func (b *builder) object(kind, name string, partial bool) error {
	dir := dirOf(kind)
	if dir == "" {
		return fmt.Errorf("bpmeta: %s.%s: unsupported kind", kind, name)
	}
	path := dir + "/" + name + ".xml"
	raw, err := b.read(path)
	if err != nil {
		return fmt.Errorf("bpmeta: %s.%s: %w", kind, name, err)
	}
	md, err := parseObject(raw)
	if err != nil {
		return fmt.Errorf("bpmeta: %s: %w", path, err)
	}
	o := &Object{Kind: kind, Name: md.Properties.Name, Path: path, Partial: partial}
	b.done[o.FullName()] = true
	if o.Name != name {
		return fmt.Errorf("bpmeta: %s names %q, want %q", path, o.Name, name)
	}
	o.Fields = standardFields(kind, o.Name, &md.Properties)
	if err := checkStandard(o, md); err != nil {
		return fmt.Errorf("bpmeta: %s: %w", path, err)
	}
	if kind == ChartOfCharacteristic && !partial {
		if o.ValueTypes, err = b.types(md.Properties.Type); err != nil {
			return fmt.Errorf("bpmeta: %s: %w", path, err)
		}
	}
	if !partial {
		if err := b.children(o, md); err != nil {
			return fmt.Errorf("bpmeta: %s: %w", path, err)
		}
		if err := b.predefined(o, dir); err != nil {
			return err
		}
	}
	b.x.Objects = append(b.x.Objects, o)
	return nil
}

// checkStandard makes sure every standard attribute the rules derived is one the dump lists
// (under its English name), so that a rule cannot invent a column.
func checkStandard(o *Object, md *mdObject) error {
	english := map[string]string{"Ссылка": "Ref", "ПометкаУдаления": "DeletionMark", "Предопределенный": "Predefined",
		"ИмяПредопределенныхДанных": "PredefinedDataName", "Код": "Code", "Наименование": "Description",
		"Владелец": "Owner", "Родитель": "Parent", "ЭтоГруппа": "IsFolder", "Дата": "Date", "Номер": "Number",
		"Проведен": "Posted", "Вид": "Type", "Забалансовый": "OffBalance", "Порядок": "Order", "ТипЗначения": "ValueType"}
	if len(md.Properties.StandardAttributes) == 0 {
		return nil // enums and charts of characteristic types list none in the dump
	}
	listed := map[string]bool{}
	for _, s := range md.Properties.StandardAttributes {
		listed[s.Name] = true
	}
	for _, f := range o.Fields {
		if en, ok := english[f.Name]; ok && !listed[en] {
			return fmt.Errorf("standard attribute %s (%s) is not in the dump", f.Name, en)
		}
	}
	return nil
}

// types expands a dump type into query language type names.
func (b *builder) types(t mdType) ([]string, error) {
	var out []string
	for _, s := range t.Types {
		out = append(out, typeName(s))
	}
	for _, set := range t.TypeSets {
		set = strings.TrimSpace(set)
		if i := strings.IndexByte(set, ':'); i >= 0 {
			set = set[i+1:]
		}
		prefix, name, _ := strings.Cut(set, ".")
		switch prefix {
		case "Characteristic":
			out = append(out, CharacteristicPrefix+name)
		case "DefinedType":
			ts, err := b.definedType(name)
			if err != nil {
				return nil, err
			}
			out = append(out, ts...)
		default:
			out = append(out, set)
		}
	}
	return out, nil
}

func (b *builder) definedType(name string) ([]string, error) {
	if ts, ok := b.defined[name]; ok {
		return ts, nil
	}
	path := "DefinedTypes/" + name + ".xml"
	raw, err := b.read(path)
	if err != nil {
		return nil, fmt.Errorf("defined type %s: %w", name, err)
	}
	md, err := parseObject(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b.defined[name] = nil // a defined type cannot contain itself; guard anyway
	ts, err := b.types(md.Properties.Type)
	if err != nil {
		return nil, err
	}
	b.defined[name] = ts
	return ts, nil
}

func (b *builder) fields(children []mdChild, role string) ([]*Field, error) {
	var fs []*Field
	for _, c := range children {
		ts, err := b.types(c.Properties.Type)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Properties.Name, err)
		}
		fs = append(fs, &Field{Name: c.Properties.Name, Types: ts, Role: role})
	}
	return fs, nil
}

// children adds attributes, tabular sections, enum values and register parts.
func (b *builder) children(o *Object, md *mdObject) error {
	attrs, err := b.fields(md.Children.Attributes, "")
	if err != nil {
		return err
	}
	switch o.Kind {
	case Enum:
		for _, v := range md.Children.EnumValues {
			o.Values = append(o.Values, v.Properties.Name)
		}
		return nil
	case AccountingRegister:
		return b.register(o, md, attrs)
	case ChartOfAccounts:
		flags, err := b.fields(md.Children.AccountingFlags, "accountingFlag")
		if err != nil {
			return err
		}
		o.Fields = append(append(o.Fields, attrs...), flags...)
		return b.chartTabular(o, md)
	}
	o.Fields = append(o.Fields, attrs...)
	for _, ts := range md.Children.TabularSections {
		section := &TabularSection{Name: ts.Properties.Name}
		o.TabularSections = append(o.TabularSections, section)
		if !slices.Contains(b.spec.Tabular, o.FullName()+"."+section.Name) {
			section.Omitted = true
			continue
		}
		fs, err := b.fields(ts.Children.Attributes, "")
		if err != nil {
			return fmt.Errorf("%s: %w", ts.Properties.Name, err)
		}
		section.Fields = append(tabularStandard(o.FullName()), fs...)
	}
	return nil
}

// chartTabular adds a chart of accounts' standard tabular section ВидыСубконто (ExtDimensionTypes).
func (b *builder) chartTabular(o *Object, md *mdObject) error {
	has := slices.ContainsFunc(md.Properties.StandardTabular, func(s mdStd) bool { return s.Name == "ExtDimensionTypes" })
	if !has {
		return nil
	}
	kinds := typeName(md.Properties.ExtDimensionTypes)
	flags, err := b.fields(md.Children.ExtDimensionFlags, "accountingFlag")
	if err != nil {
		return err
	}
	fs := append(tabularStandard(o.FullName()), std("ВидСубконто", kinds), std("ТолькоОбороты", "Булево"),
		std("Предопределенный", "Булево"))
	o.TabularSections = append(o.TabularSections, &TabularSection{Name: "ВидыСубконто", Standard: true,
		Fields: append(fs, flags...)})
	return nil
}

// predefined adds the object's predefined items, if it has a Predefined.xml.
func (b *builder) predefined(o *Object, dir string) error {
	path := dir + "/" + o.Name + "/Ext/Predefined.xml"
	raw, err := b.read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("bpmeta: %w", err)
	}
	items, err := parsePredefined(raw)
	if err != nil {
		return fmt.Errorf("bpmeta: %s: %w", path, err)
	}
	p := &Predefined{Path: path}
	var walk func([]pdItem)
	walk = func(items []pdItem) {
		for _, it := range items {
			p.Names = append(p.Names, it.Name)
			if o.Kind == ChartOfAccounts && b.detailed(it.Code) {
				a := &Account{Code: it.Code, Name: it.Name}
				for _, e := range it.ExtDimensions {
					a.ExtDimensions = append(a.ExtDimensions, e.Name[strings.LastIndexByte(e.Name, '.')+1:])
				}
				for _, f := range it.Flags {
					if strings.TrimSpace(f.Value) == "true" {
						a.Flags = append(a.Flags, f.Ref[strings.LastIndexByte(f.Ref, '.')+1:])
					}
				}
				p.Accounts = append(p.Accounts, a)
			}
			walk(it.Children)
		}
	}
	walk(items)
	slices.Sort(p.Names)
	if len(p.Names) > 0 {
		o.Predefined = p
	}
	return nil
}

func (b *builder) detailed(code string) bool {
	for _, prefix := range b.spec.AccountPrefixes {
		if code == prefix || strings.HasPrefix(code, prefix+".") {
			return true
		}
	}
	return false
}

// register fills an accounting register: its parts, its records table and its virtual tables.
func (b *builder) register(o *Object, md *mdObject, attrs []*Field) error {
	p := &md.Properties
	chart := typeName(p.ChartOfAccounts)
	if !strings.Contains(chart, ".") {
		chart = ChartOfAccounts + "." + chart
	}
	chartName := strings.TrimPrefix(chart, ChartOfAccounts+".")
	chartPath := dirOf(ChartOfAccounts) + "/" + chartName + ".xml"
	raw, err := b.read(chartPath)
	if err != nil {
		return fmt.Errorf("chart of accounts: %w", err)
	}
	cmd, err := parseObject(raw)
	if err != nil {
		return fmt.Errorf("%s: %w", chartPath, err)
	}
	kinds := typeName(cmd.Properties.ExtDimensionTypes)
	kindsName := strings.TrimPrefix(kinds, ChartOfCharacteristic+".")
	reg := &Register{ChartOfAccounts: chart, Correspondence: p.Correspondence, ExtDimensionTypes: kinds,
		MaxExtDimensions: cmd.Properties.MaxExtDimensionCount, ChartPath: chartPath}
	part := func(cs []mdChild) ([]*RegisterPart, error) {
		var out []*RegisterPart
		for _, c := range cs {
			ts, err := b.types(c.Properties.Type)
			if err != nil {
				return nil, err
			}
			out = append(out, &RegisterPart{Name: c.Properties.Name, Types: ts, Balance: c.Properties.Balance})
		}
		return out, nil
	}
	if reg.Dimensions, err = part(md.Children.Dimensions); err != nil {
		return err
	}
	if reg.Resources, err = part(md.Children.Resources); err != nil {
		return err
	}
	for _, a := range attrs {
		reg.Attributes = append(reg.Attributes, &RegisterPart{Name: a.Name, Types: a.Types})
	}
	m := &registerModel{self: o.FullName(), chart: chart, subconto: CharacteristicPrefix + kindsName, kinds: kinds,
		n: reg.MaxExtDimensions, reg: reg}
	o.Fields = m.recordFields()
	reg.VirtualTables = m.virtualTables()
	o.Register = reg
	return nil
}
