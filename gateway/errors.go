package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"

	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/orchestrator"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/resources"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/sqlerr"
)

// failure is an error mapped for an MCP client: a code and a message that
// says what to do, never internals.
type failure struct {
	code    string
	message string
	system  bool // a part of the system failed (logged at ERROR), not the request
}

// classify maps any error of a tool call to a failure. It is the gateway's
// one error funnel, like server/errors.go is for HTTP.
func classify(err error) failure {
	var (
		conn  *mcpclient.MCPConnectionError
		none  *mcpclient.NoMCPAvailableError
		fetch *resources.ResourceFetchError
		gen   *orchestrator.SQLGenerationError
		exec  *executor.QueryExecutionError
		ue    *mcpclient.UnknownExecutorError
		te    *orchestrator.TimeoutError
	)
	switch {
	case errors.As(err, &te):
		return failure{"timeout", fmt.Sprintf("the question was not answered within %s (orchestration.query_timeout): %s then; try again",
			te.Timeout, te.Waiting()), true}
	case errors.Is(err, context.DeadlineExceeded):
		return failure{"timeout", "the call took longer than the configured timeout; try a narrower question or try again", true}
	case errors.Is(err, context.Canceled):
		return failure{"cancelled", "the call was cancelled", false}
	case errors.As(err, &ue):
		return failure{"unknown_server", ue.Error(), false}
	case errors.As(err, &exec):
		if exec.Reason == executor.ReasonNoExecutor {
			return failure{"no_executor", "no connected MCP server can execute SQL; call health to see the servers", true}
		}
		msg := exec.Message
		if msg == "" {
			msg = "the SQL could not be executed"
		}
		if exec.Category == sqlerr.DatabaseError {
			// Logged at ERROR once when the database failed, not per call.
			return failure{"database_unavailable", fmt.Sprintf("the database is unavailable (%s): %s; try again in %d s (call health to see it)",
				exec.Category, msg, max(1, int(math.Ceil(exec.RetryAfter.Seconds())))), false}
		}
		return failure{"sql_execution_failed", fmt.Sprintf("the SQL failed (%s): %s", exec.Category, msg), false}
	case errors.As(err, &gen):
		switch gen.Reason {
		case sqlgen.ReasonNotConfigured:
			return failure{"llm_not_configured", orDefault(gen.Message, "no LLM is configured"), true}
		case sqlgen.ReasonLLMCommunication:
			switch {
			case errors.Is(gen, sqlgen.ErrLLMTimeout):
				return failure{"llm_timeout", orDefault(gen.Message, "the language model did not answer in time") + "; try again later", true}
			case errors.Is(gen, sqlgen.ErrLLMResponseTooLarge):
				return failure{"llm_response_too_large", orDefault(gen.Message, "the language model's answer was over llm.max_response_bytes"), true}
			case errors.Is(gen, sqlgen.ErrLLMInvalidResponse):
				return failure{"llm_invalid_response", orDefault(gen.Message, "the language model answered with invalid JSON"), true}
			}
			return failure{"llm_unavailable", "the language model could not be reached or kept failing; try again later", true}
		case sqlgen.ReasonDeclined:
			msg := orDefault(gen.Message, "the question could not be understood well enough to answer; rephrase it")
			if gen.Hint != "" {
				msg += " (" + gen.Hint + ")"
			}
			return failure{"question_declined", msg, false}
		default:
			return failure{"invalid_sql", orDefault(gen.Message, "no valid read-only SQL could be generated; rephrase the question"), false}
		}
	case errors.As(err, &none):
		return failure{"no_mcp_available", fmt.Sprintf("no connected MCP server provides %s; call health to see the servers", none.Capability), true}
	case errors.As(err, &conn):
		if errors.Is(err, mcpclient.ErrNoAuthorization) {
			return failure{"unauthorized", fmt.Sprintf("the MCP server %q is reached with your own credentials: connect over HTTP with an Authorization header", conn.Server), false}
		}
		return failure{"mcp_unavailable", fmt.Sprintf("the MCP server %q is not reachable; call health and try again shortly", conn.Server), true}
	case errors.As(err, &fetch):
		return failure{"resource_fetch_failed", fmt.Sprintf("resources from the MCP server %q could not be fetched; try again shortly", fetch.Server), true}
	case errors.Is(err, mcpclient.ErrUnknownServer):
		return failure{"unknown_server", err.Error(), false}
	default:
		return failure{"internal_error", "an unexpected error occurred; try again, and report it with the time if it persists", true}
	}
}

// fail turns err into a tool result with isError and logs it once: at
// ERROR when a part of the system failed, else at INFO.
func (g *Gateway) fail(ctx context.Context, tool, opID string, err error) *mcp.CallToolResult {
	f := classify(err)
	level := slog.LevelInfo
	if f.system {
		level = slog.LevelError
	}
	g.log.Log(ctx, level, "tool call failed", "event", "error_occurred", "tool", tool,
		"operation_id", opID, "code", f.code, "error", err.Error())
	return mcp.NewToolResultError(f.message)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
