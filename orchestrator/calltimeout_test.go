package orchestrator

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"talk2tables/config"
	"talk2tables/mcpserve"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/resources"
)

// TestSlowServerIsNotAQueryTimeout: a server that does not answer a call
// within mcp_call_timeout fails the question with an error that says so,
// not with context.DeadlineExceeded, which the API reports as the
// question's own query_timeout (504 "try a narrower question"). Before, a
// metadata server sleeping past a 2 s mcp_call_timeout under a 30 s
// query_timeout gave that 504 after 2 s. The call is cancelled; the server
// still answers pings, so it is slow, not lost: it stays connected (no
// reconnect, no restart), and once it is fast again questions work.
func TestSlowServerIsNotAQueryTimeout(t *testing.T) {
	const callTimeout = 150 * time.Millisecond
	f := newFixture(t)
	meta := newResourceServer("meta", map[string]string{"metadata://a": `{"x":1}`}, nil)
	h, err := mcpserve.Handler(meta.s, mcpserve.StreamableHTTP)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(func() {
		mcpserve.CloseSessions(h)
		hs.CloseClientConnections()
		hs.Close()
	})
	cfg := inprocConfig()
	cfg.Orchestration.FailFast = new(true)
	cfg.Orchestration.ResourceCacheTTL = 0
	cfg.Orchestration.MCPCallTimeout = callTimeout
	sc := cfg.MCPServers["product_metadata_mcp"]
	sc.Transport = config.TransportStreamableHTTP
	sc.URL = hs.URL + "/mcp"
	cfg.MCPServers["product_metadata_mcp"] = sc
	o := newOrch(t, cfg, WithInProcessServer("database_mcp", f.dbServer(t)), withBackoff(5*time.Millisecond, 20*time.Millisecond))

	meta.delay.Store(int64(20 * callTimeout))
	// A question's budget far beyond the call timeout.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tests := []struct{ name string }{{"the slow call"}, {"the next one"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := o.cache.Gather(ctx, "t")
			var fe *resources.ResourceFetchError
			if !errors.As(err, &fe) || fe.Server != "product_metadata_mcp" {
				t.Fatalf("gather = %v, want a ResourceFetchError for product_metadata_mcp (slow, not lost)", err)
			}
			if errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("gather = %v: it matches context.DeadlineExceeded, which means the question's own timeout", err)
			}
			if !strings.Contains(err.Error(), "mcp_call_timeout") {
				t.Errorf("gather = %v, want it to name mcp_call_timeout", err)
			}
		})
	}
	if ctx.Err() != nil {
		t.Fatal("the question's own deadline passed; the test proves nothing")
	}
	for _, s := range o.Servers() {
		if s.ID == "product_metadata_mcp" && s.State != mcpclient.StateConnected {
			t.Errorf("state = %q (last_error %q), want connected: it answers pings", s.State, s.LastError)
		}
	}

	meta.delay.Store(0)
	eventually(t, "questions to work again", func() bool {
		_, err := o.cache.Gather(ctx, "t")
		return err == nil
	})
}
