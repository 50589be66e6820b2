package sqlgen

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// ErrCircuitOpen is the cause of a SQLGenerationError returned without
// asking the LLM, because it kept failing (see Circuit).
var ErrCircuitOpen = errors.New("llm circuit open")

// Circuit states.
const (
	CircuitClosed   = "closed"    // the LLM is asked
	CircuitOpen     = "open"      // the LLM is skipped until the cool-down ends
	CircuitHalfOpen = "half_open" // one probe question is asking the LLM
)

// Circuit wraps an LLM generator with a circuit breaker: after failures
// consecutive questions failed with ReasonLLMCommunication (each already
// retried by the LLM client), the LLM is not asked for cooldown; questions
// then fail at once with ErrCircuitOpen (a Fallback answers them offline
// instead of each paying the retries). After the cool-down one question
// probes the LLM (half-open): success closes the circuit, failure opens it
// again. Other failures (a rejected key, invalid SQL) do not count.
type Circuit struct {
	next     Generator
	failures int
	cooldown time.Duration
	logger   *slog.Logger
	now      func() time.Time

	mu        sync.Mutex
	state     string
	failed    int // consecutive failures while closed
	openUntil time.Time
	lastErr   string
	onChange  func(state string)
}

var _ Generator = (*Circuit)(nil)

// NewCircuit returns next behind a circuit breaker that opens after failures
// consecutive communication failures (at least 1) for cooldown.
func NewCircuit(next Generator, failures int, cooldown time.Duration, logger *slog.Logger) *Circuit {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Circuit{next: next, failures: max(failures, 1), cooldown: cooldown, logger: logger,
		now: time.Now, state: CircuitClosed}
}

// Name is the wrapped generator's name.
func (c *Circuit) Name() string { return c.next.Name() }

// OnCircuitChange registers fn, called with the new state on every change
// (for metrics).
func (c *Circuit) OnCircuitChange(fn func(state string)) {
	c.mu.Lock()
	c.onChange = fn
	c.mu.Unlock()
}

// State returns the circuit's state.
func (c *Circuit) State() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

// CloseIdleConnections forwards to the wrapped generator.
func (c *Circuit) CloseIdleConnections() { CloseIdleConnections(c.next) }

// Generate asks the wrapped generator unless the circuit is open.
func (c *Circuit) Generate(ctx context.Context, req Request) (Plan, error) {
	probe, err := c.admit()
	if err != nil {
		return Plan{Generator: c.next.Name()}, err
	}
	plan, err := c.next.Generate(ctx, req)
	c.record(probe, err, ctx.Err() != nil)
	return plan, err
}

// admit decides whether this question may ask the LLM; probe is true for
// the one half-open probe.
func (c *Circuit) admit() (probe bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.state {
	case CircuitClosed:
		return false, nil
	case CircuitOpen:
		if !c.now().Before(c.openUntil) {
			c.setState(CircuitHalfOpen)
			return true, nil
		}
	}
	// Open, or half-open with the probe still out.
	return false, &SQLGenerationError{Reason: ReasonLLMCommunication,
		Message: fmt.Sprintf("the LLM (%s) failed %d times in a row, so it is not asked again until %s (last error: %s)",
			c.next.Name(), c.failures, c.openUntil.UTC().Format("15:04:05 MST"), c.lastErr),
		Err: ErrCircuitOpen}
}

// record updates the circuit with one question's outcome. A question the
// caller cancelled tells nothing about the LLM.
func (c *Circuit) record(probe bool, err error, cancelled bool) {
	var ge *SQLGenerationError
	commFailure := err != nil && errors.As(err, &ge) && ge.Reason == ReasonLLMCommunication
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case cancelled:
		// The caller gave up: no verdict on the LLM. An unfinished probe
		// lets the next question probe at once.
		if probe {
			c.setState(CircuitOpen)
			c.openUntil = c.now()
		}
	case !commFailure:
		c.failed = 0
		if c.state != CircuitClosed {
			c.logger.Info("llm circuit closed: the LLM answered again", "event", "llm_circuit_closed", "component", "sqlgen")
			c.setState(CircuitClosed)
		}
	default:
		c.lastErr = ge.Message
		c.failed++
		if probe || c.failed >= c.failures {
			c.openUntil = c.now().Add(c.cooldown)
			if c.state != CircuitOpen {
				c.logger.Warn("llm circuit open: skipping the LLM", "event", "llm_circuit_open", "component", "sqlgen",
					"failures", c.failed, "cooldown", c.cooldown.String(), "error", ge.Message)
			}
			c.setState(CircuitOpen)
			c.failed = 0
		}
	}
}

// setState changes state and tells the listener (c.mu held).
func (c *Circuit) setState(s string) {
	if c.state == s {
		return
	}
	c.state = s
	if c.onChange != nil {
		c.onChange(s)
	}
}
