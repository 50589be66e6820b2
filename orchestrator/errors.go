package orchestrator

import (
	"fmt"
	"time"

	"talk2tables/orchestrator/sqlgen"
	"talk2tables/sqlerr"
)

// Connection phases of an MCPConnectionError.
const (
	PhaseInitial = "initial" // the server could not be reached at start
	PhaseLost    = "lost"    // the server was reached once and then lost
	// PhaseUnresponsive: the session is up but the server stopped
	// answering (its ping timed out); calls fail at once until it answers
	// again or is restarted.
	PhaseUnresponsive = "unresponsive"
)

// MCPConnectionError says an MCP server could not be reached.
type MCPConnectionError struct {
	Server string // config id
	Phase  string // PhaseInitial | PhaseLost | PhaseUnresponsive
	Err    error
	// RetryAfter is when to try again (PhaseUnresponsive): the server is
	// probed again by then.
	RetryAfter time.Duration
}

func (e *MCPConnectionError) Error() string {
	switch e.Phase {
	case PhaseLost:
		return fmt.Sprintf("mcp server %q connection lost: %v", e.Server, e.Err)
	case PhaseUnresponsive:
		return fmt.Sprintf("mcp server %q is unresponsive: %v", e.Server, e.Err)
	}
	return fmt.Sprintf("mcp server %q unreachable: %v", e.Server, e.Err)
}

// Unwrap returns the cause.
func (e *MCPConnectionError) Unwrap() error { return e.Err }

// NoMCPAvailableError says no connected server offers a needed capability.
type NoMCPAvailableError struct {
	Capability string
}

func (e *NoMCPAvailableError) Error() string {
	return fmt.Sprintf("no connected mcp server has capability %q", e.Capability)
}

// Resource fetch phases of a ResourceFetchError.
const (
	PhaseList = "list" // resources/list failed
	PhaseData = "data" // resources/read failed
)

// ResourceFetchError says resources of a server could not be listed or read.
type ResourceFetchError struct {
	Server string
	URI    string // empty for PhaseList
	Phase  string // PhaseList | PhaseData
	Err    error
}

func (e *ResourceFetchError) Error() string {
	if e.URI != "" {
		return fmt.Sprintf("mcp server %q: read resource %s: %v", e.Server, e.URI, e.Err)
	}
	return fmt.Sprintf("mcp server %q: list resources: %v", e.Server, e.Err)
}

// Unwrap returns the cause.
func (e *ResourceFetchError) Unwrap() error { return e.Err }

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

// Reasons of a QueryExecutionError.
const (
	ReasonNoExecutor   = "no_executor"
	ReasonSQLExecution = "sql_execution"
)

// QueryExecutionError says generated or analyst SQL could not be run.
type QueryExecutionError struct {
	Reason   string // ReasonNoExecutor | ReasonSQLExecution
	Category sqlerr.Category
	SQL      string
	Message  string // the database's message, safe to show
	Err      error
}

func (e *QueryExecutionError) Error() string {
	if e.Reason == ReasonNoExecutor {
		return "query execution: no executor: " + e.Message
	}
	return fmt.Sprintf("query execution (%s): %s", e.Category, e.Message)
}

// Unwrap returns the cause.
func (e *QueryExecutionError) Unwrap() error { return e.Err }
