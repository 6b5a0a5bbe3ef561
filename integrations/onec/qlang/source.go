package qlang

// sourceWithJoins reads a FROM item and the chain of joins that follows it.
func (p *parser) sourceWithJoins() (*Source, error) {
	src, err := p.source()
	if err != nil {
		return nil, err
	}
	return src, p.joins(src)
}

func (p *parser) isJoinStart() bool {
	return p.isKw(KwLeft) || p.isKw(KwRight) || p.isKw(KwFull) || p.isKw(KwInner) || p.isKw(KwJoin)
}

// joins reads the joins after src. A join whose right side is followed by another join instead
// of ПО nests: the inner joins attach to the right side and the outer ПО comes after them.
func (p *parser) joins(src *Source) error {
	if err := p.enter(); err != nil {
		return err
	}
	defer p.leave()
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
			return nil
		}
		if err := p.expectKw(KwJoin, "СОЕДИНЕНИЕ/JOIN"); err != nil {
			return err
		}
		var err error
		if j.Right, err = p.source(); err != nil {
			return err
		}
		if p.isJoinStart() {
			if err := p.joins(j.Right); err != nil {
				return err
			}
		}
		if err := p.expectBy(true); err != nil {
			return err
		}
		if j.On, err = p.expr(); err != nil {
			return err
		}
		src.Joins = append(src.Joins, j)
	}
}

// source reads a table with its parameters, or a nested query, and its alias.
func (p *parser) source() (*Source, error) {
	src := &Source{Pos: p.tok().Pos}
	var err error
	switch {
	case p.isPunct("(") && p.peekTok(1).Keyword != KwSelect:
		return p.joinGroup()
	case p.acceptPunct("("):
		if src.Subquery, err = p.query(); err != nil {
			return nil, err
		}
		if err := p.expectPunct(")"); err != nil {
			return nil, err
		}
	case p.tok().Kind == Param:
		src.Param = p.next().Text
	default:
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

// joinGroup reads a parenthesised source with its joins, (A СОЕДИНЕНИЕ B ПО …), as its first
// source carrying the joins.
func (p *parser) joinGroup() (*Source, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	p.next() // "("
	src, err := p.sourceWithJoins()
	if err != nil {
		return nil, err
	}
	return src, p.expectPunct(")")
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
