package orchestrator

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/config"
	"talk2tables/mcpserve"
	"talk2tables/orchestrator/mcpclient"
)

// TestListeningStreamOutlivesCallTimeout: over streamable HTTP the
// orchestrator keeps a GET stream open for the server's notifications. The
// per-call timeout must not apply to it: the transport's HTTP client timeout
// (mcp_call_timeout) cut the stream every 15 s by default, serve logged two
// ERRORs ("SSE stream error", "failed to listen to server") each time, and
// notifications waited for the stream to be reopened a second later.
func TestListeningStreamOutlivesCallTimeout(t *testing.T) {
	const callTimeout = 200 * time.Millisecond
	f := newFixture(t)
	meta := newResourceServer("meta", map[string]string{"metadata://a": `{"x":1}`}, nil)
	h, err := mcpserve.Handler(meta.s, mcpserve.StreamableHTTP)
	if err != nil {
		t.Fatal(err)
	}
	var opened atomic.Int64
	ended := make(chan struct{}) // closed when a listening stream ends
	var endOnce sync.Once
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			opened.Add(1)
			defer endOnce.Do(func() { close(ended) })
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		mcpserve.CloseSessions(h)
		hs.CloseClientConnections()
		hs.Close()
	})

	cfg := inprocConfig()
	cfg.Orchestration.MCPCallTimeout = callTimeout
	sc := cfg.MCPServers["product_metadata_mcp"]
	sc.Transport = config.TransportStreamableHTTP
	sc.URL = hs.URL + "/mcp"
	cfg.MCPServers["product_metadata_mcp"] = sc
	o := newOrch(t, cfg, WithInProcessServer("database_mcp", f.dbServer(t)))

	eventually(t, "the listening stream to open", func() bool { return opened.Load() == 1 })
	if _, err := o.cache.Gather(context.Background(), "t"); err != nil {
		t.Fatal(err)
	}
	// Five call timeouts with nothing to do: the stream must not end.
	select {
	case <-ended:
		t.Errorf("listening stream ended within %s of an idle connection, want it open", 5*callTimeout)
	case <-time.After(5 * callTimeout):
	}
	if s, _ := o.cache.Lookup("product_metadata_mcp", time.Now()); s == nil {
		t.Fatal("metadata not cached after gather")
	}
	meta.s.SendNotificationToAllClients(string(mcp.MethodNotificationResourceUpdated), map[string]any{"uri": "metadata://a"})
	eventually(t, "the notification to invalidate the cache", func() bool {
		s, _ := o.cache.Lookup("product_metadata_mcp", time.Now())
		return s == nil
	})
	if st := o.clients.Conn("product_metadata_mcp").State(); st != mcpclient.StateConnected {
		t.Errorf("state = %s, want %s", st, mcpclient.StateConnected)
	}
}
