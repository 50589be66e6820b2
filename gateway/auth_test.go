package gateway

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/config"
	"talk2tables/mcpserve"
)

type seenAuthKey struct{}

// authEchoServer is a downstream HTTP MCP server whose whoami tool returns
// the Authorization header its request carried; it records the header of
// every initialize (one per session).
func authEchoServer(tb testing.TB) (url string, inits func() []string) {
	tb.Helper()
	s := server.NewMCPServer("auth-echo", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("whoami", mcp.WithDescription("Tell which credentials reached the server"), mcp.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, _ := ctx.Value(seenAuthKey{}).(string)
			return mcp.NewToolResultText(a), nil
		})
	h, err := mcpserve.Handler(s, mcpserve.StreamableHTTP, mcpserve.WithContextFunc(func(ctx context.Context, r *http.Request) context.Context {
		return context.WithValue(ctx, seenAuthKey{}, r.Header.Get("Authorization"))
	}))
	if err != nil {
		tb.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			mu.Lock()
			seen = append(seen, r.Header.Get("Authorization"))
			mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	tb.Cleanup(func() { mcpserve.CloseSessions(h); srv.Close() })
	return srv.URL + "/mcp", func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

func TestAuthForwarding(t *testing.T) {
	url, inits := authEchoServer(t)
	st := newStackWith(t, "", func(cfg *config.Config) {
		cfg.MCPServers["fwd"] = config.ServerConfig{Name: "Per-user server", Transport: config.TransportStreamableHTTP,
			URL: url, Priority: 20, ForwardAuth: true, Headers: map[string]string{"Authorization": "Bearer static-never-sent"}}
	})
	a, _ := overHTTP(t, st, clientOptions{headers: map[string]string{"Authorization": "Bearer token-a"}})
	b, _ := overHTTP(t, st, clientOptions{headers: map[string]string{"Authorization": "Bearer token-b"}})
	anon, _ := overHTTP(t, st, clientOptions{})

	if got := toolNames(t, a); !slices.Contains(got, "fwd__whoami") {
		t.Fatalf("tools of a caller with a token = %v, want fwd__whoami", got)
	}
	for i := 0; i < 3; i++ {
		if res := call(t, a, "fwd__whoami", nil, nil); res.IsError || text(res) != "Bearer token-a" {
			t.Fatalf("whoami as a = %q (isError %v), want the caller's own header", text(res), res.IsError)
		}
	}
	res := call(t, b, "execute", map[string]any{"name": "fwd__whoami", "arguments": map[string]any{}}, nil)
	if res.IsError || text(res) != "Bearer token-b" {
		t.Fatalf("whoami as b = %q, want b's header", text(res))
	}
	if n := st.orch.SessionsOpened("fwd"); n != 2 {
		t.Errorf("sessions opened = %d, want 2 (one per token, reused)", n)
	}
	got := inits()
	slices.Sort(got)
	if !slices.Equal(got, []string{"Bearer token-a", "Bearer token-b"}) {
		t.Errorf("downstream initialize headers = %v, want one session per caller token and never the static header", got)
	}
	// A caller without credentials sees none of those tools and cannot call them.
	if slices.Contains(toolNames(t, anon), "fwd__whoami") {
		t.Error("a caller without a token lists fwd__whoami")
	}
	res = call(t, anon, "execute", map[string]any{"name": "fwd__whoami", "arguments": map[string]any{}}, nil)
	if !res.IsError || !strings.Contains(text(res), "Authorization header") {
		t.Errorf("anonymous whoami = %q, want a refusal asking for credentials", text(res))
	}
	for _, secret := range []string{"token-a", "token-b", "static-never-sent"} {
		if st.logs.Contains(secret) {
			t.Errorf("logs contain the credential %q", secret)
		}
	}
}
