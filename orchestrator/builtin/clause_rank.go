package builtin

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"talk2tables/catalog"
)

// bindRank orders by the superlative and cuts: "the youngest T" (by a
// column), "the T with the most U" (by how many rows each
// has, grouped by the ranked rows).
func (b *clauseBinder) bindRank(p *plan) error {
	o := b.q.rankBy
	if o == nil {
		return nil
	}
	p.limit, p.offset = max(b.q.limit, 1), b.q.offset
	if o.agg != nil {
		return b.rankByAggregate(p, o)
	}
	var col *column
	switch {
	case o.colDirect != nil:
		col = o.colDirect
	case o.verb && (b.verbDate() != nil || o.col == nil):
		c := b.verbDate()
		if c == nil {
			return notMine("I can't tell which date the verb names")
		}
		col = c
	case o.col != nil:
		var prefer *table
		if b.q.ranked != nil {
			prefer, _ = b.tableOf(b.q.ranked)
		}
		c, err := b.column(o.col, prefer, b.subject)
		if err != nil {
			return err
		}
		if err := b.halfNamed(o.col, c); err != nil {
			return err
		}
		col = c
	default:
		t := b.subject
		if o.of != nil {
			x, err := b.tableOf(o.of)
			if err != nil {
				return err
			}
			t = x
		}
		c, err := b.unitColumn(t, o.unit)
		if err != nil {
			return err
		}
		col = c
	}
	if !b.need(col.t) {
		return notMine("%s is not linked to %s many-to-one, so it cannot rank its rows", col.t.name, b.root.name)
	}
	if b.q.whichCol != nil && b.q.ranked == nil {
		// "which region has the highest revenue": a total per region?
		return notMine("%q ranks values of %s by %s", o.src(), b.q.whichCol.text, col.ref())
	}
	if p.kind == pAggregate {
		return decline("a ranking beside an aggregate (%s) is not answered offline", o.src()).withHint("ask for the ranked rows, or the aggregate, one at a time")
	}
	if unknownText(col) && o.unit != unitAlpha {
		return decline("%s is stored as text and I can't tell whether it holds numbers, so I can't rank it by size", col.ref()).
			withHint("a catalog that marks it as a measure lets me compare it as a number")
	}
	if o.unit == unitDate && !dateOrYear(col) {
		// "the most recent check" ranked by a yes/no or a number: "most
		// recent" speaks of a date
		return decline("%q speaks of a date, and %s holds none", o.src(), col.ref()).
			withHint("name the date to rank by")
	}
	b.resolve(o.src(), "column", col.ref())
	desc := o.dir > 0
	if o.unit == unitAge && dateOrYear(col) {
		desc = !desc // the oldest was born first, or built first (year_built)
	}
	if u, _, ok := columnUnit(col); o.unit == unitDuration && dateOrYear(col) && !(ok && u.kind == "time") {
		// "the longest-serving keeper" ranked by a date or a year: the
		// longest ago, the earliest; "shortest" the latest
		desc = !desc
	}
	ranked := expr{kind: eCol, col: col, cast: col.textNumber()}
	if rows := b.pluralRanked(); rows != nil && !b.q.limitSaid && b.q.offset == 0 {
		// "which ferries have the fewest cabins": every ferry at the fewest,
		// not one of them
		if len(p.where) > 0 || len(b.q.conds) > 0 {
			return decline("%q ranked by %s with conditions: every one at the top among the rows kept is not answered offline", rows.text, col.ref()).
				withHint("ask for the top 1, or for the %s without conditions", rows.text)
		}
		fn := "MIN"
		if desc {
			fn = "MAX"
		}
		p.where = append(p.where, &cond{kind: cSubAgg, e: ranked, op: "=", fn: fn, e2: ranked})
		p.limit = 0
	}
	if b.q.offset > 0 {
		// "the second highest tide": the second of the distinct values
		// (a tie at the top is one value), every row holding it
		if len(p.where) > 0 || len(b.q.conds) > 0 {
			return decline("the %s place with conditions is not answered offline", ordinalWord(b.q.offset+1)).
				withHint("ask for the top rows in order and read the %s", ordinalWord(b.q.offset+1))
		}
		op := "asc"
		if desc {
			op = "desc"
		}
		p.where = append(p.where, &cond{kind: cNth, e: ranked, op: op, a: float64(b.q.offset)})
		p.limit, p.offset = 0, 0
		if len(p.sels) == 1 && p.sels[0].e.kind == eCol && p.sels[0].e.col == col {
			p.distinct = true // the value once, however many rows hold it
		}
		return nil
	}
	p.where = append(p.where, &cond{kind: cNotNull, e: expr{kind: eCol, col: col}})
	p.order = append(p.order, orderItem{sel: -1, e: ranked, desc: desc})
	if k := col.t.key; k != nil && k != col && !b.q.distinct {
		// ties in a stable order: by the key, the latest first for dates
		p.order = append(p.order, orderItem{sel: -1, e: expr{kind: eCol, col: k}, desc: desc && (o.unit == unitDate || col.kind == catalog.KindDate)})
	}
	if len(p.sels) > 0 && !selects(p, col) && !b.q.distinct {
		// the value ranked by, beside what is asked
		p.sels = append(p.sels, selItem{e: expr{kind: eCol, col: col}, alias: col.name})
	}
	if t := col.t; len(p.sels) > 0 && !b.q.distinct && (!showsLabel(p, b.labelCols(t)) || len(b.labelCols(t)) == 0 && b.namesTable(t) && !selects(p, t.key)) && b.reachable(t) {
		// "the 3 wines with the fewest bottles, with their bottles": which
		// rows; rows with no name ("the 3 masts with the most hauls") by
		// what else they hold
		var front []selItem
		for _, c := range b.shownOf(t) {
			if !selects(p, c) {
				front = append(front, selItem{e: expr{kind: eCol, col: c}, alias: c.name})
			}
		}
		p.sels = append(front, p.sels...)
	}
	return nil
}

// halfNamed declines ranking by c, bound to the chunk ch, where ch names a
// column of the rows linking in more strongly ("the kiosk that sold the
// most crates": the crates of its sales, or its own crate rate the word
// only half names?).
func (b *clauseBinder) halfNamed(ch *chunk, c *column) error {
	other := b.strongerElsewhere(ch, c)
	if other == nil {
		return nil
	}
	return decline("%q names %s, and only in part %s", ch.text, other.ref(), c.ref()).
		withHint("name the column, e.g. the highest %s, or the total %s", c.phrase(), other.phrase())
}

// strongerElsewhere is a column of a table whose rows link to c's that
// the chunk names more strongly than c, the one bound ("crates" is
// sales.crates, and only in part crate_rate); nil when c is as strong as
// any, or the stronger one is of rows that do not link to c's (a type's
// minimum beside the row's own count).
func (b *clauseBinder) strongerElsewhere(ch *chunk, c *column) *column {
	mine, best := -100, -100
	var other *column
	for _, m := range ch.ms {
		if m.kind != mColumn {
			continue
		}
		if m.c == c {
			mine = max(mine, m.strength)
		} else if _, links := b.m.reach(m.c.t, c.t); m.c.t != c.t && links && m.strength > best {
			best, other = m.strength, m.c
		}
	}
	if mine == -100 || best <= mine || mine >= 0 {
		return nil
	}
	return other
}

// ordinalWord is "second" for 2, "third" for 3.
func ordinalWord(n int) string {
	for w, info := range clauseWords {
		if info.cw == cwOrdinal && info.n == n {
			return w
		}
	}
	return fmt.Sprintf("%dth", n)
}

// pluralRanked is the plural noun naming the ranked rows ("which ferries
// have the most cabins"), nil when they are named in the singular.
func (b *clauseBinder) pluralRanked() *chunk {
	rows := b.q.ranked
	if rows == nil {
		rows = b.q.which
	}
	if rows == nil {
		rows = b.q.subject
	}
	// "which towns have the most kiosks": values of a column named in the
	// plural tie at the top as rows do
	if rows == nil || !rows.isTable() && !(rows == b.q.whichCol && rows.isColumn()) {
		return nil
	}
	ws := strings.Fields(rows.text)
	if last := ws[len(ws)-1]; catalog.Singular(last) == last {
		return nil
	}
	return rows
}

// rankByAggregate groups by the ranked rows (a table's key, or a column)
// and orders by the aggregate.
func (b *clauseBinder) rankByAggregate(p *plan, o *corder) error {
	if rows := b.pluralRanked(); rows != nil && len(b.q.groups) == 0 && !b.q.limitSaid && b.q.offset == 0 {
		// "which ferries have the most sailings": every one tied at the
		// top, which a LIMIT 1 would cut
		return decline("%q ranked by a count or total: every one tied at the top is not answered offline", rows.text).
			withHint("ask for the top 1, or for the top few in order")
	}
	if b.fewest != nil {
		// every row with its number of linked rows, the fewest first
		if len(p.sels) == 0 {
			p.sels = b.rowSels(b.root, b.shownOf(b.root))
		}
		p.sels = append(p.sels, selItem{e: *b.fewest, alias: "count"})
		p.order = append(p.order, orderItem{sel: len(p.sels) - 1})
		if k := b.root.key; k != nil {
			p.order = append(p.order, orderItem{sel: -1, e: expr{kind: eCol, col: k}})
		}
		b.assume = append(b.assume, fmt.Sprintf("rows of %s without any %s count 0", b.root.name, b.fewest.col.t.name))
		return nil
	}
	if o.agg.linked {
		b.assume = append(b.assume, fmt.Sprintf("ranked by how many %s rows link to each %s row", b.root.name, b.subject.name))
	}
	e, err := b.aggExpr(o.agg)
	if err != nil {
		return err
	}
	if len(p.groupBy) == 0 {
		var owner *chunk
		for _, c := range []*chunk{b.q.ranked, b.q.which, b.q.whichCol} {
			if c != nil {
				owner = c
				break
			}
		}
		var front []selItem
		switch {
		case owner != nil && owner.isColumn() && !owner.isTable():
			c, err := b.column(owner, b.root)
			if err != nil {
				return err
			}
			if !b.need(c.t) {
				return decline("%s is not linked to %s many-to-one", c.t.name, b.root.name)
			}
			p.groupBy = append(p.groupBy, expr{kind: eCol, col: c})
			if !selects(p, c) {
				front = append(front, selItem{e: expr{kind: eCol, col: c}, alias: c.name})
			}
		default:
			t := b.subject
			if owner != nil {
				x, err := b.tableOf(owner)
				if err != nil {
					return err
				}
				t = x
			}
			if t == b.root {
				return decline("%q: the %s with the most what? name rows of another table", o.src(), t.name)
			}
			if err := b.groupByTable(p, t, &front); err != nil {
				return err
			}
		}
		p.sels = append(front, p.sels...)
	}
	p.kind = pAggregate
	p.order = append(p.order, orderItem{sel: -1, e: e, desc: o.dir > 0})
	for _, g := range p.groupBy {
		p.order = append(p.order, orderItem{sel: -1, e: g}) // ties in a stable order
	}
	if !slices.ContainsFunc(p.sels, func(s selItem) bool { return sameExpr(s.e, e) }) {
		// the figure ranked by, beside the rows ranked
		p.sels = append(p.sels, selItem{e: e, alias: aggAlias(e)})
	}
	return nil
}

// bindOrder adds the ORDER BY terms the question asks for.
func (b *clauseBinder) bindOrder(p *plan) error {
	for _, o := range b.q.order {
		item, err := b.orderItem(p, o)
		if err != nil {
			return err
		}
		p.order = append(p.order, item)
	}
	return nil
}

func (b *clauseBinder) orderItem(p *plan, o *corder) (orderItem, error) {
	desc := o.dir > 0
	switch {
	case o.agg != nil:
		if len(p.groupBy) == 0 {
			return orderItem{}, decline("ordering by %s needs groups to compute it for", o.src())
		}
		e, err := b.aggExpr(o.agg)
		if err != nil {
			return orderItem{}, err
		}
		return orderItem{sel: -1, e: e, desc: desc}, nil
	case o.col != nil:
		c, err := b.column(o.col, b.root, b.subject)
		if err != nil {
			return orderItem{}, err
		}
		if err := b.halfNamed(o.col, c); err != nil {
			return orderItem{}, err
		}
		if !b.need(c.t) {
			return orderItem{}, decline("%s is not linked to %s many-to-one, so it cannot order its rows", c.t.name, b.root.name)
		}
		if p.kind == pAggregate && !grouped(p, c) {
			return orderItem{}, decline("%s is not one value per group, so it cannot order the groups", c.ref())
		}
		if o.unit == unitAge && birthLike(c) {
			desc = !desc
		}
		b.resolve(o.col.text, "column", c.ref())
		return orderItem{sel: -1, e: expr{kind: eCol, col: c, cast: c.textNumber()}, desc: desc}, nil
	case o.unit == unitAlpha:
		for i, s := range p.sels {
			if s.e.kind == eCol && !s.e.col.numeric {
				return orderItem{sel: i, desc: desc}, nil
			}
		}
		return orderItem{}, decline("nothing shown is text to put in alphabetical order")
	case o.unit != "" && o.of != nil || o.unit != "" && o.unit != unitAlpha:
		t := b.subject
		if o.of != nil {
			x, err := b.tableOf(o.of)
			if err != nil {
				return orderItem{}, err
			}
			t = x
		}
		c, err := b.unitColumn(t, o.unit)
		if err != nil {
			return orderItem{}, err
		}
		if !b.need(c.t) {
			return orderItem{}, decline("%s is not linked to %s", c.t.name, b.root.name)
		}
		if o.unit == unitAge && birthLike(c) {
			desc = !desc
		}
		if unknownText(c) && o.unit != unitAlpha && o.unit != "" {
			return orderItem{}, decline("%s is stored as text and I can't tell whether it holds numbers, so I can't order it by size", c.ref())
		}
		return orderItem{sel: -1, e: expr{kind: eCol, col: c, cast: c.textNumber()}, desc: desc}, nil
	case o.of != nil:
		// "ordered by T": its name
		t, err := b.tableOf(o.of)
		if err != nil {
			return orderItem{}, err
		}
		label := b.labelCols(t)
		if len(label) == 0 || !b.need(t) {
			return orderItem{}, decline("I don't know how to order by %s", t.name)
		}
		return orderItem{sel: -1, e: expr{kind: eCol, col: label[0]}, desc: desc}, nil
	}
	if len(p.sels) == 0 {
		return orderItem{}, decline("order by what? name a column")
	}
	if len(p.sels) > 1 {
		return orderItem{}, decline("ordered by which of the columns shown? name it").withHint("e.g. ordered by the column, in descending order")
	}
	return orderItem{sel: 0, desc: desc}, nil
}

// birthLike: a birth or opening date (or year), which orders ages
// the other way round (the oldest was born, or opened, first).
func birthLike(c *column) bool {
	return c.kind == catalog.KindDate || c.dateType || yearColumn(c)
}

// showsLabel: the plan shows one of these label columns.
func showsLabel(p *plan, label []*column) bool {
	for _, c := range label {
		if selects(p, c) {
			return true
		}
	}
	return len(label) == 0
}

func sameExpr(a, b expr) bool {
	return a.kind == b.kind && a.col == b.col && a.fn == b.fn && a.distinct == b.distinct
}

func grouped(p *plan, c *column) bool {
	for _, g := range p.groupBy {
		if g.kind == eCol && g.col == c {
			return true
		}
		if g.kind == eCol && g.col.t == c.t && g.col == c.t.key {
			return true
		}
	}
	return false
}

// explain says in words what the query computes.
func (b *clauseBinder) explain(p *plan) string {
	var what []string
	for _, s := range p.sels {
		switch s.e.kind {
		case eCountAll:
			what = append(what, "the number of "+p.root.name+" rows")
		case ePercent:
			what = append(what, "the percentage of "+p.root.name+" rows meeting the condition")
		case eAgg:
			what = append(what, fmt.Sprintf("the %s of %s", strings.ToLower(fnWord(s.e.fn)), s.e.col.ref()))
		case eCol:
			what = append(what, s.e.col.ref())
		}
	}
	out := "Shows " + strings.Join(what, ", ")
	if len(p.where) > 0 {
		out += fmt.Sprintf(" for the %s rows meeting %d condition(s)", p.root.name, len(p.where))
	}
	if len(p.groupBy) > 0 {
		out += ", per group"
	}
	if len(p.order) > 0 {
		out += ", ordered"
	}
	if p.limit > 0 {
		out += fmt.Sprintf(", first %d", p.limit)
	}
	if p.offset > 0 {
		out += fmt.Sprintf(" after the first %d", p.offset)
	}
	return out + "."
}

func (b *clauseBinder) confidence() float64 {
	c := 0.85
	if !b.m.catalog && !b.m.v1 {
		c -= 0.2
	}
	for _, ch := range b.q.cs {
		if ch.typo != "" {
			c -= 0.15
			break
		}
	}
	return max(c, 0.3)
}

// readAs says how each word of the question was read.
func (r *creader) readAs() string {
	var parts []string
	for _, c := range r.cs {
		if c.role == "" || c.role == "the question's opening" || c.kind == ckWord && c.info.cw == cwFiller {
			continue
		}
		parts = append(parts, fmt.Sprintf("'%s' → %s", c.text, c.role))
	}
	return "read as: " + strings.Join(parts, "; ")
}

// leftovers declines when a word of the question found no role: every
// word must be used by the plan or carry no meaning here. A verb linking
// rows must lead on to a named thing or a condition, or close the question
// right after a name when the plan does link rows of two tables.
// linkAsNoun: the link word at i follows "what" or "which", or another
// unread link word: a noun of the question, not a verb linking rows.
func (r *creader) linkAsNoun(i int) bool {
	pv, nx := r.at(i-1), r.at(i+1)
	return pv != nil && pv.kind == ckWord && (pv.text == "what" || pv.text == "which") ||
		pv != nil && pv.kind == ckWord && pv.is(cwLink) && (pv.role == "" || pv.role == "the link between the rows") ||
		nx != nil && nx.kind == ckWord && nx.is(cwLink) && free(nx)
}

func (r *creader) leftovers(b *clauseBinder) error {
	var unknown, unused []string
	related := b == nil || len(b.tables) > 1 || len(b.exists) > 0
	for i, c := range r.cs {
		if c.role != "" {
			continue
		}
		switch {
		case c.kind == ckWord && c.info.cw == cwNone:
			unknown = append(unknown, c.text)
		case c.kind == ckWord && c.is(cwLead) && !r.leadHere(i):
			unused = append(unused, c.text)
		case c.kind == ckWord && c.is(cwBy) && r.agentBy(i):
			c.role = "by" // "served by the line": who does it
		case c.kind == ckWord && c.is(cwBoth) && b != nil && r.showsAfter(i):
			c.role = "filler" // "both the name and the age"
		case c.kind == ckWord && c.is(cwEach) && r.at(i+1) != nil && r.at(i+1).isValue() && !r.at(i+1).isTable():
			// "how many crates has each packer filled" where packer is a
			// value of some column: one group per what?
			unused = append(unused, c.text+" "+r.at(i+1).text)
		case c.kind == ckWord && fillerRole(c.info.cw):
			if b != nil {
				c.role = "filler"
			}
		case (c.kind == ckWord || weakColumn(c)) && c.is(cwLink) && (r.linksForward(i) || r.conditionAfter(i) || r.lastWord(i) && r.afterName(i) && related):
			if pv := r.at(i - 1); b != nil && (r.adjectiveVerb(i, related) || pv != nil && pv.kind == ckWord && pv.text == "whose") {
				// "the shaded kiosks" on one table, "on a shaded kiosk": a
				// state of the rows I could not read, not a link to other
				// rows; "whose lead is X": a column I do not know
				unused = append(unused, c.text)
			} else if b != nil && r.selfNamedAfter(i, b) {
				// "members sponsored by Ann Lee": Ann Lee is one of the
				// rows themselves, so the verb relates two of them
				unused = append(unused, c.text)
			} else if b != nil && r.linkAsNoun(i) {
				// "what rope stays held it": right after "what" or beside
				// another such word, a noun I do not know, not a verb
				unused = append(unused, c.text)
			} else if nx := r.at(i + 1); b != nil && nx != nil && nx.kind == ckWord && auxiliaries[nx.text] && !r.lastWord(i) {
				// "which kiosk that has been used had the fewest crates":
				// the verb ends its clause with nothing it is done to
				unused = append(unused, c.text)
			} else if b != nil && (outcomeVerbs[c.text] || placeVerbs[c.text]) && b.recordsOutcome() || b != nil && outcomeVerbs[c.text] && b.outcomeReferring() {
				// "swimmers who won a race" where the entries have a
				// placement: winning is a value of it, not any entry
				unused = append(unused, c.text)
			} else if b != nil {
				c.role = "the link between the rows"
			}
		default:
			unused = append(unused, c.text)
		}
	}
	if len(unknown) > 0 {
		return decline("I don't know the word(s) %s", quoteList(unknown))
	}
	if len(unused) > 0 {
		return decline("I don't know what %s means here", quoteList(unused)).
			withHint("rephrase without it, or name the column it is about")
	}
	return nil
}

// outcomeVerbs say how a contest ended for the rows, not only that they
// took part in it.
var outcomeVerbs = setOf("win", "wins", "won", "winning", "lose", "loses", "lost", "losing", "beat", "beats", "beaten")

// outcomeWords name a column that records how a contest ended.
var outcomeWords = setOf("place", "placement", "placing", "position", "rank", "ranking", "finish", "result",
	"outcome", "winner", "won", "win", "wins", "score", "points", "medal")

// recordsOutcome: a table the plan reads, or the one between the
// subject and it, has a column recording how a contest ended, so a verb
// of winning or losing is a condition on it that a bare link between the
// rows would drop.
func (b *clauseBinder) recordsOutcome() bool {
	ts := slices.Collect(maps.Keys(b.tables))
	for t := range b.exists {
		ts = append(ts, t)
	}
	return b.m.recordsOutcome(b.subject, ts)
}

// outcomeReferring: the plan reads the rows asked about alone, and a table
// referring to them records how a contest ended ("who won each heat"
// beside the heats' results and their placings).
func (b *clauseBinder) outcomeReferring() bool {
	if b.subject == nil || len(b.tables) != 1 || !b.tables[b.subject] {
		return false
	}
	var refs []*table
	for _, u := range b.m.tables {
		if refersTo(u, b.subject) {
			refs = append(refs, u)
		}
	}
	return len(refs) > 0 && b.m.recordsOutcome(nil, refs)
}

// recordsOutcome: one of ts, or a table bridging subject to one of them
// (a swimmer's entries at a gala), has a column recording how a contest
// ended (a placement, a score, a winner).
func (m *model) recordsOutcome(subject *table, ts []*table) bool {
	seen := map[*table]bool{}
	for _, t := range ts {
		seen[t] = true
		if subject != nil && t != subject {
			if br := m.bridge([]*table{subject, t}); br != nil {
				seen[br] = true
			}
			// "harbours whose crews took a rally" where the rallies'
			// climbs hold the placing: the climbs, whatever path the plan took — unless
			// the subject's rows point at t themselves ("prizes won by a
			// rigger": the prize is what was won)
			if !refersTo(subject, t) {
				for _, u := range m.tables {
					if refersTo(u, t) {
						seen[u] = true
					}
				}
			}
		}
	}
	for t := range seen {
		for _, c := range t.cols {
			for _, w := range catalog.IdentifierWords(c.name) {
				if outcomeWords[w] {
					return true
				}
			}
		}
	}
	return false
}

// refersTo: a column of u is a foreign key to t.
func refersTo(u, t *table) bool {
	return slices.ContainsFunc(u.cols, func(c *column) bool { return c.fk != nil && c.fk.to == t })
}

// dateOrYear: a date, or a number column of years however named.
func dateOrYear(c *column) bool { return birthLike(c) || yearNamed(c) }

// yearNamed: a number column with "year" among its name's words
// ("year_fitted", "YearLaid").
func yearNamed(c *column) bool {
	if !c.numeric && !numericText(c) {
		return false
	}
	for _, w := range catalog.IdentifierWords(c.name) {
		if w == "year" || w == "yr" {
			return true
		}
	}
	return false
}

// adjectiveVerb: the link verb at i stands before a table as an adjective
// ("on a shaded kiosk", after a preposition or another verb), or names no
// second table in a plan of one ("the shaded kiosks"): it says a state of
// the rows, not a link.
func (r *creader) adjectiveVerb(i int, related bool) bool {
	c, nx := r.at(i), r.at(r.next(i+1))
	if nx == nil || !nx.isTable() || strings.Contains(c.text, " ") || dateVerbs[c.text] != nil {
		return false
	}
	pv := r.at(i - 1)
	return !related || pv != nil && (pv.kind == ckWord && (softWords[pv.text] || adjectivePreps[pv.text]) || pv.is(cwLink))
}

// adjectivePreps stand before a noun phrase: a verb form right after one
// describes the noun ("on shaded kiosks", "take place on shaded kiosks").
var adjectivePreps = setOf("on", "in", "at", "with", "from", "for", "to", "by", "into", "onto", "of")

// showsAfter: the chunk after i is a column shown.
func (r *creader) showsAfter(i int) bool {
	nx := r.at(r.next(i + 1))
	return nx != nil && nx.role == "shown"
}

// leadHere: a request verb inside the question is a filler only as the
// start of a second request ("... ? Give their names").
func (r *creader) leadHere(i int) bool {
	nx := r.at(i + 1)
	if nx != nil && nx.kind == ckWord && leadObjects[nx.text] {
		return true
	}
	// "... ? Show title and author": what it shows is used
	nx = r.at(r.next(i + 1))
	return nx != nil && (strings.HasPrefix(nx.role, "shown") || nx.role == "the count" || nx.role == "the key" || nx.is(cwAgg) && nx.role != "")
}

var leadObjects = setOf("their", "its", "the", "me", "us", "them", "all", "his", "her", "also", "both", "each", "every")

// fillerRole: clause words that may stay unused.
func fillerRole(k cword) bool {
	switch k {
	case cwFiller, cwLead, cwHave, cwAnd, cwEach:
		return true
	}
	return false
}

// afterName: a named row or value stands right before i ("does the wine
// 'Merlot' belong to").
func (r *creader) afterName(i int) bool {
	k := i - 1
	for k >= 0 && r.at(k).kind == ckWord && r.at(k).info.cw == cwFiller {
		k--
	}
	c := r.at(k)
	return c != nil && (c.kind == ckLit || c.isValue() || strings.HasPrefix(c.role, "the name") || strings.HasPrefix(c.role, "value") ||
		strings.HasPrefix(c.role, "counted"))
}

// lastWord: nothing but fillers follows i ("What family does X belong to?").
func (r *creader) lastWord(i int) bool {
	for k := i + 1; k < len(r.cs); k++ {
		if c := r.at(k); !(c.kind == ckWord && c.info.cw == cwFiller) {
			return false
		}
	}
	return true
}

// linksForward: a verb between rows leads to something the plan uses —
// the related rows, a value, a condition ("who played in tournaments");
// a verb after everything it could link ("never had a book borrowed")
// says more than the plan does.
func (r *creader) linksForward(i int) bool {
	for k := i + 1; k < len(r.cs); k++ {
		c := r.at(k)
		if c.kind == ckWord && (c.info.cw == cwFiller || c.is(cwHave) || c.is(cwLink) || c.text == "as" || c.text == "by") {
			continue
		}
		return c.role != "" && c.role != "filler"
	}
	return false
}

// conditionAfter: the chunk right after i (across prepositions and soft
// words) is used by a condition (a value, a name, a date).
// selfNamedAfter: the verb at i is followed (across "by") by the name of
// a row of the very table asked about, and nothing of another table is read.
func (r *creader) selfNamedAfter(i int, b *clauseBinder) bool {
	if b.subject == nil || len(b.tables) > 1 || len(b.exists) > 0 {
		return false
	}
	k := i + 1
	if by := r.at(k); by != nil && by.kind == ckWord && (by.text == "by" || by.is(cwBy)) {
		k++
	}
	v := r.at(k)
	return v != nil && v.isValue() && namedRowTable(v) == b.subject
}

func (r *creader) conditionAfter(i int) bool {
	for k := i + 1; k < len(r.cs); k++ {
		c := r.at(k)
		if c.kind == ckWord && (c.info.cw == cwFiller || c.is(cwHave)) {
			continue
		}
		return c.role != "" && (c.kind == ckLit || c.kind == ckTime || c.kind == ckNum || c.isValue() || strings.HasPrefix(c.role, "value") ||
			strings.HasPrefix(c.role, "the name") || c.role == "compared" || c.role == "dated" || c.role == "the value's column" ||
			c.is(cwCmp) || c.is(cwNamed) || c.is(cwLike))
	}
	return false
}
