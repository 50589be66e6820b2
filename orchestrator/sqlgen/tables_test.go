package sqlgen

import (
	"slices"
	"testing"
)

func TestTablesRead(t *testing.T) {
	for _, tc := range []struct {
		name, dialect, sql string
		want               []string
	}{
		{"one table", "sqlite", "SELECT COUNT(*) FROM orders", []string{"orders"}},
		{"aliases and joins", "sqlite", "SELECT c.segment, SUM(s.total_amount) FROM sales s JOIN orders AS o ON o.order_id = s.order_id " +
			"LEFT JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.segment", []string{"sales", "orders", "customers"}},
		{"comma list", "sqlite", "SELECT * FROM a x, b, c AS y WHERE x.id = b.id", []string{"a", "b", "c"}},
		{"quoted and schema", "postgres", `SELECT * FROM "Order Lines" l JOIN sales.region r ON true`, []string{"Order Lines", "sales.region"}},
		{"sqlite brackets", "sqlite", "SELECT * FROM [Product Category] c", []string{"Product Category"}},
		{"subquery", "sqlite", "SELECT * FROM (SELECT id FROM inner_t) q JOIN outer_t o ON o.id = q.id", []string{"inner_t", "outer_t"}},
		{"in subquery", "sqlite", "SELECT 1 FROM a WHERE a.id IN (SELECT a_id FROM b)", []string{"a", "b"}},
		{"cte left out", "sqlite", "WITH t AS (SELECT * FROM base), u (x) AS (SELECT 1) SELECT * FROM t JOIN u ON 1 = 1", []string{"base"}},
		{"extract is not a table", "postgres", "SELECT EXTRACT(YEAR FROM order_date), substring(name FROM 2) FROM orders", []string{"orders"}},
		{"table function", "postgres", "SELECT * FROM generate_series(1, 3) g", nil},
		{"words in strings are not tables", "sqlite", "SELECT 'FROM secret' FROM t", []string{"t"}},
		{"broken sql", "sqlite", "SELECT 'unterminated FROM t", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := TablesRead(tc.dialect, tc.sql); !slices.Equal(got, tc.want) {
				t.Errorf("TablesRead = %q, want %q", got, tc.want)
			}
		})
	}
}
