package orchestrator

import (
	"log/slog"

	"talk2tables/orchestrator/sqlgen"
)

// newBuiltin returns the built-in offline generator.
func newBuiltin(logger *slog.Logger) (sqlgen.Generator, error) {
	return nil, &sqlgen.SQLGenerationError{Reason: sqlgen.ReasonNotConfigured,
		Message: "the built-in generator is not available in this build; configure an LLM: set llm.provider " +
			"(openai, anthropic or ollama), llm.model, and export the API key named by llm.api_key_env"}
}
