package builtin

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"talk2tables/catalog"
)

// clauseBinder binds a parsed question to tables and columns and builds
// its plan.
type clauseBinder struct {
	m       *model
	q       *cquery
	today   time.Time
	subject *table
	root    *table
	js      *joinSet
	where   []*cond
	semi    map[*table][]*cond // conditions on tables the root does not reach many-to-one
	exists  map[*table]*ccond  // ccExists / ccCount per related table
	// viaAlso: a second link a verb names to a table exists already has
	// ("hauled and never rigged a mast"): a condition of its own
	viaAlso []*ccond
	// negSemi: a negated value on rows of a related table ("owners who do
	// not have a dog"): no such rows, not rows of another value
	negSemi map[*table]bool
	// within: a condition on a table that rows of a related table named
	// before it reach ("pupils who joined a club run by X": the club's
	// organiser, not the pupil's own key to the staff)
	within   map[*table]*table
	resolved map[string]map[string]string
	assume   []string
	cols     map[*chunk]*column // bound column chunks
	tables   map[*table]bool    // every table the plan reads
	// countBy: the rows are grouped by the subject and kept by how many
	// linked rows each has (HAVING)
	countBy *ccond
	// countRows: the table whose rows countBy counts, when the rows
	// grouped are a bridge to it ("shows at more than one venue")
	countRows *table
	// filtered: columns the question puts a condition on
	filtered map[*column]bool
	// implicitRange: a time range on the rows' own date, none named
	implicitRange bool
	// fewest: the count of linked rows a "fewest" ranking orders by
	fewest *expr
	// roles: keys of other tables pointing at the subject, named as a
	// role its rows must have ("as soloists")
	roles []*column
	// sharedOne: a name several rows share, said as if of one row ("Oren
	// Vale", not "the members called Oren Vale")
	sharedOne *chunk
}

func newClauseBinder(m *model, q *cquery, today time.Time) *clauseBinder {
	return &clauseBinder{m: m, q: q, today: today, semi: map[*table][]*cond{}, exists: map[*table]*ccond{}, negSemi: map[*table]bool{}, within: map[*table]*table{},
		resolved: map[string]map[string]string{}, cols: map[*chunk]*column{}, tables: map[*table]bool{},
		filtered: map[*column]bool{}}
}

func (b *clauseBinder) resolve(phrase, k, v string) {
	if b.resolved[phrase] == nil {
		b.resolved[phrase] = map[string]string{}
	}
	b.resolved[phrase][k] = v
}

// plan binds the question: the subject, the root table (whose rows are
// aggregated or listed), the joins, the conditions, groups, order, limit.
func (b *clauseBinder) plan() (*plan, error) {
	if err := b.bindSubject(); err != nil {
		return nil, err
	}
	if err := b.bindRoot(); err != nil {
		return nil, err
	}
	b.js = newJoinSet(b.root)
	b.tables[b.root] = true
	p := &plan{kind: pList, root: b.root, joins: b.js}
	for _, step := range []func(*plan) error{b.bindItems, b.bindGroups, b.bindConds, b.bindRank, b.bindOrder, b.finish, b.withTheir, b.bindPercent} {
		if err := step(p); err != nil {
			return nil, err
		}
	}
	if c := contradicted(p.where); c != nil {
		// "crates of kiosks with no licence" read as the crates' own
		// key both filled and empty: a misreading, never an answer
		return nil, decline("two conditions on %s contradict each other: I misread the question", c.name).
			withHint("ask in two steps, or name the table each condition is about")
	}
	return p, nil
}

// contradicted is a column the conditions require both empty and filled,
// or nil.
func contradicted(where []*cond) *column {
	empty, filled := map[*column]bool{}, map[*column]bool{}
	for _, c := range where {
		if c.kind != cNotNull || c.e.kind != eCol || c.e.col == nil {
			continue
		}
		if c.neg {
			empty[c.e.col] = true
		} else {
			filled[c.e.col] = true
		}
		if empty[c.e.col] && filled[c.e.col] {
			return c.e.col
		}
	}
	return nil
}

// tableOf picks the table a table chunk names: the subject's when it is
// one of them, else the only one.
func (b *clauseBinder) tableOf(c *chunk) (*table, error) {
	ts := c.tables()
	if len(ts) == 1 {
		return ts[0], nil
	}
	if b.subject != nil && slices.Contains(ts, b.subject) {
		return b.subject, nil
	}
	if len(ts) == 0 {
		return nil, decline("%q is not a table", c.text)
	}
	var names []string
	for _, t := range ts {
		names = append(names, t.name)
	}
	return nil, decline("%q could be the rows of %s", c.text, strings.Join(names, " or ")).withHint("use the table's own name")
}

// rowsOf is the table of a chunk naming rows: a table, or a plural value
// ("the cats": rows of the table holding the value).
func (b *clauseBinder) rowsOf(c *chunk) (*table, error) {
	if !c.isTable() && pluralValue(c) {
		return c.ms[0].t, nil
	}
	return b.tableOf(c)
}

// bindSubject finds the table the question is about: the table named,
// else the table of what is counted or aggregated, else the one table
// holding every column named (narrowed by the named rows and values).
func (b *clauseBinder) bindSubject() error {
	t, err := b.namedSubject()
	if err != nil || t != nil {
		b.subject = t
		return err
	}
	if t, err = b.aggregatedSubject(); err != nil || t != nil {
		b.subject = t
		return err
	}
	t, err = b.holdingSubject()
	b.subject = t
	return err
}

// namedSubject is the table the question names as its rows: after
// which/what, as what is counted, as "how many times", or as the rows
// asked about or ranked; nil when it names none.
func (b *clauseBinder) namedSubject() (*table, error) {
	if c := b.q.which; c != nil && c.isTable() {
		return b.tableOf(c)
	}
	for _, it := range b.q.items {
		// "how many telescopes ... at observatories with a dome": the rows counted
		if it.agg != nil && it.agg.rows != nil && it.agg.fn == "COUNT" {
			return b.tableOf(it.agg.rows)
		}
	}
	for _, c := range []*chunk{b.q.timesOf, b.q.subject, b.q.ranked} {
		if c != nil && c.isTable() {
			return b.tableOf(c)
		}
	}
	return nil, nil
}

// aggregatedSubject is the table whose rows an aggregate counts, or the
// one table holding the column it computes; nil when none.
func (b *clauseBinder) aggregatedSubject() (*table, error) {
	aggs := []*cagg{}
	for _, it := range b.q.items {
		if it.agg != nil {
			aggs = append(aggs, it.agg)
		}
	}
	if b.q.rankBy != nil && b.q.rankBy.agg != nil {
		aggs = append(aggs, b.q.rankBy.agg)
	}
	for _, a := range aggs {
		if a.rows != nil {
			return b.tableOf(a.rows)
		}
	}
	for _, a := range aggs {
		if a.arg == nil {
			continue
		}
		ts := map[*table]bool{}
		for _, c := range strongestCols(a.arg, a.arg.columns()) {
			ts[c.t] = true
		}
		if len(ts) == 1 {
			for t := range ts {
				return t, nil
			}
		}
	}
	return nil, nil
}

// holdingSubject is the one table holding every column named, narrowed by
// the named rows and values.
func (b *clauseBinder) holdingSubject() (*table, error) {
	var named []*chunk
	for _, c := range b.q.cs {
		if c.isColumn() && c.role != "" && !strings.HasPrefix(c.role, "value") {
			named = append(named, c)
		}
	}
	// "the price of <named row>": the row named has the columns asked for;
	// "when did <named row> join?": the row named has the date
	var rowTables []*table
	for _, c := range b.q.cs {
		if c.role == "" || !c.isValue() {
			continue
		}
		for _, m := range c.ms {
			if (m.kind == mEntity || m.kind == mValue) && !m.t.view && (holdsAll(m.t, named) || len(named) == 0 && b.q.asksWhen() && (m.kind == mEntity || m.c.isName())) {
				rowTables = appendUnique(rowTables, m.t)
			}
		}
	}
	cands := rowTables
	if len(named) == 0 {
		// "how many cats are there": the rows a plural value names
		for _, c := range b.q.cs {
			if c.role != "" && pluralValue(c) {
				cands = appendUnique(cands, c.ms[0].t)
			}
		}
	}
	if len(cands) != 1 {
		cands = tablesHolding(b.m, named)
	}
	switch len(cands) {
	case 1:
		return cands[0], nil
	case 0:
		return nil, notMine("I can't tell which table the question is about").withHint("name the table, e.g. how many followed by a table's rows")
	}
	return nil, notMine("the columns named are in several tables (%s)", tableNames(cands)).withHint("name the table the rows are of")
}

// holdsAll: t has a column of every column chunk (any strength).
func holdsAll(t *table, named []*chunk) bool {
	for _, c := range named {
		if !slices.ContainsFunc(c.columns(), func(col *column) bool { return col.t == t }) {
			return false
		}
	}
	return len(named) > 0
}

// tablesHolding are the tables holding, for every column chunk, one of
// the columns it names most strongly.
func tablesHolding(m *model, named []*chunk) []*table {
	var cands []*table
	for _, t := range m.tables {
		if t.view || len(named) == 0 {
			continue
		}
		all := true
		for _, c := range named {
			cols := strongestCols(c, c.columns())
			if !slices.ContainsFunc(cols, func(col *column) bool { return col.t == t }) {
				all = false
				break
			}
		}
		if all {
			cands = append(cands, t)
		}
	}
	return cands
}

// bindRoot picks the table whose rows the query reads: the aggregated
// one, else the subject, else a table linking the subject to the other
// tables whose columns are shown (rows paired as asked).
func (b *clauseBinder) bindRoot() error {
	var aggTables []*table
	add := func(a *cagg) error {
		if a == nil {
			return nil
		}
		var t *table
		switch {
		case a.linked:
			x, err := b.linkingTable(b.subject)
			if err != nil {
				return err
			}
			t = x
		case a.rows != nil:
			x, err := b.tableOf(a.rows)
			if err != nil {
				return err
			}
			t = x
		case a.arg != nil:
			c, err := b.column(a.arg, b.subject)
			if err != nil {
				return err
			}
			t = c.t
		default:
			return nil
		}
		aggTables = appendUnique(aggTables, t)
		return nil
	}
	for _, it := range b.q.items {
		if err := add(it.agg); err != nil {
			return err
		}
	}
	if b.q.rankBy != nil {
		if err := add(b.q.rankBy.agg); err != nil {
			return err
		}
	}
	for _, o := range b.q.order {
		if err := add(o.agg); err != nil {
			return err
		}
	}
	switch len(aggTables) {
	case 0:
		b.root = b.subject
		if cd := b.countCond(); cd != nil {
			// "T with more than 2 U": the linked U rows,
			// grouped by T, their number kept and shown
			var t *table
			if cd.fn != "" {
				// "T whose average C is above N": C's rows grouped by T
				c, err := b.column(cd.col, b.subject)
				if err != nil {
					return err
				}
				t = c.t
			} else {
				x, err := b.condTable(cd)
				if err != nil {
					return err
				}
				t = x
			}
			if t == b.subject && b.q.shownColumns() {
				// "the C values that have more than one T": the values
				// shown, kept by how many rows each has
				b.countBy = cd
				return nil
			}
			r := b.m.bridge([]*table{b.subject, t})
			if r != nil && r != b.subject {
				b.root, b.countBy, b.countRows = r, cd, t
				return nil
			}
		}
		return b.rootForShown()
	case 1:
		b.root = aggTables[0]
		return b.fewestRoot()
	}
	return decline("the aggregates are over different tables (%s); ask for one at a time", tableNames(aggTables))
}

// countCond is the one condition on a number of linked rows that every
// kept row has at least one of ("more than 2", "at least 3", "exactly 4"),
// when the question computes nothing else.
func (b *clauseBinder) countCond() *ccond {
	var found *ccond
	for _, cd := range b.q.conds {
		switch {
		case cd.kind == ccExists && !cd.neg && b.existsBesideCount(cd):
			continue // "harvested more than 20 times": the count says it
		case cd.kind == ccExists:
			return nil
		case cd.kind == ccCmp && cd.fn != "":
			if found != nil || len(cd.or) > 0 {
				return nil
			}
			found = cd
			continue
		case cd.kind != ccCount:
			continue
		case found != nil:
			return nil
		}
		positive := cd.op == ">" && cd.a >= 0 || (cd.op == ">=" || cd.op == "=") && cd.a >= 1 || cd.op == "between" && cd.a >= 1
		if !positive || len(cd.or) > 0 {
			return nil
		}
		found = cd
	}
	if found == nil || b.q.rankBy != nil || len(b.q.groups) > 0 {
		return nil
	}
	for _, it := range b.q.items {
		if it.agg != nil {
			return nil
		}
	}
	return found
}

// existsBesideCount: a positive existence condition on the table a count
// condition is also on.
func (b *clauseBinder) existsBesideCount(ex *ccond) bool {
	t, err := b.condTable(ex)
	if err != nil {
		return false
	}
	for _, cd := range b.q.conds {
		if cd.kind == ccCount {
			if u, err := b.condTable(cd); err == nil && u == t {
				return true
			}
		}
	}
	return false
}

// condTable is the table a ccExists or ccCount condition is on.
func (b *clauseBinder) condTable(cd *ccond) (*table, error) {
	if cd.linked {
		if s := b.q.subject; s != nil && s.verb {
			// "which kinds were bottled three times": each bottling is one
			// of the times, not the rows that link to it
			return nil, notMine("%q counts the rows of %s themselves, not rows linking to them", s.text, b.subject.name)
		}
		return b.linkingTable(b.subject)
	}
	if cd.rows == nil && cd.via != nil {
		return cd.via.t, nil
	}
	return b.tableOf(cd.rows)
}

// linkingTable is the one table with a foreign key to t.
func (b *clauseBinder) linkingTable(t *table) (*table, error) {
	var found *table
	for _, e := range t.in {
		if e.from == t || e.from.view {
			continue
		}
		if found != nil && found != e.from {
			return nil, notMine("rows of %s and of %s both link to %s: which are counted?", found.name, e.from.name, t.name)
		}
		found = e.from
	}
	if found == nil {
		return nil, notMine("no table links to %s", t.name)
	}
	return found, nil
}

// fewestRoot: "the T with the fewest U" counts the U rows of every T,
// those with none too: the rows are T's, each with a count of its linked
// rows (a join would leave out the T rows without any).
func (b *clauseBinder) fewestRoot() error {
	o := b.q.rankBy
	if o == nil || o.agg == nil || o.agg.fn != "COUNT" || o.agg.arg != nil || o.dir > 0 || len(b.q.groups) > 0 {
		return nil
	}
	for _, it := range b.q.items {
		if it.agg != nil {
			return nil
		}
	}
	owner := b.q.ranked
	if owner == nil {
		owner = b.q.which
	}
	if owner == nil || !owner.isTable() {
		return nil
	}
	t, err := b.tableOf(owner)
	if err != nil || t == b.root || t.key == nil {
		return nil
	}
	link := directEdge(b.root, t, t.key)
	if link == nil {
		return notMine("%s is not linked to %s directly", b.root.name, t.name)
	}
	for _, cd := range b.q.conds {
		if cd.kind == ccExists || cd.kind == ccCount {
			return notMine("the fewest %s with other conditions on linked rows", b.root.name)
		}
		if cd.col != nil {
			if c, err := b.column(cd.col, t); err == nil && c.t == b.root {
				return notMine("the fewest %s counted under a condition", b.root.name)
			}
		}
	}
	b.fewest = &expr{kind: eSubCount, col: link.col, cols: []*column{t.key}}
	b.root = t
	return nil
}

// linkedTo: t's rows link to the subject's many-to-one (its lines, its
// items), or through one table linking both.
func (b *clauseBinder) linkedTo(t *table) bool {
	if _, ok := b.m.reach(t, b.subject); ok {
		return true
	}
	r := b.m.bridge([]*table{b.subject, t})
	if r == nil {
		return false
	}
	ps, _ := b.m.paths(r)
	return len(ps[b.subject])+len(ps[t]) <= 3
}

// multiLinked: two tables are joined by more than one foreign key ("origin"
// and "terminus" both pointing at piers): which one a question means is
// not known.
func (b *clauseBinder) multiLinked(a, c *table) bool {
	if a == c {
		return false
	}
	n := 0
	for _, e := range a.out {
		if e.to == c {
			n++
		}
	}
	for _, e := range c.out {
		if e.to == a {
			n++
		}
	}
	return n > 1
}

// rootForShown: when shown columns are of tables the subject does not
// reach many-to-one (each row beside the linked rows of another table), the rows
// are the pairs: the root is a table reaching them all.
func (b *clauseBinder) rootForShown() error {
	need := []*table{b.subject}
	weak := false
	kept := b.q.items[:0]
	for _, it := range b.q.items {
		if it.col == nil {
			kept = append(kept, it)
			continue
		}
		if b.isLabelChunk(it.col) {
			kept = append(kept, it)
			continue
		}
		c, err := b.column(it.col, b.subject)
		if err != nil {
			return err
		}
		if c.fk != nil && c.fk.to == b.subject && c.t != b.subject {
			// "players who have played as white": the rows a key of
			// another table points to in that role
			b.roles = append(b.roles, c)
			b.resolve(it.col.text, "role", c.ref())
			continue
		}
		kept = append(kept, it)
		need = appendUnique(need, c.t)
		if _, ok := b.m.reach(b.subject, c.t); !ok && !strongFor(it.col, c) {
			weak = true
		}
	}
	b.q.items = kept
	for _, t := range need {
		if b.multiLinked(b.subject, t) {
			return finalDecline("%s and %s are linked in more than one way (by several keys), and I don't know which link you mean", b.subject.name, t.name).
				withHint("configure an LLM, or ask about one of the tables")
		}
		if _, ok := b.m.reach(b.subject, t); !ok {
			if weak {
				return notMine("a column of %s named only by a part of its name", t.name)
			}
			r := b.m.bridge(need)
			if r == nil {
				return notMine("%s and %s are not linked through the data's keys", b.subject.name, t.name)
			}
			b.root = r
			return nil
		}
	}
	return nil
}

// bareDateWords name a row's date without saying which.
var bareDateWords = setOf("date", "the date", "day", "dates")

// column binds a column chunk: the table named right beside it, the
// preferred tables, the root and what it reaches, then any one table.
func (b *clauseBinder) column(c *chunk, prefer ...*table) (*column, error) {
	if col, ok := b.cols[c]; ok {
		return col, nil
	}
	cands := c.columns()
	if len(cands) == 0 {
		return nil, decline("%q is not a column", c.text)
	}
	pick := func(ok func(*column) bool) []*column {
		var out []*column
		for _, col := range cands {
			if ok(col) {
				out = append(out, col)
			}
		}
		return out
	}
	if t := b.ofTable(c); t != nil && catalog.Singular(c.text) == c.text {
		// "the name of the lodger": the lodger's own column, or one of a row
		// it points to; never one of the many rows linking to it ("the
		// grades of student 7" may list them)
		cands = pick(func(col *column) bool { _, ok := b.m.reach(t, col.t); return ok })
		if len(cands) == 0 {
			return nil, decline("%s has no column for %q", t.name, c.text).withHint("name one of its columns")
		}
	}
	if bareDateWords[c.text] && b.subject != nil && (b.q.subject == nil || !b.q.subject.verb) && !slices.ContainsFunc(cands, func(col *column) bool { return col.t == b.subject }) {
		// "the date of the latest regatta": the regatta's own date, not a date
		// of a row it points to whose name happens to say "date"
		if own := b.subject.date; own != nil {
			b.cols[c] = own
			return own, nil
		}
	}
	levels := []func(*column) bool{}
	if t := b.besideTable(c); t != nil {
		levels = append(levels, func(col *column) bool { return col.t == t })
	}
	for _, g := range b.q.groups {
		// "for each T, its name": the grouped rows' columns
		if g.isTable() {
			if t, err := b.tableOf(g); err == nil {
				levels = append(levels, func(col *column) bool { return col.t == t })
			}
		}
	}
	for _, t := range prefer {
		if t != nil {
			levels = append(levels, func(col *column) bool { return col.t == t })
		}
	}
	if b.root != nil {
		levels = append(levels, func(col *column) bool { return col.t == b.root })
		levels = append(levels, func(col *column) bool { _, ok := b.m.reach(b.root, col.t); return ok })
	}
	if b.subject != nil {
		levels = append(levels, func(col *column) bool { return col.t == b.subject })
		levels = append(levels, func(col *column) bool { _, ok := b.m.reach(b.subject, col.t); return ok })
	}
	levels = append(levels, func(col *column) bool { return b.tables[col.t] })
	named := b.namedTables()
	levels = append(levels, func(col *column) bool { return named[col.t] })
	if b.subject == nil {
		levels = append(levels, func(col *column) bool { return !col.t.view })
	} else {
		// a table whose rows link to the subject's ("the line with the most
		// passengers": the sailings of each line)
		levels = append(levels, func(col *column) bool { return !col.t.view && b.linkedTo(col.t) })
	}
	for _, lv := range levels {
		got := pick(lv)
		if len(got) == 0 {
			continue
		}
		got = strongestCols(c, got)
		if len(got) == 1 {
			b.cols[c] = got[0]
			if c.typo != "" {
				b.assume = append(b.assume, fmt.Sprintf("'%s' read as '%s'", c.text, c.typo))
			}
			return got[0], nil
		}
		var refs []string
		for _, col := range got {
			refs = append(refs, col.ref())
		}
		return nil, decline("%q could be %s", c.text, strings.Join(refs, " or ")).withHint("name the table, e.g. the %s of followed by the table", c.text)
	}
	return nil, decline("%q is not a column of the tables asked about", c.text)
}

// strongFor: the chunk names the column by more than its head word or a part.
func strongFor(c *chunk, col *column) bool {
	for _, m := range c.ms {
		if m.kind == mColumn && m.c == col && m.strength > strengthHead {
			return true
		}
	}
	return false
}

// weakPart: a one-word chunk names the column only as a part of its
// identifier ("rate" of fill_rate_pct): too weak to show or compute it.
func weakPart(c *chunk, col *column) bool {
	if c.j-c.i != 1 {
		return false
	}
	named := false
	for _, m := range c.ms {
		if m.kind == mColumn && m.c == col {
			if m.strength != strengthPartial {
				return false
			}
			named = true
		}
	}
	return named || !bareDateWords[c.text] // "date" binds a row's own date by kind, not by name
}

// strongestCols keeps the columns the chunk names most strongly.
func strongestCols(c *chunk, cols []*column) []*column {
	best := -1
	for _, m := range c.ms {
		if m.kind == mColumn && slices.Contains(cols, m.c) {
			best = max(best, m.strength)
		}
	}
	var out []*column
	for _, m := range c.ms {
		if m.kind == mColumn && m.strength == best && slices.Contains(cols, m.c) {
			out = appendUnique(out, m.c)
		}
	}
	return out
}

// besideTable is the table named right beside a column chunk: "the name
// of the T", "T name" (when not one phrase), "the T's name".
func (b *clauseBinder) besideTable(c *chunk) *table {
	i := chunkList(b.q.cs).index(c)
	next := func(k int) *chunk {
		for ; k < len(b.q.cs); k++ {
			x := b.q.cs[k]
			if x.kind == ckWord && softWords[x.text] {
				continue
			}
			return x
		}
		return nil
	}
	if of := next(i + 1); of != nil && of.kind == ckWord && (of.text == "of" || of.text == "for") {
		if t := next(chunkList(b.q.cs).index(of) + 1); t.isTable() {
			if tb, err := b.tableOf(t); err == nil && slices.ContainsFunc(c.columns(), func(col *column) bool { return col.t == tb }) {
				return tb
			}
		}
	}
	if i > 0 {
		if t := b.q.cs[i-1]; t.isTable() {
			if tb, err := b.tableOf(t); err == nil && slices.ContainsFunc(c.columns(), func(col *column) bool { return col.t == tb }) {
				return tb
			}
		}
	}
	return nil
}

// ofTable is the table named right after a column chunk by "of" ("the
// name of the lodger"), whatever columns it has, or nil.
func (b *clauseBinder) ofTable(c *chunk) *table {
	cs := chunkList(b.q.cs)
	k := cs.index(c) + 1
	for k < len(cs) && cs[k].kind == ckWord && softWords[cs[k].text] {
		k++
	}
	if k >= len(cs) || cs[k].kind != ckWord || cs[k].text != "of" {
		return nil
	}
	for k++; k < len(cs) && cs[k].kind == ckWord && softWords[cs[k].text]; k++ {
	}
	if k >= len(cs) || !cs[k].isTable() || cs[k].isColumn() {
		return nil
	}
	t, err := b.tableOf(cs[k])
	if err != nil {
		return nil
	}
	return t
}

// reachable: the root joins t many-to-one (or t is the root).
func (b *clauseBinder) reachable(t *table) bool {
	_, ok := b.m.reach(b.root, t)
	return ok
}

// notLinked is the decline for a table the root cannot join many-to-one:
// linked in more than one way (a final decline: which link is meant?), or
// not at all.
func (b *clauseBinder) notLinked(t *table, what string) error {
	if _, amb := b.m.paths(b.root); amb[t] {
		return finalDecline("%s is linked to %s in more than one way (through different tables), and I don't know which link you mean", b.root.name, t.name)
	}
	return notMine("%s is not linked to %s many-to-one, so %s", t.name, b.root.name, what)
}

// need joins t to the root; false when it cannot be joined many-to-one.
func (b *clauseBinder) need(t *table) bool {
	if !b.js.need(b.m, t) {
		return false
	}
	b.tables[t] = true
	return true
}

// rowSels shows cols of t, then t's name of several columns joined, when
// it has one: how the binder shows rows.
func (b *clauseBinder) rowSels(t *table, cols []*column) []selItem {
	var out []selItem
	for _, c := range cols {
		out = append(out, selItem{e: expr{kind: eCol, col: c}, alias: c.name})
	}
	if name, ok := b.nameOf(t); ok {
		out = append(out, name)
	}
	if a := t.alsoNamed; a != nil && slices.Equal(cols, t.label) {
		out = append(out, selItem{e: expr{kind: eCol, col: a}, alias: a.name})
	}
	if c := ownCode(t); c != nil && len(cols) > 0 && slices.Equal(cols, b.labelCols(t)) {
		out = append(out, selItem{e: expr{kind: eCol, col: c}, alias: c.name}) // two kiosks called Pier Head: K02 and K05
	}
	return out
}

// theirWords join the rows asked about to columns of their own shown
// beside them ("the kiosks with their opening date").
var theirWords = setOf("with their", "with its", "and their", "and its", "along with their", "along with its", "together with their", "together with its")

// withTheir shows the rows' name before the columns a list asks for
// beside them: "list the kiosks with their opening date" names each kiosk,
// not only the dates.
func (b *clauseBinder) withTheir(p *plan) error {
	s := b.q.subject
	if p.kind != pList || s == nil || b.subject != b.root || len(p.sels) == 0 {
		return nil
	}
	i := b.q.cs.index(s)
	if i < 0 || i+1 >= len(b.q.cs) || b.q.cs[i+1].kind != ckWord || !theirWords[b.q.cs[i+1].text] {
		return nil
	}
	label := b.labelCols(b.root)
	if len(label) == 0 {
		return nil
	}
	for _, sel := range p.sels {
		if sel.e.kind != eCol || sel.e.col.t != b.root || slices.Contains(label, sel.e.col) {
			return nil // a name shown already, or another table's column
		}
	}
	p.sels = append(p.sels, b.rowSels(b.root, label)...)
	return nil
}

// label is the expression naming a table's rows (its label columns).
func (b *clauseBinder) labelCols(t *table) []*column {
	if len(t.nameCols) > 0 {
		return t.nameCols
	}
	return t.label
}

// bindItems binds the select list.
func (b *clauseBinder) bindItems(p *plan) error {
	for _, it := range b.q.items {
		switch {
		case it.star:
			t := b.subject
			if it.t != nil {
				x, err := b.tableOf(it.t)
				if err != nil {
					return err
				}
				t = x
			}
			if !b.need(t) {
				return decline("%s is not linked to %s", t.name, b.root.name)
			}
			for _, c := range t.cols {
				p.sels = append(p.sels, selItem{e: expr{kind: eCol, col: c}, alias: c.name})
			}
		case it.when:
			col := it.date
			if col == nil && it.event != nil {
				col = b.dateNamed(it.event)
			}
			if col == nil {
				col = b.verbDate()
			}
			forms := append(slices.Clone(it.event), b.verbForms()...)
			if col == nil && b.dateNamedElsewhere(forms) {
				// "when was a crate ordered": the order's date, not the
				// crate's own
				return notMine("\"when\": the date the verb names is not one of %s", b.subject.name)
			}
			if col == nil {
				col = b.datedColumn(b.subject)
				if col != nil && len(forms) > 0 && birthNamed(col) && !slices.Contains(forms, "born") {
					// "when did each rigger first sail": not the day they
					// were born
					return notMine("\"when\": %s is a birth date, and the verb is not being born", col.ref())
				}
			}
			if col == nil || !b.need(col.t) {
				return notMine("\"when\": I can't tell which date of %s is asked", b.subject.name)
			}
			if it.year && !yearColumn(col) {
				return notMine("a year is asked, and %s holds whole dates", col.ref())
			}
			b.resolve("when", "column", col.ref())
			p.sels = append(p.sels, selItem{e: expr{kind: eCol, col: col}, alias: col.name})
		case it.key:
			k := b.subject.key
			if k == nil || !b.need(b.subject) {
				return notMine("%s has no single key column", b.subject.name)
			}
			p.sels = append(p.sels, selItem{e: expr{kind: eCol, col: k}, alias: k.name})
		case it.col != nil && b.labelItem(p, it.col):
			// "the name of the musician": first and last name
		case it.col != nil:
			c, err := b.column(it.col, b.subject)
			if err != nil {
				return err
			}
			if weakPart(it.col, c) {
				return notMine("%q is only a part of the name %s", it.col.text, c.ref())
			}
			if c.fk != nil && c.fk.ref.numeric && len(b.labelCols(c.fk.to)) > 0 && !b.namesKey(c) {
				// "the courier on delivery 7": the courier's name, through
				// this very key — not the number that points at it
				return notMine("%s refers to %s, whose name I would have to show through it", c.ref(), c.fk.to.name)
			}
			if v := b.valueOf(it); v != nil && !valueRows(v, c.t) {
				// "the name of the head chef of X": the name of a row that
				// is a head chef, not of the X the question names
				return notMine("%q of %q: %s is not of the rows %q names", it.col.text, v.text, c.ref(), v.text)
			}
			if !b.need(c.t) {
				return notMine("%s is not linked to %s many-to-one, so its %s cannot be shown beside each row", c.t.name, b.root.name, c.name)
			}
			b.resolve(it.col.text, "column", c.ref())
			p.sels = append(p.sels, selItem{e: expr{kind: eCol, col: c}, alias: c.name})
			if n, ok := b.refName(c); ok {
				// "the home mast of each rower": the code, and the name of
				// the mast it stands for
				p.sels = append(p.sels, n)
			}
		case it.agg != nil:
			e, err := b.aggExpr(it.agg)
			if err != nil {
				return err
			}
			if e.kind == eAgg && e.fn == "COUNT" && e.distinct && e.col.fk != nil && it.agg.arg != nil && namesRowsOf(it.agg.arg.text, e.col.t) {
				// "count the tickets issued by X": the tickets, not how
				// many issuers they have
				e = expr{kind: eCountAll}
			}
			if e.kind == eAgg && e.fn == "COUNT" && e.distinct && e.col.kind == catalog.KindFlag {
				// "how many drivers" of a yes/no driver column: the rows
				// that are, not its two values
				c, err := flagCond(e.col, false)
				if err != nil {
					return err
				}
				p.where = append(p.where, c)
				b.filtered[e.col] = true
				e = expr{kind: eCountAll}
			}
			p.kind = pAggregate
			p.sels = append(p.sels, selItem{e: e, alias: aggAlias(e)})
		}
	}
	return nil
}

// namesRowsOf: a phrase opens with the plural of t's noun ("tickets
// sold by" of a ticket table's sold_by).
func namesRowsOf(phrase string, t *table) bool {
	ws, tw := strings.Fields(phrase), catalog.IdentifierWords(t.singular())
	if len(ws) < 2 || len(tw) == 0 {
		return false
	}
	return ws[0] != catalog.Singular(ws[0]) && catalog.Singular(ws[0]) == tw[len(tw)-1]
}

// namesKey: the question names the column as a key ("courier id", "the
// route code").
func (b *clauseBinder) namesKey(col *column) bool {
	for _, c := range b.q.cs {
		if c.role == "" || !slices.Contains(c.columns(), col) {
			continue
		}
		ws := strings.Fields(c.text)
		if keyNoun(ws[len(ws)-1]) {
			return true
		}
	}
	return false
}

// keyNoun: a word naming a key as such ("id", "code", "number", "no").
func keyNoun(w string) bool { return keyWords[w] || w == "code" || w == "number" || w == "no" }

// valueOf is the value chunk right after "<item> of (the)", or nil.
func (b *clauseBinder) valueOf(it *citem) *chunk {
	k := it.pos + 1
	if k >= len(b.q.cs) || b.q.cs[k].kind != ckWord || b.q.cs[k].text != "of" && b.q.cs[k].text != "of the" {
		return nil
	}
	for k++; k < len(b.q.cs) && b.q.cs[k].kind == ckWord && softWords[b.q.cs[k].text]; k++ {
	}
	if k < len(b.q.cs) && b.q.cs[k].onlyValue() {
		return b.q.cs[k]
	}
	return nil
}

// valueRows: the table t holds the value's rows, or rows that refer to
// them (a person of a job title).
func valueRows(v *chunk, t *table) bool {
	for _, m := range v.ms {
		if m.c == nil {
			continue
		}
		if m.c.t == t {
			return true
		}
		for _, c := range t.cols {
			if c.fk != nil && c.fk.to == m.c.t {
				return true
			}
		}
	}
	return false
}

// labelItem shows a table's name of several columns when a word names
// exactly those ("the name" of a table named by first and last name): each
// column and the two joined.
func (b *clauseBinder) labelItem(p *plan, c *chunk) bool {
	t := b.labelTable(c)
	if t == nil || !b.need(t) {
		return false
	}
	label := b.labelCols(t)
	p.sels = append(p.sels, b.rowSels(t, label)...)
	b.resolve(c.text, "columns", colNames(label))
	return true
}

// labelTable is the table whose name of several columns a word names
// exactly (the table beside it, else the subject), or nil.
func (b *clauseBinder) labelTable(c *chunk) *table {
	t := b.subject
	if bt := b.besideTable(c); bt != nil {
		t = bt // "the name of their garden": that table's
	}
	if t == nil {
		return nil
	}
	label := b.labelCols(t)
	if len(label) < 2 {
		return nil
	}
	var in []*column
	for _, col := range c.columns() {
		if col.t == t {
			in = append(in, col)
		}
	}
	if len(in) != len(label) || !sameColumns2(in, label) {
		return nil
	}
	return t
}

func (b *clauseBinder) isLabelChunk(c *chunk) bool { return b.labelTable(c) != nil }

func sameColumns2(a, c []*column) bool {
	for _, x := range a {
		if !slices.Contains(c, x) {
			return false
		}
	}
	return len(a) == len(c)
}

func aggAlias(e expr) string {
	switch e.kind {
	case eCountAll:
		return "count"
	case eAgg:
		if e.distinct {
			return strings.ToLower(e.fn) + "_distinct_" + e.col.name
		}
		return strings.ToLower(e.fn) + "_" + e.col.name
	}
	return "value"
}

// unitScale is what a column's values are divided by to be in the unit
// the question says (60 for hours of a minutes column), with the unit the
// column's name holds; ok false when either unit is unknown or they are
// of different kinds.
func unitScale(said string, c *column) (float64, string, bool) {
	to, ok := measureUnits[catalog.Singular(said)]
	from, held, ok2 := columnUnit(c)
	if !ok || !ok2 || to.kind != from.kind {
		return 0, "", false
	}
	return to.size / from.size, held, true
}

// aggExpr is an aggregate over the root's rows.
func (b *clauseBinder) aggExpr(a *cagg) (expr, error) {
	if a.unit != "" {
		c, err := b.unitColumn(b.root, a.unit)
		if err != nil {
			return expr{}, err
		}
		e := expr{kind: eAgg, fn: a.fn, col: c}
		if f, held, ok := unitScale(a.said, c); ok && f != 1 {
			// "how many hours" of a minutes column: divided by 60
			e.div = f
			b.assume = append(b.assume, fmt.Sprintf("%s holds %s: divided by %g for %s", c.ref(), held, f, a.said))
		}
		return e, nil
	}
	if a.arg == nil {
		return expr{kind: eCountAll}, nil
	}
	c, err := b.column(a.arg, b.root)
	if err != nil {
		return expr{}, err
	}
	if c.t != b.root {
		return expr{}, notMine("%s is not a column of %s", c.ref(), b.root.name)
	}
	if weakPart(a.arg, c) {
		return expr{}, notMine("%q is only a part of the name %s", a.arg.text, c.ref())
	}
	if a.fn == "SUM" || a.fn == "AVG" {
		if !c.numeric && !numericText(c) && !c.numberAsText() {
			return expr{}, decline("%s is not a number column: I can't %s it", c.ref(), strings.ToLower(fnWord(a.fn)))
		}
		if c.isKey() {
			return expr{}, decline("%s identifies rows: adding or averaging it means nothing", c.ref())
		}
	}
	if (a.fn == "MAX" || a.fn == "MIN") && !c.numeric && !c.numberAsText() && !c.dateType && c.kind != catalog.KindDate && c.dateFmt == "" {
		// "the highest rent" of a text column: compared as text, "9" > "10"
		return expr{}, notMine("%s is stored as text: its %s would be compared letter by letter", c.ref(), strings.ToLower(fnWord(a.fn)))
	}
	b.resolve(a.arg.text, "column", c.ref())
	return expr{kind: eAgg, fn: a.fn, col: c, distinct: a.distinct}, nil
}

// numericText: a text column whose known values are all numbers.
func numericText(c *column) bool {
	if c.numeric || len(c.values) == 0 {
		return false
	}
	for _, v := range c.values {
		if _, ok := parseNumber(v); !ok {
			return false
		}
	}
	return true
}

// bindGroups groups by the columns or tables named.
func (b *clauseBinder) bindGroups(p *plan) error {
	if len(b.q.groups) == 0 {
		return nil
	}
	if p.kind != pAggregate && (b.q.rankBy == nil || b.q.rankBy.agg == nil) {
		return decline("grouping needs something to count or compute per group").withHint("e.g. the number of rows for each followed by a column")
	}
	var front []selItem
	for _, g := range b.q.groups {
		if gt := b.groupTable(g); gt != nil {
			if err := b.groupByTable(p, gt, &front); err != nil {
				return err
			}
			continue
		}
		if g.isColumn() {
			c, err := b.column(g, b.root)
			if err != nil {
				return err
			}
			if grainWords[g.text] && c.t != b.root && b.root.date != nil {
				// "rents in each year" of leases: their own date's year,
				// not a tenant's birth year (the analyst reading cuts the date)
				return notMine("%q could be the year of the rows' own date or %s", g.text, c.ref())
			}
			if c.fk != nil && b.reachable(c.fk.to) {
				// "per support rep": the rows the key points to, by name
				if err := b.groupByTable(p, c.fk.to, &front); err != nil {
					return err
				}
				continue
			}
			if !b.need(c.t) {
				return b.notLinked(c.t, "it cannot group its rows")
			}
			p.groupBy = append(p.groupBy, expr{kind: eCol, col: c})
			b.resolve(g.text, "column", c.ref())
			if !selects(p, c) {
				front = append(front, selItem{e: expr{kind: eCol, col: c}, alias: c.name})
				if n, ok := b.refName(c); ok {
					front = append(front, n) // "routes by home mast": each mast's name too
				}
			}
			continue
		}
		t, err := b.tableOf(g)
		if err != nil {
			return err
		}
		if t == b.root {
			// "average price per reservation", the rows averaged
			return notMine("%q names the rows computed over", g.text)
		}
		if err := b.groupByTable(p, t, &front); err != nil {
			return err
		}
	}
	p.kind = pAggregate
	p.sels = append(front, p.sels...)
	return nil
}

// groupTable is the table a group chunk names, when it names one the
// root reaches many-to-one ("per T": the T rows, not
// the foreign key pointing at them).
func (b *clauseBinder) groupTable(g *chunk) *table {
	if !g.isTable() {
		return nil
	}
	t, err := b.tableOf(g)
	if err != nil || t == b.root || !b.reachable(t) {
		return nil
	}
	return t
}

// groupByTable groups by a table's key and shows its label (unless the
// question shows columns of it already).
func (b *clauseBinder) groupByTable(p *plan, t *table, front *[]selItem) error {
	if t.key == nil {
		return decline("%s has no key to group its rows by", t.name)
	}
	if !b.need(t) {
		return b.notLinked(t, "it cannot group its rows")
	}
	p.groupBy = append(p.groupBy, expr{kind: eCol, col: t.key})
	shown := false
	for _, s := range p.sels {
		if s.e.kind == eCol && s.e.col.t == t {
			shown = true
		}
	}
	if shown {
		for _, s := range p.sels {
			if s.e.kind == eCol && s.e.col.t == t && s.e.col != t.key {
				p.groupBy = append(p.groupBy, s.e)
			}
		}
		return nil
	}
	for _, c := range b.shownOf(t) {
		if c != t.key {
			p.groupBy = append(p.groupBy, expr{kind: eCol, col: c})
		}
		*front = append(*front, selItem{e: expr{kind: eCol, col: c}, alias: c.name})
	}
	if name, ok := b.nameOf(t); ok {
		*front = append(*front, name)
	}
	return nil
}

func selects(p *plan, c *column) bool {
	for _, s := range p.sels {
		if s.e.kind == eCol && s.e.col == c {
			return true
		}
	}
	return false
}

// finish: a list of one table's label when nothing else is shown,
// distinct, and the semi-joins for conditions on related tables.
// bindPercent makes the count of a percentage question a share: the
// question's one condition counts the part, every row the whole ("what
// percentage of the orders are paid"). With two conditions, which is the
// part and which the whole is not said.
func (b *clauseBinder) bindPercent(p *plan) error {
	pc := b.q.percent
	if pc == nil {
		return nil
	}
	i := slices.IndexFunc(p.sels, func(s selItem) bool { return s.e.kind == eCountAll })
	switch {
	case p.kind != pAggregate || i < 0 || len(p.having) > 0 || p.limit > 0:
		return decline("%q: I can only give the share of rows meeting a condition", pc.text).
			withHint("e.g. what percentage of the orders are paid")
	case len(p.where) == 0:
		return decline("%q: a share of which rows? name a condition", pc.text).
			withHint("e.g. what percentage of the orders are paid")
	case len(p.where) > 1:
		return decline("%q with %d conditions: which rows are the part and which the whole?", pc.text, len(p.where)).
			withHint("ask with one condition, e.g. what percentage of the orders are paid")
	}
	p.sels[i] = selItem{e: expr{kind: ePercent, conds: p.where}, alias: "percentage"}
	p.where = nil
	return nil
}

func (b *clauseBinder) finish(p *plan) error {
	if b.countBy != nil {
		if err := b.groupByCount(p); err != nil {
			return err
		}
	}
	if len(p.sels) == 0 {
		// no column named: the rows themselves, every column
		if b.q.distinct && (b.q.subject == nil || !b.q.subject.isTable()) {
			// "the distinct lagers" where lager is a value of some rows'
			// kind: every row is distinct; the different values of which
			// column?
			return decline("%q rows are each distinct: which column's different values?", "distinct").
				withHint("name the column, e.g. the different names of %s", b.subject.name)
		}
		if !b.need(b.subject) {
			return decline("%s is not linked to %s", b.subject.name, b.root.name)
		}
		if err := linkRowsOnly(b.subject); err != nil {
			return err
		}
		p.sels = append(p.sels, b.rowSels(b.subject, b.subject.cols)...)
		b.assume = append(b.assume, fmt.Sprintf("no column named: every column of %s shown", b.subject.name))
	}
	if p.kind == pAggregate {
		for _, g := range p.groupBy {
			if g.kind == eCol && g.col.fk != nil && g.col.fk.ref.numeric && len(b.labelCols(g.col.fk.to)) > 0 && !b.namesKey(g.col) {
				// "which courier has the most deliveries": the courier's
				// name, through this very key — not the key alone
				return notMine("%s refers to %s, whose name I would have to show through it", g.col.ref(), g.col.fk.to.name)
			}
		}
		for _, s := range p.sels {
			if s.e.kind == eCol && !grouped(p, s.e.col) {
				return finalDecline("%s is shown beside an aggregate without a grouping by it", s.e.col.ref()).
					withHint("ask for the aggregate alone, or for each value of %s", s.e.col.name)
			}
		}
	}
	if b.q.perRow != nil && p.kind != pAggregate && len(p.sels) > 0 {
		// "which region is each vineyard in": each vineyard named beside its region
		if t, err := b.rowsOf(b.q.perRow); err == nil && t != b.root && b.reachable(t) {
			// "the takings for each stall type" over receipts: several receipts
			// per stall type, one answer per stall type promised
			return decline("%q: %s has several rows for each, and I read no figure to sum them up by", b.q.perRow.text, b.root.name).
				withHint("ask for the total or the number for each %s", b.q.perRow.text)
		}
		if t, err := b.rowsOf(b.q.perRow); err == nil && b.reachable(t) && b.need(t) {
			var front []selItem
			cols := b.shownOf(t)
			if len(b.labelCols(t)) == 0 {
				cols = t.cols // no name to show it by: the whole row
				for _, s := range p.sels {
					if s.e.kind == eCol && s.e.col.t == t && s.e.col.pk && singlePK(t) {
						cols = nil // its own key is shown: that names each row
					}
				}
			}
			for _, c := range cols {
				if !selects(p, c) {
					front = append(front, selItem{e: expr{kind: eCol, col: c}, alias: c.name})
				}
			}
			p.sels = append(front, p.sels...)
			for i := range p.order {
				if p.order[i].sel >= 0 {
					p.order[i].sel += len(front) // still the column it ordered by
				}
			}
		}
	}
	perRow := b.q.perRow != nil
	if (b.q.distinct || b.q.whichCol != nil && len(b.q.items) > 0 && !perRow || b.kindsOnly(p) && !perRow) && p.kind != pAggregate {
		p.distinct = true
		if len(p.order) == 0 {
			for i := range p.sels {
				p.order = append(p.order, orderItem{sel: i}) // the kinds in order
			}
		}
	}
	if err := b.defaults(p); err != nil {
		return err
	}
	return b.semiJoins(p)
}

// kindsOnly: the question lists values of categorical columns and names
// no table ("list categories", "what regions are there"): the kinds, once
// each.
func (b *clauseBinder) kindsOnly(p *plan) bool {
	if len(b.namedTables()) > 0 || len(p.sels) == 0 {
		return false
	}
	for _, o := range p.order {
		if o.sel < 0 && !(o.e.kind == eCol && selects(p, o.e.col)) {
			return false // ordered by something not shown: the rows
		}
	}
	if b.q.cs.saysEach() {
		return false // "every account holder": each row's
	}
	for _, s := range p.sels {
		c := s.e.col
		if s.e.kind != eCol || c.isKey() || slices.Contains(b.labelCols(c.t), c) {
			return false
		}
		if c.kind != catalog.KindAttribute || len(c.values) == 0 && !c.valueSet {
			return false // a kind the catalog knows the values of ("all kiosk makes")
		}
	}
	return true
}

// defaults applies the catalog's default filters when rows are counted or
// aggregated (docs/contracts.md §5): of the root and of the tables it
// reaches many-to-one, unless the question filters that column itself.
func (b *clauseBinder) defaults(p *plan) error {
	if p.kind != pAggregate {
		return nil
	}
	ps, _ := b.m.paths(b.root)
	for _, t := range append([]*table{b.root}, sortedTables(ps)...) {
		f := t.defFilter
		if f == nil || b.filtered[f.col] || t != b.root && len(ps[t]) == 0 {
			continue
		}
		if !b.need(t) {
			return decline("%s can't be joined to %s to leave out what its default filter excludes (%s)", t.name, b.root.name, f.col.ref())
		}
		c := &cond{kind: cValues, e: expr{kind: eCol, col: f.col}}
		vals, word := f.include, "only"
		if len(f.exclude) > 0 {
			c.neg, vals, word = true, f.exclude, "excluding"
		}
		for _, v := range vals {
			c.values = append(c.values, v)
		}
		p.where = append(p.where, c)
		note := fmt.Sprintf("%s %s %s %s (catalog default)", word, strings.Join(vals, ", "), t.phrase(), catalog.IdentifierPhrase(f.col.name))
		if f.why != "" {
			note += ": " + f.why
		}
		b.assume = append(b.assume, note)
	}
	// what was counted: every status of the rows, when none is filtered
	noted := map[*table]bool{}
	for _, t := range append([]*table{b.root}, joinedTables(b.js)...) {
		if t.defFilter != nil || noted[t] {
			continue
		}
		noted[t] = true
		for _, c := range statusColumns(t) {
			if !b.filtered[c] {
				b.assume = append(b.assume, fmt.Sprintf("all %s values counted (%s): %s", catalog.IdentifierPhrase(c.name), c.ref(), strings.Join(c.values, ", ")))
			}
		}
	}
	return nil
}

// groupByCount groups the linked rows by the subject (its key and what
// is shown of it, else its key and label), keeps the groups with the
// number of rows asked, and shows that number.
func (b *clauseBinder) groupByCount(p *plan) error {
	s := b.subject
	if b.root == s {
		// grouped by the values shown
		for _, sel := range p.sels {
			if sel.e.kind != eCol {
				return decline("%s is not a value to group by", sel.alias)
			}
			p.groupBy = append(p.groupBy, sel.e)
		}
		e, err := b.countByExpr()
		if err != nil {
			return err
		}
		cd := b.countBy
		p.having = append(p.having, &cond{kind: cCmp, e: e, op: cd.op, a: cd.a, b: cd.b})
		p.sels = append(p.sels, selItem{e: e, alias: aggAlias(e)})
		p.kind = pAggregate
		return nil
	}
	if s.key == nil || !b.need(s) {
		return decline("%s has no key to count its linked rows by", s.name)
	}
	if len(p.sels) == 0 {
		p.sels = b.rowSels(s, b.shownOf(s))
	}
	p.groupBy = append(p.groupBy, expr{kind: eCol, col: s.key})
	for _, sel := range p.sels {
		if sel.e.kind == eLabel {
			p.groupBy = append(p.groupBy, groupByExprs(sel.e)...)
			continue
		}
		if sel.e.kind != eCol || sel.e.col == s.key {
			continue
		}
		if sel.e.col.t != s {
			return decline("%s is not one value per %s row", sel.e.col.ref(), s.name)
		}
		p.groupBy = append(p.groupBy, sel.e)
	}
	e, err := b.countByExpr()
	if err != nil {
		return err
	}
	cd := b.countBy
	p.having = append(p.having, &cond{kind: cCmp, e: e, op: cd.op, a: cd.a, b: cd.b})
	p.sels = append(p.sels, selItem{e: e, alias: aggAlias(e)})
	p.kind = pAggregate
	return nil
}

// keysTo are the foreign keys of from that point at to.
func keysTo(from, to *table) []*column {
	var keys []*column
	for _, c := range from.cols {
		if c.fk != nil && c.fk.to == to {
			keys = append(keys, c)
		}
	}
	return keys
}

// ownColumns are t's columns that are not keys to other rows: what a row
// with no name to show it by is known by.
func ownColumns(t *table) []*column {
	var out []*column
	for _, c := range t.cols {
		if c.fk == nil {
			out = append(out, c)
		}
	}
	return out
}

// countByExpr is what the kept groups are compared by: how many rows, or
// an aggregate of a column of them.
func (b *clauseBinder) countByExpr() (expr, error) {
	cd := b.countBy
	if cd.fn == "" && b.countRows != nil && b.countRows != b.root {
		// "shows at more than one venue": the venues the shows reach,
		// each once, not the shows
		keys := keysTo(b.root, b.countRows)
		if len(keys) != 1 {
			return expr{}, decline("%s reaches %s through %s, and I can't tell how to count them", b.subject.name, b.countRows.name, b.root.name)
		}
		return expr{kind: eAgg, fn: "COUNT", distinct: true, col: keys[0]}, nil
	}
	if cd.fn == "" {
		return expr{kind: eCountAll}, nil
	}
	return b.aggExpr(&cagg{fn: cd.fn, arg: cd.col})
}

// shownOf are the columns showing a table's rows when the question names
// none: its key and label.
func (b *clauseBinder) shownOf(t *table) []*column {
	var out []*column
	if t.key != nil {
		out = append(out, t.key)
	}
	if c := codeReferenced(t); c != nil {
		out = append(out, c) // the code other rows name it by ('U12'), beside its id
	}
	for _, c := range b.labelCols(t) {
		out = appendUnique(out, c)
	}
	if a := t.alsoNamed; a != nil && len(t.nameCols) == 0 {
		out = appendUnique(out, a) // a common name beside the formal one
	}
	if d := codeDescription(t); len(out) == 1 && d != nil {
		// a codes table: its code and what the code stands for
		out = append(out, d)
	}
	if code, d := codeMeaning(t); d != nil {
		// a numbered codes table: the code and its meaning
		out = appendUnique(appendUnique(out, code), d)
	}
	if d := unnamedDate(t); d != nil && len(out) == 1 {
		out = append(out, d) // a market day, named by nothing but its date
	}
	if t.namesRepeat && t.date != nil && len(out) > 1 {
		// two rows named alike: the date tells them apart
		out = appendUnique(out, t.date)
	}
	if (len(out) == 1 && out[0] == t.key || t.namesRepeat) && !t.view {
		// no name, code or date to know its rows by (a kiosk known by
		// its maker and model), or a name two rows share: its own
		// columns, not a bare number
		for _, c := range ownColumns(t) {
			out = appendUnique(out, c)
		}
	}
	return out
}

// unnamedDate is the date of a table of days others refer to that has no
// name, code or description of its own (a market day, a session): what a
// reader knows its rows by; nil otherwise (an order is not known by its
// date).
func unnamedDate(t *table) *column {
	if t.date == nil || !dayNouns[t.lastWord] || len(t.label) > 0 || len(t.nameCols) > 0 || len(t.in) == 0 || codeDescription(t) != nil || codeReferenced(t) != nil {
		return nil
	}
	return t.date
}

// dayNouns name a table whose rows are days or sittings.
var dayNouns = setOf("day", "date", "night", "evening", "session", "shift", "meeting", "sitting")

// codeReferenced is a text column of t other than its key that foreign
// keys of other tables point to (rows refer to an age group by its code,
// not its id): the name the rows are known by elsewhere; nil when none
// or several.
func codeReferenced(t *table) *column {
	var found *column
	for _, e := range t.in {
		if e.ref == t.key || e.ref.numeric || e.from == t {
			continue
		}
		if found != nil && found != e.ref {
			return nil
		}
		found = e.ref
	}
	if found == nil {
		return ownCode(t)
	}
	return found
}

// ownCode is the code people name a labelled row by beside its number key
// (a kiosk's code 'K04', an asset tag): its only text column
// called a code, tag or ref, alone or after the table's own noun. Two rows
// may share a name; the code tells them apart.
func ownCode(t *table) *column {
	if t.key == nil || !t.key.numeric || len(t.label) == 0 && codeDescription(t) != nil {
		return nil // a table of codes is shown by what each code stands for
	}
	own := catalog.IdentifierWords(t.singular())
	var found *column
	for _, c := range t.cols {
		ws := catalog.IdentifierWords(c.name)
		if c.numeric || c.isKey() || len(ws) == 0 || !codeWords[ws[len(ws)-1]] || slices.Contains(t.label, c) {
			continue
		}
		if before := ws[:len(ws)-1]; len(before) > 0 && !slices.Equal(before, own) && !(len(before) == 1 && before[0] == "asset") {
			continue
		}
		if found != nil {
			return nil
		}
		found = c
	}
	return found
}

var codeWords = setOf("code", "tag", "ref")

// birthNamed: a date column of when the rows were born ("birth_dt",
// "dob", "BornAt").
func birthNamed(c *column) bool { return anyIn(catalog.IdentifierWords(c.name), birthWords) }

var birthWords = setOf("born", "birth", "dob", "birthday", "birthdate")

// linkRowsOnly declines a list of a link table's rows (its number keys,
// no name of its own: "the entrants of the kite contest"), or is nil.
func linkRowsOnly(t *table) error {
	to := linkTargets(t)
	if len(to) < 2 || len(t.label) > 0 || len(t.nameCols) > 0 {
		return nil
	}
	return decline("%s rows link %s; they have no name of their own", t.name, strings.Join(to, " and ")).
		withHint("ask for the %s rows linked to it, e.g. the %s in ...", to[0], to[0])
}

// linkTargets are the tables a link table's keys point to (a table whose
// columns are number keys to other tables and at most one more: its rows
// show nothing but ids), or nil.
func linkTargets(t *table) []string {
	var to []string
	other := 0
	for _, c := range t.cols {
		switch {
		case c.fk != nil && c.fk.to != t && !c.fk.ref.numeric:
			return nil // a text key ("7A") says what it points to
		case c.fk != nil && c.fk.to != t:
			to = append(to, c.fk.to.name)
		case !c.isKey():
			other++
		}
	}
	if other > 1 {
		return nil
	}
	return to
}

// codeDescription is the one description column of a table keyed by a
// text code with no name of its own ("kiosk_type": kind_code, kind_desc),
// or nil.
func codeDescription(t *table) *column {
	if t.key == nil || t.key.numeric || len(t.label) > 0 || len(t.nameCols) > 0 {
		return nil
	}
	return oneDescription(t)
}

// oneDescription is t's one text column called a description ("desc",
// "descr"), not its key; nil when none or several.
func oneDescription(t *table) *column {
	var found *column
	for _, c := range t.cols {
		ws := catalog.IdentifierWords(c.name)
		if c == t.key || c.numeric || c.boolean || c.dateType || len(ws) == 0 {
			continue
		}
		if h := ws[len(ws)-1]; h == "desc" || h == "descr" || h == "description" {
			if found != nil {
				return nil
			}
			found = c
		}
	}
	return found
}

// codeMeaning is the code and the description of a table whose rows are
// named by a code beside a number key (id, code, description): the code
// and what it stands for, shown together. Nils when the rows' name is not
// one code column or the table has no single description.
func codeMeaning(t *table) (code, desc *column) {
	if t.key == nil || !t.key.numeric || len(t.label) > 1 || len(t.nameCols) > 0 || t.alsoNamed != nil {
		return nil, nil
	}
	code = ownCode(t)
	if len(t.label) == 1 {
		code = t.label[0]
	}
	if code == nil && len(t.label) == 0 {
		code = t.column("code") // no name at all: a table of codes
	}
	if code == nil {
		return nil, nil
	}
	if ws := catalog.IdentifierWords(code.name); len(ws) == 0 || ws[len(ws)-1] != "code" {
		return nil, nil
	}
	if d := oneDescription(t); d != nil {
		return code, d
	}
	return nil, nil
}

// refName is the name of the row a text key column points at ("the home
// mast": mast 'KRL', and the mast's name), when that row has a name the
// question does not ask for by the key's own name; ok false otherwise.
func (b *clauseBinder) refName(c *column) (selItem, bool) {
	if c.fk == nil || c.fk.ref.numeric || c.fk.to == c.t || b.namesKey(c) {
		return selItem{}, false
	}
	label := b.labelCols(c.fk.to)
	if len(label) == 0 || slices.Contains(label, c.fk.ref) {
		return selItem{}, false
	}
	return selItem{e: expr{kind: eRefLabel, col: c, cols: label}, alias: catalog.IdentifierPhrase(c.name) + " name"}, true
}

// nameOf is a table's label as one expression: its name column, or its
// name columns joined with a space ("Forename Surname"); ok false when
// it has no label of several columns.
func (b *clauseBinder) nameOf(t *table) (selItem, bool) {
	label := b.labelCols(t)
	if len(label) < 2 {
		return selItem{}, false
	}
	return selItem{e: expr{kind: eLabel, cols: label}, alias: t.singular() + " name"}, true
}

func parseNumber(s string) (float64, bool) {
	toks := tokenize(strings.TrimSpace(s))
	if len(toks) != 1 || !toks[0].isNum || toks[0].text != strings.TrimSpace(s) {
		return 0, false
	}
	return toks[0].num, true
}

// yearRange is the calendar year y.
func yearRange(y int) *dateRange {
	s := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
	return &dateRange{start: s, end: s.AddDate(1, 0, 0), phrase: fmt.Sprint(y)}
}

// yearColumn: a number column holding years ("launch_year", "yr",
// "founded", "year sown").
func yearColumn(c *column) bool {
	ws := catalog.IdentifierWords(c.name)
	return (c.numeric || numericText(c)) && len(ws) > 0 && (ws[len(ws)-1] == "year" || ws[len(ws)-1] == "yr" ||
		len(ws) == 1 && participle(ws[0]) || len(ws) == 2 && (ws[0] == "year" || ws[0] == "yr") && participle(ws[1])) ||
		c.dateFmt == catalog.DateYear
}
