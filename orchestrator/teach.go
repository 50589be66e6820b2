package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/verified"
	"talk2tables/state"
)

// Teaching: analysts verify a question with the SQL that answers it; the
// SQL must pass the read-only check and run now. Entries are re-checked
// (prepared) whenever their database's schema changes; one that no longer
// validates turns stale and is not used until it validates again.

// Teach is a question and the SQL an analyst verified for it.
type Teach struct {
	Question string
	SQL      string
	Server   string // the executor; "" is the top-priority one
	By       string // who verifies: an editor key's name, "ui", "api", "mcp", "cli"
	// MaxRows bounds the result returned for review (0: the default).
	MaxRows     int
	OperationID string
}

// Taught is a stored entry with the result its SQL gave when verified.
type Taught struct {
	Entry  state.Entry         `json:"entry"`
	Result *executor.QueryData `json:"result,omitempty"`
}

// MaxVerifiedSQL bounds the SQL of a verified question (characters).
const MaxVerifiedSQL = 20000

// Book returns the verified questions (nil when off).
func (o *Orchestrator) Book() *verified.Book { return o.book }

// Verify stores a verified question after running its SQL: refused with
// an *InputError for a question or SQL that cannot be one, an
// *mcpclient.UnknownExecutorError for an unknown server, a
// *state.DuplicateError when the question is verified already, and the
// SQL's *executor.QueryExecutionError when it is not read-only or does
// not run.
func (o *Orchestrator) Verify(ctx context.Context, t Teach) (*Taught, error) {
	if o.book == nil {
		return nil, ErrNoState
	}
	// A duplicate is refused before its SQL runs.
	db := t.Server
	if db == "" {
		if ids := o.clients.Executors(); len(ids) > 0 {
			db = ids[0]
		}
	}
	if n := verified.Normalize(t.Question); n != "" && db != "" {
		if prev, found, err := o.book.Store().Find(ctx, db, n); err != nil {
			return nil, err
		} else if found {
			return nil, &state.DuplicateError{ExistingID: prev.ID, Question: prev.Question}
		}
	}
	e, data, err := o.prepareEntry(ctx, t, true)
	if err != nil {
		return nil, err
	}
	stored, err := o.book.Store().Add(ctx, e)
	if err != nil {
		return nil, err
	}
	o.reload(ctx)
	o.log.Info("question verified", "event", "verified_added", "id", stored.ID, "server", stored.Database,
		"by", stored.VerifiedBy, "slots", len(stored.Slots), "operation_id", t.OperationID)
	return &Taught{Entry: stored, Result: data}, nil
}

// Change is a change to a verified entry: a new question and/or SQL (nil
// keeps the old one). Any change — an empty one too — runs the SQL again
// and verifies the entry anew (a stale entry becomes verified when its
// SQL runs on the current schema).
type Change struct {
	Question, SQL *string
	By            string
	MaxRows       int
	OperationID   string
}

// Reverify applies c to the entry with id (state.ErrNotFound when there is
// none), with Verify's checks.
func (o *Orchestrator) Reverify(ctx context.Context, id int64, c Change) (*Taught, error) {
	if o.book == nil {
		return nil, ErrNoState
	}
	cur, err := o.book.Store().Get(ctx, id)
	if err != nil {
		return nil, err
	}
	t := Teach{Question: cur.Question, SQL: cur.SQL, Server: cur.Database, By: c.By, MaxRows: c.MaxRows, OperationID: c.OperationID}
	if c.Question != nil {
		t.Question = *c.Question
	}
	if c.SQL != nil {
		t.SQL = *c.SQL
	}
	e, data, err := o.prepareEntry(ctx, t, true)
	if err != nil {
		return nil, err
	}
	e.ID, e.UseCount, e.LastUsed = cur.ID, cur.UseCount, cur.LastUsed
	stored, err := o.book.Store().Update(ctx, e)
	if err != nil {
		return nil, err
	}
	o.reload(ctx)
	o.log.Info("verified question changed", "event", "verified_changed", "id", id, "by", e.VerifiedBy,
		"operation_id", c.OperationID)
	return &Taught{Entry: stored, Result: data}, nil
}

// CheckEntry is Verify without storing or running: the question and SQL
// are checked, the SQL validated (prepared) on its database and its slots
// found. For imports.
func (o *Orchestrator) CheckEntry(ctx context.Context, t Teach) (state.Entry, error) {
	e, _, err := o.prepareEntry(ctx, t, false)
	return e, err
}

// ListVerified returns the entries f selects, newest first, and how many
// there are in all.
func (o *Orchestrator) ListVerified(ctx context.Context, f state.Filter) ([]state.Entry, int, error) {
	if o.book == nil {
		return nil, 0, ErrNoState
	}
	return o.book.Store().List(ctx, f)
}

// GetVerified returns the entry with id (state.ErrNotFound when none).
func (o *Orchestrator) GetVerified(ctx context.Context, id int64) (state.Entry, error) {
	if o.book == nil {
		return state.Entry{}, ErrNoState
	}
	return o.book.Store().Get(ctx, id)
}

// DeleteVerified removes the entry with id.
func (o *Orchestrator) DeleteVerified(ctx context.Context, id int64) error {
	if o.book == nil {
		return ErrNoState
	}
	if err := o.book.Store().Delete(ctx, id); err != nil {
		return err
	}
	o.reload(ctx)
	o.log.Info("verified question deleted", "event", "verified_deleted", "id", id)
	return nil
}

// reload makes this replica's lookups see a change at once.
func (o *Orchestrator) reload(ctx context.Context) {
	if err := o.book.Load(ctx); err != nil {
		o.log.Warn("verified questions not reloaded", "event", "verified_refresh_failed", "error", err.Error())
	}
}

// prepareEntry checks t and makes its entry: the question's length and
// words, the SQL's size, the executor, then the SQL — run (run true, its
// result returned) or validated — and the slots from the database's
// schema and catalog.
func (o *Orchestrator) prepareEntry(ctx context.Context, t Teach, run bool) (state.Entry, *executor.QueryData, error) {
	var e state.Entry
	q := strings.TrimSpace(t.Question)
	sql := strings.TrimSpace(t.SQL)
	maxQ := o.cfg.HTTP.MaxQuestionLength
	switch {
	case q == "":
		return e, nil, &InputError{Field: "question", Message: `field "question" is required: the question the SQL answers`}
	case maxQ > 0 && utf8.RuneCountInString(q) > maxQ:
		return e, nil, &InputError{Field: "question", Message: fmt.Sprintf(`field "question" is %d characters long; the limit is %d`,
			utf8.RuneCountInString(q), maxQ)}
	case verified.Normalize(q) == "":
		return e, nil, &InputError{Field: "question", Message: `field "question" has no words to match on; write the question as an analyst asks it`}
	case sql == "":
		return e, nil, &InputError{Field: "sql", Message: `field "sql" is required: one read-only SQL statement that answers the question`}
	case utf8.RuneCountInString(sql) > MaxVerifiedSQL:
		return e, nil, &InputError{Field: "sql", Message: fmt.Sprintf(`field "sql" is longer than %d characters`, MaxVerifiedSQL)}
	}
	conn, err := o.clients.Executor()
	if t.Server != "" {
		conn, err = o.clients.ExecutorNamed(t.Server)
	}
	if err != nil {
		return e, nil, err
	}
	opID := t.OperationID
	if opID == "" {
		opID = newOperationID()
	}
	g, err := o.cache.Gather(ctx, opID)
	if err != nil {
		return e, nil, err
	}
	top, err := o.clients.Executor()
	if err != nil {
		return e, nil, err
	}
	base := o.requestBase(g, top)
	dialect := o.executorDialect(ctx, conn, opID)
	var data *executor.QueryData
	if run {
		data, err = o.ExecuteSQLOn(ctx, conn.ID(), sql, t.MaxRows, opID)
	} else {
		err = o.exec.Validate(ctx, conn, dialect, sql)
	}
	if err != nil {
		return e, nil, err
	}
	k := base.knowledge(conn.ID())
	x := verified.Extract(q, sql, k.k)
	e = state.Entry{Database: conn.ID(), Question: q, Normalized: verified.Normalize(q), SQL: sql, Slots: x.Slots,
		VerifiedBy: t.By, VerifiedAt: time.Now(), Status: state.StatusVerified, SchemaVersion: k.schema}
	if x.Dated {
		e.ValidOn = k.today
	}
	return e, data, nil
}

// sweeps re-check the verified questions of a database when its schema
// changes, in the background.
type sweeps struct {
	mu      sync.Mutex
	checked map[string]string // database → the schema version swept
	wg      sync.WaitGroup
	closing chan struct{}
	closed  bool
}

// start runs fn in the background with a context that ends when the
// orchestrator closes; false when it is closing.
func (s *sweeps) start(fn func(ctx context.Context)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	if s.closing == nil {
		s.closing = make(chan struct{})
	}
	closing := s.closing
	s.wg.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			select {
			case <-closing:
				cancel()
			case <-stop:
			}
		}()
		fn(ctx)
	})
	return true
}

// stop cancels the sweeps and waits for them.
func (s *sweeps) stop() {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		if s.closing != nil {
			close(s.closing)
		}
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// claim records schema as the version of database db about to be swept;
// false when it was swept (or is being swept) already.
func (s *sweeps) claim(db, schema string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.checked == nil {
		s.checked = map[string]string{}
	}
	if s.checked[db] == schema {
		return false
	}
	s.checked[db] = schema
	return true
}

// forget makes the next question sweep db again (a sweep was cut short).
func (s *sweeps) forget(db string) {
	s.mu.Lock()
	delete(s.checked, db)
	s.mu.Unlock()
}

// sweepStale starts a re-check of the verified questions of each database
// whose schema version is new to this orchestrator.
func (o *Orchestrator) sweepStale(b *requestBase) {
	if o.book == nil {
		return
	}
	ids := make([]string, 0, len(b.databases))
	for _, d := range b.databases {
		ids = append(ids, d.Server)
	}
	if len(ids) == 0 {
		ids = append(ids, b.exec.ID())
	}
	for _, id := range ids {
		k := b.knowledge(id)
		if k.schema == "" || !o.sweeps.claim(id, k.schema) {
			continue
		}
		var conn *mcpclient.Conn
		dialect := b.dialect
		if d, ok := b.dbs[id]; ok {
			conn, dialect = d.conn, d.dialect
		} else if b.exec.ID() == id {
			conn = b.exec
		}
		if conn == nil {
			continue
		}
		o.sweeps.start(func(ctx context.Context) { o.sweep(ctx, id, conn, dialect, k.schema) })
	}
}

// sweep re-checks every entry of database db not yet checked against
// schema.
func (o *Orchestrator) sweep(ctx context.Context, db string, conn *mcpclient.Conn, dialect, schema string) {
	t0 := time.Now()
	checked, stale := 0, 0
	for _, e := range o.book.Entries(ctx) {
		if e.Database != db || e.SchemaVersion == schema {
			continue
		}
		if ctx.Err() != nil {
			o.sweeps.forget(db)
			return
		}
		ok, err := o.recheck(ctx, e, conn, dialect, schema)
		if err != nil {
			// The executor, not the entry: try again with a later question.
			o.log.Warn("verified questions not re-checked", "event", "verified_recheck_failed", "server", db, "error", err.Error())
			o.sweeps.forget(db)
			return
		}
		checked++
		if !ok {
			stale++
		}
	}
	if checked > 0 {
		o.reload(ctx)
		o.log.Info("verified questions re-checked", "event", "verified_rechecked", "server", db, "schema_version", schema,
			"checked", checked, "stale", stale, "duration_ms", ms(time.Since(t0)))
	}
}

// recheckEntry re-checks one entry now and reports whether it may be
// used.
func (o *Orchestrator) recheckEntry(ctx context.Context, e state.Entry, conn *mcpclient.Conn, dialect, schema string) bool {
	ok, err := o.recheck(ctx, e, conn, dialect, schema)
	if err != nil {
		return false
	}
	o.reload(ctx)
	return ok
}

// recheck validates an entry's SQL on the current schema and records the
// outcome: verified against schema, or stale with the database's reason.
// err is a failure to check (the executor is down), not the entry's.
func (o *Orchestrator) recheck(ctx context.Context, e state.Entry, conn *mcpclient.Conn, dialect, schema string) (bool, error) {
	err := o.exec.Validate(ctx, conn, dialect, e.SQL)
	var qe *executor.QueryExecutionError
	switch {
	case err == nil:
		return true, o.book.Store().SetStatus(ctx, e.ID, state.StatusVerified, "", schema)
	case errors.As(err, &qe) && qe.Reason == executor.ReasonSQLExecution:
		reason := qe.Message
		if qe.Category != "" {
			reason = string(qe.Category) + ": " + reason
		}
		if e.Status != state.StatusStale {
			o.log.Warn("verified question no longer validates", "event", "verified_stale", "id", e.ID, "server", e.Database,
				"category", qe.Category, "error", qe.Message)
		}
		return false, o.book.Store().SetStatus(ctx, e.ID, state.StatusStale, reason, schema)
	}
	return false, err
}
