// Package builtin is the offline SQL generator: it answers everyday analyst
// questions (totals, counts, averages, filters by product, category or other
// low-cardinality values, time windows, grouping, ranking, comparisons and
// listings) without an LLM. Everything it knows comes from the MCP resources
// in the request — the database schema (tables, columns, keys, sample
// values) and the product metadata (aliases, user-friendly terms,
// aggregation terms, date terms, table aliases) — so another catalog and
// schema of the same shape work unchanged. When it is not sure, it declines
// instead of guessing.
package builtin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"

	"talk2tables/orchestrator/sqlgen"
)

// Name is the generator name reported in results.
const Name = "builtin"

// declinePrefix starts every message of a declined question.
const declinePrefix = "I can't answer that offline; configure an LLM (see README)."

// maxTokens bounds the question length the planner reads.
const maxTokens = 120

// Generator is the offline sqlgen.Generator. It is safe for concurrent use.
type Generator struct {
	logger *slog.Logger
	mu     sync.Mutex
	cache  []*cacheEntry // most recent first
}

var _ sqlgen.Generator = (*Generator)(nil)

// New returns an offline generator. A nil logger discards logs.
func New(logger *slog.Logger) *Generator {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Generator{logger: logger}
}

// Name returns "builtin".
func (g *Generator) Name() string { return Name }

// Generate writes one SQLite SELECT for the question, or declines with a
// *sqlgen.SQLGenerationError of reason ReasonDeclined saying what it understood.
func (g *Generator) Generate(ctx context.Context, req sqlgen.Request) (sqlgen.Plan, error) {
	if err := ctx.Err(); err != nil {
		return sqlgen.Plan{}, err
	}
	if req.Repair != nil {
		return sqlgen.Plan{}, g.declined(req.Question, nil, "my SQL failed (%s) and I cannot repair it", req.Repair.Error)
	}
	m := g.model(req.Servers)
	if !m.hasSchema {
		return sqlgen.Plan{}, g.declined(req.Question, nil, "no database schema resource was provided")
	}
	if req.Dialect != "" && !strings.EqualFold(req.Dialect, "sqlite") {
		return sqlgen.Plan{}, g.declined(req.Question, nil, "I only write SQLite, not %s", req.Dialect)
	}
	today := time.Now().UTC()
	if t, err := time.Parse("2006-01-02", strings.TrimSpace(req.Today)); err == nil {
		today = t
	}
	toks := tokenize(req.Question)
	if len(toks) == 0 {
		return sqlgen.Plan{}, g.declined(req.Question, nil, "the question is empty")
	}
	if len(toks) > maxTokens {
		return sqlgen.Plan{}, g.declined(req.Question, nil, "the question is too long for the offline generator (%d words, at most %d)", len(toks), maxTokens)
	}
	spans, unknown := m.scan(toks, today)
	if toks[0].norm == "why" {
		// "why did sales drop" asks for an explanation, not a figure; say so
		// rather than mistake "drop" for a write.
		return sqlgen.Plan{}, g.declined(req.Question, nil,
			"I look up figures but cannot explain why they changed; ask for the numbers instead (e.g. monthly revenue trend)")
	}
	for _, sp := range spans {
		if sp.kw == kwWrite {
			return sqlgen.Plan{}, g.declined(req.Question, nil, "this is a read-only assistant: it never changes data")
		}
	}
	if len(unknown) > 0 && !m.hasTerms {
		// Without the metadata server's column mappings only schema names are
		// known; say so rather than blame the user's words.
		return sqlgen.Plan{}, g.declined(req.Question, spans,
			"no business-term metadata (column_mappings) is available, so I only know the schema's own names; is the metadata MCP server down? I don't know the word(s) %s", quoteList(unknown))
	}
	if len(unknown) > 0 {
		return sqlgen.Plan{}, g.declined(req.Question, spans, "I don't know the word(s) %s", quoteList(unknown))
	}
	q, err := m.interpret(spans, today)
	if err != nil {
		return sqlgen.Plan{}, g.declinedErr(req.Question, spans, err)
	}
	sql, expl, err := m.render(q)
	if err != nil {
		return sqlgen.Plan{}, g.declinedErr(req.Question, spans, err)
	}
	return sqlgen.Plan{
		SQL:              sql,
		ResolvedEntities: q.entities,
		Explanation:      expl,
		Confidence:       q.confidence,
		Generator:        Name,
	}, nil
}

func (g *Generator) declinedErr(question string, spans []*span, err error) error {
	var d *declineError
	if errors.As(err, &d) {
		return g.declined(question, spans, "%s", d.why)
	}
	return g.declined(question, spans, "%v", err)
}

func (g *Generator) declined(question string, spans []*span, format string, args ...any) error {
	why := fmt.Sprintf(format, args...)
	msg := declinePrefix + " " + why + "."
	if u := understood(spans); u != "" {
		msg += " I understood: " + u + "."
	}
	g.logger.Debug("builtin generator declined", "reason", why)
	return &sqlgen.SQLGenerationError{Reason: sqlgen.ReasonDeclined, Message: msg}
}

// understood summarises the recognised pieces of a question.
func understood(spans []*span) string {
	var parts []string
	for _, sp := range spans {
		switch sp.kind {
		case spProduct:
			parts = append(parts, fmt.Sprintf("product %q (%s)", sp.text, sp.prod.name))
		case spValue:
			parts = append(parts, fmt.Sprintf("value %q", sp.values[0].val))
		case spTime:
			parts = append(parts, fmt.Sprintf("time %q", sp.text))
		case spNoun:
			if len(sp.terms) > 0 {
				parts = append(parts, fmt.Sprintf("%q (%s)", sp.text, sp.terms[0].col.ref()))
			} else {
				parts = append(parts, fmt.Sprintf("%q (table %s)", sp.text, sp.tables[0].name))
			}
		case spAgg:
			parts = append(parts, fmt.Sprintf("%q (%s)", sp.text, sp.agg.fn))
		}
	}
	return strings.Join(parts, ", ")
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

// resourceSet is one server's resources with its URIs in a stable order.
type resourceSet struct {
	res  map[string]any
	uris []string
}

// cacheEntry is a compiled model and the identity of the resources it came from.
type cacheEntry struct {
	key   []resKey
	model *model
	// keep holds the resource values so their addresses cannot be reused
	// while the entry lives; the orchestrator replaces values on refresh.
	keep []any
}

type resKey struct {
	ptr uintptr
	n   int
}

const cacheSize = 4

// model returns the compiled model for these resources, compiling on a miss.
func (g *Generator) model(servers []sqlgen.ServerContext) *model {
	var key []resKey
	var keep []any
	for _, s := range servers {
		key = append(key, resKey{ptr: identity(s.Resources), n: len(s.Resources)})
		for _, v := range s.Resources {
			key = append(key, resKey{ptr: identity(v), n: size(v)})
			keep = append(keep, v)
		}
	}
	g.mu.Lock()
	for i, e := range g.cache {
		if equalKeys(e.key, key) {
			if i > 0 {
				copy(g.cache[1:i+1], g.cache[:i])
				g.cache[0] = e
			}
			g.mu.Unlock()
			return e.model
		}
	}
	g.mu.Unlock()
	sets := make([]resourceSet, 0, len(servers))
	for _, s := range servers {
		uris := make([]string, 0, len(s.Resources))
		for u := range s.Resources {
			uris = append(uris, u)
		}
		sort.Strings(uris)
		sets = append(sets, resourceSet{res: s.Resources, uris: uris})
	}
	m := compile(sets)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.cache = append([]*cacheEntry{{key: key, model: m, keep: keep}}, g.cache...)
	if len(g.cache) > cacheSize {
		g.cache = g.cache[:cacheSize]
	}
	return m
}

func equalKeys(a, b []resKey) bool {
	if len(a) != len(b) {
		return false
	}
	// map iteration order varies: compare as multisets of small size
	used := make([]bool, len(b))
outer:
	for _, x := range a {
		for j, y := range b {
			if !used[j] && x == y {
				used[j] = true
				continue outer
			}
		}
		return false
	}
	return true
}

// identity is the address of a map, slice or string value (0 for scalars).
func identity(v any) uintptr {
	if s, ok := v.(string); ok {
		return uintptr(unsafe.Pointer(unsafe.StringData(s)))
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map, reflect.Slice, reflect.Pointer:
		return rv.Pointer()
	}
	return 0
}

func size(v any) int {
	switch x := v.(type) {
	case map[string]any:
		return len(x)
	case []any:
		return len(x)
	case string:
		return len(x)
	}
	return 0
}
