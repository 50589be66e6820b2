package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"talk2tables/databasemcp"
	"talk2tables/internal/llmtest"
	"talk2tables/internal/testfixture"
	"talk2tables/mcpserve"
	"talk2tables/metadatamcp"
)

func TestServeCommandErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.yaml")
	typo := filepath.Join(dir, "typo.yaml")
	// A config whose servers are never reached: serve stops at the address
	// check, before connecting.
	good := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(good, []byte("mcp_servers:\n  db:\n    transport: streamable_http\n    url: http://127.0.0.1:1/mcp\n"+
		"    priority: 1\n    capabilities: [execute_query]\nllm:\n  provider: builtin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(typo, []byte("mcp_servers: {}\nhttp:\n  adress: \":8001\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		wantErr    error
		wantMsg    []string
		wantStderr string
	}{
		{name: "help", args: []string{"--help"}, wantErr: errHelp, wantStderr: "-config file"},
		{name: "unknown flag", args: []string{"--nope"}, wantErr: errUsage, wantStderr: "flag provided but not defined"},
		{name: "stray argument", args: []string{"extra"}, wantErr: errUsage, wantStderr: "unexpected argument"},
		{name: "missing config", args: []string{"--config", missing}, wantMsg: []string{missing, "no such file"}},
		{name: "invalid config", args: []string{"--config", typo}, wantMsg: []string{typo, "unknown key `adress` in http; the keys there are addr, "}},
		{name: "addr not an address", args: []string{"--config", good, "--addr", "notaport"},
			wantMsg: []string{`"notaport" is not a listen address: write host:port or :port, e.g. :8001`}},
		{name: "open address without keys", args: []string{"--config", good, "--addr", "192.0.2.1:8001"},
			wantMsg: []string{"refusing to listen on 192.0.2.1:8001 without API keys", "http.allow_unauthenticated: true"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), append([]string{"serve"}, tt.args...), stdio{strings.NewReader(""), &stdout, &stderr})
			if err == nil {
				t.Fatalf("run(serve %v) = nil, want an error", tt.args)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("run(serve %v) = %v, want %v", tt.args, err, tt.wantErr)
			}
			if tt.wantErr == nil && (errors.Is(err, errUsage) || errors.Is(err, errHelp)) {
				t.Errorf("run(serve %v) = %v, want a plain error (exit 1)", tt.args, err)
			}
			for _, m := range tt.wantMsg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error = %q, want it to contain %q", err, m)
				}
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr.String(), tt.wantStderr)
			}
		})
	}
	var stderr bytes.Buffer
	run(context.Background(), []string{"serve", "--help"}, stdio{strings.NewReader(""), io.Discard, &stderr})
	for _, flag := range []string{"config", "addr", "log-level", "log-format"} {
		if !strings.Contains(stderr.String(), "  -"+flag+" ") {
			t.Errorf("--help does not explain -%s:\n%s", flag, stderr.String())
		}
	}
}

func TestListenPolicy(t *testing.T) {
	tests := []struct {
		name        string
		addr        string
		keys, allow bool
		want        string
		wantWarn    bool
		wantErr     string
	}{
		{name: "default narrowed to loopback without keys", addr: ":8001", want: "127.0.0.1:8001"},
		{name: "all interfaces narrowed", addr: "0.0.0.0:8001", want: "127.0.0.1:8001"},
		{name: "IPv6 all interfaces narrowed", addr: "[::]:8001", want: "127.0.0.1:8001"},
		{name: "loopback kept", addr: "127.0.0.1:9000", want: "127.0.0.1:9000"},
		{name: "localhost kept", addr: "localhost:9000", want: "localhost:9000"},
		{name: "keys keep any address", addr: ":8001", keys: true, want: ":8001"},
		{name: "explicit open address refused", addr: "10.1.2.3:8001", wantErr: "refusing to listen on 10.1.2.3:8001 without API keys"},
		{name: "allowed, with a warning", addr: ":8001", allow: true, want: ":8001", wantWarn: true},
		{name: "not an address", addr: "notaport", wantErr: "is not a listen address"},
		{name: "port out of range", addr: ":70000", wantErr: "is not a listen address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warn, err := listenPolicy(tt.addr, tt.keys, tt.allow)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("listenPolicy(%q) error = %v, want %q", tt.addr, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want || (warn != "") != tt.wantWarn {
				t.Errorf("listenPolicy(%q) = %q, warn %q, %v; want %q, warning %v", tt.addr, got, warn, err, tt.want, tt.wantWarn)
			}
		})
	}
}

func TestListenErrorsSayWhatToDo(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, err = listen(ln.Addr().String())
	if err == nil || !strings.Contains(err.Error(), "the port is in use by another process; pick another with --addr") {
		t.Errorf("listen on a used port = %v, want the in-use hint", err)
	}
}

func TestMetricsOnItsOwnListener(t *testing.T) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector())
	addr, stop, err := serveMetrics("127.0.0.1:0", reg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "go_goroutines") {
		t.Errorf("GET /metrics = %d %.80q, want the metrics", resp.StatusCode, body)
	}
}

// TestServeCommand runs 'serve' against MCP servers over streamable HTTP
// and a scripted LLM, then stops it while a question is in flight: the
// question still gets its answer (graceful shutdown).
// serveStack runs `serve` against in-process MCP servers over streamable
// HTTP and a scripted LLM that answers after llmDelay; inFlight is closed
// when the LLM receives its first request. It returns serve's base URL, a
// cancel that acts as SIGINT, and serve's result.
func serveStack(t testing.TB, llmDelay, shutdownTimeout time.Duration) (base string, inFlight <-chan struct{}, stop context.CancelFunc, done <-chan error) {
	t.Helper()
	logger := slog.New(slog.DiscardHandler)
	db, err := databasemcp.Open(context.Background(), testfixture.SalesDB(t, 5000), databasemcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	meta, err := metadatamcp.New(testfixture.CatalogPath(t), logger)
	if err != nil {
		t.Fatal(err)
	}
	dbHandler, err := mcpserve.Handler(databasemcp.NewServer(db, logger), "http")
	if err != nil {
		t.Fatal(err)
	}
	metaHandler, err := mcpserve.Handler(meta.MCPServer(), "http")
	if err != nil {
		t.Fatal(err)
	}
	dbSrv, metaSrv := httptest.NewServer(dbHandler), httptest.NewServer(metaHandler)
	t.Cleanup(dbSrv.Close)
	t.Cleanup(metaSrv.Close)

	first := make(chan struct{})
	var once sync.Once
	llm := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step {
		once.Do(func() { close(first) })
		return llmtest.Step{Content: llmtest.Plan("SELECT COUNT(*) AS n FROM products", nil, "Product count."),
			Delay: llmDelay}
	})
	t.Setenv("TALK2TABLES_SERVE_TEST_KEY", "k")
	cfgPath := filepath.Join(t.TempDir(), "mcp_config.yaml")
	cfg := `mcp_servers:
  database_mcp:
    name: Database MCP Server
    transport: streamable_http
    url: ` + dbSrv.URL + `/mcp
    priority: 10
    domains: [sales]
    capabilities: [execute_query, validate_query, list_resources]
  product_metadata_mcp:
    name: Product Metadata MCP
    transport: streamable_http
    url: ` + metaSrv.URL + `/mcp
    priority: 1
    domains: [products]
    capabilities: [list_resources]
orchestration:
  ping_interval: 0s
llm:
  provider: openai
  model: scripted
  base_url: ` + llm.URL + `
  api_key_env: TALK2TABLES_SERVE_TEST_KEY
  max_retries: 0
http:
  addr: ":1"
  shutdown_timeout: ` + shutdownTimeout.String() + `
`
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	stderr := &testfixture.LogBuffer{}
	result := make(chan error, 1)
	go func() {
		result <- run(ctx, []string{"serve", "--config", cfgPath, "--addr", "127.0.0.1:0", "--log-level", "warn"},
			stdio{strings.NewReader(""), io.Discard, stderr})
	}()
	return waitForURL(t, stderr, result), first, cancel, result
}

func TestServeCommand(t *testing.T) {
	base, inFlight, cancel, done := serveStack(t, 300*time.Millisecond, 20*time.Second)

	resp, err := http.Get(base + "health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("/health = %d, want 200", resp.StatusCode)
	}
	resp, err = http.Get(base)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(strings.ToLower(string(page)), "<html") {
		t.Errorf("GET / = %d %.100q, want the embedded UI", resp.StatusCode, page)
	}

	type answer struct {
		code int
		body string
		err  error
	}
	answered := make(chan answer, 1)
	go func() {
		resp, err := http.Post(base+"api/query", "application/json", strings.NewReader(`{"question":"how many products"}`))
		if err != nil {
			answered <- answer{err: err}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		answered <- answer{code: resp.StatusCode, body: string(b)}
	}()
	<-inFlight
	cancel() // SIGINT while the question waits for the LLM
	a := <-answered
	if a.err != nil || a.code != 200 || !strings.Contains(a.body, `"success":true`) {
		t.Errorf("in-flight question = %d %v %.300s, want 200 success despite the shutdown", a.code, a.err, a.body)
	}
	if err := <-done; err != nil {
		t.Errorf("serve returned %v, want nil after a graceful shutdown", err)
	}
	if _, err := http.Get(base + "health"); err == nil {
		t.Error("server still answers after shutdown")
	}
}

// waitForURL waits for serve to print its URL on stderr.
func waitForURL(tb testing.TB, stderr *testfixture.LogBuffer, done <-chan error) string {
	tb.Helper()
	re := regexp.MustCompile(`serving on (http://\S+/)`)
	deadline := time.After(60 * time.Second) // a hang guard, not a speed check
	for {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return m[1]
		}
		select {
		case err := <-done:
			tb.Fatalf("serve exited early: %v\nstderr: %s", err, stderr.String())
		case <-deadline:
			tb.Fatalf("serve printed no URL; stderr: %s", stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
