package sqlgen

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"talk2tables/internal/llmtest"
)

// staticGen is a hand-written secondary generator (the built-in one lives in
// another package that imports this one).
type staticGen struct {
	plan  Plan
	err   error
	calls int
}

var _ Generator = (*staticGen)(nil)

func (g *staticGen) Name() string { return "builtin" }

func (g *staticGen) Generate(context.Context, Request) (Plan, error) {
	g.calls++
	return g.plan, g.err
}

func TestFallback(t *testing.T) {
	tests := []struct {
		name         string
		steps        []llmtest.Step
		secondaryErr error
		wantFallback bool
		wantReason   Reason // "" = success
		wantCalls    int    // secondary calls
	}{
		{"primary ok", []llmtest.Step{{Content: llmtest.Plan(goodSQL, nil, "llm")}}, nil, false, "", 0},
		{"primary unreachable", []llmtest.Step{{Status: 503}}, nil, true, "", 1},
		{"primary key rejected", []llmtest.Step{{Status: 401}}, nil, true, "", 1},
		{"primary invalid sql is not a fallback case", []llmtest.Step{{Content: "no idea"}}, nil, false, ReasonInvalidSQL, 0},
		{"secondary declines too", []llmtest.Step{{Status: 503}},
			&SQLGenerationError{Reason: ReasonDeclined, Message: "question not understood"}, false, ReasonDeclined, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t, tt.steps...)
			primary := newTestLLM(t, s, func(o *LLMOptions) { o.MaxRetries = -1 })
			sec := &staticGen{plan: Plan{SQL: "SELECT 1", Generator: "builtin"}, err: tt.secondaryErr}
			g := Fallback(primary, sec)
			if g.Name() != "openai:m" {
				t.Errorf("Name = %q, want the primary's", g.Name())
			}
			p, err := g.Generate(context.Background(), sampleRequest())
			if sec.calls != tt.wantCalls {
				t.Errorf("secondary calls = %d, want %d", sec.calls, tt.wantCalls)
			}
			if tt.wantReason != "" {
				var ge *SQLGenerationError
				if !errors.As(err, &ge) || ge.Reason != tt.wantReason {
					t.Fatalf("err = %v, want reason %s", err, tt.wantReason)
				}
				if tt.wantCalls > 0 && !strings.Contains(ge.Message, "openai:m failed") {
					t.Errorf("message = %q, want it to mention the primary failure", ge.Message)
				}
				return
			}
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if p.Fallback != tt.wantFallback {
				t.Errorf("Fallback = %v, want %v", p.Fallback, tt.wantFallback)
			}
			wantGen := "openai:m"
			if tt.wantFallback {
				wantGen = "builtin"
			}
			if p.Generator != wantGen {
				t.Errorf("Generator = %q, want %q", p.Generator, wantGen)
			}
		})
	}
}

func TestFallbackNotAfterCancel(t *testing.T) {
	s := llmtest.New(t, llmtest.Step{Status: http.StatusServiceUnavailable})
	primary := newTestLLM(t, s, func(o *LLMOptions) { o.MaxRetries = -1 })
	sec := &staticGen{plan: Plan{SQL: "SELECT 1"}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fallback(primary, sec).Generate(ctx, sampleRequest()); err == nil {
		t.Fatal("err = nil, want the cancellation")
	}
	if sec.calls != 0 {
		t.Errorf("secondary calls = %d, want 0 after cancellation", sec.calls)
	}
}
