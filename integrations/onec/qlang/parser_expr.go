package qlang

// Expressions, by precedence from the loosest: ИЛИ; И; НЕ; comparisons and predicates (=, ЕСТЬ
// NULL, ССЫЛКА, В, ПОДОБНО, МЕЖДУ); + and -; * and /; a sign.

func (p *parser) expr() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	return p.or()
}

func (p *parser) or() (Expr, error) {
	x, err := p.and()
	if err != nil {
		return nil, err
	}
	defer p.leaveChain(p.depth)
	for p.isKw(KwOr) {
		if err := p.enter(); err != nil {
			return nil, err
		}
		pos := p.next().Pos
		y, err := p.and()
		if err != nil {
			return nil, err
		}
		x = &Binary{Pos: pos, Op: Or, X: x, Y: y}
	}
	return x, nil
}

func (p *parser) and() (Expr, error) {
	x, err := p.not()
	if err != nil {
		return nil, err
	}
	defer p.leaveChain(p.depth)
	for p.isKw(KwAnd) {
		if err := p.enter(); err != nil {
			return nil, err
		}
		pos := p.next().Pos
		y, err := p.not()
		if err != nil {
			return nil, err
		}
		x = &Binary{Pos: pos, Op: And, X: x, Y: y}
	}
	return x, nil
}

func (p *parser) not() (Expr, error) {
	if p.isKw(KwNot) {
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		pos := p.next().Pos
		x, err := p.not()
		if err != nil {
			return nil, err
		}
		return &Not{Pos: pos, X: x}, nil
	}
	return p.predicate()
}

var compareOps = map[string]Op{"=": Eq, "<>": Ne, "<": Lt, "<=": Le, ">": Gt, ">=": Ge}

// predicate reads an operand and, if one follows, a comparison or a predicate over it.
func (p *parser) predicate() (Expr, error) {
	x, err := p.additive()
	if err != nil {
		return nil, err
	}
	t := p.tok()
	if op, ok := compareOps[t.Text]; ok && t.Kind == Punct {
		p.i++
		y, err := p.additive()
		if err != nil {
			return nil, err
		}
		return &Compare{Pos: t.Pos, Op: op, X: x, Y: y}, nil
	}
	if p.isKw(KwIs) {
		p.i++
		not := p.acceptKw(KwNot)
		if err := p.expectKw(KwNull, "NULL"); err != nil {
			return nil, err
		}
		return &IsNull{Pos: t.Pos, X: x, Not: not}, nil
	}
	not := false
	if p.isKw(KwNot) {
		switch p.peekTok(1).Keyword {
		case KwIn, KwLike, KwBetween, KwRefs:
			p.i++
			not = true
		}
	}
	switch {
	case p.acceptKw(KwRefs):
		table, err := p.dotted("a table name after ССЫЛКА/REFS")
		if err != nil {
			return nil, err
		}
		return &Refs{Pos: t.Pos, X: x, Table: table, Not: not}, nil
	case p.acceptKw(KwIn):
		return p.in(t.Pos, x, not)
	case p.acceptKw(KwLike):
		e := &Like{Pos: t.Pos, X: x, Not: not}
		if e.Pattern, err = p.additive(); err != nil {
			return nil, err
		}
		if p.acceptKw(KwEscape) {
			if e.Escape, err = p.additive(); err != nil {
				return nil, err
			}
		}
		return e, nil
	case p.acceptKw(KwBetween):
		e := &Between{Pos: t.Pos, X: x, Not: not}
		if e.Lo, err = p.additive(); err != nil {
			return nil, err
		}
		if err := p.expectKw(KwAnd, "И/AND in МЕЖДУ/BETWEEN"); err != nil {
			return nil, err
		}
		if e.Hi, err = p.additive(); err != nil {
			return nil, err
		}
		return e, nil
	}
	return x, nil
}

func (p *parser) in(pos Pos, x Expr, not bool) (Expr, error) {
	e := &In{Pos: pos, X: x, Not: not, Hierarchy: p.acceptKw(KwHierarchy)}
	if err := p.expectPunct("("); err != nil {
		return nil, err
	}
	var err error
	if p.isKw(KwSelect) {
		if e.Subquery, err = p.query(); err != nil {
			return nil, err
		}
	} else if e.List, err = p.exprList(); err != nil {
		return nil, err
	}
	if err := p.expectPunct(")"); err != nil {
		return nil, err
	}
	return e, nil
}

func (p *parser) additive() (Expr, error) {
	x, err := p.multiplicative()
	if err != nil {
		return nil, err
	}
	defer p.leaveChain(p.depth)
	for p.isPunct("+") || p.isPunct("-") {
		if err := p.enter(); err != nil {
			return nil, err
		}
		t := p.next()
		y, err := p.multiplicative()
		if err != nil {
			return nil, err
		}
		x = &Binary{Pos: t.Pos, Op: Op(t.Text), X: x, Y: y}
	}
	return x, nil
}

func (p *parser) multiplicative() (Expr, error) {
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	defer p.leaveChain(p.depth)
	for p.isPunct("*") || p.isPunct("/") {
		if err := p.enter(); err != nil {
			return nil, err
		}
		t := p.next()
		y, err := p.unary()
		if err != nil {
			return nil, err
		}
		x = &Binary{Pos: t.Pos, Op: Op(t.Text), X: x, Y: y}
	}
	return x, nil
}

func (p *parser) unary() (Expr, error) {
	if p.isPunct("-") || p.isPunct("+") {
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		t := p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &Unary{Pos: t.Pos, Op: Op(t.Text), X: x}, nil
	}
	return p.primary()
}
