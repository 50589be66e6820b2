package orchestrator

import (
	"log/slog"

	"talk2tables/orchestrator/builtin"
	"talk2tables/orchestrator/sqlgen"
)

// newBuiltin returns the built-in offline generator.
func newBuiltin(logger *slog.Logger) (sqlgen.Generator, error) {
	return builtin.New(logger), nil
}
