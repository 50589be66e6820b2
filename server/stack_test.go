package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"talk2tables/config"
	"talk2tables/databasemcp"
	"talk2tables/internal/llmtest"
	"talk2tables/internal/testfixture"
	"talk2tables/mcpserve"
	"talk2tables/metadatamcp"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/verified"
)

// goodSQL is a valid answer for the sample database.
const goodSQL = "SELECT region, ROUND(SUM(total_amount), 2) AS revenue FROM sales GROUP BY region ORDER BY region"

// goodPlan is the scripted LLM's answer with goodSQL.
var goodPlan = llmtest.Plan(goodSQL, map[string]map[string]string{"revenue": {"column": "sales.total_amount"}},
	"Total revenue per region.")

// stackOptions tunes newStack.
type stackOptions struct {
	steps     []llmtest.Step                     // scripted LLM answers (default: goodPlan, repeated)
	respond   func(llmtest.Request) llmtest.Step // instead of steps
	http      func(*config.HTTPConfig)           // adjusts the HTTP config
	orch      func(*config.Config)               // adjusts the orchestrator config
	apiKeys   string                             // comma-separated; sets the API keys env var
	dbOverNet bool                               // serve the database MCP over streamable HTTP (so it can be killed)
	dbWrap    func(http.Handler) http.Handler    // wraps the database MCP's HTTP handler (dbOverNet)
	// secondDB, when set, is a SQLite file served by a second executor,
	// "second_db" (priority 20), beside the sample database.
	secondDB string
	// verified, when set, holds the verified questions (served at
	// /api/verified); editorKeys are the editors' keys.
	verified   *verified.Book
	editorKeys string
	// logLevel is the stack's log level (default debug: tests read the
	// logs; benchmarks run at error, as the load tool does).
	logLevel slog.Level
	// rows is the sample database's size (default 5,000 sales rows).
	rows int
}

// stack is the real service under test: in-process MCP servers, the real
// orchestrator with the real langchaingo client against a scripted LLM, and
// server.New behind httptest.
type stack struct {
	URL  string
	llm  *llmtest.Server
	orch *orchestrator.Orchestrator
	logs *testfixture.LogBuffer
	// dbServer is the database MCP's HTTP server when dbOverNet is set.
	dbServer *httptest.Server
	// dbPath is the database file the database MCP serves.
	dbPath string
}

// testUI stands in for web.Files (package web is built separately).
var testUI = fstest.MapFS{
	"index.html": {Data: []byte("<!doctype html><title>talk2tables</title>")},
	"app.js":     {Data: []byte("console.log('ui')")},
}

const (
	apiKeysEnv    = "TALK2TABLES_TEST_API_KEYS"
	editorKeysEnv = "TALK2TABLES_TEST_EDITOR_KEYS"
)

func newStack(tb testing.TB, opt stackOptions) *stack {
	tb.Helper()
	logs := &testfixture.LogBuffer{}
	level := opt.logLevel
	if level == 0 {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: level}))

	var llm *llmtest.Server
	switch {
	case opt.respond != nil:
		llm = llmtest.NewResponder(tb, opt.respond)
	case opt.steps != nil:
		llm = llmtest.New(tb, opt.steps...)
	default:
		llm = llmtest.NewResponder(tb, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: goodPlan} })
	}
	tb.Setenv("TALK2TABLES_TEST_LLM_KEY", "test-llm-key")
	tb.Setenv(apiKeysEnv, opt.apiKeys)
	tb.Setenv(editorKeysEnv, opt.editorKeys)

	rows := opt.rows
	if rows == 0 {
		rows = 5000
	}
	dbPath := testfixture.SalesDB(tb, rows)
	db, err := databasemcp.Open(context.Background(), dbPath, databasemcp.Options{})
	if err != nil {
		tb.Fatalf("open database: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	meta, err := metadatamcp.New(testfixture.CatalogPath(tb), logger)
	if err != nil {
		tb.Fatalf("metadata server: %v", err)
	}

	cfg := config.DefaultConfig()
	dbCfg := config.ServerConfig{Name: "Database MCP Server", Transport: config.TransportInProcess,
		Priority: 10, Domains: []string{"sales", "orders", "products", "customers"},
		Capabilities: []string{config.CapExecuteQuery, config.CapValidateQuery, config.CapListResources}}
	st := &stack{llm: llm, logs: logs, dbPath: dbPath}
	opts := []orchestrator.Option{
		orchestrator.WithInProcessServer("product_metadata_mcp", meta.MCPServer()),
	}
	dbMCP := databasemcp.NewServer(db, logger)
	if opt.dbOverNet {
		h, err := mcpserve.Handler(dbMCP, "http")
		if err != nil {
			tb.Fatalf("database MCP handler: %v", err)
		}
		if opt.dbWrap != nil {
			h = opt.dbWrap(h)
		}
		st.dbServer = httptest.NewServer(h)
		tb.Cleanup(st.dbServer.Close)
		dbCfg.Transport = config.TransportStreamableHTTP
		dbCfg.URL = st.dbServer.URL + "/mcp"
		dbCfg.Timeout = 2 * time.Second
	} else {
		opts = append(opts, orchestrator.WithInProcessServer("database_mcp", dbMCP))
	}
	cfg.MCPServers = map[string]config.ServerConfig{
		"database_mcp": dbCfg,
		"product_metadata_mcp": {Name: "Product Metadata MCP", Transport: config.TransportInProcess,
			Priority: 1, Domains: []string{"products", "product_aliases", "column_mappings"},
			Capabilities: []string{config.CapListResources}},
	}
	if opt.secondDB != "" {
		db2, err := databasemcp.Open(context.Background(), opt.secondDB, databasemcp.Options{})
		if err != nil {
			tb.Fatalf("open second database: %v", err)
		}
		tb.Cleanup(func() { db2.Close() })
		cfg.MCPServers["second_db"] = config.ServerConfig{Name: "Second database", Transport: config.TransportInProcess,
			Priority: 20, Capabilities: dbCfg.Capabilities}
		opts = append(opts, orchestrator.WithInProcessServer("second_db", databasemcp.NewServer(db2, logger)))
	}
	cfg.LLM = config.LLMConfig{Provider: config.ProviderOpenAI, Model: "scripted", BaseURL: llm.URL,
		APIKeyEnv: "TALK2TABLES_TEST_LLM_KEY", Timeout: 5 * time.Second, MaxTokens: 512}
	cfg.Orchestration.PingInterval = 0
	cfg.HTTP.APIKeysEnv = apiKeysEnv
	cfg.HTTP.EditorKeysEnv = editorKeysEnv
	cfg.HTTP.RateLimit = 0
	if opt.http != nil {
		opt.http(&cfg.HTTP)
	}
	if opt.orch != nil {
		opt.orch(cfg)
	}
	reg := prometheus.NewRegistry()
	opts = append(opts, orchestrator.WithMetrics(orchestrator.NewMetrics(reg)))
	var serverOpts []Option
	if opt.verified != nil {
		opts = append(opts, orchestrator.WithVerified(opt.verified))
	}
	orch, err := orchestrator.New(context.Background(), cfg, logger, opts...)
	if err != nil {
		tb.Fatalf("orchestrator.New: %v", err)
	}
	tb.Cleanup(func() { orch.Close() })
	st.orch = orch

	if opt.verified != nil {
		serverOpts = append(serverOpts, WithVerified(orch))
	}
	ts := httptest.NewServer(New(orch, cfg.HTTP, testUI, logger, reg, serverOpts...))
	tb.Cleanup(ts.Close)
	st.URL = ts.URL
	return st
}

// call sends one request and returns the response with its body read.
func (s *stack) call(tb testing.TB, method, path, body string, header map[string]string) (*http.Response, []byte) {
	tb.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.URL+path, r)
	if err != nil {
		tb.Fatalf("new request: %v", err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("read body: %v", err)
	}
	return resp, b
}

// errorOf decodes an error body.
func errorOf(tb testing.TB, b []byte) errorBody {
	tb.Helper()
	var e errorBody
	if err := json.Unmarshal(b, &e); err != nil {
		tb.Fatalf("error body is not JSON: %v: %s", err, b)
	}
	if e.Error.Code == "" || e.Error.Message == "" {
		tb.Fatalf("error body lacks code or message: %s", b)
	}
	return e
}
