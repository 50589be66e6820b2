package executor

import (
	"fmt"
	"time"

	"talk2tables/sqlerr"
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
	// RetryAfter, for a DATABASE_ERROR, is when to try again: the next
	// liveness probe has looked at the database by then.
	RetryAfter time.Duration
}

func (e *QueryExecutionError) Error() string {
	if e.Reason == ReasonNoExecutor {
		return "query execution: no executor: " + e.Message
	}
	return fmt.Sprintf("query execution (%s): %s", e.Category, e.Message)
}

// Unwrap returns the cause.
func (e *QueryExecutionError) Unwrap() error { return e.Err }
