package sqlgen

import (
	"errors"
	"strings"
	"testing"

	"talk2tables/sqlerr"
)

func TestCheckAggregation(t *testing.T) {
	tests := []struct {
		name    string
		sql     string
		wantCol string // "" = no error
	}{
		// Mistakes it must catch.
		{"bare column next to SUM without GROUP BY", "SELECT region, SUM(total_amount) FROM sales", "region"},
		{"bare column not in GROUP BY", "SELECT region, product_id, SUM(total_amount) FROM sales GROUP BY region", "product_id"},
		{"qualified column not grouped", "SELECT s.region, c.segment, SUM(s.total_amount) FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id GROUP BY s.region", "c.segment"},
		{"group by without aggregate", "SELECT region, quantity FROM sales GROUP BY region", "quantity"},
		{"column mixed into aggregate expression", "SELECT SUM(total_amount) / quantity FROM sales", "quantity"},
		{"MAX with bare column", "SELECT product_id, MAX(total_amount) FROM sales", "product_id"},
		{"different qualifier is a different column", "SELECT c.region, COUNT(*) FROM sales s JOIN customers c ON 1 = 1 GROUP BY s.region", "c.region"},
		{"scalar function of ungrouped column", "SELECT upper(status), COUNT(*) FROM orders GROUP BY customer_id", "status"},
		{"ungrouped column with trailing semicolon", "SELECT region, COUNT(*) FROM sales;", "region"},
		{"ungrouped column with subquery in WHERE", "SELECT region, SUM(total_amount) FROM sales WHERE product_id IN (SELECT product_id FROM products)", "region"},
		{"quoted identifier", `SELECT "region", COUNT(*) FROM sales`, `"region"`},

		// Correct queries it must not flag.
		{"count star", "SELECT COUNT(*) FROM sales", ""},
		{"plain select", "SELECT region, total_amount FROM sales WHERE region = 'North'", ""},
		{"grouped column", "SELECT region, SUM(total_amount) AS total FROM sales GROUP BY region", ""},
		{"grouped qualified vs unqualified", "SELECT s.region, SUM(s.total_amount) FROM sales s GROUP BY region", ""},
		{"group by alias", "SELECT strftime('%Y-%m', sale_date) AS month, SUM(total_amount) FROM sales GROUP BY month", ""},
		{"group by same expression", "SELECT strftime('%Y-%m', sale_date), SUM(total_amount) FROM sales GROUP BY strftime('%Y-%m', sale_date)", ""},
		{"group by ordinal", "SELECT region, segment, COUNT(*) FROM customers GROUP BY 1, 2", ""},
		{"expression of grouped column", "SELECT upper(region) AS r, COUNT(*) FROM sales GROUP BY region", ""},
		{"columns inside aggregate", "SELECT SUM(quantity * unit_price) AS gross, AVG(discount) FROM sales", ""},
		{"constant next to aggregate", "SELECT 'total' AS label, COUNT(*) FROM sales", ""},
		{"case over aggregate", "SELECT CASE WHEN SUM(total_amount) > 100 THEN 'big' ELSE 'small' END AS size FROM sales", ""},
		{"count distinct", "SELECT COUNT(DISTINCT customer_id) FROM orders", ""},
		{"two-argument max is scalar", "SELECT max(quantity, 1) FROM sales", ""},
		{"functionally dependent on grouped id", "SELECT p.product_id, p.product_name, SUM(s.total_amount) FROM sales s JOIN products p ON p.product_id = s.product_id GROUP BY p.product_id", ""},
		{"dependent by name prefix", "SELECT product_id, product_name, COUNT(*) FROM products GROUP BY product_id", ""},
		{"cast type is not a column", "SELECT region, SUM(CAST(total_amount AS REAL)) FROM sales GROUP BY region", ""},
		{"having and order by", "SELECT region, SUM(total_amount) AS t FROM sales GROUP BY region HAVING SUM(total_amount) > 10 ORDER BY t DESC LIMIT 3", ""},
		{"cte is skipped", "WITH x AS (SELECT region, total_amount FROM sales) SELECT region, SUM(total_amount) FROM x", ""},
		{"window function is skipped", "SELECT region, SUM(total_amount) OVER (PARTITION BY region) FROM sales", ""},
		{"scalar subquery in select list is skipped", "SELECT region, (SELECT COUNT(*) FROM products) FROM sales GROUP BY product_id", ""},
		{"union is skipped", "SELECT region, COUNT(*) FROM sales UNION SELECT 'x', 1", ""},
		{"select star is skipped", "SELECT *, COUNT(*) FROM sales", ""},
		{"filter clause is skipped", "SELECT region, COUNT(*) FILTER (WHERE quantity > 1) FROM sales", ""},
		{"not a select", "EXPLAIN SELECT region, COUNT(*) FROM sales", ""},
		{"unparsable", "SELECT 'unterminated", ""},
		{"distinct without aggregate", "SELECT DISTINCT region FROM sales", ""},
		{"date functions", "SELECT COUNT(*) FROM sales WHERE sale_date >= date('now', '-30 days')", ""},
		{"collate is not an alias", "SELECT region COLLATE NOCASE, COUNT(*) FROM sales GROUP BY region", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckAggregation(tt.sql)
			if tt.wantCol == "" {
				if err != nil {
					t.Fatalf("CheckAggregation(%q) = %v, want nil", tt.sql, err)
				}
				return
			}
			var se *sqlerr.Error
			if !errors.As(err, &se) {
				t.Fatalf("CheckAggregation(%q) = %v, want *sqlerr.Error naming %s", tt.sql, err, tt.wantCol)
			}
			if se.Category != sqlerr.AggregationError {
				t.Errorf("category = %s, want %s", se.Category, sqlerr.AggregationError)
			}
			if !strings.Contains(se.Message, "column "+tt.wantCol+" ") {
				t.Errorf("message = %q, want it to name column %s", se.Message, tt.wantCol)
			}
		})
	}
}
