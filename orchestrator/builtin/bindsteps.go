package builtin

import (
	"fmt"
	"slices"
	"strings"

	"talk2tables/catalog"
)

// bindComparisonMeasures turns comparisons of aggregates into HAVING
// conditions on the subject's groups: "customers with more than 5 orders",
// "customers who spent over 1000", "regions with revenue over 1M".
func (b *binder) bindComparisonMeasures() error {
	for _, c := range b.q.cmps {
		var bm *boundMeasure
		var err error
		switch {
		case c.count:
			bm, err = b.bindMeasure(&measureReq{count: c.target, fn: "COUNT"})
		case c.hint != kwNone:
			bm, err = b.defaultMeasure(c.hint, b.subjectTables(), "")
		case c.target != nil && measureLike(c.target) && (b.subject == nil || !spanHasColumnOf(c.target, b.subject, false)):
			bm, err = b.matchMeasure(c.target)
		default:
			continue // a row-level comparison: bindComparisons
		}
		if err != nil {
			return err
		}
		b.cmps = append(b.cmps, &boundCmp{req: c, measure: b.addOrReuse(bm)})
		if err := b.groupBySubject(c); err != nil {
			return err
		}
	}
	return nil
}

// matchMeasure binds a compared measure phrase, reusing a measure the
// question already computes ("regions with revenue over 1M").
func (b *binder) matchMeasure(sp *span) (*boundMeasure, error) {
	for i, mr := range b.q.measures {
		if mr.sp == sp {
			return b.measures[i], nil
		}
	}
	return b.bindMeasure(&measureReq{sp: sp})
}

func (b *binder) subjectTables() []*table {
	if b.subject == nil {
		return nil
	}
	return []*table{b.subject}
}

// groupBySubject makes sure an aggregate comparison has groups to compare:
// the subject's rows ("customers with ..."), unless the question groups.
func (b *binder) groupBySubject(c *cmpReq) error {
	if len(b.q.groups) > 0 || b.q.rank != nil {
		return nil
	}
	if b.subject == nil {
		return decline("%q: of what? name what to compare, e.g. customers with %s orders", c.sp.text, c.sp.text)
	}
	for i, bm := range b.measures {
		if bm.countT == b.subject && bm.distinct == nil && bm.col == nil {
			// "how many customers have more than 5 orders": count the groups
			b.measures = append(b.measures[:i], b.measures[i+1:]...)
			b.countGroups = true
			break
		}
	}
	if b.subjectGrouped {
		return nil
	}
	b.subjectGrouped = true
	b.groups = append(b.groups, &boundGroup{ent: b.subject})
	return nil
}

// bindRoot picks the table the query reads: the measures' table, the
// counted table, or what is listed.
func (b *binder) bindRoot() error {
	switch b.frame {
	case pLookup:
		return nil
	case pList:
		t := b.subject
		if r := b.q.rank; r != nil {
			ts := preferTables(r.target.tables())
			if len(ts) != 1 {
				return decline("%q could mean the tables %s", r.target.text, tableNames(ts))
			}
			t = ts[0]
			b.resolve(r.target.text, "table", t.name)
		}
		if n := b.andSubjects(); n != "" {
			return decline("I list one kind of row at a time, not %s", n).withHint("ask for each separately")
		}
		b.root = t
		return nil
	case pDistinct:
		return nil
	}
	var root, counted *table
	for _, bm := range b.measures {
		var t *table
		switch {
		case bm.col != nil:
			t = bm.col.t
		case bm.d != nil:
			t = bm.d.t
		default:
			continue
		}
		if root != nil && root != t {
			return decline("the measures come from different tables (%s and %s); ask for them separately", root.name, t.name)
		}
		root = t
	}
	for _, bm := range b.measures {
		t := bm.countT
		if bm.distinct != nil {
			t = bm.distinct.t
		}
		if t == nil {
			continue
		}
		if root != nil && t != root && bm.distinct == nil {
			return decline("counting %s beside a measure of %s could miss or double-count rows; ask for them separately", t.name, root.name).
				withHint("e.g. ask for the number of %s by itself", t.phrase())
		}
		if counted != nil && counted != t {
			return decline("two counts of different tables (%s and %s); ask for them separately", counted.name, t.name)
		}
		counted = t
	}
	if root == nil {
		root = counted
	}
	if root == nil {
		return decline("I could not find what to compute").withHint("e.g. total revenue")
	}
	b.root = root
	return nil
}

// andSubjects reports two listed tables joined by "and" ("orders and customers").
func (b *binder) andSubjects() string {
	ss := b.q.subjects
	for i := 1; i < len(ss); i++ {
		if and := b.q.at(ss[i].idx - 1); and != nil && and.is(kwAnd) && ss[i-1].idx == ss[i].idx-2 {
			return fmt.Sprintf("%s and %s", ss[i-1].text, ss[i].text)
		}
	}
	return ""
}

// bindGroups binds each grouping to a grain, a column, or a table's rows
// (grouped by key, shown with the label).
func (b *binder) bindGroups() error {
	if b.frame != pAggregate {
		if len(b.q.groups) > 0 {
			return decline("grouping needs something to count or add up").withHint("e.g. how many orders by month")
		}
		return nil
	}
	for _, g := range b.q.groups {
		if g.grain != "" {
			b.groups = append(b.groups, &boundGroup{grain: g.grain, sp: g.sp})
			continue
		}
		bg, err := b.bindGroupSpan(g.sp)
		if err != nil {
			return err
		}
		if pv := b.q.at(g.sp.idx - 1); pv != nil && pv.text == "across" && bg.ent != nil && bg.ent == b.root && !b.q.acrossAll {
			// "total seats across kiosks" of kiosk rows: one figure over
			// them, as "across all kiosks" — a total per kiosk is its own
			// value ("across regions" of crates still groups)
			b.assume = append(b.assume, fmt.Sprintf("'across %s': one figure over every %s row", g.sp.text, b.root.name))
			continue
		}
		if b.q.acrossAll && bg.ent != nil && bg.ent == b.root {
			// "total crates across all kiosks" of kiosk rows: the rows added up
			b.assume = append(b.assume, fmt.Sprintf("'across all %s': one figure over every %s row", g.sp.text, b.root.name))
			continue
		}
		if b.q.acrossAll {
			// "the sum of fees across all masts" of crates: one total over every
			// mast, or one per mast?
			return decline("\"across all %s\": one figure over all of them or one for each, I can't tell which", g.sp.text).
				withHint("say the total alone, or for each followed by what to group by")
		}
		if bg.ent != nil && bg.ent == b.root && b.onlyAverages() {
			// "average total price per reservation": the average over them
			b.assume = append(b.assume, fmt.Sprintf("'per %s': the average over all %s rows", g.sp.text, b.root.name))
			continue
		}
		b.groups = append(b.groups, bg)
	}
	return b.checkAveragePerEntity()
}

// onlyAverages: every measure is an average.
func (b *binder) onlyAverages() bool {
	for _, bm := range b.measures {
		if bm.fn != "AVG" {
			return false
		}
	}
	return len(b.measures) > 0
}

// bindGroupSpan binds a phrase to group by.
func (b *binder) bindGroupSpan(sp *span) (*boundGroup, error) {
	if g := catalog.Singular(sp.text); grainWords[sp.text] && b.root.date != nil && !slices.ContainsFunc(sp.ms, func(m *meaning) bool {
		return m.kind == mColumn && m.t == b.root
	}) {
		// "supply drops each year": the year of the drops' own date, not
		// a year column of the huts they reach (an opening year)
		return &boundGroup{grain: g, sp: sp}, nil
	}
	var cs []cand
	for _, m := range sp.ms {
		switch {
		case m.kind == mTable:
			cs = append(cs, cand{t: m.t, strength: strengthWord})
		case m.kind == mColumn && m.c.kind != catalog.KindMeasure:
			cs = append(cs, cand{t: m.t, c: m.c, strength: m.strength})
		}
	}
	// a table, its key or a foreign key to it name the same groups; so
	// does its label when the phrase names the table too ("by customer"),
	// not when it names only the column ("by title")
	names := map[*table]bool{}
	for _, c := range cs {
		if c.c == nil {
			names[c.t] = true
		}
	}
	for i := range cs {
		if t := groupEntity(cs[i]); t != nil && (cs[i].c.kind != catalog.KindLabel || names[t] || !repeats(cs[i].c)) {
			cs[i] = cand{t: t, strength: cs[i].strength}
		}
	}
	cs = dedupe(cs)
	if len(cs) == 0 {
		return nil, decline("I can't group by %q", sp.text)
	}
	strong, nearest := strongest(cs), b.fewestHopsFromRoot(cs)
	cs = narrow(cs, func(c cand) bool { return b.named[c.t] && c.t != b.root })
	others := narrow(cs, b.reachable)
	cs = narrow(cs, b.own, b.reachable, strong, func(c cand) bool { return !c.t.view })
	if len(cs) > 1 && !slices.ContainsFunc(cs, func(c cand) bool { return c.strength > strengthHead }) {
		// "by name" with names in several tables: the nearest is a guess
		return nil, decline("%q could mean %s", sp.text, candList(cs)).
			withHint("name the table too, e.g. by %s %s", cs[0].t.singular(), sp.text)
	}
	cs = narrow(cs, nearest)
	if len(cs) == 1 && len(others) > 1 {
		// the question did not say which table's: say which was taken
		b.assume = append(b.assume, fmt.Sprintf("'%s' read as %s (it could also mean %s)",
			sp.text, cs[0].String(), candList(without(others, cs[0]))))
	}
	if len(cs) > 1 {
		return nil, decline("%q could mean %s", sp.text, candList(cs)).
			withHint("name the table too, e.g. by %s %s", cs[0].t.singular(), sp.text)
	}
	c := cs[0]
	bg := &boundGroup{sp: sp}
	switch {
	case c.c == nil:
		if c.t.key == nil && len(c.t.label) == 0 {
			return nil, decline("the rows of %s have no key or name to group by", c.t.name)
		}
		bg.ent = c.t
		b.resolve(sp.text, "table", c.t.name)
	case c.c.kind == catalog.KindDate && c.c.dateFmt == catalog.DateYear:
		bg.grain, bg.col = "year", c.c
	case c.c.kind == catalog.KindDate:
		bg.grain, bg.col = "day", c.c
		b.resolve(sp.text, "column", c.c.ref())
	case c.c.kind == catalog.KindText:
		return nil, decline("%q (%s) is free text; grouping by it is not useful", sp.text, c.c.ref())
	default:
		bg.col = c.c
		b.resolve(sp.text, "column", c.c.ref())
	}
	if sp.typo != "" {
		b.assume = append(b.assume, fmt.Sprintf("'%s' read as '%s'", sp.text, sp.typo))
	}
	return bg, nil
}

// repeats: the schema's sample shows the column's values repeat across rows
// (fewer distinct values than rows), so it is an attribute to group by,
// not the name of each row.
func repeats(c *column) bool {
	return len(c.values) > 0 && c.t.rows > int64(len(c.values))
}

// groupEntity: a label, primary key or foreign key column groups the rows
// of a table.
func groupEntity(c cand) *table {
	switch {
	case c.c == nil:
		return nil
	case c.c.fk != nil:
		return c.c.fk.to
	case c.c.pk || c.c == c.t.key:
		return c.t
	case c.c.kind == catalog.KindLabel && c.t.key != nil && len(c.t.label) > 0 && containsCol(c.t.label, c.c):
		return c.t
	}
	return nil
}

func containsCol(cs []*column, c *column) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

func (b *binder) own(c cand) bool { return c.t == b.root }

func (b *binder) reachable(c cand) bool {
	_, ok := b.m.reach(b.root, c.t)
	return ok
}

func (b *binder) fewestHopsFromRoot(cs []cand) func(cand) bool {
	least := 1 << 30
	for _, c := range cs {
		if h, ok := b.m.reach(b.root, c.t); ok {
			least = min(least, h)
		}
	}
	return func(c cand) bool {
		h, ok := b.m.reach(b.root, c.t)
		return ok && h == least
	}
}

// checkAveragePerEntity declines "average revenue per customer": an
// average of line amounts per customer is not what is asked, and the
// average of per-customer totals is a different query.
func (b *binder) checkAveragePerEntity() error {
	for _, g := range b.groups {
		if g.grain != "" {
			for _, bm := range b.measures {
				if bm.fn == "AVG" && (bm.col != nil && bm.col.additive() || bm.d != nil && bm.d.additive()) {
					return decline("\"average %s per %s\" is ambiguous: an average of individual rows in each %s, or of the %s totals", strings.TrimPrefix(bm.phrase, "average "), g.grain, g.grain, g.grain).
						withHint("ask for the total by %s (e.g. %s by %s)", g.grain, strings.TrimPrefix(bm.phrase, "average "), g.grain)
				}
			}
			continue
		}
		if g.ent == nil || g.ent == b.root {
			continue
		}
		for _, bm := range b.measures {
			additive := bm.col != nil && bm.col.additive() || bm.d != nil && bm.d.additive()
			if bm.fn == "AVG" && additive && (g.ent.role == catalog.RoleFact || totalLike(strings.TrimPrefix(bm.phrase, "average "))) {
				return decline("\"average %s per %s\" is ambiguous: an average of individual %s rows, or of each %s's total", strings.TrimPrefix(bm.phrase, "average "), g.ent.singular(), b.root.singular(), g.ent.singular()).
					withHint("ask for the total per %s (e.g. %s by %s) and compare", g.ent.singular(), strings.TrimPrefix(bm.phrase, "average "), g.ent.singular())
			}
		}
	}
	return nil
}

// totalLike: a measure phrase that names a total (revenue, sales, total
// price), whose average per group reads as the average of group totals.
// A per-row figure (a shipment's fee, a line's quantity) averages by row.
func totalLike(phrase string) bool {
	ws := strings.Fields(phrase)
	if len(ws) == 0 {
		return false
	}
	if ws[0] == "total" || ws[0] == "sum" || ws[0] == "amount" {
		return true
	}
	return genericMoney[strings.Join(phraseStems(phrase), " ")] || genericMoney[phrase]
}

// bindRanking orders and limits: by the ranking measure, a superlative
// column, or the date.
func (b *binder) bindRanking() error {
	r := b.q.rank
	if r == nil {
		return nil
	}
	if b.frame == pAggregate {
		return b.bindAggregateRank(r)
	}
	if b.frame != pList {
		return nil
	}
	var col *column
	var err error
	switch {
	case r.ownCol != nil:
		col = r.ownCol
	case r.recency:
		col = b.root.date
		if c := b.verbDate(); c != nil && c.t == b.root {
			col = c // "which brewery opened first"
		}
		if col == nil {
			return decline("%s has no date column to tell the %s ones", b.root.name, r.sp.text).
				withHint("list them by another column")
		}
	default:
		col, err = b.superColumn(r)
		if err != nil {
			return err
		}
	}
	b.order = append(b.order, orderItem{sel: -1, e: expr{kind: eCol, col: col, cast: col.textNumber()}, desc: r.dir > 0})
	if col.nullable {
		// the oldest guest is one whose birth date is known
		b.orderNotNull = col
	}
	if b.root.key != nil {
		b.order = append(b.order, orderItem{sel: -1, e: expr{kind: eCol, col: b.root.key}, desc: r.dir > 0 && r.recency})
	}
	b.limit, err = b.rankLimit(r)
	return err
}

// rankLimit is the number asked for, or 1 for a singular target ("the
// best-selling product"); a plural with no number ("top customers") does
// not say how many, and declines.
func (b *binder) rankLimit(r *rankReq) (int, error) {
	switch {
	case r.hasN:
		return r.n, nil
	case r.target != nil && isPlural(r.target):
		return 0, decline("%q %s: how many?", r.sp.text, r.target.text).
			withHint("e.g. %s 10 %s", r.sp.text, r.target.text)
	}
	return 1, nil
}

func isPlural(sp *span) bool {
	ws := strings.Fields(strings.ToLower(sp.text))
	if len(ws) == 0 {
		return false
	}
	w := ws[len(ws)-1]
	return stem(w) != w
}

// superColumn is the column a superlative speaks of ("most expensive" →
// the price, "longest" → the duration, "oldest" → the birth date or date).
func (b *binder) superColumn(r *rankReq) (*column, error) {
	t, unit := b.root, r.super.unit
	var cs []*column
	for _, c := range t.cols {
		switch {
		case unit == unitAge && c.kind == catalog.KindDate && c.unit == unitAge:
			cs = append(cs, c)
		case c.kind == catalog.KindMeasure && c.unit == unit:
			cs = append(cs, c)
		}
	}
	if unit == unitAge && len(cs) > 0 && cs[0].kind == catalog.KindMeasure {
		r.dir = -r.dir // an age: the oldest is the highest
	}
	if unit == unitAge && len(cs) == 0 {
		return nil, decline("%s has no birth date or age column to tell the %s", t.name, r.sp.text).
			withHint("ask for the earliest by a date, e.g. the first %s by %s", t.phrase(), dateWord(t))
	}
	if len(cs) > 1 {
		var price []*column
		for _, c := range cs {
			if strings.Contains(" "+strings.Join(c.words, " ")+" "+catalog.IdentifierPhrase(c.name)+" ", " price") {
				price = append(price, c)
			}
		}
		if len(price) > 0 {
			cs = price
		}
	}
	switch len(cs) {
	case 0:
		return nil, decline("%s has no column that says how %s a row is", t.name, strings.TrimPrefix(strings.TrimPrefix(r.sp.text, "most "), "least ")).
			withHint("rank by a column, e.g. top 5 %s by <column>", t.phrase())
	case 1:
		b.assume = append(b.assume, fmt.Sprintf("'%s' means by %s", r.sp.text, cs[0].ref()))
		return cs[0], nil
	}
	return nil, decline("%q could mean %s or %s", r.sp.text, cs[0].ref(), cs[1].ref())
}

func dateWord(t *table) string {
	if t.date != nil {
		return t.date.phrase()
	}
	return "date"
}

func (b *binder) bindAggregateRank(r *rankReq) error {
	if len(b.groups) > 0 {
		return decline("the %s per group (%q within each group) is not answered offline", r.sp.text, r.sp.text).
			withHint("ask for the full breakdown, e.g. by both groupings, and read the top rows")
	}
	var bg *boundGroup
	if r.grain != "" {
		bg = &boundGroup{grain: r.grain}
	} else {
		var err error
		if bg, err = b.bindGroupSpan(r.target); err != nil {
			return err
		}
	}
	b.groups = append([]*boundGroup{bg}, b.groups...)
	dir := r.dir > 0
	b.order = append(b.order, orderItem{sel: -2, desc: dir}) // the rank measure, resolved in assemble
	var err error
	if b.limit, err = b.rankLimit(r); err != nil {
		return err
	}
	return b.checkAveragePerEntity()
}

// without is cs less c.
func without(cs []cand, c cand) []cand {
	var out []cand
	for _, x := range cs {
		if x != c {
			out = append(out, x)
		}
	}
	return out
}
