package orchestrator

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/config"
	"talk2tables/internal/llmtest"
)

// textTool returns a handler answering text.
func textTool(text string) server.ToolHandlerFunc {
	return func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(text), nil
	}
}

// serverTools returns the tool names o reports for server id.
func serverTools(o *Orchestrator, id string) []string {
	for _, s := range o.Servers() {
		if s.ID == id {
			return s.Tools
		}
	}
	return nil
}

func TestToolsListChangedRefreshesRoutes(t *testing.T) {
	f := newFixture(t)
	cfg := inprocConfig()
	cfg.MCPServers["tools_mcp"] = config.ServerConfig{Name: "Tools", Transport: config.TransportInProcess, Priority: 1,
		Capabilities: []string{config.CapListTools}}
	// listChanged true: AddTool and DeleteTools notify connected clients.
	ts := server.NewMCPServer("tools", "1.0.0", server.WithToolCapabilities(true))
	ts.AddTool(mcp.NewTool("alpha"), textTool("alpha"))
	o := newOrch(t, cfg, WithGenerator(llmGen(t, llmtest.New(t))),
		WithInProcessServer("database_mcp", f.dbServer(t)),
		WithInProcessServer("product_metadata_mcp", f.metaServer(t)),
		WithInProcessServer("tools_mcp", ts))

	if rt := o.RoutingTable(); rt["alpha"] != "tools_mcp" || rt["beta"] != "" || rt["validate_query"] != "database_mcp" {
		t.Fatalf("initial routes = %v", rt)
	}

	ts.AddTool(mcp.NewTool("beta"), textTool("beta"))
	eventually(t, "beta routed", func() bool { return o.RoutingTable()["beta"] == "tools_mcp" })

	// A more preferred server (priority 1) that gains a tool another server
	// has takes over the bare name; the qualified name still reaches the
	// other server.
	ts.AddTool(mcp.NewTool("validate_query"), textTool("shadow"))
	eventually(t, "validate_query taken over", func() bool { return o.RoutingTable()["validate_query"] == "tools_mcp" })

	ts.DeleteTools("alpha")
	eventually(t, "alpha unrouted", func() bool { _, ok := o.RoutingTable()["alpha"]; return !ok })

	rt := o.RoutingTable()
	for name, want := range map[string]string{
		"beta": "tools_mcp", "tools_mcp__beta": "tools_mcp", "validate_query": "tools_mcp",
		"tools_mcp__validate_query": "tools_mcp", "database_mcp__validate_query": "database_mcp",
		"execute_query": "database_mcp",
	} {
		if got := rt[name]; got != want {
			t.Errorf("route %s = %q, want %q", name, got, want)
		}
	}
	for _, gone := range []string{"alpha", "tools_mcp__alpha"} {
		if got, ok := rt[gone]; ok {
			t.Errorf("route %s = %q after the tool was deleted, want none", gone, got)
		}
	}
	tools := serverTools(o, "tools_mcp")
	slices.Sort(tools)
	if !slices.Equal(tools, []string{"beta", "validate_query"}) {
		t.Errorf("tools_mcp tools = %v, want [beta validate_query]", tools)
	}
	if c, name, ok := o.clients.Route("beta"); !ok || c.ID() != "tools_mcp" || name != "beta" {
		t.Errorf("route(beta) = %v, %q, %v", c, name, ok)
	}
}

// An executor that gains validate_query at runtime gets generated SQL
// validated from then on.
func TestToolsListChangedExecutorGainsValidate(t *testing.T) {
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 0
	cfg.Orchestration.ResultCache.Enabled = false // the same SQL must reach the executor twice
	cfg.MCPServers["sql_mcp"] = config.ServerConfig{Name: "Foreign SQL", Transport: config.TransportInProcess, Priority: 1,
		Capabilities: []string{config.CapExecuteQuery, config.CapValidateQuery}}
	ex := server.NewMCPServer("sql", "1.0.0", server.WithToolCapabilities(true))
	ex.AddTool(mcp.NewTool("execute_query", mcp.WithString("query")),
		textTool(`{"columns":["n"],"rows":[[1]],"row_count":1}`))
	plan := llmtest.Plan("SELECT 1 AS n", nil, "one")
	llm := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: plan} })
	o := newOrch(t, cfg, WithGenerator(llmGen(t, llm)), WithInProcessServer("sql_mcp", ex))

	var validated atomic.Int64
	ask := func() {
		t.Helper()
		res, err := o.Process(context.Background(), Query{Question: "one"})
		if err != nil || res.Result.RowCount != 1 {
			t.Fatalf("Process = %+v, %v", res, err)
		}
	}
	ask()
	if got := validated.Load(); got != 0 {
		t.Fatalf("validate calls before the tool exists = %d", got)
	}
	ex.AddTool(mcp.NewTool("validate_query", mcp.WithString("query")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			validated.Add(1)
			return mcp.NewToolResultText(`{"valid":true}`), nil
		})
	eventually(t, "validate_query listed", func() bool { return slices.Contains(serverTools(o, "sql_mcp"), "validate_query") })
	ask()
	if got := validated.Load(); got != 1 {
		t.Errorf("validate calls after the tool appeared = %d, want 1", got)
	}
}

// Notifications arriving while a refresh runs end in the final tool list.
func TestToolsListChangedBurst(t *testing.T) {
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 0
	cfg.MCPServers["sql_mcp"] = config.ServerConfig{Name: "Foreign SQL", Transport: config.TransportInProcess, Priority: 1,
		Capabilities: []string{config.CapExecuteQuery}}
	ex := server.NewMCPServer("sql", "1.0.0", server.WithToolCapabilities(true))
	ex.AddTool(mcp.NewTool("execute_query", mcp.WithString("query")), textTool(`{"columns":[],"rows":[]}`))
	o := newOrch(t, cfg, WithGenerator(llmGen(t, llmtest.New(t))), WithInProcessServer("sql_mcp", ex))

	want := []string{"execute_query"}
	for _, name := range []string{"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"} {
		ex.AddTool(mcp.NewTool(name), textTool(name))
		want = append(want, name)
	}
	slices.Sort(want)
	eventually(t, "all tools listed", func() bool {
		got := serverTools(o, "sql_mcp")
		slices.Sort(got)
		return slices.Equal(got, want)
	})
}
