package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"gopkg.in/yaml.v3"

	"talk2tables/config"
	"talk2tables/databasemcp"
	"talk2tables/internal/llmtest"
	"talk2tables/internal/testfixture"
	"talk2tables/mcpserve"
	"talk2tables/metadatamcp"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/verified"
	"talk2tables/state"
)

// Env of the re-executed test binary that serves the gateway over stdio.
const (
	envStdioGateway = "GATEWAY_TEST_STDIO" // path of a stack file (JSON)
)

// stackFile is what a re-executed stdio gateway builds.
type stackFile struct {
	DB      string `json:"db"`
	Catalog string `json:"catalog"`
	Config  string `json:"config"` // YAML of the gateway section
	State   string `json:"state"`  // SQLite state database: verified questions on ("" off)
}

func TestMain(m *testing.M) {
	if path := os.Getenv(envStdioGateway); path != "" {
		os.Exit(serveStdioGateway(path))
	}
	os.Exit(m.Run())
}

// serveStdioGateway is the child side of the stdio tests: the gateway over
// the sample database and catalog, on stdin/stdout.
func serveStdioGateway(path string) int {
	raw, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var sf stackFile
	if err := json.Unmarshal(raw, &sf); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	st, err := buildStack(context.Background(), sf, slog.New(slog.NewJSONHandler(os.Stderr, nil)), nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer st.close()
	err = mcpserve.Serve(context.Background(), st.gw.MCPServer(), mcpserve.Options{Stdin: os.Stdin, Stdout: os.Stdout})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// stack is a gateway over a real orchestrator with the database and
// metadata servers in process (plus any extra servers).
type stack struct {
	gw     *Gateway
	orch   *orchestrator.Orchestrator
	cfg    *config.Config
	db     *databasemcp.DB
	dbPath string
	logs   *testfixture.LogBuffer
	state  *state.Store // nil when verified questions are off
}

func (s *stack) close() {
	s.gw.Close()
	s.orch.Close()
	s.db.Close()
	if s.state != nil {
		s.state.Close()
	}
}

// extraServer is an additional in-process downstream server.
type extraServer struct {
	id  string
	srv *server.MCPServer
	cfg config.ServerConfig
}

// buildStack builds the stack from a stack file; gatewayYAML tunes the
// gateway section (and per-server keys under mcp_servers).
func buildStack(ctx context.Context, sf stackFile, logger *slog.Logger, mutate func(*config.Config), extra ...extraServer) (*stack, error) {
	db, err := databasemcp.Open(context.Background(), sf.DB, databasemcp.Options{})
	if err != nil {
		return nil, err
	}
	meta, err := metadatamcp.New(sf.Catalog, logger)
	if err != nil {
		db.Close()
		return nil, err
	}
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 0
	cfg.MCPServers = map[string]config.ServerConfig{
		"database_mcp": {Name: "Database MCP Server", Transport: config.TransportInProcess, Priority: 10,
			Domains: []string{"sales"}, Capabilities: []string{config.CapExecuteQuery, config.CapValidateQuery, config.CapListResources}},
		"product_metadata_mcp": {Name: "Product Metadata MCP", Transport: config.TransportInProcess, Priority: 1,
			Domains: []string{"products"}, Capabilities: []string{config.CapListResources}},
	}
	opts := []orchestrator.Option{
		orchestrator.WithChildStderr(io.Discard),
		orchestrator.WithInProcessServer("database_mcp", databasemcp.NewServer(db, logger)),
		orchestrator.WithInProcessServer("product_metadata_mcp", meta.MCPServer()),
	}
	for _, e := range extra {
		cfg.MCPServers[e.id] = e.cfg
		if e.srv != nil {
			opts = append(opts, orchestrator.WithInProcessServer(e.id, e.srv))
		}
	}
	if sf.Config != "" {
		if err := yaml.Unmarshal([]byte(sf.Config), cfg); err != nil {
			db.Close()
			return nil, fmt.Errorf("test config: %w", err)
		}
	}
	if mutate != nil {
		mutate(cfg)
	}
	if err := cfg.Validate(); err != nil {
		db.Close()
		return nil, err
	}
	var (
		st     *state.Store
		gwOpts []Option
	)
	if sf.State != "" {
		if st, err = state.Open(ctx, config.StateConfig{Path: sf.State}, logger); err != nil {
			db.Close()
			return nil, err
		}
		book := verified.New(st, 0, logger)
		if err := book.Load(ctx); err != nil {
			st.Close()
			db.Close()
			return nil, err
		}
		opts = append(opts, orchestrator.WithVerified(book))
	}
	orch, err := orchestrator.New(ctx, cfg, logger, opts...)
	if err != nil {
		if st != nil {
			st.Close()
		}
		db.Close()
		return nil, err
	}
	if st != nil {
		gwOpts = append(gwOpts, WithVerified(orch))
	}
	return &stack{gw: New(orch, cfg, logger, gwOpts...), orch: orch, cfg: cfg, db: db, dbPath: sf.DB, state: st}, nil
}

// newStack builds a stack for a test, closed at cleanup. config is YAML
// merged over the default configuration (e.g. a gateway: section).
func newStack(tb testing.TB, config string, extra ...extraServer) *stack {
	tb.Helper()
	return newStackWith(tb, config, nil, extra...)
}

// newStackWith is newStack with mutate applied to the configuration last.
func newStackWith(tb testing.TB, config string, mutate func(*config.Config), extra ...extraServer) *stack {
	tb.Helper()
	logs := &testfixture.LogBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	sf := stackFile{DB: testfixture.SalesDB(tb, 3000), Catalog: testfixture.CatalogPath(tb), Config: config}
	st, err := buildStack(context.Background(), sf, logger, mutate, extra...)
	if err != nil {
		tb.Fatalf("build stack: %v", err)
	}
	st.logs = logs
	tb.Cleanup(st.close)
	return st
}

// clientOptions tune a test client.
type clientOptions struct {
	legacy      bool // initialize handshake (2025-11-25) instead of 2026-07-28
	sampling    client.SamplingHandler
	elicitation client.ElicitationHandler
	headers     map[string]string // HTTP only
}

func (o clientOptions) mcpOptions() []client.ClientOption {
	var opts []client.ClientOption
	if o.legacy {
		opts = append(opts, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	} else {
		opts = append(opts, client.WithProtocolVersion(mcp.LATEST_PROTOCOL_VERSION))
	}
	if o.sampling != nil {
		opts = append(opts, client.WithSamplingHandler(o.sampling))
	}
	if o.elicitation != nil {
		opts = append(opts, client.WithElicitationHandler(o.elicitation))
	}
	return opts
}

// notes records the notifications a client receives.
type notes struct {
	mu   sync.Mutex
	list []mcp.JSONRPCNotification
}

func (n *notes) add(x mcp.JSONRPCNotification) {
	n.mu.Lock()
	n.list = append(n.list, x)
	n.mu.Unlock()
}

// of returns the notifications with method.
func (n *notes) of(method string) []mcp.JSONRPCNotification {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []mcp.JSONRPCNotification
	for _, x := range n.list {
		if x.Method == method {
			out = append(out, x)
		}
	}
	return out
}

// start starts and initializes c, recording its notifications.
func start(tb testing.TB, c *client.Client, o clientOptions) *notes {
	tb.Helper()
	n := &notes{}
	c.OnNotification(n.add)
	if err := c.Start(context.Background()); err != nil {
		tb.Fatalf("start client: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if o.legacy {
		req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	}
	req.Params.ClientInfo = mcp.Implementation{Name: "gateway-test", Version: "1"}
	res, err := c.Initialize(ctx, req)
	if err != nil {
		tb.Fatalf("initialize: %v", err)
	}
	if res.ServerInfo.Name != ServerName {
		tb.Fatalf("server name = %q, want %q", res.ServerInfo.Name, ServerName)
	}
	tb.Cleanup(func() { c.Close() })
	return n
}

// inProcess connects an in-process client to the stack's gateway.
func inProcess(tb testing.TB, st *stack, o clientOptions) (*client.Client, *notes) {
	tb.Helper()
	c, err := client.NewInProcessClientWithOptions(st.gw.MCPServer(), o.mcpOptions()...)
	if err != nil {
		tb.Fatal(err)
	}
	return c, start(tb, c, o)
}

// overHTTP serves the stack's gateway over streamable HTTP and connects a
// client to /mcp.
func overHTTP(tb testing.TB, st *stack, o clientOptions) (*client.Client, *notes) {
	tb.Helper()
	h, err := st.gw.HTTPHandlers()
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(h.Streamable)
	tb.Cleanup(func() { h.Close(); srv.Close() })
	return httpClient(tb, srv.URL+"/mcp", o)
}

// httpClient connects a streamable HTTP client to url.
func httpClient(tb testing.TB, url string, o clientOptions) (*client.Client, *notes) {
	tb.Helper()
	topts := []transport.StreamableHTTPCOption{transport.WithHTTPHeaders(o.headers)}
	if o.legacy {
		// The listening stream carries notifications sent outside a call.
		topts = append(topts, transport.WithContinuousListening())
	}
	tr, err := transport.NewStreamableHTTP(url, topts...)
	if err != nil {
		tb.Fatal(err)
	}
	c := client.NewClient(tr, o.mcpOptions()...)
	return c, start(tb, c, o)
}

// overStdio runs the gateway in a re-executed test binary and connects a
// client over stdio.
func overStdio(tb testing.TB, config string, o clientOptions) (*client.Client, *notes) {
	tb.Helper()
	sf := stackFile{DB: testfixture.SalesDB(tb, 3000), Catalog: testfixture.CatalogPath(tb), Config: config}
	raw, _ := json.Marshal(sf)
	path := filepath.Join(tb.TempDir(), "stack.json")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		tb.Fatal(err)
	}
	tr := transport.NewStdio(os.Args[0], []string{envStdioGateway + "=" + path}, "-test.run=^$")
	c := client.NewClient(tr, o.mcpOptions()...)
	return c, start(tb, c, o)
}

// call calls a tool and fails the test on a transport or protocol error.
func call(tb testing.TB, c *client.Client, name string, args map[string]any, meta *mcp.Meta) *mcp.CallToolResult {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	req.Params.Meta = meta
	res, err := c.CallTool(ctx, req)
	if err != nil {
		tb.Fatalf("call %s: %v", name, err)
	}
	return res
}

// text joins a result's text contents.
func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, mcp.GetTextFromContent(c))
	}
	return strings.Join(parts, "\n")
}

// structured decodes a result's structured content into v.
func structured(tb testing.TB, res *mcp.CallToolResult, v any) {
	tb.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		tb.Fatalf("structured content %s: %v", b, err)
	}
}

// toolNames lists the client's tools.
func toolNames(tb testing.TB, c *client.Client) []string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		tb.Fatalf("list tools: %v", err)
	}
	var out []string
	for _, t := range res.Tools {
		out = append(out, t.Name)
	}
	return out
}

// eventually polls cond until it holds, failing after 20 s.
func eventually(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// llmConfig is the YAML of an llm section pointing at a scripted LLM.
func llmConfig(url string) string {
	return "llm: {provider: openai, model: scripted, base_url: " + url + ", api_key_env: GATEWAY_TEST_LLM_KEY, max_retries: 0, fallback: \"\"}\n"
}

// slowLLM is a scripted LLM that takes a minute to answer (unless its
// request is cancelled); started is closed when it gets its first request.
func slowLLM(tb testing.TB) (*llmtest.Server, <-chan struct{}) {
	tb.Helper()
	tb.Setenv("GATEWAY_TEST_LLM_KEY", "k")
	started := make(chan struct{})
	var once sync.Once
	s := llmtest.NewResponder(tb, func(llmtest.Request) llmtest.Step {
		once.Do(func() { close(started) })
		return llmtest.Step{Content: llmtest.Plan("SELECT COUNT(*) AS n FROM orders", nil, "Order count."), Delay: time.Minute}
	})
	return s, started
}
