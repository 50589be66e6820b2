package sqlgen

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"talk2tables/internal/llmtest"
)

// TestCircuit drives the breaker with the real LLM client against a scripted
// server that is down, then up again.
func TestCircuit(t *testing.T) {
	var mu sync.Mutex
	down := true
	s := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step {
		mu.Lock()
		defer mu.Unlock()
		if down {
			return llmtest.Step{Status: http.StatusServiceUnavailable}
		}
		return llmtest.Step{Content: llmtest.Plan(goodSQL, nil, "ok")}
	})
	llm := newTestLLM(t, s, func(o *LLMOptions) { o.MaxRetries = -1 })
	c := NewCircuit(llm, 3, time.Minute, nil)
	clock := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return clock }
	var states []string
	c.OnCircuitChange(func(st string) { states = append(states, st) })
	ask := func() error {
		_, err := c.Generate(context.Background(), sampleRequest())
		return err
	}

	for i := 1; i <= 3; i++ {
		if err := ask(); err == nil || errors.Is(err, ErrCircuitOpen) {
			t.Fatalf("question %d: err = %v, want the LLM's own failure", i, err)
		}
	}
	if c.State() != CircuitOpen || len(s.Requests()) != 3 {
		t.Fatalf("after 3 failures: state %s, LLM requests %d; want open and 3", c.State(), len(s.Requests()))
	}
	err := ask()
	var ge *SQLGenerationError
	if !errors.Is(err, ErrCircuitOpen) || !errors.As(err, &ge) || ge.Reason != ReasonLLMCommunication ||
		!strings.Contains(ge.Message, "failed 3 times in a row") || !strings.Contains(ge.Message, "10:01:00") {
		t.Fatalf("open circuit: err = %v, want ErrCircuitOpen saying until when", err)
	}
	if len(s.Requests()) != 3 {
		t.Errorf("the LLM was asked while the circuit was open")
	}

	// After the cool-down one probe goes out; it fails: open again.
	clock = clock.Add(time.Minute)
	if err := ask(); err == nil || errors.Is(err, ErrCircuitOpen) {
		t.Fatalf("probe: err = %v, want the LLM's failure", err)
	}
	if c.State() != CircuitOpen || len(s.Requests()) != 4 {
		t.Fatalf("after a failed probe: state %s, requests %d; want open, 4", c.State(), len(s.Requests()))
	}

	// The LLM is back: the next probe closes the circuit.
	mu.Lock()
	down = false
	mu.Unlock()
	clock = clock.Add(time.Minute)
	if err := ask(); err != nil {
		t.Fatalf("probe after recovery: %v", err)
	}
	if c.State() != CircuitClosed {
		t.Errorf("state = %s, want closed", c.State())
	}
	want := []string{CircuitOpen, CircuitHalfOpen, CircuitOpen, CircuitHalfOpen, CircuitClosed}
	if strings.Join(states, ",") != strings.Join(want, ",") {
		t.Errorf("state changes = %v, want %v", states, want)
	}
}

// TestCircuitFallsBackAtOnce: behind Fallback, an open circuit sends
// questions to the secondary without asking the LLM, saying why.
func TestCircuitFallsBackAtOnce(t *testing.T) {
	s := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Status: http.StatusBadGateway} })
	llm := newTestLLM(t, s, func(o *LLMOptions) { o.MaxRetries = -1 })
	sec := &staticGen{plan: Plan{SQL: "SELECT 1"}}
	g := Fallback(NewCircuit(llm, 2, time.Minute, nil), sec)
	var plans []Plan
	for range 4 {
		p, err := g.Generate(context.Background(), sampleRequest())
		if err != nil {
			t.Fatalf("Generate: %v", err)
		}
		plans = append(plans, p)
	}
	if n := len(s.Requests()); n != 2 {
		t.Errorf("LLM requests = %d, want 2 (the circuit opened after two failures)", n)
	}
	for i, p := range plans {
		wantCause := FallbackLLMFailed
		if i >= 2 {
			wantCause = FallbackCircuitOpen
		}
		if !p.Fallback || p.FallbackCause != wantCause || p.FallbackReason == "" {
			t.Errorf("plan %d: fallback %v cause %q reason %q, want cause %s with a reason", i, p.Fallback, p.FallbackCause, p.FallbackReason, wantCause)
		}
	}
	if !strings.Contains(plans[3].FallbackReason, "not asked again until") {
		t.Errorf("reason = %q, want it to say the LLM is skipped until a time", plans[3].FallbackReason)
	}
}

// TestCircuitIgnoresOtherFailures: a rejected key or a cancelled question
// does not count towards opening the circuit.
func TestCircuitIgnoresOtherFailures(t *testing.T) {
	s := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Status: http.StatusUnauthorized} })
	c := NewCircuit(newTestLLM(t, s, func(o *LLMOptions) { o.MaxRetries = -1 }), 1, time.Minute, nil)
	for range 3 {
		_, _ = c.Generate(context.Background(), sampleRequest())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _ = c.Generate(ctx, sampleRequest())
	if c.State() != CircuitClosed {
		t.Errorf("state = %s, want closed", c.State())
	}
}
