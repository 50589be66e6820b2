package server

import (
	"bufio"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"talk2tables/config"
)

// TestMCPRoutes: /mcp and /sse are behind the API keys, pass the request
// id on, and an event stream (GET) outlives the server's write timeout,
// which is meant for one answer.
func TestMCPRoutes(t *testing.T) {
	st := newStack(t, stackOptions{apiKeys: "mcp-key"})
	var seenID string
	stream := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seenID = r.Header.Get("X-Request-ID")
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for i := range 3 {
			_, _ = w.Write([]byte("data: tick\n\n"))
			w.(http.Flusher).Flush()
			if i < 2 {
				time.Sleep(400 * time.Millisecond) // past the 300 ms write timeout
			}
		}
	})
	cfg := config.DefaultConfig().HTTP
	cfg.APIKeysEnv = apiKeysEnv // set by newStack
	h := New(st.orch, cfg, nil, slog.New(slog.DiscardHandler), prometheus.NewRegistry(), WithMCP(stream, stream))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, WriteTimeout: 300 * time.Millisecond, ReadHeaderTimeout: time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String()

	get := func(path, key string) (*http.Response, error) {
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		req.Header.Set("X-Request-ID", "stream-1")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		return http.DefaultClient.Do(req)
	}
	for _, path := range []string{"/mcp", "/sse"} {
		resp, err := get(path, "")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s without a key = %d, want 401", path, resp.StatusCode)
		}
		resp, err = get(path, "mcp-key")
		if err != nil {
			t.Fatal(err)
		}
		ticks := 0
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data: tick") {
				ticks++
			}
		}
		resp.Body.Close()
		if ticks != 3 {
			t.Errorf("GET %s got %d events, want 3 (the stream must outlive the write timeout)", path, ticks)
		}
		if seenID != "stream-1" {
			t.Errorf("X-Request-ID seen by the MCP handler = %q, want stream-1", seenID)
		}
	}
}
