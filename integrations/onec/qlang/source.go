package qlang

// sourceWithJoins reads a FROM item and the chain of joins that follows it.
func (p *parser) sourceWithJoins() (*Source, error) {
	src, err := p.source()
	if err != nil {
		return nil, err
	}
	for {
		j := &Join{Pos: p.tok().Pos}
		switch {
		case p.acceptKw(KwLeft):
			j.Kind = LeftJoin
			p.acceptKw(KwOuter)
		case p.acceptKw(KwRight):
			j.Kind = RightJoin
			p.acceptKw(KwOuter)
		case p.acceptKw(KwFull):
			j.Kind = FullJoin
			p.acceptKw(KwOuter)
		case p.acceptKw(KwInner):
			j.Kind = InnerJoin
		case p.isKw(KwJoin):
			j.Kind = InnerJoin
		default:
			return src, nil
		}
		if err := p.expectKw(KwJoin, "СОЕДИНЕНИЕ/JOIN"); err != nil {
			return nil, err
		}
		if j.Right, err = p.source(); err != nil {
			return nil, err
		}
		if p.isKw(KwLeft) || p.isKw(KwRight) || p.isKw(KwFull) || p.isKw(KwInner) || p.isKw(KwJoin) {
			return nil, p.errorf("nested joins are not supported: give each join its ПО/ON condition")
		}
		if err := p.expectBy(true); err != nil {
			return nil, err
		}
		if j.On, err = p.expr(); err != nil {
			return nil, err
		}
		src.Joins = append(src.Joins, j)
	}
}

// source reads a table with its parameters, or a nested query, and its alias.
func (p *parser) source() (*Source, error) {
	src := &Source{Pos: p.tok().Pos}
	var err error
	if p.acceptPunct("(") {
		if !p.isKw(KwSelect) {
			return nil, p.errorf("a parenthesised source must be a nested query (ВЫБРАТЬ …)")
		}
		if src.Subquery, err = p.query(); err != nil {
			return nil, err
		}
		if err := p.expectPunct(")"); err != nil {
			return nil, err
		}
	} else {
		if src.Table, err = p.dotted("a table name"); err != nil {
			return nil, err
		}
		if p.isPunct("(") {
			if src.Params, err = p.tableParams(); err != nil {
				return nil, err
			}
			src.HasParams = true
		}
		if len(src.Table) == 1 {
			src.Temp = p.temps[fold(src.Table[0])]
		}
	}
	if src.Alias, err = p.alias(); err != nil {
		return nil, err
	}
	if src.Alias == "" && src.Table != nil {
		src.Alias = src.Table[len(src.Table)-1]
	}
	return src, nil
}

// tableParams reads a virtual table's positional parameters, "(" included. An empty position is
// a nil entry; "()" has none.
func (p *parser) tableParams() ([]Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	p.next() // "("
	params := []Expr{}
	if p.acceptPunct(")") {
		return params, nil
	}
	for {
		var e Expr
		if !p.isPunct(",") && !p.isPunct(")") {
			var err error
			if e, err = p.expr(); err != nil {
				return nil, err
			}
		}
		params = append(params, e)
		if p.acceptPunct(")") {
			return params, nil
		}
		if err := p.expectPunct(","); err != nil {
			return nil, err
		}
	}
}
