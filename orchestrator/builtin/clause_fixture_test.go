package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"talk2tables/internal/fixtures"
)

// TestClauseFixture prints the clause reading of every question of one
// evaluation fixture that is not held out (CLAUSE_FIXNAME=name, with the
// catalog the drafter writes): its SQL, or why it declines — the clause
// reader's own reason, which the generator's message does not always give.
func TestClauseFixture(t *testing.T) {
	name := os.Getenv("CLAUSE_FIXNAME")
	if name == "" {
		t.Skip("set CLAUSE_FIXNAME")
	}
	if fixtures.HeldOut(name) {
		t.Fatalf("%s is held out: it is never used to work on the planner", name)
	}
	path, err := fixtures.Build(context.Background(), name, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, path, draftCatalog(t, path))
	m := compile(gather(e.req.Servers))
	today := fixtures.AsOf(name).Format("2006-01-02")
	qs, err := fixtures.Questions(name)
	if err != nil {
		t.Fatal(err)
	}
	only := os.Getenv("CLAUSE_ONLY") // "declined" to print only those
	if ask := os.Getenv("CLAUSE_Q"); ask != "" {
		qs = qs[:0]
		for _, text := range strings.Split(ask, "|") {
			qs = append(qs, fixtures.Question{ID: "ask", Text: text})
		}
	}
	full := os.Getenv("CLAUSE_FULL") != "" // the whole generator, not only the clause reader
	g := New(nil)
	for _, q := range qs {
		plan, final, err := m.clauseAnswer(q.Text, m.pickToday(today), "sqlite")
		if full {
			req := e.req
			req.Question, req.Today = q.Text, today
			p, gerr := g.Generate(context.Background(), req)
			if gerr == nil {
				plan, err = p, nil
			} else {
				err = gerr
			}
		}
		if err != nil {
			if only == "" || only == "declined" {
				t.Logf("%s %q\n   DECLINE (final %v) %v", q.ID, q.Text, final, err)
			}
			continue
		}
		if only == "" {
			t.Logf("%s %q\n   %s\n   %s\n   gold %s", q.ID, q.Text, plan.SQL, strings.Join(plan.Assumptions, " | "), strings.Join(strings.Fields(q.Gold), " "))
		}
	}
	_ = filepath.Base
}
