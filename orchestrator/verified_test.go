package orchestrator

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"talk2tables/config"
	"talk2tables/databasemcp"
	"talk2tables/internal/llmtest"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/verified"
	"talk2tables/sqlerr"
	"talk2tables/state"
)

// newBook opens a fresh SQLite state database and its book.
func newBook(tb testing.TB) *verified.Book {
	tb.Helper()
	st, err := state.Open(context.Background(), config.StateConfig{Path: filepath.Join(tb.TempDir(), "state.db")}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	b := verified.New(st, 0, nil)
	if err := b.Load(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return b
}

// verifiedOrch is the sample database and catalog in-process, with a
// state database, answered by gen.
func verifiedOrch(t testing.TB, f *fixture, gen Option) (*Orchestrator, *verified.Book) {
	t.Helper()
	book := newBook(t)
	o := newOrch(t, inprocConfig(), WithInProcessServer("database_mcp", f.dbServer(t)),
		WithInProcessServer("product_metadata_mcp", f.metaServer(t)), WithVerified(book), gen)
	return o, book
}

const taughtSQL = `SELECT ROUND(SUM(total_amount), 2) AS total FROM sales
	WHERE product_id = 123 AND region = 'East' AND sale_date >= '2025-01-01' AND sale_date < '2026-01-01'`

// TestVerifiedAnswers: a verified question answers its paraphrases and
// its slot variants with no generator asked, says so, and leaves other
// questions to the generator — which gets the verified pairs as examples.
func TestVerifiedAnswers(t *testing.T) {
	f := newFixture(t)
	llm := llmtest.New(t, llmtest.Step{Content: llmtest.Plan("SELECT COUNT(*) FROM orders", nil, "counts orders")})
	o, book := verifiedOrch(t, f, WithGenerator(llmGen(t, llm)))
	ctx := context.Background()

	taught, err := o.Verify(ctx, Teach{Question: "Total sales of abracadabra in the East region in 2025", SQL: taughtSQL, By: "ana"})
	if err != nil {
		t.Fatal(err)
	}
	e := taught.Entry
	if e.Database != "database_mcp" || e.VerifiedBy != "ana" || e.Status != state.StatusVerified || e.SchemaVersion == "" {
		t.Errorf("entry %+v", e)
	}
	var kinds []string
	for _, s := range e.Slots {
		kinds = append(kinds, s.Kind+":"+s.Column)
	}
	if want := []string{"entity:products.product_id", "value:sales.region", "year:"}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("slots %v, want %v", kinds, want)
	}
	if taught.Result == nil || taught.Result.RowCount != 1 {
		t.Fatalf("no result returned for review: %+v", taught.Result)
	}

	for _, tt := range []struct {
		name, question string
		want           string // the SQL whose result the answer must have
		substituted    int
	}{
		{"paraphrase", "What are the total sales of Abracadabra in the east region in 2025?", taughtSQL, 0},
		{"another product, region and year", "total sales of espresso master in the west region in 2024",
			strings.NewReplacer("123", "202", "'East'", "'West'", "2025-01-01", "2024-01-01", "2026-01-01", "2025-01-01").Replace(taughtSQL), 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := o.Process(ctx, Query{Question: tt.question})
			if err != nil {
				t.Fatalf("Process: %v", err)
			}
			if res.Verified == nil || res.Verified.ID != e.ID || res.Verified.By != "ana" {
				t.Fatalf("verified = %+v, want entry %d by ana", res.Verified, e.ID)
			}
			if len(res.Verified.Substituted) != tt.substituted {
				t.Errorf("substituted %+v, want %d", res.Verified.Substituted, tt.substituted)
			}
			if res.Metadata.Generator != GeneratorVerified {
				t.Errorf("generator = %q, want %q", res.Metadata.Generator, GeneratorVerified)
			}
			if want := f.direct(t, tt.want); !reflect.DeepEqual(res.Result.Rows, want) {
				t.Errorf("rows = %v, want %v (sql %s)", res.Result.Rows, want, res.SQL)
			}
		})
	}
	if n := len(llm.Requests()); n != 0 {
		t.Fatalf("the LLM was asked %d times for verified questions", n)
	}

	t.Run("a value the column does not have is answered afresh", func(t *testing.T) {
		res, err := o.Process(ctx, Query{Question: "total sales of abracadabra in the Atlantis region in 2025"})
		if err != nil {
			t.Fatalf("Process: %v", err)
		}
		if res.Verified != nil {
			t.Fatalf("answered by verified %d with %s", res.Verified.ID, res.SQL)
		}
		reqs := llm.Requests()
		if len(reqs) != 1 {
			t.Fatalf("LLM requests = %d, want 1", len(reqs))
		}
		if u := reqs[0].User(); !strings.Contains(u, "Verified examples") || !strings.Contains(u, e.Question) {
			t.Errorf("the prompt has no verified example:\n%s", u)
		}
	})

	t.Run("uses are counted", func(t *testing.T) {
		got, err := book.Store().Get(ctx, e.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.UseCount != 2 || got.LastUsed == nil {
			t.Errorf("use_count %d, last_used %v; want 2 and a time", got.UseCount, got.LastUsed)
		}
	})
}

// TestVerifyRefuses: every bad input is refused with what was wrong, and
// nothing is stored.
func TestVerifyRefuses(t *testing.T) {
	f := newFixture(t)
	o, book := verifiedOrch(t, f, WithGenerator(nil))
	ctx := context.Background()
	if _, err := o.Verify(ctx, Teach{Question: "how many orders", SQL: "SELECT COUNT(*) FROM orders", By: "cli"}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		t    Teach
		is   func(error) bool
	}{
		{"write statement", Teach{Question: "drop them", SQL: "DELETE FROM orders"}, category(sqlerr.PermissionError)},
		{"SQL that does not run", Teach{Question: "nothing", SQL: "SELECT nope FROM orders"}, category(sqlerr.MissingColumn)},
		{"question too long", Teach{Question: strings.Repeat("why ", 600), SQL: "SELECT 1"}, field("question")},
		{"no question", Teach{Question: " ", SQL: "SELECT 1"}, field("question")},
		{"only stop words", Teach{Question: "what is the", SQL: "SELECT 1"}, field("question")},
		{"no SQL", Teach{Question: "count", SQL: ""}, field("sql")},
		{"unknown server", Teach{Question: "count", SQL: "SELECT 1", Server: "nope"}, func(err error) bool {
			var ue *mcpclient.UnknownExecutorError
			return errors.As(err, &ue)
		}},
		{"duplicate", Teach{Question: "How many orders?", SQL: "SELECT 2"}, func(err error) bool {
			var de *state.DuplicateError
			return errors.As(err, &de) && de.ExistingID > 0
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := o.Verify(ctx, tt.t)
			if err == nil || !tt.is(err) {
				t.Fatalf("err = %v (%T)", err, err)
			}
		})
	}
	if _, total, _ := book.Store().List(ctx, state.Filter{}); total != 1 {
		t.Errorf("%d entries stored, want 1", total)
	}
}

func category(c sqlerr.Category) func(error) bool {
	return func(err error) bool {
		var qe *executor.QueryExecutionError
		return errors.As(err, &qe) && qe.Category == c
	}
}

func field(name string) func(error) bool {
	return func(err error) bool {
		var ie *InputError
		return errors.As(err, &ie) && ie.Field == name
	}
}

// TestVerifiedStale: when the schema changes under a verified question,
// it is re-checked, turns stale with the database's reason and is not
// used; the question is answered afresh.
func TestVerifiedStale(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "shop.db")
	w, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, q := range []string{`CREATE TABLE items (id INTEGER PRIMARY KEY, colour TEXT, weight REAL)`,
		`INSERT INTO items (colour, weight) VALUES ('red', 1.5), ('blue', 2), ('red', 3)`} {
		if _, err := w.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db, err := databasemcp.Open(context.Background(), path, databasemcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cfg := inprocConfig()
	delete(cfg.MCPServers, "product_metadata_mcp")
	cfg.Orchestration.ResourceCacheTTL = 0 // every question reads the schema afresh
	cfg.LLM.Provider = config.ProviderBuiltin
	book := newBook(t)
	srv := databasemcp.NewServer(db, nil)
	o := newOrch(t, cfg, WithInProcessServer("database_mcp", srv), WithVerified(book))
	ctx := context.Background()
	// As database-mcp does: a changed file is announced to the clients.
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go databasemcp.NotifyDataChanges(wctx, db, srv, nil)
	taught, err := o.Verify(ctx, Teach{Question: "heaviest red item", SQL: "SELECT MAX(weight) FROM items WHERE colour = 'red'", By: "cli"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := o.Process(ctx, Query{Question: "heaviest blue item"})
	if err != nil || res.Verified == nil || fmt.Sprint(res.Result.Rows) != "[[2]]" {
		t.Fatalf("before the change: %+v, %v", res, err)
	}

	if _, err := w.Exec(`ALTER TABLE items RENAME COLUMN weight TO grams`); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the verified question is no longer used", func() bool {
		res, _ := o.Process(ctx, Query{Question: "heaviest red item"})
		return res.Verified == nil
	})
	eventually(t, "the entry turns stale", func() bool {
		e, err := book.Store().Get(ctx, taught.Entry.ID)
		return err == nil && e.Status == state.StatusStale && strings.Contains(e.StaleReason, "weight")
	})
	// Fixed by a new SQL, it is verified again.
	fixed := "SELECT MAX(grams) FROM items WHERE colour = 'red'"
	again, err := o.Reverify(ctx, taught.Entry.ID, Change{SQL: &fixed, By: "ana"})
	if err != nil {
		t.Fatal(err)
	}
	if again.Entry.Status != state.StatusVerified || again.Entry.VerifiedBy != "ana" {
		t.Errorf("after the fix: %+v", again.Entry)
	}
	res, err = o.Process(ctx, Query{Question: "heaviest red item"})
	if err != nil || res.Verified == nil || fmt.Sprint(res.Result.Rows) != "[[3]]" {
		t.Fatalf("after the fix: %+v, %v", res, err)
	}
}
