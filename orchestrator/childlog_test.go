package orchestrator

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"talk2tables/config"
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
	meta.Env[config.EnvLogLevel] = "warn"

	var logs testfixture.LogBuffer
	o, err := New(context.Background(), cfg, slog.New(slog.NewJSONHandler(&logs, nil)), WithChildStderr(io.Discard))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	o.Close()
	lines := map[string]string{}
	for _, e := range logs.Events(t, "mcp_server_stderr") {
		lines[e["mcp_server"].(string)] += e["line"].(string) + "\n"
	}
	for id, want := range map[string]string{
		"database_mcp":         "child database: " + config.EnvLogLevel + "=debug " + config.EnvLogFormat + "=text",
		"product_metadata_mcp": "child metadata: " + config.EnvLogLevel + "=warn " + config.EnvLogFormat + "=text",
	} {
		if !strings.Contains(lines[id], want) {
			t.Errorf("%s's stderr events lack %q; got:\n%s", id, want, lines[id])
		}
	}
}

// TestChildEnvironment: a stdio child gets what a program needs to run
// (PATH, HOME, locale) and its own env, never the parent's secrets.
func TestChildEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-parent-secret")
	t.Setenv("TALK2TABLES_API_KEYS", "key-one,key-two")
	t.Setenv("PGPASSWORD", "hunter2")
	t.Setenv("LC_ALL", "C.UTF-8")
	f := newFixture(t)
	cfg := stdioConfig(f)
	db := cfg.MCPServers["database_mcp"]
	db.Env[envPrintEnv] = "1"
	db.Env["PGPASSWORD"] = "${PGPASSWORD}" // listed: passed on
	var logs testfixture.LogBuffer
	o, err := New(context.Background(), cfg, slog.New(slog.NewJSONHandler(&logs, nil)), WithChildStderr(io.Discard))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	o.Close()
	var names string
	for _, e := range logs.Events(t, "mcp_server_stderr") {
		if l := e["line"].(string); strings.HasPrefix(l, "child env: ") {
			names = " " + strings.TrimPrefix(l, "child env: ") + " "
		}
	}
	if names == "" {
		t.Fatalf("the child printed no environment; logs:\n%s", logs.String())
	}
	for _, want := range []string{"PATH", "LC_ALL", "PGPASSWORD", config.EnvLogLevel, envChild} {
		if !strings.Contains(names, " "+want+" ") {
			t.Errorf("child environment lacks %s: %s", want, names)
		}
	}
	for _, secret := range []string{"OPENAI_API_KEY", "TALK2TABLES_API_KEYS"} {
		if strings.Contains(names, " "+secret+" ") {
			t.Errorf("child environment holds the parent's %s: %s", secret, names)
		}
	}
	if strings.Contains(logs.String(), "sk-parent-secret") || strings.Contains(logs.String(), "hunter2") {
		t.Error("a secret reached the log")
	}
}

// TestChildDiesAtStart: a stdio server that exits at start (here: its
// database file is missing) fails with what it said, not just "transport
// closed".
func TestChildDiesAtStart(t *testing.T) {
	f := newFixture(t)
	cfg := stdioConfig(f)
	missing := filepath.Join(t.TempDir(), "gone.db")
	cfg.MCPServers["database_mcp"].Env[envDB] = missing
	_, err := New(context.Background(), cfg, testLogger(t), WithChildStderr(io.Discard))
	if err == nil {
		t.Fatal("New succeeded with a missing database")
	}
	for _, want := range []string{`"database_mcp"`, missing + " does not exist", "make data"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error = %q, want it to contain %q", err, want)
		}
	}
}
