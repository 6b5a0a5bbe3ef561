package qlang

// totals reads ИТОГИ [aggregates] ПО [ОБЩИЕ] groupings.
func (p *parser) totals() (*Totals, error) {
	t := &Totals{Pos: p.next().Pos}
	if !p.isKw(KwBy) {
		for {
			it, err := p.selectItem()
			if err != nil {
				return nil, err
			}
			t.Aggregates = append(t.Aggregates, it)
			if !p.acceptPunct(",") {
				break
			}
		}
	}
	if err := p.expectBy(false); err != nil {
		return nil, err
	}
	if p.acceptKw(KwOverall) {
		t.Overall = true
		if !p.acceptPunct(",") {
			return t, nil
		}
	}
	for {
		it := &TotalsItem{Pos: p.tok().Pos}
		var err error
		if it.Expr, err = p.expr(); err != nil {
			return nil, err
		}
		switch {
		case p.acceptKw(KwOnly):
			if err := p.expectKw(KwHierarchy, "ИЕРАРХИЯ/HIERARCHY"); err != nil {
				return nil, err
			}
			it.Hierarchy = "ТОЛЬКО ИЕРАРХИЯ"
		case p.acceptKw(KwHierarchy):
			it.Hierarchy = "ИЕРАРХИЯ"
		case p.acceptKw(KwPeriods):
			if err := p.expectPunct("("); err != nil {
				return nil, err
			}
			if it.Periods, err = p.exprList(); err != nil {
				return nil, err
			}
			if err := p.expectPunct(")"); err != nil {
				return nil, err
			}
			if pa, ok := it.Periods[0].(*Path); ok && len(pa.Parts) == 1 && units[fold(pa.Parts[0])] {
				it.Periods[0] = &Literal{Pos: pa.Pos, Kind: LitUnit, Value: pa.Parts[0]}
			}
		}
		if it.Alias, err = p.alias(); err != nil {
			return nil, err
		}
		t.By = append(t.By, it)
		if !p.acceptPunct(",") {
			return t, nil
		}
	}
}
