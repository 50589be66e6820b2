package state

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// Entry is one verified question.
type Entry struct {
	ID int64 `json:"id"`
	// Database is the id of the executor server whose database the SQL
	// runs on.
	Database string `json:"database"`
	Question string `json:"question"`
	// Normalized is the question as matched: lower case, no punctuation,
	// no stop words. One per database.
	Normalized string `json:"normalized"`
	SQL        string `json:"sql"`
	// Slots are the literals of the SQL the question also names, which a
	// question differing only in them may replace.
	Slots []Slot `json:"slots"`
	// VerifiedBy is who taught it: an editor API key's name, "ui", "api",
	// "mcp" or "cli".
	VerifiedBy string     `json:"verified_by"`
	VerifiedAt time.Time  `json:"verified_at"`
	UseCount   int64      `json:"use_count"`
	LastUsed   *time.Time `json:"last_used,omitempty"`
	Status     string     `json:"status"`
	// StaleReason says why a stale entry no longer validates.
	StaleReason string `json:"stale_reason,omitempty"`
	// SchemaVersion identifies the database schema the SQL was last
	// checked against.
	SchemaVersion string `json:"schema_version"`
	// ValidOn, when set, is the one day (the database's today) the answer
	// holds: its question names a period relative to today ("last month")
	// and its SQL spells that period as fixed dates.
	ValidOn string `json:"valid_on,omitempty"`
	// Revision is the state revision of the entry's last change.
	Revision int64 `json:"-"`
}

// Slot is a literal of an entry's SQL that its question also names: a
// number (top 5), a year, a date, or a value of a column (quoted, or a
// named entity whose key the SQL holds).
type Slot struct {
	Kind string `json:"kind"` // number | year | date | value | entity
	// Column is the table.column a value or entity belongs to.
	Column string `json:"column,omitempty"`
	// Phrase is the slot as the question says it ("canada", "2025").
	Phrase string `json:"phrase"`
	// Value is the slot as the SQL says it (Canada, 2025, 123).
	Value string `json:"value"`
	// Spans are the SQL literals the slot fills (byte offsets).
	Spans []Span `json:"spans"`
}

// Span is a literal's place in the SQL: [Start, End) in bytes.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// ErrNotFound is returned for an id no entry has.
var ErrNotFound = errors.New("no verified question with that id")

// DuplicateError is returned when the database already has an entry with
// the same normalized question.
type DuplicateError struct {
	ExistingID int64
	Question   string
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("the question %q is already verified (entry %d); change that entry instead", e.Question, e.ExistingID)
}

// columns are the entry columns in scan order.
const columns = `id, database, question, normalized, sql, slots, verified_by, verified_at, use_count, last_used,
	status, stale_reason, schema_version, valid_on, revision`

// scanner is a row or rows.
type scanner interface{ Scan(dest ...any) error }

func scanEntry(r scanner) (Entry, error) {
	var e Entry
	var slots, at string
	var last sql.NullString
	if err := r.Scan(&e.ID, &e.Database, &e.Question, &e.Normalized, &e.SQL, &slots, &e.VerifiedBy, &at, &e.UseCount,
		&last, &e.Status, &e.StaleReason, &e.SchemaVersion, &e.ValidOn, &e.Revision); err != nil {
		return e, err
	}
	var err error
	if e.VerifiedAt, err = parseTime(at); err != nil {
		return e, fmt.Errorf("entry %d: verified_at %q: %w", e.ID, at, err)
	}
	if last.Valid {
		t, err := parseTime(last.String)
		if err != nil {
			return e, fmt.Errorf("entry %d: last_used %q: %w", e.ID, last.String, err)
		}
		e.LastUsed = &t
	}
	if err := json.Unmarshal([]byte(slots), &e.Slots); err != nil {
		return e, fmt.Errorf("entry %d: slots: %w", e.ID, err)
	}
	if e.Slots == nil {
		e.Slots = []Slot{}
	}
	return e, nil
}

// bump increments the revision in tx and returns the new one.
func (s *Store) bump(ctx context.Context, tx execer) (int64, error) {
	if _, err := tx.ExecContext(ctx, `UPDATE state_revision SET revision = revision + 1 WHERE id = 1`); err != nil {
		return 0, err
	}
	var rev int64
	err := tx.QueryRowContext(ctx, `SELECT revision FROM state_revision WHERE id = 1`).Scan(&rev)
	return rev, err
}

// Revision is the state's revision: it changes whenever an entry is added,
// changed, deleted or changes status.
func (s *Store) Revision(ctx context.Context) (int64, error) {
	var rev int64
	err := s.db.QueryRowContext(ctx, `SELECT revision FROM state_revision WHERE id = 1`).Scan(&rev)
	return rev, err
}

// Add stores a new entry (its ID, use count and revision are assigned) and
// returns it. The same normalized question on the same database is a
// *DuplicateError.
func (s *Store) Add(ctx context.Context, e Entry) (Entry, error) {
	var out Entry
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = s.insert(ctx, tx, e)
		return err
	})
	var de *DuplicateError
	if errors.As(err, &de) && de.ExistingID < 0 {
		// Lost a race with another replica: name the entry it stored.
		if id, ok, lerr := s.existing(ctx, s.db, e.Database, e.Normalized, 0); lerr == nil && ok {
			de.ExistingID = id
		}
	}
	return out, err
}

// insert adds e in tx.
func (s *Store) insert(ctx context.Context, tx *sql.Tx, e Entry) (Entry, error) {
	if id, ok, err := s.existing(ctx, tx, e.Database, e.Normalized, 0); err != nil {
		return e, err
	} else if ok {
		return e, &DuplicateError{ExistingID: id, Question: e.Question}
	}
	rev, err := s.bump(ctx, tx)
	if err != nil {
		return e, err
	}
	e.Revision = rev
	if e.Status == "" {
		e.Status = StatusVerified
	}
	if e.Slots == nil {
		e.Slots = []Slot{}
	}
	slots, err := json.Marshal(e.Slots)
	if err != nil {
		return e, err
	}
	if e.VerifiedAt.IsZero() {
		e.VerifiedAt = time.Now()
	}
	e.VerifiedAt = e.VerifiedAt.UTC().Truncate(time.Microsecond)
	var last any
	if e.LastUsed != nil {
		last = formatTime(*e.LastUsed)
	}
	q := `INSERT INTO verified_questions (database, question, normalized, sql, slots, verified_by, verified_at, use_count,
		last_used, status, stale_reason, schema_version, valid_on, revision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		RETURNING id`
	err = tx.QueryRowContext(ctx, s.rebind(q), e.Database, e.Question, e.Normalized, e.SQL, string(slots), e.VerifiedBy,
		formatTime(e.VerifiedAt), e.UseCount, last, e.Status, e.StaleReason, e.SchemaVersion, e.ValidOn, e.Revision).Scan(&e.ID)
	if err != nil && isUniqueViolation(err) {
		// Another writer (a replica) stored the same question since the
		// check above.
		return e, &DuplicateError{Question: e.Question, ExistingID: -1}
	}
	return e, err
}

// isUniqueViolation reports a UNIQUE constraint error of either engine.
func isUniqueViolation(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "23505"
	}
	return strings.Contains(err.Error(), "UNIQUE constraint failed")
}

// existing finds the entry of database with normalized question n, other
// than except.
func (s *Store) existing(ctx context.Context, tx execer, database, n string, except int64) (int64, bool, error) {
	var id int64
	err := tx.QueryRowContext(ctx, s.rebind(`SELECT id FROM verified_questions WHERE database = ? AND normalized = ? AND id <> ?`),
		database, n, except).Scan(&id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, nil
	case err != nil:
		return 0, false, err
	}
	return id, true, nil
}

// Find returns the entry of database whose normalized question is n.
func (s *Store) Find(ctx context.Context, database, n string) (Entry, bool, error) {
	e, err := scanEntry(s.db.QueryRowContext(ctx, s.rebind(`SELECT `+columns+` FROM verified_questions WHERE database = ? AND normalized = ?`),
		database, n))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return e, false, nil
	case err != nil:
		return e, false, err
	}
	return e, true, nil
}

// Get returns the entry with id, or ErrNotFound.
func (s *Store) Get(ctx context.Context, id int64) (Entry, error) {
	e, err := scanEntry(s.db.QueryRowContext(ctx, s.rebind(`SELECT `+columns+` FROM verified_questions WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return e, ErrNotFound
	}
	return e, err
}

// Filter selects entries for List.
type Filter struct {
	Database string // "" for every database
	Status   string // "" for every status
	// Text, when set, keeps the entries whose question or SQL holds it
	// (ignoring case).
	Text   string
	Limit  int // 0: all
	Offset int
}

// List returns the entries f selects, newest first, and how many there
// are without Limit and Offset.
func (s *Store) List(ctx context.Context, f Filter) ([]Entry, int, error) {
	var where []string
	var args []any
	if f.Database != "" {
		where = append(where, "database = ?")
		args = append(args, f.Database)
	}
	if f.Status != "" {
		where = append(where, "status = ?")
		args = append(args, f.Status)
	}
	if t := strings.TrimSpace(f.Text); t != "" {
		pat := "%" + likeEscaper.Replace(strings.ToLower(t)) + "%"
		where = append(where, `(LOWER(question) LIKE ? ESCAPE '\' OR LOWER(sql) LIKE ? ESCAPE '\')`)
		args = append(args, pat, pat)
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	var total int
	if err := s.db.QueryRowContext(ctx, s.rebind(`SELECT COUNT(*) FROM verified_questions`+cond), args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	q := `SELECT ` + columns + ` FROM verified_questions` + cond + ` ORDER BY verified_at DESC, id DESC`
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d OFFSET %d", f.Limit, max(0, f.Offset))
	}
	rows, err := s.db.QueryContext(ctx, s.rebind(q), args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []Entry{}
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, e)
	}
	return out, total, rows.Err()
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// All returns every entry, oldest first, and the revision they are at.
func (s *Store) All(ctx context.Context) ([]Entry, int64, error) {
	var out []Entry
	var rev int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT revision FROM state_revision WHERE id = 1`).Scan(&rev); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+columns+` FROM verified_questions ORDER BY id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			e, err := scanEntry(rows)
			if err != nil {
				return err
			}
			out = append(out, e)
		}
		return rows.Err()
	})
	return out, rev, err
}

// Update replaces an entry's question, SQL, slots, status and schema
// version (who verified it and when too, as given); ErrNotFound when it is
// gone, *DuplicateError when another entry has the new question.
func (s *Store) Update(ctx context.Context, e Entry) (Entry, error) {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if id, ok, err := s.existing(ctx, tx, e.Database, e.Normalized, e.ID); err != nil {
			return err
		} else if ok {
			return &DuplicateError{ExistingID: id, Question: e.Question}
		}
		rev, err := s.bump(ctx, tx)
		if err != nil {
			return err
		}
		slots, err := json.Marshal(e.Slots)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, s.rebind(`UPDATE verified_questions SET question = ?, normalized = ?, sql = ?, slots = ?,
			verified_by = ?, verified_at = ?, status = ?, stale_reason = ?, schema_version = ?, valid_on = ?, revision = ?
			WHERE id = ?`), e.Question, e.Normalized, e.SQL, string(slots), e.VerifiedBy, formatTime(e.VerifiedAt), e.Status,
			e.StaleReason, e.SchemaVersion, e.ValidOn, rev, e.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		e.Revision = rev
		return nil
	})
	return e, err
}

// Delete removes the entry with id; ErrNotFound when there is none.
func (s *Store) Delete(ctx context.Context, id int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.rebind(`DELETE FROM verified_questions WHERE id = ?`), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		_, err = s.bump(ctx, tx)
		return err
	})
}

// MarkUsed counts one use of the entry. It leaves the revision alone: use
// counts change no match.
func (s *Store) MarkUsed(ctx context.Context, id int64, at time.Time) error {
	_, err := s.db.ExecContext(ctx, s.rebind(`UPDATE verified_questions SET use_count = use_count + 1, last_used = ? WHERE id = ?`),
		formatTime(at), id)
	return err
}

// SetStatus records the outcome of re-checking an entry against the
// schema schemaVersion: verified, or stale with the reason. It bumps the
// revision only when the status changes.
func (s *Store) SetStatus(ctx context.Context, id int64, status, reason, schemaVersion string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var cur string
		err := tx.QueryRowContext(ctx, s.rebind(`SELECT status FROM verified_questions WHERE id = ?`), id).Scan(&cur)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		rev := int64(-1)
		if cur != status {
			if rev, err = s.bump(ctx, tx); err != nil {
				return err
			}
		}
		q := `UPDATE verified_questions SET status = ?, stale_reason = ?, schema_version = ? WHERE id = ?`
		args := []any{status, reason, schemaVersion, id}
		if rev >= 0 {
			q = `UPDATE verified_questions SET status = ?, stale_reason = ?, schema_version = ?, revision = ? WHERE id = ?`
			args = []any{status, reason, schemaVersion, rev, id}
		}
		_, err = tx.ExecContext(ctx, s.rebind(q), args...)
		return err
	})
}

// ImportError names the entry of an import that could not be stored.
type ImportError struct {
	Index int // 0-based, in the order given
	Err   error
}

func (e *ImportError) Error() string { return fmt.Sprintf("entry %d: %v", e.Index+1, e.Err) }
func (e *ImportError) Unwrap() error { return e.Err }

// Import stores entries in one transaction: all of them, or none when one
// fails (an *ImportError naming it). With replace, an entry whose
// normalized question its database already has replaces that one instead
// of being a duplicate.
func (s *Store) Import(ctx context.Context, entries []Entry, replace bool) (added, replaced int, err error) {
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		added, replaced = 0, 0
		for i, e := range entries {
			if replace {
				id, ok, err := s.existing(ctx, tx, e.Database, e.Normalized, 0)
				if err != nil {
					return &ImportError{Index: i, Err: err}
				}
				if ok {
					if _, err := tx.ExecContext(ctx, s.rebind(`DELETE FROM verified_questions WHERE id = ?`), id); err != nil {
						return &ImportError{Index: i, Err: err}
					}
					replaced++
				}
			}
			if _, err := s.insert(ctx, tx, e); err != nil {
				return &ImportError{Index: i, Err: err}
			}
			added++
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	return added - replaced, replaced, nil
}

// inTx runs fn in a transaction, committed when fn returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}
