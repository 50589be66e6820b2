package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/config"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/resources"
)

func TestDialectOf(t *testing.T) {
	if got := dialectOf(nil); got != "" {
		t.Errorf("dialectOf(nil) = %q", got)
	}
	snap := &resources.Snapshot{Resources: map[string]any{"database://schema": map[string]any{"dialect": "postgres"}, "x": "text"}}
	if got := dialectOf(snap); got != "postgres" {
		t.Errorf("dialectOf(postgres schema) = %q", got)
	}
}

// TestForeignExecutorMaxRows: max_rows goes to the tool's limit-like
// argument when it has one, and the rows read are cut to it either way
// (truncated); an unreadable answer is an error naming the server.
func TestForeignExecutorMaxRows(t *testing.T) {
	var gotLimit []any
	s := server.NewMCPServer("foreign", "1.0.0", server.WithToolCapabilities(false))
	rows := `[` + strings.TrimSuffix(strings.Repeat(`{"n":1,"m":2},`, 50), ",") + `]`
	s.AddTool(mcp.NewTool("run_sql", mcp.WithString("statement"), mcp.WithNumber("row_limit")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			gotLimit = append(gotLimit, req.GetArguments()["row_limit"])
			if strings.Contains(req.GetString("statement", ""), "blob") {
				return mcp.NewToolResultText("Query OK, 50 rows"), nil
			}
			return mcp.NewToolResultText(rows), nil // ignores the limit, as DBHub does
		})
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 0
	cfg.MCPServers["foreign"] = config.ServerConfig{Transport: config.TransportInProcess, Priority: 1, Capabilities: []string{config.CapExecuteQuery},
		SQLTool: &config.SQLTool{Name: "run_sql", Argument: "statement"}, SchemaDiscovery: config.DiscoveryOff}
	o := newOrch(t, cfg, WithInProcessServer("foreign", s))
	d, err := o.ExecuteSQL(context.Background(), "SELECT n, m FROM t", 5, "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Rows) != 5 || d.RowCount != 5 || !d.Truncated || jsonOf(t, d.Columns) != `["n","m"]` {
		t.Errorf("result = %+v, want 5 rows of n, m, truncated", d)
	}
	if len(gotLimit) != 1 {
		t.Fatalf("calls = %v", gotLimit)
	}
	if b, _ := json.Marshal(gotLimit[0]); string(b) == "null" {
		t.Errorf("row_limit = %v, want max_rows passed", gotLimit[0])
	}
	_, err = o.ExecuteSQL(context.Background(), "SELECT blob FROM t", 5, "t")
	var fe *executor.ResultFormatError
	if !errors.As(err, &fe) || fe.Server != "foreign" || fe.Tool != "run_sql" {
		t.Errorf("err = %v, want a ResultFormatError naming foreign and run_sql", err)
	}
}
