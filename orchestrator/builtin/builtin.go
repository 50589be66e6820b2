// Package builtin is the offline SQL generator: it answers everyday analyst
// questions — totals, counts, averages, rankings, groupings, comparisons,
// filters by named rows and values, time windows, listings — on any
// database, without an LLM. Everything it knows comes from the MCP
// resources of the request: the database schema (tables, columns, keys,
// row counts, sample values) and, when a metadata server provides one, the
// semantic catalog (business words, column kinds, measure types, derived
// measures, named entities). With no catalog it reads words from the
// identifiers. When it is not sure, it declines with a rephrasing hint
// instead of guessing: a wrong answer is worse than none.
//
// A question goes through named steps: compile (the model, cached per
// server id and resource version), scan (phrases, names, numbers, dates,
// built-in English), interpret (measure, grouping, filters, time,
// ranking), bind (tables, columns, rows, the root table, joins) and render
// (SQL for SQLite, PostgreSQL or MySQL/MariaDB).
package builtin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"talk2tables/catalog"
	"talk2tables/orchestrator/sqlgen"
)

// Name is the generator name reported in results.
const Name = "builtin"

// declinePrefix starts every message of a declined question.
const declinePrefix = "I can't answer that offline; configure an LLM (see README)."

// maxTokens bounds the question length the planner reads.
const maxTokens = 120

// cacheSize is the number of compiled models kept (one per set of
// resource versions).
const cacheSize = 4

// Generator is the offline sqlgen.Generator. It is safe for concurrent use.
type Generator struct {
	logger   *slog.Logger
	mu       sync.Mutex
	cache    []cacheEntry // most recent first
	compiles atomic.Int64
	sf       singleflight.Group // one compile per key at a time
}

type cacheEntry struct {
	key   string
	model *model
}

var _ sqlgen.Generator = (*Generator)(nil)

// New returns an offline generator. A nil logger discards logs.
func New(logger *slog.Logger) *Generator {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Generator{logger: logger}
}

// Compiles reports how many models the generator has compiled: once per
// set of (server id, resource version) pairs it has seen recently, and
// once per request whose servers carry no version.
func (g *Generator) Compiles() int64 { return g.compiles.Load() }

// Name returns "builtin".
func (g *Generator) Name() string { return Name }

// Generate writes one SELECT for the question, or declines with a
// *sqlgen.SQLGenerationError of reason ReasonDeclined saying what it
// understood and how to rephrase.
func (g *Generator) Generate(ctx context.Context, req sqlgen.Request) (sqlgen.Plan, error) {
	if err := ctx.Err(); err != nil {
		return sqlgen.Plan{}, err
	}
	if req.Repair != nil {
		return sqlgen.Plan{}, g.declined(nil, decline("my SQL failed (%s) and I cannot repair it", req.Repair.Error))
	}
	if req.MultiDatabase() {
		return g.generateMulti(req)
	}
	r := g.answer(g.model(req.Servers), req.Question, req.Dialect, req.Today)
	if r.err != nil {
		return sqlgen.Plan{}, g.declined(r.spans, r.err)
	}
	return r.plan, nil
}

// reading is one model's answer to a question: a plan, or the decline
// with the spans it understood.
type reading struct {
	plan    sqlgen.Plan
	spans   []*span
	unknown []string // question words the model does not know
	typos   bool     // a word was read as a misspelling
	err     error
}

// answer answers a question on one model: on its base tables first when
// it has views named like a grouped question (a "<measure> by <group>"
// view may hold one year and one row per item: a filter and a grain of its
// own), else on the whole model.
func (g *Generator) answer(m *model, question, reqDialect, reqToday string) reading {
	if q, dropped := m.withoutContext(question); dropped != "" {
		// "Hi, for the rota: which kiosk …": the question after the
		// context, which names nothing of the database
		r := g.answerViews(m, q, reqDialect, reqToday)
		if r.err == nil {
			r.plan.Assumptions = append([]string{fmt.Sprintf("set aside %q: context, not part of the question", dropped)}, r.plan.Assumptions...)
		}
		return r
	}
	return g.answerViews(m, question, reqDialect, reqToday)
}

// answerViews is answer after any context is set aside.
func (g *Generator) answerViews(m *model, question, reqDialect, reqToday string) reading {
	if m.tablesOnly != nil {
		if r := g.answerOn(m.tablesOnly, question, reqDialect, reqToday); r.err == nil {
			return r
		}
	}
	return g.answerOn(m, question, reqDialect, reqToday)
}

// answerOn reads the question on one model, as an analyst's question
// (measures, time windows, rankings) and, when that reading declines, as
// explicit clauses (columns, conditions, grouping, order).
func (g *Generator) answerOn(m *model, question, reqDialect, reqToday string) reading {
	if !m.hasSchema {
		return g.analystAnswer(m, question, reqDialect, reqToday)
	}
	dialect, err := m.pickDialect(reqDialect)
	if err != nil {
		return reading{err: err}
	}
	toks := clauseTokenize(question)
	for _, asks := range []func([]token) error{asksCapacity, asksPurpose, asksHowManyOfEach, asksMultiple, asksRate} {
		if err := asks(toks); err != nil {
			return reading{err: err}
		}
	}
	plan, final, err := m.clauseAnswer(question, m.pickToday(reqToday), dialect)
	switch {
	case err == nil:
		return reading{plan: plan}
	case final:
		return reading{err: err}
	}
	r := g.analystAnswer(m, question, reqDialect, reqToday)
	if r.err != nil && isNoRequest(err) && !isFinal(r.err) {
		// a bare noun phrase the analyst reading has no figure for ("kiosks
		// opened before 1990", "names of kiosks with a roof"): the rows
		// or columns it names, as if asked to show them; not where it
		// understood the phrase and refused it ("total price of the kiosks")
		if plan, _, cerr := m.clauseAnswer(impliedShow+question, m.pickToday(reqToday), dialect); cerr == nil {
			return reading{plan: plan}
		}
	}
	return r
}

// saysRecorded: the question says a value is missing ("blank", "empty"),
// or says "recorded" after a "no" ("no rainfall recorded") — not before it
// ("recorded no rainfall" is a zero recorded).
func saysRecorded(toks []token) bool {
	no := false
	for _, t := range toks {
		switch {
		case t.w == "no" || t.w == "not" || t.w == "none" || t.w == "without":
			no = true
		case t.w == "missing" || t.w == "blank" || t.w == "empty":
			return true
		case recordedWords[t.w] && no:
			return true
		}
	}
	return false
}

// rankedTime: the ranking's measure is a time or a cost (lowerIsBetter).
func rankedTime(q *query) bool { return rankedBy(q, lowerIsBetter) }

// rankedBy: a column of the ranking's measure (or of a measure asked
// beside it) satisfies is.
func rankedBy(q *query, is func(*column) bool) bool {
	ms := q.measures
	if q.rank.measure != nil {
		ms = append(ms, q.rank.measure)
	}
	for _, m := range ms {
		if m.sp != nil && slices.ContainsFunc(m.sp.ms, func(mn *meaning) bool { return mn.c != nil && is(mn.c) }) {
			return true
		}
	}
	return false
}

// placeLike: a finishing place or a rank, where 1 is the best.
func placeLike(c *column) bool {
	if !c.numeric && !c.numberAsText() {
		return false
	}
	for _, w := range catalog.IdentifierWords(c.name) {
		switch w {
		case "place", "placed", "placing", "placement", "position", "rank", "ranking", "seed", "seeding", "standing":
			return true
		}
	}
	return false
}

// lowerIsBetter: a time taken, a delay or a cost, where less is better.
func lowerIsBetter(c *column) bool {
	for _, w := range catalog.IdentifierWords(c.name) {
		switch w {
		case "secs", "seconds", "mins", "minutes", "hours", "delay", "wait", "waiting", "response", "duration", "cost", "costs", "late", "lateness":
			return true
		}
	}
	return false
}

// saysMoneyVerb: a verb of money changing hands ("earned", "spent").
func saysMoneyVerb(toks []token) bool {
	return slices.ContainsFunc(toks, func(t token) bool { return moneyVerbs[t.w] })
}

var moneyVerbs = setOf("earned", "earn", "earns", "earning", "spent", "spend", "spends", "paid", "pay", "pays", "charged", "billed", "invoiced", "raised", "made money")

// rankChecks declines rankings the analyst reading would get backwards:
// "the worst mean queue time" (a longer time is worse, not a lower
// number) and "which kiosk earned the most from rentals" ranked by how
// many rentals (money, not a count).
func rankChecks(q *query, toks []token) error {
	if q.rank == nil {
		return nil
	}
	if (q.rank.sp.text == "best" || q.rank.sp.text == "worst") && !q.rank.bestLow && rankedBy(q, placeLike) {
		// "the rower with the best mean finishing seed": the lowest
		q.rank.dir, q.rank.bestLow = -q.rank.dir, true
	}
	if (q.rank.sp.text == "best" || q.rank.sp.text == "worst") && rankedTime(q) {
		return decline("%q of a time or a cost: a longer time or a higher cost is worse, and I won't guess which way you mean", q.rank.sp.text).
			withHint("say highest or lowest")
	}
	if q.rank.measure != nil && q.rank.measure.count != nil && saysMoneyVerb(toks) {
		return decline("%q ranks by money, and the ranking I read counts %s", "the most", q.rank.measure.count.text).
			withHint("name the amount to add up, e.g. the highest total fee")
	}
	return nil
}

// amountAsked: the plan ranks or compares the rows by the amount c, so
// a whole row shown answers "how much" with it ("which kiosk has the
// highest rent, and how much is that"); a list of whole rows with no such amount in
// play does not ("how much has the kiosk taken from hires").
func amountAsked(p *plan, c *column) bool {
	for _, o := range p.order {
		if e := p.orderExpr(o); e.kind == eCol && e.col == c {
			return true
		}
	}
	for _, w := range p.where {
		if w.kind == cCmp && w.e.kind == eCol && w.e.col == c {
			return true
		}
	}
	return false
}

// planChecks declines bound analyst plans that answer another question:
// "how much has the Quay kiosk taken?" with the kiosk's row (no amount in
// it); "what are the categories of fairs" with each row's (see
// kindsListedPlural); a count of rows that each hold a count of their
// things (see countedSelfCount).
func planChecks(q *query, p *plan, toks []token) error {
	timesListed(p, toks)
	if q.howMuch && p.kind == pList && !slices.ContainsFunc(p.sels, func(s selItem) bool {
		return s.e.kind != eCol || (s.e.col.unit == "money" || s.e.col.kind == catalog.KindMeasure) && (!wholeRow(p, p.root) || amountAsked(p, s.e.col))
	}) {
		return decline("\"how much\" asks for an amount, and I read none to add up").
			withHint("name the amount, e.g. the total takings")
	}
	if c := kindsListedPlural(p, toks); c != nil {
		return decline("the %s: each row's, or the different ones there are?", catalog.Plural(c.phrase())).
			withHint("say the different %s", catalog.Plural(c.phrase()))
	}
	if err := onePerRowCount(p); err != nil {
		return err
	}
	if valueCounted(p, toks) {
		return decline("\"value\" asks for an amount, and I read only a count of rows").
			withHint("name the amount to add up, e.g. the total price")
	}
	if sp := sharedOfOne(q.spans); sp != nil && p.kind == pAggregate {
		return sharedFigure(sp.text)
	}
	if c := countedSelfCount(p, toks); c != nil {
		return decline("%q could mean the number of %s rows or the total of %s", c.t.name, c.t.name, c.ref()).
			withHint("ask for the number of rows, or the total %s", c.name)
	}
	return nil
}

// onePerRowCount declines a plan that counts rows for each of their own
// keys (countsOnePerRow), in either reading; nil otherwise.
func onePerRowCount(p *plan) error {
	if !countsOnePerRow(p) {
		return nil
	}
	return decline("each %s is one row: a count of %s rows for each of them is 1", p.root.singular(), p.root.name).
		withHint("name the figure to rank or compare, e.g. the largest %s by a column", p.root.singular())
}

// sharedFigure declines one figure for a name several rows share, said
// as if of one row ("how many goals has Oren Vale scored", two members
// called Oren Vale), in either reading.
func sharedFigure(name string) error {
	return decline("several rows are called %q, and one figure for all of them would add them together", name).
		withHint("ask for each of them (\"for each … called %s\"), or name one by its id", name)
}

// countsOnePerRow: rows counted for each key of the rows themselves
// (every joined table is reached many-to-one), so every count is 1: "the
// biggest crate" read as the crate with the most crate rows.
func countsOnePerRow(p *plan) bool {
	if p.kind != pAggregate || p.root == nil || p.root.key == nil || !singlePK(p.root) {
		return false
	}
	byKey := slices.ContainsFunc(p.groupBy, func(e expr) bool { return e.kind == eCol && e.col == p.root.key })
	counts := slices.ContainsFunc(p.sels, func(s selItem) bool { return s.e.kind == eCountAll })
	return byKey && counts
}

// valueCounted: the question asks for a value ("the total value of the
// orders") and the plan only counts rows — the value word was passed over.
func valueCounted(p *plan, toks []token) bool {
	said := false
	for i, t := range toks {
		if t.w == "value" || t.w == "values" || t.w == "worth" {
			// not "for each value of the flag": a grouping
			said = said || i == 0 || !(toks[i-1].w == "each" || toks[i-1].w == "every" || toks[i-1].w == "per" || toks[i-1].w == "distinct" || toks[i-1].w == "different")
		}
	}
	if p.kind != pAggregate || !said {
		return false
	}
	return !slices.ContainsFunc(p.sels, func(s selItem) bool {
		return s.e.kind != eCountAll && s.e.kind != eCol && s.e.kind != eLabel && s.e.kind != eGrain
	})
}

// sharedOfOne is a span naming rows that share a name as if it named one
// row ("Oren Vale" of two members called that), or nil; the analyst
// reading's twin of the clause binder's allOfName.
func sharedOfOne(spans []*span) *span {
	for i, sp := range spans {
		var t *table
		for _, m := range sp.ms {
			if m.kind == mEntity && len(m.e.keys) > 1 {
				t = m.t
			}
		}
		if t == nil {
			continue
		}
		if i > 0 && (allNameWords[spans[i-1].text] || slices.ContainsFunc(spans[i-1].ms, func(m *meaning) bool {
			return m.kind == mColumn && slices.Contains(t.label, m.c)
		})) {
			continue
		}
		if slices.ContainsFunc(spans, func(o *span) bool {
			return catalog.Singular(o.text) != o.text && slices.ContainsFunc(o.ms, func(m *meaning) bool { return m.kind == mTable && m.t == t })
		}) {
			continue
		}
		return sp
	}
	return nil
}

// impliedShow opens a bare noun phrase as a request to show it.
const impliedShow = "show "

// analystAnswer runs the named steps of the analyst reading on one model.
func (g *Generator) analystAnswer(m *model, question, reqDialect, reqToday string) reading {
	if !m.hasSchema {
		return reading{err: decline("no database schema resource was provided").
			withHint("check that the database MCP server is connected")}
	}
	dialect, err := m.pickDialect(reqDialect)
	if err != nil {
		return reading{err: err}
	}
	today := m.pickToday(reqToday)
	sc, err := m.read(question, today)
	r := reading{spans: sc.spans, unknown: sc.unknown, typos: hasTypo(sc.spans)}
	if err != nil {
		r.err = err
		return r
	}
	q, err := interpret(sc.spans)
	if err != nil {
		r.err = m.withExample(err)
		return r
	}
	q.saysRecorded = saysRecorded(sc.toks)
	if err := rankChecks(q, sc.toks); err != nil {
		r.err = err
		return r
	}
	p, b, err := m.bind(q, today)
	if err != nil {
		r.err = m.withExample(err)
		return r
	}
	if err := bothWays(sc.toks); err != nil {
		r.err = err
		return r
	}
	if err := planChecks(q, p, sc.toks); err != nil {
		r.err = err
		return r
	}
	dropNullGroups(p)
	if err := scaleUnits(sc.toks, append(slices.Clone(p.where), p.having...)); err != nil {
		r.err = err
		return r
	}
	sql, used, err := render(p, dialect)
	if err != nil {
		r.err = err
		return r
	}
	if err := b.nounsUsed(used); err != nil {
		r.err = m.withExample(err)
		return r
	}
	if err := analystLeftovers(sc, p, sql); err != nil {
		r.err = err
		return r
	}
	if err := countUnasked(sc.toks, p); err != nil {
		r.err = err
		return r
	}
	if err := namesNoOne(sc.toks, p); err != nil {
		r.err = err
		return r
	}
	if err := kindsThere(sc.toks, p); err != nil {
		r.err = err
		return r
	}
	if err := everyValueListed(sc, p); err != nil {
		r.err = err
		return r
	}
	if p.kind == pList && wholeRow(p, p.root) {
		if err := linkRowsOnly(p.root); err != nil {
			r.err = err
			return r
		}
	}
	r.plan = sqlgen.Plan{
		SQL:              sql,
		ResolvedEntities: b.resolved,
		Explanation:      b.explanation(p),
		Confidence:       confidence(m, b, sc),
		Assumptions:      append(append(b.assumptions(), sc.rewrites...), analystReadAs(sc.spans)),
		Generator:        Name,
	}
	return r
}

func hasTypo(spans []*span) bool {
	for _, sp := range spans {
		if sp.typo != "" {
			return true
		}
	}
	return false
}

// read scans the question and declines what the planner does not take:
// empty or too long questions, writes, "why", predictions, unknown words.
func (m *model) read(question string, today time.Time) (scanned, error) {
	toks := tokenize(question)
	if len(toks) == 0 {
		return scanned{}, decline("the question is empty").withHint("e.g. how many orders were placed last month")
	}
	if len(toks) > maxTokens {
		return scanned{}, decline("the question is too long for the offline generator (%d words, at most %d)", len(toks), maxTokens)
	}
	sc := m.scan(question, today)
	probe := &query{spans: sc.spans}
	if err := probe.readUnsupported(); err != nil {
		return sc, err
	}
	if len(sc.unknown) > 0 {
		e := decline("I don't know the word(s) %s", quoteList(sc.unknown))
		if !m.catalog && !m.v1 {
			e = decline("no semantic catalog is available (is the metadata MCP server down?), so I only know the schema's own table and column names; I don't know the word(s) %s", quoteList(sc.unknown))
		}
		return sc, m.withExample(e)
	}
	if len(sc.spans) == 0 {
		return sc, decline("I found nothing to answer in the question").withHint("%s", m.example())
	}
	return sc, nil
}

func (m *model) pickDialect(d string) (string, error) {
	if d == "" {
		d = m.dialect
	}
	switch strings.ToLower(strings.TrimSpace(d)) {
	case "", "sqlite", "sqlite3":
		return dialectSQLite, nil
	case "postgres", "postgresql", "pg":
		return dialectPostgres, nil
	case "mysql", "mariadb":
		return dialectMySQL, nil
	}
	return "", decline("I write SQLite, PostgreSQL and MySQL, not %s", d)
}

func (m *model) pickToday(reqToday string) time.Time {
	for _, s := range []string{reqToday, m.today} {
		if t, err := time.Parse("2006-01-02", strings.TrimSpace(s)); err == nil {
			return t
		}
	}
	now := time.Now().UTC()
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
}

// confidence is lower when a word was read as a typo, a measure was
// assumed, or there is no catalog.
func confidence(m *model, b *binder, sc scanned) float64 {
	c := 0.9
	for _, sp := range sc.spans {
		if sp.typo != "" {
			c -= 0.15
			break
		}
	}
	for _, a := range b.assume {
		if strings.HasPrefix(a, "measured by") {
			c -= 0.1
			break
		}
	}
	if !m.catalog && !m.v1 {
		c -= 0.2
	}
	return max(c, 0.3)
}

// withExample gives a decline without a hint an example question this
// database answers.
func (m *model) withExample(err error) error {
	var d *declineError
	if errors.As(err, &d) && d.hint == "" {
		d.hint = m.example()
	}
	return err
}

// example is a question the model can answer, built from its own words.
func (m *model) example() string {
	for _, t := range m.tablesSorted() {
		for _, c := range t.cols {
			if !c.additive() {
				continue
			}
			for _, a := range t.cols {
				if a.kind == "attribute" && len(a.values) > 0 {
					return fmt.Sprintf("try e.g. %s by %s", totalOf(c.phrase()), a.phrase())
				}
			}
			if t.date != nil {
				return fmt.Sprintf("try e.g. %s by month", totalOf(c.phrase()))
			}
		}
	}
	for _, t := range m.tablesSorted() {
		if !t.view {
			return fmt.Sprintf("try e.g. how many %s", t.phrase())
		}
	}
	return ""
}

// totalOf is "total <phrase>", unless the phrase already says total.
func totalOf(phrase string) string {
	if strings.HasPrefix(phrase, "total") {
		return phrase
	}
	return "total " + phrase
}

func (g *Generator) declined(spans []*span, err error) error {
	var d *declineError
	if !errors.As(err, &d) {
		d = &declineError{why: err.Error()}
	}
	msg := declinePrefix + " " + strings.TrimSuffix(d.why, ".") + "."
	if u := understood(spans); u != "" {
		msg += " I understood: " + u + "."
	}
	g.logger.Debug("builtin generator declined", "event", "sql_generation_declined", "reason", d.why)
	return &sqlgen.SQLGenerationError{Reason: sqlgen.ReasonDeclined, Message: msg, Hint: d.hint}
}

// understood summarises the recognised pieces of a question.
func understood(spans []*span) string {
	var parts []string
	for _, sp := range spans {
		switch sp.kind {
		case spTime:
			parts = append(parts, fmt.Sprintf("time %q (%s)", sp.text, sp.rng.String()))
		case spWord:
			parts = append(parts, fmt.Sprintf("%q (%s)", sp.text, describeMeanings(sp)))
		case spCmp:
			parts = append(parts, fmt.Sprintf("comparison %q", sp.text))
		}
	}
	return strings.Join(parts, ", ")
}

func describeMeanings(sp *span) string {
	var out []string
	seen := map[string]bool{}
	for _, m := range sp.ms {
		var s string
		switch m.kind {
		case mTable:
			s = "table " + m.t.name
		case mColumn:
			s = m.c.ref()
		case mDerived:
			s = "measure " + m.d.name
		case mEntity:
			s = fmt.Sprintf("%s %s", m.t.name, m.e.name)
		case mValue:
			s = fmt.Sprintf("%s = %s", m.c.ref(), m.value)
		case mAgg:
			s = m.fn
		}
		if !seen[s] && len(out) < 4 {
			seen[s] = true
			out = append(out, s)
		}
	}
	return strings.Join(out, " or ")
}

// quoteList quotes words for a decline message, keeping it readable when
// the question is long: at most maxQuoted words of at most maxQuotedLen
// characters each are echoed back.
func quoteList(ws []string) string {
	const maxQuoted, maxQuotedLen = 6, 40
	q := make([]string, 0, min(len(ws), maxQuoted)+1)
	for i, w := range ws {
		if i == maxQuoted {
			q = append(q, fmt.Sprintf("and %d more", len(ws)-maxQuoted))
			break
		}
		if r := []rune(w); len(r) > maxQuotedLen {
			w = string(r[:maxQuotedLen]) + "…"
		}
		q = append(q, fmt.Sprintf("%q", w))
	}
	return strings.Join(q, ", ")
}

// model returns the compiled model for the servers' resources. Models are
// cached by the servers' ids and resource versions (the orchestrator bumps
// a server's version on every refetch); without versions every request
// compiles.
func (g *Generator) model(servers []sqlgen.ServerContext) *model {
	key, cacheable := cacheKey(servers)
	if cacheable {
		g.mu.Lock()
		for i, e := range g.cache {
			if e.key == key {
				copy(g.cache[1:i+1], g.cache[:i])
				g.cache[0] = e
				g.mu.Unlock()
				return e.model
			}
		}
		g.mu.Unlock()
	}
	if !cacheable {
		g.compiles.Add(1)
		return compile(gather(servers))
	}
	v, _, _ := g.sf.Do(key, func() (any, error) {
		g.mu.Lock()
		for _, e := range g.cache {
			if e.key == key {
				g.mu.Unlock()
				return e.model, nil
			}
		}
		g.mu.Unlock()
		m := compile(gather(servers))
		g.compiles.Add(1)
		g.mu.Lock()
		g.cache = append([]cacheEntry{{key: key, model: m}}, g.cache...)
		if len(g.cache) > cacheSize {
			g.cache = g.cache[:cacheSize]
		}
		g.mu.Unlock()
		return m, nil
	})
	return v.(*model)
}

func cacheKey(servers []sqlgen.ServerContext) (string, bool) {
	var b strings.Builder
	for _, s := range servers {
		if s.Version == "" {
			return "", false
		}
		fmt.Fprintf(&b, "%d:%s=%d:%s;", len(s.ID), s.ID, len(s.Version), s.Version)
	}
	return b.String(), true
}

// namesNoOne declines an analyst reading that answers "who ..." without
// a name, or shows a number key of a table that has a name ("who is the
// advisor of S": the advisor's name, not their id).
func namesNoOne(toks []token, p *plan) error {
	named, saysKey := false, slices.ContainsFunc(toks, func(t token) bool { return keyWords[t.w] })
	var key *column
	for _, s := range p.sels {
		if s.e.kind != eCol {
			continue
		}
		c := s.e.col
		if c.isName() {
			named = true
		}
		if c.fk != nil && c.fk.ref.numeric && (len(c.fk.to.label) > 0 || len(c.fk.to.nameCols) > 0) && !wholeRow(p, c.t) && !saysKey {
			key = c
		}
	}
	switch {
	case key != nil:
		return decline("%s refers to %s, whose name I would have to show through it", key.ref(), key.fk.to.name)
	case len(toks) > 0 && (toks[0].w == "who" || toks[0].w == "whom") && !named:
		return decline("\"who\" asks for a person, and I found no one's name to show")
	case withTheir(toks) && p.kind != pAggregate && !showsRows(p, p.root):
		// "the T ..., with their C": the rows beside C
		return decline("\"with their\" shows the rows beside it, and I found nothing naming the rows of %s", p.root.name)
	}
	return nil
}

// kindsThere declines "what C are there?" answered with every row's C:
// the question asks for the kinds.
func kindsThere(toks []token, p *plan) error {
	n := len(toks)
	if n < 3 || !(toks[0].w == "what" || toks[0].w == "which") || toks[n-1].w != "there" || p.kind != pList || p.distinct || len(p.sels) != 1 {
		return nil
	}
	if c := p.sels[0].e.col; c != nil && !c.pk && !c.isName() {
		return decline("\"what … are there\" asks for the different %s, and I would list every row's", c.ref())
	}
	return nil
}

// everyValueListed declines a list that opens on "every <value>" (a kind
// of row of one table: "list every sauna along with its block" where
// "sauna" is a kind of room) and shows the rows of another table only.
func everyValueListed(sc scanned, p *plan) error {
	if p.kind != pList {
		return nil
	}
	for _, sp := range sc.spans {
		if sp.tok0 == 0 || !listEvery[sc.toks[sp.tok0-1].w] {
			continue
		}
		var of *table
		for _, m := range sp.ms {
			if m.kind != mValue || of != nil && m.c.t != of {
				of = nil
				break
			}
			of = m.c.t
		}
		if of == nil || of == p.root {
			return nil
		}
		for _, s := range p.sels {
			if s.e.kind == eCol && s.e.col.t == of {
				return nil
			}
		}
		return decline("%q are rows of %s, and I would list rows of %s", sp.text, of.name, p.root.name).
			withHint("ask for the %s rows whose value is %s", of.name, sp.text)
	}
	return nil
}

var listEvery = setOf("every", "all", "each")

// wholeRow: the plan shows every column of t.
func wholeRow(p *plan, t *table) bool {
	for _, c := range t.cols {
		if !selects(p, c) {
			return false
		}
	}
	return true
}

// withTheir: the question says "with their" or "and their".
func withTheir(toks []token) bool {
	for i := 0; i+1 < len(toks); i++ {
		if (toks[i].w == "with" || toks[i].w == "and") && (toks[i+1].w == "their" || toks[i+1].w == "its") {
			return true
		}
	}
	return false
}

// showsRows: the plan shows t's name, its key or every column.
func showsRows(p *plan, t *table) bool {
	if wholeRow(p, t) {
		return true
	}
	for _, s := range p.sels {
		if s.e.kind == eCol && s.e.col.t == t && (s.e.col.pk || s.e.col.isName()) {
			return true
		}
	}
	return false
}

// countUnasked declines an analyst reading that counts rows for each of
// something when no word of the question asks for a number ("each T's
// name with the name of their U" is not how many U each T has).
func countUnasked(toks []token, p *plan) error {
	counts := false
	for _, s := range p.sels {
		counts = counts || s.e.kind == eCountAll || s.e.kind == eAgg && s.e.fn == "COUNT"
	}
	if !counts {
		return nil
	}
	each := false
	which := len(toks) > 0 && toks[0].w == "which" // "which T are served by …": rows, not a count per group
	for _, t := range toks {
		if countWords[t.w] || t.w == "per" || t.w == "by" && !which {
			return nil // "tickets per venue": the analyst's count
		}
		each = each || t.w == "each" || t.w == "every"
	}
	if !each && !which {
		return nil // "bookings last week": the analyst's count
	}
	return decline("I would count rows for each, but the question asks for no number")
}

// countWords ask for a number of rows.
var countWords = setOf("many", "number", "numbers", "count", "counts", "counted", "counting", "total", "totals", "tally", "often", "frequency", "most", "fewest", "least", "more", "fewer", "size", "sizes", "busiest", "popular", "common", "amount")
