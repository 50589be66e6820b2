package databasemcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/internal/mariadbtest"
	"talk2tables/internal/pgtest"
	"talk2tables/mcpserve"
	"talk2tables/pgconfig"
	"talk2tables/schema"
	"talk2tables/sqlerr"
)

// Environment of the re-executed test binary that serves over stdio.
const (
	envServeDB      = "DATABASEMCP_TEST_SERVE_DB"
	envServeTimeout = "DATABASEMCP_TEST_SERVE_TIMEOUT"
)

// TestMain doubles as the stdio MCP server: when envServeDB is set the test
// binary serves that database on stdin/stdout instead of running tests (the
// re-exec trick, so no binary is prebuilt).
func TestMain(m *testing.M) {
	if path := os.Getenv(envServeDB); path != "" {
		os.Exit(serveStdio(path))
	}
	os.Exit(mariadbtest.Stop(pgtest.Main(m)))
}

// serveStdio serves a SQLite file, or a PostgreSQL database when target is
// a postgres:// URL.
func serveStdio(target string) int {
	opts := Options{}
	if s := os.Getenv(envServeTimeout); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		opts.QueryTimeout = d
	}
	var db interface {
		Backend
		Close() error
	}
	var err error
	if strings.HasPrefix(target, "postgres://") {
		var cfg *pgx.ConnConfig
		if cfg, err = pgconfig.Parse(target, ""); err == nil {
			db, err = OpenPostgres(context.Background(), PostgresConfig{Conn: cfg}, opts)
		}
	} else {
		db, err = Open(context.Background(), target, opts)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	err = mcpserve.Serve(context.Background(), NewServer(db, nil), mcpserve.Options{Stdin: os.Stdin, Stdout: os.Stdout})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// testTimeout is the statement timeout of the tests' servers: short, so the
// timeout cases stay fast.
const testTimeout = 300 * time.Millisecond

func openDB(tb testing.TB, path string, opts Options) *DB {
	tb.Helper()
	db, err := Open(context.Background(), path, opts)
	if err != nil {
		tb.Fatalf("Open(context.Background(), %s): %v", path, err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func initialize(tb testing.TB, c *client.Client) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Start(context.Background()); err != nil {
		tb.Fatalf("start client: %v", err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "databasemcp-test", Version: "1"}
	res, err := c.Initialize(ctx, req)
	if err != nil {
		tb.Fatalf("initialize: %v", err)
	}
	if res.ServerInfo.Name != ServerName {
		tb.Fatalf("server name = %q, want %q", res.ServerInfo.Name, ServerName)
	}
}

func inProcessClient(tb testing.TB, db Backend) *client.Client {
	tb.Helper()
	c, err := client.NewInProcessClient(NewServer(db, nil))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	initialize(tb, c)
	return c
}

func stdioClient(tb testing.TB, path string) *client.Client {
	tb.Helper()
	c, err := client.NewStdioMCPClient(os.Args[0],
		[]string{envServeDB + "=" + path, envServeTimeout + "=" + testTimeout.String()}, "-test.run=^$")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	initialize(tb, c)
	return c
}

func httpClient(tb testing.TB, db Backend, transport string) *client.Client {
	tb.Helper()
	h, err := mcpserve.Handler(NewServer(db, nil), transport)
	if err != nil {
		tb.Fatal(err)
	}
	ts := httptest.NewServer(h)
	var c *client.Client
	switch transport {
	case mcpserve.SSE:
		c, err = client.NewSSEMCPClient(ts.URL + "/sse")
	default:
		c, err = client.NewStreamableHttpClient(ts.URL + "/mcp")
	}
	if err != nil {
		ts.Close()
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		c.Close()
		if s, ok := h.(interface{ Shutdown(context.Context) error }); ok {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			s.Shutdown(ctx)
			cancel()
		}
		ts.CloseClientConnections()
		ts.Close()
	})
	initialize(tb, c)
	return c
}

// clientsFor returns a client of each transport over the database at path
// (stdio runs in a child process that opens the same file).
func clientsFor(tb testing.TB, path string) map[string]*client.Client {
	tb.Helper()
	db := openDB(tb, path, Options{QueryTimeout: testTimeout})
	return map[string]*client.Client{
		"inprocess": inProcessClient(tb, db),
		"stdio":     stdioClient(tb, path),
		"sse":       httpClient(tb, db, mcpserve.SSE),
		"http":      httpClient(tb, db, mcpserve.StreamableHTTP),
	}
}

// callTool calls a tool and returns its text and IsError. A transport error
// fails the test.
func callTool(tb testing.TB, c *client.Client, name string, args map[string]any) (string, bool) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		tb.Fatalf("call %s(%v): %v", name, args, err)
	}
	if len(res.Content) != 1 {
		tb.Fatalf("call %s: %d content items, want 1", name, len(res.Content))
	}
	tc, ok := mcp.AsTextContent(res.Content[0])
	if !ok {
		tb.Fatalf("call %s: content is %T, want text", name, res.Content[0])
	}
	return tc.Text, res.IsError
}

// execute runs execute_query and decodes a successful result.
func execute(tb testing.TB, c *client.Client, args map[string]any) *schema.Result {
	tb.Helper()
	text, isErr := callTool(tb, c, "execute_query", args)
	if isErr {
		tb.Fatalf("execute_query(%v) failed: %s", args, text)
	}
	var r schema.Result
	if err := json.Unmarshal([]byte(text), &r); err != nil {
		tb.Fatalf("decode result %q: %v", text, err)
	}
	return &r
}

// toolError calls a tool that must fail and decodes its error body.
func toolError(tb testing.TB, c *client.Client, name string, args map[string]any) sqlerr.Error {
	tb.Helper()
	text, isErr := callTool(tb, c, name, args)
	if !isErr {
		tb.Fatalf("%s(%v) succeeded with %s, want an error", name, args, text)
	}
	var e sqlerr.Error
	if err := json.Unmarshal([]byte(text), &e); err != nil {
		tb.Fatalf("decode error body %q: %v", text, err)
	}
	if !e.Category.Valid() || e.Message == "" {
		tb.Fatalf("error body %q has no valid category and message", text)
	}
	return e
}
