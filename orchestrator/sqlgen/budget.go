package sqlgen

import (
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultTokenBudget is the prompt size, in estimated tokens, that
// RenderServersWith keeps to when TokenBudget is 0.
const DefaultTokenBudget = 8000

// charsPerToken is the estimate behind EstimateTokens.
const charsPerToken = 4

// fillPercent is how much of the budget, in EstimateTokens units, a
// selected prompt fills: the estimate runs a few percent low on prompts
// heavy with entity lists (see EstimateTokens), so the rest is headroom
// that keeps the real count within the budget.
const fillPercent = 97

// EstimateTokens estimates how many tokens a prompt of chars bytes costs:
// one token per 4 bytes, rounded up. Measured against OpenAI's cl100k_base
// encoding, the prompts of this project (English instructions and compact
// JSON) come to 3.9 to 4.2 bytes per token; long lists of entity names with
// numeric keys to about 3.1, so a prompt made mostly of those is
// underestimated by up to a quarter.
func EstimateTokens(chars int) int { return (chars + charsPerToken - 1) / charsPerToken }

// RenderOptions tune RenderServersWith.
type RenderOptions struct {
	// TokenBudget bounds the whole prompt (system and user messages), in
	// EstimateTokens units. When the prompt with every resource would be
	// larger, each question's prompt carries only the tables most relevant
	// to it (see RenderedServers.Select). 0 means DefaultTokenBudget;
	// negative means no bound.
	TokenBudget int
}

// promptSlack covers the few characters a generator adds to the user
// message after BuildPrompt (e.g. the markdown reminder for anthropic).
const promptSlack = 64

// Select returns the rendering of the servers for req's question: r itself
// when nothing in it depends on the question (the resources fit the budget
// and no server's resources are left to relevance), otherwise a rendering
// holding, within the token budget, the tables relevant to the question
// with the tables that join them, and the relevant resources of servers
// whose other resources go in only when relevant (ServerContext.
// RelevantOnly). A repair of a missing table or column widens the
// selection with the tables its error and failed SQL point at. Select is
// safe for concurrent use; the rendering it returns is immutable.
func (r *RenderedServers) Select(req Request) *RenderedServers {
	if r == nil || r.layout == nil {
		return r
	}
	start := time.Now()
	out := r.layout.selectFor(req, r.examples)
	out.src = r.src
	out.examples = r.examples
	out.selectTime = time.Since(start)
	return out
}

// PromptStats describe one prompt as it was built.
type PromptStats struct {
	Chars          int // bytes of the system and user messages
	TokensEst      int // EstimateTokens(Chars)
	TablesSelected int // tables the prompt shows
	TablesTotal    int // tables of every database schema and catalog in the resources
	// Budget is the token budget the rendering kept to (0: none).
	Budget int
	// SelectTime is how long Select took for this question (0 when the
	// rendering did not depend on the question).
	SelectTime time.Duration
}

// MeasurePrompt builds req's prompt as BuildPrompt does and describes it.
// Pass the rendering Select returned for req to measure without selecting
// again.
func MeasurePrompt(req Request) PromptStats {
	if r := req.Rendered; r != nil && r.layout != nil && r.matches(req.Servers) {
		req.Rendered = r.Select(req)
	}
	system, user := BuildPrompt(req)
	st := PromptStats{Chars: len(system) + len(user)}
	st.TokensEst = EstimateTokens(st.Chars)
	if r := req.Rendered; r != nil && r.matches(req.Servers) {
		st.TablesSelected, st.TablesTotal, st.Budget, st.SelectTime = r.tablesShown, r.tablesTotal, r.budget, r.selectTime
	} else {
		n := countTables(req.Servers)
		st.TablesSelected, st.TablesTotal = n, n
	}
	return st
}

// layout is the question-independent material of a rendering that depends
// on the question: every server's prompt text cut into fragments (one per
// table of each schema and catalog, per entity value, per resource left to
// relevance) and the index that ranks them.
type layout struct {
	budget    int // tokens; 0: none
	header    string
	servers   []piece
	units     []*unit
	sources   []*source
	resources []*optResource
	sets      []*entitySet
	fullText  string // the rendering with everything
	// fixedChars is fullText's length without the resources left to
	// relevance: the room every table needs.
	fixedChars int
	// frameChars is the length of a rendering that shows no table and no
	// resource left to relevance.
	frameChars int

	once    sync.Once
	rank    *ranker
	rankErr error
}

// piece is a run of literal text and slots.
type piece []part

// part is literal text, or a slot whose items are chosen per question.
type part struct {
	lit  string
	slot *slot
}

// slot is a JSON array or object whose elements are chosen per question.
type slot struct {
	open, close string
	items       []item
}

// item is one element of a slot: always shown, or shown with its table
// (unit), its optional resource, or (an entity value) its set's rule.
type item struct {
	unit  int // index in layout.units, or -1
	res   int // index in layout.resources, or -1
	set   int // index in layout.sets when the item is an entity value, or -1
	value int // the value's index in its set
	body  piece
	chars int // of body with everything in it
	// whole, when set, is the item as a prompt showing every table has
	// it (a catalog table with its "why" notes; body leaves them out).
	whole string
}

// choice is what one question's prompt shows.
type choice struct {
	units   []bool
	res     []bool
	matched map[int]map[int]bool // set → values named in the question
	trimmed []bool               // per set: show only the matched values
	whole   bool                 // every table is shown: items as they are whole
}

func (c *choice) shows(it *item) bool {
	switch {
	case it.unit >= 0 && !c.units[it.unit]:
		return false
	case it.res >= 0 && !c.res[it.res]:
		return false
	case it.set >= 0 && c.trimmed[it.set]:
		return c.matched[it.set][it.value]
	}
	return true
}

// write appends p as c shows it.
func (p piece) write(b *strings.Builder, c *choice) {
	for _, pt := range p {
		if pt.slot == nil {
			b.WriteString(pt.lit)
			continue
		}
		b.WriteString(pt.slot.open)
		first := true
		for i := range pt.slot.items {
			it := &pt.slot.items[i]
			if !c.shows(it) {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			if c.whole && it.whole != "" {
				b.WriteString(it.whole)
				continue
			}
			it.body.write(b, c)
		}
		b.WriteString(pt.slot.close)
	}
}

// chars is the length of p with everything in it.
func (p piece) chars() int {
	n := 0
	for _, pt := range p {
		if pt.slot == nil {
			n += len(pt.lit)
			continue
		}
		n += pt.slot.chars()
	}
	return n
}

// chars is the length of s with every item in it.
func (s *slot) chars() int {
	n := len(s.open) + len(s.close)
	for i, it := range s.items {
		if i > 0 {
			n++
		}
		n += it.chars
	}
	return n
}

// overhead is the length of req's prompt without the servers' text.
func overhead(req Request, ex examples) int {
	key, dialect, today, multi := promptFrame(req)
	n := len(systemPrompt(key)) + len("Dialect: \nToday: \n\n\n\nRespond with the JSON object only.") +
		len(dialect) + len(today) + promptSlack
	var b strings.Builder
	if multi {
		writeDatabases(&b, req.Databases)
	}
	writeQuestion(&b, "Question", req.Question)
	writeExamples(&b, req.Examples, multi)
	if req.Repair != nil {
		b.WriteString("\n")
		writeRepair(&b, req.Question, dialect, ex, req.Repair, multi)
	}
	return n + b.Len()
}

// selectFor renders the servers for one question.
func (l *layout) selectFor(req Request, ex examples) *RenderedServers {
	out := &RenderedServers{budget: l.budget, tablesTotal: len(l.units)}
	room := maxRoom
	if l.budget > 0 {
		room = l.budget*charsPerToken*fillPercent/100 - overhead(req, ex)
	}
	fits := l.fixedChars <= room
	if fits && len(l.resources) == 0 {
		out.text, out.tablesShown = l.fullText, len(l.units)
		return out
	}
	c := &choice{units: make([]bool, len(l.units)), res: make([]bool, len(l.resources)),
		trimmed: make([]bool, len(l.sets)), matched: map[int]map[int]bool{}}
	rk := l.ranker()
	q := rk.query(l, req)
	var note string
	if fits {
		c.whole = true
		for i := range c.units {
			c.units[i] = true
		}
		room -= l.fixedChars
	} else {
		note, room = rk.choose(l, q, c, room-l.frameChars)
	}
	rk.chooseResources(l, q, c, room)

	var b strings.Builder
	b.Grow(len(note) + l.budget*charsPerToken)
	b.WriteString(note)
	b.WriteString(l.header)
	for _, p := range l.servers {
		p.write(&b, c)
	}
	if exl := ex.lines(); exl != "" {
		b.WriteString("\n")
		b.WriteString(exl)
	}
	out.text = b.String()
	for _, on := range c.units {
		if on {
			out.tablesShown++
		}
	}
	return out
}

// maxRoom stands for "no budget".
const maxRoom = int(^uint(0) >> 2)

// selectionNote opens a prompt that shows part of the database.
func selectionNote(shown, total int, trimmedSets bool, others []string) string {
	var b strings.Builder
	b.WriteString("The database is large: the schema and catalog resources below show ")
	b.WriteString(strconv.Itoa(shown))
	b.WriteString(" of its ")
	b.WriteString(strconv.Itoa(total))
	b.WriteString(" tables, those most relevant to the question (by their names, columns, catalog words, " +
		"named entities and values) with the tables that join them.")
	if trimmedSets {
		b.WriteString(" Entity sets with more than " + strconv.Itoa(wholeSetValues) +
			" values list only the values the question names.")
	}
	if len(others) > 0 {
		b.WriteString(" More tables that may hold what the failed query missed, as table(columns), " +
			"usable like the tables shown: ")
		b.WriteString(strings.Join(others, "; "))
		b.WriteString(".")
	}
	b.WriteString(" Use only tables and columns shown here.\n")
	return b.String()
}

// minOverhead is the least the rest of a prompt takes besides the servers
// (the system message and the question's lines): over budget with it, a
// rendering chooses per question.
var minOverhead = len(renderSystem(systemKey{dialect: "sqlite", today: "2006-01-02"})) + 200

// Structural reports whether a resource value is a database schema or a
// semantic catalog (docs/contracts.md §1-§2): the resources a prompt is
// built around, kept whatever their size.
func Structural(v any) bool {
	k := classify(v, false)
	return k == resSchema || k == resCatalog
}
