package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/databasemcp"
	"talk2tables/internal/testfixture"
)

func TestDatabaseMCPCommand(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	notDB := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notDB, []byte("plain text, not SQLite"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		wantErr    error  // errors.Is target; nil with wantMsg set means a plain error
		wantMsg    string // in the error (or, for help, in the output)
		wantStderr string
	}{
		{name: "help", args: []string{"--help"}, wantErr: errHelp, wantStderr: "-query-timeout duration"},
		{name: "help lists every flag", args: []string{"-h"}, wantErr: errHelp, wantStderr: "-log-format string"},
		{name: "unknown flag", args: []string{"--nope"}, wantErr: errUsage, wantStderr: "flag provided but not defined"},
		{name: "missing --db", args: []string{}, wantErr: errUsage, wantStderr: "--db (SQLite) or --dsn (PostgreSQL, MySQL) is required"},
		{name: "stray argument", args: []string{"--db", missing, "extra"}, wantErr: errUsage, wantStderr: "unexpected argument"},
		{name: "missing file", args: []string{"--db", missing}, wantMsg: missing + " does not exist"},
		{name: "directory without data files", args: []string{"--db", dir}, wantMsg: dir + ": no .csv, .tsv, .jsonl, .ndjson, .parquet files in the directory (to serve a SQLite database, name its file)"},
		{name: "not sqlite", args: []string{"--db", notDB}, wantMsg: notDB + " is not a SQLite database"},
		{name: "bad transport", args: []string{"--db", notDB, "--transport", "carrier-pigeon"}, wantMsg: `--transport "carrier-pigeon"`},
		{name: "bad max rows", args: []string{"--db", notDB, "--max-rows", "0"}, wantMsg: "--max-rows must be between 1 and 100000"},
		{name: "bad timeout", args: []string{"--db", notDB, "--query-timeout", "-1s"}, wantMsg: "--query-timeout must be positive"},
		{name: "bad log level", args: []string{"--db", notDB, "--log-level", "loud"}, wantMsg: `log level "loud"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), append([]string{"database-mcp"}, tt.args...), stdio{strings.NewReader(""), &stdout, &stderr})
			if err == nil {
				t.Fatalf("run(%v) = nil, want an error", tt.args)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("run(%v) = %v, want %v", tt.args, err, tt.wantErr)
			}
			if tt.wantErr == nil {
				if errors.Is(err, errUsage) || errors.Is(err, errHelp) {
					t.Errorf("run(%v) = %v, want a plain error (exit 1)", tt.args, err)
				}
				if !strings.Contains(err.Error(), tt.wantMsg) || strings.Contains(err.Error(), "\n") {
					t.Errorf("error = %q, want one line containing %q", err, tt.wantMsg)
				}
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr.String(), tt.wantStderr)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout = %q, want nothing (stdout is the MCP protocol)", stdout.String())
			}
		})
	}
	var stderr bytes.Buffer
	run(context.Background(), []string{"database-mcp", "--help"}, stdio{strings.NewReader(""), &bytes.Buffer{}, &stderr})
	for _, flag := range []string{"db", "transport", "addr", "query-timeout", "max-rows", "log-level", "log-format"} {
		if !strings.Contains(stderr.String(), "  -"+flag+" ") {
			t.Errorf("--help does not explain -%s:\n%s", flag, stderr.String())
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("database-mcp created %s", missing)
	}
}

// TestDatabaseMCPServesStdio runs the subcommand on pipes and talks to it
// with a real MCP client.
func TestDatabaseMCPServesStdio(t *testing.T) {
	path := testfixture.SalesDB(t, 100)
	args := []string{"database-mcp", "--db", path, "--max-rows", "7", "--log-level", "debug"}
	logs := serveStdio(t, args, mcp.LATEST_PROTOCOL_VERSION, func(c *client.Client) {
		call := mcp.CallToolRequest{}
		call.Params.Name = "execute_query"
		call.Params.Arguments = map[string]any{"query": "SELECT sale_id FROM sales"}
		res, err := c.CallTool(context.Background(), call)
		if err != nil {
			t.Fatalf("call execute_query: %v", err)
		}
		text := mcp.GetTextFromContent(res.Content[0])
		if res.IsError || !strings.Contains(text, `"row_count":7,"truncated":true`) {
			t.Errorf("execute_query = %s (isError %v), want 7 rows (--max-rows) and truncated", text, res.IsError)
		}
	})
	for _, want := range []string{`"event":"sql_execution_completed"`, `"msg":"database opened read-only"`,
		`"sqlite_allocator":"` + databasemcp.AllocatorState() + `"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("stderr logs lack %s:\n%s", want, logs)
		}
	}
}
