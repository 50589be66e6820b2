package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"

	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/sqlerr"
)

func TestFailureLevel(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want slog.Level
	}{
		{"declined", &SQLGenerationError{Reason: sqlgen.ReasonDeclined, Message: "can't answer"}, slog.LevelWarn},
		{"invalid sql", &SQLGenerationError{Reason: sqlgen.ReasonInvalidSQL, Message: "no sql"}, slog.LevelWarn},
		{"sql still failing", fmt.Errorf("attempt 3: %w", &executor.QueryExecutionError{Reason: executor.ReasonSQLExecution,
			Category: sqlerr.MissingColumn}), slog.LevelWarn},
		{"llm down", &SQLGenerationError{Reason: sqlgen.ReasonLLMCommunication, Message: "unreachable"}, slog.LevelError},
		{"no llm", &SQLGenerationError{Reason: sqlgen.ReasonNotConfigured, Message: "configure"}, slog.LevelError},
		{"statement timeout", &executor.QueryExecutionError{Reason: executor.ReasonSQLExecution, Category: sqlerr.Timeout}, slog.LevelError},
		{"no executor", &executor.QueryExecutionError{Reason: "no_executor"}, slog.LevelError},
		{"mcp down", &mcpclient.MCPConnectionError{Server: "database_mcp", Phase: "lost", Err: errors.New("eof")}, slog.LevelError},
		{"question timeout", fmt.Errorf("question not answered: %w", context.DeadlineExceeded), slog.LevelError},
		{"client went away", fmt.Errorf("question cancelled: %w", context.Canceled), slog.LevelInfo},
		{"llm call cancelled", &SQLGenerationError{Reason: sqlgen.ReasonLLMCommunication, Err: context.Canceled}, slog.LevelInfo},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := failureLevel(tt.err); got != tt.want {
				t.Errorf("failureLevel(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}
