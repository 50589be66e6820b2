package orchestrator

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	_ "modernc.org/sqlite"

	"talk2tables/config"
	"talk2tables/databasemcp"
	"talk2tables/internal/llmtest"
	"talk2tables/internal/mariadbtest"
	"talk2tables/internal/pgtest"
	"talk2tables/internal/testfixture"
	"talk2tables/mcpserve"
	"talk2tables/metadatamcp"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/telemetry"
)

// Env vars of the TestMain re-exec trick: the test binary plays an MCP
// server over stdio.
const (
	envChild = "T2T_ORCH_TEST_CHILD" // "database" | "metadata" | "huge"
	// envPrintLogEnv makes a child print the log settings it inherited.
	envPrintLogEnv = "T2T_ORCH_TEST_PRINT_LOG_ENV"
	// envPrintEnv makes a child print the names of its environment.
	envPrintEnv = "T2T_ORCH_TEST_PRINT_ENV"
	envDB       = "T2T_ORCH_TEST_DB"
	// envDBMaxResult sets the database child's max result bytes.
	envDBMaxResult = "T2T_ORCH_TEST_DB_MAX_RESULT_BYTES"
	envCat         = "T2T_ORCH_TEST_CATALOG"
)

func TestMain(m *testing.M) {
	if os.Getenv(envChild) != "" && os.Getenv(envPrintEnv) != "" {
		// Report every variable name the child got, for TestChildEnvironment.
		var names []string
		for _, kv := range os.Environ() {
			name, _, _ := strings.Cut(kv, "=")
			names = append(names, name)
		}
		sort.Strings(names)
		fmt.Fprintf(os.Stderr, "child env: %s\n", strings.Join(names, " "))
	}
	if os.Getenv(envChild) != "" && os.Getenv(envPrintLogEnv) != "" {
		// Report what the orchestrator passed down, for TestChildLogSettings.
		fmt.Fprintf(os.Stderr, "child %s: %s=%s %s=%s\n", os.Getenv(envChild),
			config.EnvLogLevel, os.Getenv(config.EnvLogLevel), config.EnvLogFormat, os.Getenv(config.EnvLogFormat))
	}
	switch os.Getenv(envChild) {
	case "":
		os.Exit(mariadbtest.Stop(pgtest.Main(m))) // stops the PostgreSQL cluster and MariaDB server if a test started them
	case "database":
		// Traces go to the OTLP endpoint the environment names, if any.
		flush, err := telemetry.Setup(context.Background(), "talk2tables-database-mcp")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		maxResult, _ := strconv.Atoi(os.Getenv(envDBMaxResult))
		db, err := databasemcp.Open(context.Background(), os.Getenv(envDB), databasemcp.Options{MaxResultBytes: maxResult})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		serveStdio(databasemcp.NewServer(db, nil))
		_ = flush(context.Background())
	case "huge": // a third-party SQL server whose answers are ~3 MB
		serveStdio(hugeExecutor(3000, 1000))
	case "metadata":
		ms, err := metadatamcp.New(os.Getenv(envCat), nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		serveStdio(ms.MCPServer())
	}
	os.Exit(0)
}

func serveStdio(s *server.MCPServer) {
	err := mcpserve.Serve(context.Background(), s, mcpserve.Options{Transport: mcpserve.Stdio, Stdin: os.Stdin, Stdout: os.Stdout})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// testLogger discards logs unless T2T_TEST_LOG is set.
func testLogger(tb testing.TB) *slog.Logger {
	tb.Helper()
	if os.Getenv("T2T_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// resourceServer is an in-process MCP server with JSON resources whose
// reads are counted, optionally delayed, and optionally failing.
type resourceServer struct {
	s     *server.MCPServer
	reads atomic.Int64
	fail  atomic.Bool
	delay atomic.Int64 // nanoseconds
}

func newResourceServer(name string, res map[string]string, tools map[string]server.ToolHandlerFunc) *resourceServer {
	rs := &resourceServer{}
	opts := []server.ServerOption{server.WithResourceCapabilities(true, true)}
	if len(tools) > 0 {
		opts = append(opts, server.WithToolCapabilities(false))
	}
	rs.s = server.NewMCPServer(name, "1.0.0", opts...)
	for uri, text := range res {
		rs.s.AddResource(mcp.NewResource(uri, uri, mcp.WithMIMEType("application/json")),
			func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				rs.reads.Add(1)
				if d := time.Duration(rs.delay.Load()); d > 0 {
					select {
					case <-time.After(d):
					case <-ctx.Done():
						return nil, ctx.Err()
					}
				}
				if rs.fail.Load() {
					return nil, errors.New("resource store unavailable")
				}
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: text}}, nil
			})
	}
	for name, h := range tools {
		rs.s.AddTool(mcp.NewTool(name, mcp.WithString("query")), h)
	}
	return rs
}

// fixture is the sample data shared by end-to-end tests.
type fixture struct {
	dbPath  string
	catalog string
	db      *databasemcp.DB
}

func newFixture(tb testing.TB) *fixture {
	tb.Helper()
	f := &fixture{dbPath: testfixture.SalesDB(tb, 5000), catalog: testfixture.CatalogPath(tb)}
	db, err := databasemcp.Open(context.Background(), f.dbPath, databasemcp.Options{})
	if err != nil {
		tb.Fatalf("open db: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	f.db = db
	return f
}

func (f *fixture) dbServer(tb testing.TB) *server.MCPServer {
	tb.Helper()
	return databasemcp.NewServer(f.db, testLogger(tb))
}

func (f *fixture) metaServer(tb testing.TB) *server.MCPServer {
	tb.Helper()
	ms, err := metadatamcp.New(f.catalog, testLogger(tb))
	if err != nil {
		tb.Fatalf("metadatamcp.New: %v", err)
	}
	return ms.MCPServer()
}

// direct runs sql on the fixture database without the orchestrator.
func (f *fixture) direct(tb testing.TB, q string) [][]any {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+f.dbPath+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	return testfixture.QueryRows(tb, db, q)
}

// inprocConfig is a config with the two in-process servers.
func inprocConfig() *config.Config {
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 0
	cfg.MCPServers = map[string]config.ServerConfig{
		"database_mcp": {Name: "Database MCP Server", Transport: config.TransportInProcess, Priority: 10,
			Domains: []string{"sales"}, Capabilities: []string{config.CapExecuteQuery, config.CapValidateQuery, config.CapListResources}},
		"product_metadata_mcp": {Name: "Product Metadata MCP", Transport: config.TransportInProcess, Priority: 1,
			Domains: []string{"products"}, Capabilities: []string{config.CapListResources}},
	}
	return cfg
}

// newOrch builds an orchestrator closed at cleanup.
func newOrch(tb testing.TB, cfg *config.Config, opts ...Option) *Orchestrator {
	tb.Helper()
	opts = append([]Option{WithChildStderr(io.Discard)}, opts...)
	o, err := New(context.Background(), cfg, testLogger(tb), opts...)
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	tb.Cleanup(func() { o.Close() })
	return o
}

// llmGen is the real langchaingo-backed generator talking to s.
func llmGen(tb testing.TB, s *llmtest.Server) sqlgen.Generator {
	tb.Helper()
	g, err := sqlgen.NewLLM(sqlgen.LLMOptions{Provider: "openai", Model: "test-model", BaseURL: s.URL,
		APIKey: "test-key", Timeout: 2 * time.Second, RetryBaseDelay: 5 * time.Millisecond,
		MaxRetryDelay: 50 * time.Millisecond}, testLogger(tb))
	if err != nil {
		tb.Fatalf("NewLLM: %v", err)
	}
	return g
}

// eventually polls cond until it holds or 10 s pass.
func eventually(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// settleGoroutines waits until the goroutine count is at most want.
func settleGoroutines(tb testing.TB, want int) {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > want {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			tb.Fatalf("goroutines = %d, want <= %d\n%s", runtime.NumGoroutine(), want, buf[:n])
		}
		time.Sleep(20 * time.Millisecond)
	}
}
