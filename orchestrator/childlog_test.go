package orchestrator

import (
	"context"
	"testing"

	"talk2tables/internal/testfixture"
)

// TestChildLogSettings: stdio children inherit the orchestrator's log level
// and format through the environment, and a server's own env wins.
func TestChildLogSettings(t *testing.T) {
	f := newFixture(t)
	cfg := stdioConfig(f)
	cfg.Orchestration.LogLevel = "debug"
	cfg.Orchestration.LogFormat = "text"
	db := cfg.MCPServers["database_mcp"]
	db.Env[envPrintLogEnv] = "1"
	meta := cfg.MCPServers["product_metadata_mcp"]
	meta.Env[envPrintLogEnv] = "1"
	meta.Env[EnvLogLevel] = "warn"

	var stderr testfixture.LogBuffer
	o, err := New(context.Background(), cfg, testLogger(t), WithChildStderr(&stderr))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	o.Close()
	for _, want := range []string{
		"child database: " + EnvLogLevel + "=debug " + EnvLogFormat + "=text",
		"child metadata: " + EnvLogLevel + "=warn " + EnvLogFormat + "=text",
	} {
		if !stderr.Contains(want) {
			t.Errorf("children's stderr lacks %q; got:\n%s", want, stderr.String())
		}
	}
}
