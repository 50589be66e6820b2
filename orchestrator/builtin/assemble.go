package builtin

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"talk2tables/catalog"
)

// bindReroot: counting rows of a table grouped or filtered by tables it
// cannot reach many-to-one ("how many customers bought abracadabra",
// "number of orders by product") reads a table that reaches them all and
// counts distinct keys, so no row is counted twice.
func (b *binder) bindReroot() error {
	if b.frame != pAggregate {
		return nil
	}
	for _, bm := range b.measures {
		if bm.countT == nil && bm.distinct == nil {
			return nil // sums and averages read their own table: see assemble
		}
	}
	var need []*table
	for _, t := range b.neededByGroupsAndFilters() {
		if _, ok := b.m.reach(b.root, t); !ok {
			need = appendUnique(need, t)
		}
	}
	if len(need) == 0 {
		return nil
	}
	all := append([]*table{b.root}, b.neededByGroupsAndFilters()...)
	r := b.m.bridge(all)
	if r == nil {
		if len(need) == 1 {
			if d := b.twoLinks(b.root, need[0]); d != nil {
				return d
			}
		}
		return decline("%s is not linked to %s through the data's keys", b.root.name, tableNames(need))
	}
	for _, bm := range b.measures {
		if bm.countT != nil && bm.countT.key == nil {
			return decline("%s has no key to count its rows once each", bm.countT.name)
		}
	}
	b.counted, b.root = b.root, r
	return nil
}

func (b *binder) neededByGroupsAndFilters() []*table {
	var ts []*table
	for _, g := range b.groups {
		switch {
		case g.ent != nil:
			ts = appendUnique(ts, g.ent)
		case g.col != nil:
			ts = appendUnique(ts, g.col.t)
		}
	}
	for _, f := range b.filters {
		ts = appendUnique(ts, f.t)
	}
	if b.timeCol != nil {
		ts = appendUnique(ts, b.timeCol.t)
	}
	return ts
}

// assemble builds the plan from the bound parts.
func (b *binder) assemble() (*plan, error) {
	p := &plan{kind: b.frame, root: b.root, joins: newJoinSet(b.root), limit: b.limit}
	if b.frame == pLookup {
		return b.assembleLookup(p)
	}
	if err := b.assembleWhere(p); err != nil {
		return nil, err
	}
	switch b.frame {
	case pAggregate:
		if err := b.assembleAggregate(p); err != nil {
			return nil, err
		}
	case pList:
		cols := b.listCols
		if len(cols) == 0 {
			cols = b.root.cols
		}
		for _, c := range cols {
			p.sels = append(p.sels, selItem{e: expr{kind: eCol, col: c}, alias: c.name})
		}
		if l, ok := labelExpr(b.root); ok && l.kind == eLabel {
			p.sels = append(p.sels, selItem{e: l, alias: uniqueAlias(p.sels, exprAlias(l))})
		}
		if n, ok := nameExpr(b.root); ok && n.kind == eLabel {
			p.sels = append(p.sels, selItem{e: n, alias: uniqueAlias(p.sels, exprAlias(n))})
		}
		p.order = b.order
		if b.orderNotNull != nil {
			p.where = append(p.where, &cond{kind: cNotNull, e: expr{kind: eCol, col: b.orderNotNull}})
		}
	case pDistinct:
		c := b.listCols[0]
		if !p.joins.need(b.m, c.t) {
			return nil, decline("cannot reach %s", c.t.name)
		}
		p.distinct = true
		p.sels = []selItem{{e: expr{kind: eCol, col: c}, alias: c.name}}
		p.order = []orderItem{{sel: 0}}
	}
	if err := b.applyDefaults(p); err != nil {
		return nil, err
	}
	return p, nil
}

func (b *binder) assembleLookup(p *plan) (*plan, error) {
	f := b.lookup
	p.root, p.joins = f.t, newJoinSet(f.t)
	if l, ok := labelExpr(f.t); ok && len(f.ents) > 1 {
		p.sels = append(p.sels, selItem{e: l, alias: exprAlias(l)})
	}
	for _, c := range b.listCols {
		p.sels = append(p.sels, selItem{e: expr{kind: eCol, col: c}, alias: c.name})
	}
	p.where = append(p.where, b.filterCond(f, f.col))
	return p, nil
}

// assembleWhere adds joins and WHERE conditions: filters, row-level
// comparisons, the date range; filters on tables the root cannot reach
// many-to-one become semi-joins.
func (b *binder) assembleWhere(p *plan) error {
	var semiConds = map[*table][]*cond{}
	var semiOrder []*table
	for _, f := range b.filters {
		col := f.col
		if f.t != b.root && len(f.ents) > 0 {
			if e := directEdge(b.root, f.t, f.col); e != nil {
				col = e.col // filter on the root's foreign key: no join needed
			}
		}
		c := b.filterCond(f, col)
		if col.t == b.root || p.joins.need(b.m, col.t) {
			p.where = append(p.where, c)
			continue
		}
		if b.frame == pAggregate && len(b.groups) > 0 && !b.filterGroupsOK() {
			return decline("%s cannot be filtered by %s here", b.root.name, f.t.name)
		}
		if semiConds[f.t] == nil {
			semiOrder = append(semiOrder, f.t)
		}
		semiConds[f.t] = append(semiConds[f.t], c)
	}
	for _, c := range b.cmps {
		if c.col == nil {
			continue
		}
		if !p.joins.need(b.m, c.col.t) {
			return decline("%s is not linked to %s", b.root.name, c.col.t.name)
		}
		e := expr{kind: eCol, col: c.col}
		switch {
		case c.col.numeric:
		case c.col.textNumber():
			e.cast = true // a number stored as text: compared as a number
		default:
			return decline("%s is not a number column", c.col.ref())
		}
		p.where = append(p.where, &cond{kind: cCmp, e: e, op: c.req.sp.op, a: c.req.sp.a, b: c.req.sp.b})
	}
	if b.frame == pList && b.q.rng != nil && b.timeCol != nil && b.timeCol.t != b.root && semiConds[b.timeCol.t] == nil {
		if _, ok := b.m.reach(b.root, b.timeCol.t); !ok {
			semiOrder = append(semiOrder, b.timeCol.t)
			semiConds[b.timeCol.t] = []*cond{}
		}
	}
	timeInSemi := b.frame == pList && len(semiOrder) > 0 && b.q.dateCol == nil && b.q.rng != nil
	if b.q.rng != nil && !timeInSemi {
		if b.timeCol == nil {
			return decline("I don't know which date the time range applies to")
		}
		if !p.joins.need(b.m, b.timeCol.t) {
			return decline("the date %s is not linked to %s", b.timeCol.ref(), b.root.name)
		}
		p.where = append(p.where, &cond{kind: cRange, e: expr{kind: eCol, col: b.timeCol}, rng: b.q.rng})
	}
	semiOrder, err := b.mergeBridgeConds(semiOrder, semiConds)
	if err != nil {
		return err
	}
	for i, t := range semiOrder {
		var rng *dateRange
		if timeInSemi && i == 0 {
			rng = b.q.rng
		}
		c, err := b.semiJoin(t, semiConds[t], rng)
		if err != nil {
			return err
		}
		p.where = append(p.where, c)
	}
	return nil
}

func (b *binder) filterGroupsOK() bool { return true }

// directEdge is the root's foreign key straight to t's key column.
func directEdge(root, t *table, key *column) *edge {
	var found *edge
	for _, e := range root.out {
		if e.to == t && e.ref == key {
			if found != nil {
				return nil
			}
			found = e
		}
	}
	return found
}

func (b *binder) filterCond(f *boundFilter, col *column) *cond {
	if f.flag {
		return &cond{kind: cFlag, e: expr{kind: eCol, col: col}, neg: f.neg}
	}
	if f.has {
		return &cond{kind: cNotNull, e: expr{kind: eCol, col: col}, neg: f.neg}
	}
	c := &cond{kind: cValues, e: expr{kind: eCol, col: col}, neg: f.neg}
	for _, e := range f.ents {
		c.values = append(c.values, e.keyValues()...)
	}
	for _, v := range f.values {
		c.values = append(c.values, v)
	}
	return c
}

// mergeBridgeConds moves the conditions on a table that is itself the
// bridge from the root to another filtered table into that table's
// semi-join: "riggers who cleared an advanced drill" is one sign-up
// both cleared and of an advanced drill, not a pass somewhere and an
// advanced drill somewhere else. Negated conditions stay apart.
func (b *binder) mergeBridgeConds(order []*table, conds map[*table][]*cond) ([]*table, error) {
	negated := func(cs []*cond) bool { return slices.ContainsFunc(cs, func(c *cond) bool { return c.neg }) }
	var out []*table
	for _, a := range order {
		merged := false
		for _, t := range order {
			if t == a || len(conds[a]) == 0 || b.m.bridge([]*table{b.root, t}) != a {
				continue
			}
			if negated(conds[a]) != negated(conds[t]) {
				// "never visited an open kiosk": no visit to an open
				// kiosk, or no visit at all and some open kiosk?
				return nil, decline("a \"not\" on %s and a condition on %s reached through it: which one the \"not\" covers is not clear", a.name, t.name).
					withHint("ask for the rows that have, then those that have not")
			}
			if negated(conds[a]) {
				continue
			}
			conds[t] = append(conds[t], conds[a]...)
			merged = true
			break
		}
		if !merged {
			out = append(out, a)
		}
	}
	return out, nil
}

// semiJoin keeps the root rows linked to rows of t matching conds:
// root.key IN (SELECT x.fk FROM bridge ... WHERE conds).
func (b *binder) semiJoin(t *table, conds []*cond, rng *dateRange) (*cond, error) {
	r := b.m.bridge([]*table{b.root, t})
	if r == nil {
		return nil, decline("%s is not linked to %s through the data's keys", b.root.name, t.name)
	}
	ps, _ := b.m.paths(r)
	toRoot := ps[b.root]
	if len(toRoot) == 0 {
		return nil, decline("%s is not linked to %s through the data's keys", b.root.name, t.name)
	}
	last := toRoot[len(toRoot)-1]
	js := newJoinSet(r)
	for _, e := range toRoot[:len(toRoot)-1] {
		js.need(b.m, e.to)
	}
	if !js.need(b.m, t) {
		return nil, decline("%s is not linked to %s through the data's keys", b.root.name, t.name)
	}
	sj := &semiJoin{outer: last.ref, joins: js, sel: last.col, where: conds}
	neg := false
	for _, c := range conds {
		if c.neg {
			neg = true
		}
	}
	if neg {
		if len(conds) > 1 {
			return nil, decline("I can't combine exclusions on %s", t.name)
		}
		conds[0].neg = false
		sj.where = append(sj.where, &cond{kind: cNotNull, e: expr{kind: eCol, col: last.col}})
	}
	if rng != nil {
		var date *column
		if r.date != nil {
			date = r.date
		} else {
			sub := &binder{m: b.m, root: r}
			d, err := sub.nearestDate()
			if err != nil {
				return nil, err
			}
			date = d
		}
		if !js.need(b.m, date.t) {
			return nil, decline("the date %s is not linked to %s", date.ref(), r.name)
		}
		sj.where = append(sj.where, &cond{kind: cRange, e: expr{kind: eCol, col: date}, rng: rng})
		b.timeCol = date
		b.resolve(b.q.timeSpan.text, "column", date.ref())
	}
	return &cond{kind: cSemi, semi: sj, neg: neg}, nil
}

// assembleAggregate selects the groups and measures, groups, orders.
func (b *binder) assembleAggregate(p *plan) error {
	for _, g := range b.groups {
		var t *table
		switch {
		case g.ent != nil:
			t = g.ent
		case g.col != nil:
			t = g.col.t
		}
		if t != nil && !p.joins.need(b.m, t) {
			if d := b.twoLinks(p.joins.root, t); d != nil {
				return d.withHint("ask for %s on its own", t.phrase())
			}
			return decline("%s can't be broken down by %s without counting rows twice", b.root.name, t.name).
				withHint("ask for %s on its own", t.phrase())
		}
		for _, e := range groupExprs(g) {
			a := exprAlias(e)
			if e.kind == eCol && clashes(p.sels, a) {
				a = alias(e.col.t.singular() + " " + e.col.name)
			}
			p.sels = append(p.sels, selItem{e: e, alias: uniqueAlias(p.sels, a)})
			p.groupBy = append(p.groupBy, groupByExprs(e)...)
		}
	}
	if len(b.measures) == 0 {
		return decline("I found nothing to compute")
	}
	first := len(p.sels)
	rankSel := -1
	for i, bm := range b.measures {
		e, err := b.measureExpr(p, bm)
		if err != nil {
			return err
		}
		p.sels = append(p.sels, selItem{e: e, alias: uniqueAlias(p.sels, bm.alias)})
		if bm == b.rankBy {
			rankSel = first + i
		}
	}
	for _, c := range b.cmps {
		if c.measure == nil {
			continue
		}
		e, _ := b.measureExpr(p, c.measure)
		p.having = append(p.having, &cond{kind: cCmp, e: e, op: c.req.sp.op, a: c.req.sp.a, b: c.req.sp.b})
	}
	p.countGroups = b.countGroups
	switch {
	case rankSel >= 0:
		if e := p.sels[rankSel].e; e.kind != eCountAll && !(e.kind == eAgg && e.fn == "COUNT") {
			// a group whose figure is unknown is not ranked
			p.having = append(p.having, &cond{kind: cNotNull, e: e})
		}
		p.order = append(p.order, orderItem{sel: rankSel, desc: b.order[0].desc})
		for i := 0; i < first; i++ {
			p.order = append(p.order, orderItem{sel: i})
		}
	case hasGrain(b.groups):
		for i := 0; i < first; i++ {
			if p.sels[i].e.kind == eGrain {
				p.order = append(p.order, orderItem{sel: i})
			}
		}
	case first > 0:
		p.order = append(p.order, orderItem{sel: first, desc: true})
		for i := 0; i < first; i++ {
			p.order = append(p.order, orderItem{sel: i})
		}
	}
	return nil
}

func hasGrain(gs []*boundGroup) bool {
	for _, g := range gs {
		if g.grain != "" {
			return true
		}
	}
	return false
}

// groupExprs: a grain, a column, or an entity's key and label (a
// multi-column label as one column, contracts §5).
func groupExprs(g *boundGroup) []expr {
	switch {
	case g.grain != "":
		return []expr{{kind: eGrain, col: g.col, grain: g.grain}}
	case g.col != nil:
		return []expr{{kind: eCol, col: g.col}}
	}
	var out []expr
	if g.ent.key != nil {
		out = append(out, expr{kind: eCol, col: g.ent.key})
	}
	if c := codeReferenced(g.ent); c != nil && !slices.Contains(g.ent.label, c) {
		out = append(out, expr{kind: eCol, col: c}) // as the clause reader shows it
	}
	if l, ok := labelExpr(g.ent); ok {
		out = append(out, l)
	}
	if n, ok := nameExpr(g.ent); ok {
		out = append(out, n)
	}
	if g.ent.alsoNamed != nil {
		out = append(out, expr{kind: eCol, col: g.ent.alsoNamed})
	}
	if d := unnamedDate(g.ent); len(out) == 1 && d != nil {
		out = append(out, expr{kind: eCol, col: d}) // as the clause reader shows it
	}
	if d := codeDescription(g.ent); len(out) == 1 && d != nil {
		// a codes table: its code and what the code stands for (as the
		// clause reader shows it)
		out = append(out, expr{kind: eCol, col: d})
	}
	if code, d := codeMeaning(g.ent); d != nil {
		// as the clause reader shows it
		if !slices.ContainsFunc(out, func(e expr) bool { return e.kind == eCol && e.col == code }) {
			out = append(out, expr{kind: eCol, col: code})
		}
		out = append(out, expr{kind: eCol, col: d})
	}
	if (len(out) == 1 || g.ent.namesRepeat) && g.ent.key != nil && !g.ent.view {
		// no name, code or date to know its rows by, or a name two rows
		// share: its own columns, as the clause reader shows it
		for _, c := range ownColumns(g.ent) {
			if !slices.ContainsFunc(out, func(e expr) bool {
				return e.kind == eCol && e.col == c || e.kind == eLabel && slices.Contains(e.cols, c)
			}) {
				out = append(out, expr{kind: eCol, col: c})
			}
		}
	}
	return out
}

// nameExpr is the name the identifiers suggest when the catalog labels
// rows with another column.
func nameExpr(t *table) (expr, bool) {
	switch {
	case len(t.nameCols) == 1:
		return expr{kind: eCol, col: t.nameCols[0]}, true
	case len(t.nameCols) > 1:
		return expr{kind: eLabel, cols: t.nameCols}, true
	}
	return expr{}, false
}

// labelExpr is how a row of t is named: its label column, or its label
// columns joined with a space.
func labelExpr(t *table) (expr, bool) {
	switch {
	case len(t.label) == 1 && t.label[0] != t.key:
		return expr{kind: eCol, col: t.label[0]}, true
	case len(t.label) > 1:
		return expr{kind: eLabel, cols: t.label}, true
	}
	return expr{}, false
}

// groupByExprs: what GROUP BY lists for a select item (the columns of a
// joined label, so every dialect accepts the query).
func groupByExprs(e expr) []expr {
	if e.kind != eLabel {
		return []expr{e}
	}
	var out []expr
	for _, c := range e.cols {
		out = append(out, expr{kind: eCol, col: c})
	}
	return out
}

func exprAlias(e expr) string {
	switch e.kind {
	case eGrain:
		return e.grain
	case eLabel:
		return alias(e.cols[0].t.singular() + " name")
	}
	return e.col.name
}

func clashes(sels []selItem, a string) bool {
	for _, s := range sels {
		if strings.EqualFold(s.alias, a) {
			return true
		}
	}
	return false
}

func uniqueAlias(sels []selItem, a string) string {
	out := a
	for n := 2; ; n++ {
		clash := false
		for _, s := range sels {
			if strings.EqualFold(s.alias, out) {
				clash = true
			}
		}
		if !clash {
			return out
		}
		out = fmt.Sprintf("%s_%d", a, n)
	}
}

// measureExpr is the SQL expression of a bound measure; counting rows of
// a table other than the root counts its distinct keys.
func (b *binder) measureExpr(p *plan, bm *boundMeasure) (expr, error) {
	switch {
	case bm.countT != nil && bm.countT == b.root && b.counted == nil:
		return expr{kind: eCountAll}, nil
	case bm.countT != nil:
		if bm.countT.key == nil {
			return expr{}, decline("%s has no key to count its rows once each", bm.countT.name)
		}
		if !p.joins.need(b.m, bm.countT) {
			return expr{}, decline("%s is not linked to %s", b.root.name, bm.countT.name)
		}
		return expr{kind: eAgg, fn: "COUNT", distinct: true, col: bm.countT.key}, nil
	case bm.distinct != nil:
		if !p.joins.need(b.m, bm.distinct.t) {
			return expr{}, decline("%s is not linked to %s", b.root.name, bm.distinct.t.name)
		}
		return expr{kind: eAgg, fn: "COUNT", distinct: true, col: bm.distinct}, nil
	case bm.d != nil:
		return expr{kind: eDerived, d: bm.d, fn: bm.fn}, nil
	}
	return expr{kind: eAgg, fn: bm.fn, col: bm.col}, nil
}

// applyDefaults adds the catalog's default filters when rows are counted
// or aggregated (docs/contracts.md §5): the filter of the root table, and of
// every table the root reaches through many-to-one foreign keys, joined when
// the query does not join it already — the lines of a cancelled order are
// not sold either, so "total revenue" and "revenue by customer segment"
// count the same rows. A filter is left out when the question filters that
// column itself. It also notes status columns left unfiltered.
func (b *binder) applyDefaults(p *plan) error {
	if b.frame != pAggregate {
		return nil
	}
	for _, t := range b.defaultFiltered(p.root) {
		f := t.defFilter
		if !p.joins.need(b.m, t) {
			return decline("%s can't be joined to %s to leave out what its default filter excludes (%s)",
				t.name, p.root.name, f.col.ref())
		}
		c := &cond{kind: cValues, e: expr{kind: eCol, col: f.col}}
		vals := f.include
		if len(f.exclude) > 0 {
			c.neg, vals = true, f.exclude
		}
		for _, v := range vals {
			c.values = append(c.values, v)
		}
		p.where = append(p.where, c)
		word := "only"
		if c.neg {
			word = "excluding"
		}
		note := fmt.Sprintf("%s %s %s %s (catalog default)", word, strings.Join(vals, ", "), t.phrase(), catalog.IdentifierPhrase(f.col.name))
		if f.why != "" {
			note += ": " + f.why
		}
		b.assume = append(b.assume, note)
	}
	noted := map[*table]bool{}
	status := append([]*table{p.root}, joinedTables(p.joins)...)
	for _, e := range p.root.out {
		status = append(status, e.to)
	}
	for _, t := range status {
		if t.defFilter != nil || noted[t] {
			continue
		}
		noted[t] = true
		for _, c := range statusColumns(t) {
			if !b.filtered(c) {
				b.assume = append(b.assume, fmt.Sprintf("all %s values counted (%s): %s", catalog.IdentifierPhrase(c.name), c.ref(), strings.Join(c.values, ", ")))
			}
		}
	}
	return nil
}

// defaultFiltered lists the tables whose default filter applies to a query
// reading root's rows: root and every table reachable from it many-to-one
// (through two different paths too, which applyDefaults then declines),
// nearest first, except those whose filter column the question filters.
func (b *binder) defaultFiltered(root *table) []*table {
	var out []*table
	if root.defFilter != nil && !b.filtered(root.defFilter.col) {
		out = append(out, root)
	}
	ps, _ := b.m.paths(root)
	var far []*table
	for t := range ps {
		if t != root && t.defFilter != nil && !b.filtered(t.defFilter.col) {
			far = append(far, t)
		}
	}
	sort.Slice(far, func(i, j int) bool {
		if li, lj := len(ps[far[i]]), len(ps[far[j]]); li != lj {
			return li < lj
		}
		return far[i].name < far[j].name
	})
	return append(out, far...)
}

func joinedTables(j *joinSet) []*table {
	var out []*table
	for _, e := range j.edges {
		out = append(out, e.to)
	}
	return out
}

// filtered: the question filters this column.
func (b *binder) filtered(c *column) bool {
	for _, f := range b.filters {
		if f.col == c {
			return true
		}
	}
	return false
}

// twoLinks is the decline for a question whose rows of from reach t in more
// than one way (a → b → t and a → c → t), or nil when one way or none
// leads there.
func (b *binder) twoLinks(from, t *table) *declineError {
	if _, amb := b.m.paths(from); !amb[t] {
		return nil
	}
	return decline("%s is linked to %s in more than one way (through different tables), and I don't know which link you mean", b.root.name, t.name)
}
