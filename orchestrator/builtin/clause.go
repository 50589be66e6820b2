package builtin

import (
	"fmt"
	"slices"
	"strings"
	"talk2tables/catalog"
	"time"

	"talk2tables/orchestrator/sqlgen"
)

// The clause reader reads a question that says explicitly what to show
// and how: the columns or aggregates to select, the rows they are of, the
// conditions, the grouping, the order and how many — the way people write
// questions about a schema they are looking at ("the name and age of
// rows of T above age 20, ordered by age"). It complements the analyst
// reading (measures, time windows, rankings by a business measure): a
// question is answered by whichever reading accounts for every one of its
// words, and declined — naming the words — when neither does.
//
// Steps: chunk (phrases, names, numbers, literals, dates, clause words),
// parse (the clauses below, each step consuming the chunks it uses), bind
// (tables and columns, the join tree, the plan) and render (shared).

// cagg is an aggregate the question asks for.
type cagg struct {
	fn       string // COUNT, SUM, AVG, MIN, MAX
	distinct bool
	arg      *chunk // the column aggregated; nil: COUNT(*) of rows
	rows     *chunk // the table whose rows are counted (COUNT(*))
	// linked: the rows counted are those of the one table linking to the
	// ranked rows ("which T was observed the most")
	linked bool
	// unit: the column aggregated is the one holding this unit ("how
	// many kilograms")
	unit string
	// said: the unit word as typed ("hours"), to scale a column held in
	// another unit of the same kind (minutes)
	said string
}

// citem is one selected thing: a column, an aggregate, or every column.
type citem struct {
	pos  int // where in the question (items are shown in question order)
	col  *chunk
	agg  *cagg
	star bool
	t    *chunk  // star: the table ("all information about the T rows")
	key  bool    // the subject's key ("their id")
	when bool    // the date of the rows, or of the event a verb names ("when were they born")
	date *column // when: the date column a word after "when" names ("when was X hired")
	year bool    // when: "in what year" — a year column, never a whole date
	// event: when, the forms of a plain verb naming the event dated ("when
	// did the kiosk open": open, opened, opening)
	event []string
}

// ccondKind is the kind of a condition.
type ccondKind int

const (
	ccValue  ccondKind = iota + 1 // column = value(s), or <> when neg
	ccCmp                         // column op number (or between)
	ccCol                         // column op column
	ccLike                        // column LIKE pattern
	ccFlag                        // a yes/no column is true (false when neg)
	ccRange                       // a date range on a date column
	ccExists                      // rows of a related table exist (not, when neg)
	ccCount                       // the number of related rows compared with a number
	ccAvg                         // column op (SELECT AGG(column) FROM its table)
	ccNull                        // column is empty (not empty when neg)
)

// ccond is one condition, and the alternatives OR'd with it.
type ccond struct {
	kind ccondKind
	col  *chunk   // the column; nil when implied (by a value, a unit, the subject's date)
	unit string   // the quantity an adjective speaks of (older → age)
	of   *chunk   // the table right before the comparator whose unit is meant ("trains longer than 200 metres")
	vals []*chunk // ccValue: values, literals, numbers
	op   string
	a, b float64
	neg  bool
	// negRows: the negation is over the rows having it ("never had a
	// refund", "no late delivery"), not over the value of one row
	negRows bool
	other   *chunk  // ccCol: the other column
	rows    *chunk  // ccExists, ccCount: the related table
	via     *column // ccExists: the key a verb names as the link ("rigged" of a rigger key)
	inner   []*ccond
	rng     *dateRange
	fn      string // ccAvg; ccCmp: the aggregate compared per group ("whose average age")
	pat     string // ccLike
	lit     string // ccValue with a literal not in the schema's values
	or      []*ccond
	src     *chunk // the chunk that made the condition (for messages)
	// andList: values joined by "and" on a column holding one value per row
	andList bool
	merged  bool // OR'd into the condition before it
	// linked: ccCount of the rows of the one table linking to the subject
	// ("visited at least twice")
	linked bool
	key    bool // ccValue: the number is the key of the rows named ("order 7")
	yearOf bool // ccRange: "the 2019 festival", the rows of that year
	// quantity: ccCmp whose column is named after the number ("over 40
	// crates"): an amount, which on rows of another table could be each
	// row's or their total
	quantity bool
}

// corder is one ORDER BY term.
type corder struct {
	col  *chunk
	agg  *cagg
	dir  int    // 1 descending, -1 ascending
	unit string // ordered by the column the unit implies (oldest → age)
	of   *chunk // unit or alpha ordering: of this table's rows
	verb bool   // ranked by the date a verb of the question names ("born earliest")
	// colDirect: ranked by this column, which a verb names ("weighs the least")
	colDirect *column
}

// cquery is a question parsed into clauses.
type cquery struct {
	cs       chunkList
	which    *chunk // which/what/who + this table: show its name
	whichCol *chunk // which/what + this column: its kinds (DISTINCT)
	perRow   *chunk // "each store": every row of this table, shown with its name
	timesOf  *chunk // "how many times were T ...": the rows linking to T are counted
	distinct bool
	items    []*citem
	subject  *chunk
	conds    []*ccond
	groups   []*chunk
	order    []*corder
	limit    int
	offset   int // "the second largest": rows skipped before the limit
	// limitSaid: a number says how many ranked rows ("the 3 largest")
	limitSaid bool
	// percent: the count asked is of the rows meeting the condition, per
	// 100 rows ("what percentage of T are ...")
	percent *chunk
	// ranked: the order is a superlative of this table's rows ("the
	// youngest T"), LIMIT 1 unless a number says
	ranked *chunk
	rankBy *corder
}

// creader parses one question.
type creader struct {
	m     *model
	cs    chunkList
	q     *cquery
	today time.Time
}

// clauseAnswer answers the question with the clause reader: a plan, or
// the reason it declines. final reports a decline no other reading may
// overrule: every word was understood and their combination is not
// answerable (a column shown beside an aggregate, a value several tables
// hold, two tables listed at once); otherwise another reading may try.
func (m *model) clauseAnswer(question string, today time.Time, dialect string) (plan sqlgen.Plan, final bool, err error) {
	toks := clauseTokenize(question)
	if len(toks) == 0 {
		return sqlgen.Plan{}, false, decline("the question is empty")
	}
	if len(toks) > maxTokens {
		return sqlgen.Plan{}, false, decline("the question is too long for the offline generator (%d words, at most %d)", len(toks), maxTokens)
	}
	if re := m.unabbreviated(toks); re != nil {
		toks = re // "riggers" where the table is rggr
	}
	if re := m.unPrefixed(toks); re != nil {
		toks = re // "unstowed" beside a stowed yes/no: not stowed
	}
	cs := imperativeName(m.chunks(toks, today))
	if re := percentOfAll(toks, cs); re != nil {
		toks, cs = re, imperativeName(m.chunks(re, today))
	}
	r := &creader{m: m, cs: cs, today: today}
	r.q = &cquery{cs: r.cs}
	if p, ok, err := r.selfAnswer(dialect); ok || err != nil {
		// "who is the mentor of X": rows of one table linked to each other
		return p, ok, err
	}
	if err := bothWays(toks); err != nil {
		return sqlgen.Plan{}, true, err
	}
	if err := whereAsked(toks); err != nil {
		return sqlgen.Plan{}, false, err
	}
	if err := r.parse(); err != nil {
		return sqlgen.Plan{}, isFinal(err), err
	}
	if err := r.leftovers(nil); err != nil {
		return sqlgen.Plan{}, false, err
	}
	b := newClauseBinder(m, r.q, today)
	p, err := b.plan()
	if err != nil {
		return sqlgen.Plan{}, isFinal(err), err
	}
	if err := r.leftovers(b); err != nil {
		return sqlgen.Plan{}, false, err
	}
	if err := r.answersEveryWord(b, p, toks); err != nil {
		return sqlgen.Plan{}, isFinal(err), err
	}
	dropNullGroups(p)
	sql, _, err := render(p, dialect)
	if err != nil {
		return sqlgen.Plan{}, false, err
	}
	return sqlgen.Plan{
		SQL:              sql,
		ResolvedEntities: b.resolved,
		Explanation:      b.explain(p),
		Confidence:       b.confidence(),
		Assumptions:      append(b.assume, r.readAs()),
		Generator:        Name,
	}, true, nil
}

// answersEveryWord checks the bound plan against the question: each table,
// verb, "which", "who" and "in total" the question says must reach the
// answer, else the question is declined.
func (r *creader) answersEveryWord(b *clauseBinder, p *plan, toks []token) error {
	if err := showsOnlyFilter(p); err != nil {
		return err
	}
	if err := readingChecks(toks, p); err != nil {
		return err
	}
	if p.distinct && slices.ContainsFunc(p.where, func(c *cond) bool { return c.kind == cSemi && c.neg }) && slices.ContainsFunc(p.sels, func(s selItem) bool { return s.e.kind == eCol && kindColumn(s.e.col) }) {
		// "which shades have never had a sale" over the shade column of
		// kiosks: no kiosk of the shade had one, or some kiosk had none?
		return decline("the values of a column with no related rows: per value or per row is not answered offline").
			withHint("ask about the rows themselves, e.g. which T have never had a U")
	}
	if p.limit > 0 && len(p.groupBy) > 0 && slices.ContainsFunc(r.cs, func(c *chunk) bool { return c.role == "group" && (c.text == "each" || c.text == "every") }) {
		// "each kiosk's lowest fee": one per kiosk, not the one kiosk
		// ranked lowest
		return decline("%q asks for one figure per group, and the ranking keeps only the top one", "each").
			withHint("ask for the minimum or maximum for each, e.g. the lowest C for each T")
	}
	timesListed(p, toks)
	if c := kindsListed(p, r); c != nil {
		// "what are the colours of the kiosks": each kiosk's colour, or
		// the different colours there are?
		return decline("%q: each row's %s, or the different %s there are?", c.text, c.text, c.text).
			withHint("say the different %s, or each row's %s with its name", c.text, catalog.Singular(c.text))
	}
	if c := countedSelfCount(p, toks); c != nil {
		// "the most downloads" over rows that each hold a number of
		// downloads: the rows, or that number added up?
		return decline("%q could mean the number of %s rows or the total of %s", c.t.name, c.t.name, c.ref()).
			withHint("ask for the number of rows, or the total %s", c.name)
	}
	if k := b.kindsOf(p); k != nil {
		return decline("%q could be the rows of %s or the kinds of %s they list", b.q.subject.text, p.root.name, k.name).
			withHint("ask about %s by its own name, or say which %s rows", k.name, p.root.name)
	}
	if s := r.q.subject; s != nil && s.isTable() && b.subject != nil {
		// "how many garden plots" (a garden table, a plot table): not the gardens alone
		if t, err := b.tableOf(s); err == nil && t != b.subject && !planUses(p, t) {
			return decline("I did not see how %s enters the answer", t.name)
		}
	}
	for _, c := range r.cs {
		if c.role == "" || c.kind != ckWord || !c.is(cwLink) || strings.HasPrefix(c.role, linkRole) {
			continue
		}
		if t := r.m.verbTable(c.text); t != nil && !planUses(p, t) {
			// "riders who have not serviced any bike": through the
			// services, not the bikes' own rider key
			return decline("%q names %s, and I did not see how it enters the answer", c.text, t.name)
		}
	}
	if err := onePerRowCount(p); err != nil {
		return err
	}
	if v := b.sharedOne; v != nil && p.kind == pAggregate {
		return sharedFigure(v.orig)
	}
	if err := sumOverReferrers(p); err != nil {
		return err
	}
	if err := r.possessiveReach(b); err != nil {
		return err
	}
	if w := r.whichValue(); w != nil && p.kind == pList {
		// "which seniors booked the court": the rows the value names
		// (people of that kind), not the bookings
		var vt []*table
		for _, m := range w.ms {
			if m.kind == mValue && m.c.kind != catalog.KindLabel {
				// a kind of row (an attribute's value), not a named row
				// of a codes table the rows refer to
				vt = appendUnique(vt, m.t)
			}
		}
		if len(vt) > 0 && !slices.Contains(vt, p.root) && !slices.ContainsFunc(vt, func(t *table) bool { return showsRows(p, t) }) {
			return decline("%q asks for rows of %s, and the answer would show rows of %s", w.text, tableNames(vt), p.root.name)
		}
	}
	if w := r.q.which; w != nil && p.kind == pList && !r.namesColumnsShown() {
		// "which tenants signed a lease in May": the tenants, not the dates
		if t, err := b.tableOf(w); err == nil && t == p.root && !showsRows(p, t) {
			label := b.labelCols(t)
			if len(label) == 0 || len(p.groupBy) > 0 || p.distinct || !r.laterAsk() || slices.ContainsFunc(p.sels, flagSel) {
				return decline("%q asks for rows of %s, and I found nothing naming them to show", w.text, t.name)
			}
			// "which kiosk stands on the pier, and since when?": the kiosk's
			// name, then what else was asked of it
			p.sels = append(b.rowSels(t, label), p.sels...)
			b.resolve(w.text, "columns", colNames(label))
		}
	}
	if t := b.subject; t != nil && !planUses(p, t) {
		// "what grades did S get, and in which courses?": the rows asked
		// about never reach the answer
		return decline("I did not see how %s enters the answer", t.name)
	}
	if (toks[0].w == "who" || toks[0].w == "whom") && !showsAName(p, r.askedByLaterWh()) {
		// "who inspected order 7": a person's name, not the order's row;
		// "who scored the best mark": not the mark alone
		return decline("\"who\" asks for a person, and I found no one's name to show")
	}
	if (toks[0].w == "who" || toks[0].w == "whom") && len(toks) > 1 && !copulas[toks[1].w] && p.kind == pList && namesOwnRow(p) {
		// "who restored the organ X": a person linked to X, not X's row
		return decline("\"who\" asks for a person, and the answer would be the row the question names")
	}
	if p.kind == pList && len(p.sels) > 0 && !namesOwnRow(p) && !slices.ContainsFunc(p.sels, func(s selItem) bool { return !flagSel(s) }) {
		// "the shaded kiosks", "which masts have logged frost": a yes/no
		// column shown alone, for rows nothing names, is a condition the
		// reading missed
		return decline("%s is a yes/no column: shown alone it answers nothing; it may be a condition", p.sels[0].e.col.ref()).
			withHint("ask e.g. which rows have %s", p.sels[0].e.col.phrase())
	}
	if c := flagCompared(p.where); c != nil {
		// "masts with over forty icings" against a 0/1 icing column
		return decline("%s holds yes or no, and is compared with a number", c.ref()).
			withHint("ask how many rows have %s, per row you want counted", c.phrase())
	}
	if c := valuesListSplit(p.where); c != nil {
		// "other than A, B or C" read as "<> A AND = B AND IN (C)": a list
		// of values split into conditions that cannot all hold
		return decline("several values of %s were read as separate conditions", c.ref()).
			withHint("ask for one value, or say \"one of A, B or C\"")
	}
	if p.kind == pList && p.limit > 0 && len(p.order) > 0 && len(p.groupBy) == 0 && keyPinned(p) {
		// "when was kiosk 4 last serviced": the ranking is over events of
		// the row, which its own columns do not hold
		return decline("the question ranks several %s rows, and names one", p.root.name).
			withHint("ask about the rows that record those events")
	}
	if err := scaleUnits(toks, append(slices.Clone(p.where), p.having...)); err != nil {
		// "shorter than three minutes" against a duration in seconds: 180
		return err
	}
	if c, n := implausibleYear(p.where); c != nil {
		// "cadets in year 9" beside an instructor's enlist_yr: not a year
		return decline("%s holds years, and %s is not one", c.e.col.ref(), trimFloat(n)).
			withHint("name the column the number belongs to")
	}
	if saysInTotal(toks) && p.kind != pAggregate {
		return decline("\"in total\" asks for a sum or a count, and I read none")
	}
	if q := countsInTotal(toks, p, b.tables); q != nil {
		// "ordered more than 30 books in total" where each line has a quantity
		return decline("\"in total\" could mean the number of rows or the total of %s", q.ref()).
			withHint("ask for the number of rows, or the total %s", q.phrase())
	}
	return nil
}

// parse runs the clause steps in order; each consumes the chunks it uses.
func (r *creader) parse() error {
	for _, step := range []func() error{
		r.readUnsupported, r.readUnits, r.readLead, r.readEverything, r.readOrder, r.readSuperlatives, r.readComparisons,
		r.readAggregates, r.readGroups, r.readNamed, r.readTableNames, r.readLike, r.readRoleVerbs, r.readExists, r.readValues, r.readTime,
		r.readWhen, r.readSelect, r.readWithSubject, r.readOr, r.sortItems,
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// readUnits reads "in <unit>" right after a column whose name ends with
// that unit ("the height in metres" beside height_metres): said of the column,
// not another one to show.
func (r *creader) readUnits() error {
	for i, c := range r.cs {
		u, pv := r.at(i+1), r.at(i-1)
		if !free(c) || c.kind != ckWord || c.text != "in" || !free(u) || u.j-u.i != 1 || pv == nil || !pv.isColumn() {
			continue
		}
		ws := strings.Fields(u.text)
		if !unitNames[ws[0]] && !unitWords[ws[0]] || len(u.columns()) == 0 {
			continue
		}
		if !slices.ContainsFunc(pv.columns(), func(col *column) bool { return slices.Contains(u.columns(), col) }) {
			continue
		}
		r.use(c, "unit")
		r.use(u, "unit of %s", pv.text)
	}
	return nil
}

// readWhen reads "when" opening the question or a second one ("..., and
// when were they born?"): the date asked is the date column named after it
// ("when was the first order shipped" on a shipped column), else the date
// the verb names, else the rows' own date (the binder picks).
func (r *creader) readWhen() error {
	for i, c := range r.cs {
		if !free(c) || !c.is(cwWhen) || c.kind != ckWord {
			continue
		}
		if pv := r.at(i - 1); i > 0 && !(pv.is(cwAnd) || pv.kind == ckWord && pv.text == "and") {
			return notMine("%q inside the question: a condition I do not read", c.text)
		} else if i > 0 && free(pv) && r.q.which != nil && r.q.which.isTable() && r.q.perRow == nil {
			// "which T ..., and when were they founded?": each T beside its date
			r.use(pv, "shown beside the rows asked about")
			r.q.perRow = r.q.which
		} else if i > 0 && free(pv) && r.q.which == nil && r.q.ranked != nil && r.q.ranked.isTable() && r.q.perRow == nil {
			// "what was the first T, and when was it?": that T beside its date
			r.use(pv, "shown beside the rows asked about")
			r.q.perRow = r.q.ranked
		}
		r.use(c, "the date asked")
		for k := r.next(i + 1); k < len(r.cs); k = r.next(k + 1) {
			x := r.at(k)
			if !(free(x) || x.role == "ranked by") || !x.isColumn() || x.isTable() {
				continue // "when did the kiosk's last crate start": ranked by the start, and it asked
			}
			var dates []*column
			for _, col := range x.columns() {
				if col.dateType || col.kind == catalog.KindDate || yearColumn(col) {
					dates = append(dates, col)
				}
			}
			if len(dates) == 1 {
				if c.info.unit == "year" && !yearColumn(dates[0]) {
					return notMine("%q asks for a year, and %s holds whole dates", c.text, dates[0].ref())
				}
				// "when was the order shipped", "when was X accepted" (accepted_on)
				r.use(x, "the date shown")
				r.q.items = append(r.q.items, &citem{when: true, date: dates[0], pos: k})
				return nil
			}
		}
		if r.at(r.next(i+1)) == nil && c.info.unit != "year" {
			if col := r.eventBefore(i); col != nil {
				// "which crates have been shipped, and when?": the date
				// the verb before names
				r.q.items = append(r.q.items, &citem{when: true, date: col, pos: i})
				return nil
			}
		}
		it := &citem{when: true, year: c.info.unit == "year", pos: i}
		r.q.items = append(r.q.items, it)
		for k := r.next(i + 1); k < len(r.cs); k = r.next(k + 1) {
			if x := r.at(k); free(x) && x.kind == ckWord && (x.is(cwLink) || dateVerbs[x.text] != nil) {
				r.use(x, "the event dated")
				break
			} else if free(x) && x.kind == ckWord && x.info.cw == cwNone && r.m.datesNamed(eventForms(x.text)) {
				// "when did the kiosk open": a verb no table links by, whose
				// participle names a date or year column (an open year)
				r.use(x, "the event dated")
				it.event = eventForms(x.text)
				break
			}
		}
	}
	return nil
}

// eventBefore is the date column of the one event verb before i that
// names one ("have been shipped" beside shipped_on), or nil.
func (r *creader) eventBefore(i int) *column {
	var found *column
	for k := 0; k < i; k++ {
		if r.at(k).isColumn() {
			if col := r.eventDate(k); col != nil {
				if found != nil {
					return nil
				}
				found = col
			}
		}
	}
	return found
}

// readWithSubject reads "the T (conditions) with their C", "T and the C of
// their U": the rows asked about are shown with the columns that follow —
// each row named beside its C, not the C alone.
func (r *creader) readWithSubject() error {
	s := r.q.subject
	ranked := false
	if s == nil {
		// "what is the heaviest parcel, and where does it go?"
		for _, c := range r.cs {
			if c.role == "the rows ranked" {
				s, ranked = c, true
			}
		}
	}
	if s == nil {
		// "list the cats ..., with their weights": the rows a plural value names
		for _, c := range r.cs {
			if strings.HasPrefix(c.role, "value") && pluralValue(c) {
				s = c
				break
			}
		}
	}
	if s == nil || r.q.perRow != nil || !r.q.shownColumns() {
		return nil
	}
	k := r.cs.index(s) + 1
	for ; k < len(r.cs); k++ {
		c := r.at(k)
		if c.role == "" && !(c.kind == ckTime || c.is(cwLink) || c.kind == ckWord && (c.info.cw == cwFiller && relationPreps[c.text] && c.text != "with" || eventless[c.text] || articles[c.text] || relativeWords[c.text])) || strings.HasPrefix(c.role, "shown") || fillerWith(c) {
			break
		}
	}
	c := r.at(k)
	if !free(c) && !fillerWith(c) || c.kind != ckWord || !(c.is(cwAnd) || c.is(cwHave) && c.text == "with") {
		return nil
	}
	j := k + 1
	var asked []*chunk // ", and in what year?": a second question about the rows
	for j < len(r.cs) && (r.soft(j) && r.at(j).text != "a" && r.at(j).text != "an" || ranked && itsQuestion(r.at(j))) {
		j++
	}
	for c.is(cwAnd) && j < len(r.cs) && free(r.at(j)) && r.at(j).kind == ckWord && (whWords[r.at(j).text] || (r.at(j).text == "in" || r.at(j).text == "on" || r.at(j).text == "at") && len(asked) == 0 ||
		len(asked) > 0 && whWords[asked[0].text] && copulaOrTheir[r.at(j).text]) {
		asked = append(asked, r.at(j))
		j++
	}
	if len(asked) > 0 && !slices.ContainsFunc(asked, func(x *chunk) bool { return whWords[x.text] }) {
		return nil // "and in <table>": a place, not a question
	}
	if j == k+1 && !strings.Contains(c.text, " ") && !((c.is(cwAnd) || c.text == "with" && j == len(r.cs)-1) && r.at(j) != nil && strings.HasPrefix(r.at(j).role, "shown") && r.at(j).isColumnOf(s)) {
		return nil // "with a C" is a condition, "T and U" two tables; "T and C" of T's own shows both
	}
	if nx := r.at(j); nx == nil || !strings.HasPrefix(nx.role, "shown") && !(c.is(cwAnd) && nx.role == "the date asked") {
		return nil
	}
	for _, x := range asked {
		r.use(x, "asked of the same rows")
	}
	r.use(c, "shown beside the rows asked about")
	r.q.perRow = s
	return nil
}

// relativeWords open or carry a relative clause on the rows before them
// ("the kiosks whose rent is over 90, with their rent").
var relativeWords = setOf("whose", "that", "which", "who", "is", "are", "was", "were")

// fillerWith: a "with" read as carrying no meaning, which may still put
// the columns after it beside the rows ("the T that have a C, with the C").
func fillerWith(c *chunk) bool {
	return c != nil && c.kind == ckWord && c.text == "with" && c.role == "filler"
}

// copulaOrTheir may follow "what" in a second question about the same
// rows ("and what is their specialty").
var copulaOrTheir = setOf("is", "are", "was", "were", "their", "its", "is their", "are their", "the")

// namesOwnRow: the plan keeps root rows by their own key or name, as the
// question named them.
func namesOwnRow(p *plan) bool {
	return slices.ContainsFunc(p.where, func(c *cond) bool {
		return c.kind == cValues && !c.neg && c.e.kind == eCol && c.e.col.t == p.root && (c.e.col.pk || c.e.col.isName())
	})
}

// valuesListSplit is a column that two conditions of conds (joined by AND)
// each compare with values, one of them keeping only those values: a list
// read apart, which no row can meet or which says the other twice.
func valuesListSplit(conds []*cond) *column {
	seen := map[*column]int{} // conditions on the column
	pos := map[*column]bool{} // one keeps only its values
	for _, c := range conds {
		if c.kind != cValues || c.e.kind != eCol || c.e.col == nil {
			continue
		}
		seen[c.e.col]++
		if !c.neg {
			pos[c.e.col] = true
		}
	}
	for _, c := range conds {
		if c.kind == cValues && c.e.kind == eCol && seen[c.e.col] > 1 && pos[c.e.col] {
			return c.e.col
		}
	}
	return nil
}

// flagSel: the selected item is a yes/no column.
func flagSel(s selItem) bool {
	return s.e.kind == eCol && s.e.col != nil && (s.e.col.boolean || s.e.col.kind == catalog.KindFlag)
}

// flagCompared is a yes/no column compared with a number other than 0 or 1,
// among conds and their semi-joins.
func flagCompared(conds []*cond) *column {
	c := nestedCond(conds, func(c *cond) bool {
		if c.kind != cCmp || c.e.kind != eCol || c.e.col == nil || !(c.e.col.boolean || c.e.col.kind == catalog.KindFlag) {
			return false
		}
		for _, v := range []any{c.a, c.b} {
			if f, ok := v.(float64); ok && f != 0 && f != 1 {
				return true
			}
		}
		return false
	})
	if c == nil {
		return nil
	}
	return c.e.col
}

// keyPinned: the plan's rows are one row, named by its key.
func keyPinned(p *plan) bool {
	return p.root.key != nil && slices.ContainsFunc(p.where, func(c *cond) bool {
		return c.kind == cValues && !c.neg && c.e.kind == eCol && c.e.col == p.root.key && len(c.values) == 1
	})
}

// implausibleYear is a condition comparing a column of years with a
// number that is no year (below 1000), among conds and their semi-joins.
func implausibleYear(conds []*cond) (*cond, float64) {
	var year float64
	c := nestedCond(conds, func(c *cond) bool {
		if c.e.kind != eCol || c.e.col == nil || !yearColumn(c.e.col) || (c.kind != cValues && c.kind != cCmp) {
			return false
		}
		nums := append([]any{}, c.values...)
		if c.kind == cCmp {
			nums = append(nums, c.a)
			if c.op == "between" {
				nums = append(nums, c.b)
			}
		}
		for _, v := range nums {
			if f, ok := v.(float64); ok && f >= 0 && f < 1000 {
				year = f
				return true
			}
		}
		return false
	})
	return c, year
}

// nestedCond is the first condition of conds, their semi-joins' and their
// sub-conditions', that ok accepts (inner ones before their own).
func nestedCond(conds []*cond, ok func(*cond) bool) *cond {
	for _, c := range conds {
		if c.semi != nil {
			if x := nestedCond(c.semi.where, ok); x != nil {
				return x
			}
		}
		if x := nestedCond(c.subs, ok); x != nil {
			return x
		}
		if ok(c) {
			return c
		}
	}
	return nil
}

// asksCapacity declines "how many T can X hold": what X could take (a
// capacity), not how many rows there are; "how many can you list" asks
// nothing of the kind.
// asksMultiple declines a comparison with a multiple of a figure over
// the rows ("a price more than twice the average", "above double the
// mean"): neither reading scales an aggregate.
func asksMultiple(toks []token) error {
	for i := 1; i+1 < len(toks); i++ {
		t := toks[i]
		if !(t.isNum || multipleWords[t.w]) || !comparedBefore(toks[i-1].w) {
			continue
		}
		k := i + 1
		for k < len(toks) && (toks[k].w == "times" || toks[k].w == "the" || toks[k].w == "as" || toks[k].w == "much") {
			k++
		}
		if k == i+1 && !multipleWords[t.w] && t.w != "twice" && t.w != "thrice" {
			continue // "more than 12 max crates": a number of a column
		}
		if k < len(toks) && figureWords[toks[k].w] {
			return decline("%q %s: a multiple of a figure over the rows is not answered offline", t.text, toks[k].text).
				withHint("ask for the %s first, then compare with a number", toks[k].text)
		}
		if k < len(toks) && (timesWords[t.w] || multipleWords[t.w] || toks[i+1].w == "times") && possessives[toks[k].w] {
			// "hauled at least twice their rated load": a multiple of
			// another column of the row, not the number two
			var said []string
			for _, x := range toks[i : k+1] {
				said = append(said, x.text)
			}
			return decline("%q ...: a multiple of another figure of the row is not answered offline", strings.Join(said, " ")).
				withHint("compare with a number")
		}
	}
	return nil
}

// asksRate declines a figure said as a rate, "<number> a <noun>" ("below
// 7.25 a crate"): the amount for each one of the noun,
// which no column is named for — not the number compared with a column
// the noun names.
func asksRate(toks []token) error {
	for i := 0; i+2 < len(toks); i++ {
		if !toks[i].isNum || toks[i+1].w != "a" && toks[i+1].w != "an" || toks[i+2].isNum || grainWords[toks[i+2].w] || toks[i+2].w == "hour" || toks[i+2].w == "night" {
			continue // "100 a day": a rate by time, read where the column holds one
		}
		return decline("%q: a figure for each %s is not answered offline", toks[i].text+" "+toks[i+1].text+" "+toks[i+2].text, toks[i+2].text).
			withHint("name the column that holds it, e.g. the price per %s", toks[i+2].text)
	}
	return nil
}

var (
	multipleWords = setOf("double", "triple", "treble", "half", "quadruple")
	figureWords   = setOf("average", "avg", "mean", "median", "total", "sum", "maximum", "minimum", "max", "min", "highest", "lowest")
)

// comparedBefore: a word that ends a comparison ("more than", "above").
func comparedBefore(w string) bool {
	switch w {
	case "than", "above", "over", "below", "under", "exceeds", "exceeding", "least", "most", "exceed":
		return true
	}
	return false
}

func asksCapacity(toks []token) error {
	for k := 0; k+3 < len(toks); k++ {
		// "which kiosks can hold more than 40 crates": what they could
		// take, not the crates they are linked to
		if (toks[k].w == "can" || toks[k].w == "could") && !persons[toks[k+1].w] && capacityCompared(toks[k+2:]) && !unitAfterNumber(toks[k+2:]) {
			return decline("%q asks what could be, such as a capacity, not how many rows there are", toks[k].w+" "+toks[k+1].w+" "+toks[k+2].w).
				withHint("ask for the capacity column, e.g. a capacity over 40")
		}
	}
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].w != "how" || toks[i+1].w != "many" && toks[i+1].w != "much" {
			continue
		}
		for k := i + 2; k+1 < len(toks); k++ {
			if (toks[k].w == "can" || toks[k].w == "could") && !persons[toks[k+1].w] {
				return decline("%q asks what could be, such as a capacity, not how many rows there are", "how "+toks[i+1].w+" … "+toks[k].w).
					withHint("ask for the capacity column, or for how many rows there are")
			}
		}
	}
	return nil
}

// capacityCompared: the words start a comparison with a number ("more
// than 40", "at least 12", "up to 8", "over 100").
func capacityCompared(toks []token) bool {
	switch {
	case len(toks) >= 2 && (toks[0].w == "more" || toks[0].w == "fewer" || toks[0].w == "less") && toks[1].w == "than":
		return true
	case len(toks) >= 2 && (toks[0].w == "at" || toks[0].w == "up") && (toks[1].w == "least" || toks[1].w == "most" || toks[1].w == "to"):
		return true
	case len(toks) >= 2 && (toks[0].w == "over" || toks[0].w == "under" || toks[0].w == "above" || toks[0].w == "below") && toks[1].isNum:
		return true
	}
	return false
}

// unitAfterNumber: the first number is followed by a unit ("more than 12
// tonnes"): a column's own measure, which the units reading compares.
func unitAfterNumber(toks []token) bool {
	for i, t := range toks {
		if t.isNum {
			if i+1 < len(toks) {
				_, ok := unitNouns[toks[i+1].w]
				return ok
			}
			return false
		}
	}
	return false
}

// asksPurpose declines "what is the X for?": what a thing is for, which no
// column says, not the rows of X.
func asksPurpose(toks []token) error {
	if n := len(toks); n > 3 && (toks[0].w == "what" || toks[0].w == "whats") && toks[n-1].w == "for" {
		return decline("the question asks what something is for, and I read no column of purposes").
			withHint("ask for a column of it, e.g. its type or description")
	}
	return nil
}

// asksHowManyOfEach declines "how many of each X were sold?": the rows of
// each X, or the units (a quantity column) — the count names no rows.
func asksHowManyOfEach(toks []token) error {
	for i := 0; i+3 < len(toks); i++ {
		if toks[i].w == "how" && (toks[i+1].w == "many" || toks[i+1].w == "much") && toks[i+2].w == "of" && (toks[i+3].w == "each" || toks[i+3].w == "every") {
			return decline("%q names nothing to count: the rows of each, or a quantity they hold?", "how "+toks[i+1].w+" of "+toks[i+3].w).
				withHint("ask e.g. for the number of rows per kind, or the total quantity per kind")
		}
	}
	return nil
}

// persons are the subjects of "can you", "could we": a request, not a capacity.
var persons = setOf("you", "i", "we", "me", "us")

// saysInTotal: the question says "in total".
func saysInTotal(toks []token) bool {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].w == "in" && toks[i+1].w == "total" {
			return true
		}
	}
	return false
}

// countsInTotal: the question says "in total" and the plan counts rows of
// tables one of which has a quantity to add up; that quantity, else nil.
func countsInTotal(toks []token, p *plan, tables map[*table]bool) *column {
	if !saysInTotal(toks) {
		return nil
	}
	counts := false
	for _, s := range p.sels {
		counts = counts || s.e.kind == eCountAll || s.e.kind == eAgg && s.e.fn == "COUNT"
	}
	for _, h := range p.having {
		counts = counts || h.e.kind == eCountAll || h.e.kind == eAgg && h.e.fn == "COUNT"
	}
	if !counts {
		return nil
	}
	for t := range tables {
		for _, c := range t.cols {
			if c.additive() && !c.isKey() {
				return c
			}
		}
	}
	return nil
}

// itsQuestion: a word of a second question about the same row ("and what
// does it cost").
func itsQuestion(c *chunk) bool {
	return c.role == "" && c.kind == ckWord && (c.text == "what" || c.text == "does" || c.text == "do" || c.text == "is" || c.text == "it" || c.text == "what is its" || c.text == "its")
}

// shownColumns: the question shows columns (and no aggregate).
func (q *cquery) shownColumns() bool {
	n := 0
	for _, it := range q.items {
		if it.agg != nil || it.star {
			return false
		}
		n++
	}
	return n > 0
}

// hasVerb: a verb linking rows or naming an event is in the question
// ("checked in", "shipped"): which date a time range is on is then the
// analyst reading's call (it knows date verbs).
func (q *cquery) hasVerb() bool {
	for _, c := range q.cs {
		if c.is(cwLink) && !c.isColumn() && !eventless[c.text] {
			return true
		}
	}
	return false
}

// eventless verbs say a row happened, not which of its dates it happened on.
var eventless = setOf("made", "done", "held", "happened", "occurred", "took place", "carried out", "recorded",
	"registered", "logged", "entered", "dated", "noted", "held in", "made in", "done in")

// countsLinked: a condition on rows of another table.
func (q *cquery) countsLinked() bool {
	for _, cd := range q.conds {
		if cd.kind == ccExists || cd.kind == ccCount {
			return true
		}
	}
	return false
}

func (r *creader) at(i int) *chunk {
	if i >= 0 && i < len(r.cs) {
		return r.cs[i]
	}
	return nil
}

// softWords are skipped when the clause steps look for a neighbour.
var softWords = setOf("a", "an", "the", "all", "any", "their", "its", "his", "her", "of the", "some", "every one of", "each of")

func (r *creader) soft(i int) bool {
	c := r.at(i)
	return c != nil && c.role == "" && c.kind == ckWord && c.info.cw == cwFiller && softWords[c.text]
}

// next is the first index from i that is not a soft word.
func (r *creader) next(i int) int {
	for r.soft(i) {
		i++
	}
	return i
}

// prev is the last index up to i that is not a soft word.
func (r *creader) prev(i int) int {
	for i >= 0 && r.soft(i) {
		i--
	}
	return i
}

func (r *creader) use(c *chunk, role string, args ...any) {
	if c != nil && c.role == "" {
		c.role = fmt.Sprintf(role, args...)
	}
}

// free: a chunk not yet given a role.
func free(c *chunk) bool { return c != nil && c.role == "" }

func (c *chunk) hasKind(k meaningKind) bool {
	if c == nil || c.kind != ckSchema {
		return false
	}
	for _, m := range c.ms {
		if m.kind == k {
			return true
		}
	}
	return false
}

// isTable: the chunk can name a table's rows.
func (c *chunk) isTable() bool { return c.hasKind(mTable) }

// isColumn: the chunk can name a column. A phrase that names a table and
// otherwise only keys or head nouns of other tables' columns (a table's
// noun that is also a foreign key elsewhere, or the head word of another
// table's column) names the table.
func (c *chunk) isColumn() bool {
	if !c.hasKind(mColumn) {
		return false
	}
	if !c.hasKind(mTable) {
		return true
	}
	for _, m := range c.ms {
		if m.kind == mColumn && !m.c.isKey() && m.strength > strengthHead {
			return true
		}
	}
	return false
}

// isValue: the chunk names a value of a column or a named row.
func (c *chunk) isValue() bool { return c.hasKind(mValue) || c.hasKind(mEntity) }

// onlyValue: a value and nothing else (not also a table or column).
func (c *chunk) onlyValue() bool { return c.isValue() && !c.isTable() && !c.isColumn() }

func (c *chunk) tables() []*table {
	var out []*table
	for _, m := range c.ms {
		if m.kind == mTable {
			out = appendUnique(out, m.t)
		}
	}
	return out
}

func (c *chunk) columns() []*column {
	var out []*column
	for _, m := range c.ms {
		if m.kind == mColumn {
			out = appendUnique(out, m.c)
		}
	}
	return out
}

// imperativeName reads an opening "name the ...", "name all ..." as the
// verb, not a name column.
func imperativeName(cs []*chunk) []*chunk {
	if len(cs) > 1 && cs[0].kind == ckSchema && cs[0].text == "name" && cs[1].kind == ckWord &&
		(softWords[cs[1].text] || cs[1].is(cwEach) || cs[1].text == "all" || cs[1].text == "every") {
		lead := *cs[0]
		lead.kind, lead.ms, lead.info = ckWord, nil, cinfo{cw: cwLead}
		cs[0] = &lead
	}
	if len(cs) > 1 && cs[0].kind == ckSchema && cs[0].text != "name" && commandWords[cs[0].text] && (cs[1].kind == ckSchema || softWords[cs[1].text]) {
		// "List kiosks …" where a table is called kiosk_list: the
		// command, not the table
		lead := *cs[0]
		lead.kind, lead.ms, lead.info = ckWord, nil, cinfo{cw: cwLead}
		cs[0] = &lead
	}
	return cs
}

// percentOfAll reads "<P> <T> as a percentage of all <T>" (a share said
// without a question word: "late crates as a percentage of all crates")
// as "as a percentage of all <T> are <P>": the same rows, counted where
// the words before them hold. nil when the question is not of that shape.
func percentOfAll(toks []token, cs []*chunk) []token {
	k := slices.IndexFunc(cs, func(c *chunk) bool {
		return c.is(cwPercent) && strings.HasPrefix(c.text, "as a") && strings.HasSuffix(c.text, " of")
	})
	if k < 2 || !cs[k-1].isTable() || cs[k-1].isValue() {
		return nil
	}
	n := k + 1
	for n < len(cs) && cs[n].kind == ckWord && (cs[n].text == "all" || cs[n].text == "the" || cs[n].text == "all the") {
		n++
	}
	if n != len(cs)-1 || !cs[n].isTable() || !slices.ContainsFunc(cs[n].tables(), func(t *table) bool { return slices.Contains(cs[k-1].tables(), t) }) {
		return nil
	}
	lead := 0
	for lead < k-1 && cs[lead].kind == ckWord && (cs[lead].is(cwLead) || softWords[cs[lead].text]) {
		lead++ // "show late crates as ...": the command stays first
	}
	if lead == k-1 {
		return nil // nothing said of the rows counted
	}
	out := slices.Clone(toks[:cs[lead].i])
	out = append(out, toks[cs[k].i:cs[n].j]...)
	out = append(out, clauseTokenize("are")...)
	out = append(out, toks[cs[lead].i:cs[k-1].i]...)
	return append(out, toks[cs[n].j:]...)
}

// unPrefixed rewrites a word "un<w>" the schema does not know, where <w>
// alone names a yes/no column ("unstowed" beside a stowed flag), as "not
// <w>"; nil when there is none.
func (m *model) unPrefixed(toks []token) []token {
	var out []token
	changed := false
	for i, t := range toks {
		w := strings.TrimPrefix(t.w, "un")
		if t.quoted || len(w) < 4 || w == t.w || !m.flagWord(w) || m.lex != nil && m.lex.longestPartial(toks, i) != nil {
			out = append(out, t)
			continue
		}
		not, stem := makeWord("not"), makeWord(w)
		not.stop, not.pause, not.text, stem.text = t.stop, t.pause, t.text, t.text
		out, changed = append(out, not, stem), true
	}
	if !changed {
		return nil
	}
	return out
}

// flagWord: a yes/no column is named by w alone ("stowed", "is_stowed").
func (m *model) flagWord(w string) bool {
	return slices.ContainsFunc(m.alone[w], func(c *column) bool { return c.kind == catalog.KindFlag })
}

// bothWays declines a question asked of rows that are and are not
// something ("kiosks that are and are not shaded", "have and have not"):
// two counts, or one split, that one condition cannot give.
func bothWays(toks []token) error {
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].w == "with" && (toks[i+1].w == "and" || toks[i+1].w == "or") && toks[i+2].w == "without" {
			// "kiosks with and without a licence": two figures, or one split
			return finalDecline("%q: the rows with it, and those without, are two answers", "with "+toks[i+1].w+" without").
				withHint("ask for each, or for the number of rows by the value")
		}
	}
	for i := 0; i+3 < len(toks); i++ {
		if (toks[i+1].w == "and" || toks[i+1].w == "or") && toks[i].w == toks[i+2].w && (toks[i+3].w == "not" || toks[i+3].w == "never") && auxiliaries[toks[i].w] {
			return finalDecline("%q: the rows that are, and those that are not, are two answers", toks[i].w+" "+toks[i+1].w+" "+toks[i+2].w+" "+toks[i+3].w).
				withHint("ask for each, or for the number of rows by the value")
		}
	}
	return nil
}

// whereAsked declines "when and where was …", "who and where": a place
// asked beside another question word, which no reading here binds to a
// column.
func whereAsked(toks []token) error {
	for i := 0; i+2 < len(toks); i++ {
		a, b := toks[i].w, toks[i+2].w
		if toks[i+1].w == "and" && (b == "where" && askWords[a] || a == "where" && askWords[b]) {
			return notMine("%q asks for a place, and I can't tell which column holds it", a+" and "+b).
				withHint("name the column, e.g. the date and the town")
		}
	}
	for i := 1; i+1 < len(toks); i++ {
		if toks[i].w == "where" && (toks[i-1].w == "and" || toks[i-1].pause) && auxiliaries[toks[i+1].w] {
			// "when was it opened, and where is it?": a second question,
			// for a place, not a filler
			return notMine("%q asks for a place, and I can't tell which column holds it", "where "+toks[i+1].w).
				withHint("name the column, e.g. the date and the town")
		}
	}
	return nil
}

// askWords open a question.
var askWords = setOf("what", "which", "who", "whom", "when", "how", "why")

// readUnsupported declines writes, "why" and predictions, and leaves to
// the analyst reading what is its kind: catalog measures, and questions
// that are a bare noun phrase ("<measure table> in <place>": a total, "<rows> last
// month": a count) rather than a request.
func (r *creader) readUnsupported() error {
	if !r.asks() {
		d := notMine("not a request for columns or figures")
		d.noRequest = r.verbLessList()
		return d
	}
	if r.givesRows() {
		return finalDecline("this is a read-only assistant: it never changes data").
			withHint("ask for figures, e.g. which rows have a value")
	}
	for i, c := range r.cs {
		switch {
		case c.hasKind(mDerived):
			return notMine("%q is a catalog measure", c.text)
		case c.kind == ckSchema && !c.isTable() && selfLink(c) && !r.hasOrNot(i):
			return finalDecline("how rows relate to one another (%q) is not answered offline", c.text).
				withHint("ask about one row's own details, or configure an LLM")
		case c.is(cwWrite) && (i == 0 || c.kind == ckWord && writeAnywhere[c.text]):
			return decline("this is a read-only assistant: it never changes data").
				withHint("ask for figures, e.g. how many rows a table has")
		case c.is(cwWhy):
			return decline("I look up figures but cannot explain why they changed; ask for the numbers instead")
		case c.is(cwRelation):
			return finalDecline("how rows relate to one another (%q) is not answered offline", c.text).
				withHint("ask about one row's own details, or configure an LLM")
		case c.is(cwFuture) && c.kind == ckWord:
			return decline("I report recorded data and cannot predict or forecast")
		}
	}
	return nil
}

// selfLink: a phrase naming a key from a table to itself ("reports to",
// "manager", "parent"): how rows relate to one another.
func selfLink(c *chunk) bool {
	self := false
	for _, m := range c.ms {
		switch {
		case m.kind != mColumn:
			return false
		case m.c.selfKey():
			self = true
		}
	}
	return self
}

// asks: the question opens as a request — a verb (show, list, find), a
// question word (what, which, who, how many), a count.
// negatedAfter: a negation opens the words at i ("with no", "without",
// "that have never"), after a relative pronoun.
func (r *creader) negatedAfter(i int) bool {
	c := r.at(i)
	if c != nil && c.kind == ckWord && (c.text == "that" || c.text == "who" || c.text == "which") {
		c = r.at(i + 1)
	}
	return c != nil && c.kind == ckWord && c.is(cwNeg)
}

func (r *creader) asks() bool {
	if r.columnsOfOpening() {
		return true // "ids of kiosks with …", "name and span of the widest bridge"
	}
	for i, c := range r.cs {
		switch {
		case c.kind == ckWord && (c.is(cwLead) || whWords[c.text] || c.is(cwWhen) || c.is(cwCount) || c.is(cwPercent) || c.is(cwEverything) || c.is(cwWrite) || c.is(cwWhy) || c.is(cwFuture) || c.is(cwOrderBy)):
			return true
		case i == 0 && c.kind == ckWord && c.is(cwAgg) && (c.text == "sum" || c.text == "total") && r.at(1) != nil && softWords[r.at(1).text]:
			return true // "Sum the seats of ..."
		case c.kind == ckWord && (c.text == "is" || c.text == "are" || c.text == "do" || c.text == "does" || c.text == "please" ||
			c.text == "for" || c.text == "in" || c.text == "among" || c.text == "of" || c.text == "on" || c.text == "at" ||
			c.text == "to" || c.text == "from" || c.text == "by" || c.text == "with" || c.text == "during" || softWords[c.text] || c.is(cwGroup)):
			continue // "is there", "for each X, ...", "among all X", "on what date ..."
		case (c.isTable() || c.isColumn() || c.isValue()) && i > 0 && (r.cs[i-1].is(cwGroup) || r.cs[i-1].text == "for" || softWords[r.cs[i-1].text]):
			continue // "for each T, list ...", "for the site X, ..."
		case c.kind == ckWord && c.info.cw == cwNone && c.capitalised() && i > 0:
			continue // a name after "for the site"
		case c.kind == ckWord && whWords[strings.Fields(c.text)[0]]:
			return true // "who has ..."
		case c.kind == ckWord && c.is(cwFiller):
			continue // "could you tell me ..."
		case i == 1 && c.kind == ckWord && c.is(cwAgg) && c.info.fn == "AVG" && r.cs[0].text == "on":
			continue // "on average, how many ..."
		case i <= 1 && c.kind == ckTime:
			continue // "in 2025, how many ..."
		case i == 0 && c.kind == ckSchema && c.isTable() && r.negatedAfter(1):
			return true // "kiosks with no repairs": those rows, listed
		}
		return false
	}
	return false
}

// verbLessList: the question is a list asked without a verb — rows or
// columns, then "of", a participle or a comparison ("kiosks opened before
// 1990", "names of kiosks with a roof", "kiosks larger than 20 square
// metres"): the rows or columns it names, as if asked to show them.
func (r *creader) verbLessList() bool {
	k := r.next(0)
	c := r.at(k)
	if c == nil || c.kind != ckSchema || !(c.isTable() || c.isColumn() && !aggOpening(c)) {
		return false
	}
	if ws := strings.Fields(c.text); len(ws) > 1 && c.isColumn() && participleLike(ws[len(ws)-1]) {
		return true // one phrase: the rows' noun and their event's column
	}
	n := r.at(r.next(k + 1))
	if n == nil {
		return false
	}
	first := strings.Fields(n.text)[0]
	return n.kind == ckWord && (first == "of" || n.is(cwCmp) || n.is(cwOrderBy) || n.is(cwDir)) || participleLike(first)
}

// sumOverReferrers declines a total or average of the root's column over
// the root rows that rows of another table refer to ("the total fee of
// the open leases": each lease's fee, or each kind of lease once?).
func sumOverReferrers(p *plan) error {
	if p.kind != pAggregate {
		return nil
	}
	summed := false
	for _, s := range p.sels {
		if s.e.kind == eAgg && (s.e.fn == "SUM" || s.e.fn == "AVG") && s.e.col != nil && s.e.col.t == p.root {
			summed = true
		}
	}
	for _, c := range p.where {
		if summed && c.kind == cSemi && !c.neg && c.semi.sel.fk != nil && c.semi.sel.fk.to == p.root && c.semi.sel.t != p.root {
			return finalDecline("a total over the %s rows that %s rows refer to: once per %s row, or once per %s row?", p.root.name, c.semi.sel.t.name, p.root.name, c.semi.sel.t.name).
				withHint("ask for the total per %s row, or over the %s rows themselves", c.semi.sel.t.name, p.root.name)
		}
	}
	return nil
}

// possessiveReach declines "X's C" where C is a column of a table X's own
// row does not reach by its keys ("Ida's fax" when tenants have no
// fax and landlords do: some landlord linked to her, not hers).
func (r *creader) possessiveReach(b *clauseBinder) error {
	for i, v := range r.cs {
		if v.role != "value" || !possessive(v) {
			continue
		}
		c := r.at(i + 1)
		col, ok := b.cols[c]
		if c == nil || !ok {
			continue
		}
		t := namedRowTable(v)
		if t == nil {
			continue
		}
		if _, reach := b.m.reach(t, col.t); t != col.t && !reach {
			return finalDecline("%q: %s is not a column of %s or of a row it refers to", v.orig+" "+c.text, col.ref(), t.name)
		}
	}
	return nil
}

// namesColumnsShown: the question says which columns of the rows to show
// ("…? Give their bay codes", "… with their descriptions").
func (r *creader) namesColumnsShown() bool {
	for i, c := range r.cs {
		if i > 0 && c.kind == ckWord && c.is(cwLead) {
			return true
		}
		if pv := r.at(i - 1); (c.text == "their" || c.text == "its") && pv != nil && (pv.text == "with" || pv.text == "and" || pv.is(cwAnd)) {
			return true
		}
	}
	return false
}

// columnsOfOpening: the question opens with columns (or "ids") and "of" a
// table — a list asked for without a verb ("code and span of the
// widest bridge").
func (r *creader) columnsOfOpening() bool {
	opening := func(c *chunk) bool {
		return c.kind == ckSchema && c.isColumn() && !c.isTable() && !c.isValue() && !aggOpening(c) ||
			c.kind == ckWord && (keyWords[c.text] || c.is(cwAnd) || c.text == "the" || c.text == "a")
	}
	k := 0
	for k < len(r.cs) && opening(r.cs[k]) {
		k++
	}
	if k == 0 || k >= len(r.cs) || r.cs[k].kind != ckWord || r.cs[k].text != "of" {
		return false
	}
	for k++; k < len(r.cs) && r.cs[k].kind == ckWord && softWords[r.cs[k].text]; k++ {
	}
	return k < len(r.cs) && r.cs[k].isTable()
}

// aggOpening: a column phrase that reads as an aggregate when it opens a
// noun phrase ("total price of reservations": the analyst's sum).
func aggOpening(c *chunk) bool { return aggWords[strings.Fields(c.text)[0]] }

var aggWords = setOf("total", "sum", "average", "mean", "number", "count", "max", "maximum", "min", "minimum")

// hasOrNot: "have a C", "with a C", "without a C", "no C" before i — the
// column filled in or empty, not how the rows relate to one another.
func (r *creader) hasOrNot(i int) bool {
	a := r.at(i - 1)
	if a == nil || a.kind != ckWord {
		return false
	}
	if a.text == "no" || a.text == "without" || a.text == "without a" || strings.HasSuffix(a.text, " no") {
		return r.at(i+1) == nil || r.at(i+1).kind == ckWord && !r.at(i+1).is(cwNamed)
	}
	if a.text != "a" && a.text != "an" {
		return false
	}
	h := r.at(i - 2)
	if h == nil || h.kind != ckWord || !(h.is(cwHave) || h.is(cwNeg)) {
		return false
	}
	nx := r.at(i + 1)
	return nx == nil || nx.kind == ckWord && !nx.is(cwNamed) && nx.text != "named" && nx.text != "called" && nx.text != "who" && nx.text != "whose"
}

// writeAnywhere are write verbs wherever they stand (others only first).
var writeAnywhere = setOf("delete", "update", "insert", "drop", "truncate", "alter", "grant", "revoke")

// readLead consumes the opening ("what are", "show me", "list") and notes
// a which/what/who that asks for rows of a table by name.
func (r *creader) readLead() error {
	i := 0
	for ; i < len(r.cs); i++ {
		c := r.cs[i]
		if c.kind != ckWord || !(c.is(cwLead) || c.is(cwFiller)) {
			break
		}
		if whWords[c.text] {
			switch nx := r.at(r.next(i + 1)); {
			case nx.isTable() && !nx.is(cwAgg):
				r.q.which = nx
			case nx.isColumn() && nx.kind == ckSchema && (nx.info.cw == cwNone || nx.info.cw == cwLink && !nx.isTable()):
				if countOfThings(nx) {
					// "which lorry" beside a lorries column: one of the
					// things, which a number of them does not name
					return decline("%q asks for one %s, and %s holds how many there are", c.text+" "+nx.text, nx.text, nx.columns()[0].ref())
				}
				r.q.whichCol = nx
			case nx.isValue() && !nx.isTable() && r.at(r.next(r.next(i+1)+1)).isTable():
				// "which spring fair days": the rows, of that kind
				r.q.which = r.at(r.next(r.next(i+1) + 1))
			}
		}
		r.use(c, "the question's opening")
	}
	return nil
}

// kindColumn: a column of kinds many rows share (a listed set of values),
// not a name or a key.
func kindColumn(c *column) bool {
	ws := catalog.IdentifierWords(c.name)
	last := ""
	if len(ws) > 0 {
		last = ws[len(ws)-1]
	}
	// a name or a description names one row each
	return len(c.values) > 0 && !c.isName() && !c.isKey() && c.kind != catalog.KindLabel && last != "" && !labelWords[last] &&
		last != "description" && last != "desc" && last != "descr"
}

// kindsListed is the one column chunk a bare list shows (no condition, no
// order) when the column holds kinds many rows share and the question
// names them in the plural without "distinct" or "each", or nil.
func kindsListed(p *plan, r *creader) *chunk {
	col := bareKindList(p)
	if col == nil || r.cs.saysEach() {
		return nil
	}
	for _, c := range r.cs {
		if c.role == "shown" && slices.Contains(c.columns(), col) && catalog.Singular(c.text) != c.text {
			return c
		}
	}
	return nil
}

// bareKindList is the one column of kinds (kindColumn) a plain list shows
// with no condition, order or DISTINCT, or nil.
func bareKindList(p *plan) *column {
	if p.kind != pList || p.distinct || len(p.sels) != 1 || p.sels[0].e.kind != eCol || !kindColumn(p.sels[0].e.col) || len(p.where) > 0 || len(p.order) > 0 {
		return nil
	}
	return p.sels[0].e.col
}

// timesListed makes a plain list of one year or date column DISTINCT when
// the question names it in the plural ("which years have the riggers
// paid dues for", "the dates the masts were hoisted on"): the years there
// are, not one per row. "Each" or "every" keeps one per row.
func timesListed(p *plan, toks []token) {
	if p.kind != pList || p.distinct || len(p.sels) != 1 || p.sels[0].e.kind != eCol || len(p.order) > 0 || p.limit > 0 {
		return
	}
	c := p.sels[0].e.col
	if c.isKey() || !dateOrYear(c) {
		return
	}
	ws := catalog.IdentifierWords(c.name)
	if len(ws) == 0 {
		return
	}
	last := ws[len(ws)-1]
	if last != "year" && last != "yr" && last != "date" && last != "dt" {
		return
	}
	if namedInPlural(toks, "year") || namedInPlural(toks, "date") {
		p.distinct = true
	}
}

// kindsListedPlural is kindsListed for the analyst reading: the one kind
// column a plain list shows, named in the plural among the tokens.
func kindsListedPlural(p *plan, toks []token) *column {
	c := bareKindList(p)
	if c == nil {
		return nil
	}
	ws := catalog.IdentifierWords(c.name)
	last := ws[len(ws)-1]
	if !namedInPlural(toks, last) {
		return nil
	}
	return c
}

// namedInPlural: the tokens say word in the plural ("the years", "the
// colours") and say neither "each" nor "every" (one per row).
func namedInPlural(toks []token, word string) bool {
	return !slices.ContainsFunc(toks, func(t token) bool { return t.w == "each" || t.w == "every" }) &&
		slices.ContainsFunc(toks, func(t token) bool { return t.s == word && t.w != t.s })
}

// countedSelfCount: the plan counts the rows of its root, a table whose
// rows each hold a count of their things (selfCount), and the question
// names those things: the column it means is not known.
func countedSelfCount(p *plan, toks []token) *column {
	c := selfCount(p.root)
	if c == nil || !countsRows(p) {
		return nil
	}
	nouns := catalog.IdentifierWords(p.root.bare)
	if !slices.ContainsFunc(toks, func(t token) bool {
		return slices.ContainsFunc(nouns, func(n string) bool { return catalog.Singular(n) == t.s })
	}) ||
		slices.ContainsFunc(toks, func(t token) bool { return rowWords[t.w] }) {
		return nil
	}
	return c
}

// countsRows: the plan shows, orders or filters by COUNT(*).
func countsRows(p *plan) bool {
	for _, s := range p.sels {
		if s.e.kind == eCountAll {
			return true
		}
	}
	for _, o := range p.order {
		if o.sel < 0 && o.e.kind == eCountAll { // an order by a shown count is the count shown
			return true
		}
	}
	for _, h := range p.having {
		if h.e.kind == eCountAll {
			return true
		}
	}
	return false
}

// countOfThings: a singular noun naming a number column whose name is its
// plural ("lorry" of a lorries column): the column counts those things.
func countOfThings(c *chunk) bool {
	if len(c.columns()) != 1 || catalog.Singular(c.text) != c.text || strings.Contains(c.text, " ") {
		return false
	}
	col := c.columns()[0]
	ws := catalog.IdentifierWords(col.name)
	return col.numeric && len(ws) > 0 && ws[len(ws)-1] != c.text && catalog.Singular(ws[len(ws)-1]) == c.text
}

var whWords = setOf("what", "which", "who", "whom", "whats")

// readEverything: "all information about X", "everything" → every column.
func (r *creader) readEverything() error {
	for i, c := range r.cs {
		if !free(c) || !c.is(cwEverything) || c.kind != ckWord {
			continue
		}
		r.use(c, "every column")
		it := &citem{star: true, pos: i}
		for k := r.next(i + 1); k < len(r.cs); k = r.next(k + 1) {
			nx := r.at(k)
			if nx.kind == ckWord && (nx.text == "about" || nx.text == "of" || nx.text == "on" || nx.text == "for" || nx.text == "regarding") {
				r.use(nx, "every column of")
				continue
			}
			if nx.isTable() {
				it.t = nx
			}
			break
		}
		r.q.items = append(r.q.items, it)
	}
	return nil
}

// showsAName: the plan shows a name column of some table.
func showsAName(p *plan, other []*column) bool {
	for _, s := range p.sels {
		if s.e.kind == eCol && slices.Contains(other, s.e.col) {
			continue
		}
		if s.e.kind != eCol {
			if s.e.kind == eLabel {
				return true // names joined ("first || ' ' || last")
			}
			continue
		}
		c := s.e.col
		if c.isName() {
			return true
		}
		if !wholeRow(p, c.t) && !c.numeric && !c.isKey() && !c.dateType && c.kind != catalog.KindDate && c.kind != "flag" && !c.numberAsText() {
			return true // a text column asked for, that may hold a name ("the councillor")
		}
	}
	return false
}

// readingChecks are the checks both readings make of their plan: words the
// plan would drop or contradict ("currently", one column equal to two
// values, "£40" against pence, "who" answered with rows a person has).
func readingChecks(toks []token, p *plan) error {
	if err := currentlyOpen(toks, p); err != nil {
		return err
	}
	if err := contradicts(p.where); err != nil {
		return err
	}
	if err := minorUnits(toks, p); err != nil {
		return err
	}
	if len(toks) > 0 && (toks[0].w == "who" || toks[0].w == "whom") && p.kind == pList && !personLike(p.root) && refersToPerson(p.root) && !showsLinkedPerson(p) {
		// "who has an open ticket": the ticket's person, not the ticket
		return decline("\"who\" asks for a person, and the answer would show rows of %s", p.root.name)
	}
	return nil
}

// refersToPerson: the table has a foreign key to a table of people.
func refersToPerson(t *table) bool {
	return slices.ContainsFunc(t.out, func(e *edge) bool { return personLike(e.to) })
}

// showsLinkedPerson: the plan shows a column of a table of people.
func showsLinkedPerson(p *plan) bool {
	return slices.ContainsFunc(p.sels, func(s selItem) bool {
		return s.e.kind == eCol && s.e.col != nil && personLike(s.e.col.t) || s.e.kind == eLabel
	})
}

// whichValue is the value right after an opening "which" ("which seniors
// …" where senior is a kind of member), or nil.
func (r *creader) whichValue() *chunk {
	if len(r.cs) < 2 || r.cs[0].kind != ckWord || r.cs[0].text != "which" {
		return nil
	}
	if w := r.cs[1]; w.isValue() && !w.isTable() && !w.isColumn() {
		return w
	}
	return nil
}

// asksWhen: an item asks for the date of the rows ("when did X join?").
func (q *cquery) asksWhen() bool {
	return slices.ContainsFunc(q.items, func(it *citem) bool { return it.when })
}

// laterAsk: a second question follows the first ("…, and at what level?",
// "…, and what is their age?").
func (r *creader) laterAsk() bool {
	for i, c := range r.cs {
		if i > 0 && c.kind == ckWord && whWords[c.text] {
			return true
		}
	}
	return false
}

// askedByLaterWh: the columns a second question asks for ("who worked on
// X, and in what capacity?"): the first "who" is not answered by them.
func (r *creader) askedByLaterWh() []*column {
	var cols []*column
	for i, c := range r.cs {
		if i == 0 || c.kind != ckWord || !whWords[c.text] {
			continue
		}
		if nx := r.at(i + 1); nx.schema() {
			for _, m := range nx.ms {
				if m.c != nil {
					cols = append(cols, m.c)
				}
			}
		}
	}
	return cols
}

// kindsOf: the rows listed are of a table linking others ("treatments"
// naming an appointment and a treatment code), but everything the
// question says of them — what is shown, what is filtered — is of one
// table they link to, which the question never names: are "the
// treatments" the rows, or the kinds of treatment? The linked table, or
// nil.
func (b *clauseBinder) kindsOf(p *plan) *table {
	r := p.root
	if p.kind != pList || len(r.out) < 2 || len(p.where) == 0 || b.q.subject == nil {
		return nil
	}
	var k *table
	same := func(t *table) bool {
		if t == r {
			return false
		}
		if k == nil {
			k = t
		}
		return k == t
	}
	for _, c := range p.where {
		if c.kind != cValues && c.kind != cCmp || c.e.kind != eCol || !same(c.e.col.t) {
			return nil
		}
	}
	if !wholeRow(p, r) {
		for _, s := range p.sels {
			if s.e.kind != eCol || !same(s.e.col.t) {
				return nil
			}
		}
	}
	if k == nil || b.namedTables()[k] {
		return nil
	}
	return k
}

// givesRows: "give every member a rating of 5", "assign the orders a
// status": a verb giving rows a value is a write, not "give me the ...".
func (r *creader) givesRows() bool {
	if len(r.cs) < 4 || r.cs[0].kind != ckWord || !giveVerbs[r.cs[0].text] {
		return false
	}
	k := 1
	for k < len(r.cs) && r.cs[k].kind == ckWord && (softWords[r.cs[k].text] || r.cs[k].is(cwEach)) {
		k++
	}
	if k >= len(r.cs) || !r.cs[k].isTable() {
		return false
	}
	k++
	article := func(c *chunk) bool { return c.kind == ckWord && (c.text == "a" || c.text == "an" || c.text == "the") }
	for skipped := 0; k < len(r.cs) && !article(r.cs[k]); skipped++ {
		// "give every kiosk in Harbour a licence": the rows' condition
		// between them and what they are given
		c := r.cs[k]
		if skipped >= 4 || !(c.kind == ckWord && relationPreps[c.text] || c.isValue() || c.kind == ckLit) {
			return false
		}
		k++
	}
	if k+1 >= len(r.cs) {
		return false
	}
	return r.cs[k+1].isColumn()
}

var giveVerbs = setOf("give", "assign", "award", "grant", "set")

// currentlyOpen declines "currently" / "still" when the plan reads a
// table whose rows have an open end (a nullable date: a loan not yet
// returned): now, or ever?
func currentlyOpen(toks []token, p *plan) error {
	said := ""
	for _, t := range toks {
		if t.w == "currently" || t.w == "still" || t.w == "presently" {
			said = t.text
		}
	}
	if said == "" {
		return nil
	}
	tables := []*table{p.root}
	for t := range p.joins.in {
		tables = append(tables, t)
	}
	for _, c := range p.where {
		if c.kind == cSemi && c.semi != nil {
			tables = append(tables, c.semi.joins.root)
			for t := range c.semi.joins.in {
				tables = append(tables, t)
			}
		}
	}
	for _, t := range tables {
		if t == nil {
			continue
		}
		var starts, ends *column
		for _, c := range t.cols {
			if c.nullable && c.kind == catalog.KindDate {
				return decline("%q: rows of %s whose %s is still empty, or every row?", said, t.name, c.name).
					withHint("ask e.g. for the rows of %s with no %s", t.name, c.name)
			}
			if c.kind == catalog.KindDate || c.dateType {
				ws := catalog.IdentifierWords(c.name)
				switch {
				case anyIn(ws, periodStarts):
					starts = c
				case anyIn(ws, periodEnds):
					ends = c
				}
			}
		}
		if starts != nil && ends != nil {
			// "masts currently on loan": loans running today, which
			// the plan does not compare
			return decline("%q: rows of %s whose %s to %s covers today, or every row?", said, t.name, starts.name, ends.name).
				withHint("ask e.g. for the rows of %s with %s before a date and %s after it", t.name, starts.name, ends.name)
		}
	}
	return nil
}

// periodStarts and periodEnds name the dates a row's period runs between.
var periodStarts = setOf("start", "starts", "started", "begin", "begins", "from", "out", "departure", "checkin")
var periodEnds = setOf("end", "ends", "ended", "finish", "until", "to", "back", "return", "returned", "due", "checkout")

// contradicts declines conditions that no row can meet: one column equal
// to two different values at once ("rowers, coaches, coxes" read as
// kind = A AND kind = B).
func contradicts(conds []*cond) error {
	fixed := map[*column][]any{}
	for _, c := range conds {
		if c.kind != cValues || c.neg || c.e.kind != eCol || c.e.col == nil {
			continue
		}
		if prev, ok := fixed[c.e.col]; ok && !slices.ContainsFunc(c.values, func(v any) bool { return slices.Contains(prev, v) }) {
			return decline("%s would have to be %v and %v at once", c.e.col.ref(), prev, c.values).
				withHint("join the values with 'or' for rows having any of them")
		}
		fixed[c.e.col] = c.values
	}
	for _, c := range conds {
		if c.kind == cSemi && c.semi != nil {
			if err := contradicts(c.semi.where); err != nil {
				return err
			}
		}
	}
	return nil
}

// minorUnits declines a sum of money typed in pounds, dollars or euros
// ("over £40") compared with a column counted in pence or cents.
func minorUnits(toks []token, p *plan) error {
	major := ""
	for _, t := range toks {
		if t.money || t.w == "pounds" || t.w == "dollars" || t.w == "euros" {
			major = t.text
		}
	}
	if major == "" {
		return nil
	}
	c := nestedCond(p.where, func(c *cond) bool {
		if c.kind != cCmp && c.kind != cValues || c.e.kind != eCol || c.e.col == nil {
			return false
		}
		for _, w := range catalog.IdentifierWords(c.e.col.name) {
			if w == "pence" || w == "cents" || w == "cent" || w == "penny" {
				return true
			}
		}
		return false
	})
	if c != nil {
		return decline("%q is in whole units of money, and %s counts pence or cents", major, c.e.col.ref()).
			withHint("give the amount in pence or cents, e.g. 4000 for 40.00")
	}
	return nil
}

// planUses: t is the plan's root, joined, or read in one of its
// subqueries.
func planUses(p *plan, t *table) bool {
	if p.root == t || p.joins.in[t] {
		return true
	}
	for _, c := range p.where {
		if c.kind == cSemi && c.semi != nil && (c.semi.joins.root == t || c.semi.joins.in[t]) {
			return true
		}
	}
	return false
}
