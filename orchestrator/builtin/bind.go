package builtin

import (
	"fmt"
	"sort"
	"strings"
	"talk2tables/catalog"
	"time"
)

// binder binds an interpreted question to the model: which table, column,
// derived measure or row each phrase means, the root table, the joins.
type binder struct {
	m     *model
	q     *query
	today time.Time
	// verbUsed: the date verb ("shipped", "hired") found its date column
	// or the table it ranks by
	verbUsed bool

	named    map[*table]bool // tables the question names (not as a grouping)
	nouns    []nounRef       // the table nouns among them, as the question says them
	valued   map[*table]bool // tables a value of the question names ("the <table> <name>")
	subject  *table          // the first of them: what the question is about
	frame    planKind
	root     *table
	counted  *table // the table whose rows are counted when the root is a bridge
	measures []*boundMeasure
	groups   []*boundGroup
	filters  []*boundFilter
	cmps     []*boundCmp
	rankBy   *boundMeasure
	listCols []*column
	lookup   *boundFilter
	order    []orderItem
	limit    int
	timeCol  *column

	countGroups    bool    // count the groups that pass a HAVING comparison
	orderNotNull   *column // a listing ranked by a column that may be NULL
	subjectGrouped bool

	assume   []string
	resolved map[string]map[string]string
	expl     explainer
}

type boundMeasure struct {
	fn       string
	col      *column
	d        *derived
	countT   *table
	distinct *column
	phrase   string
	alias    string
}

type boundGroup struct {
	grain string
	col   *column
	ent   *table
	sp    *span
}

type boundFilter struct {
	flag   bool // a yes/no column is true (or false when neg)
	has    bool // the column is not NULL (NULL when neg)
	col    *column
	values []string
	ents   []*entity
	t      *table
	neg    bool
	text   string
}

type boundCmp struct {
	req     *cmpReq
	col     *column       // row-level: WHERE col op n
	measure *boundMeasure // aggregate-level: HAVING
}

// cand is one thing a phrase may mean.
type cand struct {
	t        *table
	c        *column
	d        *derived
	e        *entity
	value    string
	strength int
}

func (c cand) same(o cand) bool {
	if c.t != o.t || c.c != o.c || c.d != o.d || c.value != o.value {
		return false
	}
	if !c.keyed() && !o.keyed() {
		return true // one value, from the schema's samples or a catalog value set
	}
	return c.e == o.e || c.e != nil && o.e != nil && c.e.set == o.e.set && c.e.name == o.e.name
}

// keyed: a named row (filtered by its key), not a value.
func (c cand) keyed() bool { return c.e != nil && c.e.set.key != nil }

func (c cand) String() string {
	switch {
	case c.d != nil:
		return "the measure " + c.d.name + " of " + c.t.name
	case c.e != nil && c.e.set.key != nil:
		return fmt.Sprintf("%s %s", c.t.name, c.e.name)
	case c.c != nil && c.value != "":
		return fmt.Sprintf("%s = '%s'", c.c.ref(), c.value)
	case c.c != nil:
		return c.c.ref()
	}
	return c.t.name
}

func dedupe(cs []cand) []cand {
	var out []cand
	for _, c := range cs {
		dup := false
		for i, o := range out {
			if o.same(c) {
				out[i].strength = max(o.strength, c.strength)
				dup = true
			}
		}
		if !dup {
			out = append(out, c)
		}
	}
	return out
}

// narrow applies preferences in order: each keeps the candidates it
// prefers when it prefers any.
func narrow(cs []cand, prefs ...func(cand) bool) []cand {
	for _, p := range prefs {
		if len(cs) <= 1 {
			break
		}
		var keep []cand
		for _, c := range cs {
			if p(c) {
				keep = append(keep, c)
			}
		}
		if len(keep) > 0 {
			cs = keep
		}
	}
	return cs
}

func strongest(cs []cand) func(cand) bool {
	best := -1
	for _, c := range cs {
		best = max(best, c.strength)
	}
	return func(c cand) bool { return c.strength == best }
}

func candList(cs []cand) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.String())
	}
	sort.Strings(parts)
	return strings.Join(parts, " or ")
}

// bind runs the binding steps and assembles the plan.
func (m *model) bind(q *query, today time.Time) (*plan, *binder, error) {
	b := &binder{m: m, q: q, today: today, named: map[*table]bool{}, valued: map[*table]bool{}, resolved: map[string]map[string]string{}}
	for _, step := range []func() error{
		b.bindSubjects, b.bindFrame, b.bindMeasures, b.bindRoot, b.bindGroups, b.bindRanking,
		b.bindFilters, b.bindComparisons, b.bindTimeTable, b.bindReroot, b.bindTime, b.bindColumns,
	} {
		if err := step(); err != nil {
			return nil, nil, err
		}
	}
	if b.verbUnplaced() {
		v := q.dateVerb
		return nil, nil, decline("%q with no time range: whether it happened is not answered offline", v.text).
			withHint("ask with a time range on a date the data has, e.g. %s last month", v.text)
	}
	p, err := b.assemble()
	if err != nil {
		return nil, nil, err
	}
	return p, b, nil
}

// endsQuestion: sp is the question's last span ("which kiosks have been
// placed?"), where a verb that is elsewhere filler is what is asked when
// it names a column (a placing).
func endsQuestion(q *query, sp *span) bool {
	return len(q.spans) > 0 && q.spans[len(q.spans)-1] == sp
}

// namesColumn: the verb w is the word of a column, neither key nor date
// ("placed" of a placing).
func (b *binder) namesColumn(w string) bool {
	bases := verbBases(w)
	for _, t := range b.m.tables {
		for _, c := range t.cols {
			if c.isKey() || c.kind == catalog.KindDate {
				continue
			}
			for _, cw := range catalog.IdentifierWords(c.name) {
				for _, base := range bases {
					if cw == w || cw == base+"ing" || cw == strings.TrimSuffix(base, "e")+"ing" {
						return true
					}
				}
			}
		}
	}
	return false
}

// verbUnplaced: a date verb ("shipped", "hired") with no time range that
// found neither its date column nor the table it ranks by: it claims
// something of the rows counted or listed ("<things> shipped", "<things>
// not shipped") that the query would not check. With a range, the range
// goes to the table's date and the answer says which. A verb beside a
// measure ("<amount> shipped") only describes it, and a verb that is also
// filler (a stopword) says nothing more — unless it ends the question.
func (b *binder) verbUnplaced() bool {
	v := b.q.dateVerb
	if v == nil || v.kind != spKw || b.verbUsed || stopwords[v.text] && !(endsQuestion(b.q, v) && len(b.q.measures) == 0 && b.namesColumn(v.text)) {
		return false
	}
	if b.q.rng != nil {
		// the range went to the table's own date, and the answer names it
		// ("dates … on <table>.<date column>")
		return false
	}
	for _, mr := range b.q.measures {
		if mr.count == nil {
			return false
		}
	}
	if r := b.q.rank; r != nil && r.measure != nil && r.measure.count == nil {
		return false
	}
	return true
}

// bindSubjects: the tables the question names (not as a grouping): what
// it counts, ranks or lists, and the other table nouns. The first is the
// subject.
func (b *binder) bindSubjects() error {
	var spans []*span
	for _, mr := range b.q.measures {
		if mr.count != nil && !mr.distinct {
			spans = append(spans, mr.count)
		}
	}
	if r := b.q.rank; r != nil && r.target != nil && r.target.has(mTable) {
		spans = append(spans, r.target)
	}
	spans = append(spans, b.q.subjects...)
	for _, sp := range spans {
		ts := preferTables(sp.tables())
		if len(ts) > 1 {
			return decline("%q could mean the tables %s", sp.text, tableNames(ts)).
				withHint("use the table's own name")
		}
		if len(ts) == 0 {
			continue
		}
		b.named[ts[0]] = true
		b.nouns = append(b.nouns, nounRef{text: sp.text, t: ts[0]})
		if b.subject == nil {
			b.subject = ts[0]
		}
		b.resolve(sp.text, "table", ts[0].name)
	}
	for _, f := range b.q.filters {
		if f.label != nil {
			for _, t := range f.label.tables() {
				b.named[t] = true
				b.valued[t] = true
			}
		}
	}
	return nil
}

// preferTables keeps tables over views when a word names both.
func preferTables(ts []*table) []*table {
	var keep []*table
	for _, t := range ts {
		if !t.view {
			keep = append(keep, t)
		}
	}
	if len(keep) > 0 {
		return keep
	}
	return ts
}

func (b *binder) resolve(phrase, k, v string) {
	phrase = strings.ToLower(phrase)
	if b.resolved[phrase] == nil {
		b.resolved[phrase] = map[string]string{}
	}
	b.resolved[phrase][k] = v
}

// bindFrame decides what kind of answer the question wants.
func (b *binder) bindFrame() error {
	q := b.q
	switch {
	case b.isLookup():
		b.frame = pLookup
	case b.rankByOwnColumn():
		b.frame = pList
	case len(q.measures) > 0, q.rank != nil && q.rank.super == nil && !q.rank.recency:
		b.frame = pAggregate
	case b.aggregateComparison():
		b.frame = pAggregate
	case b.measureComparisonOfColumn():
		// "regions with revenue over 1M": grouped by the column
		b.frame = pAggregate
	case len(q.groups) > 0:
		if b.subject == nil {
			return decline("grouped by what measure? I found nothing to count or add up").
				withHint("e.g. how many orders by month")
		}
		// "orders by month": a count of the subject's rows
		b.frame = pAggregate
		q.measures = append(q.measures, &measureReq{count: b.subjectSpan(), fn: "COUNT"})
	case q.compare && len(q.filters) > 0:
		// "compare supersonic with the drone": by the headline measure
		b.frame = pAggregate
		q.measures = append(q.measures, &measureReq{})
	case b.subject != nil && q.rank == nil && !q.listVerb && !q.which && q.rng != nil && b.subject.role == catalog.RoleFact && len(q.columns) == 0:
		// "<things> this month": how many — said, since a listing is the
		// other reading
		b.frame = pAggregate
		q.measures = append(q.measures, &measureReq{count: b.subjectSpan(), fn: "COUNT"})
		b.assume = append(b.assume, fmt.Sprintf("counted the %s rows in that time (say 'list %s …' to see them)",
			b.subject.name, b.subjectSpan().text))
	case b.subject != nil, q.rank != nil:
		b.frame = pList
	case len(q.columns) == 1:
		b.frame = pDistinct
	case len(q.columns) > 1:
		t := b.columnsTable()
		if t == nil {
			return decline("those columns are not all in one table; ask for one table's columns at a time")
		}
		b.subject, b.named[t] = t, true
		b.frame = pList
	case len(q.filters) > 0:
		d := decline("I found names (%s) but not what to show about them", filterText(q.filters))
		for _, f := range q.filters {
			if len(f.sps) > 0 {
				return d.withHint("e.g. revenue for %s, or how many orders for %s", f.sps[0].text, f.sps[0].text)
			}
		}
		return d.withHint("e.g. total revenue by month")
	default:
		return decline("I could not find what to compute or list").withHint("e.g. total revenue by month")
	}
	return nil
}

// rankByOwnColumn: "top 3 products by list price" orders the products by
// their own column; nothing is aggregated.
func (b *binder) rankByOwnColumn() bool {
	r := b.q.rank
	if r == nil || r.super != nil || r.recency || r.measure == nil || r.measure.sp == nil || r.measure.fn != "" || r.target == nil {
		return false
	}
	ts := preferTables(r.target.tables())
	if len(ts) != 1 {
		return false
	}
	var best *column
	bs := -1
	for _, m := range r.measure.sp.ms {
		if m.kind == mColumn && m.c.t == ts[0] && m.c.kind == catalog.KindMeasure && m.strength > bs {
			best, bs = m.c, m.strength
		}
	}
	if best == nil {
		return false
	}
	r.ownCol = best
	b.resolve(r.measure.sp.text, "column", best.ref())
	return true
}

// measureComparisonOfColumn: "regions with revenue over 1M" groups by the
// one column named and compares the measure per group.
func (b *binder) measureComparisonOfColumn() bool {
	q := b.q
	if b.subject != nil || len(q.columns) != 1 || len(q.cmps) == 0 {
		return false
	}
	for _, c := range q.cmps {
		if c.target == nil || !measureLike(c.target) {
			return false
		}
	}
	q.groups = append(q.groups, &groupReq{sp: q.columns[0]})
	q.columns = nil
	for _, c := range q.cmps {
		q.measures = append(q.measures, &measureReq{sp: c.target})
	}
	return true
}

// columnsTable is the one table holding every column phrase.
func (b *binder) columnsTable() *table {
	var found *table
	for _, t := range b.m.tables {
		all := true
		for _, sp := range b.q.columns {
			if !spanHasColumnOf(sp, t, false) {
				all = false
				break
			}
		}
		if all {
			if found != nil {
				return nil
			}
			found = t
		}
	}
	return found
}

func filterText(fs []*filterReq) string {
	var parts []string
	for _, f := range fs {
		for _, sp := range f.sps {
			parts = append(parts, fmt.Sprintf("%q", sp.text))
		}
	}
	return strings.Join(parts, ", ")
}

func (b *binder) subjectSpan() *span {
	for _, sp := range b.q.subjects {
		for _, t := range sp.tables() {
			if t == b.subject {
				return sp
			}
		}
	}
	return nil
}

// isLookup: "price of abracadabra", "category of the drone": columns of
// one named row, with no aggregate word, grouping or time.
func (b *binder) isLookup() bool {
	q := b.q
	if len(q.filters) != 1 || len(q.groups) > 0 || q.rank != nil || q.rng != nil || len(q.cmps) > 0 {
		return false
	}
	f := q.filters[0]
	if f.neg {
		return false
	}
	var ent *entitySet
	for _, sp := range f.sps {
		es := sp.meanings(mEntity)
		if len(es) != 1 {
			return false
		}
		if ent != nil && ent != es[0].e.set {
			return false
		}
		ent = es[0].e.set
	}
	if ent == nil {
		return false // a filled-in or yes/no filter names no row
	}
	cols := 0
	for _, mr := range q.measures {
		if mr.fn != "" || mr.sp == nil || !spanHasColumnOf(mr.sp, ent.t, true) {
			return false
		}
		cols++
	}
	for _, sp := range q.columns {
		if !spanHasColumnOf(sp, ent.t, false) {
			return false
		}
		cols++
	}
	return cols > 0
}

// spanHasColumnOf reports whether sp names a column of t (for a measure
// phrase: a column that is not added up, e.g. a price).
func spanHasColumnOf(sp *span, t *table, measure bool) bool {
	for _, m := range sp.ms {
		if m.kind == mColumn && m.c.t == t && !(measure && m.c.additive()) {
			return true
		}
	}
	return false
}

// aggregateComparison: a comparison that needs aggregates ("customers
// with more than 5 orders", "customers who spent over 1000").
func (b *binder) aggregateComparison() bool {
	for _, c := range b.q.cmps {
		if c.count || c.hint != kwNone {
			return true
		}
		if c.target != nil && measureLike(c.target) && b.subject != nil && !spanHasColumnOf(c.target, b.subject, false) {
			return true
		}
	}
	return false
}

// nounRef is a table the question names with the words naming it.
type nounRef struct {
	text string
	t    *table
}

// nounsUsed declines a plan that leaves out a table the question names as
// a noun: "<table> <measure>" read as the measure's total over every row
// would answer a question nobody asked.
func (b *binder) nounsUsed(used map[*table]bool) error {
	for _, n := range b.nouns {
		if !used[n.t] && !b.valued[n.t] {
			return decline("I did not see what %q does in the question", n.text).
				withHint("say how it is used, e.g. \"... by %s\" or \"... for one %s\"", n.text, n.text)
		}
	}
	return nil
}
