package mcpserve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// sessionCounter counts the sessions an MCP server registers and forgets.
type sessionCounter struct{ registered, unregistered atomic.Int64 }

func newCountingEchoServer(c *sessionCounter) *server.MCPServer {
	hooks := &server.Hooks{}
	hooks.AddOnRegisterSession(func(context.Context, server.ClientSession) { c.registered.Add(1) })
	hooks.AddOnUnregisterSession(func(context.Context, server.ClientSession) { c.unregistered.Add(1) })
	s := server.NewMCPServer("echo", "1.0.0", server.WithToolCapabilities(false), server.WithHooks(hooks))
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(req.GetString("text", "")), nil
		})
	return s
}

// waitFor polls cond for up to 10 s.
func waitFor(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestAbandonedSessionsAreForgotten: a streamable HTTP client that goes
// away without DELETE-ing its session (killed, crashed, a script) must not
// hold the session's memory forever. Before, 30,000 such sessions grew
// metadata-mcp from 20 MB to 470 MB, and every catalog edit still queued a
// notification for each of them.
func TestAbandonedSessionsAreForgotten(t *testing.T) {
	var count sessionCounter
	h, err := Handler(newCountingEchoServer(&count), StreamableHTTP, WithSessionIdleTTL(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	defer hs.Close()
	defer CloseSessions(h)

	const abandoned = 5
	for range abandoned {
		rawInitialize(t, hs.URL+"/mcp")
	}
	if got := count.registered.Load(); got != abandoned {
		t.Fatalf("registered sessions = %d, want %d", got, abandoned)
	}
	waitFor(t, "abandoned sessions to be forgotten", func() bool { return count.unregistered.Load() == abandoned })
}

// TestListeningSessionOutlivesIdleTTL: a client that only keeps its
// listening stream open (no requests) is not idle: the heartbeat on the
// stream keeps its session, so it can call a tool long after the TTL.
func TestListeningSessionOutlivesIdleTTL(t *testing.T) {
	var count sessionCounter
	const ttl = time.Second
	h, err := Handler(newCountingEchoServer(&count), StreamableHTTP, WithSessionIdleTTL(ttl))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	defer hs.Close()
	defer CloseSessions(h)

	// The orchestrator's client: the legacy (session) protocol, with a
	// listening stream.
	tr, err := transport.NewStreamableHTTP(hs.URL+"/mcp", transport.WithContinuousListening())
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	// A session beside it that does nothing: once the sweeper has
	// forgotten that one, ours (older, and as idle) has outlived the TTL.
	rawInitialize(t, hs.URL+"/mcp")
	waitFor(t, "the idle session beside it to be forgotten", func() bool { return count.unregistered.Load() >= 1 })
	if got := count.unregistered.Load(); got != 1 {
		t.Errorf("sessions forgotten = %d, want 1 (the idle one, not the one with a listening stream)", got)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "echo"
	req.Params.Arguments = map[string]any{"text": "still here"}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("call after more than %s idle with a listening stream: %v", ttl, err)
	}
	if text, _ := mcp.AsTextContent(res.Content[0]); text.Text != "still here" {
		t.Errorf("echo = %q, want %q", text.Text, "still here")
	}
}

// TestHandlerRejectsBadSessionTTL: a non-positive TTL is a caller error.
func TestHandlerRejectsBadSessionTTL(t *testing.T) {
	if _, err := Handler(newEchoServer(), StreamableHTTP, WithSessionIdleTTL(0)); err == nil {
		t.Error("Handler with a zero session TTL = nil error, want an error")
	}
}

// TestTerminatedAndUnknownSessionsGet404: on the revisions with sessions, a
// request naming a session that was DELETEd, that expired, or that this
// server never issued gets 404 Not Found (the client then starts a new
// session); a live session is served. Before, any well-formed id was served.
func TestTerminatedAndUnknownSessionsGet404(t *testing.T) {
	var count sessionCounter
	const ttl = time.Second
	h, err := Handler(newCountingEchoServer(&count), StreamableHTTP, WithSessionIdleTTL(ttl))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	defer hs.Close()
	defer CloseSessions(h)
	url := hs.URL + "/mcp"
	const list = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	status := func(session string) int {
		resp := rawPost(t, url, session, list)
		resp.Body.Close()
		return resp.StatusCode
	}

	live := rawInitialize(t, url)
	if got := status(live); got != http.StatusOK {
		t.Fatalf("live session: status %d, want 200", got)
	}
	deleted := rawInitialize(t, url)
	req, err := http.NewRequest(http.MethodDelete, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Mcp-Session-Id", deleted)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE: status %d, want 200", resp.StatusCode)
	}
	for _, tt := range []struct{ name, id string }{
		{"terminated by DELETE", deleted},
		{"never issued, well formed", sessionPrefix + "AAAAAAAAAAAAAAAAAAAAAAAAAA"},
		{"never issued, the shape of mcp-go's ids", "mcp-session-4b3c2d1e-0000-4000-8000-000000000000"},
		{"not an id", "hello"},
	} {
		if got := status(tt.id); got != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", tt.name, got)
		}
	}
	// The idle TTL still forgets abandoned sessions, which then get 404 too.
	waitFor(t, "the idle session to expire", func() bool { return count.unregistered.Load() >= 2 })
	if got := status(live); got != http.StatusNotFound {
		t.Errorf("expired session: status %d, want 404", got)
	}
}
