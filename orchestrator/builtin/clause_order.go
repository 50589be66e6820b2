package builtin

import (
	"slices"
	"strings"

	"talk2tables/catalog"
)

// Ordering, superlatives, aggregates and grouping: the clause steps that
// read what the rows are ranked, computed and grouped by.

// cterm is a thing one can order, rank or group by: a column, an
// aggregate, or the rows of a table (counted, or named by their label).
type cterm struct {
	col  *chunk
	agg  *cagg
	rows *chunk
	end  int // index after the term
	err  error
}

func (t cterm) ok() bool { return t.col != nil || t.agg != nil || t.rows != nil }

// term reads a column, an aggregate ("the number of U", "average
// age") or a table's rows at i, without consuming it.
func (r *creader) term(i int) cterm {
	i = r.next(i)
	c := r.at(i)
	switch {
	case !free(c):
		return cterm{}
	case c.is(cwCount) && c.kind == ckWord:
		j := r.next(i + 1)
		distinct := false
		if d := r.at(j); free(d) && d.is(cwDistinct) {
			distinct, j = true, r.next(j+1)
		}
		if of := r.at(j); free(of) && of.kind == ckWord && of.text == "of" {
			j = r.next(j + 1)
		}
		switch t := r.at(j); {
		case free(t) && t.isTable():
			return cterm{agg: &cagg{fn: "COUNT", rows: t, distinct: distinct}, end: j + 1}
		case free(t) && t.isColumn():
			for _, col := range t.columns() {
				if (col.additive() || (col.numeric || col.numberAsText()) && !distinct) && !col.isKey() {
					// "the largest number of berths": their total, or how
					// many different berth counts?
					return cterm{err: notMine("%q of %q: a quantity to add up, or its distinct values?", c.text, t.text)}
				}
			}
			return cterm{agg: &cagg{fn: "COUNT", arg: t, distinct: true}, end: j + 1}
		}
		return cterm{}
	case c.is(cwAgg) && !(c.isColumn() && !r.aggArgAt(i+1)):
		j := r.next(i + 1)
		if of := r.at(j); free(of) && of.kind == ckWord && of.text == "of" {
			j = r.next(j + 1)
		}
		if t := r.at(j); free(t) && t.isColumn() {
			return cterm{agg: &cagg{fn: c.info.fn, arg: t}, end: j + 1}
		}
		return cterm{}
	case c.isColumn() && !c.onlyValue():
		return cterm{col: c, end: i + 1}
	case c.isTable() && possessive(c):
		// "by the crate's harbour": the harbour, a column of the crate
		j := r.next(i + 1)
		if nx := r.at(j); free(nx) && nx.isColumn() && !nx.isTable() && slices.ContainsFunc(nx.columns(), func(col *column) bool { return slices.Contains(c.tables(), col.t) }) {
			return cterm{col: nx, end: j + 1}
		}
		return cterm{rows: c, end: i + 1}
	case c.isTable() && r.ownAttributeAfter(i) != nil:
		// "for each kiosk town": the town, a column of the kiosk, not
		// each kiosk
		return cterm{col: r.ownAttributeAfter(i), end: i + 2}
	case c.isTable():
		return cterm{rows: c, end: i + 1}
	}
	return cterm{}
}

// ownAttributeAfter is the chunk right after the table chunk at i when it
// names only columns of that table that are neither keys nor labels
// ("kiosk town"), or nil.
func (r *creader) ownAttributeAfter(i int) *chunk {
	c, nx := r.at(i), r.at(i+1)
	if !free(nx) || nx.stop || !nx.isColumn() || nx.isTable() || nx.isValue() || len(c.tables()) != 1 {
		return nil
	}
	for _, col := range nx.columns() {
		if col.t != c.tables()[0] || col.isKey() || col.kind == catalog.KindLabel {
			return nil
		}
	}
	return nx
}

// possessive: the chunk was typed with an 's ("the crate's").
func possessive(c *chunk) bool {
	return strings.HasSuffix(c.orig, "'s") || strings.HasSuffix(c.orig, "’s")
}

// aggArgAt: a column follows (maybe after "of"): an aggregate word that is
// also a column ("Average") is the aggregate only when a column follows.
func (r *creader) aggArgAt(i int) bool {
	j := r.next(i)
	if of := r.at(j); of != nil && of.kind == ckWord && of.text == "of" {
		j = r.next(j + 1)
	}
	t := r.at(j)
	return free(t) && t.isColumn() && !t.is(cwAgg)
}

// useTerm gives the term's chunks their roles.
func (r *creader) useTerm(t cterm, from int, role string) {
	for k := from; k < t.end; k++ {
		c := r.at(k)
		if free(c) {
			r.use(c, "%s", role)
		}
	}
}

// orderTail are the words "sort the results by" may put before the term.
var orderTail = setOf("results", "result", "the results", "them", "it", "output", "list", "the list", "answer", "rows", "records", "these")

// bareOrderVerb: "ordered" or "sorted" followed by nothing that orders
// ("customers who ordered in May"): a verb of the rows, not a sort.
func (r *creader) bareOrderVerb(i int) bool {
	c := r.at(i)
	if strings.Contains(c.text, " ") {
		return false // "ordered by", "sort by"
	}
	nx := r.at(r.next(i + 1))
	if nx == nil {
		// "… sorted": the rows shown, in order; "when was a crate
		// ordered": the verb
		return c.text == "ordered" && r.passiveBefore(i)
	}
	if nx.kind == ckWord && (orderTail[nx.text] || nx.text == "by" || nx.text == "on" || nx.text == "according to") || nx.is(cwDir) || nx.is(cwBy) {
		return false
	}
	if t := r.term(r.next(i + 1)); t.ok() {
		return false
	}
	return true
}

// passiveBefore: a form of "be" or "have" comes before the chunk at i,
// past the words of the rows ("was a crate ordered", "have they been
// ordered").
func (r *creader) passiveBefore(i int) bool {
	for k := i - 1; k >= 0; k-- {
		c := r.at(k)
		if c.kind == ckWord && auxiliaries[c.text] {
			return true
		}
		if c.kind == ckWord && (c.is(cwAnd) || c.is(cwOr)) {
			return false
		}
	}
	return false
}

// readOrder reads "ordered by X [descending]", "in descending order of X",
// "sorted alphabetically", "from oldest to youngest".
func (r *creader) readOrder() error {
	for i, c := range r.cs {
		if !free(c) {
			continue
		}
		switch {
		case r.thenOrder(i):
		case c.is(cwOrderBy) && c.kind == ckWord && !r.bareOrderVerb(i):
			r.use(c, "order")
			j := r.next(i + 1)
			for nx := r.at(j); free(nx) && nx.kind == ckWord && (orderTail[nx.text] || nx.text == "by" || nx.text == "on" || nx.text == "according to"); nx = r.at(j) {
				r.use(nx, "order")
				j = r.next(j + 1)
			}
			o := &corder{dir: -1}
			if t := r.term(j); t.rows != nil && t.col == nil {
				// "sort the T by C": the rows, then what they are sorted by
				if by := r.at(r.next(t.end)); free(by) && by.is(cwBy) {
					r.use(by, "order by")
					j = r.next(r.next(t.end) + 1)
				} else if d := r.at(r.next(t.end)); free(d) && d.is(cwDir) && strings.HasPrefix(d.text, "from ") && r.term(r.next(r.next(t.end)+1)).col != nil {
					// "sort the kiosks from largest to smallest area": the
					// rows, then the direction and what they are sorted by
					j = r.next(t.end)
				}
			}
			if d := r.at(j); free(d) && d.is(cwDir) {
				// "sorted alphabetically", "ordered from oldest to youngest"
				r.use(d, "order %s", dirWord(d.info))
				o.dir, o.unit = d.info.dir, d.info.unit
				j = r.next(j + 1)
				if of := r.at(j); free(of) && of.kind == ckWord && (of.text == "of" || of.text == "by") {
					r.use(of, "order")
					j++
				}
			}
			if t := r.term(j); t.ok() {
				r.useTerm(t, j, "order by")
				o.col, o.agg = t.col, t.agg
				if t.rows != nil {
					o.of = t.rows
				}
				if d := r.at(r.next(t.end)); free(d) && d.is(cwDir) {
					r.use(d, "order %s", dirWord(d.info))
					o.dir, o.unit = d.info.dir, pick(o.unit, d.info.unit)
				}
			}
			if n := len(r.q.order); n > 0 && i > 0 && r.at(i-1).is(cwDir) && bare(r.q.order[n-1]) {
				// "in descending | order of length": the direction said before
				o.dir = r.q.order[n-1].dir
				r.q.order = r.q.order[:n-1]
			}
			r.q.order = append(r.q.order, o)
		case c.is(cwDir) && c.kind == ckWord:
			r.use(c, "order %s", dirWord(c.info))
			o := &corder{dir: c.info.dir, unit: c.info.unit}
			j := r.next(i + 1)
			if of := r.at(j); free(of) && of.kind == ckWord && (of.text == "of" || of.text == "by") {
				if t := r.term(j + 1); t.ok() {
					r.use(of, "order")
					r.useTerm(t, j+1, "order by")
					o.col, o.agg, o.of = t.col, t.agg, t.rows
				}
			} else if t := r.term(j); strings.HasPrefix(c.text, "from ") && t.ok() && t.col != nil && t.agg == nil {
				// "from largest to smallest capacity": what the rows are ordered by
				r.useTerm(t, j, "order by")
				o.col, o.of = t.col, t.rows
			}
			if len(r.q.order) > 0 && o.col == nil && o.agg == nil && o.unit == "" {
				// "ordered by age in descending order": the direction of the last order
				r.q.order[len(r.q.order)-1].dir = o.dir
				continue
			}
			r.q.order = append(r.q.order, o)
		case c.kind == ckWord && c.text == "in" && r.columnOrder(i) != nil:
			// "in running order": ordered by the column named
			col := r.columnOrder(i)
			r.use(c, "order")
			r.use(col, "order by")
			if o := r.at(r.cs.index(col) + 1); o != nil && o.kind == ckWord && o.text == "order" {
				r.use(o, "order")
			}
			r.q.order = append(r.q.order, &corder{col: col, dir: -1})
		case c.is(cwBy) && c.kind == ckWord:
			// "by age descending"
			if t := r.term(i + 1); t.ok() && t.agg == nil {
				if d := r.at(r.next(t.end)); free(d) && d.is(cwDir) {
					r.use(c, "order by")
					r.useTerm(t, i+1, "order by")
					r.use(d, "order %s", dirWord(d.info))
					r.q.order = append(r.q.order, &corder{col: t.col, of: t.rows, dir: d.info.dir, unit: d.info.unit})
				}
			}
		}
	}
	return nil
}

// thenOrder reads, at the "then" or "and" at i, a further sort key after
// an order: "sorted by last name and then first name", "newest first, then
// by name", "by length, then title". A key after a bare "and" is read only
// where the question ends after it, so "sorted by age and their towns"
// keeps the towns to show.
func (r *creader) thenOrder(i int) bool {
	c := r.at(i)
	if len(r.q.order) == 0 || c.kind != ckWord || c.text != "then" && !(c.is(cwAnd) && c.text == "and") {
		return false
	}
	if p := r.at(r.prev(i - 1)); p == nil || !strings.HasPrefix(p.role, "order") {
		return false
	}
	used, then, j := []*chunk{c}, c.text == "then", r.next(i+1)
	if t := r.at(j); !then && free(t) && t.kind == ckWord && t.text == "then" {
		used, then, j = append(used, t), true, r.next(j+1)
	}
	if by := r.at(j); free(by) && by.is(cwBy) {
		used, j = append(used, by), r.next(j+1)
	}
	t := r.term(j)
	if !t.ok() || t.col == nil && t.agg == nil {
		return false
	}
	o, end := &corder{col: t.col, agg: t.agg, dir: -1}, t.end
	d := r.at(r.next(end))
	if free(d) && d.is(cwDir) {
		o.dir, o.unit = d.info.dir, d.info.unit
		end = r.next(end) + 1
	} else {
		d = nil
	}
	if after := r.at(end); !then && after != nil && !after.stop {
		return false
	}
	for _, u := range used {
		r.use(u, "order")
	}
	r.useTerm(t, j, "order by")
	if d != nil {
		r.use(d, "order %s", dirWord(d.info))
	}
	r.q.order = append(r.q.order, o)
	return true
}

// bare: an order with a direction and nothing to order by.
func bare(o *corder) bool { return o.col == nil && o.agg == nil && o.unit == "" && o.of == nil }

// columnOrder is the column of "in <column> order" at i.
func (r *creader) columnOrder(i int) *chunk {
	col := r.at(r.next(i + 1))
	if !free(col) || !col.isColumn() || !orderable(col) {
		return nil
	}
	if strings.HasSuffix(col.text, " order") {
		return col // "in running order": a column named for an order
	}
	o := r.at(r.cs.index(col) + 1)
	if o == nil || !free(o) || o.kind != ckWord || o.text != "order" {
		return nil
	}
	return col
}

func pick(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func dirWord(info cinfo) string {
	switch {
	case info.unit == unitAlpha && info.dir < 0:
		return "alphabetical"
	case info.unit == unitAlpha:
		return "reverse alphabetical"
	case info.dir > 0:
		return "descending"
	}
	return "ascending"
}

// readSuperlatives reads "the youngest T", "the 3 largest T", "the T with
// the most U", "top 5 T by C", "the most common C": an order and a limit.
func (r *creader) readSuperlatives() error {
	for i, c := range r.cs {
		if !free(c) || !(c.is(cwSuper) || c.is(cwCommon)) {
			continue
		}
		if r.inAggregateList(i) {
			continue // "the mean, lowest and highest count": aggregates
		}
		if o := r.fromTo(i); o != nil {
			r.q.order = append(r.q.order, o) // "from the oldest site to the newest"
			continue
		}
		if r.q.rankBy != nil {
			return decline("two rankings (%q and %q); ask for one", r.q.rankBy.src(), c.text)
		}
		n, nEnd := r.rankN(i)
		if n == 1 && nEnd == i+1 {
			// "the 3 telescopes with the largest apertures", "the five T who joined last"
			ow := r.rankOwner(i)
			if ow == nil {
				ow = r.tableBefore(i)
			}
			if ow != nil {
				if num := r.at(r.prev(r.cs.index(ow) - 1)); free(num) && num.kind == ckNum && num.isInt && num.num >= 1 {
					r.use(num, "how many")
					n = int(num.num)
					r.q.limitSaid = true
				}
			}
		}
		r.use(c, "ranking %s", c.text)
		if pv := r.at(r.prev(i - 1)); free(pv) && pv.is(cwOrdinal) {
			// "the second largest": the one after the largest
			if n > 1 {
				return decline("%q with a number of rows: ask for one place", pv.text)
			}
			r.use(pv, "place %d", pv.info.n)
			r.q.offset = pv.info.n - 1
		}
		o := &corder{dir: c.info.dir, unit: c.info.unit}
		j := r.next(max(i+1, nEnd))
		if c.is(cwCommon) {
			// "the most common type": the value with the most rows
			t := r.term(j)
			if t.col == nil {
				return decline("%q of what? name a column", c.text)
			}
			r.useTerm(t, j, "ranked by how many rows")
			r.q.groups = append(r.q.groups, t.col)
			o.agg = &cagg{fn: "COUNT"}
			r.q.rankBy, r.q.limit = o, n
			continue
		}
		matched, aggregate, err := r.rankByTerm(i, j, c, o)
		switch {
		case err != nil:
			return err
		case aggregate:
			continue
		case !matched:
			if err := r.rankByContext(i, c, o); err != nil {
				return err
			}
		}
		if r.q.ranked == nil {
			if ow := r.rankOwner(i); ow != nil {
				r.q.ranked = ow
			}
		}
		r.q.rankBy, r.q.limit = o, n
	}
	return nil
}

// rankByTerm reads what follows a superlative at i (j is the next
// chunk): an aggregate, a column, or the rows ranked. aggregate: the
// superlative was read as MAX or MIN of a column, not a ranking; matched:
// the term said what to rank by.
func (r *creader) rankByTerm(i, j int, c *chunk, o *corder) (matched, aggregate bool, err error) {
	t := r.term(j)
	switch {
	case t.agg != nil:
		r.useTerm(t, j, "ranked by")
		o.agg = t.agg
	case t.col != nil && (c.info.unit == "" || t.rows == nil):
		if c.info.unit == unitDate && !slices.ContainsFunc(t.col.columns(), dateOrYear) {
			// "the most recent rating": the rating of the latest row,
			// never the highest one
			return false, false, notMine("%q ranks by a date, and %q is not one", c.text, t.col.text)
		}
		if !orderable(t.col) {
			return false, false, notMine("%q ranks %q, which is not a number or a date", c.text, t.col.text)
		}
		if ws := strings.Fields(c.text); c.info.unit == "" && (slices.Contains(ws, "most") || slices.Contains(ws, "fewest") || slices.Contains(ws, "least")) && !slices.ContainsFunc(t.col.columns(), func(col *column) bool { return !dateOrYear(col) }) {
			// "the crate with the most starts" beside a start date: how many,
			// not the latest date
			return false, false, notMine("%q %q: a date counted, or the latest one?", c.text, t.col.text)
		}
		if r.q.whichCol != nil {
			return false, false, notMine("%q ranks values of %q by a column of their rows", c.text, r.q.whichCol.text)
		}
		if (!r.namesTable() || r.valueOfRows(i, t)) && !c.is(cwCommon) && r.q.offset == 0 {
			// "the highest discount": its maximum
			fn := "MAX"
			if c.info.dir < 0 {
				fn = "MIN"
			}
			r.useTerm(t, j, "aggregated")
			r.use(c, "%s", fn)
			r.q.items = append(r.q.items, &citem{agg: &cagg{fn: fn, arg: t.col}, pos: i})
			return true, true, nil
		}
		r.useTerm(t, j, "ranked by")
		o.col = t.col
		if r.q.offset > 0 && (!r.namesTable() || r.q.which == nil && len(r.q.items) == 0 && r.tableBefore(i) == nil) {
			// "the second highest discount", "what is the second highest
			// fare of any route": that value, not the rows'
			r.q.items = append(r.q.items, &citem{col: t.col, pos: i})
		}
		if nx := r.at(r.next(t.end)); free(nx) && nx.isTable() && t.col.isColumnOf(nx) {
			// "the highest rated film"... the column's own table follows
			r.use(nx, "the rows ranked")
			r.q.ranked = nx
		}
	case t.rows != nil && r.rankedBy(t.end) != nil:
		// "the 3 largest T by C"
		by := r.rankedBy(t.end)
		r.use(t.rows, "the rows ranked")
		r.use(r.at(r.next(t.end)), "by")
		r.use(by, "ranked by")
		r.q.ranked, o.col, o.unit = t.rows, by, ""
		if c.info.unit == unitAge {
			o.unit = unitAge // "the oldest T by year of make": the earliest year
		}
	case t.rows != nil && c.info.unit != "":
		// "the youngest T": the table's column the adjective speaks of
		r.use(t.rows, "the rows ranked")
		r.q.ranked, o.of = t.rows, t.rows
	case t.rows != nil && r.rankOwner(i) != nil && sizeSuperlatives[c.text]:
		// "the kiosk with the largest delivery": the delivery's size
		// (which of its figures?), not how many deliveries
		return false, false, notMine("%q %s: by which of its figures? not how many there are", c.text, t.rows.text)
	case t.rows != nil && r.rankOwner(i) != nil:
		// "the T with the most U": how many rows each has
		r.use(t.rows, "counted per ranked row")
		o.agg = &cagg{fn: "COUNT", rows: t.rows}
	case t.rows != nil && !sizeSuperlatives[c.text]:
		// "top 5 T": by what? an analyst's default measure
		return false, false, notMine("%q %s ranks by no column", c.text, t.rows.text)
	case t.rows != nil:
		// "the largest T": its size
		r.use(t.rows, "the rows ranked")
		r.q.ranked, o.of = t.rows, t.rows
		if o.unit == "" {
			o.unit = unitSize
		}
	default:
		return false, false, nil
	}
	return true, false, nil
}

// rankByContext reads what a superlative with nothing to rank after it
// ranks by: a date or a column a verb before it names, or how many rows
// link to the rows asked about.
func (r *creader) rankByContext(i int, c *chunk, o *corder) error {
	switch {
	case r.rankedBy(i+1) != nil:
		// "which site is the largest by area"
		by := r.rankedBy(i + 1)
		r.use(r.at(r.next(i+1)), "by")
		r.use(by, "ranked by")
		o.col, o.unit = by, ""
		if c.info.unit == unitAge {
			o.unit = unitAge // "the oldest by year of make": the earliest year
		}
	case c.info.unit != "" && r.dateVerbBefore(i) != nil:
		// "the vintner born earliest": the date the verb names
		r.use(r.dateVerbBefore(i), "the date ranked by")
		o.verb = true
	case r.columnBeforeRank(i) != nil:
		// "which T opened first": the column right before
		col := r.columnBeforeRank(i)
		r.use(col, "ranked by")
		o.col = col
	case c.info.unit != "":
		// "which T is the oldest"
	case r.q.which != nil && c.info.unit == "" && r.linkVerbBefore(i) && r.verbColumn(r.at(r.prev(i-1)), false) != nil:
		// "which parcel weighs the most": the column the verb names
		pv := r.at(r.prev(i - 1))
		o.colDirect = r.verbColumn(pv, false)
		r.use(pv, "ranked by %s", o.colDirect.name)
	case r.q.which != nil && c.info.unit == "" && r.linkVerbBefore(i) && (clauseWords[r.at(r.prev(i-1)).text].cw != cwLink || r.verbColumn(r.at(r.prev(i-1)), true) != nil) && !participleLike(r.at(r.prev(i-1)).text) ||
		r.q.which != nil && c.info.unit == "" && r.linkVerbBefore(i) && amountVerbs[r.at(r.prev(i-1)).text]:
		// "which T weighs the most": of the rows themselves, a verb I don't
		// know; "which T is paid the least": an amount, not a count of links
		return decline("I don't know what %q means here", r.at(r.prev(i-1)).text).
			withHint("name the column to rank by, e.g. with the highest followed by a column")
	case r.q.which != nil && c.info.unit == "" && r.linkVerbBefore(i):
		// "which T was observed the most": how many rows link to each
		if pv := r.at(r.prev(i - 1)); pv.verb {
			r.use(pv, "counted per ranked row")
			o.agg = &cagg{fn: "COUNT", rows: pv}
		} else {
			r.use(pv, "the link counted")
			o.agg = &cagg{fn: "COUNT", linked: true}
		}
		r.q.ranked = r.q.which
	default:
		word := strings.TrimPrefix(c.text, "the ")
		return decline("%q: the %s what? name what to rank by", c.text, word).
			withHint("e.g. the %s followed by a column", word)
	}
	return nil
}

// superFn is the aggregate a superlative stands for in a list of them
// ("the smallest and largest areas"): MIN or MAX; "" for others.
func superFn(c *chunk) string {
	if c == nil || !c.is(cwSuper) || c.kind != ckWord {
		return ""
	}
	switch c.text {
	case "highest", "largest", "greatest", "biggest", "longest", "latest", "heaviest", "tallest", "the highest", "the largest":
		return "MAX"
	case "lowest", "smallest", "shortest", "earliest", "lightest", "the lowest", "the smallest", "least":
		return "MIN"
	}
	return ""
}

// inAggregateList: the superlative at i stands in a list of aggregates
// ("the mean, lowest and highest", "the smallest and largest").
func (r *creader) inAggregateList(i int) bool {
	if superFn(r.at(i)) == "" {
		return false
	}
	pv, nx := r.at(r.prev(i-1)), r.at(r.next(i+1))
	if pv != nil && (pv.is(cwAnd) || pv.kind == ckWord && pv.text == "and") {
		pv = r.at(r.prev(r.cs.index(pv) - 1))
	}
	if pv != nil && (pv.is(cwAgg) || superFn(pv) != "") {
		return true
	}
	if nx != nil && (nx.is(cwAnd) || nx.kind == ckWord && nx.text == "and") {
		nn := r.at(r.next(r.cs.index(nx) + 1))
		return nn != nil && (nn.is(cwAgg) || superFn(nn) != "")
	}
	return false
}

// fromTo reads "from the oldest T to the newest" at i: an order by the
// first superlative's quantity, its direction.
func (r *creader) fromTo(i int) *corder {
	c := r.at(i)
	from := r.at(r.prev(i - 1))
	if from == nil || from.kind != ckWord || from.text != "from" || c.info.unit == "" {
		return nil
	}
	k := r.next(i + 1)
	var of *chunk
	if t := r.at(k); t.isTable() {
		of = t
		k = r.next(k + 1)
	}
	to := r.at(k)
	if to == nil || to.kind != ckWord || to.text != "to" {
		return nil
	}
	end := r.at(r.next(k + 1))
	if end == nil || !end.is(cwSuper) || end.text == c.text || end.info.unit == c.info.unit && end.info.dir == c.info.dir {
		return nil
	}
	for _, x := range []*chunk{from, c, of, to, end} {
		if x != nil {
			r.use(x, "order from %s to %s", c.text, end.text)
		}
	}
	if t := r.at(r.next(r.cs.index(end) + 1)); t.isTable() && free(t) {
		r.use(t, "the rows ordered")
		if of == nil {
			of = t
		}
	}
	// "from the oldest to the newest": the oldest first
	return &corder{dir: c.info.dir, unit: c.info.unit, of: of}
}

// dateVerbBefore is a verb naming a date right before a superlative
// ("born earliest", "joined last").
func (r *creader) dateVerbBefore(i int) *chunk {
	pv := r.at(r.prev(i - 1))
	if free(pv) && pv.is(cwLink) {
		if _, ok := dateVerbs[pv.text]; ok {
			return pv
		}
	}
	return nil
}

// linkVerbBefore: a verb linking rows stands right before the ranking word.
func (r *creader) linkVerbBefore(i int) bool {
	pv := r.at(r.prev(i - 1))
	return free(pv) && (pv.is(cwLink) || pv.verb)
}

// columnBeforeRank is an orderable column right before a superlative
// with nothing after it ("opened first", "the one released latest").
func (r *creader) columnBeforeRank(i int) *chunk {
	if nx := r.at(r.next(i + 1)); nx != nil && !(nx.kind == ckWord && (nx.info.cw == cwFiller || nx.is(cwOrderBy))) {
		return nil
	}
	pv := r.at(r.prev(i - 1))
	if free(pv) && pv.isColumn() && orderable(pv) && !(pv.is(cwLink) && weakColumn(pv)) {
		return pv
	}
	return nil
}

// namesTable: some chunk of the question names a table.
func (r *creader) namesTable() bool {
	for _, c := range r.cs {
		if c.isTable() {
			return true
		}
	}
	return false
}

// valueOfRows: "what is the highest C of the T" — the question opens
// straight onto the superlative and the column's own table follows it
// after "of" or "among", with nothing after: the value, not the rows.
func (r *creader) valueOfRows(i int, t cterm) bool {
	for k := 0; k < i; k++ {
		if c := r.at(k); c.role != "the question's opening" && !(c.kind == ckWord && c.info.cw == cwFiller) {
			return false
		}
	}
	k := r.next(t.end)
	of, rows := r.at(k), r.at(r.next(k+1))
	if of == nil || of.kind != ckWord || of.text != "of" && of.text != "among" || !free(rows) || !rows.isTable() || !t.col.isColumnOf(rows) {
		return false
	}
	end := r.next(r.cs.index(rows) + 1)
	return end >= len(r.cs)
}

// sizeSuperlatives are superlatives of size: "the largest T" is by its size.
var sizeSuperlatives = setOf("largest", "the largest", "biggest", "the biggest", "smallest", "the smallest")

// orderable: a column whose values rank (numbers, dates).
func orderable(c *chunk) bool {
	for _, col := range c.columns() {
		if col.isKey() && len(c.columns()) > 1 {
			continue // "titles": the title, not its key's number
		}
		if col.numeric || col.dateType || col.kind == "date" || col.textNumber() {
			return true
		}
	}
	return false
}

// rankedBy is the column after "by" at i ("top 5 T by C").
func (r *creader) rankedBy(i int) *chunk {
	by := r.at(r.next(i))
	if !free(by) || !by.is(cwBy) {
		return nil
	}
	if col := r.at(r.next(r.next(i) + 1)); free(col) && col.isColumn() {
		return col
	}
	return nil
}

func (o *corder) src() string {
	switch {
	case o.col != nil:
		return o.col.text
	case o.agg != nil && o.agg.arg != nil:
		return o.agg.arg.text
	case o.agg != nil && o.agg.rows != nil:
		return o.agg.rows.text
	}
	return o.unit
}

// rankN reads the number of a superlative: "top 3", "the 3 largest",
// "the largest 3"; 1 when none. It returns the index after what it used.
func (r *creader) rankN(i int) (int, int) {
	if nx := r.at(i + 1); free(nx) && nx.kind == ckNum && nx.isInt && nx.num >= 1 {
		r.use(nx, "how many")
		r.q.limitSaid = true
		return int(nx.num), i + 2
	}
	if pv := r.at(r.prev(i - 1)); free(pv) && pv.kind == ckNum && pv.isInt && pv.num >= 1 && !r.at(r.prev(r.cs.index(pv)-1)).isTable() {
		// not "kiosk 3 last": a number after a table's noun names its row
		r.use(pv, "how many")
		r.q.limitSaid = true
		return int(pv.num), i + 1
	}
	return 1, i + 1
}

// rankOwner is the table whose rows a "with the most" ranking ranks: the
// table (or which-column) right before "with" / "that has" / "has".
func (r *creader) rankOwner(i int) *chunk {
	k := r.prev(i - 1)
	for ; k >= 0; k = r.prev(k - 1) {
		c := r.at(k)
		if c.kind == ckWord && (c.is(cwHave) || c.is(cwFiller) || c.is(cwLink) || c.is(cwOrdinal)) {
			continue
		}
		break
	}
	c := r.at(k)
	if c != nil && (c.isTable() || c == r.q.whichCol || free(c) && c.isColumn() && !numericCol(c) && !c.isValue()) {
		return c // "the grape variety with the most vineyards": a column's values ranked
	}
	return nil
}

func (c *chunk) isColumnOf(t *chunk) bool {
	for _, col := range c.columns() {
		for _, tb := range t.tables() {
			if col.t == tb {
				return true
			}
		}
	}
	return false
}

// readAggregates reads the aggregates asked for: "how many X", "the number
// of X", "the average, minimum and maximum age".
func (r *creader) readAggregates() error {
	for i := 0; i < len(r.cs); i++ {
		c := r.cs[i]
		if !free(c) {
			continue
		}
		switch {
		case c.is(cwPercent) && c.kind == ckWord:
			if err := r.readPercent(i, c); err != nil {
				return err
			}
		case c.is(cwCount) && c.kind == ckWord:
			j := i
			for nx := r.at(r.next(j + 1)); free(nx) && nx.is(cwCount) && nx.kind == ckWord; nx = r.at(r.next(j + 1)) {
				// "count the number of"
				r.use(r.at(j), "count")
				j = r.next(j + 1)
			}
			t := r.countTarget(j)
			if t.err != nil {
				return t.err
			}
			if !t.ok() && r.hasCountItem() && c.text == "count" {
				// "Show the site name and the count": the count asked before
				r.use(c, "the count")
				continue
			}
			if !t.ok() {
				return decline("%q: count of what?", c.text).withHint("e.g. how many followed by a table's rows")
			}
			r.q.items = append(r.q.items, &citem{agg: t.agg, pos: i})
			i = t.end - 1
		case c.is(cwAgg) && (c.info.fn == "MAX" || c.info.fn == "MIN") && r.rankOwner(i) != nil && r.q.rankBy == nil &&
			r.term(i+1).agg != nil && r.term(i+1).agg.rows != nil:
			// "the T with the maximum number of U": a ranking
			t := r.term(i + 1)
			r.useTerm(t, i+1, "counted per ranked row")
			r.use(c, "ranking %s", c.text)
			dir := 1
			if c.info.fn == "MIN" {
				dir = -1
			}
			r.q.rankBy, r.q.limit = &corder{agg: t.agg, dir: dir}, 1
			r.q.ranked = r.rankOwner(i)
			i = t.end - 1
		case c.is(cwAgg) && (c.kind == ckWord || r.aggArgAt(i+1)) || superFn(c) != "" && r.inAggregateList(i):
			next, err := r.readAggregate(i, c)
			if err != nil {
				return err
			}
			i = next
		}
	}
	return nil
}

// readPercent reads "the percentage of T" (a count of T, made a share by
// the question's one condition), or "as a percentage" after the count.
func (r *creader) readPercent(i int, c *chunk) error {
	if r.q.percent != nil && !r.term(i+1).ok() {
		r.use(c, "a percentage") // "the share of T, as a percentage"
		return nil
	}
	if r.q.percent != nil {
		return decline("%q and %q: one percentage at a time", r.q.percent.text, c.text)
	}
	r.use(c, "a percentage")
	t := r.countTarget(i)
	if t.err != nil {
		return t.err
	}
	switch {
	case t.ok() && t.agg != nil && t.agg.fn == "COUNT" && t.agg.arg == nil && !t.agg.distinct:
		r.q.items = append(r.q.items, &citem{agg: t.agg, pos: i})
	case !t.ok() && r.hasCountItem():
		// "how many T are X, as a percentage"
	default:
		return decline("%q of what? name the rows", c.text).withHint("e.g. what percentage of the orders are paid")
	}
	r.q.percent = c
	return nil
}

// nounAfter: the chunk after i is a column or a word not known ("trip
// length": the table's noun modifies what follows).
func (r *creader) nounAfter(i int) bool {
	nx := r.at(i + 1)
	return nx != nil && (nx.isColumn() || nx.kind == ckWord && nx.info.cw == cwNone)
}

// onlyMeasureOf is the table chunk arg read as its one measure, when the
// aggregates are all averages and arg names only a table whose rows hold
// one number that is a measure (a rating's stars); nil otherwise.
func (r *creader) onlyMeasureOf(arg *chunk, fns []*chunk) *chunk {
	if !free(arg) || !arg.isTable() || arg.isColumn() || arg.isValue() {
		return nil
	}
	for _, f := range fns {
		if f.info.fn != "AVG" {
			return nil
		}
	}
	ts := arg.tables()
	if len(ts) != 1 {
		return nil
	}
	found := onlyMeasure(ts[0])
	if found == nil {
		return nil
	}
	m := *arg
	m.ms = []*meaning{{kind: mColumn, t: found.t, c: found, strength: strengthWord}}
	return &m
}

// onlyMeasure is t's one number column that is a measure (not a key,
// year or date), or nil when it has none or several.
func onlyMeasure(t *table) *column {
	var found *column
	for _, c := range t.cols {
		if c.kind != catalog.KindMeasure || c.isKey() || yearColumn(c) || c.dateType {
			continue
		}
		if found != nil {
			return nil
		}
		found = c
	}
	if found == nil || !found.numeric && !numericText(found) {
		return nil
	}
	return found
}

// readAggregate reads "the average (and maximum) of C", "the total C and
// D", "the average number of C" from the aggregate word at i; it returns
// the index of the last chunk it read.
func (r *creader) readAggregate(i int, c *chunk) (int, error) {
	fns := []*chunk{c}
	j := r.next(i + 1)
	for {
		nx := r.at(j)
		if free(nx) && (nx.is(cwAnd) || nx.kind == ckWord && nx.text == "and") {
			if ag := r.at(r.next(j + 1)); free(ag) && (ag.is(cwAgg) || superFn(ag) != "") {
				r.use(nx, "and")
				j = r.next(j + 1)
				continue
			}
		}
		if free(nx) && (nx.is(cwAgg) || superFn(nx) != "") && nx != fns[len(fns)-1] {
			fns = append(fns, nx)
			j = r.next(j + 1)
			continue
		}
		break
	}
	if of := r.at(j); free(of) && of.kind == ckWord && of.text == "of" {
		r.use(of, "of")
		j = r.next(j + 1)
	}
	if nb := r.at(j); free(nb) && nb.is(cwCount) && nb.kind == ckWord {
		// "the average number of seats": a number column
		if col := r.at(r.next(j + 1)); free(col) && col.isColumn() && numericCol(col) && !col.isTable() {
			if per := r.at(r.next(r.next(j+1) + 1)); per != nil && per.kind == ckWord && per.text == "per" {
				// "the average number of minutes per caller": one
				// figure (the total over the callers) or one each?
				return 0, finalDecline("%q per row of what follows: one average over all of them, or one for each?", c.text+" "+nb.text+" "+col.text).
					withHint("ask for the total %s divided by the number of rows, or the average %s for each", col.text, col.text)
			}
			r.use(nb, "number of")
			j = r.next(j + 1)
		}
	}
	arg := r.at(j)
	if m := r.onlyMeasureOf(arg, fns); m != nil && !r.nounAfter(j) {
		// "the average rating" where ratings are rows with one number
		// (their stars): the average of that number
		arg = m
		r.cs[j] = m
	}
	if !free(arg) || !arg.isColumn() {
		if c.kind != ckWord {
			return i, nil // a column named like an aggregate ("Average")
		}
		return 0, decline("%q of what? I found no column after it", c.text).withHint("e.g. %s followed by a number column", c.text)
	}
	r.use(arg, "aggregated")
	for _, f := range fns {
		fn := f.info.fn
		if fn == "" {
			fn = superFn(f)
		}
		r.use(f, "%s", fn)
		r.q.items = append(r.q.items, &citem{agg: &cagg{fn: fn, arg: arg}, pos: r.cs.index(f)})
	}
	// "the total revenue and quantity": the same aggregate of both
	if and, nx := r.at(j+1), r.at(r.next(j+2)); len(fns) == 1 && free(and) && and.is(cwAnd) && free(nx) && nx.isColumn() && numericCol(nx) {
		r.use(and, "and")
		r.use(nx, "aggregated")
		r.q.items = append(r.q.items, &citem{agg: &cagg{fn: c.info.fn, arg: nx}, pos: r.cs.index(nx)})
		j = r.cs.index(nx)
	}
	return j, nil
}

// hasCountItem: the question already asks for a count.
func (r *creader) hasCountItem() bool {
	for _, it := range r.q.items {
		if it.agg != nil && it.agg.fn == "COUNT" {
			return true
		}
	}
	return false
}

// valueCount: "how many cats are there" counts the rows a plural value
// names (the rows whose column holds it); nothing else is counted.
func (r *creader) valueCount(i int, v *chunk) cterm {
	if !pluralValue(v) {
		return cterm{}
	}
	r.use(r.at(i), "count")
	return cterm{agg: &cagg{fn: "COUNT"}, end: r.cs.index(v) + 1}
}

// pluralValue: a value of one column, typed as the plural of the value
// stored ("cats" for Cat): it names rows.
func pluralValue(v *chunk) bool {
	if v == nil || !v.onlyValue() || v.j-v.i > 3 || !strings.HasSuffix(v.text, "s") && !collectiveNouns[v.text] {
		return false
	}
	var cols []*column
	for _, m := range v.ms {
		if m.kind != mValue || strings.EqualFold(m.value, v.text) && !collectiveNouns[v.text] && (m.c.isName() || m.c.kind == catalog.KindLabel) {
			return false
		}
		if m.c.isKey() || len(m.c.t.cols) <= 3 && (m.c.isName() || len(m.c.t.in) > 0) {
			// the name (or description) of one row of a codes table ("the
			// trainees"): the rows linking to it
			return false
		}
		cols = appendUnique(cols, m.c)
	}
	return len(cols) == 1
}

// countTarget reads what "how many" counts, skipping values and literals
// that filter it ("how many Gold members"), and consumes it.
func (r *creader) countTarget(i int) cterm {
	j := r.next(i + 1)
	distinct := false
	if d := r.at(j); free(d) && d.is(cwDistinct) {
		distinct = true
		r.use(d, "distinct")
		j = r.next(j + 1)
	}
	if of := r.at(j); free(of) && of.kind == ckWord && of.text == "of" {
		r.use(of, "of")
		j = r.next(j + 1)
	}
	if u := r.at(j); free(u) && u.kind == ckWord && u.info.cw == cwNone {
		if unit, ok := unitNouns[u.text]; ok && unit != "" {
			// "how many kilograms were picked": the total of the weight
			r.use(r.at(i), "SUM")
			r.use(u, "the %s column", unit)
			return cterm{agg: &cagg{fn: "SUM", unit: unit, said: u.text}, end: j + 1}
		}
	}
	var lastValue *chunk
	for k := j; k < len(r.cs); k = r.next(k + 1) {
		t := r.at(k)
		nx := r.at(r.next(k + 1))
		switch {
		case t != nil && t.kind == ckWord && t.info.cw == cwFiller && t.role == "":
			continue // "count the library loans": the database's own name
		case !free(t):
			return cterm{}
		case lastValue != nil && t.isColumn() && valueOf(lastValue, t) && nx.isTable():
			// "how many <value> C T": the value's column
			continue
		case t.isColumn() && flagChunk(t) && (nx.isTable() || lastValue != nil || pluralValue(nx)):
			// "how many discontinued products", "how many dogs are
			// vaccinated": a yes/no of the rows counted
			continue
		case t.isTable() && !t.isValue() && nx.isTable() && !nx.isValue() && !nx.isColumn() && !nx.verb && !pastParticiple(nx.text) && !strings.HasSuffix(nx.text, "ed") && r.next(k+1) == k+1 && !nx.stop && (r.m.reachesWithin(nx.tables(), t.tables(), len(r.m.tables)) || lastValue == nil && r.m.reachesWithin(t.tables(), nx.tables(), 1)):
			// "how many <value> kiosk crates", "how many shaded kiosk
			// crates": the crates counted (the last noun), the kiosk's
			// value or yes/no says which; "how many crate kinds": the kinds
			continue
		case t.isTable() && r.at(i).text == "how many times":
			// "how many times were books by X borrowed": the rows linking to them
			r.use(r.at(i), "count")
			r.use(t, "the rows linked to")
			r.q.timesOf = t
			return cterm{agg: &cagg{fn: "COUNT", linked: true}, end: k + 1}
		case t.isTable() && !(distinct && t.isColumn() && !t.onlyTableOrKey()):
			if q := rowsQuantity(factQuantityOf(t), t.tables(), rowWords[r.at(k+1).textOr()] || rowWords[finalWord(t.text)]); q != nil {
				return cterm{err: finalDecline("%q could mean the number of %s rows or the total of %s", r.at(i).text+" "+t.text, t.text, q.ref()).
					withHint("ask for the number of %s, or the total %s", t.text, q.phrase())}
			}
			r.use(r.at(i), "count")
			r.use(t, "counted")
			return cterm{agg: &cagg{fn: "COUNT", rows: t}, end: k + 1}
		case t.isColumn() && !t.onlyValue():
			if strings.Contains(r.at(i).text, "total") && !numericCol(t) {
				// "the total number of credits" on a text column: a sum I
				// can't compute, never its distinct values
				return cterm{err: finalDecline("%q of %q: a column of text; I can't add it up", r.at(i).text, t.text)}
			}
			if strings.Contains(r.at(i).text, "total") && numericCol(t) {
				// "the total number of volunteers": a number column added up
				r.use(r.at(i), "SUM")
				r.use(t, "aggregated")
				return cterm{agg: &cagg{fn: "SUM", arg: t}, end: k + 1}
			}
			words := strings.Fields(t.text)
			_, unit := unitNouns[words[len(words)-1]]
			if unit && !distinct && !numericCol(t) {
				return cterm{err: finalDecline("%q of %q: a column of text; I can't add it up", r.at(i).text, t.text)}
			}
			if unit && !distinct && numericCol(t) {
				// "how many overtime hours": a quantity in a unit, added up
				r.use(r.at(i), "SUM")
				r.use(t, "aggregated")
				return cterm{agg: &cagg{fn: "SUM", arg: t}, end: k + 1}
			}
			for _, col := range t.columns() {
				if (col.additive() || (col.numeric || col.numberAsText()) && !distinct) && !col.isKey() {
					return cterm{err: notMine("%q of %q: a quantity to add up, or its distinct values?", r.at(i).text, t.text)}
				}
			}
			if rows := eventOfRows(t); rows != nil && !distinct {
				// "the number of deals started": the deals, counted (their
				// start dates are when, not what is counted)
				t.ms = append(t.ms, &meaning{kind: mTable, t: rows})
				r.use(r.at(i), "count")
				r.use(t, "counted")
				return cterm{agg: &cagg{fn: "COUNT", rows: t}, end: k + 1}
			}
			if e := refNamedBy(t); e != nil && !distinct {
				// "count the kite owners": every owner, or the owners of a kite?
				return cterm{err: finalDecline("%q could mean every row of %s or only those %s refers to", t.text, e.to.name, e.from.name).
					withHint("ask for the number of %s, or the number of different %s in %s", e.to.name, e.col.name, e.from.name)}
			}
			if v, rows := r.at(k+1), r.at(k+2); v != nil && rows != nil && (v.isValue() && valueOfColumn(v, t) || v.kind == ckLit) && rows.isTable() {
				// "how many grade A masts": masts of that grade, not how
				// many grades there are
				return cterm{err: finalDecline("%q counts the %s of that %s, not the different %s values, and I don't read it so offline", r.at(i).text+" "+t.text+" "+v.orig+" "+rows.text, rows.text, t.text, t.text).
					withHint("ask how many %s have %s %s", rows.text, t.text, v.orig)}
			}
			r.use(r.at(i), "count")
			r.use(t, "counted (distinct values)")
			return cterm{agg: &cagg{fn: "COUNT", arg: t, distinct: true}, end: k + 1}
		case t.isValue() || t.kind == ckLit:
			lastValue = t
			continue
		}
		return r.valueCount(i, lastValue)
	}
	return r.valueCount(i, lastValue)
}

// valueOfColumn: v is a value of one of the column chunk t's columns.
func valueOfColumn(v, t *chunk) bool {
	cols := t.columns()
	return slices.ContainsFunc(v.ms, func(m *meaning) bool { return m.kind == mValue && slices.Contains(cols, m.c) })
}

// eventOfRows is the table of a phrase "<T> <participle>" naming T's
// date of that event ("deals started", "episodes released"), or nil.
func eventOfRows(t *chunk) *table {
	ws := strings.Fields(t.text)
	cols := t.columns()
	if len(ws) < 2 || len(cols) != 1 || !participleLike(ws[len(ws)-1]) || !dateOrYear(cols[0]) {
		return nil
	}
	tb := cols[0].t
	if catalog.Singular(ws[len(ws)-2]) != catalog.Singular(tb.lastWord) {
		return nil
	}
	return tb
}

// refNamedBy: a phrase of several words naming only a foreign key whose last
// word names the table it refers to ("kite owners" for a kite's owner key):
// the rows of that table, or the ones referred to.
func refNamedBy(c *chunk) *edge {
	words := strings.Fields(c.text)
	cols := c.columns()
	if len(words) < 2 || len(cols) != 1 || cols[0].fk == nil {
		return nil
	}
	if e := cols[0].fk; catalog.Singular(words[len(words)-1]) == e.to.lastWord {
		return e
	}
	return nil
}

// factQuantityOf: an additive column of another, fact table the table
// phrase also names (the rows of a table, or another table's count of
// them).
func factQuantityOf(c *chunk) *column {
	ts := c.tables()
	for _, m := range c.ms {
		if m.kind == mColumn && m.c.additive() && m.t.role == "fact" && !slices.Contains(ts, m.t) && m.strength > strengthHead {
			return m.c
		}
	}
	return nil
}

// rowWords after a table's noun say its rows are meant ("download records").
var rowWords = setOf("records", "record", "rows", "row", "entries", "entry", "lines", "line")

func finalWord(s string) string {
	ws := strings.Fields(s)
	if len(ws) == 0 {
		return ""
	}
	return ws[len(ws)-1]
}

// rowsQuantity is what "how many <T>" could add up instead of counting
// T's rows: a fact table's quantity q, else the one table's own count of
// its things (selfCount) unless the question says it means the rows
// ("… records"); nil when the rows are all it can mean.
func rowsQuantity(q *column, ts []*table, rowsSaid bool) *column {
	if q != nil || len(ts) != 1 || rowsSaid {
		return q
	}
	return selfCount(ts[0])
}

// selfCount is a number column of t that counts t's own things in each row
// ("total", "count": a row of page views holding how many there were), or
// nil: "how many <T>" could then be its rows or that column added up.
func selfCount(t *table) *column {
	for _, c := range t.cols {
		if !c.numeric || c.isKey() || c.fk != nil || !strings.Contains(strings.ToUpper(c.typ), "INT") {
			continue // an invoice's total is its money, not a number of invoices
		}
		switch strings.ToLower(c.name) {
		case "total", "count", "cnt", "tally", "hits", "n":
			return c
		}
		// "units_wasted" in a waste table: how much waste each row is (a
		// quantity, never "invoiced_at" in an invoice table)
		if c.kind != catalog.KindMeasure {
			continue
		}
		for _, tw := range catalog.IdentifierWords(t.bare) {
			stem := catalog.Singular(tw)
			for _, w := range catalog.IdentifierWords(c.name) {
				if len(stem) >= 4 && len(w) > len(stem) && strings.HasPrefix(w, stem) && participleLike(w) {
					return c
				}
			}
		}
	}
	return nil
}

// onlyTableOrKey: the chunk names tables, or columns that are keys.
func (c *chunk) onlyTableOrKey() bool {
	for _, m := range c.ms {
		if m.kind == mColumn && !m.c.isKey() {
			return false
		}
	}
	return true
}

// perUnitOf: a column among ms is named "<...>_per_<w>" ("price_per_night"
// of "night"): "per w" after its number is the column's unit.
func perUnitOf(ms []*meaning, w string) bool {
	for _, m := range ms {
		if m.kind != mColumn {
			continue
		}
		ws := catalog.IdentifierWords(m.c.name)
		for k := 1; k < len(ws); k++ {
			if ws[k-1] == "per" && catalog.Singular(ws[k]) == catalog.Singular(w) {
				return true
			}
		}
	}
	return false
}

// readGroups reads "for each X", "in each X", "per X", and "each X" / "by X"
// after an aggregate.
func (r *creader) readGroups() error {
	agg := r.hasAggregate()
	for i, c := range r.cs {
		if !free(c) {
			continue
		}
		if !(c.is(cwGroup) || c.is(cwEach) || c.is(cwBy)) || c.kind != ckWord {
			continue
		}
		if c.is(cwBy) && r.agentBy(i) {
			continue // "sailings commanded by skippers": who did it, not a grouping
		}
		if nx, pv := r.at(i+1), r.at(i-1); c.text == "per" && free(nx) && pv != nil && pv.kind == ckNum && perUnitOf(nx.ms, nx.text) {
			// "cost over 70 per night" beside price_per_night: the
			// column's unit, not a grouping
			r.use(c, "unit")
			r.use(nx, "unit")
			continue
		}
		if !agg {
			if nx := r.at(r.next(i + 1)); r.q.rankBy != nil && free(nx) && nx.isColumn() && !nx.isTable() {
				// "the oldest member of each club": one per club
				return decline("%q with %q %s: the %s of each group is not answered offline", r.q.rankBy.src(), c.text, nx.text, r.q.rankBy.src()).
					withHint("ask for the minimum or maximum for each %s", nx.text)
			}
			if nx := r.at(r.next(i + 1)); free(nx) && grainWords[nx.text] && (c.is(cwGroup) || c.is(cwEach)) {
				// "what did hoists cost per each year": a figure per year,
				// but no word says which (a total? an average?)
				return notMine("%q %s with nothing to count or add up: which figure for each %s?", c.text, nx.text, nx.text)
			}
			if c.is(cwGroup) && everyWords[c.text] || c.is(cwEach) {
				r.use(c, "every") // "the name of each T": every T
				if t := r.at(r.next(i + 1)); t.isTable() {
					r.q.perRow = t
				}
			}
			continue
		}
		t := r.term(i + 1)
		if t.col == nil && t.rows == nil {
			if c.is(cwGroup) {
				return decline("%q is not followed by what to group by", c.text).withHint("e.g. for each followed by a column or a table")
			}
			continue
		}
		if t.col != nil && grainWords[t.col.text] && qualifiedOnly(t.col.text, t.col.ms) {
			// "in each year" and a founded_year column: that, or the year of
			// the rows' own date?
			return notMine("%q could be the year of the rows' own date or %s", t.col.text, t.col.text)
		}
		if t.col != nil && !t.col.isTable() && allAdditive(t.col) {
			// "the mean takings per crate" where crates is a quantity:
			// a ratio, not a group per crate count
			return notMine("%q %q: a ratio to the quantity, or one group per value of it?", c.text, t.col.text)
		}
		r.use(c, "group")
		if t.col != nil {
			r.useTerm(t, i+1, "group by")
			r.q.groups = append(r.q.groups, t.col)
		} else {
			r.useTerm(t, i+1, "group by")
			r.q.groups = append(r.q.groups, t.rows)
		}
		// "by country and city"
		if and := r.at(t.end); free(and) && and.is(cwAnd) {
			if t2 := r.term(t.end + 1); t2.col != nil {
				r.use(and, "and")
				r.useTerm(t2, t.end+1, "group by")
				r.q.groups = append(r.q.groups, t2.col)
			}
		}
	}
	return nil
}

// allAdditive: every column the chunk names is a quantity to add up.
func allAdditive(c *chunk) bool {
	cols := c.columns()
	for _, col := range cols {
		if !col.additive() || col.isKey() || yearColumn(col) {
			return false
		}
	}
	return len(cols) > 0
}

// agentBy: "by" after a verb says who did it ("commanded by", "written by").
func (r *creader) agentBy(i int) bool {
	pv := r.at(i - 1)
	if pv == nil {
		return false
	}
	w := pv.text
	return pv.is(cwLink) || pv.verb || pv.kind == ckWord && pv.info.cw == cwNone && (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "en")) ||
		pv.kind == ckWord && (w == "was" || w == "were" || w == "is" || w == "are") // "made by": "were by"
}

// everyWords say "every row" when nothing is computed per group.
var everyWords = setOf("for each", "of each", "for every", "of every", "for all the", "in every", "in each")

func (r *creader) hasAggregate() bool {
	for _, it := range r.q.items {
		if it.agg != nil {
			return true
		}
	}
	return r.q.rankBy != nil && r.q.rankBy.agg != nil
}

// participleLike: a past participle ("observed", "taken"): a passive
// verb, whose rows are linked to the ones ranked.
// amountVerbs say how much a row is worth or measures, not how often rows
// link to it ("which kiosk is paid the least" ranks a fee, not visits).
var amountVerbs = setOf("paid", "priced", "charged", "valued", "rated", "scored", "weighed", "earned", "billed", "costed", "insured", "taxed", "funded",
	"carries", "carry", "carried", "holds", "hold", "held", "costs", "cost", "earns", "earn", "sells", "sell", "sold")

func participleLike(w string) bool {
	return strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "en") || irregularParticiples[w] != [2]string{}
}

// verbColumn is the one number column of the ranked rows a verb names by
// its stem ("weighs" for a weight column, "costs" for cost), or nil.
// With anyType, a column of any type the verb names (to decline on).
func (r *creader) verbColumn(v *chunk, anyType bool) *column {
	if v == nil || v.kind != ckWord || r.q.which == nil {
		return nil
	}
	stem := strings.TrimSuffix(v.text, "s")
	if len(stem) < 4 {
		return nil
	}
	var found *column
	for _, t := range r.q.which.tables() {
		for _, c := range t.cols {
			if !anyType && !c.numeric && !c.numberAsText() || c.isKey() {
				continue
			}
			for _, w := range spelledWords(c.name) { // "wt_tonnes": a weight
				if strings.HasPrefix(w, stem) && len(w) <= len(stem)+2 {
					if found != nil && found != c {
						return nil
					}
					found = c
				}
			}
		}
	}
	return found
}
