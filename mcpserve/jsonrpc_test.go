package mcpserve

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMalformedJSONRPCMessages (issue 24): messages that are JSON but not
// one valid JSON-RPC message get a JSON-RPC Invalid Request error (-32600)
// carrying their id, over the real streamable HTTP transport: a batch
// array was a -32700 "not valid json", an empty method with an id a 202
// with no response, and object, array and boolean ids were accepted.
func TestMalformedJSONRPCMessages(t *testing.T) {
	h, err := Handler(newEchoServer(), StreamableHTTP)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	defer hs.Close()
	defer CloseSessions(h)
	url := hs.URL + "/mcp"
	session := rawInitialize(t, url)

	tests := []struct {
		name, body string
		wantID     any // the id echoed in the error (nil: null)
		wantText   string
	}{
		{"batch array", `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`, nil, "batch"},
		{"empty method with an id", `{"jsonrpc":"2.0","id":5,"method":""}`, 5.0, "method"},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, nil, "an object"},
		{"array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, nil, "an array"},
		{"boolean id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, nil, "a boolean"},
		{"neither request nor response", `{"jsonrpc":"2.0","id":"x"}`, "x", "no \"method\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := rawPost(t, url, session, tt.body)
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			var got struct {
				JSONRPC string `json:"jsonrpc"`
				ID      any    `json:"id"`
				Error   *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("status %d, body %q: not JSON-RPC: %v", resp.StatusCode, b, err)
			}
			if resp.StatusCode != http.StatusBadRequest || got.Error == nil || got.Error.Code != -32600 ||
				got.ID != tt.wantID || !strings.Contains(got.Error.Message, tt.wantText) {
				t.Errorf("status %d, body %s; want 400 with a -32600 error for id %v saying %q", resp.StatusCode, b, tt.wantID, tt.wantText)
			}
		})
	}

	// Valid messages still pass: a ping with a string id, a notification.
	resp := rawPost(t, url, session, `{"jsonrpc":"2.0","id":"p1","method":"ping"}`)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"p1"`) || strings.Contains(string(b), `"error"`) {
		t.Errorf("ping: %d %s, want 200 with its result", resp.StatusCode, b)
	}
	resp = rawPost(t, url, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Errorf("notification: %d, want 202", resp.StatusCode)
	}
}
