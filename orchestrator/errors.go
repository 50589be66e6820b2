package orchestrator

import (
	"context"
	"fmt"
	"time"

	"talk2tables/orchestrator/sqlgen"
)

// SQLGenerationError is sqlgen's error, re-exported so callers of the
// orchestrator need only this package.
type SQLGenerationError = sqlgen.SQLGenerationError

// Reasons of a SQLGenerationError, re-exported with it.
const (
	ReasonLLMCommunication = sqlgen.ReasonLLMCommunication
	ReasonInvalidSQL       = sqlgen.ReasonInvalidSQL
	ReasonNotConfigured    = sqlgen.ReasonNotConfigured
	ReasonDeclined         = sqlgen.ReasonDeclined
)

// TimeoutError says a question was not answered within
// orchestration.query_timeout, and what it was waiting for then. It wraps
// context.DeadlineExceeded.
type TimeoutError struct {
	Timeout time.Duration
	// Stage is the step under way: gathering, generating (the generator
	// was writing SQL), validating or executing (the SQL was running).
	Stage string
	// Generator names the generator (stage generating); Server the
	// executor (stages validating and executing).
	Generator, Server string
	// Last is the last error met on the way, if any (for logs).
	Last error
}

func (e *TimeoutError) Error() string {
	msg := fmt.Sprintf("question not answered within %s while %s", e.Timeout, e.Waiting())
	if e.Last != nil {
		msg += fmt.Sprintf(" (last error: %v)", e.Last)
	}
	return msg + ": " + context.DeadlineExceeded.Error()
}

// Unwrap returns context.DeadlineExceeded.
func (e *TimeoutError) Unwrap() error { return context.DeadlineExceeded }

// Waiting says in words what the question was waiting for when its time
// ran out; it is safe to show to a user.
func (e *TimeoutError) Waiting() string {
	switch e.Stage {
	case StageGathering:
		return "reading the MCP servers' resources"
	case StageGenerating, StageRetry:
		if e.Generator != "" {
			return fmt.Sprintf("the SQL generator (%s) was writing the SQL", e.Generator)
		}
		return "the SQL generator was writing the SQL"
	case StageValidating, StageExecuting:
		if e.Server != "" {
			return fmt.Sprintf("the SQL was running on executor %q", e.Server)
		}
		return "the SQL was running"
	}
	return "answering it"
}
