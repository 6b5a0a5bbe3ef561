package qlang

import "fmt"

// maxDepth bounds the depth of the tree: nesting of parentheses, nested queries and prefix
// operators, and the length of a chain of binary operators (A И B И C … is that deep), so that a
// hostile text cannot exhaust the stack of the parser or of a recursive walk over the tree.
const maxDepth = 1000

// Parse reads a query text: one query, or a batch of queries separated by ";". Every error wraps
// ErrSyntax and is a *SyntaxError with the position of the offending token.
func Parse(src string) (*Batch, error) {
	toks, err := Tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, temps: map[string]*Query{}}
	return p.batch()
}

type parser struct {
	toks  []Token
	i     int
	depth int
	temps map[string]*Query // temporary tables filled by the earlier queries of the batch, by folded name
}

func (p *parser) tok() Token { return p.toks[p.i] }

// peekTok returns the token n places ahead (EOF past the end).
func (p *parser) peekTok(n int) Token {
	if p.i+n >= len(p.toks) {
		return p.toks[len(p.toks)-1]
	}
	return p.toks[p.i+n]
}

func (p *parser) next() Token {
	t := p.toks[p.i]
	if t.Kind != EOF {
		p.i++
	}
	return t
}

func (p *parser) isKw(k Keyword) bool {
	t := p.tok()
	return t.Kind == Word && t.Keyword == k
}

func (p *parser) isPunct(s string) bool {
	t := p.tok()
	return t.Kind == Punct && t.Text == s
}

func (p *parser) acceptKw(k Keyword) bool {
	if p.isKw(k) {
		p.i++
		return true
	}
	return false
}

func (p *parser) acceptPunct(s string) bool {
	if p.isPunct(s) {
		p.i++
		return true
	}
	return false
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Pos: p.tok().Pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) unexpected(want string) error {
	return p.errorf("expected %s, found %s", want, p.tok())
}

func (p *parser) expectKw(k Keyword, want string) error {
	if !p.acceptKw(k) {
		return p.unexpected(want)
	}
	return nil
}

func (p *parser) expectPunct(s string) error {
	if !p.acceptPunct(s) {
		return p.unexpected(`"` + s + `"`)
	}
	return nil
}

// expectBy accepts ПО/BY, or ON where a join condition is expected (ПО serves both in Russian).
func (p *parser) expectBy(orOn bool) error {
	if p.acceptKw(KwBy) || orOn && p.acceptKw(KwOn) {
		return nil
	}
	if orOn {
		return p.unexpected("ПО/ON")
	}
	return p.unexpected("ПО/BY")
}

// name reads one name. Any word is a name where the grammar allows nothing else (after a dot,
// КАК, ПОМЕСТИТЬ …), keywords included.
func (p *parser) name(what string) (string, error) {
	t := p.tok()
	if t.Kind != Word {
		return "", p.unexpected(what)
	}
	p.i++
	return t.Text, nil
}

// dotted reads Name{.Name}.
func (p *parser) dotted(what string) ([]string, error) {
	first, err := p.name(what)
	if err != nil {
		return nil, err
	}
	parts := []string{first}
	for p.acceptPunct(".") {
		n, err := p.name("a name after the dot")
		if err != nil {
			return nil, err
		}
		parts = append(parts, n)
	}
	return parts, nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errorf("expression nested or chained deeper than %d", maxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// leaveChain restores the depth a chain of binary operators started at.
func (p *parser) leaveChain(depth int) { p.depth = depth }

func (p *parser) batch() (*Batch, error) {
	b := &Batch{}
	for {
		for p.acceptPunct(";") {
		}
		if p.tok().Kind == EOF {
			break
		}
		q, err := p.statement()
		if err != nil {
			return nil, err
		}
		b.Queries = append(b.Queries, q)
		if p.tok().Kind != EOF && !p.isPunct(";") {
			return nil, p.unexpected(`";" or the end of the query`)
		}
	}
	if len(b.Queries) == 0 {
		return nil, p.errorf("the query text is empty")
	}
	return b, nil
}

// statement reads one query of a batch and records the temporary table it fills or destroys.
func (p *parser) statement() (*Query, error) {
	if p.isKw(KwDrop) {
		pos := p.next().Pos
		n, err := p.name("a temporary table name")
		if err != nil {
			return nil, err
		}
		delete(p.temps, fold(n))
		return &Query{Pos: pos, Drop: n}, nil
	}
	q, err := p.query()
	if err != nil {
		return nil, err
	}
	if into := q.Selects[0].Into; into != "" {
		p.temps[fold(into)] = q
	}
	return q, nil
}

// query reads SELECTs joined by ОБЪЕДИНИТЬ and the clauses that apply to the whole result.
func (p *parser) query() (*Query, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	q := &Query{Pos: p.tok().Pos}
	s, err := p.selectStmt()
	if err != nil {
		return nil, err
	}
	q.Selects = append(q.Selects, s)
	for p.acceptKw(KwUnion) {
		all := p.acceptKw(KwAll)
		s, err := p.selectStmt()
		if err != nil {
			return nil, err
		}
		q.Selects = append(q.Selects, s)
		q.UnionAll = append(q.UnionAll, all)
	}
	if p.acceptKw(KwOrder) {
		if err := p.expectBy(false); err != nil {
			return nil, err
		}
		for {
			it := &OrderItem{Pos: p.tok().Pos}
			if it.Expr, err = p.expr(); err != nil {
				return nil, err
			}
			it.Hierarchy = p.acceptKw(KwHierarchy)
			if p.acceptKw(KwDesc) {
				it.Desc = true
			} else {
				p.acceptKw(KwAsc)
			}
			q.OrderBy = append(q.OrderBy, it)
			if !p.acceptPunct(",") {
				break
			}
		}
	}
	q.AutoOrder = p.acceptKw(KwAutoorder)
	if p.isKw(KwTotals) {
		if q.Totals, err = p.totals(); err != nil {
			return nil, err
		}
	}
	if !q.AutoOrder {
		q.AutoOrder = p.acceptKw(KwAutoorder) // BP writes it after ИТОГИ too
	}
	if p.acceptKw(KwFor) {
		if err := p.expectKw(KwUpdate, "ИЗМЕНЕНИЯ/UPDATE"); err != nil {
			return nil, err
		}
		q.ForUpdate = true
		for p.tok().Kind == Word && p.tok().Keyword == KwNone {
			t, err := p.dotted("a table name")
			if err != nil {
				return nil, err
			}
			q.ForUpdateOf = append(q.ForUpdateOf, t)
			if !p.acceptPunct(",") {
				break
			}
		}
	}
	if p.acceptKw(KwIndex) {
		if err := p.expectBy(false); err != nil {
			return nil, err
		}
		if q.Index, err = p.exprList(); err != nil {
			return nil, err
		}
	}
	return q, nil
}

func (p *parser) selectStmt() (*Select, error) {
	s := &Select{Pos: p.tok().Pos}
	if err := p.expectKw(KwSelect, "ВЫБРАТЬ/SELECT"); err != nil {
		return nil, err
	}
opts:
	for {
		switch {
		case p.acceptKw(KwAllowed):
			s.Allowed = true
		case p.acceptKw(KwDistinct):
			s.Distinct = true
		case p.acceptKw(KwTop):
			if p.tok().Kind != Number {
				return nil, p.unexpected("the number of rows after ПЕРВЫЕ/TOP")
			}
			s.Top = p.next().Text
		default:
			break opts
		}
	}
	for {
		it, err := p.selectItem()
		if err != nil {
			return nil, err
		}
		s.Items = append(s.Items, it)
		if !p.acceptPunct(",") {
			break
		}
	}
	var err error
	if p.acceptKw(KwInto) {
		if s.Into, err = p.name("a temporary table name"); err != nil {
			return nil, err
		}
	}
	if p.acceptKw(KwFrom) {
		for {
			src, err := p.sourceWithJoins()
			if err != nil {
				return nil, err
			}
			s.From = append(s.From, src)
			if !p.acceptPunct(",") {
				break
			}
		}
	}
	if p.acceptKw(KwWhere) {
		if s.Where, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if p.acceptKw(KwGroup) {
		if err := p.expectBy(false); err != nil {
			return nil, err
		}
		if s.GroupBy, err = p.exprList(); err != nil {
			return nil, err
		}
	}
	if p.acceptKw(KwHaving) {
		if s.Having, err = p.expr(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (p *parser) selectItem() (*SelectItem, error) {
	it := &SelectItem{Pos: p.tok().Pos}
	if p.isPunct("*") {
		p.i++
		it.Expr = &Star{Pos: it.Pos}
		return it, nil
	}
	var err error
	if it.Expr, err = p.expr(); err != nil {
		return nil, err
	}
	it.Alias, err = p.alias()
	return it, err
}

// alias reads КАК Name, or a bare Name that is not a keyword; "" when there is none.
func (p *parser) alias() (string, error) {
	if p.acceptKw(KwAs) {
		return p.name("an alias after КАК/AS")
	}
	if t := p.tok(); t.Kind == Word && t.Keyword == KwNone {
		p.i++
		return t.Text, nil
	}
	return "", nil
}

func (p *parser) exprList() ([]Expr, error) {
	var list []Expr
	for {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		list = append(list, e)
		if !p.acceptPunct(",") {
			return list, nil
		}
	}
}
