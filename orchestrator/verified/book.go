package verified

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"talk2tables/sqlscan"
	"talk2tables/state"
)

// Book is the verified questions of a state database, in memory for
// lookups. It is safe for concurrent use.
type Book struct {
	store   *state.Store
	refresh time.Duration
	log     *slog.Logger

	idx       atomic.Pointer[index]
	lastCheck atomic.Int64 // unix nanoseconds of the last revision check
	sf        singleflight.Group
}

// New returns the book of store's entries; a replica looks for other
// replicas' changes at most every refresh (0: before every lookup). Call
// Load before the first lookup to fail early on a broken state database.
func New(store *state.Store, refresh time.Duration, logger *slog.Logger) *Book {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	b := &Book{store: store, refresh: refresh, log: logger}
	b.idx.Store(buildIndex(nil, -1))
	return b
}

// Store returns the state database.
func (b *Book) Store() *state.Store { return b.store }

// Load reads every entry now (after a change of this replica's, so its own
// lookups see it at once).
func (b *Book) Load(ctx context.Context) error {
	_, err, _ := b.sf.Do("load", func() (any, error) {
		entries, rev, err := b.store.All(ctx)
		if err != nil {
			return nil, fmt.Errorf("read verified questions from %s: %w", b.store.Where(), err)
		}
		b.idx.Store(buildIndex(entries, rev))
		b.lastCheck.Store(time.Now().UnixNano())
		b.log.Debug("verified questions loaded", "event", "verified_loaded", "entries", len(entries), "revision", rev)
		return nil, nil
	})
	return err
}

// sync reloads the entries when the state's revision moved since the last
// look, looking at most every refresh. A failure keeps the entries in
// memory and is logged: questions are answered as before.
func (b *Book) sync(ctx context.Context) *index {
	ix := b.idx.Load()
	if time.Since(time.Unix(0, b.lastCheck.Load())) < b.refresh && ix.revision >= 0 {
		return ix
	}
	rev, err := b.store.Revision(ctx)
	if err == nil && rev == ix.revision {
		b.lastCheck.Store(time.Now().UnixNano())
		return ix
	}
	if err == nil {
		err = b.Load(ctx)
	}
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			b.log.Warn("verified questions not refreshed", "event", "verified_refresh_failed", "error", err.Error())
		}
		return ix
	}
	return b.idx.Load()
}

// Request is one question to look up.
type Request struct {
	Question string
	// Databases are the executor ids the question may be answered on, by
	// priority.
	Databases []string
	// Dialects and Today give each database's SQL dialect and today
	// (YYYY-MM-DD), for the values written into SQL and for the entries
	// that hold on one day only.
	Dialects map[string]string
	Today    map[string]string
}

// Hit is a verified answer to a question.
type Hit struct {
	Entry state.Entry
	// SQL is the entry's SQL with the substitutions made.
	SQL         string
	Substituted []Substitution
}

// Resolver checks the values a question puts in value and entity slots,
// against the catalog or the database itself.
type Resolver interface {
	// Value returns the stored value of the slot's column that phrase names
	// (ignoring case), ok false when the column has none.
	Value(ctx context.Context, database string, s state.Slot, phrase string) (value string, ok bool)
	// EntityKey returns the key of the named row of the slot's set that
	// phrase names (by name or alias), as the SQL writes it.
	EntityKey(ctx context.Context, database string, s state.Slot, phrase string) (key string, isText bool, ok bool)
}

// Lookup finds the verified answer to req: the entry with the same
// normalized question, else one whose question differs only in slots that
// req's question fills with values of the same kind (r checks each value).
// nil when none answers.
func (b *Book) Lookup(ctx context.Context, req Request, r Resolver) *Hit {
	ix := b.sync(ctx)
	usable := func(e *state.Entry) bool {
		return e.Status == state.StatusVerified && (e.ValidOn == "" || e.ValidOn == req.Today[e.Database])
	}
	toks := words(req.Question)
	qs := make([]string, len(toks))
	for i, t := range toks {
		qs[i] = t.text
	}
	norm := joinWords(qs)
	for _, db := range req.Databases {
		if e := ix.exact[db][norm]; e != nil && usable(e) {
			return &Hit{Entry: *e, SQL: e.SQL, Substituted: []Substitution{}}
		}
	}
	rank := map[string]int{}
	for i, db := range req.Databases {
		rank[db] = i + 1
	}
	cands := ix.candidates(qs, func(db string) bool { return rank[db] > 0 })
	slices.SortStableFunc(cands, func(a, b *template) int { return rank[a.entry.Database] - rank[b.entry.Database] })
	for _, t := range cands {
		if !usable(t.entry) {
			continue
		}
		for _, h := range t.match(qs) {
			if hit := b.fill(ctx, t.entry, h, req, toks, r); hit != nil {
				return hit
			}
		}
	}
	return nil
}

func joinWords(ws []string) string {
	n := 0
	for _, w := range ws {
		n += len(w) + 1
	}
	buf := make([]byte, 0, n)
	for i, w := range ws {
		if i > 0 {
			buf = append(buf, ' ')
		}
		buf = append(buf, w...)
	}
	return string(buf)
}

// fill puts the question's values into e's slots; nil when one does not
// fit.
func (b *Book) fill(ctx context.Context, e *state.Entry, h holes, req Request, toks []token, r Resolver) *Hit {
	d, err := sqlscan.ParseDialect(req.Dialects[e.Database])
	if err != nil {
		d = sqlscan.SQLite
	}
	hit := &Hit{Entry: *e, Substituted: []Substitution{}}
	var fills []fill
	for si, s := range e.Slots {
		from, to := h[si][0], h[si][1]
		ws := make([]string, 0, to-from)
		for _, t := range toks[from:to] {
			ws = append(ws, t.text)
		}
		if slices.Equal(ws, wordTexts(s.Phrase)) {
			continue // the same value
		}
		said := req.Question[toks[from].start:toks[to-1].end]
		texts, value, ok := slotTexts(ctx, d, e, s, ws, said, r)
		if !ok {
			return nil
		}
		fills = append(fills, fill{slot: s, texts: texts})
		hit.Substituted = append(hit.Substituted, Substitution{Kind: s.Kind, Column: s.Column, From: s.Phrase, To: said, Value: value})
	}
	sql, err := substitute(e.SQL, fills)
	if err != nil {
		b.log.Warn("verified question not filled", "event", "verified_fill_failed", "id", e.ID, "error", err.Error())
		return nil
	}
	hit.SQL = sql
	return hit
}

// slotTexts is the SQL text for each span of e's slot s when the question
// says ws (said, as written) in its place, and the value that stands there;
// ok is false when it does not fit.
func slotTexts(ctx context.Context, d sqlscan.Dialect, e *state.Entry, s state.Slot, ws []string, said string,
	r Resolver) (texts []string, value string, ok bool) {
	var err error
	switch s.Kind {
	case KindNumber:
		return numberText(d, e.SQL, s, ws[0]), ws[0], true
	case KindYear:
		oldY, err1 := strconv.Atoi(s.Value)
		newY, err2 := strconv.Atoi(ws[0])
		if err1 != nil || err2 != nil {
			return nil, "", false
		}
		if texts, err = shiftYears(d, e.SQL, s, newY-oldY); err != nil {
			return nil, "", false
		}
		return texts, ws[0], true
	case KindDate:
		oldD, err1 := time.Parse(time.DateOnly, s.Value)
		newD, err2 := time.Parse(time.DateOnly, ws[0])
		if err1 != nil || err2 != nil {
			return nil, "", false
		}
		if texts, err = shiftDays(d, e.SQL, s, int(newD.Sub(oldD).Hours()/24)); err != nil {
			return nil, "", false
		}
		return texts, ws[0], true
	case KindValue:
		return valueText(ctx, d, e, s, said, r)
	case KindEntity:
		return entityText(ctx, d, e, s, said, r)
	}
	return nil, "", false
}

// valueText looks up the stored value said names in s's column and quotes it.
func valueText(ctx context.Context, d sqlscan.Dialect, e *state.Entry, s state.Slot, said string,
	r Resolver) ([]string, string, bool) {
	v, ok := r.Value(ctx, e.Database, s, said)
	if !ok && Normalize(s.Phrase) != Normalize(s.Value) {
		// The verified question said the value in the plural: so
		// may this one ("teapots" for 'Teapot').
		for _, one := range singulars(said) {
			if v, ok = r.Value(ctx, e.Database, s, one); ok {
				break
			}
		}
	}
	if !ok {
		return nil, "", false
	}
	q, ok := quoteString(d, v)
	if !ok {
		return nil, "", false
	}
	return []string{q}, v, true
}

// entityText looks up the key of the entity said names, quoted when it is
// text; a key that is neither text nor a number does not fit.
func entityText(ctx context.Context, d sqlscan.Dialect, e *state.Entry, s state.Slot, said string,
	r Resolver) ([]string, string, bool) {
	key, isText, ok := r.EntityKey(ctx, e.Database, s, said)
	if !ok {
		return nil, "", false
	}
	text := key
	if isText {
		if text, ok = quoteString(d, key); !ok {
			return nil, "", false
		}
	} else if !isNumberText(key) && !isSignedNumber(key) {
		return nil, "", false
	}
	return []string{text}, key, true
}

func isSignedNumber(s string) bool { return len(s) > 1 && s[0] == '-' && isNumberText(s[1:]) }

// Entries returns every entry in memory (after a sync), oldest first.
func (b *Book) Entries(ctx context.Context) []state.Entry {
	ix := b.sync(ctx)
	out := make([]state.Entry, len(ix.entries))
	for i, e := range ix.entries {
		out[i] = *e
	}
	return out
}

// Used counts a use of the entry (best effort: a failure is logged).
func (b *Book) Used(ctx context.Context, id int64) {
	if err := b.store.MarkUsed(ctx, id, time.Now()); err != nil {
		b.log.Warn("verified question use not counted", "event", "verified_use_not_counted", "id", id, "error", err.Error())
	}
}

// loaded is for tests and benchmarks: replace the entries in memory.
func (b *Book) loaded(entries []state.Entry) {
	b.idx.Store(buildIndex(entries, 0))
	b.lastCheck.Store(time.Now().Add(24 * time.Hour).UnixNano())
}
