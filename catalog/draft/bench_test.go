package draft

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// wideDB builds a database of n tables of 10 columns each (a foreign-key
// chain, a name, a date, money, a quantity, a status, a code, a flag and a
// note) with rows rows per table.
func wideDB(tb testing.TB, n, rows int) string {
	tb.Helper()
	var ddl strings.Builder
	for i := range n {
		ref := ""
		if i > 0 {
			ref = fmt.Sprintf(" REFERENCES t%03d(t%03d_id)", i-1, i-1)
		}
		fmt.Fprintf(&ddl, `CREATE TABLE t%03d (t%03d_id INTEGER PRIMARY KEY, parent_id INTEGER%s, item_name TEXT, created_date TEXT,
  amount NUMERIC(10,2), quantity INTEGER, status TEXT, region_code TEXT, is_open INTEGER, note TEXT);
`, i, i, ref)
	}
	statuses := []string{"open", "closed", "void"}
	return buildDB(tb, ddl.String(), func(ins func(string, ...any)) {
		for i := range n {
			table := fmt.Sprintf("t%03d", i)
			for r := 1; r <= rows; r++ {
				var parent any
				if i > 0 {
					parent = 1 + (r*7)%rows
				}
				ins(table, r, parent, fmt.Sprintf("item %d-%d", i, r), fmt.Sprintf("2025-%02d-%02d", 1+r%12, 1+r%28),
					float64(r%1000)+0.25, r%9, statuses[r%3], fmt.Sprintf("R%d", r%7), r%2, "free text about row "+fmt.Sprint(r*31))
			}
		}
	})
}

// BenchmarkDraft500Tables drafts a 500-table, 5,000-column database
// (200 rows per table):
//
//	go test -run '^$' -bench Draft500 -benchtime 3x ./catalog/draft/
func BenchmarkDraft500Tables(b *testing.B) {
	src := openSource(b, wideDB(b, 500, 200))
	b.ResetTimer()
	for b.Loop() {
		s, err := Draft(context.Background(), src, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(s.Tables) != 500 {
			b.Fatalf("%d tables drafted", len(s.Tables))
		}
	}
}
