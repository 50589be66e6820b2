package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/orchestrator/verified"
	"talk2tables/sqlscan"
	"talk2tables/state"
)

// GeneratorVerified names, in a result's metadata, answers given by a
// verified question: no generator was asked.
const GeneratorVerified = "verified"

// VerifiedAnswer says which verified question answered, who verified it
// and when, and which of its values the asked question replaced.
type VerifiedAnswer struct {
	ID          int64                   `json:"id"`
	Question    string                  `json:"question"`
	By          string                  `json:"by"`
	At          time.Time               `json:"at"`
	Substituted []verified.Substitution `json:"substituted,omitempty"`
}

// WithVerified answers questions an analyst verified from b (before any
// generator is asked), gives the LLM the most similar ones as examples,
// and enables Verify and the other verified-question methods.
func WithVerified(b *verified.Book) Option { return func(o *Orchestrator) { o.book = b } }

// maxExamples bounds the verified examples a prompt may carry.
const maxExamples = 5

// ErrNoState is returned by the verified-question methods when no state
// database is configured.
var ErrNoState = errors.New("verified questions are off: no state database is configured (set state.path or state.dsn)")

// InputError is a verified question refused for what was sent, naming the
// field.
type InputError struct {
	Field   string
	Message string
}

func (e *InputError) Error() string { return e.Message }

// recall is the step before generation: a verified question with the
// same words, or the same words but for slot values the question fills,
// answers with its SQL and no generator. It reports whether it answered;
// when the verified SQL fails (the schema moved), the question is
// answered afresh.
func (run *question) recall(ctx context.Context) bool {
	o := run.o
	if o.book == nil {
		return false
	}
	req := verified.Request{Question: run.q.Question, Dialects: map[string]string{}, Today: map[string]string{}}
	for _, id := range run.databaseIDs() {
		k := run.base.knowledge(id)
		req.Databases = append(req.Databases, id)
		req.Dialects[id], req.Today[id] = k.k.Dialect, k.today
	}
	t0 := time.Now()
	hit := o.book.Lookup(ctx, req, resolver{run: run})
	if hit == nil {
		return false
	}
	e := hit.Entry
	conn, dialect := run.databaseConn(e.Database)
	if conn == nil {
		return false
	}
	if k := run.base.knowledge(e.Database); k.schema != "" && e.SchemaVersion != k.schema {
		// Not re-checked against this schema yet: check it now.
		if !o.recheckEntry(ctx, e, conn, dialect, k.schema) {
			return false
		}
	}
	run.log.Info("verified question matched", "event", "verified_matched", "component", "orchestrator", "id", e.ID,
		"server", e.Database, "substituted", len(hit.Substituted), "duration_ms", ms(time.Since(t0)))
	a0 := time.Now()
	data, err := o.exec.Run(ctx, run.log, conn, dialect, hit.SQL, run.maxRows, false, func(stage string) {
		run.progress(Progress{Stage: stage, Attempt: 1})
	})
	if err != nil {
		run.log.Warn("verified question failed; answering afresh", "event", "verified_failed", "component", "orchestrator",
			"id", e.ID, "error", err.Error())
		var qe *executor.QueryExecutionError
		if errors.As(err, &qe) && qe.Reason == executor.ReasonSQLExecution {
			if k := run.base.knowledge(e.Database); k.schema != "" {
				o.recheckEntry(ctx, e, conn, dialect, k.schema)
			}
		}
		return false
	}
	run.answerVerified(hit, data, conn, time.Since(a0))
	o.book.Used(ctx, e.ID)
	return true
}

// answerVerified makes hit, with its result, the question's answer.
func (run *question) answerVerified(hit *verified.Hit, data *executor.QueryData, conn *mcpclient.Conn, d time.Duration) {
	res, e := run.res, hit.Entry
	res.SQL = hit.SQL
	res.Result = data
	res.Metadata.Generator = GeneratorVerified
	res.Metadata.Confidence = 1
	res.Metadata.Executor = conn.ID()
	res.Metadata.MCPServersUsed = run.base.serversUsed(run.g, conn)
	at := Attempt{SQL: hit.SQL, DurationMS: d.Milliseconds()}
	if len(run.base.databases) > 1 {
		at.Server = e.Database
	}
	res.Attempts = append(res.Attempts, at)
	res.Verified = &VerifiedAnswer{ID: e.ID, Question: e.Question, By: e.VerifiedBy, At: e.VerifiedAt, Substituted: hit.Substituted}
	res.Explanation = fmt.Sprintf("The SQL an analyst verified for the question %q", e.Question)
	for i, s := range hit.Substituted {
		sep := ", with "
		if i > 0 {
			sep = " and "
		}
		res.Explanation += fmt.Sprintf("%s%q for %q", sep, s.To, s.From)
	}
	res.Explanation += "."
	for _, s := range hit.Substituted {
		res.Assumptions = append(res.Assumptions, fmt.Sprintf("%q instead of %q (%s)", s.To, s.From, slotWords(s)))
		if s.Column != "" && (s.Kind == verified.KindValue || s.Kind == verified.KindEntity) {
			res.ResolvedEntities[s.To] = map[string]string{s.Column: s.Value}
		}
	}
	if e.ValidOn != "" {
		res.Assumptions = append(res.Assumptions, "the verified SQL spells its period as fixed dates; it answers on "+e.ValidOn+" only")
	}
}

// slotWords names a slot's kind for people.
func slotWords(s verified.Substitution) string {
	switch s.Kind {
	case verified.KindValue:
		return "another value of " + s.Column
	case verified.KindEntity:
		return "another " + s.Column
	case verified.KindYear:
		return "another year"
	case verified.KindDate:
		return "another day"
	}
	return "another number"
}

// databaseIDs are the executors the question may be answered on, by
// priority.
func (run *question) databaseIDs() []string {
	var out []string
	for _, d := range run.base.databases {
		out = append(out, d.Server)
	}
	if len(out) == 0 {
		out = []string{run.exec.ID()}
	}
	return out
}

// databaseConn returns the executor of database id and its dialect.
func (run *question) databaseConn(id string) (*mcpclient.Conn, string) {
	if d, ok := run.base.dbs[id]; ok {
		return d.conn, d.dialect
	}
	if run.exec.ID() == id {
		return run.exec, run.base.dialect
	}
	return nil, ""
}

// examples are the verified questions most like the asked one, for the
// LLM's prompt, within the token budget.
func (run *question) examples(ctx context.Context) []sqlgen.Example {
	if run.o.book == nil {
		return nil
	}
	var out []sqlgen.Example
	for _, e := range run.o.book.Examples(ctx, run.q.Question, run.databaseIDs(), maxExamples) {
		out = append(out, sqlgen.Example{Server: e.Database, Question: e.Question, SQL: e.SQL})
	}
	return sqlgen.FitExamples(out, run.o.cfg.LLM.TokenBudget())
}

// resolver checks the values a question puts into a verified question's
// slots: against the catalog's named entities, the schema's listed
// values, and else the column itself (one bounded, read-only query).
type resolver struct{ run *question }

var _ verified.Resolver = resolver{}

// splitColumn splits "table.column" ("schema.table.column").
func splitColumn(ref string) (table, column string) {
	i := strings.LastIndexByte(ref, '.')
	if i < 0 {
		return "", ref
	}
	return ref[:i], ref[i+1:]
}

func (r resolver) Value(ctx context.Context, db string, s state.Slot, phrase string) (string, bool) {
	table, column := splitColumn(s.Column)
	if table == "" {
		return "", false
	}
	k := r.run.base.knowledge(db)
	want := verified.Normalize(phrase)
	for _, set := range k.k.Sets {
		if !strings.EqualFold(set.Table, table) || len(set.Columns) != 1 || !strings.EqualFold(set.Columns[0], column) {
			continue
		}
		for _, e := range set.Values {
			for _, n := range append([]string{e.Name}, e.Aliases...) {
				if verified.Normalize(n) == want {
					return e.Name, true
				}
			}
		}
	}
	for _, v := range k.k.Distinct[strings.ToLower(s.Column)] {
		if strings.EqualFold(v, phrase) {
			return v, true
		}
	}
	return r.lookupValue(ctx, db, table, column, phrase)
}

// lookupValue asks the database whether column holds phrase (ignoring
// case) and returns the value as stored.
func (r resolver) lookupValue(ctx context.Context, db, table, column, phrase string) (string, bool) {
	conn, dialect := r.run.databaseConn(db)
	if conn == nil {
		return "", false
	}
	d, err := sqlscan.ParseDialect(dialect)
	if err != nil {
		d = sqlscan.SQLite
	}
	lit, ok := quoteLiteral(d, strings.ToLower(phrase))
	if !ok {
		return "", false
	}
	col := quoteIdent(d, column)
	sql := fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE LOWER(%s) = %s LIMIT 2", col, quoteIdent(d, table), col, lit)
	data, err := r.run.o.exec.Run(ctx, r.run.log, conn, dialect, sql, 2, false, nil)
	if err != nil || data == nil || len(data.Rows) != 1 || len(data.Rows[0]) != 1 {
		return "", false
	}
	v, ok := data.Rows[0][0].(string)
	return v, ok
}

func (r resolver) EntityKey(_ context.Context, db string, s state.Slot, phrase string) (string, bool, bool) {
	table, key := splitColumn(s.Column)
	want := verified.Normalize(phrase)
	for _, set := range r.run.base.knowledge(db).k.Sets {
		if !strings.EqualFold(set.Table, table) || !strings.EqualFold(set.Key, key) {
			continue
		}
		for _, e := range set.Values {
			for _, n := range append([]string{e.Name}, e.Aliases...) {
				if verified.Normalize(n) == want && e.Key != "" {
					return e.Key, e.KeyIsText, true
				}
			}
		}
	}
	return "", false, false
}

// quoteIdent quotes a (schema-qualified) name for dialect d.
func quoteIdent(d sqlscan.Dialect, name string) string {
	q := `"`
	if d == sqlscan.MySQL {
		q = "`"
	}
	parts := strings.Split(name, ".")
	for i, p := range parts {
		parts[i] = q + strings.ReplaceAll(p, q, q+q) + q
	}
	return strings.Join(parts, ".")
}

// quoteLiteral writes v as a string literal of dialect d; ok is false
// when it holds a control character or, for MySQL, a backslash.
func quoteLiteral(d sqlscan.Dialect, v string) (string, bool) {
	if strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) ||
		(d == sqlscan.MySQL && strings.Contains(v, `\`)) {
		return "", false
	}
	return "'" + strings.ReplaceAll(v, "'", "''") + "'", true
}
