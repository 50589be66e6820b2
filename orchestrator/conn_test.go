package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/config"
	"talk2tables/internal/llmtest"
	"talk2tables/mcpserve"
	"talk2tables/orchestrator/mcpclient"
)

// stdioConfig runs both servers as children of this test binary.
func stdioConfig(f *fixture) *config.Config {
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 0
	cfg.MCPServers = map[string]config.ServerConfig{
		"database_mcp": {Name: "Database MCP Server", Transport: config.TransportStdio, Command: os.Args[0],
			Env: map[string]string{envChild: "database", envDB: f.dbPath}, Priority: 10,
			Capabilities: []string{config.CapExecuteQuery, config.CapValidateQuery, config.CapListResources}},
		"product_metadata_mcp": {Name: "Product Metadata MCP", Transport: config.TransportStdio, Command: os.Args[0],
			Env: map[string]string{envChild: "metadata", envCat: f.catalog}, Priority: 1,
			Capabilities: []string{config.CapListResources}},
	}
	return cfg
}

// httpConfig serves both servers over transport (sse or streamable_http)
// from httptest servers.
func httpConfig(t testing.TB, f *fixture, transport string) *config.Config {
	t.Helper()
	kind, path := mcpserve.SSE, "/sse"
	if transport == config.TransportStreamableHTTP {
		kind, path = mcpserve.StreamableHTTP, "/mcp"
	}
	serve := func(s *server.MCPServer) string {
		h, err := mcpserve.Handler(s, kind)
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(h)
		t.Cleanup(func() {
			if c, ok := h.(interface{ CloseSessions() }); ok {
				c.CloseSessions()
			}
			hs.CloseClientConnections()
			hs.Close()
		})
		return hs.URL + path
	}
	cfg := inprocConfig()
	for id, s := range map[string]*server.MCPServer{"database_mcp": f.dbServer(t), "product_metadata_mcp": f.metaServer(t)} {
		sc := cfg.MCPServers[id]
		sc.Transport = transport
		sc.URL = serve(s)
		sc.Headers = map[string]string{"X-Test-Token": "${T2T_TEST_TOKEN}"}
		cfg.MCPServers[id] = sc
	}
	return cfg
}

func TestTransports(t *testing.T) {
	f := newFixture(t)
	t.Setenv("T2T_TEST_TOKEN", "secret")
	tests := []struct {
		name string
		cfg  func(t *testing.T) (*config.Config, []Option)
	}{
		{"inprocess", func(t *testing.T) (*config.Config, []Option) {
			return inprocConfig(), []Option{WithInProcessServer("database_mcp", f.dbServer(t)),
				WithInProcessServer("product_metadata_mcp", f.metaServer(t))}
		}},
		{"stdio", func(t *testing.T) (*config.Config, []Option) { return stdioConfig(f), nil }},
		{"sse", func(t *testing.T) (*config.Config, []Option) { return httpConfig(t, f, config.TransportSSE), nil }},
		{"streamable_http", func(t *testing.T) (*config.Config, []Option) {
			return httpConfig(t, f, config.TransportStreamableHTTP), nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, opts := tt.cfg(t)
			llm := llmtest.New(t, llmtest.Step{Content: llmtest.Plan(abraSQL, abraEntities, "")})
			o := newOrch(t, cfg, append(opts, WithGenerator(llmGen(t, llm)))...)
			for _, s := range o.Servers() {
				if s.State != mcpclient.StateConnected {
					t.Fatalf("server %s state = %s (%s), want connected", s.ID, s.State, s.LastError)
				}
			}
			res, err := o.Process(context.Background(), Query{Question: "sales for abracadabra this month"})
			if err != nil {
				t.Fatalf("Process: %v", err)
			}
			if got, want := jsonOf(t, res.Result.Rows), jsonOf(t, f.direct(t, abraSQL)); got != want {
				t.Errorf("rows = %s, want %s", got, want)
			}
			if h := o.Health(); h.Status != "healthy" {
				t.Errorf("health = %+v", h)
			}
		})
	}
}

func TestDiscoveryAndRouting(t *testing.T) {
	f := newFixture(t)
	echo := func(tag string) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(tag), nil
		}
	}
	cfg := inprocConfig()
	cfg.MCPServers["tools_a"] = config.ServerConfig{Transport: config.TransportInProcess, Priority: 5}
	cfg.MCPServers["tools_b"] = config.ServerConfig{Transport: config.TransportInProcess, Priority: 3}
	a := newResourceServer("a", nil, map[string]server.ToolHandlerFunc{"echo": echo("a"), "only_a": echo("a")})
	b := newResourceServer("b", nil, map[string]server.ToolHandlerFunc{"echo": echo("b")})
	// A paginating resources-only server: tools/list would be method-not-found.
	many := map[string]string{}
	for i := range 7 {
		many[fmt.Sprintf("meta://r%d", i)] = fmt.Sprintf(`{"i":%d}`, i)
	}
	paged := server.NewMCPServer("paged", "1", server.WithResourceCapabilities(false, false), server.WithPaginationLimit(2))
	for uri, text := range many {
		paged.AddResource(mcp.NewResource(uri, uri), func(ctx context.Context, r mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, Text: text}}, nil
		})
	}
	cfg.MCPServers["product_metadata_mcp"] = config.ServerConfig{Transport: config.TransportInProcess, Priority: 1,
		Capabilities: []string{config.CapListResources}}
	o := newOrch(t, cfg, WithGenerator(llmGen(t, llmtest.New(t))),
		WithInProcessServer("database_mcp", f.dbServer(t)), WithInProcessServer("product_metadata_mcp", paged),
		WithInProcessServer("tools_a", a.s), WithInProcessServer("tools_b", b.s))

	rt := o.RoutingTable()
	for tool, want := range map[string]string{"echo": "tools_b", "tools_a__echo": "tools_a", "only_a": "tools_a",
		"execute_query": "database_mcp", "database_mcp__validate_query": "database_mcp"} {
		if got := rt[tool]; got != want {
			t.Errorf("route %s = %q, want %q", tool, got, want)
		}
	}
	for _, s := range o.Servers() {
		if s.ID == "product_metadata_mcp" && (len(s.Resources) != 7 || len(s.Tools) != 0 || s.State != mcpclient.StateConnected) {
			t.Errorf("paged server = %+v, want 7 resources over 4 pages and no tools", s)
		}
	}
	snaps, err := o.Resources(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if snaps[0].ServerID != "product_metadata_mcp" || len(snaps[0].Resources) != 7 {
		t.Errorf("first snapshot = %+v", snaps[0])
	}
	if v, ok := snaps[0].Resources["meta://r3"].(map[string]any); !ok || v["i"] != 3.0 {
		t.Errorf("meta://r3 = %#v, want parsed JSON", snaps[0].Resources["meta://r3"])
	}
}

func TestServerDown(t *testing.T) {
	f := newFixture(t)
	down := func(cfg *config.Config) {
		cfg.MCPServers["product_metadata_mcp"] = config.ServerConfig{Name: "gone", Transport: config.TransportStdio,
			Command: "/nonexistent/metadata-mcp", Priority: 1, Capabilities: []string{config.CapListResources}}
	}
	t.Run("fail_fast at start", func(t *testing.T) {
		cfg := inprocConfig()
		down(cfg)
		_, err := New(context.Background(), cfg, testLogger(t), WithGenerator(llmGen(t, llmtest.New(t))),
			WithInProcessServer("database_mcp", f.dbServer(t)))
		var ce *mcpclient.MCPConnectionError
		if !errors.As(err, &ce) || ce.Server != "product_metadata_mcp" || ce.Phase != mcpclient.PhaseInitial {
			t.Fatalf("New = %v, want MCPConnectionError naming product_metadata_mcp", err)
		}
		if !strings.Contains(err.Error(), "product_metadata_mcp") {
			t.Errorf("error %q does not name the server", err)
		}
	})
	t.Run("not fail_fast", func(t *testing.T) {
		cfg := inprocConfig()
		down(cfg)
		cfg.Orchestration.FailFast = new(bool)
		llm := llmtest.New(t, llmtest.Step{Content: llmtest.Plan("SELECT COUNT(*) FROM products WHERE product_id = 123", abraEntities, "")})
		o := newOrch(t, cfg, WithGenerator(llmGen(t, llm)), WithInProcessServer("database_mcp", f.dbServer(t)))
		res, err := o.Process(context.Background(), Query{Question: "abracadabra?"})
		if err != nil {
			t.Fatalf("Process: %v", err)
		}
		if got := strings.Join(res.Metadata.MissingServers, ","); got != "product_metadata_mcp" {
			t.Errorf("missing_servers = %q, want product_metadata_mcp", got)
		}
		if h := o.Health(); h.Status != "healthy" || h.Servers["product_metadata_mcp"] == mcpclient.StateConnected {
			t.Errorf("health = %+v, want healthy (executor up) with metadata down", h)
		}
	})
	t.Run("fail_fast during gathering", func(t *testing.T) {
		cfg := inprocConfig()
		meta := newResourceServer("meta", map[string]string{"metadata://x": `{}`}, nil)
		o := newOrch(t, cfg, WithGenerator(llmGen(t, llmtest.New(t))),
			WithInProcessServer("database_mcp", f.dbServer(t)), WithInProcessServer("product_metadata_mcp", meta.s))
		// The server is lost: the connection errors out and is marked failed.
		c := o.clients.Conn("product_metadata_mcp")
		c.Drop(errors.New("simulated loss"))
		_, err := o.Process(context.Background(), Query{Question: "q"})
		var ce *mcpclient.MCPConnectionError
		if !errors.As(err, &ce) || ce.Server != "product_metadata_mcp" || ce.Phase != mcpclient.PhaseLost {
			t.Fatalf("Process = %v, want lost MCPConnectionError naming product_metadata_mcp", err)
		}
		if h := o.Health(); h.Status != "degraded" {
			t.Errorf("health = %+v, want degraded", h)
		}
		// ... and comes back by itself.
		eventually(t, "reconnect", func() bool { return c.State() == mcpclient.StateConnected })
	})
}

func TestStdioChildKilledIsReconnected(t *testing.T) {
	f := newFixture(t)
	cfg := stdioConfig(f)
	cfg.Orchestration.PingInterval = 50 * time.Millisecond
	llm := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: llmtest.Plan("SELECT COUNT(*) FROM products", nil, "")}
	})
	o := newOrch(t, cfg, WithGenerator(llmGen(t, llm)), withBackoff(10*time.Millisecond, 100*time.Millisecond))
	c := o.clients.Conn("database_mcp")
	pid := c.PID()
	if pid == 0 {
		t.Fatal("no child pid")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the new child", func() bool { return c.State() == mcpclient.StateConnected && c.PID() != pid })
	if _, err := o.Process(context.Background(), Query{Question: "how many products"}); err != nil {
		t.Fatalf("Process after reconnect: %v", err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("old child %d still exists (not reaped)", pid)
	}
}

func TestCloseLeaksNothing(t *testing.T) {
	f := newFixture(t)
	gen := llmGen(t, llmtest.New(t))
	base := runtime.NumGoroutine()
	cfg := stdioConfig(f)
	cfg.Orchestration.PingInterval = 20 * time.Millisecond
	cfg.MCPServers["flaky"] = config.ServerConfig{Transport: config.TransportStdio, Command: "/nonexistent", Priority: 50}
	cfg.Orchestration.FailFast = new(bool)
	o, err := New(context.Background(), cfg, testLogger(t), WithChildStderr(nil),
		WithGenerator(gen), withBackoff(5*time.Millisecond, 20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Resources(context.Background()); err != nil {
		t.Fatal(err)
	}
	pids := []int{o.clients.Conn("database_mcp").PID(), o.clients.Conn("product_metadata_mcp").PID()}
	time.Sleep(50 * time.Millisecond) // let pings and reconnect attempts run
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	if err := o.Close(); err != nil { // idempotent
		t.Fatal(err)
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); err == nil {
			t.Errorf("child %d still exists after Close", pid)
		}
	}
	for _, s := range o.Servers() {
		if s.State == mcpclient.StateConnected {
			t.Errorf("server %s still connected after Close", s.ID)
		}
	}
	settleGoroutines(t, base)
}
