package builtin

import "slices"

// The bound plan: tables, columns, conditions and order, dialect-neutral.
// render turns it into SQL for one dialect.

type planKind int

const (
	pAggregate planKind = iota + 1 // aggregates, maybe grouped
	pList                          // rows of the root table
	pDistinct                      // the distinct values of a column
	pLookup                        // columns of named rows
)

type exprKind int

const (
	eCol      exprKind = iota + 1 // a column
	eAgg                          // fn(column) / fn(DISTINCT column)
	eCountAll                     // COUNT(*)
	eDerived                      // a derived measure (expression aggregated, or formula)
	eGrain                        // a date column truncated to a grain
	eLabel                        // label columns joined with a space
	eSubCount                     // (SELECT COUNT(*) FROM col's table WHERE col = cols[0]): linked rows of each row
	ePercent                      // 100.0 * (rows meeting conds) / COUNT(*)
	eRefLabel                     // (SELECT label FROM col.fk.to WHERE ref = col): the name of the row a key column points at
)

// expr is one SQL expression of the plan.
type expr struct {
	kind     exprKind
	col      *column
	fn       string
	distinct bool
	d        *derived
	grain    string
	cols     []*column // eLabel
	cast     bool      // eCol: a number stored as text, compared as a number
	conds    []*cond   // ePercent: the rows counted
	// div scales the value to the unit the question says (SUM of
	// minutes / 60 for "how many hours"); 0 is none
	div float64
}

// selItem is one selected expression and its output name.
type selItem struct {
	e     expr
	alias string
}

type condKind int

const (
	cValues  condKind = iota + 1 // col = v / col IN (...) / NOT
	cRange                       // a date range on a date column
	cCmp                         // numeric comparison
	cSemi                        // col IN (SELECT ...)
	cNotNull                     // col IS NOT NULL
	cFlag                        // a yes/no column is true (false when neg)
	cColCmp                      // column op column (e2)
	cSubAgg                      // column op (SELECT fn(e2) FROM e2's table)
	cLike                        // column LIKE values[0]
	cOr                          // any of subs
	cNth                         // column = its n-th distinct value (a, from the top when op is "desc")
)

// cond is one WHERE or HAVING condition.
type cond struct {
	kind   condKind
	e      expr
	values []any // string or float64
	neg    bool
	rng    *dateRange
	op     string
	a, b   float64
	semi   *semiJoin
	e2     expr    // cColCmp, cSubAgg
	fn     string  // cSubAgg
	subs   []*cond // cOr
}

// semiJoin filters the root by rows of tables it cannot reach many-to-one:
// outer IN (SELECT sel FROM from JOIN ... WHERE ...).
type semiJoin struct {
	outer *column
	joins *joinSet
	sel   *column
	where []*cond
	// groupBy and having keep the outer rows with a number of linked rows
	groupBy []expr
	having  []*cond
}

// orderItem orders by a selected item (index into sels) or an expression.
type orderItem struct {
	sel  int // -1: use e
	e    expr
	desc bool
}

// orderExpr is what an order item orders by: its select item's
// expression, or its own.
func (p *plan) orderExpr(o orderItem) expr {
	if o.sel >= 0 && o.sel < len(p.sels) {
		return p.sels[o.sel].e
	}
	return o.e
}

// plan is a bound query.
type plan struct {
	kind        planKind
	root        *table
	joins       *joinSet
	sels        []selItem
	where       []*cond
	groupBy     []expr
	having      []*cond
	order       []orderItem
	limit       int
	offset      int  // rows skipped before limit ("the second largest")
	countGroups bool // SELECT COUNT(*) FROM (the grouped query)
	distinct    bool
}

// dropNullGroups leaves out the rows whose group is empty: "kiosks per
// town" lists the towns, and "which town has the most kiosks" is never the
// kiosks whose town is empty. A column shown beside its row's key is
// not a group of its own.
func dropNullGroups(p *plan) {
	for _, g := range p.groupBy {
		if g.kind != eCol || g.col == nil || !g.col.nullable || g.col.pk {
			continue
		}
		if slices.ContainsFunc(p.groupBy, func(k expr) bool { return k.kind == eCol && k.col != nil && k.col.pk && k.col.t == g.col.t }) {
			continue // one group per row, the column only shown beside it
		}
		if slices.ContainsFunc(p.where, func(c *cond) bool { return c.kind == cNotNull && !c.neg && c.e.kind == eCol && c.e.col == g.col }) {
			continue
		}
		p.where = append(p.where, &cond{kind: cNotNull, e: expr{kind: eCol, col: g.col}})
	}
}
