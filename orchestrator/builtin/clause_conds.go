package builtin

import (
	"slices"
	"strings"
	"time"

	"talk2tables/catalog"
)

// The condition steps: comparisons, names, patterns, existence, values,
// dates; then what is left is the select list and the subject.

// linkWords may stand between a column and what it is compared with.
var linkWords = setOf("is", "are", "was", "were", "be", "whose", "with", "has", "have", "having", "that", "who",
	"which", "where", "a", "an", "the", "of", "equal", "in", "at", "on", "for", "from", "by", "its", "their",
	"his", "her", "whose is", "than", "to")

// colBefore is the nearest free column chunk before i, across link words.
func (r *creader) colBefore(i int) *chunk {
	for k := i - 1; k >= 0; k-- {
		c := r.at(k)
		switch {
		case c.kind == ckWord && (linkWords[c.text] || c.is(cwHave) || c.is(cwLink) || c.is(cwNeg) && (c.text == "not" || strings.HasSuffix(c.text, " not")) && k == i-1):
			continue // "whose fuel is not diesel": the negation is the value's
		case c.is(cwLink) && weakColumn(c):
			continue // "appointments that last more than 45 minutes": a verb
		case free(c) && c.isColumn() && !c.onlyValue():
			return c
		}
		return nil
	}
	return nil
}

// adjTable is the table named right before the comparator at i, across
// "that are", "which were": whose unit an adjective speaks of.
func (r *creader) adjTable(i int) *chunk {
	for k := i - 1; k >= 0; k-- {
		c := r.at(k)
		switch {
		case c.kind == ckWord && (linkWords[c.text] || c.is(cwHave)):
			continue
		case c.isTable() && !c.isValue():
			return c
		}
		return nil
	}
	return nil
}

// emptiable: "no <column>" means an empty column — a year, a date or a
// key ("no opening year", "no conductor"), not a quantity ("no stock": zero?).
func emptiable(c *chunk) bool {
	for _, col := range c.columns() {
		if !(yearColumn(col) || col.kind == "date" || col.dateType || col.isKey()) {
			return false
		}
	}
	return len(c.columns()) > 0
}

// weakColumn: the chunk names columns only by a head word or a part of
// their identifier.
func weakColumn(c *chunk) bool {
	for _, m := range c.ms {
		if m.kind == mColumn && m.strength > strengthHead {
			return false
		}
	}
	return true
}

// numAt reads a number at i (skipping soft words): its chunk, or nil.
func (r *creader) numAt(i int) *chunk {
	c := r.at(r.next(i))
	if free(c) && c.kind == ckNum {
		return c
	}
	return nil
}

// numberBeforeColumn is the year-like column right after the number at i
// ("the 2025 season"), when nothing else follows that would make it a count.
func (r *creader) numberBeforeColumn(i int) *chunk {
	col := r.at(i + 1)
	if !free(col) || !col.isColumn() || col.isTable() {
		return nil
	}
	for _, c := range col.columns() {
		if !yearColumn(c) {
			return nil
		}
	}
	return col
}

// numColumnOrMore: a number, a number column, "or more" at i.
func (r *creader) numColumnOrMore(i int) bool {
	col, om := r.at(i+1), r.at(i+2)
	return free(col) && col.isColumn() && !col.isTable() && numericCol(col) && free(om) && om.is(cwOrMore)
}

// timesWords are numbers that count occasions.
var timesWords = setOf("once", "twice", "thrice")

// numberText is the text of the number chunk of the comparison [i, end).
func (r *creader) numberText(i, end int) string {
	for k := i; k < end; k++ {
		if c := r.at(k); c != nil && c.kind == ckNum {
			return c.text
		}
	}
	return ""
}

// unitNouns name the unit of a number: "20 square meters", "5 kg".
var unitNouns = map[string]string{
	"square meters": unitSize, "square metres": unitSize, "square feet": unitSize, "sqm": unitSize, "m2": unitSize,
	"acres": unitSize, "hectares": unitSize, "hectare": unitSize, "ha": unitSize, "meters": "", "metres": "", "km": "", "kilometers": "", "kilometres": "",
	"miles": "", "cm": unitHeight, "centimeters": unitHeight, "centimetres": unitHeight, "inches": unitHeight,
	"feet": unitHeight, "kg": unitWeight, "kilograms": unitWeight, "kilos": unitWeight, "grams": unitWeight,
	"pounds": unitWeight, "lbs": unitWeight, "tons": unitWeight, "tonnes": unitWeight, "dollars": unitMoney,
	"euros": unitMoney, "usd": unitMoney, "eur": unitMoney, "minutes": unitDuration, "mins": unitDuration,
	"hours": unitDuration, "seconds": unitDuration, "days": unitDuration, "weeks": unitDuration,
	"percent": "", "points": "", "liters": "", "litres": "",
}

// unitNounAt reads a unit noun of one or two words at k.
func (r *creader) unitNounAt(k int) (int, string) {
	for n := 2; n >= 1; n-- {
		var ws []string
		ok := true
		for x := k; x < k+n; x++ {
			c := r.at(x)
			if !free(c) || c.kind == ckSchema && (c.isTable() || c.isValue()) || c.kind != ckWord && c.kind != ckSchema || c.info.cw != cwNone && c.info.cw != cwFiller {
				ok = false
				break
			}
			ws = append(ws, c.text)
		}
		if !ok {
			continue
		}
		if u, found := unitNouns[strings.Join(ws, " ")]; found {
			return n, u
		}
	}
	return 0, ""
}

// ageUnit: "30 years old", "years of age" after a number.
var ageUnit = setOf("years old", "year old", "years of age", "yrs old", "years")

// fromYearOn: the year at i is said "from <year> on" (or onwards, or
// onward), "from the year <year> on".
func (r *creader) fromYearOn(i int) bool {
	from, on := r.at(r.yearFrom(i)), r.at(i+1)
	return free(from) && from.kind == ckWord && from.text == "from" && free(on) && on.kind == ckWord &&
		(on.text == "on" || on.text == "onwards" || on.text == "onward")
}

// yearFrom is where the word before the year at i is, past a "the year"
// between them.
func (r *creader) yearFrom(i int) int {
	k := r.prev(i - 1)
	if y := r.at(k); free(y) && y.kind == ckWord && (y.text == "year" || y.text == "the year") {
		return r.prev(k - 1)
	}
	return k
}

// timeOrMore open a year's range to one side ("2021 or later").
var timeOrMore = setOf("or later", "or after", "or newer", "or earlier", "or before")

// readComparisons reads column-number, column-column and column-average
// comparisons, and comparisons of how many related rows there are.
func (r *creader) readComparisons() error {
	for i := 0; i < len(r.cs); i++ {
		c := r.cs[i]
		if !free(c) {
			continue
		}
		switch {
		case c.is(cwCmp):
			if err := r.readComparison(i); err != nil {
				return err
			}
		case c.kind == ckNum && r.numColumnOrMore(i):
			// "1000 vines or more"
			col, om := r.at(i+1), r.at(i+2)
			r.use(c, "%s %s", om.info.op, c.text)
			r.use(col, "compared")
			r.use(om, "%s", om.info.op)
			r.addCond(&ccond{kind: ccCmp, op: om.info.op, a: c.num, col: col, src: c})
		case c.kind == ckNum && c.isInt && c.num >= 1000 && c.num < 3000 && r.fromYearOn(i):
			// "born from 2000 on": from the start of that year, no end
			k := r.yearFrom(i)
			from, on := r.at(k), r.at(i+1)
			rng := yearRange(int(c.num))
			rng.end = time.Time{}
			rng.phrase = from.text + " " + c.text + " " + on.text
			for _, y := range r.cs[k+1 : i] {
				if free(y) {
					r.use(y, "year") // "from the year 1990 on"
				}
			}
			r.use(from, "from")
			r.use(c, "year %s", c.text)
			r.use(on, ">=")
			cd := &ccond{kind: ccRange, rng: rng, src: c}
			if col := r.colBefore(k); col != nil && (orderable(col) || numericCol(col)) {
				r.dated(col)
				cd.col = col
			}
			r.addCond(cd)
		case c.kind == ckNum && c.isInt && c.num >= 1000 && c.num < 3000 && r.at(i+1) != nil && free(r.at(i+1)) && timeOrMore[r.at(i+1).text]:
			// "opened in 1998 or later": from the start of that year on
			om := r.at(i + 1)
			rng := yearRange(int(c.num))
			if om.info.op == ">=" {
				rng.end = time.Time{}
			} else {
				rng.start = time.Time{}
			}
			rng.phrase = c.text + " " + om.text
			r.use(c, "year %s", c.text)
			r.use(om, "%s", om.info.op)
			cd := &ccond{kind: ccRange, rng: rng, src: c}
			if col := r.colBefore(i); col != nil && (orderable(col) || numericCol(col)) {
				r.dated(col)
				cd.col = col
			}
			r.addCond(cd)
		case c.kind == ckNum:
			// "3 or more pets", "20 or older"
			if om := r.at(i + 1); free(om) && om.is(cwOrMore) {
				r.use(om, "%s", om.info.op)
				r.use(c, "%s %s", om.info.op, c.text)
				cd := &ccond{kind: ccCmp, op: om.info.op, a: c.num, src: c}
				r.compared(cd, i, i+2)
			}
		}
	}
	return nil
}

// readComparison reads the comparison whose comparator is at i.
func (r *creader) readComparison(i int) error {
	c := r.at(i)
	op := c.info.op
	if c.kind == ckWord && (c.text == "over" || c.text == "across" || c.text == "among") {
		// "the mean over all tastings", "the sum over its vintages": every row
		if nx := r.at(r.next(i + 1)); nx != nil && (nx.isTable() || nx.is(cwEach)) && r.numAt(i+1) == nil {
			r.use(c, "over every row")
			return nil
		}
	}
	cd := &ccond{kind: ccCmp, op: op, unit: c.info.unit, src: c}
	j := r.next(i + 1)
	// "above age 20": the column between the comparator and its number
	if col := r.at(j); free(col) && col.isColumn() && !col.onlyValue() && r.numAt(j+1) != nil {
		n := r.numAt(j + 1)
		if op == "between" {
			break1 := r.between(n, r.cs.index(n))
			if break1 == nil {
				return decline("%q needs two numbers: between A and B", c.text)
			}
			cd.a, cd.b = break1[0], break1[1]
		} else {
			cd.a = n.num
			r.use(n, "%s", n.text)
		}
		r.use(c, "%s", op)
		r.use(col, "compared")
		cd.col = col
		r.addCond(cd)
		return nil
	}
	if n := r.numAt(i + 1); n != nil {
		return r.readAgainstNumber(i, c, cd, n)
	}
	// "than the average age", "above the average"
	if ag := r.at(j); free(ag) && ag.is(cwAgg) {
		return r.readAgainstAggregate(i, j, c, ag, op)
	}
	// "different from X", "other than 'x'": a value
	if v := r.at(j); free(v) && (v.kind == ckLit || v.onlyValue()) && (op == "<>" || op == "=") {
		r.use(c, "%s", op)
		col := r.colBefore(i)
		if col != nil {
			r.use(col, "compared")
		}
		r.use(v, "value")
		r.addCond(&ccond{kind: ccValue, col: col, vals: []*chunk{v}, neg: op == "<>", src: c})
		return nil
	}
	// "whose X is greater than their Y": two columns
	if other := r.at(j); free(other) && other.isColumn() && !other.onlyValue() {
		left := r.colBefore(i)
		if left != nil {
			r.use(c, "%s", op)
			r.use(left, "compared")
			r.use(other, "compared with")
			r.addCond(&ccond{kind: ccCol, op: op, col: left, other: other, src: c})
			return nil
		}
	}
	if c.kind == ckSchema {
		return nil // a column named like a comparator; the select reads it
	}
	if op == "between" {
		return nil // "between" a date range reads it, or the word is left over
	}
	return decline("I don't know what %q compares", c.text).withHint("say it with a number, e.g. %s 10", c.text)
}

// costVerbs say the money a row costs, before a comparison.
var costVerbs = setOf("cost", "costs", "costing", "priced", "charged")

// readAgainstNumber reads "above 20", "between 10 and 20": the number n
// after the comparator at i, and the column it compares.
func (r *creader) readAgainstNumber(i int, c *chunk, cd *ccond, n *chunk) error {
	k := r.cs.index(n)
	if cd.op == "between" {
		ab := r.between(n, k)
		if ab == nil {
			return decline("%q needs two numbers: between A and B", c.text).withHint("e.g. between 10 and 20")
		}
		cd.a, cd.b = ab[0], ab[1]
	} else {
		cd.a = n.num
		r.use(n, "%s", n.text)
	}
	r.use(c, "%s", cd.op)
	end := r.cs.index(n) + 1
	if cd.op == "between" {
		end = k + 3
	}
	r.compared(cd, i, end)
	return nil
}

// readAgainstAggregate reads a comparison with an aggregate over all rows
// ("older than the average age", "above the average"): the aggregate at
// j, the column after it (or before the comparator at i).
func (r *creader) readAgainstAggregate(i, j int, c, ag *chunk, op string) error {
	k := r.next(j + 1)
	if of := r.at(k); free(of) && of.kind == ckWord && of.text == "of" {
		k = r.next(k + 1)
	}
	col := r.at(k)
	if !free(col) || !col.isColumn() {
		col = r.colBefore(i)
	} else {
		r.use(col, "averaged")
	}
	if col == nil {
		return decline("%q the %s of what?", c.text, ag.text)
	}
	r.use(c, "%s", op)
	r.use(ag, "%s over all rows", ag.info.fn)
	left := r.colBefore(i)
	if left == nil {
		left = col
	} else {
		r.use(left, "compared")
	}
	r.addCond(&ccond{kind: ccAvg, op: op, col: left, other: col, fn: ag.info.fn, src: c})
	return nil
}

// index is the position of a chunk.
type chunkList []*chunk

func (cs chunkList) index(c *chunk) int {
	for i, x := range cs {
		if x == c {
			return i
		}
	}
	return -1
}

// between reads "A and B" from the number chunk n at k.
func (r *creader) between(n *chunk, k int) []float64 {
	and, m := r.at(k+1), r.at(k+2)
	if !free(and) || !(and.is(cwAnd) || and.text == "to") || !free(m) || m.kind != ckNum {
		return nil
	}
	r.use(n, "%s", n.text)
	r.use(and, "and")
	r.use(m, "%s", m.text)
	a, b := n.num, m.num
	if b < a {
		a, b = b, a
	}
	return []float64{a, b}
}

// compared finds what a comparison with a number compares: a table after
// the number ("more than 3 U": how many related rows), a column
// after it, a column before the comparator, or a unit's column ("older
// than 30": the age).
func (r *creader) compared(cd *ccond, i, end int) {
	k := r.next(end)
	if n, unit := r.unitNounAt(k); n > 0 {
		for x := k; x < k+n; x++ {
			r.use(r.at(x), "unit")
		}
		if cd.unit == "" && unit != "" {
			cd.unit = unit
		}
		end, k = k+n, r.next(k+n)
	}
	if u := r.at(k); free(u) && u.kind == ckWord && ageUnit[u.text] && (cd.unit == "" || cd.unit == unitAge) {
		r.use(u, "age")
		cd.unit = unitAge
		k = r.next(k + 1)
		if o := r.at(k); free(o) && o.kind == ckWord && (o.text == "old" || o.text == "of age") {
			r.use(o, "age") // "30 years old"
			k = r.next(k + 1)
		}
		if cd.col == nil {
			if col := r.colBefore(i); col != nil {
				r.use(col, "compared")
				cd.col = col
			}
		}
		r.addCond(cd)
		return
	}
	if nx := r.at(k); free(nx) && cd.unit != "" && nx.isColumn() && !nx.onlyValue() && r.colBefore(i) == nil {
		// "longer than 300000 milliseconds": the column named after the number
		r.use(nx, "compared")
		cd.col = nx
		r.addCond(cd)
		return
	}
	if nx := r.at(k); free(nx) && nx.isColumn() && !nx.isTable() && numericCol(nx) && !weakColumn(nx) {
		// "fewer than 21 days to ferment": the number column named after the number
		r.use(nx, "compared")
		cd.col, cd.quantity = nx, true
		r.addCond(cd)
		return
	}
	if nx := r.at(k); free(nx) && cd.unit == "" {
		switch {
		case nx.isTable() && !(nx.isColumn() && r.colBefore(i) == nil && !nx.onlyTableOrKey()):
			r.use(nx, "counted")
			r.addCond(&ccond{kind: ccCount, op: cd.op, a: cd.a, b: cd.b, rows: nx, src: cd.src})
			return
		case nx.isColumn() && !nx.onlyValue() && r.colBefore(i) == nil:
			r.use(nx, "compared")
			cd.col = nx
			r.addCond(cd)
			return
		}
	}
	if tm := r.at(k); free(tm) && tm.kind == ckWord && (tm.text == "times" || tm.text == "time") || cd.src != nil && timesWords[r.numberText(i, end)] {
		// "visited more than 3 times", "at least twice": how many rows link
		// to each row
		if free(tm) && tm.kind == ckWord && (tm.text == "times" || tm.text == "time") {
			r.use(tm, "times")
		}
		if r.colBefore(i) == nil {
			r.addCond(&ccond{kind: ccCount, op: cd.op, a: cd.a, b: cd.b, linked: true, src: cd.src})
			return
		}
	}
	if pv := r.at(r.prev(i - 1)); cd.unit == "" && r.colBefore(i) == nil && free(pv) && pv.kind == ckWord && costVerbs[pv.text] {
		// "kiosks that cost over 70": their money column
		r.use(pv, "money")
		cd.unit = unitMoney
	}
	if cd.unit != "" && r.colBefore(i) == nil {
		cd.of = r.adjTable(i)
	}
	if col := r.colBefore(i); col != nil {
		r.use(col, "compared")
		cd.col = col
		// "whose average salary is above 50000": the aggregate per row
		if ag := r.at(r.prev(r.cs.index(col) - 1)); free(ag) && ag.is(cwAgg) && ag.kind == ckWord {
			r.use(ag, "%s per group", ag.info.fn)
			cd.fn = ag.info.fn
		}
		if u := r.at(k); free(u) && unitWordOf(u, col) {
			r.use(u, "unit") // "a floor above 20 m2" on a floor_m2 column
		}
	}
	r.addCond(cd)
}

// saysEach: the question says "each" or "every" of the rows.
func (cs chunkList) saysEach() bool {
	for _, c := range cs {
		if c.kind == ckWord && (c.text == "each" || c.text == "every") {
			return true
		}
	}
	return false
}

// unitWordOf: the chunk u is the last word of a column's identifier that col
// also names ("m2" of floor_m2 after "floor above 20"): the number's unit.
func unitWordOf(u, col *chunk) bool {
	if u.kind != ckSchema || !u.isColumn() || u.isTable() || strings.Contains(u.text, " ") {
		return false
	}
	for _, c := range u.columns() {
		ws := catalog.IdentifierWords(c.name)
		if len(ws) > 1 && ws[len(ws)-1] == u.text && slices.Contains(col.columns(), c) {
			return true
		}
	}
	return false
}

func (r *creader) addCond(cd *ccond) { r.q.conds = append(r.q.conds, cd) }

// readOr joins two conditions an unused "or" stands between ("older than
// 30 or younger than 20", "a value or a yes/no column").
func (r *creader) readOr() error {
	for i, c := range r.cs {
		if !free(c) || !c.is(cwOr) {
			continue
		}
		var before, after *ccond
		bi, ai := -1, len(r.cs)
		for _, cd := range r.q.conds {
			k := r.cs.index(cd.src)
			if k < i && k > bi {
				before, bi = cd, k
			}
			if k > i && k < ai {
				after, ai = cd, k
			}
		}
		if before == nil || after == nil || before.kind == ccExists || after.kind == ccExists || before.kind == ccCount || after.kind == ccCount {
			return decline("I can't tell what %q joins here", c.text).withHint("ask about one condition at a time")
		}
		r.use(c, "or")
		before.or = append(before.or, after)
		after.merged = true
	}
	kept := r.q.conds[:0]
	for _, cd := range r.q.conds {
		if !cd.merged {
			kept = append(kept, cd)
		}
	}
	r.q.conds = kept
	return nil
}

// readNamed reads "named X", "called 'X'", "titled X": the name of the rows
// of the table before it.
func (r *creader) readNamed() error {
	for i, c := range r.cs {
		if !free(c) || !c.is(cwNamed) || c.kind != ckWord {
			continue
		}
		if nx := r.at(r.next(i + 1)); nx != nil && nx.kind == ckWord && particles[nx.text] {
			continue // "signed up", "checked in": a phrasal verb, not a name
		}
		v, end := r.nameAfter(i + 1)
		if v == "" {
			return decline("%q is not followed by a name", c.text).withHint("put the name in quotes, e.g. %s 'Name'", c.text)
		}
		r.use(c, "named")
		cd := &ccond{kind: ccValue, lit: v, src: c}
		// the table named: the nearest table chunk before
		for k := i - 1; k >= 0; k-- {
			if t := r.at(k); t.isTable() {
				cd.rows = t
				break
			}
		}
		for k := i + 1; k < end; k++ {
			r.use(r.at(k), "the name %q", v)
		}
		r.addCond(cd)
	}
	return nil
}

// particles end phrasal verbs ("checked out", "signed up"): never a name.
var particles = map[string]bool{"out": true, "up": true, "off": true, "in": true, "on": true,
	"back": true, "away": true, "over": true, "down": true, "for": true, "to": true, "by": true}

// joinOrig joins chunks as typed: by a hyphen where one joined them
// ("NW-B4"), else by a space.
func joinOrig(cs []*chunk) string {
	var b strings.Builder
	for k, c := range cs {
		switch {
		case k > 0 && c.hyphen:
			b.WriteString("-")
		case k > 0:
			b.WriteString(" ")
		}
		b.WriteString(c.orig)
	}
	return b.String()
}

// ofNamedRow: "of" and the name of a row follow at i ("… of Harbour FC").
func (r *creader) ofNamedRow(i int) bool {
	of, v := r.at(i), r.at(i+1)
	return of != nil && of.kind == ckWord && of.text == "of" && v != nil && (v.isValue() || v.capitalised())
}

// ordinalColumn is a number column of t, not its key, that numbers its
// rows another way ("lap_no", "episode_num", "seq"), or nil.
func ordinalColumn(t *table) *column {
	for _, c := range t.cols {
		ws := catalog.IdentifierWords(c.name)
		if len(ws) == 0 || c.isKey() || c.fk != nil || !c.numeric {
			continue
		}
		switch ws[len(ws)-1] {
		case "num", "number", "no", "nr", "seq", "sequence":
			return c
		}
	}
	return nil
}

// keyNumberWords say "number" between a table's noun and a key.
var keyNumberWords = setOf("number", "no", "nr", "num", "#")

// numberedColumn is a column of t, not its key, named a number ("haul_no",
// "rig_number"), numeric or not, or nil.
func numberedColumn(t *table) *column {
	for _, c := range t.cols {
		ws := catalog.IdentifierWords(c.name)
		if len(ws) > 0 && !c.pk && c.fk == nil && keyNumberWords[ws[len(ws)-1]] {
			return c
		}
	}
	return nil
}

// pluralYear: a year after rows named in the plural ("jobs 2024") says
// when, not which one ("job 2024").
func pluralYear(c, nx *chunk) bool {
	return nx.num >= 1900 && nx.num <= 2100 && catalog.Singular(c.text) != c.text
}

// readTableNames reads "the telescope Scope B6": a table's noun followed
// by a capitalised name nothing else knows — the name of one of its rows.
func (r *creader) readTableNames() error {
	for i, c := range r.cs {
		if !c.isTable() || i == 0 {
			continue
		}
		nx := r.at(i + 1)
		if no := nx; free(no) && no.kind == ckWord && keyNumberWords[no.text] && len(c.tables()) == 1 && numberedColumn(c.tables()[0]) == nil {
			// "crate number 12": the key, said with the word "number"
			// where no column numbers the rows another way
			if n := r.at(i + 2); free(n) && n.kind == ckNum {
				r.use(no, "number")
				i, nx = i+1, n
			}
		}
		if free(nx) && nx.kind == ckNum && nx.num == float64(int64(nx.num)) && nx.num >= 0 && !c.isColumn() && r.keyNumberEnds(i+2) && !pluralYear(c, nx) {
			// "application 154", "work order 7015": the row of that key
			if ts := c.tables(); len(ts) == 1 && r.ofNamedRow(i+2) {
				if n := ordinalColumn(ts[0]); n != nil {
					// "lap 10 of the Gold Cup" beside a lap number counted
					// within each race
					return finalDecline("%q: the key of %s or its %s?", c.text+" "+nx.text, ts[0].name, n.name).
						withHint("say which, e.g. %s %s %s", c.text, n.phrase(), nx.text)
				}
			}
			r.use(nx, "the key %s", nx.text)
			r.addCond(&ccond{kind: ccValue, rows: c, vals: []*chunk{nx}, key: true, src: nx})
			continue
		}
		if !free(nx) || !(nx.kind == ckWord && nx.info.cw == cwNone && nx.capitalised()) {
			continue
		}
		v, end := r.nameAfter(i + 1)
		if v == "" {
			continue
		}
		cd := &ccond{kind: ccValue, lit: v, rows: c, src: nx}
		for k := i + 1; k < end; k++ {
			r.use(r.at(k), "the name %q", v)
		}
		r.addCond(cd)
	}
	return nil
}

// keyNumberEnds: what follows a "<table> <number>" does not make the
// number a quantity or a year ("application 154 was", not "applications
// 2025 and 2026", "orders 10 percent").
func (r *creader) keyNumberEnds(i int) bool {
	nx := r.at(i)
	if nx == nil {
		return true
	}
	if nx.kind == ckNum || nx.is(cwAnd) || nx.is(cwCmp) {
		return false
	}
	_, unit := unitNouns[nx.text]
	return !unit
}

// nameAfter reads a name from i: a literal, a known value, or a run of
// capitalised or unknown words. It returns the name as typed and the
// index after it.
func (r *creader) nameAfter(i int) (string, int) {
	var words []*chunk
	if the := r.at(i); free(the) && the.kind == ckWord && the.orig == "The" && r.at(i+1) != nil && r.at(i+1).capitalised() {
		// "called The Lanterns": a capital The mid-sentence is the name's
		words = append(words, the)
		i++
	}
	i = r.next(i)
	c := r.at(i)
	switch {
	case !free(c):
		return "", i
	case c.kind == ckLit && len(words) == 0:
		return c.orig, i + 1
	}
	k := i
	for ; k < len(r.cs); k++ {
		x := r.at(k)
		if !free(x) || len(words) > 0 && x.stop {
			break // a name ends with its sentence ("… Ann Lee? Give …")
		}
		unknown := x.kind == ckWord && x.info.cw == cwNone
		if !(x.capitalised() || unknown || x.kind == ckNum && len(words) > 0) || x.kind == ckLit {
			break
		}
		if x.capitalised() && !unknown && len(words) > 0 && structural(x) {
			break
		}
		if len(words) > 0 && words[0].capitalised() && !x.capitalised() && x.kind != ckNum && !(nameParticles[x.text] && r.at(k+1).capitalised()) {
			break // "named Ann Lee hired …": a capitalised name ends at a lower-case word
		}
		words = append(words, x)
	}
	return joinOrig(words), k
}

// nameParticles are lower-case words inside capitalised names ("Isle of
// Wight", "Ruud van Dijk").
var nameParticles = setOf("of", "van", "von", "de", "der", "den", "la", "le", "du", "da", "di", "del", "the", "and", "on", "upon")

// structural: a clause word that ends a name ("named Ann And ..." aside,
// words such as "and", "with", "in" after a name start the next clause).
func structural(c *chunk) bool {
	return c.kind == ckWord && (c.is(cwAnd) || c.is(cwOr) || c.is(cwHave) || c.is(cwCmp) || c.is(cwOrderBy) || c.is(cwGroup) || c.is(cwFiller) && !softWords[c.text])
}

// readLike reads "containing 'x'", "starting with 'A'", "with 'x' in their name".
func (r *creader) readLike() error {
	for i, c := range r.cs {
		if !free(c) {
			continue
		}
		switch {
		case c.is(cwLike) && c.kind == ckWord:
			if nx := r.at(i + 1); c.text == "like" && (nx == nil || !nx.quoted && !nx.capitalised()) {
				continue // "the crates riggers like best": a verb, not a pattern
			}
			v, end := r.nameAfter(i + 1)
			if v == "" {
				if c.text == "contain" || c.text == "contains" || c.text == "containing" || c.text == "like" {
					continue // "contain" a table's rows: existence, read later
				}
				return decline("%q is not followed by the text to look for", c.text).withHint("put it in quotes, e.g. %s 'abc'", c.text)
			}
			v = afterLetterWord(v)
			if letterWords[strings.TrimPrefix(v, "the ")] {
				// "ending with the letters an": the text is a word I took
				// for English
				return decline("%q %s is not followed by the text to look for", c.text, v).withHint("put it in quotes, e.g. %s 'ab'", c.text)
			}
			r.use(c, "text pattern")
			for k := i + 1; k < end; k++ {
				r.use(r.at(k), "the text %q", v)
			}
			cd := &ccond{kind: ccLike, pat: likePattern(c.info.op, v), src: c}
			if strings.Contains(c.text, "name") {
				// "whose name contains": the name of the rows
			} else if col := r.colBefore(i); col != nil {
				r.use(col, "matched")
				cd.col = col
			}
			// "... containing 'x' in their name"
			if in := r.at(end); free(in) && in.kind == ckWord && in.text == "in" {
				if col := r.at(r.next(end + 1)); free(col) && col.isColumn() {
					r.use(in, "in")
					r.use(col, "matched")
					cd.col = col
				}
			}
			r.addCond(cd)
		case c.kind == ckLit || c.quoted:
			// "with 'Hey' in its name", "have 'pie' in the name" (a
			// quoted word in a column is contained, even where one row's
			// whole name is that word)
			in := r.at(i + 1)
			if !free(in) || in.kind != ckWord || in.text != "in" {
				continue
			}
			col := r.at(r.next(i + 2))
			if !free(col) || !col.isColumn() {
				continue
			}
			r.use(c, "the text %q", c.orig)
			r.use(in, "in")
			r.use(col, "matched")
			if w := r.at(i - 1); free(w) && w.kind == ckWord && (w.text == "word" || w.text == "the word") {
				r.use(w, "word")
			}
			r.addCond(&ccond{kind: ccLike, col: col, pat: likePattern("contains", c.orig), src: c})
		}
	}
	return nil
}

// afterLetterWord is the text after "the letter" or "the word" ("starting
// with the letter K": "K"), or v itself.
var letterWords = setOf("letter", "letters", "word", "words", "character", "characters")

func afterLetterWord(v string) string {
	for _, p := range []string{"the letter ", "letter ", "the letters ", "letters ", "the word ", "word "} {
		if rest, ok := strings.CutPrefix(v, p); ok && rest != "" && !strings.Contains(rest, " ") {
			return rest
		}
	}
	return v
}

func likePattern(op, v string) string {
	v = strings.NewReplacer("%", "", "_", "").Replace(v)
	switch op {
	case "prefix":
		return v + "%"
	case "suffix":
		return "%" + v
	}
	return "%" + v + "%"
}

// readExists reads "X without Y", "X that have no Y", "X who did not attend
// any Y" (no related rows) and "X that have Y" (some).
func (r *creader) readExists() error {
	for i, c := range r.cs {
		if !free(c) {
			continue
		}
		switch {
		case c.is(cwNeg) && c.kind == ckWord:
			k := r.next(i + 1)
			var skipped []*chunk
			for x := r.at(k); free(x) && x.kind == ckWord && (x.is(cwHave) || x.is(cwLink) || softWords[x.text] || x.text == "any" || x.text == "been" || x.text == "be" || x.text == "in" || x.text == "at" || x.text == "on" || x.text == "for" || x.text == "to" || x.text == "by"); x = r.at(k) {
				skipped = append(skipped, x)
				k = r.next(k + 1)
			}
			t := r.at(k)
			rec := r.at(k + 1) // "no altitude recorded": not zero, not there
			if !free(rec) || rec.kind != ckWord || !recordedWords[rec.text] {
				rec = nil
			}
			if free(t) && t.isColumn() && !t.isTable() && !flagChunk(t) && (!numericCol(t) || emptiable(t) || rec != nil) && (c.text == "no" || c.text == "without" || strings.HasSuffix(c.text, " no")) {
				// "T with no C": the column is empty
				if nx := r.at(k + 1); nx == nil || !free(nx) || !(nx.isValue() || nx.kind == ckLit || nx.kind == ckNum) {
					r.use(c, "no")
					for _, x := range skipped {
						r.use(x, "%s", x.text)
					}
					if rec != nil {
						r.use(rec, "on record")
					}
					r.use(t, "empty")
					r.addCond(&ccond{kind: ccNull, col: t, src: c})
					continue
				}
			}
			if !free(t) || !t.isTable() || t.isColumn() && !t.onlyTableOrKey() && !pluralNoun(t) {
				continue
			}
			if nx := r.at(k + 1); free(nx) && (nx.isValue() || nx.kind == ckLit) {
				continue // "not in the France team": a value
			}
			if f := r.flagNaming(i, t); f != nil && needVerbs[r.at(i-1).textOr()] {
				// "kiosks that need no licence" beside the licences table
				// and a needs_licence yes/no of the kiosks: two readings
				return finalDecline("%q: the rows with no %s rows, or by their own %s?", c.text+" "+t.text, t.text, f.ref()).
					withHint("ask for the rows without any %s, or by their %s", t.text, f.name)
			}
			r.use(c, "no")
			for _, x := range skipped {
				r.use(x, "%s", x.text)
			}
			r.use(t, "related rows")
			r.addCond(&ccond{kind: ccExists, rows: t, neg: true, src: c})
		case (c.is(cwHave) || holdVerbs[c.text]) && c.kind == ckWord && r.filledColumn(i) != nil:
			// "T with a C", "how many have a C"
			col := r.filledColumn(i)
			if nx := r.at(r.next(r.cs.index(col) + 1)); linkColumn(col) && nx != nil && r.at(r.cs.index(nx)+1) != nil && nx.kind == ckWord && (nx.is(cwLink) || pastParticiple(nx.text) || nx.text == "who" || nx.text == "that" || nx.text == "whose") {
				// "packers with a mentor hired after 2020": the mentor's
				// hiring, which the packers' own columns do not hold
				return finalDecline("what follows %q is said of the %s's own row, which I can't read offline", col.text, col.text).
					withHint("ask for the %s first, then about that row", col.text)
			}
			r.use(c, "with")
			r.use(col, "filled in")
			r.addCond(&ccond{kind: ccNull, col: col, neg: true, src: c})
		case (c.is(cwHave) || c.is(cwLink)) && c.kind == ckWord:
			k := r.next(i + 1)
			if x := r.at(k); free(x) && x.kind == ckWord && (x.text == "in" || x.text == "at" || x.text == "on" || x.text == "for" || x.text == "to" || x.text == "with" || x.text == "by" || x.text == "any" || x.text == "some" || x.text == "at least one") {
				k = r.next(k + 1)
			}
			t := r.at(k)
			if !free(t) || !t.isTable() || t.isColumn() && !t.onlyTableOrKey() {
				continue
			}
			if nx := r.at(r.next(k + 1)); nx != nil && (free(nx) && (nx.isValue() || nx.kind == ckLit || nx.is(cwNamed) || nx.is(cwCmp) || nx.kind == ckNum)) {
				continue // "have a type 'x'": a value of the table follows
			}
			if len(r.q.conds) > 0 || r.tableBefore(i) == nil || c.is(cwLink) && r.adjectiveVerb(i, true) {
				continue // "on a shaded kiosk": a state, not the link
			}
			if the := r.at(i + 1); c.text == "with" && the != nil && the.text == "the" && r.cs.saysEach() {
				// "list each kiosk with the keeper who …": the keeper shown
				// beside each kiosk, or only the kiosks that have one?
				return finalDecline("%q after each row could show the %s beside it or keep only the rows that have one", c.text+" the "+t.text, t.text).
					withHint("say along with its %s, or that have a %s", t.text, t.text)
			}
			if nx := r.at(r.next(k + 1)); c.text == "with" && r.at(i+1) != nil && r.at(i+1).text == "the" && nx != nil && nx.is(cwAnd) {
				// "the hoists with the mast and the crew": things to show
				// beside the rows, not only the rows that have a mast
				return finalDecline("%q and more after it: the %s shown beside the rows, or only the rows that have one", c.text+" the "+t.text, t.text).
					withHint("say along with its %s name, or that have a %s", t.text, t.text)
			}
			if before := r.tableBefore(i); (outcomeVerbs[c.text] || placeVerbs[c.text]) && r.m.recordsOutcome(firstTable(before.tables()), t.tables()) {
				continue // "rowers who won a heat", "songs that opened a show": a placement, not any entry (declined)
			}
			if f := r.m.flagNamed(c.text); f != nil {
				// "riggers who cleared a drill" beside a cleared yes/no of
				// the drill rows: the verb is that flag, not any link
				return finalDecline("%q is %s: only the %s it is said of, or any %s, I can't tell offline", c.text, f.ref(), t.text, t.text).
					withHint("ask about the %s rows and their %s", f.t.name, f.name)
			}
			r.use(c, "%s", c.text)
			r.use(t, "related rows")
			r.addCond(&ccond{kind: ccExists, rows: t, src: c})
		}
	}
	return nil
}

// placeVerbs say where in an order a row came ("opened the bill", "closed
// the night"): a position, where the rows between record one.
var placeVerbs = setOf("open", "opens", "opened", "opening", "close", "closes", "closed", "closing", "headline", "headlined", "headlines")

// flagNamed is a column, not a key nor an amount, whose name is the word
// alone ("passed", "is_passed"): a yes/no or a state the verb names; nil
// when none.
func (m *model) flagNamed(w string) *column {
	for _, c := range m.alone[w] {
		if c.isKey() || c.numeric && c.kind == catalog.KindMeasure || c.dateType || c.kind == catalog.KindDate || yearColumn(c) {
			continue // a date is the event of the row itself ("released")
		}
		return c
	}
	return nil
}

// aloneNames indexes the columns called by one word, maybe after "is",
// "has" or "was" ("passed", "is_passed"), by that word.
func aloneNames(ts []*table) map[string][]*column {
	out := map[string][]*column{}
	for _, t := range ts {
		for _, c := range t.cols {
			ws := catalog.IdentifierWords(c.name)
			if len(ws) == 2 && (ws[0] == "is" || ws[0] == "has" || ws[0] == "was") {
				ws = ws[1:]
			}
			if len(ws) == 1 {
				out[ws[0]] = append(out[ws[0]], c)
			}
		}
	}
	return out
}

// filledColumn is the column right after "with"/"have" (a text column, not
// a flag, not followed by a value or a comparison) whose being filled in
// the question asks about.
func (r *creader) filledColumn(i int) *chunk {
	art := r.at(i + 1)
	k := r.next(i + 1)
	if h := r.at(i); art != nil && art.isColumn() && !art.isTable() && relativeHave[h.text] {
		k = i + 1 // "crew that have notes": no article after a relative "that have"
	} else if art == nil || art.kind != ckWord || !(art.text == "a" || art.text == "an" || art.text == "any" || art.text == "some") {
		return nil // "with title and shelf mark": columns to show
	}
	col := r.at(k)
	if !free(col) || !col.isColumn() || col.isTable() && !r.ownColumn(i, col) || flagChunk(col) || (numericCol(col) || orderable(col)) && !r.ownColumn(i, col) && !r.lastDate(k) {
		return nil
	}
	nx := r.at(r.next(k + 1))
	secondQuestion := nx.is(cwAnd) && whWords[r.at(r.cs.index(nx)+1).textOr()]
	if nx != nil && !secondQuestion && (nx.kind == ckLit || nx.kind == ckNum || nx.isValue() || nx.is(cwCmp) || nx.is(cwNamed) || nx.is(cwLike) || nx.is(cwAnd) && !theirWords[nx.text] || nx.kind == ckWord && (nx.text == "of" || nx.text == "is" || nx.text == "=")) {
		return nil
	}
	if r.tableBefore(i) == nil {
		return nil
	}
	return col
}

// lastDate: the chunk at k, the question's last, names dates only, which
// may be missing ("routes that have a closing date").
func (r *creader) lastDate(k int) bool {
	c := r.at(k)
	if r.at(r.next(k+1)) != nil || len(c.columns()) == 0 {
		return false
	}
	for _, col := range c.columns() {
		if !(col.kind == "date" || col.dateType) || yearColumn(col) {
			return false
		}
	}
	return true
}

// linkColumn: the chunk names a column that links to another row.
func linkColumn(c *chunk) bool {
	return slices.ContainsFunc(c.columns(), func(col *column) bool { return col.fk != nil })
}

// holdVerbs say a row has a value ("players who hold a title").
var holdVerbs = setOf("hold", "holds", "held", "hold a", "holds a")

// relativeHave open a relative clause on the rows before them.
var relativeHave = setOf("that have", "that has", "who have", "who has", "which have", "which has")

// ownColumn: the column chunk (which also names a table) is a column of the
// table right before i — "matches that had a referee" is about the
// matches' own referee column, not the referees.
func (r *creader) ownColumn(i int, col *chunk) bool {
	t := r.tableBefore(i)
	if t == nil || t.isColumn() {
		return false
	}
	for _, c := range col.columns() {
		if c.fk != nil && slices.Contains(t.tables(), c.t) {
			return true
		}
	}
	return false
}

// predicate: the column follows a copula after the rows were named
// ("Which rooms are heated", "trips that were refunded").
func (r *creader) predicate(i int) bool {
	pv := r.at(i - 1)
	if pv == nil || pv.kind != ckWord || pv.role != "" {
		return false
	}
	ws := strings.Fields(pv.text)
	if !copulas[ws[len(ws)-1]] {
		return false
	}
	before := r.at(i - 2)
	return before != nil && r.tableBefore(i-1) != nil && !(before.kind == ckWord && (before.text == "what" || before.text == "which" || before.text == "who"))
}

var copulas = setOf("is", "are", "was", "were", "be", "been")

// adjective: the column stands right before a table of its own ("the
// heated rooms").
func (r *creader) adjective(i int) bool {
	nx := r.at(i + 1)
	if nx == nil || !nx.isTable() {
		return false
	}
	for _, col := range r.at(i).columns() {
		if slices.Contains(nx.tables(), col.t) {
			return true
		}
	}
	return false
}

// pluralNoun: the chunk is a plural word naming a table ("inspections"):
// the rows, whatever column its singular also names.
func pluralNoun(c *chunk) bool {
	return c.j-c.i == 1 && strings.HasSuffix(c.text, "s") && catalog.Singular(c.text) != c.text && c.isTable()
}

// firstTable is the first of ts, or nil.
func firstTable(ts []*table) *table {
	if len(ts) == 0 {
		return nil
	}
	return ts[0]
}

// tableBefore is the nearest table chunk before i.
func (r *creader) tableBefore(i int) *chunk {
	for k := i - 1; k >= 0; k-- {
		if t := r.at(k); t.isTable() {
			return t
		}
	}
	return nil
}

// readValues reads values of columns and named rows ("from France", "in
// a value of C", "<value> T"), literals after a column ("whose
// name is 'X'"), numbers after a column ("in year 2014"), with their
// negation and or-lists.
func (r *creader) readValues() error {
	for i := 0; i < len(r.cs); i++ {
		c := r.cs[i]
		if !free(c) {
			continue
		}
		switch {
		case (c.onlyValue() || c.isValue() && r.valueContext(i)) && pluralName(c) && r.namesTableOf(c):
			// "which ticket kinds are day tickets" beside a kind named "Day
			// ticket": that one row, or a kind its rows have?
			return finalDecline("%q is the plural of the name of one row; I can't tell which rows it means", c.text).
				withHint("ask for the row by its name, or name the column that says it")
		case c.onlyValue() && pluralName(c) && r.ownColumnAsked(i):
			// "the names of the Tall Ships" beside a kind named "Tall
			// Ship": the kind's name is the word itself; the rows of that
			// kind were meant
			return finalDecline("%q is the plural of the name of one row, whose %s is asked; I can't tell which rows it means", c.text, r.colBefore(i).text).
				withHint("name the rows, e.g. the names of the <rows> of that kind")
		case c.isValue() && !c.onlyValue() && flagChunk(c) && r.tableBefore(i) != nil && slices.ContainsFunc(c.columns(), func(col *column) bool { return slices.Contains(r.tableBefore(i).tables(), col.t) }):
			// "which riggers are climbers" beside a riggers.climber flag
			// and a climbs.role value 'climber': the rows' own flag
			continue
		case c.onlyValue() || c.isValue() && r.valueContext(i) && !tableOwnValue(c):
			r.valueCond(i)
		case c.kind == ckLit:
			col := r.colBefore(i)
			cd := &ccond{kind: ccValue, col: col, vals: []*chunk{c}, src: c}
			if col != nil {
				r.use(col, "compared")
			} else if nx := r.at(i + 1); free(nx) && nx.isColumn() {
				r.use(nx, "compared")
				cd.col = nx
			} else if pv := r.at(i - 1); pv != nil && pv.isTable() && !pv.isColumn() && pv != r.q.subject {
				// "which kiosk is the note 'roof leaks' about": a text of
				// the notes, not a kiosk's name
				cd.rows = pv
			}
			r.use(c, "value %q", c.orig)
			r.negated(cd, i)
			r.orList(cd, i)
			r.addCond(cd)
		case c.kind == ckNum && r.numberBeforeColumn(i) != nil:
			// "in the 2019 vintage": the column's value
			col := r.numberBeforeColumn(i)
			r.use(col, "compared")
			r.use(c, "%s", c.text)
			r.addCond(&ccond{kind: ccCmp, op: "=", a: c.num, col: col, src: c})
		case c.kind == ckNum && c.isInt && c.num >= 1000 && c.num < 3000 && r.at(i+1).isTable() && free(r.at(i+1)) && !r.at(i+1).isColumn():
			// "the theme of the 2019 festival": the rows of that year, not
			// a theme of 2019
			r.use(c, "year %s", c.text)
			r.addCond(&ccond{kind: ccRange, rng: yearRange(int(c.num)), src: c, yearOf: true})
		case c.kind == ckNum:
			col := r.colBefore(i)
			if col == nil || !numericCol(col) {
				continue
			}
			r.use(col, "compared")
			r.use(c, "%s", c.text)
			cd := &ccond{kind: ccCmp, op: "=", a: c.num, col: col, src: c}
			if conj, nx := r.at(i+1), r.at(i+2); free(conj) && (conj.is(cwOr) || conj.is(cwAnd)) && free(nx) && nx.kind == ckNum {
				// "floors 2 and 3": one of the numbers
				cd = &ccond{kind: ccValue, col: col, vals: []*chunk{c}, src: c}
			}
			r.negated(cd, i)
			r.orList(cd, i)
			r.addCond(cd)
		case c.isColumn() && !c.onlyValue() && r.nullAfter(i) != nil:
			// "whose return date is missing", "with an unknown price"
			nw := r.nullAfter(i)
			is := r.at(i + 1)
			r.use(c, "compared")
			if is.kind == ckWord && (is.text == "is" || is.text == "are" || is.text == "was" || is.text == "were") {
				r.use(is, "is")
			}
			r.use(nw, "empty")
			cd := &ccond{kind: ccNull, col: c, neg: nw.text == "known" || nw.text == "given" || nw.text == "recorded" || nw.text == "present", src: c}
			if ng := r.at(r.cs.index(nw) - 1); free(ng) && ng.is(cwNeg) {
				r.use(ng, "not")
				cd.neg = !cd.neg
			}
			r.addCond(cd)
		case c.isColumn() && !c.onlyValue() && r.isTextAfter(i):
			// "whose last name is Smith": a name as typed
			is := r.at(i + 1)
			v, end := r.nameAfter(i + 2)
			if v == "" {
				continue
			}
			if tail := r.at(end); end == len(r.cs)-1 && tail.kind == ckWord && relationPreps[tail.text] {
				// "which country is X from?": X's country, not a country called X
				return finalDecline("\"%s is %s %s\" could ask for the %s of %s, or for a %s called %s", c.text, v, tail.text, c.text, v, c.text, v).
					withHint("ask e.g. what is the %s of %s", c.text, v)
			}
			r.use(c, "compared")
			r.use(is, "is")
			for k := i + 2; k < end; k++ {
				r.use(r.at(k), "the value %q", v)
			}
			r.addCond(&ccond{kind: ccValue, col: c, lit: v, src: c})
		}
	}
	return nil
}

// valueContext: a chunk that is a value and also a table or column is read
// as a value after a preposition or "is" ("from Germany" where Germany is
// also a team).
func (r *creader) valueContext(i int) bool {
	pv := r.at(i - 1)
	return pv != nil && pv.kind == ckWord && (pv.text == "from" || pv.text == "in" || pv.text == "is" || pv.text == "are" || pv.text == "by" || pv.text == "of" || pv.text == "at" || pv.is(cwNeg) || pv.is(cwOr))
}

// emptyWords say a value is missing; knownWords that it is there.
var emptyWords = setOf("missing", "empty", "blank", "null", "unknown", "unrecorded", "unset", "absent")
var knownWords = setOf("known", "given", "recorded", "present")

// nullAfter: "is missing", "is not known", "is empty" after a column at i.
func (r *creader) nullAfter(i int) *chunk {
	k := i + 1
	if is := r.at(k); is != nil && is.kind == ckWord && (is.text == "is" || is.text == "are" || is.text == "was" || is.text == "were") {
		k++
	}
	if ng := r.at(k); ng != nil && ng.is(cwNeg) && ng.kind == ckWord {
		k++
	}
	w := r.at(k)
	if !free(w) || w.kind != ckWord || !(emptyWords[w.text] || knownWords[w.text]) || k == i+1 {
		return nil
	}
	return w
}

// isTextAfter: column, "is"/"=", then a capitalised word (a name as typed).
func (r *creader) isTextAfter(i int) bool {
	is := r.at(i + 1)
	if !free(is) || is.kind != ckWord || !(is.text == "is" || is.text == "are" || is.text == "was" || is.text == "=" || is.text == "equals") {
		return false
	}
	nx := r.at(i + 2)
	return free(nx) && !nx.isValue() && nx.capitalised() && nx.kind != ckNum
}

func numericCol(c *chunk) bool {
	for _, col := range c.columns() {
		if col.numeric || col.numberAsText() {
			return true
		}
	}
	return false
}

// valueCond reads the value at i with its or-list, its column word and its negation.
func (r *creader) valueCond(i int) {
	c := r.at(i)
	r.use(c, "value")
	cd := &ccond{kind: ccValue, vals: []*chunk{c}, src: c}
	// "country France", "France country", "whose country is France"
	if col := r.colBefore(i); col != nil && valueOf(c, col) {
		k := r.cs.index(col)
		if and, first := r.at(k-1), r.at(k-2); free(and) && and.is(cwAnd) && first != nil && first.isColumn() && !first.onlyValue() {
			// "the names and types of T that are V or W": asked for too
			r.use(col, "shown, and the value's column")
			r.q.items = append(r.q.items, &citem{col: col, pos: k})
		} else if k < i-1 && namesByKey(c, col) {
			// "the crate numbers for Tall Ships", two crates called
			// that: their keys, asked for across the preposition
			r.use(col, "shown, and the value's column")
			r.q.items = append(r.q.items, &citem{col: col, pos: k})
		} else {
			r.use(col, "the value's column")
		}
		cd.col = col
	} else if nx := r.at(i + 1); free(nx) && nx.isColumn() && valueOf(c, nx) && !nx.isTable() {
		r.use(nx, "the value's column")
		cd.col = nx
	}
	if by := r.at(i - 1); free(by) && by.is(cwBy) {
		r.use(by, "by")
	}
	r.verbOfColumn(c, i)
	r.negated(cd, i)
	r.orList(cd, i)
	r.addCond(cd)
}

// verbOfColumn accounts for an unknown verb before a value that is a form
// of its column's name ("specialise in X" for a Specialty column).
func (r *creader) verbOfColumn(v *chunk, i int) {
	k := i - 1
	for k >= 0 && r.at(k).kind == ckWord && (r.at(k).text == "in" || r.at(k).text == "on" || r.at(k).text == "as" || r.at(k).text == "at") {
		k--
	}
	w := r.at(k)
	if !free(w) || w.kind != ckWord || w.info.cw != cwNone || len(w.text) < 6 {
		return
	}
	for _, m := range v.ms {
		if m.kind != mValue {
			continue
		}
		for _, cw := range catalog.IdentifierWords(m.c.name) {
			if n := commonPrefix(cw, w.text); n >= 6 && n >= len(cw)-3 {
				r.use(w, "the value's column (%s)", m.c.name)
				return
			}
		}
	}
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// valueOf: the value chunk names a value of one of col's columns.
func valueOf(v, col *chunk) bool {
	for _, m := range v.ms {
		for _, c := range col.columns() {
			if m.kind == mValue && m.c == c || m.kind == mEntity && m.t == c.t && (c.kind == "label" || m.e.set.key == c) {
				return true
			}
		}
	}
	return false
}

// namesByKey: v is a name several rows share, of a table whose key col
// is, and nothing else of col (one row's key is the one it was named by).
func namesByKey(v, col *chunk) bool {
	found := false
	for _, m := range v.ms {
		for _, c := range col.columns() {
			switch {
			case m.kind == mEntity && m.e.set.key == c && len(m.e.keys) > 1:
				found = true
			case m.kind == mValue && m.c == c:
				return false
			}
		}
	}
	return found
}

// negated marks the condition negated when "not" (or "other than") comes
// right before the value, across "in", "from", "is".
func (r *creader) negated(cd *ccond, i int) {
	have := false
	for k := i - 1; k >= 0; k-- {
		c := r.at(k)
		if cd.col != nil && c == cd.col {
			continue // "outside district North": the value's column
		}
		if c.kind == ckWord && (c.text == "in" || c.text == "from" || c.text == "of" || c.text == "at" || c.text == "by" || c.text == "those" || c.text == "ones" || c.text == "the ones" || c.text == "been" || softWords[c.text] || c.is(cwLink) || c.is(cwHave)) && free(c) {
			have = have || c.is(cwHave)
			continue
		}
		if free(c) && c.is(cwNeg) && c.kind == ckWord {
			r.use(c, "not")
			cd.neg = true
			cd.negRows = c.text == "never" || c.text == "no" || c.text == "without" || have
		}
		return
	}
}

// orList extends a value condition with "or V2", "and V2" of the same kind.
func (r *creader) orList(cd *ccond, i int) {
	if len(cd.vals) == 0 {
		return // a comparison with one number
	}
	for k := i + 1; k+1 < len(r.cs); k += 2 {
		conj, v := r.at(k), r.at(k+1)
		if !free(conj) || !(conj.is(cwOr) || conj.is(cwAnd)) || !free(v) {
			return
		}
		same := v.kind == cd.vals[0].kind && (v.kind == ckLit || v.kind == ckNum || v.onlyValue() && sameColumns(v, cd.vals[0]))
		if !same {
			return
		}
		if conj.is(cwAnd) {
			cd.andList = true
		}
		r.use(conj, "or")
		r.use(v, "value")
		cd.vals = append(cd.vals, v)
	}
}

// sameColumns: two value chunks can be values of one column.
func sameColumns(a, b *chunk) bool {
	for _, x := range a.ms {
		for _, y := range b.ms {
			if x.kind == mValue && y.kind == mValue && x.c == y.c || x.kind == mEntity && y.kind == mEntity && x.e.set == y.e.set {
				return true
			}
		}
	}
	return false
}

// stateWords say a row is in a state over a span of time, not that
// something happened on a day.
var stateWords = setOf("open", "active", "running", "live", "valid", "current", "ongoing")

// dated uses the column a time range is on; listed among the columns
// asked for ("the name and date of fairs held in 2025"), it is shown too.
func (r *creader) dated(col *chunk) {
	k := r.cs.index(col)
	and, before := r.at(k-1), r.at(r.prev(k-2))
	if and != nil && (and.is(cwAnd) || and.text == ",") && free(before) && before.isColumn() && !before.isTable() {
		r.use(col, "shown and dated")
		r.q.items = append(r.q.items, &citem{col: col, pos: k})
		return
	}
	r.use(col, "dated")
}

// readTime reads date ranges ("in 2025", "before 1990", "last year") and
// bare years ("in 2014"), on the column before them or the rows' date.
func (r *creader) readTime() error {
	for i, c := range r.cs {
		if !free(c) {
			continue
		}
		switch {
		case c.kind == ckTime:
			if c.rng.yearless {
				return decline("%q does not say which year", c.text).withHint("add the year")
			}
			r.use(c, "time %s", c.rng.String())
			cd := &ccond{kind: ccRange, rng: c.rng, src: c}
			if col := r.colBefore(i); col != nil {
				if stateWords[col.text] {
					// "fairs open on 3 May" beside an opening date: opened
					// that day, or running then?
					return decline("%q %s: started then, or running then?", col.text, c.text).
						withHint("ask e.g. for the rows whose start date is before it and whose end date is after it")
				}
				r.dated(col)
				cd.col = col
			}
			r.addCond(cd)
		case c.kind == ckNum && c.isInt && c.num >= 1000 && c.num < 3000:
			pv := r.at(i - 1)
			if pv == nil || pv.kind != ckWord || !(pv.text == "in" || pv.text == "during" || pv.text == "of" || pv.text == "for" || pv.text == "year" || strings.HasSuffix(pv.text, " in")) {
				continue
			}
			r.use(c, "year %s", c.text)
			cd := &ccond{kind: ccRange, rng: yearRange(int(c.num)), src: c}
			if col := r.colBefore(i); col != nil && (orderable(col) || numericCol(col)) {
				r.dated(col)
				cd.col = col
			}
			// "in 2014 or 2015"
			for k := i + 1; k+1 < len(r.cs); k += 2 {
				conj, y := r.at(k), r.at(k+1)
				if !free(conj) || !(conj.is(cwOr) || conj.is(cwAnd)) || !free(y) || y.kind != ckNum || !y.isInt || y.num < 1000 || y.num >= 3000 {
					break
				}
				r.use(conj, "or")
				r.use(y, "year %s", y.text)
				cd.or = append(cd.or, &ccond{kind: ccRange, rng: yearRange(int(y.num)), src: y})
			}
			r.addCond(cd)
		}
	}
	return nil
}

// keyListedFirst: the chunk read as the rows asked about opens a list of
// columns of the table named after the list, and is a column of it too.
func (r *creader) keyListedFirst(s, t *chunk) bool {
	if s == nil || s.kind != ckSchema || !s.hasKind(mColumn) {
		return false
	}
	nx := r.at(r.cs.index(s) + 1)
	if nx == nil || !strings.HasPrefix(nx.role, "shown") && !nx.is(cwAnd) {
		return false
	}
	for _, tt := range t.tables() {
		for _, col := range s.columns() {
			if col.t == tt {
				return true
			}
		}
	}
	return false
}

// countedBefore: a table counted ("how many T") stands before i.
func (r *creader) countedBefore(i int) bool {
	return slices.ContainsFunc(r.q.items, func(it *citem) bool {
		return it.agg != nil && it.agg.rows != nil && r.cs.index(it.agg.rows) < i
	})
}

// kindsOf: the table chunk at i follows "<subject> of" where the subject is
// a table of kinds (types, categories) that its rows refer to, and nothing
// but "are there" follows ("what types of crate are there", "count the
// kinds of kiosk"): the kinds themselves, not only those in use.
func (r *creader) kindsOf(i int) bool {
	s := r.q.subject
	if s == nil {
		s = r.at(i - 2) // the rows counted
	}
	of := r.at(i - 1)
	if s == nil || of == nil || of.kind != ckWord || of.text != "of" || r.at(i-2) != s || !kindWords[finalWord(s.text)] {
		return false
	}
	for k := i + 1; k < len(r.cs); k++ {
		if x := r.at(k); x.kind != ckWord || !(x.text == "are" || x.text == "there" || x.text == "is" || x.text == "exist" || x.text == "are there") {
			return false
		}
	}
	return slices.ContainsFunc(r.at(i).tables(), func(t *table) bool {
		return slices.ContainsFunc(s.tables(), func(k *table) bool { return refersTo(t, k) })
	})
}

// kindWords name a table of kinds.
var kindWords = setOf("kinds", "kind", "types", "type", "categories", "category", "classes", "class", "sorts", "grades", "levels")

// readSelect reads what is left: the columns to show, the subject table,
// distinct, flags used as adjectives ("<flag> T").
func (r *creader) readSelect() error {
	for i, c := range r.cs {
		if !free(c) {
			continue
		}
		switch {
		case c.is(cwDistinct) && c.kind == ckWord:
			r.use(c, "distinct")
			r.q.distinct = true
		case c.isTable() && (!c.isColumn() || r.q.subject == nil && !r.columnHere(i)):
			if r.q.subject == nil && r.countedBefore(i) && !r.valueTable(i) && r.relationBefore(i) {
				if r.kindsOf(i) {
					r.use(c, "the rows the kinds are of") // "count the kinds of kiosk"
					continue
				}
				// "how many players are on teams run by X": the teams are
				// related rows of the players counted
				r.use(c, "related rows")
				r.addCond(&ccond{kind: ccExists, rows: c, src: c})
				continue
			}
			if r.q.subject == nil && r.q.ranked != nil && r.q.ranked.isTable() && r.cs.index(r.q.ranked) < i && !slices.Equal(r.q.ranked.tables(), c.tables()) {
				// "the latest repair? Show its id, kiosk and cost": the
				// kiosk of the repair, not the kiosks asked about
				return notMine("%q after the rows ranked (%q): their column, or other rows?", c.text, r.q.ranked.text)
			}
			if pv, v := r.at(i-1), r.at(r.prev(i-2)); r.q.subject == nil && pv != nil && (pv.text == "and their" || pv.text == "and its") && v != nil && v.onlyValue() && strings.HasSuffix(v.text, "s") {
				// "the wardens and their sites": the wardens, with their
				// sites beside them — not the sites of wardens
				return notMine("%q and their %s: the %s with their %s beside them is not answered offline", v.text, c.text, v.text, c.text)
			}
			if r.q.subject == nil {
				r.use(c, "the rows asked about")
				r.q.subject = c
				continue
			}
			if r.columnsTable(i) {
				if s := r.q.subject; r.keyListedFirst(s, c) {
					// "the code, label and cost of part codes":
					// the first of the columns listed, not the rows
					s.role = "shown"
					r.q.items = append(r.q.items, &citem{col: s, pos: r.cs.index(s)})
					r.q.subject = c
					r.use(c, "the rows asked about")
					continue
				}
				r.use(c, "the table of the column before")
				continue
			}
			if r.andAfterSubject(i) {
				// "list T and U": which columns of which?
				return finalDecline("%q and %q are two tables; ask for the columns of each", r.q.subject.text, c.text).
					withHint("e.g. the date of each order and the name of its customer")
			}
			// another table: rows related to the subject, when a word says so
			// ("singers in concerts", "customers who placed orders")
			if r.valueTable(i) {
				r.use(c, "the table of the value beside it")
				continue
			}
			if !r.relationBefore(i) {
				return decline("I don't know how %q relates to %q in this question", c.text, r.q.subject.text).
					withHint("say it with a verb or a preposition, e.g. the %s with %s", r.q.subject.text, c.text)
			}
			if r.kindsOf(i) {
				// "what kinds of kiosk are there": the table of kinds the
				// kiosks refer to, every kind, used or not
				r.use(c, "the rows the kinds are of")
				continue
			}
			r.use(c, "related rows")
			r.addCond(&ccond{kind: ccExists, rows: c, src: c})
		case c.isColumn() && flagChunk(c) && r.flagAdjective(i) && r.flagOfOtherRows(i) != nil:
			// "never joined a rally" beside a drill's joined flag:
			// the word says how the rows link, not the drills' flag
			return notMine("%q is a yes/no of %s, which %q are not", c.text, c.columns()[0].t.name, r.flagOfOtherRows(i).text)
		case c.isColumn() && flagChunk(c) && r.flagAdjective(i):
			r.use(c, "yes/no")
			cd := &ccond{kind: ccFlag, col: c, src: c}
			r.negated(cd, i)
			r.addCond(cd)
		case c.isColumn() && r.eventDate(i) != nil:
			// "crates that have been shipped" beside an empty-until-then
			// shipped_on: the date is filled
			r.use(c, "happened (%s is filled)", r.eventDate(i).name)
			cd := &ccond{kind: ccNull, col: c, src: c}
			r.negated(cd, i)
			cd.neg = !cd.neg
			r.addCond(cd)
		case c.isTable() && r.andAfterSubject(i):
			return finalDecline("%q and %q are two tables; ask for the columns of each", r.q.subject.text, c.text).
				withHint("e.g. the date of each order and the name of its customer")
		case c.isColumn() && c.isTable() && ownMeasure(c):
			// a table and its own amount: the analyst's total
			return notMine("%q names a table and its measure", c.text)
		case c.isColumn() && c.is(cwLink) && weakColumn(c):
			// "musicians born after 1990": a verb, whatever column shares the word
		case c.isColumn() && i > 0 && r.at(i-1).kind == ckWord && (r.at(i-1).text == "whose" || r.at(i-1).text == "where"):
			// "T whose C ... is V": C is the condition's, never shown
			return notMine("I could not read the condition on %q after %q", c.text, r.at(i-1).text)
		case c.isColumn() && !c.isTable() && (r.predicate(i) || r.adjective(i)):
			// "rooms that are heated", "the refunded trips": a
			// state of the rows (a yes/no or a value) I could not read
			return finalDecline("%q says something of the rows that I could not read as a condition", c.text).
				withHint("say the value, e.g. whose %s is ...", c.text)
		case c.isColumn() && !c.isTable() && r.valueRightBefore(i) != nil && (valueOf(r.valueRightBefore(i), c) || !numericCol(c)):
			// "the Alpine or Coastal routes": the values' own column, not
			// one to show; "the High risk band" where the value is another
			// column's: two readings of the words
			if v := r.valueRightBefore(i); !valueOf(v, c) {
				return finalDecline("I don't know how %q relates to %q here", c.text, v.text).
					withHint("say the column, e.g. whose %s is ...", c.text)
			}
			r.use(c, "the column of the values")
		case c.isColumn():
			r.use(c, "shown")
			r.q.items = append(r.q.items, &citem{col: c, pos: i})
		case c.kind == ckWord && c.info.cw == cwNone && keyWords[c.text]:
			// "list their name and id": the rows' key
			r.use(c, "the key")
			r.q.items = append(r.q.items, &citem{key: true, pos: i})
		}
	}
	return nil
}

// pluralName: the phrase is the plural of a name that names one row
// (a row's label, not a kind some rows share).
func pluralName(c *chunk) bool {
	if !strings.HasSuffix(c.text, "s") || catalog.Singular(c.text) == c.text {
		return false
	}
	for _, m := range c.ms {
		switch {
		case m.kind == mEntity && m.e.set.key != nil && strings.EqualFold(m.e.name, catalog.Singular(c.text)):
		case m.kind == mValue && m.c.isName() && strings.EqualFold(m.value, catalog.Singular(c.text)):
		default:
			return false
		}
	}
	return len(c.ms) > 0
}

// ownColumnAsked: the column the value at i is of comes before it, with
// words between ("the names of the …").
func (r *creader) ownColumnAsked(i int) bool {
	col := r.colBefore(i)
	return col != nil && valueOf(r.at(i), col) && r.cs.index(col) < i-1
}

// namesTableOf: the question names, as a table, the table whose row the
// value names ("which ticket kinds are …").
func (r *creader) namesTableOf(v *chunk) bool {
	for _, c := range r.cs {
		if c == v || !c.isTable() {
			continue
		}
		for _, m := range v.ms {
			if (m.kind == mEntity && slices.Contains(c.tables(), m.e.set.t)) || (m.kind == mValue && slices.Contains(c.tables(), m.c.t)) {
				return true
			}
		}
	}
	return false
}

// tableOwnValue: the phrase names a table and a value of that table's own
// column ("of technicians" in a table of technicians with a grade
// 'Technician'): the table's rows, not those of the value.
func tableOwnValue(c *chunk) bool {
	ts := c.tables()
	if len(ts) == 0 {
		return false
	}
	for _, m := range c.ms {
		if (m.kind == mValue || m.kind == mEntity) && !slices.Contains(ts, m.t) {
			return false
		}
	}
	return true
}

// valueRightBefore is the value read right before the column at i ("the
// Alpine or Coastal routes").
func (r *creader) valueRightBefore(i int) *chunk {
	v := r.at(i - 1)
	if v == nil || v.role != "value" || r.at(i).stop || possessive(v) {
		return nil // "in the Lakes? Name …", "every cat's name"
	}
	return v
}

// keyWords name a row's key.
var keyWords = setOf("id", "ids", "identifier", "identifiers")

// sortItems shows the items in the order the question names them.
func (r *creader) sortItems() error {
	slices.SortStableFunc(r.q.items, func(a, b *citem) int { return a.pos - b.pos })
	return nil
}

// andAfterSubject: the chunk at i follows "and" right after the subject
// table ("list T and U").
func (r *creader) andAfterSubject(i int) bool {
	and := r.at(r.prev(i - 1))
	return r.q.subject != nil && and != nil && and.is(cwAnd) && r.at(r.prev(r.cs.index(and)-1)) == r.q.subject
}

// valueTable: the table at i names the table of a value or name right
// beside it ("block C07", "the Hillside block", "block B2's vines").
func (r *creader) valueTable(i int) bool {
	t := r.at(i)
	for _, k := range []int{i + 1, r.prev(i - 1)} {
		v := r.at(k)
		if v == nil || v.role == "" {
			continue
		}
		for _, m := range v.ms {
			if (m.kind == mValue || m.kind == mEntity) && slices.Contains(t.tables(), m.t) {
				return true
			}
		}
		if strings.HasPrefix(v.role, "the name") || v.kind == ckLit {
			return true
		}
	}
	return false
}

// relationBefore: a relation word stands before the table at i (a verb,
// have/with, or a preposition), across articles.
func (r *creader) relationBefore(i int) bool {
	k := r.prev(i - 1)
	for k >= 0 && r.at(k).kind == ckWord && (r.at(k).text == "any" || r.at(k).text == "some" || r.at(k).text == "at least one") {
		k--
	}
	pv := r.at(k)
	if pv == nil {
		return false
	}
	return pv.is(cwHave) || pv.is(cwLink) || pv.verb || pv.kind == ckWord && relationPreps[pv.text]
}

var relationPreps = setOf("in", "at", "on", "from", "with", "for", "of", "by", "to", "into", "under", "through", "within", "among")

// ownMeasure: a phrase naming a table and an additive measure of it.
func ownMeasure(c *chunk) bool {
	ts := c.tables()
	for _, col := range c.columns() {
		if col.additive() && slices.Contains(ts, col.t) {
			return true
		}
	}
	return false
}

// columnsTable: the table at i follows "of" after a column it has ("the
// name of their T").
func (r *creader) columnsTable(i int) bool {
	k := r.prev(i - 1)
	of := r.at(k)
	if of == nil || of.kind != ckWord || of.text != "of" && of.text != "for" {
		return false
	}
	col := r.at(r.prev(k - 1))
	return col.isColumn() && col.isColumnOf(r.at(i))
}

// columnHere: a chunk that is a table and a column reads as the column
// when an "of"-phrase or a table follows ("name of the T").
func (r *creader) columnHere(i int) bool {
	nx := r.at(r.next(i + 1))
	if nx != nil && nx.kind == ckWord && nx.text == "and" {
		// "the heading and writer of …": a column listed with another of
		// the same table
		if c2 := r.at(r.next(r.cs.index(nx) + 1)); free(c2) && c2.isColumn() && !c2.isTable() && sameTableColumn(r.at(i), c2) {
			return true
		}
	}
	return nx != nil && nx.kind == ckWord && (nx.text == "of" || nx.text == "for") || nx.isTable()
}

// sameTableColumn: the chunk c names a table and a column of it, and c2
// another column of that table.
func sameTableColumn(c, c2 *chunk) bool {
	for _, t := range c.tables() {
		for _, col := range c2.columns() {
			if col.t == t && !slices.Contains(c.columns(), col) && slices.ContainsFunc(c.columns(), func(x *column) bool { return x.t == t }) {
				return true
			}
		}
	}
	return false
}

// eventDate is the column of the one-word past participle at i said of
// the rows ("have been shipped", "not yet shipped", "shipped crates") when
// it names only a date column that may be empty and is called after the
// verb alone (shipped_on, date_shipped), and no time follows to read it
// as when; nil otherwise.
func (r *creader) eventDate(i int) *column {
	c := r.at(i)
	if c.j-c.i != 1 || !pastParticiple(c.text) || !r.flagAdjective(i) {
		return nil
	}
	if nx := r.at(r.next(i + 1)); nx != nil && !nx.stop && !nx.is(cwAnd) && !nx.is(cwOr) && !nx.isTable() {
		return nil // "shipped in May", "shipped by Oren Vale": the date or a link
	}
	var found *column
	for _, col := range c.columns() {
		if !col.nullable || !(col.dateType || col.kind == catalog.KindDate) {
			return nil
		}
		ws := catalog.IdentifierWords(col.name)
		if len(ws) != 2 || !(ws[0] == c.text && eventDateWords[ws[1]] || eventDateWords[ws[0]] && ws[1] == c.text) {
			return nil
		}
		found = col
	}
	if len(c.columns()) != 1 || len(c.ms) != 1 {
		return nil // "stowed" beside a status value stowed: two readings
	}
	return found
}

var eventDateWords = setOf("on", "at", "dt", "date", "time", "ts", "day")

// flagNaming is a yes/no column of the rows before i whose name holds the
// noun of table chunk t, or a column called "needs <noun>" ("needs_licence"
// beside "no licence"), or nil.
func (r *creader) flagNaming(i int, t *chunk) *column {
	before := r.tableBefore(i)
	if before == nil {
		return nil
	}
	ws := strings.Fields(t.text)
	noun := catalog.Singular(ws[len(ws)-1])
	for _, tb := range before.tables() {
		for _, col := range tb.cols {
			ws := catalog.IdentifierWords(col.name)
			if col.isKey() || col.fk != nil || !slices.Contains(ws, noun) {
				continue
			}
			if col.kind == catalog.KindFlag || col.boolean || len(ws) == 2 && ws[1] == noun && (needVerbs[ws[0]] || ws[0] == "is" || ws[0] == "has") {
				return col
			}
		}
	}
	return nil
}

// needVerbs say a row calls for something ("need no licence"), and
// head a column that records it ("needs_licence").
var needVerbs = setOf("needs", "need", "requires", "require", "wants", "want")

// flagChunk: the chunk names only yes/no columns.
func flagChunk(c *chunk) bool {
	cols := c.columns()
	if len(cols) == 0 {
		return false
	}
	for _, col := range cols {
		if col.kind != "flag" {
			return false
		}
	}
	return true
}

// flagAdjective: a yes/no column word before a table ("<flag> T"), after
// "are"/"is"/"that are" ("T that are <flag>"), or after "with" ("T with a
// <flag>").
// flagOfOtherRows is the table chunk right after a flag word at i when
// the flag's table neither is nor reaches it, or nil.
func (r *creader) flagOfOtherRows(i int) *chunk {
	nx := r.at(r.next(i + 1))
	if nx == nil || !nx.isTable() || nx.isColumn() {
		return nil
	}
	for _, col := range r.at(i).columns() {
		for _, t := range nx.tables() {
			if _, ok := r.m.reach(col.t, t); ok {
				return nil
			}
		}
	}
	return nx
}

func (r *creader) flagAdjective(i int) bool {
	if nx := r.at(r.next(i + 1)); nx.isTable() || pluralValue(nx) {
		return true // "neutered pets", "neutered cats"
	}
	k := i - 1
	for k >= 0 && r.at(k).kind == ckWord && softWords[r.at(k).text] {
		k-- // "who are the <flag>s": articles, whatever role the opening gave them
	}
	pv := r.at(k)
	if pv != nil && pv.kind == ckWord && (pv.text == "been" || pv.text == "be") && r.at(k-1) != nil && r.at(k-1).kind == ckWord {
		// "have been <flag>", "have not been <flag>", "will be <flag>"
		pv = r.at(k - 1)
		if pv.text == "will" || pv.text == "to" {
			return false
		}
	}
	return pv != nil && pv.kind == ckWord && (pv.text == "are" || pv.text == "is" || pv.text == "was" || pv.text == "were" || pv.is(cwHave) || pv.is(cwNeg))
}
