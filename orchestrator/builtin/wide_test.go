package builtin

import (
	"context"
	"errors"
	"testing"

	"talk2tables/internal/fixtures/wide"
	"talk2tables/orchestrator/sqlgen"
)

// wideEnv is the 500-table, 5,000-column database with its drafted catalog.
func wideEnv(tb testing.TB) *env {
	tb.Helper()
	b := wide.Fixture(tb)
	return newEnv(tb, b.DB, b.Catalog)
}

// On 500 tables the planner answers or declines every question of the wide
// set (no other error), and the SQL it writes runs.
func TestWideQuestions(t *testing.T) {
	e := wideEnv(t)
	g := New(nil)
	answered := 0
	for _, q := range wide.Questions() {
		req := e.req
		req.Question = q.Text
		plan, err := g.Generate(context.Background(), req)
		var ge *sqlgen.SQLGenerationError
		if errors.As(err, &ge) && ge.Reason == sqlgen.ReasonDeclined {
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", q.Text, err)
			continue
		}
		answered++
		if _, err := e.db.Exec("EXPLAIN " + plan.SQL); err != nil {
			t.Errorf("%q: %s: %v", q.Text, plan.SQL, err)
		}
	}
	t.Logf("answered %d of %d questions", answered, len(wide.Questions()))
}

// BenchmarkGenerateWide is the planner's time per question on the 500-table
// database once its model is compiled (the wide questions in turn).
func BenchmarkGenerateWide(b *testing.B) {
	e := wideEnv(b)
	qs := wide.Questions()
	g := New(nil)
	ctx := context.Background()
	req := e.req
	req.Question = qs[0].Text
	_, _ = g.Generate(ctx, req) // compiles the model
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req.Question = qs[i%len(qs)].Text
		_, _ = g.Generate(ctx, req)
	}
}

// BenchmarkCompileWide is the time to compile the 500-table model (once per
// resource snapshot).
func BenchmarkCompileWide(b *testing.B) {
	e := wideEnv(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		compile(gather(e.req.Servers))
	}
}
