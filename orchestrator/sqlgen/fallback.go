package sqlgen

import (
	"context"
	"errors"
)

// Fallback returns a Generator that asks primary and, when primary fails with
// Reason llm_communication or not_configured (and the caller's context is
// still live), asks secondary instead and marks the plan with Fallback.
// Other failures (invalid_sql, declined) are returned as they are: the model
// answered, and a repair prompt is the better next step. Name is primary's.
func Fallback(primary, secondary Generator) Generator {
	return &fallback{primary: primary, secondary: secondary}
}

type fallback struct{ primary, secondary Generator }

func (f *fallback) Name() string { return f.primary.Name() }

// OnCircuitChange forwards to the primary generator when it is behind a
// circuit breaker.
func (f *fallback) OnCircuitChange(fn func(state string)) {
	if c, ok := f.primary.(interface{ OnCircuitChange(func(string)) }); ok {
		c.OnCircuitChange(fn)
	}
}

// CloseIdleConnections forwards to both generators that have idle
// connections to close.
func (f *fallback) CloseIdleConnections() {
	CloseIdleConnections(f.primary)
	CloseIdleConnections(f.secondary)
}

// CloseIdleConnections closes g's idle keep-alive connections when g holds
// any (the LLM generator, or a Fallback around one); other generators are
// left alone.
func CloseIdleConnections(g Generator) {
	if c, ok := g.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

func (f *fallback) Generate(ctx context.Context, req Request) (Plan, error) {
	plan, err := f.primary.Generate(ctx, req)
	if err == nil {
		return plan, nil
	}
	var ge *SQLGenerationError
	if !errors.As(err, &ge) || (ge.Reason != ReasonLLMCommunication && ge.Reason != ReasonNotConfigured) || ctx.Err() != nil {
		return plan, err
	}
	p2, err2 := f.secondary.Generate(ctx, req)
	if err2 != nil {
		reason, msg := ReasonLLMCommunication, err2.Error()
		var ge2 *SQLGenerationError
		if errors.As(err2, &ge2) {
			reason, msg = ge2.Reason, ge2.Message
		}
		return p2, &SQLGenerationError{Reason: reason,
			Message: msg + " (fallback " + f.secondary.Name() + " after " + f.primary.Name() + " failed: " + ge.Message + ")",
			Err:     errors.Join(err2, err)}
	}
	if p2.Generator == "" {
		p2.Generator = f.secondary.Name()
	}
	p2.Fallback = true
	p2.FallbackReason = ge.Message
	switch {
	case errors.Is(err, ErrCircuitOpen):
		p2.FallbackCause = FallbackCircuitOpen
	case ge.Reason == ReasonNotConfigured:
		p2.FallbackCause = FallbackNotConfigured
	default:
		p2.FallbackCause = FallbackLLMFailed
	}
	// Count the tokens the primary spent before failing, too.
	p2.Usage.PromptTokens += plan.Usage.PromptTokens
	p2.Usage.CompletionTokens += plan.Usage.CompletionTokens
	p2.Usage.TotalTokens += plan.Usage.TotalTokens
	return p2, nil
}
