package sqlgen

import (
	"maps"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search/query"

	"talk2tables/catalog"
	"talk2tables/sqlerr"
)

// Selection tuning. A seed is a table the question points at directly; the
// selection adds the tables joining the seeds, the tables each seed
// references, then the next best tables while the budget lasts.
const (
	seedRatio = 0.35 // a table scoring at least this share of the best is a seed
	maxSeeds  = 8
	// maxJoinHops bounds the foreign-key path searched to join a table to
	// the tables already chosen.
	maxJoinHops = 3
	// maxEntityOwners: a name of a thing found in the question pins its
	// table when at most this many tables have a value of that name.
	maxEntityOwners = 3
	// widenShare of the room goes to the compact list of further tables in
	// the repair of a missing table or column.
	widenShare = 4 // 1/4
	// errorTables: tables the error of a failed attempt points at, added
	// to its repair prompt.
	errorTables = 3
	noteRoom    = 480 // characters kept for the selection note
	// valueBoost multiplies the score of a table having a value the
	// question names.
	valueBoost = 1.5
)

// Index field boosts: a table's own name and catalog words weigh most.
var fieldBoosts = []struct {
	field string
	boost float64
}{{"name", 3}, {"columns", 1}, {"values", 1}, {"text", 0.5}}

// ranker scores tables and resources against questions: a bleve index of
// their words (standard analyzer: lowercase and English stop words, over
// words already split from identifiers and made singular) and an index of
// the catalog's entity names.
type ranker struct {
	index   bleve.Index        // nil when it could not be built
	phrases map[string][]named // first word → entity names starting with it
	units   map[string][]int   // lowercase table name → units
	// tableWords are the words of every table's document; resWords the
	// words of each optional resource's.
	tableWords map[string]bool
	resWords   []map[string]bool
}

// named is one entity name (or alias) of one value of one set.
type named struct {
	words      []string
	set, value int
}

// ranker builds the layout's ranker once.
func (l *layout) ranker() *ranker {
	l.once.Do(func() { l.rank = newRanker(l) })
	return l.rank
}

func newRanker(l *layout) *ranker {
	rk := &ranker{phrases: map[string][]named{}, units: map[string][]int{}, tableWords: map[string]bool{}}
	for i, u := range l.units {
		key := strings.ToLower(u.name)
		rk.units[key] = append(rk.units[key], i)
		for _, f := range []string{u.doc.Name, u.doc.Columns, u.doc.Values, u.doc.Text} {
			for _, w := range strings.Fields(f) {
				rk.tableWords[w] = true
			}
		}
	}
	for _, r := range l.resources {
		ws := map[string]bool{}
		for _, w := range strings.Fields(r.doc.Name + " " + r.doc.Text) {
			ws[w] = true
		}
		rk.resWords = append(rk.resWords, ws)
	}
	for si, s := range l.sets {
		for vi, names := range s.names {
			for _, w := range names {
				if len(w) == 0 || (len(w) == 1 && weakWord(w[0])) {
					continue
				}
				rk.phrases[w[0]] = append(rk.phrases[w[0]], named{words: w, set: si, value: vi})
			}
		}
	}
	m := bleve.NewIndexMapping()
	m.DefaultAnalyzer = standard.Name
	idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return rk
	}
	batch := idx.NewBatch()
	for i, u := range l.units {
		if err := batch.Index("u"+strconv.Itoa(i), u.doc); err != nil {
			_ = idx.Close()
			return rk
		}
	}
	for i, r := range l.resources {
		if err := batch.Index("r"+strconv.Itoa(i), r.doc); err != nil {
			_ = idx.Close()
			return rk
		}
	}
	if err := idx.Batch(batch); err != nil {
		_ = idx.Close()
		return rk
	}
	rk.index = idx
	// The index runs goroutines until it is closed: close it when the
	// rendering it serves is no longer used.
	runtime.AddCleanup(l, func(i bleve.Index) { _ = i.Close() }, idx)
	return rk
}

// hit is a scored table or resource.
type hit struct {
	id    int
	score float64
}

// rankQuery is one question's ranking.
type rankQuery struct {
	units     []hit     // tables by score, best first (score > 0)
	top       float64   // the best table score
	resScores []float64 // per optional resource
	resNamed  []bool    // per optional resource: it has a word of the question no table has
	matched   map[int]map[int]bool
	pinned    []int // tables the question names rows of (a keyed entity)
	widen     bool  // a repair of a missing table or column
	widened   []int // tables its failed SQL and error point at
}

// query ranks the layout's tables and resources for req.
func (rk *ranker) query(l *layout, req Request) *rankQuery {
	q := &rankQuery{resScores: make([]float64, len(l.resources)), resNamed: make([]bool, len(l.resources)),
		matched: map[int]map[int]bool{}}
	text := normWords(req.Question)
	for _, w := range strings.Fields(text) {
		if weakWord(w) || rk.tableWords[w] {
			continue
		}
		for r, ws := range rk.resWords {
			q.resNamed[r] = q.resNamed[r] || ws[w]
		}
	}
	for _, h := range rk.search(text, len(l.units)+len(l.resources), fieldBoosts) {
		if h.id < 0 {
			q.resScores[-h.id-1] = h.score
			continue
		}
		q.units = append(q.units, h)
	}
	if len(q.units) > 0 {
		q.top = q.units[0].score
	}
	rk.matchEntities(l, req.Question, q)
	if r := req.Repair; r != nil {
		cat := r.Category
		if cat == "" {
			cat = sqlerr.Classify(r.Error)
		}
		if cat == sqlerr.MissingTable || cat == sqlerr.MissingColumn {
			q.widen = true
			rk.widen(l, r, q)
		}
	}
	return q
}

// search runs text against the index; resources come back with negative
// ids (-1 - index).
func (rk *ranker) search(text string, size int, fields []struct {
	field string
	boost float64
}) []hit {
	if rk.index == nil || strings.TrimSpace(text) == "" || size == 0 {
		return nil
	}
	var dis []query.Query
	for _, f := range fields {
		mq := bleve.NewMatchQuery(text)
		mq.SetField(f.field)
		mq.SetBoost(f.boost)
		dis = append(dis, mq)
	}
	res, err := rk.index.Search(bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(dis...), size, 0, false))
	if err != nil {
		return nil
	}
	out := make([]hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		n, err := strconv.Atoi(h.ID[1:])
		if err != nil {
			continue
		}
		if h.ID[0] == 'r' {
			n = -n - 1
		}
		out = append(out, hit{id: n, score: h.Score})
	}
	// Equal scores in table order, so a prompt does not depend on the
	// index's internal order.
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].id < out[j].id
	})
	return out
}

// matchEntities finds the catalog's entity names in the question: their
// values are shown, and a name few tables have pins those tables.
func (rk *ranker) matchEntities(l *layout, question string, q *rankQuery) {
	words := lowerWords(question)
	owners := map[string]map[int]bool{}
	keyed := map[int]bool{}
	for i, w := range words {
		for _, n := range rk.phrases[w] {
			if i+len(n.words) > len(words) || !slices.Equal(words[i:i+len(n.words)], n.words) {
				continue
			}
			if q.matched[n.set] == nil {
				q.matched[n.set] = map[int]bool{}
			}
			q.matched[n.set][n.value] = true
			key := strings.Join(n.words, " ")
			if owners[key] == nil {
				owners[key] = map[int]bool{}
			}
			owners[key][l.sets[n.set].unit] = true
			if l.sets[n.set].keyed {
				keyed[l.sets[n.set].unit] = true
			}
		}
	}
	pinned, valued := map[int]bool{}, map[int]bool{}
	for _, us := range owners {
		if len(us) > maxEntityOwners {
			continue
		}
		for u := range us {
			if keyed[u] {
				pinned[u] = true
			} else {
				valued[u] = true
			}
		}
	}
	q.pinned = slices.Sorted(maps.Keys(pinned))
	// A value named in the question ("closed", "electric") is a hint, not
	// a pin: many tables have a status or a type. It raises the score of a
	// table the question's words already point at.
	if len(valued) == 0 {
		return
	}
	for i := range q.units {
		if valued[q.units[i].id] {
			q.units[i].score *= valueBoost
		}
	}
	sort.SliceStable(q.units, func(i, j int) bool { return q.units[i].score > q.units[j].score })
	if len(q.units) > 0 {
		q.top = q.units[0].score
	}
}

// widen finds the tables a failed attempt points at: those its SQL names
// (they exist: keep them) and the best tables for the words of its error.
func (rk *ranker) widen(l *layout, r *Repair, q *rankQuery) {
	seen := map[int]bool{}
	for _, tok := range sqlIdentifiers(r.FailedSQL) {
		for _, u := range rk.units[tok] {
			seen[u] = true
		}
	}
	var terms []string
	for _, w := range strings.Fields(normWords(r.Error)) {
		if len(w) > 1 && !errorVocabulary[w] {
			terms = append(terms, w)
		}
	}
	byQuestion := map[int]float64{}
	for _, h := range q.units {
		byQuestion[h.id] = h.score
	}
	hits := rk.search(strings.Join(terms, " "), len(l.units), fieldBoosts[:2])
	var found []hit
	for _, h := range hits {
		if h.id >= 0 {
			found = append(found, hit{id: h.id, score: h.score + byQuestion[h.id]})
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].score > found[j].score })
	for i := 0; i < len(found) && i < errorTables; i++ {
		seen[found[i].id] = true
	}
	q.widened = slices.Sorted(maps.Keys(seen))
}

// errorVocabulary are the words of database error messages that name no
// table or column.
var errorVocabulary = map[string]bool{"no": true, "such": true, "table": true, "column": true, "relation": true,
	"doe": true, "does": true, "not": true, "exist": true, "unknown": true, "field": true, "list": true,
	"error": true, "near": true, "syntax": true, "of": true, "in": true, "at": true, "the": true,
	"ambiguous": true, "name": true, "invalid": true, "identifier": true, "missing": true, "entry": true,
	"for": true, "clause": true, "from": true, "where": true, "undefined": true, "line": true, "position": true}

// sqlIdentifiers returns the lowercase identifiers of a statement, with
// schema-qualified names both whole and as their last part.
func sqlIdentifiers(sql string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(sql, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '"' || r == '`' || r == '[' || r == ']')
	}) {
		f = strings.ToLower(strings.NewReplacer(`"`, "", "`", "", "[", "", "]", "").Replace(f))
		out = append(out, f)
		if i := strings.LastIndexByte(f, '.'); i >= 0 {
			out = append(out, f[:i], f[i+1:])
		}
	}
	return out
}

// selector chooses tables within a room of characters.
type selector struct {
	l    *layout
	c    *choice
	q    *rankQuery
	room int
	n    int // tables chosen
}

// cost is what showing unit u adds to the prompt.
func (s *selector) cost(u int) int {
	n := s.l.units[u].chars
	for _, si := range s.l.units[u].sets {
		set := s.l.sets[si]
		if set.whole {
			continue
		}
		for v := range s.q.matched[si] {
			n += set.values[v] + 1
		}
	}
	return n
}

// add chooses unit u, with the tables that join it to the chosen tables of
// its database when join is set, if they fit.
func (s *selector) add(u int, join bool) bool {
	if s.c.units[u] {
		return true
	}
	var path []int
	if join && s.n > 0 {
		path = s.joinPath(u)
	}
	total := s.cost(u)
	for _, p := range path {
		total += s.cost(p)
	}
	if total > s.room {
		return false
	}
	s.room -= total
	for _, p := range append(path, u) {
		s.c.units[p] = true
		s.n++
	}
	return true
}

// joinPath returns the tables between u and the nearest chosen table of
// its database (breadth first over foreign keys, either direction), or nil
// when none is within maxJoinHops.
func (s *selector) joinPath(u int) []int {
	prev := map[int]int{u: -1}
	frontier := []int{u}
	for hop := 0; hop < maxJoinHops && len(frontier) > 0; hop++ {
		var next []int
		for _, x := range frontier {
			for _, y := range s.l.units[x].adj {
				if _, seen := prev[y]; seen {
					continue
				}
				prev[y] = x
				if s.c.units[y] {
					var path []int
					for p := x; p != u; p = prev[p] {
						path = append(path, p)
					}
					return path
				}
				next = append(next, y)
			}
		}
		frontier = next
	}
	return nil
}

// choose picks the tables of one question's prompt within room characters
// and returns the note that opens it and the room left.
func (rk *ranker) choose(l *layout, q *rankQuery, c *choice, room int) (string, int) {
	s := &selector{l: l, c: c, q: q, room: room - noteRoom}
	reserve := 0
	if q.widen {
		reserve = s.room / widenShare
		s.room -= reserve
	}
	var seeds []int
	seeds = append(seeds, q.pinned...)
	seeds = append(seeds, q.widened...)
	for i, h := range q.units {
		if i >= maxSeeds || h.score < seedRatio*q.top {
			break
		}
		seeds = append(seeds, h.id)
	}
	for _, u := range seeds {
		s.add(u, true)
	}
	for _, u := range seeds {
		if c.units[u] {
			for _, p := range l.units[u].refs {
				s.add(p, false)
			}
		}
	}
	for _, h := range q.units {
		s.add(h.id, true)
	}
	if s.n == 0 && len(q.units) > 0 {
		// Not even the best table fits: show it anyway, over budget.
		c.units[q.units[0].id] = true
		s.n++
	}
	trimmed := false
	for si, set := range l.sets {
		if !set.whole {
			c.trimmed[si] = true
			trimmed = trimmed || c.units[set.unit]
		}
	}
	c.matched = q.matched
	left := s.room + reserve
	var others []string
	if q.widen {
		others, left = compactTables(l, q, c, left)
	}
	return selectionNote(s.n, len(l.units), trimmed, others), left
}

// compactTables lists further tables, best first, as table(columns), in at
// most room characters, and returns the room left.
func compactTables(l *layout, q *rankQuery, c *choice, room int) ([]string, int) {
	var out []string
	for _, h := range q.units {
		if c.units[h.id] {
			continue
		}
		u := l.units[h.id]
		line := u.name + "(" + strings.Join(u.cols, ", ") + ")"
		if len(line)+2 > room {
			continue
		}
		room -= len(line) + 2
		out = append(out, line)
	}
	return out, room
}

// chooseResources adds the optional resources the question is about, best
// first, when they fit: one that has a word of the question no table has,
// or that scores at least as well as the best table.
func (rk *ranker) chooseResources(l *layout, q *rankQuery, c *choice, room int) {
	order := make([]int, len(l.resources))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return q.resScores[order[i]] > q.resScores[order[j]] })
	for _, r := range order {
		sc := q.resScores[r]
		if !q.resNamed[r] && (sc <= 0 || sc < q.top) {
			continue
		}
		if cost := l.resources[r].chars; cost <= room {
			c.res[r] = true
			room -= cost
		}
	}
}

// normWords turns text or an identifier into lowercase singular words
// separated by spaces: "FuelPurchases" and "fuel purchases" both give
// "fuel purchase".
func normWords(s string) string {
	var b strings.Builder
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		for _, w := range catalog.IdentifierWords(tok) {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(catalog.Singular(w))
		}
	}
	return b.String()
}

// lowerWords splits text into lowercase words (letters and digits).
func lowerWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// weakWord reports a one-word name too common or short to identify a thing
// in a question ("a", "in", "2", "total").
func weakWord(w string) bool {
	if len(w) <= 2 {
		return true
	}
	if _, err := strconv.Atoi(w); err == nil {
		return true
	}
	return stopWords[w]
}

var stopWords = map[string]bool{"the": true, "and": true, "for": true, "per": true, "with": true, "from": true,
	"how": true, "many": true, "much": true, "what": true, "which": true, "who": true, "when": true, "where": true,
	"all": true, "each": true, "every": true, "total": true, "average": true, "number": true, "count": true,
	"sum": true, "last": true, "this": true, "that": true, "year": true, "month": true, "week": true, "day": true,
	"top": true, "most": true, "least": true, "are": true, "was": true, "were": true, "has": true, "had": true,
	"have": true, "not": true, "none": true, "other": true, "yes": true, "true": true, "false": true, "null": true,
	"one": true, "two": true, "new": true, "old": true, "today": true, "did": true, "does": true, "than": true}
