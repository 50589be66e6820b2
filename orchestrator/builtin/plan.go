package builtin

import (
	"fmt"
	"strings"
	"time"
)

// declineError carries what the planner did and did not understand.
type declineError struct{ why string }

func (e *declineError) Error() string { return e.why }

func decline(format string, args ...any) *declineError {
	return &declineError{why: fmt.Sprintf(format, args...)}
}

// measure is one aggregated value.
type measure struct {
	fn       string // SUM, COUNT, AVG, MAX, MIN
	col      *column
	distinct bool   // COUNT(DISTINCT col)
	star     bool   // COUNT(*) / COUNT(DISTINCT pk) of the base table
	phrase   string // what the user called it
	alias    string
}

// dim is one grouping expression.
type dim struct {
	col   *column
	grain string // day|week|month|quarter|year over col
	alias string
}

// filter is one WHERE condition on a column.
type filter struct {
	col    *column
	values []string
	quote  bool
	neg    bool
	what   string // for the explanation
}

// query is the interpreted question.
type query struct {
	base         *table
	measures     []*measure
	dims         []*dim
	filters      []*filter
	window       *timeWindow
	dateCol      *column
	rankDir      int // 1 highest first, -1 lowest first
	limit        int
	listing      bool
	listCols     []*column
	distinctList bool
	recency      int
	entities     map[string]map[string]string
	notes        []string
	confidence   float64
}

// interpret turns the spans into a query or declines.
func (m *model) interpret(spans []*span, today time.Time) (*query, error) {
	q := &query{entities: map[string]map[string]string{}, confidence: 0.9}
	var (
		write, compare, listVerb, which, howMuch, sell, trend bool
		rankDir, recency, rankN                               int
		rankSpan, rankTarget, whichTarget, countTarget        *span
		grain                                                 string
		windows                                               []*timeWindow
		prods                                                 []*product
		valueSpans                                            []*span
		negSpans                                              = map[*span]bool{}
		groupSpans                                            []*span
		aggs                                                  []*span
		rankBy                                                []*span
	)
	n := len(spans)
	at := func(k int) *span {
		if k >= 0 && k < n {
			return spans[k]
		}
		return nil
	}
	// labels: a noun next to a value or product that names its column or table
	for k, sp := range spans {
		if sp.kind != spValue && sp.kind != spProduct {
			continue
		}
		for _, nb := range []*span{at(k + 1), at(k - 1)} {
			if nb == nil || !nb.isNoun() || nb.labelOf != nil {
				continue
			}
			if labels(nb, sp) {
				sp.label, nb.labelOf = nb, sp
				break
			}
		}
	}
	for k, sp := range spans {
		switch sp.kind {
		case spTime:
			windows = append(windows, sp.tw)
			sp.used = true
		case spProduct:
			if sp.ambiguousProduct {
				return nil, decline("%q names more than one product", sp.text)
			}
			if !containsProduct(prods, sp.prod) {
				prods = append(prods, sp.prod)
			}
			sp.used = true
		case spValue:
			valueSpans = append(valueSpans, sp)
			sp.used = true
		case spAgg:
			aggs = append(aggs, sp)
			sp.used = true
		case spNum:
			// claimed by a rank, recency or "last N" word next to it
			if nx := at(k + 1); nx != nil && nx.kind == spKw && (nx.kw == kwRankDesc || nx.kw == kwRankAsc || nx.kw == kwRecentDesc || nx.kw == kwRecentAsc) {
				rankN, sp.used = sp.num, true
			}
		}
		if sp.kind == spNoun && sp.agg != nil && sp.kw == kwNone {
			aggs = append(aggs, sp)
		}
		if sp.kind != spKw && !(sp.kind == spAgg && sp.kw != kwNone) {
			continue
		}
		switch sp.kw {
		case kwWrite:
			write = true
			sp.used = true
		case kwGroup:
			sp.used = true
			tgt := at(k + 1)
			if sp.text == "wise" {
				tgt = at(k - 1)
			}
			switch {
			case tgt == nil:
				return nil, decline("%q is not followed by what to group by", sp.text)
			case tgt.kind == spKw && tgt.kw == kwGrain:
				grain, tgt.used = grainOf(tgt.text), true
			case tgt.isNoun() && measureCol(tgt) != nil:
				// "top 5 products by revenue": ranked by a measure, not grouped
				rankBy = append(rankBy, tgt)
			case tgt.isNoun():
				groupSpans = append(groupSpans, tgt)
				tgt.used = true
			default:
				return nil, decline("I don't know how to group by %q", tgt.text)
			}
		case kwGrain:
			if !sp.used && (strings.HasSuffix(sp.text, "ly") || strings.HasPrefix(sp.text, "annual")) {
				grain, sp.used = grainOf(sp.text), true
			}
		case kwTrend:
			trend, sp.used = true, true
		case kwRankDesc, kwRankAsc:
			rankDir = 1
			if sp.kw == kwRankAsc {
				rankDir = -1
			}
			rankSpan, sp.used = sp, true
			k2 := k + 1
			if nx := at(k2); nx != nil && nx.kind == spNum {
				rankN, nx.used = nx.num, true
				k2++
			}
			if nx := at(k2); nx != nil && nx.kind == spKw && nx.kw == kwSell {
				sell, nx.used = true, true
				k2++
			}
			for at(k2) != nil && at(k2).kind == spValue {
				k2++ // "top 3 audio products"
			}
			if nx := at(k2); nx != nil && nx.isNoun() && (nx.labelOf == nil || len(nx.tables) > 0) && isDimNoun(nx) {
				rankTarget = nx
			}
		case kwSell:
			sell, sp.used = true, true
		case kwList:
			listVerb, sp.used = true, true
		case kwWhich:
			which, sp.used = true, true
			if nx := at(k + 1); nx != nil && nx.isNoun() && measureCol(nx) == nil {
				whichTarget = nx
			}
		case kwRecentDesc, kwRecentAsc:
			recency = 1
			if sp.kw == kwRecentAsc {
				recency = -1
			}
			sp.used = true
			if nx := at(k + 1); nx != nil && nx.kind == spNum {
				rankN, nx.used = nx.num, true
			}
		case kwLast:
			nx := at(k + 1)
			if nx != nil && nx.kind == spNum {
				if nn := at(k + 2); nn != nil && nn.isNoun() {
					recency, rankN, nx.used, sp.used = 1, nx.num, true, true
				}
			} else if nx != nil && nx.isNoun() {
				recency, sp.used = 1, true
			}
		case kwCompare:
			compare, sp.used = true, true
		case kwNeg:
			sp.used = true
			for j := k + 1; j < n && spans[j].kind == spValue; j++ {
				negSpans[spans[j]] = true
			}
		case kwHowMuch:
			howMuch, sp.used = true, true
		}
	}
	if write {
		return nil, decline("this is a read-only assistant: it never changes data")
	}
	if len(windows) > 1 {
		return nil, decline("two time windows (%q and %q); ask one at a time", windows[0].phrase, windows[1].phrase)
	}
	if len(windows) == 1 {
		q.window = windows[0]
	}
	if trend && grain == "" {
		grain = "month"
	}

	// aggregation words
	var fn string
	var rankFn string
	if rankSpan != nil && rankSpan.agg != nil {
		rankFn = rankSpan.agg.fn
	}
	for k, sp := range spans {
		if sp.agg == nil || sp == rankSpan || (sp.kind == spNoun && sp.kw != kwNone) {
			continue
		}
		f := sp.agg.fn
		if f == "COUNT" {
			for j := k + 1; j < n; j++ {
				if spans[j].kind == spValue || spans[j].kind == spProduct {
					continue
				}
				if spans[j].isNoun() {
					countTarget = spans[j]
					spans[j].used = true
				}
				break
			}
		}
		if fn != "" && fn != f {
			return nil, decline("two different aggregations (%s and %s)", fn, f)
		}
		fn = f
		q.entities[sp.text] = map[string]string{"function": f}
	}

	// nouns
	var measureSpans, entitySpans, bareDims, dateNouns []*span
	listingCtx := listVerb || recency != 0
	for _, sp := range spans {
		if !sp.isNoun() || sp.used {
			continue
		}
		if sp == rankTarget || sp == whichTarget {
			continue
		}
		if sp.labelOf != nil && len(sp.tables) == 0 {
			sp.used = true
			continue
		}
		mc := measureCol(sp)
		switch {
		case len(sp.tables) > 0 && (listingCtx || (which && mc == nil)):
			entitySpans = append(entitySpans, sp)
		case mc != nil && !(listingCtx && len(sp.tables) > 0):
			measureSpans = append(measureSpans, sp)
		case len(sp.tables) > 0 || isEntityTerm(sp):
			entitySpans = append(entitySpans, sp)
		case dateCol(sp) != nil:
			dateNouns = append(dateNouns, sp)
		default:
			bareDims = append(bareDims, sp)
		}
		sp.used = true
	}
	// a rank word without its own target can rank a lone bare dimension
	if rankDir != 0 && rankTarget == nil && len(bareDims) == 1 && len(groupSpans) == 0 {
		rankTarget, bareDims = bareDims[0], nil
	}
	if rankTarget == nil && whichTarget != nil && (len(measureSpans) > 0 || fn != "" || sell) && isDimNoun(whichTarget) {
		rankTarget = whichTarget
		if rankDir == 0 {
			// "which region has revenue" without highest/lowest: a grouping, not a ranking
			groupSpans = append(groupSpans, whichTarget)
			rankTarget = nil
		}
	} else if whichTarget != nil && whichTarget != rankTarget {
		if len(whichTarget.tables) > 0 || isEntityTerm(whichTarget) {
			entitySpans = append(entitySpans, whichTarget)
		} else {
			bareDims = append(bareDims, whichTarget)
		}
	}
	// "list categories", "what regions are there": the distinct values of one column
	if len(bareDims) == 1 && len(measureSpans) == 0 && len(entitySpans) == 0 && countTarget == nil && fn == "" &&
		rankDir == 0 && len(groupSpans) == 0 && grain == "" && (listVerb || which) {
		return m.distinctListing(q, bareDims[0], valueSpans, negSpans, windows)
	}
	if len(bareDims) > 0 {
		return nil, decline("I don't know what to do with %q here", bareDims[0].text)
	}
	if len(dateNouns) > 0 && q.window == nil {
		return nil, decline("%q without a time window", dateNouns[0].text)
	}
	if len(dateNouns) > 1 {
		return nil, decline("two date columns (%q and %q)", dateNouns[0].text, dateNouns[1].text)
	}
	if len(dateNouns) == 1 {
		q.dateCol = dateCol(dateNouns[0])
		q.entities[dateNouns[0].text] = map[string]string{"column": q.dateCol.ref()}
	}
	for _, sp := range spans {
		if sp.kind == spNum && !sp.used {
			return nil, decline("I don't know what the number %s refers to", sp.text)
		}
		if sp.kind == spKw && !sp.used && sp.kw != kwGrain {
			return nil, decline("I don't know what %q refers to here", sp.text)
		}
		if sp.kind == spKw && !sp.used {
			return nil, decline("%q needs \"by\" or \"per\" (e.g. \"by %s\")", sp.text, sp.text)
		}
	}

	if len(rankBy) > 0 && rankDir == 0 {
		return nil, decline("\"by %s\" groups by a number; did you mean \"top 10 ... by %s\"?", rankBy[0].text, rankBy[0].text)
	}
	// "orders by month": a count of the one entity named
	if countTarget == nil && len(measureSpans) == 0 && fn == "" && !howMuch && (len(groupSpans) > 0 || grain != "") && len(entitySpans) == 1 {
		countTarget, entitySpans = entitySpans[0], nil
	}
	aggregate := len(measureSpans) > 0 || countTarget != nil || fn != "" || howMuch || rankTarget != nil || (sell && rankDir != 0) ||
		(compare && len(entitySpans) == 0 && (len(prods) > 1 || len(valueSpans) > 1))
	if !aggregate && rankDir != 0 && rankFn != "" && len(measureSpans) == 0 {
		aggregate = false
	}
	if aggregate {
		if err := m.buildAggregate(q, aggSpec{
			fn: fn, rankFn: rankFn, measureSpans: measureSpans, countTarget: countTarget,
			howMuch: howMuch, sell: sell, compare: compare, rankDir: rankDir, rankN: rankN, rankTarget: rankTarget,
			entitySpans: entitySpans, groupSpans: groupSpans, grain: grain,
		}); err != nil {
			return nil, err
		}
	} else {
		if len(entitySpans) == 0 {
			return nil, decline("I could not find what to compute or list")
		}
		if rankDir != 0 {
			return nil, decline("%q: ranked by what measure?", rankSpan.text)
		}
		if err := m.buildListing(q, entitySpans, recency, rankN); err != nil {
			return nil, err
		}
		if len(groupSpans) > 0 || grain != "" {
			return nil, decline("grouping a listing needs a measure (e.g. \"count of ... by ...\")")
		}
	}

	// filters
	if err := m.addProductFilters(q, prods, compare, spans); err != nil {
		return nil, err
	}
	if err := m.addValueFilters(q, valueSpans, negSpans, compare); err != nil {
		return nil, err
	}
	if compare && len(prods) < 2 && !hasMultiValue(q) {
		return nil, decline("compare what with what? name two products or two values")
	}
	if q.window != nil {
		if err := m.pickDateColumn(q); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// labels reports whether noun names the column or table of a value or product span.
func labels(noun, sp *span) bool {
	if measureCol(noun) != nil {
		return false
	}
	if sp.kind == spProduct {
		t := sp.prod.idCol.table
		for _, tb := range noun.tables {
			if tb == t {
				return true
			}
		}
		for _, e := range noun.terms {
			if e.col.table == t && !e.col.isMeasure() {
				return true
			}
		}
		return false
	}
	for _, v := range sp.values {
		for _, e := range noun.terms {
			if e.col == v.col || strings.EqualFold(e.col.name, v.col.name) {
				return true
			}
		}
		for _, tb := range noun.tables {
			if tb == v.col.table {
				return true
			}
		}
	}
	return false
}

func containsProduct(ps []*product, p *product) bool {
	for _, x := range ps {
		if x == p {
			return true
		}
	}
	return false
}

func grainOf(w string) string {
	switch {
	case strings.HasPrefix(w, "da"):
		return "day"
	case strings.HasPrefix(w, "week"):
		return "week"
	case strings.HasPrefix(w, "month"):
		return "month"
	case strings.HasPrefix(w, "quarter"):
		return "quarter"
	}
	return "year"
}

// measureCol is the first summable column a noun names.
func measureCol(sp *span) *column {
	for _, e := range sp.terms {
		if e.col.isMeasure() {
			return e.col
		}
	}
	return nil
}

func dateCol(sp *span) *column {
	for _, e := range sp.terms {
		if e.col.dateLike {
			return e.col
		}
	}
	return nil
}

// isEntityTerm: a term naming a table's key (e.g. "order" → orders.order_id).
func isEntityTerm(sp *span) bool {
	for _, e := range sp.terms {
		if e.col.pk {
			return true
		}
	}
	return false
}

func isDimNoun(sp *span) bool {
	if measureCol(sp) != nil {
		return false
	}
	for _, e := range sp.terms {
		if !e.col.isMeasure() {
			return true
		}
	}
	for _, t := range sp.tables {
		if t.nameCol != nil || t.pk != nil {
			return true
		}
	}
	return false
}

type aggSpec struct {
	fn, rankFn              string
	measureSpans            []*span
	countTarget             *span
	howMuch, sell, compare  bool
	rankDir, rankN          int
	rankTarget              *span
	entitySpans, groupSpans []*span
	grain                   string
}

func (m *model) buildAggregate(q *query, a aggSpec) error {
	fn := a.fn
	ranking := a.rankDir != 0 && (a.rankTarget != nil || (len(a.groupSpans) > 0 && a.rankFn == "") || (len(a.groupSpans) > 0 && a.rankN > 0))
	if a.rankDir != 0 && !ranking {
		if a.rankFn == "" {
			return decline("%s what? say e.g. \"top 5 <things> by <measure>\"", map[int]string{1: "highest", -1: "lowest"}[a.rankDir])
		}
		if fn != "" && fn != a.rankFn {
			return decline("two different aggregations (%s and %s)", fn, a.rankFn)
		}
		fn = a.rankFn
	}
	// the measures
	switch {
	case a.countTarget != nil:
		mc := measureCol(a.countTarget)
		switch {
		case len(a.countTarget.tables) > 0 || isEntityTerm(a.countTarget):
			t := entityTable(a.countTarget)
			q.base = t
			q.measures = append(q.measures, &measure{fn: "COUNT", star: true, phrase: a.countTarget.text, alias: "number_of_" + aliasWord(t.name)})
			q.entities[a.countTarget.text] = map[string]string{"table": t.name}
		case mc != nil:
			q.measures = append(q.measures, &measure{fn: "SUM", col: mc, phrase: a.countTarget.text, alias: "total_" + aliasWord(termPhrase(a.countTarget, mc))})
			q.entities[a.countTarget.text] = map[string]string{"column": mc.ref()}
		default:
			c := a.countTarget.terms[0].col
			q.measures = append(q.measures, &measure{fn: "COUNT", col: c, distinct: true, phrase: a.countTarget.text, alias: "number_of_" + aliasWord(a.countTarget.terms[0].phrase)})
			q.entities[a.countTarget.text] = map[string]string{"column": c.ref()}
		}
		if fn != "COUNT" && fn != "" {
			return decline("%s and a count in one question", fn)
		}
		fn = ""
		if len(a.measureSpans) > 0 {
			return decline("a count and %q in one question; ask one at a time", a.measureSpans[0].text)
		}
	case len(a.measureSpans) > 0:
		for _, sp := range a.measureSpans {
			c := measureCol(sp)
			q.measures = append(q.measures, &measure{col: c, phrase: termPhrase(sp, c)})
			q.entities[sp.text] = map[string]string{"column": c.ref()}
		}
	case a.sell || (a.howMuch && a.sell):
		if m.soldTerm == nil {
			return decline("I don't know which measure counts what is sold")
		}
		q.measures = append(q.measures, &measure{col: m.soldTerm.col, phrase: m.soldTerm.phrase})
		q.entities[m.soldTerm.phrase] = map[string]string{"column": m.soldTerm.col.ref()}
	case (ranking || a.compare) && m.primary != nil:
		q.measures = append(q.measures, &measure{col: m.primary, phrase: m.primaryTerm})
		q.notes = append(q.notes, fmt.Sprintf("no measure was named, so it ranks by %s", m.primaryTerm))
		q.confidence = 0.7
	case ranking:
		return decline("ranked by what measure?")
	default:
		return decline("I could not tell which measure to compute")
	}
	if fn == "COUNT" {
		// "count of revenue" is not meaningful; "how many units" means their total
		for _, ms := range q.measures {
			if ms.fn == "" {
				ms.fn = "SUM"
			}
		}
		fn = ""
	}
	for _, ms := range q.measures {
		if ms.fn == "" {
			ms.fn = fn
			if ms.fn == "" {
				ms.fn = "SUM"
			}
		}
		if ms.col != nil {
			switch ms.fn {
			case "SUM", "AVG":
				if !ms.col.isMeasure() {
					return decline("%s of %q is not meaningful", strings.ToLower(ms.fn), ms.phrase)
				}
			case "MAX", "MIN":
				if ms.col.pk || ms.col.isKeyLike() {
					return decline("%s of %q is not meaningful", strings.ToLower(ms.fn), ms.phrase)
				}
			}
			if q.base == nil {
				q.base = ms.col.table
			} else if q.base != ms.col.table {
				return decline("measures from two tables (%s and %s)", q.base.name, ms.col.table.name)
			}
		}
		if ms.alias == "" {
			ms.alias = measureAlias(ms.fn, ms.phrase)
		}
	}
	// groups
	if a.rankTarget != nil {
		a.groupSpans = append([]*span{a.rankTarget}, a.groupSpans...)
	}
	for _, sp := range a.groupSpans {
		d, err := m.dimFor(q, sp)
		if err != nil {
			return err
		}
		q.dims = append(q.dims, d)
	}
	if a.grain != "" {
		dc := q.dateCol
		if dc == nil {
			dc = m.dateColumnFor(q)
		}
		if dc == nil {
			return decline("no date column to group by %s", a.grain)
		}
		q.dims = append(q.dims, &dim{col: dc, grain: a.grain, alias: a.grain})
	}
	for _, d := range q.dims {
		if q.measures[0].fn == "AVG" && d.grain == "" && (d.col.pk || d.col == d.col.table.nameCol) && d.col.table != q.base {
			return decline("\"average ... per %s\" is ambiguous (average of lines, or of %s totals?)", d.col.table.name, d.col.table.name)
		}
		// "average revenue per order" grouped by the base table's foreign key
		// (sales.order_id) would list each order's average line, not the
		// average order: the same ambiguity.
		if q.measures[0].fn == "AVG" && d.grain == "" && d.col.isKeyLike() {
			name := d.col.name
			for _, e := range d.col.table.edges {
				if e.from == d.col && e.manyToOne {
					name = e.other.name
				}
			}
			return decline("\"average ... per %s\" is ambiguous (average of lines, or of %s totals?)", name, name)
		}
	}
	if ranking {
		q.rankDir = a.rankDir
		q.limit = a.rankN
		if q.limit == 0 {
			q.limit = 1
			if a.rankTarget != nil && a.rankTarget.plural {
				q.limit = 10
			}
		}
	}
	// entity nouns are context ("revenue from customers"): they must be reachable
	for _, sp := range a.entitySpans {
		t := entityTable(sp)
		if t == nil {
			return decline("I don't know what to do with %q here", sp.text)
		}
		if q.base != nil && t != q.base && m.path(q.base, t) == nil {
			return decline("%q is not related to %s", sp.text, q.base.name)
		}
	}
	return nil
}

func termPhrase(sp *span, c *column) string {
	for _, e := range sp.terms {
		if e.col == c {
			return e.phrase
		}
	}
	return sp.text
}

func entityTable(sp *span) *table {
	if len(sp.tables) > 0 {
		return sp.tables[0]
	}
	for _, e := range sp.terms {
		if e.col.pk {
			return e.col.table
		}
	}
	return nil
}

// dimFor turns a noun into a grouping column.
func (m *model) dimFor(q *query, sp *span) (*dim, error) {
	for _, e := range sp.terms {
		c := e.col
		if c.isMeasure() {
			continue
		}
		// a one-word term ("region") means the base table's own column when it has one
		if q.base != nil && c.table != q.base && len(e.toks) == 1 {
			if bc := q.base.byName[strings.ToLower(c.name)]; bc != nil {
				c = bc
			}
		}
		q.entities[sp.text] = map[string]string{"column": c.ref()}
		return &dim{col: c, alias: c.name}, nil
	}
	for _, t := range sp.tables {
		c := t.nameCol
		if c == nil {
			c = t.pk
		}
		if c != nil {
			q.entities[sp.text] = map[string]string{"column": c.ref()}
			return &dim{col: c, alias: c.name}, nil
		}
	}
	return nil, decline("I can't group by %q", sp.text)
}

func (m *model) buildListing(q *query, entitySpans []*span, recency, n int) error {
	var target *table
	for _, sp := range entitySpans {
		t := entityTable(sp)
		if t == nil {
			return decline("I don't know how to list %q", sp.text)
		}
		if target != nil && t != target {
			return decline("list %s or %s?", target.name, t.name)
		}
		target = t
		q.entities[sp.text] = map[string]string{"table": t.name}
	}
	q.base, q.listing, q.recency = target, true, recency
	q.listCols = target.cols
	q.limit = n
	if q.limit == 0 {
		q.limit = 100
		if recency != 0 && !entitySpans[0].plural {
			q.limit = 1
		}
	}
	if recency != 0 && target.dateCol == nil {
		return decline("%s has no date column to sort by", target.name)
	}
	return nil
}

func (m *model) addProductFilters(q *query, prods []*product, compare bool, spans []*span) error {
	if len(prods) == 0 {
		return nil
	}
	byCol := map[*column]*filter{}
	var order []*column
	for _, p := range prods {
		f := byCol[p.idCol]
		if f == nil {
			f = &filter{col: p.idCol, quote: p.idQuote}
			byCol[p.idCol] = f
			order = append(order, p.idCol)
		}
		f.values = append(f.values, p.idValue)
	}
	for _, c := range order {
		f := byCol[c]
		var names []string
		for _, p := range prods {
			if p.idCol == c {
				names = append(names, p.name)
			}
		}
		f.what = "product " + strings.Join(names, ", ")
		q.filters = append(q.filters, f)
	}
	for _, sp := range spans {
		if sp.kind == spProduct {
			refs := make(map[string]string, len(sp.prod.refs))
			for k, v := range sp.prod.refs {
				refs[k] = v
			}
			q.entities[sp.text] = refs
			if sp.fuzzy {
				q.notes = append(q.notes, fmt.Sprintf("read %q as %q", sp.text, sp.prod.key))
				q.confidence = min(q.confidence, 0.8)
			}
		}
	}
	if len(prods) > 1 && !q.listing {
		nc := prods[0].nameCol
		if nc == nil {
			nc = prods[0].idCol
		}
		if !hasDim(q, nc) {
			q.dims = append([]*dim{{col: nc, alias: nc.name}}, q.dims...)
		}
	}
	return nil
}

func hasDim(q *query, c *column) bool {
	for _, d := range q.dims {
		if d.col == c && d.grain == "" {
			return true
		}
	}
	return false
}

func hasMultiValue(q *query) bool {
	for _, f := range q.filters {
		if len(f.values) > 1 && !f.neg {
			return true
		}
	}
	return false
}

// addValueFilters picks the column of each literal and builds filters.
func (m *model) addValueFilters(q *query, spans []*span, neg map[*span]bool, compare bool) error {
	type key struct {
		col *column
		neg bool
	}
	byKey := map[key]*filter{}
	var order []key
	for _, sp := range spans {
		v, err := m.pickValueColumn(q, sp)
		if err != nil {
			return err
		}
		k := key{v.col, neg[sp]}
		f := byKey[k]
		if f == nil {
			f = &filter{col: v.col, quote: true, neg: neg[sp]}
			byKey[k] = f
			order = append(order, k)
		}
		if !containsString(f.values, v.val) {
			f.values = append(f.values, v.val)
		}
		q.entities[sp.text] = map[string]string{v.col.ref(): v.val}
		if sp.fuzzy {
			q.notes = append(q.notes, fmt.Sprintf("read %q as %q", sp.text, v.val))
			q.confidence = min(q.confidence, 0.8)
		}
	}
	for _, k := range order {
		f := byKey[k]
		f.what = k.col.ref()
		q.filters = append(q.filters, f)
		if len(f.values) > 1 && !f.neg && !q.listing && !hasDim(q, f.col) {
			q.dims = append(q.dims, &dim{col: f.col, alias: f.col.name})
		}
	}
	return nil
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func (m *model) pickValueColumn(q *query, sp *span) (valueRef, error) {
	cands := sp.values
	if len(cands) == 1 {
		return cands[0], nil
	}
	pick := func(ok func(valueRef) bool) (valueRef, bool) {
		var found []valueRef
		for _, v := range cands {
			if ok(v) {
				found = append(found, v)
			}
		}
		if len(found) == 1 {
			return found[0], true
		}
		return valueRef{}, false
	}
	if lb := sp.label; lb != nil {
		if v, ok := pick(func(v valueRef) bool {
			for _, t := range lb.tables {
				if t == v.col.table {
					return true
				}
			}
			for _, e := range lb.terms {
				if e.col == v.col && len(e.toks) > 1 {
					return true
				}
			}
			return false
		}); ok {
			return v, nil
		}
	}
	if q.base != nil {
		if v, ok := pick(func(v valueRef) bool { return v.col.table == q.base }); ok {
			return v, nil
		}
	}
	if lb := sp.label; lb != nil {
		if v, ok := pick(func(v valueRef) bool {
			for _, e := range lb.terms {
				if e.col == v.col {
					return true
				}
			}
			return false
		}); ok {
			return v, nil
		}
	}
	used := map[*table]bool{}
	for _, d := range q.dims {
		used[d.col.table] = true
	}
	for _, f := range q.filters {
		used[f.col.table] = true
	}
	if v, ok := pick(func(v valueRef) bool { return used[v.col.table] }); ok {
		return v, nil
	}
	var where []string
	for _, v := range cands {
		where = append(where, v.col.ref())
	}
	return valueRef{}, decline("%q appears in %s; say which (e.g. %q)", sp.text, strings.Join(where, " and "), cands[0].col.name+" "+sp.text)
}

// pickDateColumn chooses the column the time window applies to.
func (m *model) pickDateColumn(q *query) error {
	if q.dateCol == nil {
		q.dateCol = m.dateColumnFor(q)
	}
	if q.dateCol == nil {
		return decline("no date column for %q", q.window.phrase)
	}
	q.entities[q.window.phrase] = map[string]string{"expression": strings.ReplaceAll(q.window.expr, "{date_column}", q.dateCol.qualified())}
	return nil
}

// dateColumnFor: the base table's main date, unless the question reaches a
// "many" side table that has one (customers who bought X last month), or the
// base has none.
func (m *model) dateColumnFor(q *query) *column {
	if q.dateCol != nil {
		return q.dateCol
	}
	needed := m.neededTables(q)
	var fanDate *column
	for _, t := range needed {
		for _, e := range m.path(q.base, t) {
			if !e.manyToOne && e.other.dateCol != nil && fanDate == nil {
				fanDate = e.other.dateCol
			}
		}
	}
	if fanDate != nil {
		return fanDate
	}
	if q.base.dateCol != nil {
		return q.base.dateCol
	}
	// nearest table with a date
	seen := map[*table]bool{q.base: true}
	frontier := []*table{q.base}
	for len(frontier) > 0 {
		var next []*table
		var found []*column
		for _, t := range frontier {
			for _, e := range t.edges {
				if seen[e.other] {
					continue
				}
				seen[e.other] = true
				if e.other.dateCol != nil {
					found = append(found, e.other.dateCol)
				}
				next = append(next, e.other)
			}
		}
		if len(found) == 1 {
			return found[0]
		}
		if len(found) > 1 {
			return nil
		}
		frontier = next
	}
	return nil
}

func (m *model) neededTables(q *query) []*table {
	var ts []*table
	add := func(t *table) {
		for _, x := range ts {
			if x == t {
				return
			}
		}
		ts = append(ts, t)
	}
	for _, d := range q.dims {
		add(d.col.table)
	}
	for _, f := range q.filters {
		add(f.col.table)
	}
	for _, ms := range q.measures {
		if ms.col != nil {
			add(ms.col.table)
		}
	}
	if q.dateCol != nil {
		add(q.dateCol.table)
	}
	return ts
}

// path is the shortest FK path from a to b (many-to-one edges tried first).
func (m *model) path(a, b *table) []*edge {
	if a == b {
		return []*edge{}
	}
	prev := map[*table]*edge{a: nil}
	frontier := []*table{a}
	for len(frontier) > 0 {
		var next []*table
		for _, t := range frontier {
			for pass := 0; pass < 2; pass++ {
				for _, e := range t.edges {
					if e.manyToOne != (pass == 0) {
						continue
					}
					if _, ok := prev[e.other]; ok {
						continue
					}
					prev[e.other] = e
					if e.other == b {
						var p []*edge
						for x := b; x != a; {
							pe := prev[x]
							p = append([]*edge{pe}, p...)
							x = pe.from.table
						}
						return p
					}
					next = append(next, e.other)
				}
			}
		}
		frontier = next
	}
	return nil
}

func aliasWord(s string) string {
	var b strings.Builder
	us := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			us = false
		} else if !us && b.Len() > 0 {
			b.WriteByte('_')
			us = true
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}

func measureAlias(fn, phrase string) string {
	w := aliasWord(phrase)
	switch fn {
	case "SUM":
		if strings.HasPrefix(w, "total") {
			return w
		}
		return "total_" + w
	case "AVG":
		return "avg_" + w
	case "MAX":
		return "max_" + w
	case "MIN":
		return "min_" + w
	}
	return "count_" + w
}

// distinctListing lists the distinct values of one column.
func (m *model) distinctListing(q *query, sp *span, values []*span, neg map[*span]bool, windows []*timeWindow) (*query, error) {
	if len(values) > 0 || len(windows) > 0 {
		return nil, decline("filters on a list of %s are not supported offline", sp.text)
	}
	c := sp.terms[0].col
	q.base, q.listing, q.distinctList = c.table, true, true
	q.listCols = []*column{c}
	q.limit = 100
	q.entities[sp.text] = map[string]string{"column": c.ref()}
	return q, nil
}
