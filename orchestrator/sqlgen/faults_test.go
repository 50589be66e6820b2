package sqlgen

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"talk2tables/internal/llmtest"
)

// TestLLMShareOfTheDeadline: a hung LLM is given up on before the caller's
// deadline, leaving LLMOptions.Reserve of it, as an ErrLLMTimeout failure
// (an LLM failure for the circuit breaker and the fallback) rather than
// the caller's own timeout.
func TestLLMShareOfTheDeadline(t *testing.T) {
	s := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "late", Delay: time.Hour} })
	l := newTestLLM(t, s, func(o *LLMOptions) { o.Reserve = 2 * time.Second })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err := l.Generate(ctx, sampleRequest())
	if ctx.Err() != nil {
		t.Fatalf("Generate returned after the caller's deadline (%v), want within its share", err)
	}
	ge := wantGenErr(t, err, ReasonLLMCommunication, "its share of the question's time")
	if !errors.Is(ge, ErrLLMTimeout) || errors.Is(ge, context.DeadlineExceeded) {
		t.Errorf("err = %v, want ErrLLMTimeout, not the caller's deadline", err)
	}
	// Less than the reserve left: the LLM is not asked at all.
	short, cancel2 := context.WithTimeout(context.Background(), time.Second)
	defer cancel2()
	n := len(s.Requests())
	_, err = l.Generate(short, sampleRequest())
	wantGenErr(t, err, ReasonLLMCommunication, "was not asked")
	if len(s.Requests()) != n {
		t.Error("the LLM was asked with less than the reserve left")
	}
}

// TestLLMAnswerOverTheSizeLimit: an answer longer than MaxResponseBytes is
// not read further and is an ErrLLMResponseTooLarge failure, not retried
// (the next answer would be as long).
func TestLLMAnswerOverTheSizeLimit(t *testing.T) {
	s := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: llmtest.Plan("SELECT 1", nil, "one"), PadBytes: 50 << 20}
	})
	l := newTestLLM(t, s, func(o *LLMOptions) { o.MaxResponseBytes = 256 << 10 })
	_, err := l.Generate(context.Background(), sampleRequest())
	ge := wantGenErr(t, err, ReasonLLMCommunication, "more than 256 KiB (llm.max_response_bytes)")
	if !errors.Is(ge, ErrLLMResponseTooLarge) {
		t.Errorf("err = %v, want ErrLLMResponseTooLarge", err)
	}
	if n := len(s.Requests()); n != 1 {
		t.Errorf("requests = %d, want 1 (not retried)", n)
	}
	// Just under the limit is read as usual.
	ok := llmtest.New(t, llmtest.Step{Content: llmtest.Plan("SELECT 1", nil, "one"), PadBytes: 100 << 10})
	if _, err := newTestLLM(t, ok, func(o *LLMOptions) { o.MaxResponseBytes = 256 << 10 }).Generate(context.Background(), sampleRequest()); err != nil {
		t.Errorf("an answer under the limit: %v", err)
	}
}

// TestLLMInvalidJSONIsSaidSo: a 200 whose body is not a chat completion is
// reported as invalid JSON, not as an LLM that could not be reached.
func TestLLMInvalidJSONIsSaidSo(t *testing.T) {
	s := llmtest.New(t, llmtest.Step{Raw: `{"choices": [ this is not json`})
	l := newTestLLM(t, s, nil)
	_, err := l.Generate(context.Background(), sampleRequest())
	ge := wantGenErr(t, err, ReasonLLMCommunication, "invalid JSON")
	if !errors.Is(ge, ErrLLMInvalidResponse) || strings.Contains(ge.Message, "reach") {
		t.Errorf("err = %v, want ErrLLMInvalidResponse, never 'could not be reached'", err)
	}
}
