package bpmeta

import "strconv"

// The columns of an accounting register's records table and virtual tables follow the
// platform's naming rules, applied to the register's dimensions and resources from the dump: a
// balanced dimension or resource is one column, an unbalanced one a pair with Дт and Кт; a
// resource of Остатки gives <Ресурс>Остаток, <Ресурс>ОстатокДт … The rules and the virtual
// tables' positional parameters are the platform's, documented in the syntax assistant (mirrored
// at yellow-erp.com) and in the articles listed in each table's Source; every column name they
// produce for Хозрасчетный (СуммаОстатокДт, ВалютаКор, КорСубконто1, ПериодМесяц …) also occurs
// in BP's own query texts.

const (
	srcTurnovers   = "https://yellow-erp.com/help/sh/tables/catalog36/table38.html"
	srcDrCr        = "https://yellow-erp.com/help/sh/tables/catalog36/table51.html"
	srcExtDimParam = "https://yellow-erp.com/help/sh/tables/catalog36/table41/params/param36.html"
	srcBalanceMgr  = "https://yellow-erp.com/help/sh/objects/catalog125/catalog462/object464/methods/Balance1185.html?lang=ru"
	srcBalanceArt  = "https://infostart.ru/1c/articles/1282872/"
	srcRecordsArt  = "https://infostart.ru/1c/articles/1128780/"
	srcBalTurnArt  = "https://1s-portal.ru/index.php/stati/common-questions/28-zapros/142-dvizhenijaigranicyperioda-v-1s.html"
)

// periodFields are the columns of the periodic virtual tables (Обороты, ОстаткиИОбороты,
// ОборотыДтКт) besides the register's own.
var periodFields = []string{"Период", "ПериодСекунда", "ПериодМинута", "ПериодЧас", "ПериодДень", "ПериодНеделя",
	"ПериодДекада", "ПериодМесяц", "ПериодКвартал", "ПериодПолугодие", "ПериодГод"}

// registerModel is a register's parts as the rules read them.
type registerModel struct {
	self, chart, subconto, kinds string // subconto: the value type; kinds: the chart of characteristic types
	n                            int
	reg                          *Register
}

func (m *registerModel) numbered(prefix, typ string) []*Field {
	fs := make([]*Field, m.n)
	for i := range fs {
		fs[i] = std(prefix+strconv.Itoa(i+1), typ)
	}
	return fs
}

// pair returns one column for a balanced part and a Дт/Кт pair for an unbalanced one.
func pair(p *RegisterPart, role, suffix string) []*Field {
	if p.Balance {
		return []*Field{{Name: p.Name + suffix, Types: p.Types, Role: role}}
	}
	return []*Field{{Name: p.Name + suffix + "Дт", Types: p.Types, Role: role}, {Name: p.Name + suffix + "Кт", Types: p.Types, Role: role}}
}

func names(fs []*Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}

// recordFields are the columns of the register's records table (and of ДвиженияССубконто).
func (m *registerModel) recordFields() []*Field {
	fs := []*Field{std("Период", "Дата"), std("Регистратор", Document+".*"), std("НомерСтроки", "Число"),
		std("Активность", "Булево"), std("МоментВремени", "МоментВремени")}
	if m.reg.Correspondence {
		fs = append(fs, std("СчетДт", m.chart), std("СчетКт", m.chart))
		fs = append(fs, m.numbered("СубконтоДт", m.subconto)...)
		fs = append(fs, m.numbered("СубконтоКт", m.subconto)...)
		fs = append(fs, m.numbered("ВидСубконтоДт", m.kinds)...)
		fs = append(fs, m.numbered("ВидСубконтоКт", m.kinds)...)
	} else {
		fs = append(fs, std("Счет", m.chart), std("ВидДвижения", "ВидДвиженияБухгалтерии"))
		fs = append(fs, m.numbered("Субконто", m.subconto)...)
		fs = append(fs, m.numbered("ВидСубконто", m.kinds)...)
	}
	for _, d := range m.reg.Dimensions {
		fs = append(fs, m.sided(d, "dimension")...)
	}
	for _, r := range m.reg.Resources {
		fs = append(fs, m.sided(r, "resource")...)
	}
	for _, a := range m.reg.Attributes {
		fs = append(fs, &Field{Name: a.Name, Types: a.Types})
	}
	return fs
}

// sided is a part of the records table: a Дт/Кт pair when the register has correspondence and
// the part is unbalanced.
func (m *registerModel) sided(p *RegisterPart, role string) []*Field {
	if !m.reg.Correspondence {
		return []*Field{{Name: p.Name, Types: p.Types, Role: role}}
	}
	return pair(p, role, "")
}

// axis are the columns a balance or turnover is broken down by: Счет, Субконто1…N and every
// dimension by its own name.
func (m *registerModel) axis() []*Field {
	fs := []*Field{std("Счет", m.chart)}
	fs = append(fs, m.numbered("Субконто", m.subconto)...)
	for _, d := range m.reg.Dimensions {
		fs = append(fs, &Field{Name: d.Name, Types: d.Types, Role: "dimension"})
	}
	return fs
}

func (m *registerModel) resources(suffixes ...string) []*Field {
	var fs []*Field
	for _, r := range m.reg.Resources {
		for _, s := range suffixes {
			fs = append(fs, &Field{Name: r.Name + s, Types: r.Types, Role: "resource"})
		}
	}
	return fs
}

func (m *registerModel) periodic() []*Field {
	var fs []*Field
	for _, n := range periodFields {
		fs = append(fs, std(n, "Дата"))
	}
	return append(fs, std("Регистратор", Document+".*"), std("НомерСтроки", "Число"))
}

func param(name, kind string, fields ...string) *Param {
	return &Param{Name: name, Kind: kind, Fields: fields}
}

// virtualTables builds the virtual tables of an accounting register with correspondence.
func (m *registerModel) virtualTables() []*VirtualTable {
	axis := m.axis()
	cond := names(axis)

	balance := &VirtualTable{Name: "Остатки", Source: []string{srcBalanceMgr, srcBalanceArt, srcExtDimParam}}
	balance.Params = []*Param{param("Период", ParamPeriod), param("УсловиеСчета", ParamAccountCondition, "Счет"),
		param("Субконто", ParamExtDimensions), param("Условие", ParamCondition, cond...)}
	balance.Fields = append(append([]*Field{}, axis...),
		m.resources("Остаток", "ОстатокДт", "ОстатокКт", "РазвернутыйОстатокДт", "РазвернутыйОстатокКт")...)

	turn := &VirtualTable{Name: "Обороты", Source: []string{srcTurnovers}}
	kor := []*Field{std("КорСчет", m.chart)}
	kor = append(kor, m.numbered("КорСубконто", m.subconto)...)
	for _, d := range m.reg.Dimensions {
		if !d.Balance {
			kor = append(kor, &Field{Name: d.Name + "Кор", Types: d.Types, Role: "dimension"})
		}
	}
	turn.Params = []*Param{param("НачалоПериода", ParamPeriod), param("КонецПериода", ParamPeriod),
		param("Периодичность", ParamPeriodicity), param("УсловиеСчета", ParamAccountCondition, "Счет"),
		param("Субконто", ParamExtDimensions), param("Условие", ParamCondition, append(cond, names(kor)...)...),
		param("УсловиеКорСчета", ParamAccountCondition, "КорСчет"), param("КорСубконто", ParamExtDimensions)}
	turn.Fields = append(append(append([]*Field{}, axis...), kor...), m.periodic()...)
	turn.Fields = append(turn.Fields, m.resources("Оборот", "ОборотДт", "ОборотКт", "КорОборот", "КорОборотДт", "КорОборотКт")...)

	bt := &VirtualTable{Name: "ОстаткиИОбороты", Source: []string{srcBalTurnArt, srcTurnovers, srcExtDimParam}}
	bt.Params = []*Param{param("НачалоПериода", ParamPeriod), param("КонецПериода", ParamPeriod),
		param("Периодичность", ParamPeriodicity), param("МетодДополнения", ParamMethod),
		param("УсловиеСчета", ParamAccountCondition, "Счет"), param("Субконто", ParamExtDimensions),
		param("Условие", ParamCondition, cond...)}
	bt.Fields = append(append(append([]*Field{}, axis...), m.periodic()...), m.resources(
		"НачальныйОстаток", "НачальныйОстатокДт", "НачальныйОстатокКт", "НачальныйРазвернутыйОстатокДт", "НачальныйРазвернутыйОстатокКт",
		"Оборот", "ОборотДт", "ОборотКт",
		"КонечныйОстаток", "КонечныйОстатокДт", "КонечныйОстатокКт", "КонечныйРазвернутыйОстатокДт", "КонечныйРазвернутыйОстатокКт")...)

	// ДвиженияССубконто: the records with their subconto. Its condition also takes the side-less
	// Счет, Субконто<N>, ВидСубконто<N> and dimension names, matching either side of a record
	// (BP's chart-of-accounts manager module filters it by "Счет В (&СписокСчетов)").
	rec := &VirtualTable{Name: "ДвиженияССубконто", Source: []string{srcRecordsArt}}
	rec.Fields = m.recordFields()
	recCond := names(rec.Fields)
	recCond = append(recCond, "Счет")
	recCond = append(recCond, names(m.numbered("Субконто", m.subconto))...)
	recCond = append(recCond, names(m.numbered("ВидСубконто", m.kinds))...)
	for _, d := range m.reg.Dimensions {
		if !d.Balance {
			recCond = append(recCond, d.Name)
		}
	}
	rec.Params = []*Param{param("НачалоПериода", ParamPeriod), param("КонецПериода", ParamPeriod),
		param("Условие", ParamCondition, recCond...), param("Порядок", ParamOrder), param("Первые", ParamTop)}

	drcr := &VirtualTable{Name: "ОборотыДтКт", Source: []string{srcDrCr}}
	dc := []*Field{std("СчетДт", m.chart), std("СчетКт", m.chart)}
	dc = append(dc, m.numbered("СубконтоДт", m.subconto)...)
	dc = append(dc, m.numbered("СубконтоКт", m.subconto)...)
	for _, d := range m.reg.Dimensions {
		dc = append(dc, pair(d, "dimension", "")...)
	}
	drcrCond := names(dc)
	for _, r := range m.reg.Resources {
		dc = append(dc, pair(r, "resource", "Оборот")...)
	}
	drcr.Params = []*Param{param("НачалоПериода", ParamPeriod), param("КонецПериода", ParamPeriod),
		param("Периодичность", ParamPeriodicity), param("УсловиеСчетаДт", ParamAccountCondition, "СчетДт"),
		param("СубконтоДт", ParamExtDimensions), param("УсловиеСчетаКт", ParamAccountCondition, "СчетКт"),
		param("СубконтоКт", ParamExtDimensions), param("Условие", ParamCondition, drcrCond...)}
	drcr.Fields = append(dc, m.periodic()...)

	return []*VirtualTable{balance, turn, bt, rec, drcr}
}
