package executor

import (
	"testing"

	"talk2tables/sqlerr"
)

func TestStaticCheckCategory(t *testing.T) {
	tests := []struct {
		name string
		sql  string
		want sqlerr.Category
	}{
		// The first word is echoed in the message; it must not decide the category.
		{"unknown first word named like a category", "TIMEOUT 5", sqlerr.SyntaxError},
		{"write", "DELETE FROM sales", sqlerr.PermissionError},
		{"two statements", "SELECT 1; SELECT 2", sqlerr.PermissionError},
		{"unterminated string", "SELECT 'abc", sqlerr.SyntaxError},
		{"ungrouped column", "SELECT region, SUM(total_amount) FROM sales", sqlerr.AggregationError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qe := staticCheck("sqlite", tt.sql, true)
			if qe == nil {
				t.Fatalf("staticCheck(%q) = nil, want %s", tt.sql, tt.want)
			}
			if qe.Category != tt.want {
				t.Errorf("staticCheck(%q).Category = %s, want %s (message %q)", tt.sql, qe.Category, tt.want, qe.Message)
			}
		})
	}
	if qe := staticCheck("sqlite", "SELECT region, SUM(total_amount) FROM sales GROUP BY region", true); qe != nil {
		t.Errorf("staticCheck(valid GROUP BY) = %v, want nil", qe)
	}
}

// TestStaticCheckDialect: the executor's dialect decides the lexical rules:
// PostgreSQL's casts and dollar quotes pass on PostgreSQL, while what a
// PostgreSQL SELECT can hide is refused there.
func TestStaticCheckDialect(t *testing.T) {
	tests := []struct {
		name, dialect, sql string
		want               sqlerr.Category // "" = allowed
	}{
		{"cast on postgres", "postgres", "SELECT sale_date::text AS d, count(*) FROM sales GROUP BY 1", ""},
		{"dollar quote on postgres", "postgres", "SELECT $$it's$$ AS x", ""},
		{"cast is a placeholder to sqlite", "sqlite", "SELECT sale_date::text FROM sales", sqlerr.SyntaxError},
		{"escape string hiding a statement", "postgres", `SELECT E'\''; DELETE FROM sales`, sqlerr.PermissionError},
		{"data-modifying with", "postgres", "WITH d AS (DELETE FROM sales RETURNING 1) SELECT count(*) FROM d", sqlerr.PermissionError},
		{"side-effect function", "postgres", "SELECT pg_sleep(10)", sqlerr.PermissionError},
		{"positional parameter", "postgres", "SELECT * FROM sales WHERE sale_id = $1", sqlerr.SyntaxError},
		{"unknown dialect is refused", "oracle", "SELECT 1", sqlerr.PermissionError},
		{"backslash escape hiding a statement on mysql", "mysql", `SELECT 'a\'' ; DELETE FROM t; -- '`, sqlerr.PermissionError},
		{"the same text is one statement on sqlite", "sqlite", `SELECT 'a\'' ; DELETE FROM t; -- '`, ""},
		{"no dialect: every dialect's rules", "", `SELECT 'a\'' ; DELETE FROM t; -- '`, sqlerr.PermissionError},
		{"no dialect: a plain query passes", "", "SELECT region, count(*) FROM sales GROUP BY region", ""},
		{"backticks and DATE_FORMAT on mysql", "mysql", "SELECT DATE_FORMAT(`order_date`, '%Y-%m') AS m, count(*) FROM `orders` GROUP BY m", ""},
		{"sleep on mysql", "mysql", "SELECT SLEEP(30)", sqlerr.PermissionError},
		{"ungrouped column on mysql", "mysql", "SELECT region, SUM(total_amount) FROM sales", sqlerr.AggregationError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qe := staticCheck(tt.dialect, tt.sql, true)
			switch {
			case tt.want == "" && qe != nil:
				t.Errorf("staticCheck(%s, %q) = %v, want nil", tt.dialect, tt.sql, qe)
			case tt.want != "" && (qe == nil || qe.Category != tt.want):
				t.Errorf("staticCheck(%s, %q) = %v, want %s", tt.dialect, tt.sql, qe, tt.want)
			}
		})
	}
}
