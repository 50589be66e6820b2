package mcpserve

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// listenFrames posts a 2026-07-28 subscriptions/listen request asking for
// tools list changes and returns the JSON-RPC messages of its response, in
// order.
func listenFrames(tb testing.TB, url string) []map[string]any {
	tb.Helper()
	body := `{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"_meta":{` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},` +
		`"notifications":{"toolsListChanged":true}}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	var frames []map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "event:") || line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data:")), &m); err != nil {
			tb.Fatalf("frame %q is not JSON: %v", line, err)
		}
		frames = append(frames, m)
	}
	return frames
}

// TestSubscriptionAckAlwaysFirst: a subscriptions/listen request asking only
// for notifications the server does not offer gets its acknowledgement
// before its result, every time. mcp-go v1.2.1's streamable HTTP handler
// could lose it: its notification forwarder took the acknowledgement off the
// session's queue while the response path drained the (now empty) queue and
// wrote the result, then dropped it (about 1 in 20 requests; see
// ackWaiter). The loop is long enough that the race shows without the fix.
func TestSubscriptionAckAlwaysFirst(t *testing.T) {
	h, err := Handler(newEchoServer(), StreamableHTTP) // tools without listChanged
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	defer hs.Close()
	defer CloseSessions(h)
	const runs = 300
	lost := 0
	for i := range runs {
		frames := listenFrames(t, hs.URL+"/mcp")
		if len(frames) == 0 || frames[0]["method"] != "notifications/subscriptions/acknowledged" {
			lost++
			continue
		}
		if len(frames) != 2 {
			t.Fatalf("run %d: %d frames %v, want the acknowledgement and the result", i, len(frames), frames)
		}
		meta, _ := frames[0]["params"].(map[string]any)["_meta"].(map[string]any)
		if meta["io.modelcontextprotocol/subscriptionId"] != float64(7) {
			t.Fatalf("run %d: acknowledgement %v, want it tagged with subscription id 7", i, frames[0])
		}
		if _, ok := frames[1]["result"]; !ok || frames[1]["id"] != float64(7) {
			t.Fatalf("run %d: second frame %v, want the result of request 7", i, frames[1])
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d subscriptions/listen responses came without the acknowledgement first", lost, runs)
	}
}
