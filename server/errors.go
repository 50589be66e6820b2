package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"talk2tables/orchestrator"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/resources"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/sqlerr"
)

// ErrShuttingDown is the cancellation cause of the requests still running
// when the server's shutdown grace period ends (see BaseContext): they are
// answered with 503 and Retry-After instead of being cut off.
var ErrShuttingDown = errors.New("server is shutting down")

// apiError is an error whose status, code and message are already safe to
// show: bad input, auth, limits.
type apiError struct {
	Status  int
	Code    string
	Message string
	// Field names the request field at fault, if any.
	Field string
	// RetryAfter, when positive, is sent as the Retry-After header (seconds).
	RetryAfter int
}

func (e *apiError) Error() string { return e.Message }

// badRequest builds an apiError.
func badRequest(status int, code, msg, field string) *apiError {
	return &apiError{Status: status, Code: code, Message: msg, Field: field}
}

// errorBody is the JSON body of every error response:
// {"error": {...}, "result": {...}}.
type errorBody struct {
	Error  errorDetail               `json:"error"`
	Result *orchestrator.QueryResult `json:"result,omitempty"`
}

// errorDetail is the "error" object.
type errorDetail struct {
	Code      string          `json:"code"`
	Message   string          `json:"message"`
	RequestID string          `json:"request_id"`
	Field     string          `json:"field,omitempty"`
	Category  sqlerr.Category `json:"category,omitempty"`
	// Hint suggests how to rephrase a declined question.
	Hint string `json:"hint,omitempty"`
}

// classified is the outcome of mapping an error for a client.
type classified struct {
	status     int
	detail     errorDetail
	retryAfter int
}

// classify maps any error to a status and a message that says what to do,
// never internals.
func classify(err error) classified {
	var (
		ae    *apiError
		conn  *mcpclient.MCPConnectionError
		none  *mcpclient.NoMCPAvailableError
		fetch *resources.ResourceFetchError
		shape *executor.ResultFormatError
		gen   *orchestrator.SQLGenerationError
		exec  *executor.QueryExecutionError
		ue    *mcpclient.UnknownExecutorError
		mbe   *http.MaxBytesError
		te    *orchestrator.TimeoutError
	)
	switch {
	case errors.As(err, &ae):
		out := outcome(ae.Status, ae.Code, ae.Message)
		out.detail.Field = ae.Field
		out.retryAfter = ae.RetryAfter
		return out
	case errors.As(err, &mbe):
		return outcome(http.StatusRequestEntityTooLarge, "body_too_large",
			fmt.Sprintf("the request body is larger than %d bytes; send a shorter request", mbe.Limit))
	case errors.Is(err, ErrShuttingDown):
		out := outcome(http.StatusServiceUnavailable, "shutting_down",
			"the server is shutting down and stopped this question; try again in a moment")
		out.retryAfter = 5
		return out
	case errors.As(err, &te):
		return outcome(http.StatusGatewayTimeout, "timeout", timeoutMessage(te))
	case errors.Is(err, context.DeadlineExceeded):
		return outcome(http.StatusGatewayTimeout, "timeout",
			"the question took longer than the configured query timeout; try a narrower question (a shorter period, fewer groups) or try again")
	case errors.Is(err, context.Canceled):
		return outcome(499, "client_closed_request", "the request was cancelled by the client")
	case errors.As(err, &ue):
		out := outcome(http.StatusBadRequest, "unknown_server", ue.Error())
		out.detail.Field = "server"
		return out
	case errors.As(err, &exec):
		return execFailure(exec)
	case errors.As(err, &gen):
		return generationFailure(gen)
	case errors.As(err, &none):
		capability := none.Capability
		if capability == "" {
			capability = "the required capability"
		}
		return outcome(http.StatusServiceUnavailable, "no_mcp_available",
			fmt.Sprintf("no connected MCP server provides %s; check /api/servers and the configuration", capability))
	case errors.As(err, &conn) && conn.Phase == mcpclient.PhaseUnresponsive:
		out := outcome(http.StatusServiceUnavailable, "mcp_unresponsive",
			fmt.Sprintf("the MCP server %q stopped answering; it is probed every moment and restarted if it stays silent: try again shortly (see /api/servers)", conn.Server))
		out.retryAfter = max(1, int(conn.RetryAfter.Seconds()))
		return out
	case errors.As(err, &conn):
		return outcome(http.StatusBadGateway, "mcp_unavailable",
			fmt.Sprintf("the MCP server %q is not reachable; check /api/servers and try again shortly", conn.Server))
	case errors.As(err, &shape):
		return outcome(http.StatusBadGateway, "executor_result_unreadable",
			fmt.Sprintf("the executor %q answered with a result that is not a table (check its tool and sql_tool in the configuration): %s",
				shape.Server, shape.Detail))
	case errors.As(err, &fetch):
		return outcome(http.StatusBadGateway, "resource_fetch_failed",
			fmt.Sprintf("resources from the MCP server %q could not be fetched; check /api/servers and try again shortly", fetch.Server))
	default:
		return outcome(http.StatusInternalServerError, "internal_error",
			"an unexpected error occurred; try again, and report it with the request id if it persists")
	}
}

// outcome is a classified error with no field, category or retry hint.
func outcome(status int, code, msg string) classified {
	return classified{status: status, detail: errorDetail{Code: code, Message: msg}}
}

// execFailure maps a failed execution: no executor, the database itself
// unavailable (retry later), or the SQL failing (the client's to fix).
func execFailure(exec *executor.QueryExecutionError) classified {
	if exec.Reason == executor.ReasonNoExecutor {
		return outcome(http.StatusServiceUnavailable, "no_executor",
			"no connected MCP server can execute SQL; check /api/servers and the execute_query capability in the configuration")
	}
	if exec.Category == sqlerr.DatabaseError {
		// The database, not the SQL: a server-side fault until restored.
		out := outcome(http.StatusServiceUnavailable, CodeDatabaseUnavailable, sqlMessage(exec))
		out.detail.Category = exec.Category
		out.retryAfter = max(1, int(math.Ceil(exec.RetryAfter.Seconds())))
		if exec.RetryAfter <= 0 {
			out.retryAfter = 5
		}
		return out
	}
	out := outcome(http.StatusUnprocessableEntity, "sql_execution_failed", sqlMessage(exec))
	out.detail.Category = exec.Category
	return out
}

// generationFailure maps a SQL generation error by its reason.
func generationFailure(gen *orchestrator.SQLGenerationError) classified {
	switch gen.Reason {
	case orchestrator.ReasonNotConfigured:
		return outcome(http.StatusServiceUnavailable, "llm_not_configured", safeGenMessage(gen,
			"no LLM is configured; set llm.provider in the configuration (or use the builtin generator)"))
	case orchestrator.ReasonLLMCommunication:
		return llmFailure(gen)
	case orchestrator.ReasonDeclined:
		out := outcome(http.StatusUnprocessableEntity, "question_declined", safeGenMessage(gen,
			"the question could not be understood well enough to answer; rephrase it with the names of tables, columns or things in your data"))
		out.detail.Hint = gen.Hint
		return out
	default:
		return outcome(http.StatusUnprocessableEntity, "invalid_sql", safeGenMessage(gen,
			"no valid read-only SQL could be generated for this question; rephrase it and try again"))
	}
}

// CodeDatabaseUnavailable is the error code of a database that cannot
// serve (DATABASE_ERROR): 503 with Retry-After on every face.
const CodeDatabaseUnavailable = "database_unavailable"

// llmFailure maps an LLM that failed to answer: what went wrong, in words
// that name no endpoint (the generator's own message is used where it
// names only the provider and model).
func llmFailure(gen *orchestrator.SQLGenerationError) classified {
	switch {
	case errors.Is(gen, sqlgen.ErrLLMTimeout):
		return outcome(http.StatusGatewayTimeout, "llm_timeout", safeGenMessage(gen,
			"the language model did not answer in time")+"; try again later")
	case errors.Is(gen, sqlgen.ErrLLMResponseTooLarge):
		return outcome(http.StatusBadGateway, "llm_response_too_large", safeGenMessage(gen,
			"the language model's answer was over llm.max_response_bytes"))
	case errors.Is(gen, sqlgen.ErrLLMInvalidResponse):
		return outcome(http.StatusBadGateway, "llm_invalid_response", safeGenMessage(gen,
			"the language model answered with invalid JSON"))
	case errors.Is(gen, sqlgen.ErrCircuitOpen):
		return outcome(http.StatusBadGateway, "llm_unavailable",
			"the language model kept failing, so it is not asked for a while; try again later, or configure llm.fallback: builtin")
	}
	return outcome(http.StatusBadGateway, "llm_unavailable",
		"the language model could not be reached or kept failing; check the llm settings and API key, then try again")
}

// timeoutMessage says which step of a question ran out of time, and what to
// do about it.
func timeoutMessage(te *orchestrator.TimeoutError) string {
	msg := fmt.Sprintf("the question was not answered within %s (orchestration.query_timeout): %s then", te.Timeout, te.Waiting())
	switch te.Stage {
	case orchestrator.StageValidating, orchestrator.StageExecuting:
		return msg + "; try a narrower question (a shorter period, fewer groups) or try again"
	case orchestrator.StageGathering:
		return msg + "; check /api/servers and try again shortly"
	}
	return msg + "; try again, or raise orchestration.query_timeout"
}

// sqlMessage tells the user why their SQL failed.
func sqlMessage(e *executor.QueryExecutionError) string {
	msg := e.Message
	if msg == "" {
		msg = "the SQL could not be executed"
	}
	if e.Category != "" {
		return fmt.Sprintf("the SQL failed (%s): %s", e.Category, msg)
	}
	return "the SQL failed: " + msg
}

// safeGenMessage returns the generator's own message, which sqlgen
// documents as safe to show, or def when it is empty.
func safeGenMessage(e *orchestrator.SQLGenerationError, def string) string {
	if e.Message != "" {
		return e.Message
	}
	return def
}

// report classifies err for this request and logs it when the failure is
// the server's (5xx). It is the only place that logs such failures.
func (a *api) report(c *gin.Context, err error) classified {
	if errors.Is(context.Cause(c.Request.Context()), ErrShuttingDown) && !errors.Is(err, ErrShuttingDown) {
		err = fmt.Errorf("%w: %w", ErrShuttingDown, err)
	}
	out := classify(err)
	out.detail.RequestID = requestIDOf(c)
	if out.status >= 500 {
		// A database that cannot serve is logged at ERROR once, when it
		// fails (event database_error), not once per request it fails.
		level := slog.LevelError
		if out.detail.Code == CodeDatabaseUnavailable {
			level = slog.LevelInfo
		}
		a.logger.Log(c.Request.Context(), level, "request failed", "event", "error_occurred", "component", "http",
			"operation_id", out.detail.RequestID, "route", routeOf(c),
			"status", out.status, "code", out.detail.Code, "error", err.Error())
	}
	return out
}

// fail is the one error funnel: it maps err to a status and writes the
// JSON error body (the OpenAI shape on the OpenAI-compatible routes), with
// res attached so clients see the attempts.
func (a *api) fail(c *gin.Context, err error, res *orchestrator.QueryResult) {
	out := a.report(c, err)
	if out.retryAfter > 0 {
		c.Header("Retry-After", strconv.Itoa(out.retryAfter))
	}
	if c.Writer.Written() {
		// Headers are gone (a stream was started): nothing more to send.
		c.Abort()
		return
	}
	if wantsOpenAIShape(c) {
		c.Abort()
		c.PureJSON(out.status, openAIErrorBody(out))
		return
	}
	c.Abort()
	c.PureJSON(out.status, errorBody{Error: out.detail, Result: safeResult(res, out)})
}

// safeResult returns a copy of res whose error is the funnel's safe
// message: the orchestrator's own error text may hold causes (addresses,
// raw model output) meant for the logs.
func safeResult(res *orchestrator.QueryResult, out classified) *orchestrator.QueryResult {
	if res == nil {
		return nil
	}
	r := *res
	r.Error = out.detail.Message
	return &r
}

// errorEvent is the data of an SSE "error" event: the same body an error
// response would have.
func (a *api) errorEvent(c *gin.Context, err error, res *orchestrator.QueryResult) errorBody {
	out := a.report(c, err)
	return errorBody{Error: out.detail, Result: safeResult(res, out)}
}
