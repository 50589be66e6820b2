package builtin

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"talk2tables/orchestrator/sqlgen"
)

// TestAverageKeepsPrecision: an average of small fractions (discounts of
// 0..0.2) must not be rounded to two decimals (0.045 → 0.05 is a 10% error).
// The harness compares with an absolute tolerance of 0.011, too loose to see
// it, so this test compares with a relative one.
func TestAverageKeepsPrecision(t *testing.T) {
	e := salesEnv(t)
	g := New(nil)
	tests := []struct {
		name string
		q    string
		want string
	}{
		{name: "average discount", q: "average discount", want: "SELECT AVG(discount) FROM sales"},
		{name: "average discount corporate", q: "average discount for corporate customers",
			want: "SELECT AVG(s.discount) FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id WHERE c.segment = 'Corporate'"},
		{name: "average sale amount", q: "average sale amount", want: "SELECT AVG(total_amount) FROM sales"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := e.req
			req.Question = tc.q
			plan, err := g.Generate(context.Background(), req)
			if err != nil {
				t.Fatalf("Generate(%q): %v", tc.q, err)
			}
			got, want := e.rows(t, plan.SQL), e.rows(t, tc.want)
			if len(got) != 1 || len(got[0]) != 1 || len(want) != 1 {
				t.Fatalf("rows = %v, want one value like %v", got, want)
			}
			gf, _ := got[0][0].(float64)
			wf, _ := want[0][0].(float64)
			if wf == 0 || math.Abs(gf-wf)/math.Abs(wf) > 0.005 {
				t.Errorf("%q = %v (SQL %s), want %v within 0.5%%", tc.q, gf, plan.SQL, wf)
			}
		})
	}
}

// TestAveragePerForeignKeyDeclines: "average revenue per order" groups by
// sales.order_id, so a per-order average of sale lines would answer a
// question nobody asked (the average order value); it must be declined like
// "average ... per customer".
func TestAveragePerForeignKeyDeclines(t *testing.T) {
	e := salesEnv(t)
	g := New(nil)
	for _, q := range []string{
		"average revenue per order",
		"average sale amount per order",
		"avg quantity by order",
	} {
		t.Run(q, func(t *testing.T) { e.declines(t, g, q) })
	}
}

// TestDeclineNamesMissingMetadata: with the metadata server down
// (fail_fast: false) only the schema reaches the generator; the decline must
// say the business terms are missing instead of blaming "total revenue".
func TestDeclineNamesMissingMetadata(t *testing.T) {
	e := salesEnv(t)
	req := e.req
	req.Servers = []sqlgen.ServerContext{req.Servers[1]} // database server only
	req.Question = "total revenue by region"
	_, err := New(nil).Generate(context.Background(), req)
	var ge *sqlgen.SQLGenerationError
	if !errors.As(err, &ge) || ge.Reason != sqlgen.ReasonDeclined {
		t.Fatalf("err = %v, want a declined SQLGenerationError", err)
	}
	for _, want := range []string{declinePrefix, "metadata MCP server", `"revenue"`} {
		if !strings.Contains(ge.Message, want) {
			t.Errorf("message %q lacks %q", ge.Message, want)
		}
	}
}
