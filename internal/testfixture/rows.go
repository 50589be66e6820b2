package testfixture

import (
	"database/sql"
	"testing"
)

// QueryRows runs query on db and returns every row as the driver's values
// (int64, float64, string, []byte or nil), in the order the query gives them.
// Any error, from the query, a scan or the iteration, fails the test.
func QueryRows(tb testing.TB, db *sql.DB, query string) [][]any {
	tb.Helper()
	rs, err := db.Query(query)
	if err != nil {
		tb.Fatalf("query %s: %v", query, err)
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		tb.Fatalf("columns of %s: %v", query, err)
	}
	var out [][]any
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			tb.Fatalf("scan a row of %s: %v", query, err)
		}
		out = append(out, vals)
	}
	if err := rs.Err(); err != nil {
		tb.Fatalf("rows of %s: %v", query, err)
	}
	return out
}
