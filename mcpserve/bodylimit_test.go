package mcpserve

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// bigPing is a valid JSON-RPC ping whose params pad it to n bytes.
func bigPing(n int) string {
	const head, tail = `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"`, `"}}`
	return head + strings.Repeat("a", n-len(head)-len(tail)) + tail
}

// sseSession opens an SSE stream on base and returns the message URL it
// announces; the stream is closed at cleanup.
func sseSession(tb testing.TB, base string) string {
	tb.Helper()
	resp, err := http.Get(base + "/sse")
	if err != nil {
		tb.Fatalf("GET /sse: %v", err)
	}
	tb.Cleanup(func() { resp.Body.Close() })
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.Contains(rest, "sessionId=") {
			return base + rest
		}
	}
	tb.Fatalf("no endpoint event on the SSE stream: %v", sc.Err())
	return ""
}

// TestBodyLimit: the HTTP transports refuse bodies over MaxBodyBytes with a
// JSON-RPC error instead of reading them into memory whole (a 200 MB POST
// grew database-mcp by 400 MB over streamable HTTP and 650 MB over SSE,
// and was then answered as a normal request).
func TestBodyLimit(t *testing.T) {
	tests := []struct {
		name      string
		transport string
		// url opens a session and returns where to post messages, plus the
		// session header value (streamable HTTP only).
		url func(tb testing.TB, base string) (string, string)
		// chunked sends the body without a Content-Length.
		chunked    bool
		wantStatus int
	}{
		{"streamable http, content-length", StreamableHTTP, func(tb testing.TB, base string) (string, string) {
			return base + "/mcp", rawInitialize(tb, base+"/mcp")
		}, false, http.StatusRequestEntityTooLarge},
		{"streamable http, chunked", StreamableHTTP, func(tb testing.TB, base string) (string, string) {
			return base + "/mcp", rawInitialize(tb, base+"/mcp")
		}, true, http.StatusRequestEntityTooLarge},
		{"sse, content-length", SSE, func(tb testing.TB, base string) (string, string) {
			return sseSession(tb, base), ""
		}, false, http.StatusRequestEntityTooLarge},
		{"sse, chunked", SSE, func(tb testing.TB, base string) (string, string) {
			return sseSession(tb, base), ""
		}, true, http.StatusRequestEntityTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := Handler(newEchoServer(), tt.transport)
			if err != nil {
				t.Fatal(err)
			}
			hs := httptest.NewServer(h)
			defer hs.Close()
			defer CloseSessions(h)
			url, session := tt.url(t, hs.URL)

			// Just under the limit is still served.
			ok := rawPost(t, url, session, bigPing(MaxBodyBytes-1024))
			io.Copy(io.Discard, ok.Body)
			ok.Body.Close()
			if ok.StatusCode/100 != 2 {
				t.Fatalf("ping of %d bytes: status %d, want 2xx", MaxBodyBytes-1024, ok.StatusCode)
			}

			var body io.Reader = strings.NewReader(bigPing(2 * MaxBodyBytes))
			if tt.chunked {
				body = io.MultiReader(body) // hides the length
			}
			req, err := http.NewRequest(http.MethodPost, url, body)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if session != "" {
				req.Header.Set("Mcp-Session-Id", session)
				req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("POST %d bytes: %v", 2*MaxBodyBytes, err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			var got struct {
				JSONRPC string
				Error   *struct {
					Code    int
					Message string
				}
			}
			if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
				t.Fatalf("body is not JSON-RPC: %v", err)
			}
			if got.JSONRPC != "2.0" || got.Error == nil {
				t.Errorf("body = %+v, want a JSON-RPC 2.0 error", got)
			}
			if got.Error == nil || !strings.Contains(got.Error.Message, "limit") {
				t.Errorf("error = %+v, want it to name the limit", got.Error)
			}
		})
	}
}
