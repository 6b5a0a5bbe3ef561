package qlang

// primary reads an operand: a literal, a parameter, a field path, a function, ВЫБОР, ЗНАЧЕНИЕ,
// ТИП, ВЫРАЗИТЬ, or an expression or nested query in parentheses.
func (p *parser) primary() (Expr, error) {
	t := p.tok()
	switch t.Kind {
	case Number:
		p.i++
		return &Literal{Pos: t.Pos, Kind: LitNumber, Value: t.Text}, nil
	case String:
		p.i++
		return &Literal{Pos: t.Pos, Kind: LitString, Value: t.Text}, nil
	case Param:
		p.i++
		return &ParamRef{Pos: t.Pos, Name: t.Text}, nil
	case Punct:
		if t.Text == "(" {
			return p.parenthesised()
		}
		return nil, p.unexpected("an expression")
	case Word:
		return p.word()
	}
	return nil, p.unexpected("an expression")
}

func (p *parser) parenthesised() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	pos := p.next().Pos
	if p.isKw(KwSelect) {
		q, err := p.query()
		if err != nil {
			return nil, err
		}
		if err := p.expectPunct(")"); err != nil {
			return nil, err
		}
		return &SubqueryExpr{Pos: pos, Query: q}, nil
	}
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.acceptPunct(",") {
		t := &Tuple{Pos: pos, Items: []Expr{x}}
		rest, err := p.exprList()
		if err != nil {
			return nil, err
		}
		t.Items = append(t.Items, rest...)
		if err := p.expectPunct(")"); err != nil {
			return nil, err
		}
		if !p.isKw(KwIn) && !(p.isKw(KwNot) && p.peekTok(1).Keyword == KwIn) {
			return nil, p.errorf("a row value (a, b) must be followed by В/IN")
		}
		return t, nil
	}
	if err := p.expectPunct(")"); err != nil {
		return nil, err
	}
	return x, nil
}

// softKeywords are reserved words that are also names where an operand is expected: Ссылка,
// Значение and Тип are common field names, and the others are keywords only inside clauses an
// operand never starts (Изменения is a usual alias in BP).
var softKeywords = map[Keyword]bool{
	KwRefs: true, KwValue: true, KwType: true, KwUpdate: true, KwOverall: true, KwOnly: true, KwPeriods: true,
	KwHierarchy: true, KwAutoorder: true, KwEscape: true, KwIndex: true, KwDrop: true, KwOuter: true, KwTotals: true,
	KwEnd: true,
}

var wordLiterals = map[Keyword]LiteralKind{
	KwNull: LitNull, KwUndefined: LitUndefined, KwTrue: LitTrue, KwFalse: LitFalse,
}

func (p *parser) word() (Expr, error) {
	t := p.tok()
	callLike := p.peekTok(1).Kind == Punct && p.peekTok(1).Text == "("
	if k, ok := wordLiterals[t.Keyword]; ok {
		p.i++
		return &Literal{Pos: t.Pos, Kind: k, Value: t.Text}, nil
	}
	switch {
	case t.Keyword == KwCase:
		return p.caseExpr()
	case t.Keyword == KwValue && callLike:
		name, err := p.nameInParens()
		return &Value{Pos: t.Pos, Name: name}, err
	case t.Keyword == KwType && callLike:
		name, err := p.nameInParens()
		return &TypeOf{Pos: t.Pos, Name: name}, err
	case t.Keyword == KwCast && callLike:
		return p.cast()
	case t.Keyword == KwNone && callLike:
		return p.call()
	case t.Keyword == KwNone, softKeywords[t.Keyword]:
		return p.path()
	}
	return nil, p.unexpected("an expression")
}

// path reads a field path, Alias.* in a select list, or a tabular section's nested table
// Alias.Section.(…).
func (p *parser) path() (Expr, error) {
	pos := p.tok().Pos
	parts := []string{p.next().Text}
	for p.acceptPunct(".") {
		if p.isPunct("*") {
			p.i++
			return &Star{Pos: pos, Qualifier: parts}, nil
		}
		if p.isPunct("(") {
			return p.tabularSelect(&Path{Pos: pos, Parts: parts})
		}
		n, err := p.name("a field name after the dot")
		if err != nil {
			return nil, err
		}
		parts = append(parts, n)
	}
	return &Path{Pos: pos, Parts: parts}, nil
}

func (p *parser) tabularSelect(path *Path) (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	p.next() // "("
	t := &TabularSelect{Pos: path.Pos, Path: path}
	for {
		it, err := p.selectItem()
		if err != nil {
			return nil, err
		}
		t.Items = append(t.Items, it)
		if !p.acceptPunct(",") {
			break
		}
	}
	return t, p.expectPunct(")")
}

// nameInParens reads "(" Name{.Name} ")" after ЗНАЧЕНИЕ or ТИП.
func (p *parser) nameInParens() ([]string, error) {
	p.i += 2 // the keyword and "("
	name, err := p.dotted("a metadata name")
	if err != nil {
		return nil, err
	}
	return name, p.expectPunct(")")
}

func (p *parser) caseExpr() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	c := &Case{Pos: p.next().Pos}
	var err error
	if p.isKw(KwElse) || p.isKw(KwEnd) {
		return nil, p.unexpected("КОГДА/WHEN")
	}
	if !p.isKw(KwWhen) {
		if c.Operand, err = p.expr(); err != nil {
			return nil, err
		}
	}
	for p.acceptKw(KwWhen) {
		w := &When{}
		if w.Cond, err = p.expr(); err != nil {
			return nil, err
		}
		if err := p.expectKw(KwThen, "ТОГДА/THEN"); err != nil {
			return nil, err
		}
		if w.Result, err = p.expr(); err != nil {
			return nil, err
		}
		c.Whens = append(c.Whens, w)
	}
	if len(c.Whens) == 0 {
		return nil, p.unexpected("КОГДА/WHEN")
	}
	if p.acceptKw(KwElse) {
		if c.Else, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if err := p.expectKw(KwEnd, "КОНЕЦ/END"); err != nil {
		return nil, err
	}
	return c, nil
}

func (p *parser) cast() (Expr, error) {
	pos := p.tok().Pos
	p.i += 2 // ВЫРАЗИТЬ and "("
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.expectKw(KwAs, "КАК/AS in ВЫРАЗИТЬ/CAST"); err != nil {
		return nil, err
	}
	c := &Cast{Pos: pos, X: x}
	if c.Type.Name, err = p.dotted("a type name"); err != nil {
		return nil, err
	}
	if p.acceptPunct("(") {
		for {
			if p.tok().Kind != Number {
				return nil, p.unexpected("a number in the type's qualifiers")
			}
			c.Type.Args = append(c.Type.Args, p.next().Text)
			if !p.acceptPunct(",") {
				break
			}
		}
		if err := p.expectPunct(")"); err != nil {
			return nil, err
		}
	}
	if err := p.expectPunct(")"); err != nil {
		return nil, err
	}
	for p.acceptPunct(".") {
		n, err := p.name("a field name after the dot")
		if err != nil {
			return nil, err
		}
		c.Fields = append(c.Fields, n)
	}
	return c, nil
}

func (p *parser) call() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.next()
	p.i++ // "("
	c := &Call{Pos: t.Pos, Name: t.Text}
	switch {
	case p.acceptPunct(")"):
		return c, nil
	case p.isPunct("*"):
		p.i++
		c.Star = true
		return c, p.expectPunct(")")
	}
	c.Distinct = p.acceptKw(KwDistinct)
	var err error
	if c.Args, err = p.exprList(); err != nil {
		return nil, err
	}
	markUnits(c)
	return c, p.expectPunct(")")
}

// unitArg is the argument position that takes a date part, by the folded function name.
var unitArg = map[string]int{
	"ДОБАВИТЬКДАТЕ": 1, "DATEADD": 1,
	"РАЗНОСТЬДАТ": 2, "DATEDIFF": 2,
	"НАЧАЛОПЕРИОДА": 1, "BEGINOFPERIOD": 1,
	"КОНЕЦПЕРИОДА": 1, "ENDOFPERIOD": 1,
}

var units = map[string]bool{
	"СЕКУНДА": true, "МИНУТА": true, "ЧАС": true, "ДЕНЬ": true, "НЕДЕЛЯ": true, "МЕСЯЦ": true,
	"КВАРТАЛ": true, "ГОД": true, "ДЕКАДА": true, "ПОЛУГОДИЕ": true,
	"SECOND": true, "MINUTE": true, "HOUR": true, "DAY": true, "WEEK": true, "MONTH": true,
	"QUARTER": true, "YEAR": true, "TENDAYS": true, "HALFYEAR": true,
}

// markUnits turns the date-part argument of a date function (СЕКУНДА in ДОБАВИТЬКДАТЕ(&Д,
// СЕКУНДА, -1)) into a LitUnit, so that it is not mistaken for a field.
func markUnits(c *Call) {
	i, ok := unitArg[fold(c.Name)]
	if !ok || i >= len(c.Args) {
		return
	}
	if pa, ok := c.Args[i].(*Path); ok && len(pa.Parts) == 1 && units[fold(pa.Parts[0])] {
		c.Args[i] = &Literal{Pos: pa.Pos, Kind: LitUnit, Value: pa.Parts[0]}
	}
}
