package mcpserve

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"talk2tables/internal/testfixture"
)

// serveOnLoopback runs Serve on 127.0.0.1:0 and returns its base URL, a
// stop function and the channel Serve's result arrives on.
func serveOnLoopback(tb testing.TB, opts Options) (string, context.CancelFunc, <-chan error) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	opts.Addr = "127.0.0.1:0"
	opts.Ready = func(a net.Addr) { addrc <- a }
	go func() { errc <- Serve(ctx, newEchoServer(), opts) }()
	select {
	case a := <-addrc:
		tb.Cleanup(cancel)
		return "http://" + a.String(), cancel, errc
	case err := <-errc:
		cancel()
		tb.Fatalf("Serve returned early: %v", err)
		return "", nil, nil
	}
}

// rawInitialize opens a streamable HTTP session with a bare POST (no client
// library) and returns its session id.
func rawInitialize(tb testing.TB, url string) string {
	tb.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	resp := rawPost(tb, url, "", body)
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || sid == "" {
		tb.Fatalf("initialize: status %d, session %q; want 200 and a session id", resp.StatusCode, sid)
	}
	return sid
}

// rawPost posts a JSON-RPC body to a streamable HTTP endpoint.
func rawPost(tb testing.TB, url, session, body string) *http.Response {
	tb.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("POST %s: %v", url, err)
	}
	return resp
}

// TestShutdownEndsListeningStreams: on shutdown the streamable HTTP server's
// sessions are closed, so a client's open GET listening stream (the
// orchestrator keeps one per server) ends cleanly instead of holding
// Shutdown until its deadline and being cut. Serve asked the handler for
// CloseSessions() while streamable HTTP only has CloseSessions(ctx): every
// SIGTERM of `database-mcp --transport http` with serve connected took the
// full 5 s and cut the stream.
func TestShutdownEndsListeningStreams(t *testing.T) {
	logs := &testfixture.LogBuffer{}
	base, stop, errc := serveOnLoopback(t, Options{Transport: StreamableHTTP, Logger: slog.New(slog.NewJSONHandler(logs, nil)),
		ShutdownTimeout: 3 * time.Second})
	url := base + "/mcp"
	sid := rawInitialize(t, url)

	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET listening stream: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET listening stream: status %d, want 200", resp.StatusCode)
	}

	stop()
	// Without the sessions closed, the stream stays open until the shutdown
	// deadline and is then cut (io: unexpected EOF).
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Errorf("listening stream ended with %v, want a clean end", err)
	}
	if err := <-errc; err != nil {
		t.Errorf("Serve after cancel = %v, want nil", err)
	}
	if logs.Contains("shutdown deadline passed") {
		t.Errorf("shutdown hit its deadline; logs:\n%s", logs.String())
	}
}

// TestCloseSessionsBothTransports: CloseSessions ends an SSE stream too.
func TestCloseSessionsBothTransports(t *testing.T) {
	h, err := Handler(newEchoServer(), SSE)
	if err != nil {
		t.Fatal(err)
	}
	rec := &flushRecorder{header: http.Header{}, wrote: make(chan struct{}, 1)}
	req, _ := http.NewRequest(http.MethodGet, "/sse", nil)
	done := make(chan struct{})
	go func() { h.ServeHTTP(rec, req); close(done) }()
	<-rec.wrote // the endpoint event: the session exists
	CloseSessions(h)
	<-done
	if !bytes.Contains(rec.body.Bytes(), []byte("event: endpoint")) {
		t.Errorf("SSE stream = %q, want an endpoint event", rec.body.String())
	}
}

// flushRecorder is a streaming http.ResponseWriter for handler tests.
type flushRecorder struct {
	header http.Header
	body   bytes.Buffer
	wrote  chan struct{}
}

func (r *flushRecorder) Header() http.Header { return r.header }
func (r *flushRecorder) WriteHeader(int)     {}
func (r *flushRecorder) Write(p []byte) (int, error) {
	n, err := r.body.Write(p)
	select {
	case r.wrote <- struct{}{}:
	default:
	}
	return n, err
}
func (r *flushRecorder) Flush() {}
