package builtin

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"talk2tables/catalog"
)

// declineError is a question the planner will not answer, with what to
// tell the user and how they might rephrase.
type declineError struct {
	why  string
	hint string
	// other: the question is not of the kind this reading answers
	// (another reading may): the clause reader leaves measures, time
	// grains and analyst rankings to the analyst reading
	other bool
	// final: the reading understood every word and found their
	// combination unanswerable; no other reading may answer instead
	final bool
	// noRequest: the question is a bare noun phrase, no request
	noRequest bool
}

func (e *declineError) Error() string { return e.why }

// isNoRequest: err says the question is a bare noun phrase.
func isNoRequest(err error) bool {
	var d *declineError
	return errors.As(err, &d) && d.noRequest
}

func decline(format string, args ...any) *declineError {
	return &declineError{why: fmt.Sprintf(format, args...)}
}

// finalDecline is a decline no other reading may overrule.
func finalDecline(format string, args ...any) *declineError {
	return &declineError{why: fmt.Sprintf(format, args...), final: true}
}

// isFinal: err is a final decline.
func isFinal(err error) bool {
	var d *declineError
	return errors.As(err, &d) && d.final
}

// notMine is a decline that leaves the question to another reading.
func notMine(format string, args ...any) *declineError {
	return &declineError{why: fmt.Sprintf(format, args...), other: true}
}

func (e *declineError) withHint(format string, args ...any) *declineError {
	e.hint = fmt.Sprintf(format, args...)
	return e
}

// The interpreted question, before binding to tables (the IR).

// measureReq is something to compute: an aggregate of a measure phrase, a
// count of a table's rows or of a column's distinct values.
type measureReq struct {
	sp       *span
	fn       string // SUM, AVG, MIN, MAX, COUNT named by the question; "" for the default
	fnSpan   *span
	count    *span // COUNT rows of the table this span names
	distinct bool  // COUNT(DISTINCT column)
	hint     kw    // kwSell or kwSpend: a default measure of that kind
	// byNoun: ranked "by <table noun>" ("top <things> by <other things>"),
	// read as a count of its rows — said in the answer
	byNoun bool
}

// groupReq is one grouping: a time grain, or a column/table phrase.
type groupReq struct {
	sp    *span
	grain string
}

// filterReq is a named row or value, maybe negated, maybe with the noun
// that labels it ("north region", "customers in the north").
type filterReq struct {
	has   *span   // "customers with an email": the column is not empty
	sps   []*span // values of one column joined by and/or
	neg   bool
	zero  bool // neg said as "zero"
	label *span
	or    bool
}

// cmpReq is a numeric comparison of a measure, a column or a count.
type cmpReq struct {
	sp     *span // the comparator with its numbers
	target *span // the phrase compared, nil for the subject's default measure
	count  bool  // target names a table: compare the count of its rows
	hint   kw
}

// rankReq orders and cuts the answer.
type rankReq struct {
	// bestLow: "best" of a place or a rank, turned to the lowest number
	bestLow bool
	sp      *span
	dir     int
	n       int
	hasN    bool
	target  *span       // what is ranked (rows of a table or values of a column)
	measure *measureReq // ranked by; nil for the default
	super   *kwInfo     // a superlative adjective: by a column of the target
	recency bool        // by date (latest, last N, first N)
	ownCol  *column     // ranked by a column of the target's own rows ("top 5 products by price")
	grain   string      // ranked periods ("which month had the highest revenue")
}

// query is the interpreted question.
type query struct {
	spans      []*span
	acrossAll  bool // "across all <T>": one figure over every row
	listVerb   bool
	which      bool
	howMuch    bool
	compare    bool
	distinct   bool
	measures   []*measureReq
	groups     []*groupReq
	filters    []*filterReq
	cmps       []*cmpReq
	rank       *rankReq
	rng        *dateRange
	timeSpan   *span
	dateCol    *span   // a date column named with the time range ("joined last year")
	dateVerb   *span   // a verb saying which date the range is on ("hired in 2025")
	subjects   []*span // table phrases naming what the question is about
	columns    []*span // column phrases to show (listings, lookups)
	grainTrend bool
	// compound: pairs of measure spans side by side ("ticket revenue"),
	// read as two figures where the phrase names one
	compound []*span
	// saysRecorded: the question speaks of a value being recorded or
	// missing ("no <quantity> recorded"), so "no <number>" is an empty column
	saysRecorded bool
}

func (q *query) at(i int) *span {
	if i >= 0 && i < len(q.spans) {
		return q.spans[i]
	}
	return nil
}

// interpret reads the spans into a query, step by step: what is not
// supported, time, comparisons, ranking, grouping, measures, filters,
// subjects; then checks every span found a role.
func interpret(spans []*span) (*query, error) {
	q := &query{spans: spans}
	for _, step := range []func() error{
		q.readUnsupported, q.readFrame, q.readTime, q.readComparisons, q.readRanking,
		q.readNumberEquals, q.readGroups, q.readMeasures, q.readFilters, q.readSubjects, q.readLeftovers,
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	if len(q.compound) > 1 {
		return nil, decline("%q and %q are two figures side by side: which one?", q.compound[0].text, q.compound[1].text).
			withHint("ask for one of them, or for both joined by and")
	}
	return q, nil
}

// selfReference: a phrase naming a foreign key from a table to itself
// (a "reports to" or "parent" column) and not the table: the
// question is about how rows relate to one another, which needs the table
// joined to itself.
func selfReference(sp *span) bool {
	self := false
	for _, m := range sp.ms {
		switch {
		case m.kind == mTable:
			return false
		case m.kind == mColumn && m.c.selfKey():
			self = true
		}
	}
	return self
}

// readUnsupported declines writes, "why" and predictions.
func (q *query) readUnsupported() error {
	for i, sp := range q.spans {
		switch {
		case sp.is(kwWrite), sp.is(kwWrite0) && i == 0:
			return decline("this is a read-only assistant: it never changes data").
				withHint("ask for figures, e.g. how many orders there are")
		case sp.is(kwWhy):
			return decline("I look up figures but cannot explain why they changed; ask for the numbers instead").
				withHint("ask e.g. for the monthly trend of the measure")
		case sp.is(kwFuture):
			return decline("I report recorded data and cannot predict or forecast").
				withHint("ask about a past period, e.g. last month")
		case sp.kind == spKw && sp.is(kwStockState):
			// "<things> in stock": a quantity above zero, or a flag, or a
			// status — and "in stock" beside a stock column must not turn
			// the question into the column's total
			return decline("%q is a state I do not map to a condition offline", sp.text).
				withHint("say it with a number, e.g. with stock equal to 0, or stock above 0")
		case sp.is(kwRelation), selfReference(sp):
			return decline("how rows relate to one another (%q) is not answered offline", sp.text).
				withHint("ask about one row's own details, or configure an LLM")
		case sp.is(kwNoneOf) && noneOfColumn(q.at(i+1)):
			// "customers with no phone number": the column is empty
			q.at(i + 1).afterHave = true
		case sp.is(kwNoneOf):
			return decline("questions about what did not happen (%q) are not answered offline", sp.text).
				withHint("ask about what did happen, e.g. how many orders each customer placed")
		}
	}
	return nil
}

// readFrame notes the words that set the question's frame: a list verb,
// which/what, how much, compare, distinct.
func (q *query) readFrame() error {
	for i, sp := range q.spans {
		switch {
		case sp.kind == spKw && sp.is(kwList):
			q.listVerb, sp.used = true, true
		case sp.kind == spKw && sp.is(kwWhich):
			q.which, sp.used = true, true
			_ = i
		case sp.is(kwHowMuch):
			q.howMuch, sp.used = true, true
		case sp.kind == spKw && sp.is(kwCompare):
			q.compare, sp.used = true, true
		case sp.is(kwDistinct):
			q.distinct, sp.used = true, true
		}
	}
	return nil
}

// readTime takes the date range and standalone grains (monthly, trend).
func (q *query) readTime() error {
	for _, sp := range q.spans {
		switch {
		case sp.kind == spTime:
			if sp.rng.yearless {
				return decline("%q does not say which year", sp.text).
					withHint("add the year, e.g. %s %d", sp.text, sp.rng.start.Year())
			}
			if q.rng != nil {
				return decline("two time windows (%q and %q); ask about one at a time", q.timeSpan.text, sp.text).
					withHint("compare periods with a monthly or yearly breakdown, e.g. by month")
			}
			q.rng, q.timeSpan, sp.used = sp.rng, sp, true
		case sp.kind == spKw && sp.is(kwGrain):
			q.groups = append(q.groups, &groupReq{sp: sp, grain: sp.kw.gr})
			sp.used = true
		case sp.kind == spKw && sp.is(kwTrend):
			q.grainTrend, sp.used = true, true
		case sp.is(kwDateVerb):
			if q.dateVerb == nil {
				q.dateVerb = sp
			}
			// a verb that is also a value ("delivered") stays a filter
			// unless binding finds its date column
			sp.used = sp.kind == spKw
		}
	}
	if q.grainTrend && !q.hasGrain() {
		q.groups = append(q.groups, &groupReq{grain: "month"})
	}
	return nil
}

func (q *query) hasGrain() bool {
	for _, g := range q.groups {
		if g.grain != "" {
			return true
		}
	}
	return false
}

// isNoun: a word span that can name a table, column or derived measure.
func isNoun(sp *span) bool {
	return sp != nil && sp.kind == spWord && !sp.used && (sp.has(mTable) || sp.has(mColumn) || sp.has(mDerived))
}

func isName(sp *span) bool {
	return sp != nil && sp.kind == spWord && (sp.has(mEntity) || sp.has(mValue) || flagLike(sp))
}

// flagLike: a phrase naming only yes/no columns ("discontinued").
// sameTables: two phrases name a table in common.
func sameTables(a, b *span) bool {
	for _, t := range a.tables() {
		for _, u := range b.tables() {
			if t == u {
				return true
			}
		}
	}
	return false
}

func flagLike(sp *span) bool {
	if sp == nil || sp.kind != spWord || len(sp.ms) == 0 {
		return false
	}
	for _, m := range sp.ms {
		if m.kind != mColumn || m.c.kind != catalog.KindFlag {
			return false
		}
	}
	return true
}

// measureLike: a column measure or derived measure meaning.
//
// A phrase that also names a table counts as a measure only through that
// table's own measures ("sales" → the sales amount), not another table's
// ("guests" is the guest table, not room types' max guests).
func measureLike(sp *span) bool {
	if sp == nil || sp.kind != spWord {
		return false
	}
	tables := sp.tables()
	for _, m := range sp.ms {
		if m.kind == mDerived || m.kind == mColumn && m.c.kind == catalog.KindMeasure {
			if len(tables) == 0 || slices.Contains(tables, m.t) {
				return true
			}
		}
	}
	return false
}

// groupLike: a table, or a column one can group by.
func groupLike(sp *span) bool {
	if sp == nil || sp.kind != spWord {
		return false
	}
	for _, m := range sp.ms {
		if m.kind == mTable || m.kind == mColumn && m.c.kind != catalog.KindMeasure && m.c.kind != catalog.KindText {
			return true
		}
	}
	return false
}

// factQuantity: an additive column of another, fact table that the phrase
// also names ("guests": the guest table, or a booking's number of guests).
func factQuantity(sp *span) *column {
	tables := sp.tables()
	for _, m := range sp.ms {
		if m.kind == mColumn && m.c.additive() && m.t.role == catalog.RoleFact && !slices.Contains(tables, m.t) && m.strength > strengthHead {
			return m.c
		}
	}
	return nil
}

// amountTable: a column the phrase's table adds up (its amount), when it
// has one: "total charges" may mean their number or their amount.
func amountTable(sp *span) *column {
	for _, t := range sp.tables() {
		for _, c := range t.cols {
			if c.additive() {
				return c
			}
		}
		if t.date == nil {
			continue
		}
		for _, c := range t.cols {
			if (c.numeric || c.numberAsText()) && !c.isKey() && inferUnit(catalog.IdentifierWords(c.name), c.kind) == unitMoney {
				// "total sales" of dated sales with a price each: how many,
				// or the money they brought?
				return c
			}
		}
	}
	return nil
}

// groupLikeTable: groupLike through a table's columns (a view's columns
// aside: views are read only when named).
func groupLikeTable(sp *span) bool {
	if sp == nil || sp.kind != spWord {
		return false
	}
	for _, m := range sp.ms {
		if m.kind == mTable || m.kind == mColumn && !m.t.view && m.c.kind != catalog.KindMeasure && m.c.kind != catalog.KindText {
			return true
		}
	}
	return false
}

// readComparisons pairs each comparator with the phrase it compares:
// "more than 5 orders", "price over 100", "invoices over $10".
func (q *query) readComparisons() error {
	for _, sp := range q.spans {
		if sp.kind == spKw && sp.is(kwCmp) {
			return decline("%q needs a number after it", sp.text).withHint("e.g. more than 5")
		}
		if sp.kind != spCmp {
			continue
		}
		sp.used = true
		c := &cmpReq{sp: sp}
		nx, pv := q.at(sp.idx+1), q.at(sp.idx-1)
		switch {
		case isNoun(nx) && nx.has(mTable) && !measureLike(nx) && nx.tok0 != sp.tok0+sp.tokN:
			// "more than 2000 in sales": an amount, not 2000 rows
			return decline("I don't know what %q compares", sp.text).
				withHint("say more than %s %s for a number of rows, or name the column", trimFloat(sp.a), nx.text)
		case isNoun(nx) && (measureLike(nx) || nx.has(mTable)):
			c.target = nx
			c.count = !measureLike(nx)
			nx.used = true
		case pv != nil && !pv.used && (pv.is(kwSpend) || pv.is(kwSell)):
			c.hint, pv.used = pv.kw.kw, true
		case isNoun(pv) && (measureLike(pv) || pv.has(mColumn) && !pv.has(mTable)):
			c.target = pv
			pv.used = true
		case isNoun(pv) && pv.has(mTable):
			// "invoices over $10": the table's own money measure; the
			// table stays the subject
		case isNoun(nx):
			c.target = nx
			nx.used = true
		default:
			return decline("I don't know what %q compares", sp.text).
				withHint("name the measure, e.g. with a total over %s", trimFloat(sp.a))
		}
		q.cmps = append(q.cmps, c)
	}
	return nil
}

func trimFloat(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.4f", f), "0"), ".")
}

// readNumberEquals reads "star rating 5" / "rating of 5" as an equality:
// a number right after a column phrase, left by the ranking.
func (q *query) readNumberEquals() error {
	for _, sp := range q.spans {
		if sp.used || sp.kind != spNum {
			continue
		}
		pv := q.at(sp.idx - 1)
		if !isNoun(pv) || !pv.has(mColumn) || pv.has(mTable) || measureLike(pv) && !numericAttribute(pv) {
			continue
		}
		cmp := &span{idx: sp.idx, text: pv.text + " " + sp.text, kind: spCmp, op: "=", a: sp.num, used: true, tok0: sp.tok0, tokN: sp.tokN}
		q.spans[sp.idx] = cmp
		q.cmps = append(q.cmps, &cmpReq{sp: cmp, target: pv})
		pv.used = true
	}
	return nil
}

// numericAttribute: a phrase naming a number column that is not summed
// (a rating, a floor): equal to a number is a filter.
func numericAttribute(sp *span) bool {
	for _, m := range sp.ms {
		if m.kind == mColumn && m.c.numeric && !m.c.isKey() && !m.c.additive() {
			return true
		}
	}
	return false
}

// readRanking finds top/bottom N, most/least, superlatives (most
// expensive, longest, latest) and recency (last N orders).
func (q *query) readRanking() error {
	for _, sp := range q.spans {
		if sp.used {
			continue
		}
		var err error
		switch {
		case sp.kind == spKw && sp.is(kwSuper):
			err = q.readSuperlative(sp)
		case sp.kind == spKw && sp.is(kwRank):
			err = q.readRank(sp)
		case sp.kind == spKw && (sp.is(kwLast) || sp.is(kwFirst)):
			err = q.readRecency(sp)
		}
		if err != nil {
			return err
		}
		if q.rank != nil {
			return q.secondRank()
		}
	}
	return nil
}

func (q *query) secondRank() error {
	for _, sp := range q.spans {
		if !sp.used && sp.kind == spKw && (sp.is(kwRank) || sp.is(kwSuper)) {
			return decline("two rankings (%q and %q); ask for one", q.rank.sp.text, sp.text)
		}
	}
	return nil
}

// rankN reads the number right after (or right before) a ranking word.
func (q *query) rankN(r *rankReq, sp *span) int {
	next := sp.idx + 1
	if nx := q.at(next); nx != nil && nx.kind == spNum && nx.isInt && nx.num >= 1 && !nx.used {
		r.n, r.hasN, nx.used = int(nx.num), true, true
		return next + 1
	}
	if pv := q.at(sp.idx - 1); pv != nil && pv.kind == spNum && pv.isInt && pv.num >= 1 && !pv.used {
		r.n, r.hasN, pv.used = int(pv.num), true, true
	}
	return next
}

// nextTarget returns the first noun from index i, skipping names (filters
// like "audio" in "top 3 audio products") and sell/spend words.
func (q *query) nextTarget(i int, pred func(*span) bool) *span {
	for ; i < len(q.spans); i++ {
		sp := q.spans[i]
		switch {
		case sp.used:
			continue
		case isName(sp) && (!isNoun(sp) || flagLike(sp)):
			continue
		case sp.is(kwSell) || sp.is(kwSpend):
			continue
		case pred(sp):
			return sp
		}
		return nil
	}
	return nil
}

// prevTarget returns the nearest unused noun before index i ("which
// region ... highest", "customers with the most ...").
func (q *query) prevTarget(i int, pred func(*span) bool) *span {
	for k := i - 1; k >= 0; k-- {
		sp := q.spans[k]
		if sp.used || isName(sp) && !isNoun(sp) || sp.kind == spKw || sp.kind == spTime {
			continue
		}
		if pred(sp) {
			return sp
		}
		return nil
	}
	return nil
}

func (q *query) readSuperlative(sp *span) error {
	r := &rankReq{sp: sp, dir: sp.kw.dir, super: &sp.kw}
	sp.used = true
	i := q.rankN(r, sp)
	r.target = q.nextTarget(i, func(s *span) bool { return isNoun(s) && s.has(mTable) })
	if r.target == nil {
		r.target = q.prevTarget(sp.idx, func(s *span) bool { return isNoun(s) && s.has(mTable) })
	}
	if r.target == nil {
		return decline("%q of what? name what to rank", sp.text).withHint("e.g. the %s order", sp.text)
	}
	r.target.used = true
	if sp.kw.unit == unitDate {
		r.recency = true
	}
	q.rank = r
	return nil
}

func (q *query) readRank(sp *span) error {
	nx := q.at(sp.idx + 1)
	if nx != nil && nx.kind == spNum {
		nx = q.at(sp.idx + 2)
	}
	if nx != nil && nx.kind == spKw && nx.is(kwSuper) && sp.kw.dir > 0 {
		// "top 5 most expensive wines": the superlative ranks
		sp.used = true
		return nil
	}
	r := &rankReq{sp: sp, dir: sp.kw.dir}
	sp.used = true
	i := q.rankN(r, sp)
	hint := kwNone
	if nx := q.at(i); nx != nil && (nx.is(kwSell) || nx.is(kwSpend)) {
		hint, nx.used = nx.kw.kw, true
		i++
	}
	next := q.nextTarget(i, isNoun)
	prev := q.prevTarget(sp.idx, groupLike)
	if g := q.grainNear(sp, i); g != nil && prev == nil && (next == nil || measureLike(next) && !next.has(mTable)) {
		// "which month had the highest revenue", "best month for sales"
		r.grain, g.used = g.kw.gr, true
		if next != nil {
			r.measure = &measureReq{sp: next}
			next.used = true
		}
		if r.measure == nil && hint != kwNone {
			r.measure = &measureReq{hint: hint}
		}
		q.rank = r
		return nil
	}
	switch {
	case hint != kwNone && next != nil && next.has(mTable) && !measureLike(next) && prev != nil:
		// "which flavour shifted the most units at the kiosks": the
		// units, not how many rows of the table after them
		r.measure = &measureReq{hint: hint}
		r.target = prev
	case next != nil && measureLike(next) && !(groupLike(next) && prev == nil):
		// "which region has the highest revenue"
		r.measure = &measureReq{sp: next}
		next.used = true
		r.target = prev
	case next != nil && next.has(mTable) && !measureLike(next) && prev != nil && (prev.has(mTable) || groupLike(prev) && !sameTables(prev, next)):
		// "customers with the most orders", "which country has the most
		// guests": ranked by a count of rows
		r.measure = &measureReq{count: next}
		next.used = true
		r.target = prev
	case next != nil && groupLike(next):
		r.target = next
		next.used = true
	default:
		r.target = prev
	}
	if (sp.text == "best" || sp.text == "worst") && r.measure != nil && r.measure.sp != nil &&
		slices.ContainsFunc(r.measure.sp.ms, func(m *meaning) bool { return m.c != nil && placeLike(m.c) }) {
		r.dir, r.bestLow = -r.dir, true // "the best seed": the lowest number
	}
	if r.target == nil {
		if r.measure != nil && !r.hasN && hint == kwNone {
			// "highest discount": the maximum, not a ranking
			fn := "MAX"
			if r.dir < 0 {
				fn = "MIN"
			}
			r.measure.fn, r.measure.fnSpan = fn, sp
			q.measures = append(q.measures, r.measure)
			return nil
		}
		if r.measure != nil {
			r.measure.sp.used = false
		}
		return decline("%q: the %s what? name what to rank", sp.text, sp.text).
			withHint("e.g. top 5 products by revenue")
	}
	r.target.used = true
	if r.measure == nil && hint != kwNone {
		r.measure = &measureReq{hint: hint}
	}
	q.rank = r
	return nil
}

// grainNear is a period noun right before the ranking word or right after
// it (and its number).
func (q *query) grainNear(sp *span, next int) *span {
	for _, g := range []*span{q.at(sp.idx - 1), q.at(next)} {
		if g != nil && !g.used && g.kind == spKw && g.is(kwGrainNoun) {
			return g
		}
	}
	return nil
}

func (q *query) readRecency(sp *span) error {
	r := &rankReq{sp: sp, dir: 1, recency: true}
	if sp.is(kwFirst) {
		r.dir = -1
	}
	i := q.rankN(r, sp)
	if pv := q.at(sp.idx - 1); r.hasN && pv != nil && pv.used && pv.kind == spNum {
		return nil // "5 last ..." is not English: leave it
	}
	t := q.nextTarget(i, func(s *span) bool { return isNoun(s) && s.has(mTable) })
	if t == nil && !r.hasN {
		// "which brewery opened first"
		t = q.prevTarget(sp.idx, func(s *span) bool { return isNoun(s) && s.has(mTable) })
	}
	if t == nil {
		if r.hasN {
			q.at(i - 1).used = false
		}
		return nil
	}
	sp.used, t.used = true, true
	r.target = t
	q.rank = r
	return nil
}

// readGroups reads "by X", "per X", "for each X", "X wise" and "by month".
func (q *query) readGroups() error {
	for _, sp := range q.spans {
		if sp.used {
			continue
		}
		switch {
		case sp.kind == spKw && sp.is(kwWise):
			sp.used = true
			pv := q.at(sp.idx - 1)
			if !groupLike(pv) || pv.used {
				return decline("%q needs what to group by before it", sp.text)
			}
			pv.used = true
			q.groups = append(q.groups, &groupReq{sp: pv})
		case sp.text == "per" && q.at(sp.idx-1) != nil && q.at(sp.idx-1).kind == spCmp && q.at(sp.idx+1) != nil && !q.at(sp.idx+1).used && perUnitOf(q.at(sp.idx+1).ms, q.at(sp.idx+1).text):
			// "more than 100 per night" beside price_per_night: its unit
			sp.used, q.at(sp.idx+1).used = true, true
		case sp.is(kwAcrossAll):
			// "average fee across all kiosks": every row the
			// figure is over, not a group (bindGroups checks it names them)
			sp.used, q.acrossAll = true, true
			if err := q.readGroupTargets(sp); err != nil {
				return err
			}
		case sp.is(kwGroup) && (sp.kind == spKw || !isNoun(sp)):
			sp.used = true
			if err := q.readGroupTargets(sp); err != nil {
				return err
			}
		}
	}
	return nil
}

// agentVerb: a verb whose "by" says who did it ("paid by", "written by"),
// not a grouping ("grouped by", "broken down by").
func agentVerb(w string) bool {
	return (participleLike(w) || agentParticiples[w]) && !groupingVerbs[w]
}

var agentParticiples = setOf("paid", "made", "sold", "bought", "taken", "given", "held", "run", "led", "won", "sent", "spent", "done", "kept", "owned")
var groupingVerbs = setOf("grouped", "broken", "split", "sorted", "ordered", "ranked", "listed", "arranged", "organised", "organized",
	"classified", "categorised", "categorized", "separated", "aggregated", "summarised", "summarized", "totalled", "totaled", "counted", "averaged")

// rowsSaid: "records", "rows" or "entries" ends the table's phrase or
// follows it ("download records"): its rows are meant.
func (q *query) rowsSaid(sp *span) bool {
	nx := q.at(sp.idx + 1)
	return nx != nil && rowWords[nx.text] || rowWords[finalWord(sp.text)]
}

// eventSpan is the table of a span "<T> <participle>" naming T's date of
// that event (see eventOfRows), or nil.
func eventSpan(sp *span) *table { return eventOfRows(&chunk{text: sp.text, ms: sp.ms}) }

func (q *query) readGroupTargets(by *span) error {
	if r := q.rank; r != nil && by.text != "by" {
		// "most expensive <thing> per <group>", "latest <event> for each
		// <owner>": the top rows within each group, not once overall
		what := "rows"
		if r.target != nil {
			what = r.target.text
		}
		per := by.text
		if nx := q.at(by.idx + 1); nx != nil {
			per += " " + nx.text
		}
		return decline("the %s %s %s (the top within each group) is not answered offline", r.sp.text, what, per).
			withHint("ask for one group you name, e.g. the %s %s in one of them", r.sp.text, what)
	}
	if pv, nx := q.at(by.idx-1), q.at(by.idx+1); by.text == "by" && pv != nil && agentVerb(pv.text) && nx != nil && !nx.is(kwGroup) && slices.ContainsFunc(nx.tables(), personLike) {
		// "the total paid by kiosks without a licence": who paid, not one
		// total per kiosk
		return decline("%q after %q says who did it, not a grouping", by.text, pv.text).
			withHint("say for each, to have one figure per group")
	}
	for i := by.idx + 1; ; {
		tg := q.at(i)
		switch {
		case tg == nil:
			return decline("%q is not followed by what to group by", by.text).withHint("e.g. by month")
		case tg.is(kwGrainNoun):
			q.groups = append(q.groups, &groupReq{sp: tg, grain: tg.kw.gr})
			tg.used = true
		case tg.is(kwCount) && q.rank != nil && q.rank.measure == nil:
			// "top customers by number of orders"
			ct := q.at(i + 1)
			if !isNoun(ct) || !ct.has(mTable) {
				return decline("%q: count of what?", tg.text)
			}
			q.rank.measure = &measureReq{count: ct}
			tg.used, ct.used = true, true
			return nil
		case tg.used && (tg.kind == spKw && tg.is(kwAgg)):
			return nil
		case tg.kind == spKw && tg.is(kwAgg) && q.rank != nil && q.rank.measure == nil:
			nx := q.at(i + 1)
			if !measureLike(nx) {
				return decline("%q: %s of what?", tg.text, tg.text)
			}
			q.rank.measure = &measureReq{sp: nx, fn: tg.kw.fn, fnSpan: tg}
			tg.used, nx.used = true, true
			return nil
		case isNoun(tg) && measureLike(tg) && (!groupLike(tg) || q.rank != nil && q.rank.measure == nil && q.rank.target != nil):
			if q.rank != nil && q.rank.measure == nil {
				if nx := q.at(tg.idx + 1); nx != nil && !nx.used && isNoun(nx) && measureLike(nx) && !nx.has(mTable) && !sameSpanColumns(tg, nx) {
					// "by crate takings": two measures' words, one phrase
					return decline("%q and %q are two figures: rank by which?", tg.text, nx.text).
						withHint("rank by one of them, e.g. by %s", nx.text)
				}
				q.rank.measure = &measureReq{sp: tg}
				tg.used = true
				return nil
			}
			return decline("%q is a number to compute, not something to group by", tg.text).
				withHint("to rank by it, ask e.g. top 10 ... by %s", tg.text)
		case isNoun(tg) && tg.has(mTable) && !measureLike(tg) && q.rank != nil && q.rank.measure == nil && q.rank.target != nil && !sameTables(tg, q.rank.target):
			// "top 5 customers by orders": by how many
			q.rank.measure = &measureReq{count: tg, byNoun: true}
			tg.used = true
			return nil
		case isNoun(tg) && groupLike(tg):
			q.groups = append(q.groups, &groupReq{sp: tg})
			tg.used = true
		case isName(tg) && !flagLike(tg) && by.text != "by" && !tg.has(mTable):
			// "how many crates has each packer filled" where packer is a
			// value of some column: one group per what?
			return decline("%q %s: %s is a value, not something to group by", by.text, tg.text, tg.text).
				withHint("name the column to group by")
		case isName(tg) && !flagLike(tg):
			// "albums by Kraftwerk Kids": made by, a filter
			return nil
		default:
			return decline("I don't know how to group by %q", tg.text).withHint("e.g. by month, or by a column the data has")
		}
		// "by region and category"
		if and := q.at(i + 1); and != nil && and.is(kwAnd) && groupLike(q.at(i+2)) && !measureLike(q.at(i+2)) {
			and.used = true
			i += 2
			continue
		}
		return nil
	}
}

// readMeasures reads counts ("how many orders"), aggregates ("total
// revenue", "average unit price") and bare measures ("revenue").
func (q *query) readMeasures() error {
	for _, sp := range q.spans {
		if sp.used {
			continue
		}
		switch {
		case sp.is(kwCount) && sp.text == "count" && isNoun(q.at(sp.idx-1)) && q.at(sp.idx-1).has(mTable) && !isNoun(q.at(sp.idx+1)):
			// "loan count by month"
			sp.used = true
			q.addMeasure(&measureReq{count: q.at(sp.idx - 1), fn: "COUNT", fnSpan: sp})
		case sp.is(kwCount):
			if err := q.readCount(sp); err != nil {
				return err
			}
		case sp.is(kwAgg):
			nx := q.nextMeasure(sp.idx + 1)
			switch {
			case nx != nil && measureLike(nx):
				q.addMeasure(&measureReq{sp: nx, fn: sp.kw.fn, fnSpan: sp})
				sp.used = true
			case nx != nil && nx.has(mTable) && sp.kw.fn == "SUM" && sp.kind == spKw:
				c := amountTable(nx)
				if c == nil {
					c = factQuantity(nx)
				}
				if c != nil {
					return decline("%q could mean the number of %s or their %s", sp.text+" "+nx.text, nx.text, c.phrase()).
						withHint("ask for the number of %s, or the total %s", nx.text, c.phrase())
				}
				// "total orders": a count of rows
				q.addMeasure(&measureReq{count: nx, fnSpan: sp})
				sp.used = true
			case sp.kind == spWord && measureLike(sp) && nx != nil && nx.has(mTable) && !measureLike(nx):
				// "total <table>" beside a column named Total: its sum, or
				// how many rows there are?
				return decline("%q could mean the number of %s or the sum of their %s", sp.text+" "+nx.text, nx.text, sp.text).
					withHint("ask for the number of %s, or the sum of the %s column", nx.text, sp.text)
			case sp.kind == spWord && measureLike(sp):
				// "Total" is also a column here: read it as that column
			case nx != nil && nx.idx == sp.idx+1 && sp.kw.fn == "AVG" && len(nx.tables()) == 1 && !measureLike(nx) && onlyMeasure(nx.tables()[0]) != nil &&
				(q.at(nx.idx+1) == nil || q.at(nx.idx+1).kind != spWord):
				// "average rating" of ratings holding one number: its average
				c := onlyMeasure(nx.tables()[0])
				m := *nx
				m.ms = []*meaning{{kind: mColumn, t: c.t, c: c, strength: strengthWord}}
				q.spans[nx.idx] = &m
				nx.used = true
				q.addMeasure(&measureReq{sp: &m, fn: sp.kw.fn, fnSpan: sp})
				sp.used = true
			case sp.kind == spKw:
				return decline("%q of what? I found no measure after it", sp.text).
					withHint("e.g. %s revenue", sp.text)
			}
		}
	}
	for _, sp := range q.spans {
		if sp.used || !measureLike(sp) {
			continue
		}
		if sp.afterHave || q.at(sp.idx-1).is(kwNoneOf) {
			continue // "products with no weight": a filled-in filter, see readSubjects
		}
		if sp.has(mTable) && q.listVerb && len(q.measures) == 0 && q.rank == nil {
			continue // "list sales": the table
		}
		if sp.has(mTable) && q.rank != nil && q.rank.recency {
			continue
		}
		q.addMeasure(&measureReq{sp: sp})
	}
	for _, sp := range q.spans {
		if !sp.used && (sp.is(kwSell) || sp.is(kwSpend)) {
			for _, mr := range q.measures {
				if mr.count != nil && !mr.distinct {
					return decline("%q with %q could mean the units sold or how many different %s were sold", mr.count.text, sp.text, mr.count.text).
						withHint("ask for the units sold, or the number of different %s with sales", mr.count.text)
				}
			}
			sp.used = true
			if len(q.measures) == 0 && (q.rank == nil || q.rank.measure != nil) && len(q.cmps) == 0 {
				q.measures = append(q.measures, &measureReq{hint: sp.kw.kw})
			}
		}
	}
	return nil
}

// nextMeasure is the next unused word span from i, skipping names.
func (q *query) nextMeasure(i int) *span {
	for ; i < len(q.spans); i++ {
		sp := q.spans[i]
		if sp.used {
			continue
		}
		if sp.kind == spWord {
			return sp
		}
		return nil
	}
	return nil
}

func (q *query) addMeasure(m *measureReq) {
	if m.sp != nil && m.fnSpan == nil && m.count == nil {
		for _, x := range q.measures {
			// "the crate takings": two figures' words in one phrase, no
			// "and" between — one figure, not both
			if x.sp != nil && x.fnSpan == nil && x.sp.idx == m.sp.idx-1 && !sameSpanColumns(x.sp, m.sp) && !x.sp.has(mTable) && !m.sp.has(mTable) {
				q.compound = append(q.compound, x.sp, m.sp)
			}
		}
	}
	if m.sp != nil {
		m.sp.used = true
	}
	if m.count != nil {
		m.count.used = true
	}
	q.measures = append(q.measures, m)
	// "total revenue and quantity": the second measure shares the function
	last := m.sp
	if last == nil {
		last = m.count
	}
	if last == nil {
		return
	}
	if and := q.at(last.idx + 1); and != nil && !and.used && and.is(kwAnd) {
		nx := q.at(last.idx + 2)
		if nx != nil && !nx.used && measureLike(nx) && !groupLikeTable(nx) {
			and.used = true
			q.addMeasure(&measureReq{sp: nx, fn: m.fn, fnSpan: m.fnSpan})
		}
	}
}

// lastVerb: the span at i is one word in "-ed" with no table named after
// it ("how many X have been prescribed"), a verb rather than a noun; not
// "the cancelled sailings".
func (q *query) lastVerb(i int) bool {
	sp := q.spans[i]
	if strings.Contains(sp.text, " ") || len(sp.text) <= 4 || !strings.HasSuffix(sp.text, "ed") {
		return false
	}
	for _, x := range q.spans[i+1:] {
		if isNoun(x) && x.has(mTable) {
			return false
		}
	}
	return true
}

func (q *query) readCount(sp *span) error {
	sp.used = true
	for i := sp.idx + 1; i < len(q.spans); i++ {
		nx := q.spans[i]
		switch {
		case nx.kind == spKw && nx.is(kwSell) && !nx.used:
			// "how many units": the quantity sold
			nx.used = true
			q.measures = append(q.measures, &measureReq{hint: kwSell, fnSpan: sp})
			return nil
		case nx.used || isName(nx) && (!isNoun(nx) || flagLike(nx)) || nx.is(kwNeg) || nx.kind == spTime:
			continue
		case nx.is(kwDistinct):
			nx.used = true
			continue
		case !isNoun(nx) || q.lastVerb(i):
			// "how many X have been prescribed": a verb, not the rows counted
			return decline("%q: count of what?", sp.text).withHint("e.g. how many orders")
		case nx.has(mTable) && rowsQuantity(factQuantity(nx), nx.tables(), q.rowsSaid(nx)) != nil:
			c := rowsQuantity(factQuantity(nx), nx.tables(), q.rowsSaid(nx))
			return decline("%q could mean the number of %s rows or the total of %s", sp.text+" "+nx.text, nx.text, c.ref()).
				withHint("ask for the number of %s, or the total %s", nx.text, c.phrase())
		case nx.has(mTable):
			q.addMeasure(&measureReq{count: nx, fn: "COUNT", fnSpan: sp})
		case labelsNextTable(q, nx):
			// "how many Master rank players": the column word labels the value
			// before it; the table after it is what is counted
			continue
		case measureLike(nx) && !groupLike(nx):
			// "how many units": a quantity is summed
			q.addMeasure(&measureReq{sp: nx, fnSpan: sp})
		case eventSpan(nx) != nil:
			// "the number of episodes aired": the rows, not their dates
			nx.ms = append(nx.ms, &meaning{kind: mTable, t: eventSpan(nx)})
			q.addMeasure(&measureReq{count: nx, fn: "COUNT", fnSpan: sp})
		default:
			q.addMeasure(&measureReq{count: nx, fn: "COUNT", fnSpan: sp, distinct: true})
		}
		return nil
	}
	for _, x := range q.spans {
		if !x.used && x.is(kwSell) {
			// "how many Riesling 2019 have we sold": the quantity sold
			x.used = true
			q.measures = append(q.measures, &measureReq{hint: kwSell, fnSpan: sp})
			return nil
		}
	}
	return decline("%q: count of what?", sp.text).withHint("e.g. how many orders")
}

// labelsNextTable reports whether nx, a column word, sits between a value it
// names and a table noun ("Gold tier guests", "premium segment customers"):
// then the count is of the table's rows, filtered by the value.
func labelsNextTable(q *query, nx *span) bool {
	prev, next := q.at(nx.idx-1), q.at(nx.idx+1)
	return !nx.has(mTable) && prev != nil && isName(prev) && next != nil && !next.used && isNoun(next) &&
		next.has(mTable)
}

// readFilters reads named rows and values, their negation and the noun
// that labels them.
func (q *query) readFilters() error {
	neg := false
	var negSp *span // marked used only once a value takes the negation
	var cur *filterReq
	for _, sp := range q.spans {
		switch {
		case sp.is(kwNeg) && !sp.used:
			neg, negSp = true, sp
			cur = nil
		case isName(sp) && !sp.used:
			sp.used = true
			if cur != nil && q.compare && cur.sps[len(cur.sps)-1].idx == sp.idx-1 {
				// "compare supersonic with the drone"
				cur.sps = append(cur.sps, sp)
				continue
			}
			if cur != nil && sp.idx >= 2 && (q.at(sp.idx-1).is(kwAnd) || q.at(sp.idx-1).is(kwOr) || q.at(sp.idx-1).is(kwCompare)) && cur.sps[len(cur.sps)-1].idx == sp.idx-2 {
				cur.sps = append(cur.sps, sp)
				if q.at(sp.idx - 1).is(kwOr) {
					cur.or = true
				}
				q.at(sp.idx - 1).used = true
				continue
			}
			if neg && negSp.text == "without" && sp.has(mColumn) && (sp.has(mValue) || sp.has(mEntity)) && !flagLike(sp) {
				// "crates without a recorded sender": no sender at all, or
				// one whose role is not the value "sender"?
				return decline("%q %s could mean rows with no %s or rows whose value is not %q", negSp.text, sp.text, sp.text, sp.text).
					withHint("ask e.g. which rows have no %s", sp.text)
			}
			cur = &filterReq{sps: []*span{sp}, neg: neg}
			if neg {
				negSp.used = true
			}
			q.filters = append(q.filters, cur)
		case sp.kind == spWord && sp.used || sp.kind == spTime || sp.is(kwAnd) || sp.is(kwOr) || sp.is(kwCompare):
		default:
			neg = false
		}
	}
	for _, f := range q.filters {
		q.labelFilter(f)
	}
	return nil
}

// labelFilter attaches an adjacent unused noun that names the filter's
// column or table: "north region", "region north", "customers in the
// north", "small business customers".
func (q *query) labelFilter(f *filterReq) {
	first, last := f.sps[0], f.sps[len(f.sps)-1]
	for _, nb := range []*span{q.at(last.idx + 1), q.at(first.idx - 1)} {
		if nb == nil || nb.used || nb.kind != spWord || measureLike(nb) && !nb.has(mTable) {
			continue
		}
		if labels(nb, first) {
			// a table noun stays the subject too ("list products in audio")
			f.label, nb.used = nb, !nb.has(mTable)
			return
		}
	}
}

// labels reports whether noun names the column or table of a name span.
func labels(noun, name *span) bool {
	for _, nm := range name.ms {
		for _, m := range noun.ms {
			switch {
			case m.kind == mTable && m.t == nm.t:
				return true
			case m.kind == mColumn && nm.kind == mValue && m.c == nm.c:
				return true
			case m.kind == mColumn && nm.kind == mEntity && m.t == nm.t && (m.c.kind == catalog.KindLabel || m.c == nm.e.set.key):
				return true
			}
		}
	}
	return false
}

// readSubjects keeps the table phrases left (what the question is about)
// and the column phrases to show.
func (q *query) readSubjects() error {
	for _, sp := range q.spans {
		if sp.used || sp.kind != spWord {
			continue
		}
		switch {
		case sp.has(mTable):
			q.subjects = append(q.subjects, sp)
			sp.used = true
		case sp.has(mColumn) && q.rng != nil && dateOnly(sp) && q.dateCol == nil:
			q.dateCol, sp.used = sp, true
			if pv := q.at(sp.idx - 1); pv != nil && (pv.is(kwAnd) || pv.text == "and") && len(q.columns) > 0 {
				// "the name and start date of riggers taken on in 2014": listed
				// among the columns asked for, shown as well
				q.columns = append(q.columns, sp)
			}
		case sp.has(mColumn) && (sp.afterHave || q.at(sp.idx-1).is(kwNeg) && q.at(sp.idx-1).text == "without" || q.at(sp.idx-1).is(kwNoneOf)):
			// "customers with an email", "how many customers have no phone"
			neg := q.at(sp.idx-1).is(kwNeg) || q.at(sp.idx-1).is(kwNoneOf)
			if neg {
				q.at(sp.idx - 1).used = true
			}
			q.filters = append(q.filters, &filterReq{has: sp, neg: neg, zero: neg && q.at(sp.idx-1).text == "zero"})
			if len(q.columns) > 0 && q.columns[len(q.columns)-1] == sp {
				q.columns = q.columns[:len(q.columns)-1]
			}
			sp.used = true
		case sp.has(mColumn):
			q.columns = append(q.columns, sp)
			sp.used = true
		case sp.has(mAgg):
			return decline("%q: %s of what?", sp.text, sp.text)
		}
	}
	return nil
}

// noneOfColumn: "no <column>" asks for an empty column, not for rows
// that do not exist ("no orders").
func noneOfColumn(sp *span) bool {
	return sp != nil && sp.kind == spWord && sp.has(mColumn) && !sp.has(mTable) && !sp.has(mValue) && !sp.has(mEntity)
}

func dateOnly(sp *span) bool {
	for _, m := range sp.ms {
		if m.kind != mColumn || m.c.kind != catalog.KindDate {
			return false
		}
	}
	return true
}

// readLeftovers declines when a number or a keyword found no role.
func (q *query) readLeftovers() error {
	for _, sp := range q.spans {
		if sp.used {
			continue
		}
		switch {
		case sp.kind == spNum:
			return decline("I don't know what the number %s refers to", sp.text).
				withHint("e.g. top %s products by revenue, or more than %s", sp.text, sp.text)
		case sp.kind == spKw:
			switch sp.kw.kw {
			case kwAnd, kwOr, kwWhich, kwList, kwCompare, kwHowMuch, kwDistinct:
				continue
			case kwGrainNoun:
				return decline("%q needs by or per (e.g. by %s)", sp.text, sp.text)
			case kwLast, kwFirst:
				return decline("%q of what? name what to list", sp.text).withHint("e.g. the last 10 orders")
			case kwNeg:
				return decline("%q: I don't know what to exclude", sp.text).withHint("e.g. excluding a value the data has")
			case kwRank:
				return decline("%q: ranked by what?", sp.text).withHint("e.g. top 5 products by revenue")
			case kwGroup:
				continue
			}
			return decline("I don't know what %q refers to here", sp.text)
		}
	}
	return nil
}

// sameSpanColumns: the two spans name the same columns ("by rent, with
// the rent").
func sameSpanColumns(a, b *span) bool {
	ca, cb := a.meanings(mColumn), b.meanings(mColumn)
	if len(ca) == 0 || len(ca) != len(cb) {
		return false
	}
	for i := range ca {
		if ca[i].c != cb[i].c {
			return false
		}
	}
	return true
}
