package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/databasemcp"
	"talk2tables/internal/testfixture"
	"talk2tables/mcpserve"
	"talk2tables/metadatamcp"
)

// downstreamConfig serves the sample database and catalog over streamable
// HTTP and writes a configuration using them, with extra YAML appended.
func downstreamConfig(t testing.TB, extra string) string {
	t.Helper()
	logger := slog.New(slog.DiscardHandler)
	db, err := databasemcp.Open(context.Background(), testfixture.SalesDB(t, 2000), databasemcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	meta, err := metadatamcp.New(testfixture.CatalogPath(t), logger)
	if err != nil {
		t.Fatal(err)
	}
	urls := map[string]string{}
	for name, h := range map[string]func() (http.Handler, error){
		"db":   func() (http.Handler, error) { return mcpserve.Handler(databasemcp.NewServer(db, logger), "http") },
		"meta": func() (http.Handler, error) { return mcpserve.Handler(meta.MCPServer(), "http") },
	} {
		handler, err := h()
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(handler)
		t.Cleanup(func() { mcpserve.CloseSessions(handler); srv.Close() })
		urls[name] = srv.URL + "/mcp"
	}
	cfg := `mcp_servers:
  database_mcp:
    name: Database MCP Server
    transport: streamable_http
    url: ` + urls["db"] + `
    priority: 10
    capabilities: [execute_query, validate_query, list_resources]
  product_metadata_mcp:
    name: Product Metadata MCP
    transport: streamable_http
    url: ` + urls["meta"] + `
    priority: 1
    capabilities: [list_resources]
orchestration:
  ping_interval: 0s
llm:
  provider: builtin
` + extra
	path := filepath.Join(t.TempDir(), "mcp_config.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestMCPCommandErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("gateway:\n  expose: everything\nmcp_servers: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		wantErr error
		wantMsg string
	}{
		{"help", []string{"--help"}, errHelp, "-config file"},
		{"unknown flag", []string{"--nope"}, errUsage, "flag provided but not defined"},
		{"missing config", []string{"--config", filepath.Join(t.TempDir(), "none.yaml")}, nil, "read config"},
		{"bad config", []string{"--config", bad}, nil, `gateway.expose: unknown mode "everything"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), append([]string{"mcp"}, tt.args...), stdio{strings.NewReader(""), &stdout, &stderr})
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("run = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr == nil && (err == nil || !strings.Contains(err.Error(), tt.wantMsg)) {
				t.Errorf("run = %v, want an error containing %q", err, tt.wantMsg)
			}
			if tt.wantErr != nil && !strings.Contains(stderr.String(), tt.wantMsg) {
				t.Errorf("stderr = %q, want %q", stderr.String(), tt.wantMsg)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout = %q, want nothing (stdout is the MCP protocol)", stdout.String())
			}
		})
	}
}

// TestMCPCommandServesStdio runs `talk2tables mcp` on pipes and asks a
// question with a real MCP client; logs go to stderr only.
func TestMCPCommandServesStdio(t *testing.T) {
	cfg := downstreamConfig(t, "")
	args := []string{"mcp", "--config", cfg, "--log-level", "info"}
	logs := serveStdio(t, args, mcp.LATEST_LEGACY_PROTOCOL_VERSION, func(c *client.Client) {
		names := askOrders(t, c)
		for _, want := range []string{"ask", "run_sql", "health", "search", "execute", "database_mcp__execute_query"} {
			if !slices.Contains(names, want) {
				t.Errorf("tools = %v, want %s", names, want)
			}
		}
	})
	for _, want := range []string{`"event":"mcp_gateway_started"`, `"event":"query_processing_completed"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("stderr lacks %s", want)
		}
	}
}

// askOrders lists the tools of the gateway behind c and asks it a
// question, which must be answered; it returns the tools' names.
func askOrders(tb testing.TB, c *client.Client) []string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = "ask"
	call.Params.Arguments = map[string]any{"question": "how many orders by status"}
	if res, err := c.CallTool(ctx, call); err != nil || res.IsError {
		tb.Fatalf("ask = %+v, %v", res, err)
	}
	return names
}

// TestServeMCPEndpoints: serve's /mcp and /sse are behind the API keys and
// carry the request id.
func TestServeMCPEndpoints(t *testing.T) {
	t.Setenv("T2T_MCP_TEST_KEYS", "key-one")
	cfg := downstreamConfig(t, "http:\n  api_keys_env: T2T_MCP_TEST_KEYS\n")
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &testfixture.LogBuffer{}
	result := make(chan error, 1)
	go func() {
		result <- run(ctx, []string{"serve", "--config", cfg, "--addr", "127.0.0.1:0", "--log-level", "info"},
			stdio{strings.NewReader(""), io.Discard, stderr})
	}()
	base := waitForURL(t, stderr, result)
	defer func() {
		cancel()
		if err := <-result; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()

	initBody := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
	post := func(key string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, base+"mcp", strings.NewReader(initBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("X-Request-ID", "mcp-test-1")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	if resp := post(""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("POST /mcp without a key = %d, want 401", resp.StatusCode)
	}
	if resp := post("key-one"); resp.StatusCode != http.StatusOK || resp.Header.Get("X-Request-ID") != "mcp-test-1" {
		t.Errorf("POST /mcp with a key = %d (X-Request-ID %q), want 200 and the request id", resp.StatusCode, resp.Header.Get("X-Request-ID"))
	}
	headers := map[string]string{"Authorization": "Bearer key-one"}
	for _, tc := range []struct {
		name string
		tr   func() (transport.Interface, error)
	}{
		{"streamable HTTP", func() (transport.Interface, error) {
			return transport.NewStreamableHTTP(base+"mcp", transport.WithHTTPHeaders(headers))
		}},
		{"SSE", func() (transport.Interface, error) {
			return transport.NewSSE(base+"sse", transport.WithHeaders(headers))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := tc.tr()
			if err != nil {
				t.Fatal(err)
			}
			c := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
			defer c.Close()
			cctx, ccancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer ccancel()
			if err := c.Start(cctx); err != nil {
				t.Fatal(err)
			}
			req := mcp.InitializeRequest{}
			req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
			if _, err := c.Initialize(cctx, req); err != nil {
				t.Fatalf("initialize: %v", err)
			}
			call := mcp.CallToolRequest{}
			call.Params.Name = "run_sql"
			call.Params.Arguments = map[string]any{"sql": "SELECT COUNT(*) AS n FROM products"}
			res, err := c.CallTool(cctx, call)
			if err != nil || res.IsError {
				t.Fatalf("run_sql over %s = %+v, %v", tc.name, res, err)
			}
		})
	}
	// The access log records MCP requests like any other, with their id.
	if !stderr.Contains(`"route":"/mcp"`) || !stderr.Contains(`"request_id":"mcp-test-1"`) {
		t.Errorf("access log lacks the /mcp requests")
	}
	if stderr.Contains("key-one") {
		t.Error("logs contain the API key")
	}
}
