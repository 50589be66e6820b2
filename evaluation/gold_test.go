package evaluation

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"talk2tables/internal/fixtures"
)

// TestGold checks every fixture's gold SQL through the real database-mcp
// server (execute_query over MCP, today pinned to the as-of date): each
// runs, each answerable question's result is non-empty and not all NULL
// (with and without the fixture's edits), and two builds of a fixture hold
// the same data and give the same gold results.
func TestGold(t *testing.T) {
	for _, name := range fixtures.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			qs, err := fixtures.Questions(name)
			if err != nil {
				t.Fatal(err)
			}
			var results [2][]*Table
			var digests [2]string
			for build := range 2 {
				env, dbPath, err := FixtureEnv(ctx, name, t.TempDir(), "", InProcess, nil)
				if err != nil {
					t.Fatal(err)
				}
				digests[build] = contentDigest(t, dbPath)
				for _, q := range qs {
					if q.Decline {
						continue
					}
					for _, edited := range []bool{false, true} {
						if edited && q.EditedGold == "" {
							continue
						}
						got, err := env.Gold(ctx, q.GoldFor(edited))
						if err != nil {
							t.Errorf("%s (edited %v): gold SQL fails: %v", q.ID, edited, err)
							continue
						}
						if got.Empty() {
							t.Errorf("%s (edited %v): gold result is empty or all NULL (stale or weak question): %s", q.ID, edited, q.GoldFor(edited))
						}
						if build == 0 && os.Getenv("T2T_SHOW_GOLD") != "" {
							t.Logf("%s %q → %v %s", q.ID, q.Text, got.Columns, preview(anyRows(got.Rows)))
						}
						if !edited {
							results[build] = append(results[build], got)
						}
					}
				}
				env.Close()
			}
			if digests[0] != digests[1] {
				t.Errorf("two builds of %s hold different data (digest %s vs %s)", name, digests[0], digests[1])
			}
			for i := range results[0] {
				if err := Compare(results[1][i], results[0][i], true); err != nil {
					t.Errorf("gold result %d differs between two builds: %v", i, err)
				}
			}
		})
	}
}

func anyRows(rows [][]any) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		out[i] = r
	}
	return out
}

// contentDigest hashes every row of every table and view, in rowid or
// sorted order: equal digests mean equal data.
func contentDigest(tb testing.TB, path string) string {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	names := queryStrings(tb, db, `SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	h := sha256.New()
	for _, n := range names {
		probe, err := db.Query(fmt.Sprintf(`SELECT * FROM "%s" LIMIT 0`, n))
		if err != nil {
			tb.Fatalf("read %s: %v", n, err)
		}
		cols, _ := probe.Columns()
		probe.Close()
		order := make([]string, len(cols))
		for i := range cols {
			order[i] = fmt.Sprint(i + 1)
		}
		rows, err := db.Query(fmt.Sprintf(`SELECT * FROM "%s" ORDER BY %s`, n, strings.Join(order, ", ")))
		if err != nil {
			tb.Fatalf("read %s: %v", n, err)
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		fmt.Fprintf(h, "table %s %v\n", n, cols)
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				tb.Fatal(err)
			}
			fmt.Fprintf(h, "%v\n", vals)
		}
		if err := rows.Err(); err != nil {
			tb.Fatal(err)
		}
		rows.Close()
	}
	return hex.EncodeToString(h.Sum(nil))
}

func queryStrings(tb testing.TB, db *sql.DB, q string) []string {
	tb.Helper()
	rows, err := db.Query(q)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			tb.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}
