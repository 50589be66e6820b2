package builtin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"talk2tables/orchestrator/sqlgen"
)

// TestWhyQuestionsDeclineAsOpenEnded: "why did sales drop" is declined as an
// open-ended question, not as a write request because of the word "drop".
func TestWhyQuestionsDeclineAsOpenEnded(t *testing.T) {
	e := salesEnv(t)
	g := New(nil)
	tests := []struct {
		name string
		q    string
		want string
	}{
		{name: "why drop", q: "why did sales drop last month?", want: "cannot explain why"},
		{name: "why fall", q: "Why did revenue fall?", want: "cannot explain why"},
		{name: "drop table stays a write", q: "drop table sales", want: "never changes data"},
		{name: "delete stays a write", q: "delete all orders", want: "never changes data"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := e.req
			req.Question = tc.q
			_, err := g.Generate(context.Background(), req)
			var ge *sqlgen.SQLGenerationError
			if !errors.As(err, &ge) || ge.Reason != sqlgen.ReasonDeclined {
				t.Fatalf("Generate(%q) err = %v, want a declined SQLGenerationError", tc.q, err)
			}
			if !strings.Contains(ge.Message, tc.want) || !strings.HasPrefix(ge.Message, declinePrefix) {
				t.Errorf("message = %q, want prefix %q and %q", ge.Message, declinePrefix, tc.want)
			}
		})
	}
}
