package builtin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"talk2tables/orchestrator/sqlgen"
)

// FuzzGenerate: whatever the question, the planner answers or declines —
// never panics, never returns an empty SQL without an error.
func FuzzGenerate(f *testing.F) {
	for _, q := range salesDeclines() {
		f.Add(q)
	}
	for _, c := range salesQuestions() {
		f.Add(c.q)
	}
	for _, q := range []string{"top top top", "by by", "between 5 and", "more than", "last", "first 3",
		"compare", "no", "$", "<= 5", "revenue > 100 by region", "q5 2025", "2025-02-30", "9999999999999999999999 orders",
		"orders by month by year by day", "average average revenue", "how many how many", "'; DROP TABLE sales; --",
		"sales for together with their customers have an email", "Which customers have? Give and last names.",
		"Which have no signup date recorded?", "List the names of regions and unit price, with category and unit price."} {
		f.Add(q)
	}
	e := salesEnv(f)
	g := New(nil)
	f.Fuzz(func(t *testing.T, q string) {
		req := e.req
		req.Question = q
		plan, err := g.Generate(context.Background(), req)
		var ge *sqlgen.SQLGenerationError
		switch {
		case err != nil && !errors.As(err, &ge):
			t.Fatalf("Generate(%q) = %v, want a SQLGenerationError", q, err)
		case err == nil && strings.TrimSpace(plan.SQL) == "":
			t.Fatalf("Generate(%q) returned no SQL and no error", q)
		case err == nil:
			e.rows(t, plan.SQL) // the SQL runs
		}
	})
}
