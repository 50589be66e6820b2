package builtin

import (
	"fmt"
	"slices"
	"strings"

	"talk2tables/catalog"
)

// Headline words: what an analyst means by a money or quantity figure when
// the question names none ("top customers", "best-selling products").
var (
	moneyHeadline    = setOf("revenue", "sale", "sales", "amount", "total", "subtotal", "turnover", "total sale", "sale amount", "total amount", "spend", "spending", "gross sale", "net sale", "income", "price")
	quantityHeadline = setOf("quantity", "qty", "unit", "unit sold", "quantity sold", "units", "units sold")
)

// bindMeasures binds what the question computes: its measures, the
// ranking measure and the measures of aggregate comparisons.
func (b *binder) bindMeasures() error {
	if b.frame != pAggregate {
		return nil
	}
	spend := slices.ContainsFunc(b.q.spans, func(sp *span) bool { return sp.is(kwSpend) })
	for _, mr := range b.q.measures {
		bm, err := b.bindMeasure(mr)
		if err != nil {
			return err
		}
		if spend && bm.fn == "SUM" && bm.col != nil && bm.col.unit != unitMoney {
			// "how much has each kiosk spent on crates": the money paid,
			// not the number of crates
			return decline("%q asks for money, and %s is not an amount of money", "spent", bm.col.ref()).
				withHint("name the money column, e.g. the total revenue")
		}
		b.measures = append(b.measures, bm)
	}
	if r := b.q.rank; r != nil && r.super == nil && !r.recency {
		bm, err := b.bindRankMeasure(r)
		if err != nil {
			return err
		}
		b.rankBy = b.addOrReuse(bm)
	}
	return b.bindComparisonMeasures()
}

// addOrReuse adds bm to the measures unless an equal one is there.
func (b *binder) addOrReuse(bm *boundMeasure) *boundMeasure {
	for _, x := range b.measures {
		if x.fn == bm.fn && x.col == bm.col && x.d == bm.d && x.countT == bm.countT && x.distinct == bm.distinct {
			return x
		}
	}
	b.measures = append(b.measures, bm)
	return bm
}

func (b *binder) bindRankMeasure(r *rankReq) (*boundMeasure, error) {
	if r.measure != nil && (r.measure.sp != nil || r.measure.count != nil) {
		return b.bindMeasure(r.measure)
	}
	hint := kwNone
	if r.measure != nil {
		hint = r.measure.hint
	}
	if len(b.measures) == 1 && hint == kwNone {
		return b.measures[0], nil // "which region has the highest revenue" bound it already
	}
	if hint == kwNone {
		if bm := b.verbCount(); bm != nil {
			return bm, nil // "most booked room type": how many bookings
		}
		if err := b.canDefaultRank(r); err != nil {
			return nil, err
		}
	}
	return b.defaultMeasure(hint, b.targetTables(r.target), r.sp.text)
}

// verbCount: a ranking by a verb ("most booked", "most ordered") counts
// the rows of the table the verb names (bookings, orders).
func (b *binder) verbCount() *boundMeasure {
	v := b.q.dateVerb
	if v == nil {
		return nil
	}
	var found *table
	for _, t := range b.m.tables {
		if t.view {
			continue
		}
		words := append(catalog.IdentifierWords(t.bare), t.words...)
		for _, w := range words {
			for _, f := range v.kw.forms {
				if w == f || catalog.Singular(w) == f {
					if found != nil && found != t {
						return nil
					}
					found = t
				}
			}
		}
	}
	if found == nil {
		return nil
	}
	b.resolve(v.text, "table", found.name)
	b.verbUsed = true
	b.assume = append(b.assume, fmt.Sprintf("'%s' ranks by the number of %s rows", v.text, found.name))
	return &boundMeasure{fn: "COUNT", countT: found, phrase: "number of " + found.phrase(), alias: alias("number of " + found.phrase())}
}

// canDefaultRank: a headline measure is assumed only for "top" / "bottom"
// / "best" / "worst" rankings, and for the size words of fact rows ("the
// largest order"): "the biggest hotel" or "the customer with the most" do
// not say by what.
func (b *binder) canDefaultRank(r *rankReq) error {
	if b.q.dateVerb != nil {
		return decline("ranked by what? %q does not say which figure", b.q.dateVerb.text).
			withHint("name the measure, e.g. %s by revenue", r.sp.text)
	}
	switch strings.TrimPrefix(r.sp.text, "the ") {
	case "top", "bottom", "best", "worst", "leading":
		return nil
	case "largest", "biggest", "smallest", "greatest":
		ts := preferTables(r.target.tables())
		if len(ts) == 0 {
			ts = b.targetTables(r.target)
		}
		for _, t := range ts {
			if t.role == catalog.RoleFact {
				return nil
			}
		}
	}
	return decline("%q: ranked by what?", r.sp.text).
		withHint("name the measure, e.g. the %s %s by revenue", r.sp.text, targetWord(b.targetTables(r.target)))
}

// targetTables are the tables a ranked or grouped phrase may mean.
func (b *binder) targetTables(sp *span) []*table {
	if sp == nil {
		return nil
	}
	var ts []*table
	for _, m := range sp.ms {
		switch m.kind {
		case mTable:
			ts = appendUnique(ts, m.t)
		case mColumn:
			if m.c.kind != catalog.KindMeasure {
				ts = appendUnique(ts, m.c.t)
			}
		}
	}
	return ts
}

// bindMeasure binds one measure phrase or count.
func (b *binder) bindMeasure(mr *measureReq) (*boundMeasure, error) {
	switch {
	case mr.count != nil && mr.distinct:
		return b.bindDistinctCount(mr)
	case mr.count != nil:
		ts := preferTables(mr.count.tables())
		if len(ts) > 1 {
			return nil, decline("%q could mean the tables %s", mr.count.text, tableNames(ts))
		}
		t := ts[0]
		b.resolve(mr.count.text, "table", t.name)
		if mr.byNoun {
			b.assume = append(b.assume, fmt.Sprintf("ranked by the number of %s rows ('%s' read as how many)", t.name, mr.count.text))
		}
		return &boundMeasure{fn: "COUNT", countT: t, phrase: "number of " + pluralPhrase(mr.count.text),
			alias: alias("number of " + pluralPhrase(mr.count.text))}, nil
	case mr.sp == nil:
		ts := b.groupTables()
		for _, f := range b.q.filters {
			for _, sp := range f.sps {
				ts = append(ts, b.nameTables(sp)...)
			}
		}
		return b.defaultMeasure(mr.hint, ts, "")
	}
	cs := b.measureCands(mr.sp)
	if len(cs) == 0 {
		return nil, decline("%q is not a number I can compute", mr.sp.text)
	}
	// Which table is closer is no reason to pick a measure: "unit price"
	// of the products or of the sale lines are different questions.
	cs = narrow(cs, func(c cand) bool { return b.named[c.t] && !c.t.view }, strongest(cs),
		b.feasible, func(c cand) bool { return !c.t.view })
	if len(cs) > 1 {
		return nil, decline("%q could mean %s", mr.sp.text, candList(cs)).
			withHint("name the table too, e.g. %s %s", cs[0].t.singular(), mr.sp.text)
	}
	c := cs[0]
	if err := b.headerAmount(mr.sp, c); err != nil {
		return nil, err
	}
	bm := &boundMeasure{col: c.c, d: c.d, phrase: strings.ToLower(mr.sp.text)}
	if err := b.measureFn(bm, mr.fn, mr.sp.text); err != nil {
		return nil, err
	}
	b.resolveMeasure(mr.sp, bm)
	return bm, nil
}

func (b *binder) resolveMeasure(sp *span, bm *boundMeasure) {
	if bm.col != nil {
		b.resolve(sp.text, "column", bm.col.ref())
	} else if bm.d != nil {
		b.resolve(sp.text, "measure", bm.d.name)
	}
	if sp.typo != "" {
		b.assume = append(b.assume, fmt.Sprintf("'%s' read as '%s'", sp.text, sp.typo))
	}
}

func (b *binder) bindDistinctCount(mr *measureReq) (*boundMeasure, error) {
	var cs []cand
	for _, m := range mr.count.ms {
		if m.kind == mColumn && m.c.kind != catalog.KindMeasure {
			cs = append(cs, cand{t: m.t, c: m.c, strength: m.strength})
		}
	}
	cs = dedupe(cs)
	if len(cs) == 0 {
		return nil, decline("%q: count of what?", mr.count.text)
	}
	cs = narrow(cs, func(c cand) bool { return b.named[c.t] }, strongest(cs), b.feasible)
	if len(cs) > 1 {
		return nil, decline("%q could mean %s", mr.count.text, candList(cs))
	}
	c := cs[0].c
	b.resolve(mr.count.text, "column", c.ref())
	return &boundMeasure{fn: "COUNT", distinct: c, phrase: "number of distinct " + pluralPhrase(mr.count.text),
		alias: alias("number of " + pluralPhrase(mr.count.text))}, nil
}

// genericMoney are words for money that do not say whose amount it is.
var genericMoney = setOf("revenue", "sale", "sales", "turnover", "income", "takings", "earnings")

// lineWords name tables whose rows are the lines of another (their amounts
// add up to it).
var lineWords = setOf("line", "lines", "item", "items", "detail", "details", "entry", "entries", "position", "positions")

// headerAmount declines a generic money word ("revenue") bound to the
// amounts of a table that is not the lines of its parent when that parent
// has an amount of its own: a booking's total or its charges, an order's
// total or its payments — the words do not say which.
func (b *binder) headerAmount(sp *span, c cand) error {
	if !genericMoney[strings.Join(phraseStems(sp.text), " ")] && !genericMoney[strings.ToLower(sp.text)] {
		return nil
	}
	if anyIn(catalog.IdentifierWords(c.t.bare), lineWords) {
		return nil
	}
	ps, _ := b.m.paths(c.t)
	for p, path := range ps {
		if p == c.t || len(path) > 2 || p.role != catalog.RoleFact {
			continue
		}
		for _, pc := range p.cols {
			if pc.additive() && pc.unit == unitMoney && headline(nil, pc.name, moneyHeadline) {
				return decline("%q could be %s or %s", sp.text, c.String(), pc.ref()).
					withHint("name the amount, e.g. total %s", pc.phrase())
			}
		}
	}
	return nil
}

// measureCands: the columns of kind measure and derived measures a phrase names.
func (b *binder) measureCands(sp *span) []cand {
	var cs []cand
	for _, m := range sp.ms {
		switch {
		case m.kind == mDerived:
			cs = append(cs, cand{t: m.t, d: m.d, strength: m.strength})
		case m.kind == mColumn && m.c.kind == catalog.KindMeasure:
			cs = append(cs, cand{t: m.t, c: m.c, strength: m.strength})
		}
	}
	return dedupe(cs)
}

// feasible: from the candidate's table, every grouping and ranking target
// can be reached through many-to-one keys.
func (b *binder) feasible(c cand) bool {
	for _, ts := range b.neededTables() {
		ok := false
		for _, t := range ts {
			if _, r := b.m.reach(c.t, t); r {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// neededTables: for each grouping, ranking target and filter, the tables
// it may mean.
func (b *binder) neededTables() [][]*table {
	var out [][]*table
	for _, g := range b.q.groups {
		if ts := b.targetTables(g.sp); len(ts) > 0 {
			out = append(out, ts)
		}
	}
	if r := b.q.rank; r != nil {
		if ts := b.targetTables(r.target); len(ts) > 0 {
			out = append(out, ts)
		}
	}
	for _, f := range b.q.filters {
		var ts []*table
		for _, sp := range f.sps {
			for _, m := range sp.ms {
				if m.kind == mValue || m.kind == mEntity {
					ts = appendUnique(ts, m.t)
				}
			}
		}
		if len(ts) > 0 {
			out = append(out, ts)
		}
	}
	return out
}

// fewestHops prefers the candidates closest to what the question needs.
func (b *binder) fewestHops(cs []cand) func(cand) bool {
	hops := func(c cand) int {
		n := 0
		for _, ts := range b.neededTables() {
			best := 1 << 20
			for _, t := range ts {
				if h, ok := b.m.reach(c.t, t); ok {
					best = min(best, h)
				}
			}
			n += best
		}
		return n
	}
	least := 1 << 30
	for _, c := range cs {
		least = min(least, hops(c))
	}
	return func(c cand) bool { return hops(c) == least }
}

// nameTables are the tables a name span's rows or values may be in.
func (b *binder) nameTables(sp *span) []*table {
	var ts []*table
	for _, m := range sp.ms {
		if m.kind == mEntity || m.kind == mValue {
			ts = appendUnique(ts, m.t)
		}
	}
	if len(ts) > 1 {
		return nil // ambiguous: bound later
	}
	return ts
}

func (b *binder) groupTables() []*table {
	var ts []*table
	for _, g := range b.q.groups {
		ts = append(ts, b.targetTables(g.sp)...)
	}
	if b.subject != nil {
		ts = append(ts, b.subject)
	}
	return ts
}

// measureFn checks and sets the aggregate of a measure: additive measures
// are summed by default; non-additive ones (prices, rates) are never
// summed; a formula is already an aggregate.
func (b *binder) measureFn(bm *boundMeasure, fn, text string) error {
	switch {
	case bm.d != nil && bm.d.formula != "":
		if fn != "" && fn != "AVG" {
			return decline("%q is already computed over rows (%s); it cannot be aggregated again", text, bm.d.name).
				withHint("ask for %s by a grouping, e.g. %s by month", text, text)
		}
		bm.fn = ""
	case bm.d != nil:
		switch {
		case fn == "":
			bm.fn = bm.d.agg
		case fn == "SUM" && !bm.d.additive():
			return finalDecline("%q cannot be added up", text).withHint("try average %s", text)
		case fn == "COUNT":
			return decline("%q is a number to add up or average, not to count", text)
		default:
			bm.fn = fn
		}
	default:
		c := bm.col
		switch {
		case fn == "" && c.additive():
			bm.fn = "SUM"
		case fn == "":
			return finalDecline("%q (%s) is a %s: it is averaged, not added up, and I won't guess which you want", text, c.ref(), measureNoun(c)).
				withHint("ask for the average %s (or the highest / lowest %s)", text, text)
		case fn == "SUM" && !c.additive():
			return finalDecline("%q (%s) is a %s: adding it up gives no meaningful figure", text, c.ref(), measureNoun(c)).
				withHint("ask for the average %s", text)
		case fn == "COUNT":
			return decline("%q is a number to add up or average, not to count", text).
				withHint("ask for the total %s", text)
		default:
			bm.fn = fn
		}
	}
	if w := fnWord(bm.fn); w != "" && !strings.HasPrefix(bm.phrase, w+" ") {
		bm.phrase = w + " " + bm.phrase
	}
	bm.alias = alias(bm.phrase)
	return nil
}

func measureNoun(c *column) string {
	switch c.unit {
	case unitMoney:
		return "price or rate"
	case unitDuration:
		return "duration"
	case "percent", "rate":
		return "rate"
	}
	return "value of each row"
}

func fnWord(fn string) string {
	switch fn {
	case "SUM":
		return "total"
	case "AVG":
		return "average"
	case "MIN":
		return "lowest"
	case "MAX":
		return "highest"
	case "COUNT":
		return "number of"
	}
	return ""
}

// defaultMeasure is the figure an analyst means when the question names
// none: money (or, for "best-selling", quantity) on the fact table that
// reaches the ranked or grouped tables, when exactly one measure has a
// headline word (revenue, sales, amount, total; quantity, units).
func (b *binder) defaultMeasure(hint kw, targets []*table, why string) (*boundMeasure, error) {
	unit, words, noun := unitMoney, moneyHeadline, "money amount (revenue, sales)"
	if hint == kwSell {
		unit, words, noun = unitQuantity, quantityHeadline, "quantity sold"
	}
	// Every additive measure of that kind on a fact table reaching the
	// targets that reads as a headline amount (revenue, sales, total,
	// amount; quantity, units) is a candidate; freight or tax are not. One
	// column wins; two columns (a booking's total and its charges) decline;
	// with no column, one derived measure wins.
	var cs []cand
	for _, t := range b.m.tables {
		if t.view || t.role != catalog.RoleFact {
			continue
		}
		for _, c := range t.cols {
			if c.additive() && (c.unit == unit || c.unit == "" && hint == kwSell && c.inferred) && headline(c.words, c.name, words) {
				cs = append(cs, cand{t: t, c: c})
			}
		}
	}
	for _, d := range b.m.derived {
		if d.additive() && d.unit == unit && !d.t.view && (headline(append([]string{d.name}, d.words...), "", words)) {
			cs = append(cs, cand{t: d.t, d: d})
		}
	}
	var ok []cand
	for _, c := range cs {
		reaches := true
		for _, t := range targets {
			if _, r := b.m.reach(c.t, t); !r {
				reaches = false
			}
		}
		if reaches {
			ok = append(ok, c)
		}
	}
	ok = narrow(ok, func(c cand) bool { return c.c != nil })
	if len(ok) != 1 {
		what := "ranked"
		if why == "" {
			what = "measured"
		}
		e := decline("I don't know what the answer should be %s by: name the measure", what)
		if len(ok) > 1 {
			e = decline("I don't know what the answer should be %s by: it could be %s", what, candList(ok))
		}
		if len(ok) == 0 && len(cs) == 0 {
			e.why += fmt.Sprintf(" (no %s is known)", noun)
		}
		return nil, e.withHint("e.g. top 5 %s by <a measure>", targetWord(targets))
	}
	c := ok[0]
	bm := &boundMeasure{col: c.c, d: c.d}
	if c.c != nil {
		bm.phrase = c.c.phrase()
	} else {
		bm.phrase = c.d.name
	}
	if err := b.measureFn(bm, "", bm.phrase); err != nil {
		return nil, err
	}
	src := c.String()
	b.assume = append(b.assume, fmt.Sprintf("measured by %s (%s), as no measure was named", bm.phrase, src))
	return bm, nil
}

func targetWord(ts []*table) string {
	if len(ts) == 0 {
		return "rows"
	}
	return ts[0].phrase()
}

// headline: one of the phrases, or one word of the identifier, reads as a
// headline amount.
func headline(ws []string, ident string, set map[string]bool) bool {
	if hasHeadline(ws, ident, set) {
		return true
	}
	for _, w := range catalog.IdentifierWords(ident) {
		if set[w] || set[catalog.Singular(w)] {
			return true
		}
	}
	for _, p := range ws {
		for _, w := range strings.Fields(p) {
			if set[w] || set[catalog.Singular(w)] {
				return true
			}
		}
	}
	return false
}

func hasHeadline(ws []string, ident string, headline map[string]bool) bool {
	for _, w := range ws {
		if headline[strings.Join(phraseStems(w), " ")] || headline[w] {
			return true
		}
	}
	if ident != "" {
		p := catalog.IdentifierPhrase(ident)
		if headline[p] || headline[strings.Join(phraseStems(p), " ")] {
			return true
		}
	}
	return false
}

// closestTo prefers the candidates with the fewest hops to the targets.
func (b *binder) closestTo(targets []*table, cs []cand) func(cand) bool {
	hops := func(c cand) int {
		n := 0
		for _, t := range targets {
			h, _ := b.m.reach(c.t, t)
			n += h
		}
		return n
	}
	least := 1 << 30
	for _, c := range cs {
		least = min(least, hops(c))
	}
	return func(c cand) bool { return hops(c) == least }
}

// pluralPhrase is the phrase as typed, for labels ("orders").
func pluralPhrase(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// alias makes an output column name from words: "total revenue" → total_revenue.
func alias(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			under = false
		case !under && b.Len() > 0:
			b.WriteByte('_')
			under = true
		}
	}
	out := strings.TrimSuffix(b.String(), "_")
	if out == "" || out[0] >= '0' && out[0] <= '9' {
		out = "v_" + out
	}
	if len(out) > 48 {
		out = out[:48]
	}
	return out
}
