package orchestrator

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
			qe := staticCheck(tt.sql, true)
			if qe == nil {
				t.Fatalf("staticCheck(%q) = nil, want %s", tt.sql, tt.want)
			}
			if qe.Category != tt.want {
				t.Errorf("staticCheck(%q).Category = %s, want %s (message %q)", tt.sql, qe.Category, tt.want, qe.Message)
			}
		})
	}
	if qe := staticCheck("SELECT region, SUM(total_amount) FROM sales GROUP BY region", true); qe != nil {
		t.Errorf("staticCheck(valid GROUP BY) = %v, want nil", qe)
	}
}
