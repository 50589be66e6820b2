package main

import (
	"context"
	"fmt"
	"time"

	"talk2tables/telemetry"
)

// tracedCommands name the service each long-running command reports its
// traces as.
var tracedCommands = map[string]string{
	"serve":        "talk2tables",
	"database-mcp": "talk2tables-database-mcp",
	"metadata-mcp": "talk2tables-metadata-mcp",
}

// setupTracing turns OpenTelemetry tracing on for command when the
// OTEL_EXPORTER_OTLP_* variables ask for it; the returned function flushes
// the spans not yet exported (bounded to 5 s).
func setupTracing(ctx context.Context, command string) (func(), error) {
	service, ok := tracedCommands[command]
	if !ok {
		return func() {}, nil
	}
	shutdown, err := telemetry.Setup(ctx, service)
	if err != nil {
		return nil, fmt.Errorf("%s: tracing: %w", command, err)
	}
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = shutdown(sctx)
	}, nil
}
