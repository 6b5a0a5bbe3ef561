package bpmeta

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
)

// The XML of a configuration dump (the format of "Выгрузить конфигурацию в файлы", version 2.x):
// one MetaDataObject per object file, its Properties and ChildObjects. Only what the extract
// needs is decoded.

type mdFile struct {
	Objects []mdObject `xml:",any"`
}

type mdObject struct {
	XMLName    xml.Name
	Properties mdProps    `xml:"Properties"`
	Children   mdChildren `xml:"ChildObjects"`
}

type mdProps struct {
	Name                 string   `xml:"Name"`
	Hierarchical         bool     `xml:"Hierarchical"`
	HierarchyType        string   `xml:"HierarchyType"`
	CodeLength           int      `xml:"CodeLength"`
	CodeType             string   `xml:"CodeType"`
	DescriptionLength    int      `xml:"DescriptionLength"`
	NumberLength         int      `xml:"NumberLength"`
	NumberType           string   `xml:"NumberType"`
	Posting              string   `xml:"Posting"`
	OrderLength          int      `xml:"OrderLength"`
	Owners               []string `xml:"Owners>Item"`
	Type                 mdType   `xml:"Type"`
	ExtDimensionTypes    string   `xml:"ExtDimensionTypes"`
	MaxExtDimensionCount int      `xml:"MaxExtDimensionCount"`
	ChartOfAccounts      string   `xml:"ChartOfAccounts"`
	Correspondence       bool     `xml:"Correspondence"`
	Balance              bool     `xml:"Balance"`
	StandardAttributes   []mdStd  `xml:"StandardAttributes>StandardAttribute"`
	StandardTabular      []mdStd  `xml:"StandardTabularSections>StandardTabularSection"`
}

type mdStd struct {
	Name string `xml:"name,attr"`
}

type mdType struct {
	Types    []string `xml:"Type"`
	TypeSets []string `xml:"TypeSet"`
}

type mdChildren struct {
	Attributes        []mdChild `xml:"Attribute"`
	TabularSections   []mdTS    `xml:"TabularSection"`
	Dimensions        []mdChild `xml:"Dimension"`
	Resources         []mdChild `xml:"Resource"`
	AccountingFlags   []mdChild `xml:"AccountingFlag"`
	ExtDimensionFlags []mdChild `xml:"ExtDimensionAccountingFlag"`
	EnumValues        []mdChild `xml:"EnumValue"`
}

type mdChild struct {
	Properties mdProps `xml:"Properties"`
}

type mdTS struct {
	Properties mdProps `xml:"Properties"`
	Children   struct {
		Attributes []mdChild `xml:"Attribute"`
	} `xml:"ChildObjects"`
}

// parseObject decodes an object file and returns its one object.
func parseObject(b []byte) (*mdObject, error) {
	var f mdFile
	if err := xml.NewDecoder(bytes.NewReader(b)).Decode(&f); err != nil {
		return nil, err
	}
	if len(f.Objects) != 1 {
		return nil, fmt.Errorf("%d objects in the file, want 1", len(f.Objects))
	}
	return &f.Objects[0], nil
}

// The predefined items file (Ext/Predefined.xml).
type pdFile struct {
	Items []pdItem `xml:"Item"`
}

type pdItem struct {
	Name          string   `xml:"Name"`
	Code          string   `xml:"Code"`
	ExtDimensions []pdExt  `xml:"ExtDimensionTypes>ExtDimensionType"`
	Flags         []pdFlag `xml:"AccountingFlags>Flag"`
	Children      []pdItem `xml:"ChildItems>Item"`
}

// pdFlag is a predefined account's признак учёта: ref names it
// ("ChartOfAccounts.Хозрасчетный.AccountingFlag.Количественный"), the text is its value.
type pdFlag struct {
	Ref   string `xml:"ref,attr"`
	Value string `xml:",chardata"`
}

type pdExt struct {
	Name string `xml:"name,attr"`
}

func parsePredefined(b []byte) ([]pdItem, error) {
	var f pdFile
	if err := xml.NewDecoder(bytes.NewReader(b)).Decode(&f); err != nil {
		return nil, err
	}
	return f.Items, nil
}

// The configuration's root file lists every object by kind.
type cfgFile struct {
	Configuration struct {
		Properties struct {
			Name    string `xml:"Name"`
			Version string `xml:"Version"`
		} `xml:"Properties"`
		Children struct {
			Items []cfgItem `xml:",any"`
		} `xml:"ChildObjects"`
	} `xml:"Configuration"`
}

type cfgItem struct {
	XMLName xml.Name
	Name    string `xml:",chardata"`
}

// kinds maps the dump's element names to the query language's kinds and the dump's folders.
var kinds = map[string]struct{ kind, dir string }{
	"Catalog":                    {Catalog, "Catalogs"},
	"Document":                   {Document, "Documents"},
	"Enum":                       {Enum, "Enums"},
	"ChartOfAccounts":            {ChartOfAccounts, "ChartsOfAccounts"},
	"ChartOfCharacteristicTypes": {ChartOfCharacteristic, "ChartsOfCharacteristicTypes"},
	"AccountingRegister":         {AccountingRegister, "AccountingRegisters"},
}

// refKinds maps the dump's reference type names (cfg:CatalogRef.X) to kinds.
var refKinds = map[string]string{
	"CatalogRef": Catalog, "DocumentRef": Document, "EnumRef": Enum,
	"ChartOfAccountsRef": ChartOfAccounts, "ChartOfCharacteristicTypesRef": ChartOfCharacteristic,
	// MDObjectRef names (Owners), which have no "Ref".
	"Catalog": Catalog, "Document": Document, "ChartOfCharacteristicTypes": ChartOfCharacteristic,
	"ChartOfAccounts": ChartOfAccounts,
}

var primitiveTypes = map[string]string{
	"xs:string": "Строка", "xs:decimal": "Число", "xs:boolean": "Булево", "xs:dateTime": "Дата",
	"v8:ValueStorage": "ХранилищеЗначения", "v8:UUID": "УникальныйИдентификатор",
	"xs:base64Binary": "ДвоичныеДанные", "v8:Null": "Null", "v8:StandardPeriod": "СтандартныйПериод",
	"v8:StandardBeginningDate": "СтандартнаяДатаНачала", "v8:FixedArray": "ФиксированныйМассив",
}

// typeName turns a dump type (xs:string, cfg:CatalogRef.Контрагенты, d4p1:DocumentRef.X) into a
// query language name (Строка, Справочник.Контрагенты, Документ.X). ok is false for a type set
// (a defined type or a characteristic), which the caller expands.
func typeName(t string) string {
	t = strings.TrimSpace(t)
	if p, ok := primitiveTypes[t]; ok {
		return p
	}
	if i := strings.IndexByte(t, ':'); i >= 0 {
		t = t[i+1:]
	}
	prefix, name, found := strings.Cut(t, ".")
	if !found {
		return t
	}
	if k, ok := refKinds[prefix]; ok {
		return k + "." + name
	}
	return t
}
