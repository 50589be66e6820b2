package orchestrator

import (
	"fmt"

	"talk2tables/orchestrator/sqlgen"
	"talk2tables/sqlerr"
)

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
