package builtin_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"talk2tables/orchestrator/builtin"
)

// TestTextFlagWithoutCatalog: a yes/no column stored as '0'/'1' text (as
// many exported databases keep booleans) is a filter when it qualifies the
// table's noun, read from its two values with no catalog: never a listing
// of the column or a count of its distinct values.
func TestTextFlagWithoutCatalog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "items.db")
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE Items (ItemID INTEGER PRIMARY KEY, ItemName TEXT NOT NULL, Retired TEXT NOT NULL DEFAULT '0')`); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 20; i++ {
		if _, err := db.Exec(`INSERT INTO Items VALUES (?, ?, ?)`, i, fmt.Sprintf("Item %d", i), fmt.Sprint(min(i%3, 1))); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	ro, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	req := schemaOnlyRequest(t, path, "2026-01-01")
	g := builtin.New(nil)
	for _, c := range []struct{ q, want string }{
		{"how many retired items", `SELECT COUNT(*) FROM Items WHERE Retired = '1'`},
		{"number of items not retired", `SELECT COUNT(*) FROM Items WHERE Retired = '0'`},
		{"retired items", `SELECT * FROM Items WHERE Retired = '1'`},
	} {
		t.Run(c.q, func(t *testing.T) {
			req.Question = c.q
			plan, err := g.Generate(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			got, want := countRows(t, ro, plan.SQL), countRows(t, ro, c.want)
			if got != want {
				t.Fatalf("%s\nreturned %v, want %v (%s)", plan.SQL, got, want, c.want)
			}
		})
	}
}

// countRows is the row count of a listing, or the value of a one-cell count.
func countRows(t testing.TB, db *sql.DB, q string) int64 {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var n, v int64
	for rows.Next() {
		n++
		if len(cols) == 1 {
			if err := rows.Scan(&v); err != nil {
				return -1
			}
		}
	}
	if len(cols) == 1 && n == 1 {
		return v
	}
	return n
}
