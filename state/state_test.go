package state

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"talk2tables/config"
	"talk2tables/internal/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// engines opens a fresh state database of each engine: an SQLite file in
// a temp dir and a PostgreSQL database of the test cluster.
func engines(t testing.TB) map[string]config.StateConfig {
	t.Helper()
	return map[string]config.StateConfig{
		EngineSQLite:   {Path: filepath.Join(t.TempDir(), "state.db")},
		EnginePostgres: {DSN: pgtest.NewDB(t).DSN()},
	}
}

func open(tb testing.TB, cfg config.StateConfig) *Store {
	tb.Helper()
	s, err := Open(context.Background(), cfg, nil)
	if err != nil {
		tb.Fatalf("open %+v: %v", cfg, err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func entry(db, q string) Entry {
	return Entry{Database: db, Question: q, Normalized: q, SQL: "SELECT 1", VerifiedBy: "cli",
		Slots: []Slot{{Kind: "number", Phrase: "5", Value: "5", Spans: []Span{{Start: 7, End: 8}}}}}
}

func TestStore(t *testing.T) {
	for name, cfg := range engines(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t, cfg)
			if s.Engine() != name {
				t.Fatalf("engine = %s, want %s", s.Engine(), name)
			}
			rev0, err := s.Revision(ctx)
			if err != nil {
				t.Fatal(err)
			}
			a, err := s.Add(ctx, entry("db1", "top 5 products"))
			if err != nil {
				t.Fatal(err)
			}
			if a.ID <= 0 || a.Status != StatusVerified || a.Revision <= rev0 {
				t.Fatalf("added %+v: want an id, status verified and a new revision", a)
			}
			// The same question on another database is another entry; on the
			// same database it is a duplicate naming the first.
			if _, err := s.Add(ctx, entry("db2", "top 5 products")); err != nil {
				t.Fatalf("same question, other database: %v", err)
			}
			_, err = s.Add(ctx, entry("db1", "top 5 products"))
			var de *DuplicateError
			if !errors.As(err, &de) || de.ExistingID != a.ID {
				t.Fatalf("duplicate: err = %v, want a DuplicateError naming %d", err, a.ID)
			}

			got, err := s.Get(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Question != a.Question || len(got.Slots) != 1 || got.Slots[0].Spans[0].End != 8 ||
				!got.VerifiedAt.Equal(a.VerifiedAt) {
				t.Fatalf("got %+v, want %+v", got, a)
			}
			if _, err := s.Get(ctx, 999999); !errors.Is(err, ErrNotFound) {
				t.Fatalf("get unknown: %v, want ErrNotFound", err)
			}

			// Use counts do not move the revision; status changes do.
			rev1, _ := s.Revision(ctx)
			if err := s.MarkUsed(ctx, a.ID, time.Now()); err != nil {
				t.Fatal(err)
			}
			if r, _ := s.Revision(ctx); r != rev1 {
				t.Errorf("MarkUsed moved the revision %d → %d", rev1, r)
			}
			if err := s.SetStatus(ctx, a.ID, StatusStale, "no such column: x", "h2"); err != nil {
				t.Fatal(err)
			}
			if r, _ := s.Revision(ctx); r == rev1 {
				t.Errorf("SetStatus to stale did not move the revision")
			}
			got, _ = s.Get(ctx, a.ID)
			if got.UseCount != 1 || got.LastUsed == nil || got.Status != StatusStale || got.StaleReason == "" || got.SchemaVersion != "h2" {
				t.Errorf("after use and stale: %+v", got)
			}

			list, total, err := s.List(ctx, Filter{Database: "db1"})
			if err != nil || total != 1 || len(list) != 1 {
				t.Fatalf("list db1: %d entries (total %d), err %v; want 1", len(list), total, err)
			}
			if _, total, _ := s.List(ctx, Filter{Text: "PRODUCTS"}); total != 2 {
				t.Errorf("text search PRODUCTS: %d entries, want 2", total)
			}
			if _, total, _ := s.List(ctx, Filter{Text: "50%_off"}); total != 0 {
				t.Errorf("text search with LIKE wildcards: %d entries, want 0 (the pattern is literal)", total)
			}
			if _, total, _ := s.List(ctx, Filter{Status: StatusStale}); total != 1 {
				t.Errorf("status stale: %d entries, want 1", total)
			}

			got.Question, got.Normalized, got.Status = "top 10 products", "top 10 products", StatusVerified
			if _, err := s.Update(ctx, got); err != nil {
				t.Fatal(err)
			}
			if err := s.Delete(ctx, a.ID); err != nil {
				t.Fatal(err)
			}
			if err := s.Delete(ctx, a.ID); !errors.Is(err, ErrNotFound) {
				t.Fatalf("second delete: %v, want ErrNotFound", err)
			}
		})
	}
}

// TestImportAllOrNothing: an import with a bad entry stores nothing.
func TestImportAllOrNothing(t *testing.T) {
	for name, cfg := range engines(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t, cfg)
			if _, err := s.Add(ctx, entry("db", "b")); err != nil {
				t.Fatal(err)
			}
			_, _, err := s.Import(ctx, []Entry{entry("db", "a"), entry("db", "b"), entry("db", "c")}, false)
			var ie *ImportError
			if !errors.As(err, &ie) || ie.Index != 1 {
				t.Fatalf("import with a duplicate: %v, want an ImportError at index 1", err)
			}
			if _, total, _ := s.List(ctx, Filter{}); total != 1 {
				t.Fatalf("%d entries after a refused import, want the 1 from before", total)
			}
			added, replaced, err := s.Import(ctx, []Entry{entry("db", "a"), entry("db", "b")}, true)
			if err != nil || added != 1 || replaced != 1 {
				t.Fatalf("import with replace: added %d replaced %d err %v; want 1, 1", added, replaced, err)
			}
		})
	}
}

// TestMigrations: reopening migrates nothing twice, and a database from a
// newer build is refused with what to do.
func TestMigrations(t *testing.T) {
	for name, cfg := range engines(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			// Several openers at once (replicas starting together).
			var wg sync.WaitGroup
			errs := make([]error, 4)
			for i := range errs {
				wg.Go(func() {
					s, err := Open(ctx, cfg, nil)
					if err == nil {
						s.Close()
					}
					errs[i] = err
				})
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatalf("concurrent open: %v", err)
				}
			}
			s := open(t, cfg)
			var n int
			if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM state_schema_version`).Scan(&n); err != nil || n != len(migrations) {
				t.Fatalf("state_schema_version has %d rows (err %v), want %d", n, err, len(migrations))
			}
			if _, err := s.db.ExecContext(ctx, s.rebind(`INSERT INTO state_schema_version (version, name, applied_at) VALUES (?, 'future', 'x')`),
				SchemaVersion()+1); err != nil {
				t.Fatal(err)
			}
			_, err := Open(ctx, cfg, nil)
			if err == nil || !contains(err.Error(), "newer than this talk2tables knows") {
				t.Fatalf("open a newer database: %v", err)
			}
		})
	}
}

// TestOpenErrors: a directory for a file, and an unreachable PostgreSQL,
// are errors saying what is wrong.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(context.Background(), config.StateConfig{Path: dir}, nil); err == nil || !contains(err.Error(), "is a directory") {
		t.Errorf("a directory as state.path: %v", err)
	}
	_, err := Open(context.Background(), config.StateConfig{DSN: "postgres://nobody@127.0.0.1:1/none"}, nil)
	if err == nil || !contains(err.Error(), "state.dsn") {
		t.Errorf("unreachable PostgreSQL: %v", err)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
