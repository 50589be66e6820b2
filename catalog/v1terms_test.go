package catalog

import "testing"

func TestDatePhrase(t *testing.T) {
	tests := []struct {
		expr, want string // want "" when not understood
	}{
		// the original design's example, PostgreSQL
		{"DATE_TRUNC('month', {date_column}) = DATE_TRUNC('month', CURRENT_DATE)", "this month"},
		{"date_trunc('month', CURRENT_DATE) = date_trunc('month', {date_column})", "this month"},
		{"DATE_TRUNC('year', {date_column}) = DATE_TRUNC('year', NOW())", "this year"},
		{"DATE_TRUNC('month', {date_column}) = DATE_TRUNC('month', CURRENT_DATE - INTERVAL '1 month')", "last month"},
		{"DATE_TRUNC('quarter', {date_column}) = DATE_TRUNC('quarter', CURRENT_DATE - INTERVAL '1' QUARTER)", "last quarter"},
		{"{date_column} = CURRENT_DATE", "today"},
		{"{date_column} = CURRENT_DATE - INTERVAL '1 day'", "yesterday"},
		{"{date_column} >= DATE_TRUNC('month', CURRENT_DATE)", "month to date"},
		{"{date_column} >= CURRENT_DATE - INTERVAL '30 days'", "last 30 days"},
		// SQLite
		{"strftime('%Y-%m', {date_column}) = strftime('%Y-%m', 'now')", "this month"},
		{"strftime('%Y-%m', {date_column}) = strftime('%Y-%m', 'now', 'start of month', '-1 month')", "last month"},
		{"strftime('%Y', {date_column}) = strftime('%Y', 'now')", "this year"},
		{"date({date_column}) = date('now')", "today"},
		{"date({date_column}) = date('now', '-1 day')", "yesterday"},
		{"{date_column} >= date('now', 'start of month')", "month to date"},
		{"{date_column} >= date('now', '-7 days')", "last 7 days"},
		// two bounds (the repository's version-1 sample)
		{"{date_column} >= date('now', 'start of month') AND {date_column} < date('now', 'start of month', '+1 month')", "this month"},
		{"{date_column} >= date('now', 'start of month', '-1 month') AND {date_column} < date('now', 'start of month')", "last month"},
		{"{date_column} >= date('now', 'start of year') AND {date_column} <= date('now')", "year to date"},
		{"{date_column} >= date('now', '-6 months')", "last 6 months"},
		{"{date_column} >= DATE_TRUNC('year', CURRENT_DATE) - INTERVAL '1 year' AND {date_column} < DATE_TRUNC('year', CURRENT_DATE)", "last year"},
		// MySQL
		{"YEAR({date_column}) = YEAR(CURDATE())", "this year"},
		// not understood: left to the LLM
		{"DATE_TRUNC('month', {date_column}) = DATE_TRUNC('year', CURRENT_DATE)", ""},
		{"DATE_TRUNC('month', {date_column}) = DATE_TRUNC('month', CURRENT_DATE - INTERVAL '2 months')", ""},
		{"{date_column} BETWEEN '2024-01-01' AND '2024-03-31'", ""},
		{"EXTRACT(DOW FROM {date_column}) IN (0, 6)", ""},
		{"{date_column} >= date('now', '-6 days', 'weekday 1') AND {date_column} <= date('now')", ""},
		{"{date_column} >= date('now', 'start of month') AND {date_column} < date('now', 'start of month', '+2 months')", ""},
	}
	for _, tt := range tests {
		got, ok := datePhrase(tt.expr)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("datePhrase(%q) = %q, %v; want %q", tt.expr, got, ok, tt.want)
		}
	}
}

func TestSalesColumn(t *testing.T) {
	tests := []struct {
		name  string
		terms map[string]string
		want  string
	}{
		{"the design's example", map[string]string{"sales amount": "sales.total_amount", "this month": "DATE_TRUNC('month', {date_column}) = DATE_TRUNC('month', CURRENT_DATE)"}, "sales.total_amount"},
		{"revenue names it", map[string]string{"total revenue": "orders.net_total"}, "orders.net_total"},
		{"two terms, one column", map[string]string{"sales amount": "s.amt", "gross sales": "s.amt"}, "s.amt"},
		{"two columns: no guess", map[string]string{"sales amount": "s.amt", "sales tax": "s.tax"}, ""},
		{"sales already a term", map[string]string{"sales": "s.net", "sales amount": "s.amt"}, ""},
		{"no sales term", map[string]string{"price": "p.price"}, ""},
		{"salesperson is not sales", map[string]string{"salesperson name": "staff.name"}, ""},
	}
	for _, tt := range tests {
		if got := salesColumn(tt.terms); got != tt.want {
			t.Errorf("%s: salesColumn = %q, want %q", tt.name, got, tt.want)
		}
	}
}
