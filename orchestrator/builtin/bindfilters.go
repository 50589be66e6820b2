package builtin

import (
	"fmt"
	"strings"

	"talk2tables/catalog"
)

// bindFilters binds every named row and value. A value binds to a column
// of a table the question names first, then to the root's own column,
// then to a grouped table's, then to the one table reachable from the root
// that holds it; two equally good columns decline.
func (b *binder) bindFilters() error {
	b.preferVerbDate()
	for _, f := range b.q.filters {
		bf, err := b.bindFilter(f)
		if err != nil {
			return err
		}
		if b.frame == pLookup {
			b.lookup = bf
			b.root = bf.t
			continue
		}
		if len(bf.ents) > 0 && bf.t == b.root && b.frame == pList && selfReferencing(bf.t) {
			// "members who were coached by Ada": listing a table filtered to
			// one of its own rows names a relation I cannot read
			return decline("%q is one of the %s; I can't tell how the others relate to it", bf.text, bf.t.phrase()).
				withHint("ask for %s's own details, e.g. what is the title of %s", bf.text, bf.text)
		}
		b.filters = append(b.filters, bf)
		if b.frame == pAggregate && len(bf.values)+len(bf.ents) > 1 && !f.neg && (b.q.compare || !f.or) {
			b.groupByFilter(bf)
		}
	}
	if b.q.compare && b.frame == pAggregate && !b.compared() {
		return decline("compare what with what? name two values or rows").withHint("e.g. compare north and south revenue")
	}
	return nil
}

// preferVerbDate: "shipments delivered in July" dates the shipments by
// their delivery date when they have one, rather than filtering a
// "delivered" status and dating by another column.
func (b *binder) preferVerbDate() {
	v := b.q.dateVerb
	if v == nil || v.kind != spWord || b.q.rng == nil || b.q.dateCol != nil || b.verbDate() == nil {
		return
	}
	for i, f := range b.q.filters {
		if len(f.sps) == 1 && f.sps[0] == v && !f.neg {
			b.q.filters = append(b.q.filters[:i], b.q.filters[i+1:]...)
			return
		}
	}
}

// selfReferencing: a table with a foreign key to itself (a manager).
func selfReferencing(t *table) bool {
	for _, e := range t.out {
		if e.to == t {
			return true
		}
	}
	return false
}

// compared: a grouping holds the compared values.
func (b *binder) compared() bool {
	for _, g := range b.groups {
		if g.col != nil || g.ent != nil {
			return true
		}
	}
	return false
}

// groupByFilter shows each of several named values or rows on its own
// line ("revenue for hub and kettle", "compare north and south").
func (b *binder) groupByFilter(bf *boundFilter) {
	for _, g := range b.groups {
		if bf.ents != nil && g.ent == bf.t || bf.ents == nil && g.col == bf.col {
			return
		}
	}
	if bf.ents != nil {
		b.groups = append(b.groups, &boundGroup{ent: bf.t})
	} else {
		b.groups = append(b.groups, &boundGroup{col: bf.col})
	}
}

func (b *binder) bindFilter(f *filterReq) (*boundFilter, error) {
	if len(f.sps) == 1 && flagLike(f.sps[0]) {
		return b.bindFlag(f)
	}
	if f.has != nil {
		return b.bindHas(f)
	}
	var bf *boundFilter
	for _, sp := range f.sps {
		c, err := b.bindName(sp, f.label)
		if err != nil {
			return nil, err
		}
		if t := b.adjectiveOf(sp); len(f.sps) == 1 && t != nil && t != c.t && c.e == nil && c.c != nil && !c.c.isName() {
			// "open complaints" where open is a status of the depots three
			// links away: the word describes the complaints
			if ps, _ := b.m.paths(t); len(ps[c.t]) > 1 {
				return nil, decline("%q describes %s, and it is a value of %s, %d links away", sp.text, t.name, c.t.name, len(ps[c.t])).
					withHint("name the column the value is in")
			}
		}
		switch {
		case bf == nil:
			bf = &boundFilter{t: c.t, neg: f.neg, text: sp.text}
			if c.e != nil && c.e.set.key != nil {
				bf.col = c.e.set.key
			} else {
				bf.col = c.c
			}
		case c.t != bf.t || c.e == nil && c.c != bf.col || c.e != nil && c.e.set.key != bf.col:
			return nil, decline("%q and %q are not values of the same column", f.sps[0].text, sp.text).
				withHint("ask about one of them at a time")
		default:
			bf.text += ", " + sp.text
		}
		if c.e != nil && c.e.set.key != nil {
			bf.ents = append(bf.ents, c.e)
			b.resolveEntity(sp, c.e)
		} else {
			bf.values = append(bf.values, c.value)
			b.resolve(sp.text, bf.col.ref(), c.value)
		}
		if sp.typo != "" {
			b.assume = append(b.assume, fmt.Sprintf("'%s' read as '%s'", sp.text, sp.typo))
		}
	}
	return bf, nil
}

// adjectiveOf is the one table a value span stands right before, as an
// adjective ("open complaints"), or nil.
func (b *binder) adjectiveOf(sp *span) *table {
	nx := b.q.at(sp.idx + 1)
	if nx == nil || nx.has(mColumn) || nx.has(mValue) || len(nx.tables()) != 1 {
		return nil
	}
	return nx.tables()[0]
}

// bindHas binds "with an email": the column is filled in.
func (b *binder) bindHas(f *filterReq) (*boundFilter, error) {
	sp := f.has
	var cs []cand
	for _, m := range sp.ms {
		if m.kind == mColumn {
			cs = append(cs, cand{t: m.t, c: m.c, strength: m.strength})
		}
	}
	cs = dedupe(cs)
	cs = narrow(cs, func(c cand) bool { return b.named[c.t] }, func(c cand) bool { return b.root != nil && c.t == b.root }, b.reachableOrAny, strongest(cs))
	if len(cs) != 1 {
		return nil, decline("%q could mean %s", sp.text, candList(cs))
	}
	c := cs[0].c
	if (c.numeric || c.boolean) && !f.neg {
		// "<things> with a <number>": above zero, or recorded at all? ("no
		// <quantity> recorded" is plainly empty)
		return nil, decline("%q (%s) is a number: having one could mean above zero or merely recorded", sp.text, c.ref()).
			withHint("ask e.g. with a %s over 0", sp.text)
	}
	if c.numeric && f.neg && c.kind == catalog.KindMeasure && c.fk == nil && (!b.q.saysRecorded || f.zero) {
		// "<things> with no <quantity>", "zero <quantity>": zero, or not
		// recorded? ("no <quantity> recorded" is plainly empty; "zero" is
		// plainly 0)
		return nil, decline("%q (%s) is a number: none could mean zero or not recorded", sp.text, c.ref()).
			withHint("ask e.g. with %s equal to 0, or with no %s recorded", sp.text, sp.text)
	}
	if f.neg && b.frame == pAggregate && c.fk != nil && c.fk.to != c.t && b.namesOtherTable(c.t) {
		// "how many kiosks were never hauled" beside a haul's hauler
		// key: no haul of the kiosk at all, or hauls with no hauler?
		return nil, decline("%q (%s) is a key of %s: no %s at all, or %s with it empty?", sp.text, c.ref(), c.t.name, c.t.name, c.t.name).
			withHint("ask for the rows with no %s, or for the %s whose %s is empty", c.t.name, c.t.name, c.name)
	}
	b.resolve(sp.text, "column", c.ref())
	return &boundFilter{has: true, col: c, t: c.t, neg: f.neg, text: sp.text}, nil
}

// namesOtherTable: the question names a table other than t.
func (b *binder) namesOtherTable(t *table) bool {
	for u := range b.named {
		if u != t {
			return true
		}
	}
	return false
}

func (b *binder) reachableOrAny(c cand) bool { return b.root == nil || b.reachable(c) }

// bindFlag binds a yes/no column named as a filter ("discontinued products").
func (b *binder) bindFlag(f *filterReq) (*boundFilter, error) {
	sp := f.sps[0]
	var cs []cand
	for _, m := range sp.ms {
		cs = append(cs, cand{t: m.t, c: m.c, strength: m.strength})
	}
	cs = dedupe(cs)
	cs = narrow(cs, func(c cand) bool { return b.named[c.t] }, func(c cand) bool { return b.root != nil && c.t == b.root }, strongest(cs))
	if len(cs) > 1 {
		return nil, decline("%q could mean %s", sp.text, candList(cs))
	}
	c := cs[0].c
	if !c.numeric && !c.boolean {
		v, ok := textFlagValue(c.values, !f.neg)
		if !ok {
			return nil, decline("%q (%s) is a yes/no column stored as text; I don't know which value means yes", sp.text, c.ref())
		}
		b.resolve(sp.text, c.ref(), v)
		b.assume = append(b.assume, fmt.Sprintf("'%s' → %s = '%s'", sp.text, c.ref(), v))
		return &boundFilter{col: c, t: c.t, values: []string{v}, text: sp.text}, nil
	}
	b.resolve(sp.text, c.ref(), fmt.Sprint(!f.neg))
	return &boundFilter{flag: true, col: c, t: c.t, neg: f.neg, text: sp.text}, nil
}

func (b *binder) resolveEntity(sp *span, e *entity) {
	set := e.set
	b.resolve(sp.text, set.key.ref(), e.keyText())
	for _, c := range set.cols {
		b.resolve(sp.text, c.ref(), e.name)
		break
	}
	b.assume = append(b.assume, fmt.Sprintf("'%s' → %s: %s (%s %s)", sp.text, set.t.name, e.name, set.key.name, e.keyText()))
}

// bindName picks the row or value a name span means.
func (b *binder) bindName(sp *span, label *span) (cand, error) {
	var cs []cand
	for _, m := range sp.ms {
		switch m.kind {
		case mEntity:
			cs = append(cs, cand{t: m.t, e: m.e, c: m.e.set.key})
		case mValue:
			cs = append(cs, cand{t: m.t, c: m.c, value: m.value, e: m.e})
		}
	}
	cs = dropLabelValues(dedupe(cs))
	if label != nil {
		cs = narrow(cs, func(c cand) bool { return labelsCand(label, c) })
	}
	groupTables := map[*table]bool{}
	for _, g := range b.groups {
		if g.ent != nil {
			groupTables[g.ent] = true
		} else if g.col != nil {
			groupTables[g.col.t] = true
		}
	}
	rooted := func(c cand) bool { return b.root != nil && c.t == b.root }
	// A value held by several tables binds only to one the question
	// names, the root's own, or a grouped one: never to whichever table
	// happens to be reachable.
	cs = narrow(cs, func(c cand) bool { return b.named[c.t] }, rooted,
		func(c cand) bool { return groupTables[c.t] }, func(c cand) bool { return !c.t.view })
	if len(cs) > 1 {
		if sameRowNames(cs) {
			return cand{}, decline("%q could be %s", sp.text, candList(cs)).withHint("use a longer name")
		}
		return cand{}, decline("%q could mean %s", sp.text, candList(cs)).
			withHint("say which, e.g. %s %s", cs[0].t.singular(), sp.text)
	}
	if len(cs) == 0 {
		return cand{}, decline("I don't know %q", sp.text)
	}
	if c := cs[0]; c.e == nil || c.e.set.key == nil {
		if other := b.unlistedTwin(c); other != nil {
			return cand{}, decline("%q is a value of %s, but %s may hold it too (its values are not listed)", sp.text, c.c.ref(), other.ref()).
				withHint("say which, e.g. %s %s %s", c.t.singular(), catalog.IdentifierPhrase(c.c.name), sp.text)
		}
	}
	return cs[0], nil
}

// unlistedTwin: a column like c (same name or same last word, "City") on
// the root or a named table whose values the planner does not know, so a
// value found in c might be meant for it ("customers in Portland" when
// only the stores' cities are listed).
func (b *binder) unlistedTwin(c cand) *column {
	if c.t == b.root || b.named[c.t] {
		return nil
	}
	last := func(x *column) string {
		ws := catalog.IdentifierWords(x.name)
		if len(ws) == 0 {
			return ""
		}
		return ws[len(ws)-1]
	}
	var ts []*table
	if b.root != nil {
		ps, _ := b.m.paths(b.root)
		for t := range ps {
			ts = append(ts, t)
		}
	}
	for t := range b.named {
		ts = append(ts, t)
	}
	for _, t := range ts {
		for _, x := range t.cols {
			if x == c.c || x.kind == catalog.KindMeasure || x.kind == catalog.KindDate || x.isKey() || x.view() {
				continue
			}
			known := len(x.values) > 0 || x.valueSet && !x.capped
			if known {
				continue
			}
			if strings.EqualFold(x.name, c.c.name) || last(x) != "" && last(x) == last(c.c) {
				return x
			}
		}
	}
	return nil
}

// dropLabelValues: a named row and the same name as a value of its own
// label column are one thing; keep the row (filtered by key).
func dropLabelValues(cs []cand) []cand {
	var out []cand
	for _, c := range cs {
		dup := false
		if c.e == nil || c.e.set.key == nil {
			for _, o := range cs {
				if o.e != nil && o.e.set.key != nil && o.t == c.t && containsCol(o.e.set.cols, c.c) && strings.EqualFold(o.e.name, c.value) {
					dup = true
				}
			}
		}
		if !dup {
			out = append(out, c)
		}
	}
	return out
}

func sameRowNames(cs []cand) bool {
	for _, c := range cs {
		if c.e == nil || c.e.set.key == nil {
			return false
		}
	}
	return true
}

// labelsCand: the label noun names this candidate's column or table.
func labelsCand(label *span, c cand) bool {
	for _, m := range label.ms {
		switch {
		case m.kind == mTable && m.t == c.t:
			return true
		case m.kind == mColumn && m.c == c.c:
			return true
		case m.kind == mColumn && c.e != nil && m.t == c.t && m.c.kind == catalog.KindLabel:
			return true
		}
	}
	return false
}

// bindComparisons binds row-level comparisons ("products with a price over
// 100", "invoices over $10") as WHERE conditions.
func (b *binder) bindComparisons() error {
	for _, c := range b.q.cmps {
		if b.cmpBound(c) {
			continue
		}
		t := b.root
		if b.frame == pDistinct || b.frame == pLookup || t == nil {
			return decline("I can't apply %q here", c.sp.text)
		}
		var col *column
		if c.target == nil {
			var err error
			if col, err = b.ownMoney(t, c); err != nil {
				return err
			}
		} else {
			var cs []cand
			for _, m := range c.target.ms {
				if m.kind == mColumn && (m.c.kind == catalog.KindMeasure || m.c.numeric && !m.c.isKey()) {
					cs = append(cs, cand{t: m.t, c: m.c, strength: m.strength})
				}
			}
			cs = dedupe(cs)
			cs = narrow(cs, b.own, b.reachable, strongest(cs))
			if len(cs) != 1 || !b.reachable(cs[0]) {
				if len(cs) > 1 {
					return decline("%q could mean %s", c.target.text, candList(cs))
				}
				return decline("I can't compare %q for %s", c.target.text, t.phrase())
			}
			col = cs[0].c
			b.resolve(c.target.text, "column", col.ref())
		}
		if c.sp.kw.unit != "" && col.unit != "" && col.unit != c.sp.kw.unit {
			return decline("%q compares a %s, but %s is not one", c.sp.text, c.sp.kw.unit, col.ref())
		}
		b.cmps = append(b.cmps, &boundCmp{req: c, col: col})
	}
	return nil
}

func (b *binder) cmpBound(c *cmpReq) bool {
	for _, x := range b.cmps {
		if x.req == c {
			return true
		}
	}
	return false
}

// ownMoney is the table's own money column compared when the question
// names none ("invoices over $10").
func (b *binder) ownMoney(t *table, c *cmpReq) (*column, error) {
	var cs []*column
	for _, x := range t.cols {
		if x.kind == catalog.KindMeasure && x.unit == unitMoney && (c.sp.kw.unit == "" || c.sp.kw.unit == unitMoney) {
			cs = append(cs, x)
		}
	}
	if len(cs) != 1 {
		return nil, decline("%q: compared on which column of %s?", c.sp.text, t.name).
			withHint("name it, e.g. %s with a total %s", t.phrase(), c.sp.text)
	}
	b.assume = append(b.assume, fmt.Sprintf("'%s' compares %s", c.sp.text, cs[0].ref()))
	return cs[0], nil
}

// timeNeeded: a date range or a time grain needs a date column.
func (b *binder) timeNeeded() bool {
	if b.q.rng != nil {
		return true
	}
	for _, g := range b.groups {
		if g.grain != "" && g.col == nil {
			return true
		}
	}
	return false
}

// bindTimeTable picks the date a time range is on when the question says
// which, before the root may move: a date column it names ("joined last
// year"), a verb ("hired in 2025"), or the date of a fact table it names
// when the root is not one ("patrons who borrowed books in 2019").
func (b *binder) bindTimeTable() error {
	if b.root == nil {
		return nil // a distinct listing: bound with its column
	}
	if !b.timeNeeded() || b.frame == pLookup || b.frame == pDistinct && b.q.rng == nil {
		if b.q.rng != nil && b.frame == pLookup {
			return decline("a time range does not apply to a single row's details")
		}
		return nil
	}
	if sp := b.q.dateCol; sp != nil {
		var cs []cand
		for _, m := range sp.ms {
			cs = append(cs, cand{t: m.t, c: m.c, strength: m.strength})
		}
		cs = dedupe(cs)
		cs = narrow(cs, b.own, func(c cand) bool { return b.named[c.t] }, b.reachable, strongest(cs))
		if len(cs) > 1 {
			return decline("%q could mean %s", sp.text, candList(cs))
		}
		b.timeCol = cs[0].c
		b.resolve(sp.text, "column", b.timeCol.ref())
		return nil
	}
	if c := b.verbDate(); c != nil {
		b.timeCol = c
		return nil
	}
	if c, f := b.flagDate(); c != nil {
		// "crates sealed in May": the date of the sealing
		b.timeCol = c
		b.resolve(f.text, "column", c.ref())
		return nil
	}
	if b.root.date == nil || b.root.role != catalog.RoleFact {
		// a fact table below the root: its rows are the root's events
		var facts []*table
		for t := range b.named {
			if _, below := b.m.reach(t, b.root); t != b.root && t.date != nil && t.role == catalog.RoleFact && below {
				facts = append(facts, t)
			}
		}
		if len(facts) == 1 && (b.canReroot() || b.frame == pList || b.reachable(cand{t: facts[0]})) {
			b.timeCol = facts[0].date
		}
	}
	return nil
}

// flagDate is the date column of a yes/no column the question holds true
// when a time range is asked: "sealed" beside sealed_on, "x-rayed"
// beside x_rayed_at — when it happened, not the rows' own date.
func (b *binder) flagDate() (*column, *boundFilter) {
	if b.q.rng == nil {
		return nil, nil
	}
	var found *column
	var of *boundFilter
	for _, f := range b.filters {
		if f.neg || f.col == nil || !f.flag && len(f.values) != 1 {
			continue
		}
		if c := eventDateOf(f.col); c != nil {
			if found != nil && found != c {
				return nil, nil
			}
			found, of = c, f
		}
	}
	return found, of
}

// eventDateOf is the one date column of c's table named as c with a date
// word before or after it (sealed → sealed_on, date_sealed), or nil.
func eventDateOf(c *column) *column {
	ws := strings.Join(catalog.IdentifierWords(c.name), " ")
	var found *column
	for _, d := range c.t.cols {
		if d == c || !(d.dateType || d.kind == catalog.KindDate) {
			continue
		}
		dw := strings.Join(catalog.IdentifierWords(d.name), " ")
		for _, w := range []string{"on", "at", "date", "dt", "time"} {
			if dw == ws+" "+w || dw == w+" "+ws {
				if found != nil {
					return nil
				}
				found = d
			}
		}
	}
	return found
}

// canReroot: every measure is a count, so the root may move to a table
// that reaches more.
func (b *binder) canReroot() bool {
	if b.frame != pAggregate {
		return false
	}
	for _, bm := range b.measures {
		if bm.countT == nil && bm.distinct == nil {
			return false
		}
	}
	return true
}

// verbDate is the date column a verb names ("signed up" → signup_date).
func (b *binder) verbDate() *column {
	v := b.q.dateVerb
	if v == nil {
		return nil
	}
	var cs []cand
	for _, t := range b.m.tables {
		if t.view {
			continue
		}
		for _, c := range t.cols {
			if c.kind == catalog.KindDate && hasForm(c, v.kw.forms) {
				cs = append(cs, cand{t: t, c: c})
			}
		}
	}
	cs = narrow(cs, b.own, func(c cand) bool { return b.named[c.t] }, b.reachable)
	if len(cs) != 1 {
		return nil
	}
	if s := b.subject; eventless[v.text] && s != nil && s.date != nil && cs[0].t != s && !b.named[cs[0].t] {
		// "hauls made in 2023": "made" has no event of its own, and the
		// hauls have their own date — not the year each hauled mast was
		// built, though "made" is a form of "built"
		return nil
	}
	b.resolve(v.text, "column", cs[0].c.ref())
	b.verbUsed = true
	return cs[0].c
}

// hasForm: one of the forms is a word (or words) of the column's name or
// catalog words ("check in" in CHECK_IN_DATE, not in CHECK_OUT_DATE).
func hasForm(c *column, forms []string) bool {
	phrases := append([]string{catalog.IdentifierPhrase(c.name)}, c.words...)
	phrases = append(phrases, spelledOut(catalog.IdentifierWords(c.name))...) // "dsp_date": the dispatch date
	for _, p := range phrases {
		p = " " + p + " "
		for _, f := range forms {
			if strings.Contains(p, " "+f+" ") {
				return true
			}
		}
	}
	return false
}

// bindTime picks the date column the time range and grains apply to when
// the question did not say: the root's own, or the closest reachable one.
func (b *binder) bindTime() error {
	if b.root == nil {
		return nil // a distinct listing: bound with its column
	}
	if !b.timeNeeded() || b.frame == pLookup || b.frame == pDistinct && b.q.rng == nil {
		return nil
	}
	if b.timeCol == nil && b.root.date != nil {
		b.timeCol = b.root.date
	} else if b.timeCol == nil {
		col, err := b.nearestDate()
		if err != nil {
			return err
		}
		b.timeCol = col
	}
	years := b.q.rng != nil && b.q.rng.start.Year() == b.q.rng.end.AddDate(0, 0, -1).Year()
	for _, g := range b.groups {
		years = years || g.grain == "year"
	}
	for _, g := range b.groups {
		if g.grain != "" && g.col == nil {
			g.col = b.timeCol
		}
		if qc := quarterColumn(b.timeCol.t); g.grain == "quarter" && g.col == b.timeCol && qc != nil && years {
			// a date dimension's own quarter number, within one year or
			// beside the year: the quarters as the table numbers them
			g.grain, g.col = "", qc
		}
	}
	if b.q.rng != nil {
		b.resolve(b.q.timeSpan.text, "range", b.q.rng.String())
		b.resolve(b.q.timeSpan.text, "column", b.timeCol.ref())
	}
	return nil
}

// quarterColumn is a number column of t holding the quarter of the year
// ("quarter", "qtr", "quarter_no"), or nil.
func quarterColumn(t *table) *column {
	var found *column
	for _, c := range t.cols {
		ws := catalog.IdentifierWords(c.name)
		if !c.numeric || len(ws) == 0 || ws[0] != "quarter" && ws[0] != "qtr" || len(ws) > 2 || len(ws) == 2 && !rowNumberTail[ws[1]] {
			continue
		}
		if found != nil {
			return nil
		}
		found = c
	}
	return found
}

// rowNumberTail ends a name that numbers what the rest names.
var rowNumberTail = setOf("number", "no", "num", "nr")

// nearestDate is the main date of the closest header table the root
// reaches (an order line is dated by its order), never of a dimension it
// points to (a shipment is not dated by its depot's opening).
func (b *binder) nearestDate() (*column, error) {
	ps, amb := b.m.paths(b.root)
	best, tie := -1, false
	var col *column
	for t, p := range ps {
		if t.date == nil || amb[t] || !headerPath(p) {
			continue
		}
		switch {
		case best < 0 || len(p) < best:
			best, col, tie = len(p), t.date, false
		case len(p) == best:
			tie = true
		}
	}
	if col == nil || tie {
		return nil, decline("I don't know which date to use: %s has no date column", b.root.name).
			withHint("name the date, e.g. by %s", b.dateExample())
	}
	return col, nil
}

// headerPath: every step goes to a header of the table before it — a
// fact the catalog names so, or (without a catalog) a table with a date
// holding at least a twentieth as many rows.
func headerPath(p path) bool {
	for _, e := range p {
		parent, child := e.to, e.from
		switch {
		case parent.described:
			if parent.role != catalog.RoleFact {
				return false
			}
		case parent.role != catalog.RoleFact || parent.rows <= 0 || child.rows <= 0 || parent.rows*20 < child.rows:
			return false
		}
	}
	return true
}

func (b *binder) dateExample() string {
	for _, t := range b.m.tables {
		if t.date != nil {
			return t.date.phrase()
		}
	}
	return "order date"
}

// bindColumns binds the columns a listing or lookup shows and the column
// whose distinct values are listed.
func (b *binder) bindColumns() error {
	switch b.frame {
	case pAggregate:
		if len(b.q.columns) > 0 {
			sp := b.q.columns[0]
			return decline("I don't know what to do with %q in this question", sp.text).
				withHint("group by it (by %s) or filter by one of its values", sp.text)
		}
	case pLookup:
		t := b.lookup.t
		for _, mr := range b.q.measures {
			b.listCols = append(b.listCols, b.columnOf(mr.sp, t))
		}
		for _, sp := range b.q.columns {
			b.listCols = append(b.listCols, b.columnOf(sp, t))
		}
	case pList:
		for _, sp := range b.q.columns {
			c := b.columnOf(sp, b.root)
			if c == nil {
				return decline("%s has no %q", b.root.name, sp.text)
			}
			b.listCols = append(b.listCols, c)
		}
	case pDistinct:
		sp := b.q.columns[0]
		var cs []cand
		for _, m := range sp.ms {
			if m.kind == mColumn && m.c.kind != catalog.KindMeasure {
				cs = append(cs, cand{t: m.t, c: m.c, strength: m.strength})
			}
		}
		cs = dedupe(cs)
		cs = narrow(cs, func(c cand) bool { return b.named[c.t] }, strongest(cs), func(c cand) bool { return !c.t.view })
		if len(cs) != 1 {
			if len(cs) == 0 {
				return decline("I can't list the values of %q", sp.text)
			}
			return decline("%q could mean %s", sp.text, candList(cs))
		}
		b.root = cs[0].t
		b.listCols = []*column{cs[0].c}
		b.resolve(sp.text, "column", cs[0].c.ref())
		if b.q.rng != nil {
			if err := b.bindTime(); err != nil {
				return err
			}
		}
	}
	for _, c := range b.listCols {
		if c == nil {
			return decline("I don't know which column of %s you mean", b.root.name)
		}
	}
	return nil
}

// columnOf is the column of t a phrase names (any strength).
func (b *binder) columnOf(sp *span, t *table) *column {
	var best *column
	bs := -1
	for _, m := range sp.ms {
		if m.kind == mColumn && m.c.t == t && m.strength > bs {
			best, bs = m.c, m.strength
		}
	}
	if best != nil {
		b.resolve(sp.text, "column", best.ref())
	}
	return best
}

// statusColumns are attribute columns named like a status.
func statusColumns(t *table) []*column {
	var out []*column
	for _, c := range t.cols {
		if c.kind != catalog.KindAttribute || len(c.values) == 0 {
			continue
		}
		for _, w := range catalog.IdentifierWords(c.name) {
			if w == "status" || w == "state" && len(c.values) <= 10 && !strings.Contains(strings.ToLower(c.name), "province") && looksLikeStatus(c.values) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// looksLikeStatus: values that read as states of a process, not places.
func looksLikeStatus(vs []string) bool {
	for _, v := range vs {
		if len(v) == 2 && strings.ToUpper(v) == v {
			return false // US states, provinces
		}
	}
	return true
}

var (
	yesTexts = setOf("1", "yes", "y", "true", "t")
	noTexts  = setOf("0", "no", "n", "false", "f")
)

// textFlagValue is the stored text of a yes/no column that means yes (or
// no): one of its two known values, '1'/'0', 'Y'/'N', 'true'/'false' ...
func textFlagValue(values []string, yes bool) (string, bool) {
	if !yesNoValues(values) {
		return "", false
	}
	want := noTexts
	if yes {
		want = yesTexts
	}
	for _, v := range values {
		if want[strings.ToLower(strings.TrimSpace(v))] {
			return v, true
		}
	}
	return "", false
}

// yesNoValues: exactly two values, one meaning yes and one meaning no.
func yesNoValues(values []string) bool {
	if len(values) != 2 {
		return false
	}
	a, b := strings.ToLower(strings.TrimSpace(values[0])), strings.ToLower(strings.TrimSpace(values[1]))
	return yesTexts[a] && noTexts[b] || noTexts[a] && yesTexts[b]
}
