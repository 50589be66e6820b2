package builtin

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"talk2tables/catalog"
	"talk2tables/catalog/draft"
	"talk2tables/databasemcp"
	"talk2tables/orchestrator/sqlgen"
)

// draftCatalog drafts a catalog of the database at dbPath into a file, as
// `talk2tables catalog init` does.
func draftCatalog(tb testing.TB, dbPath string) string {
	tb.Helper()
	db, err := databasemcp.Open(context.Background(), dbPath, databasemcp.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	s, err := draft.Draft(context.Background(), db, draft.Options{Database: filepath.Base(dbPath)})
	if err != nil {
		tb.Fatal(err)
	}
	b, err := catalog.Marshal(s)
	if err != nil {
		tb.Fatal(err)
	}
	out := filepath.Join(tb.TempDir(), "drafted.json")
	if err := os.WriteFile(out, b, 0o600); err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestDraftedCatalogsNeverWrong asks every question of our own question
// sets with the catalog the drafter writes instead of the hand-written one:
// words differ, so some are declined, but none may be answered wrongly.
func TestDraftedCatalogsNeverWrong(t *testing.T) {
	sets := []struct {
		name     string
		db       func(testing.TB) string
		qs       []question
		declines []string
	}{
		{"sales", func(tb testing.TB) string { return pinnedSalesDB(tb, 5000) }, salesQuestions(), salesDeclines()},
		{"bookstore", bookstoreDB, bookstoreQuestions(), nil},
		{"store", storeDB, storeQuestions(), nil},
		{"music", musicDB, musicQuestions(), nil},
	}
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			path := set.db(t)
			e := newEnv(t, path, draftCatalog(t, path))
			withViews(t, e.req.Servers[len(e.req.Servers)-1].Resources["database://schema"].(map[string]any), path)
			g := New(nil)
			correct := 0
			for _, c := range set.qs {
				req := e.req
				req.Question = c.q
				plan, err := g.Generate(context.Background(), req)
				var ge *sqlgen.SQLGenerationError
				switch {
				case errors.As(err, &ge):
					continue
				case err != nil:
					t.Fatalf("%q: %v", c.q, err)
				}
				got, want := e.rows(t, plan.SQL), e.rows(t, c.want)
				ordered := c.ordered || strings.Contains(strings.ToUpper(c.want), " LIMIT ")
				if err := sameRowsLoose(got, want, ordered); err != nil {
					t.Errorf("WRONG %q:\n  sql:  %s\n  want: %s\n  %v", c.q, plan.SQL, c.want, err)
					continue
				}
				correct++
			}
			for _, q := range set.declines {
				req := e.req
				req.Question = q
				if plan, err := g.Generate(context.Background(), req); err == nil {
					t.Errorf("answered %q (must decline): %s", q, plan.SQL)
				}
			}
			t.Logf("%s with a drafted catalog: %d of %d correct, the rest declined", set.name, correct, len(set.qs))
		})
	}
}
