package mcpserve

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// TestResourceNotFoundCarriesURI: reading an unknown resource fails with
// the revision's not-found code and data.uri naming it, on both protocol
// revisions (SEP-2164; mcp-go v1.2.1 sends no data).
func TestResourceNotFoundCarriesURI(t *testing.T) {
	s := server.NewMCPServer("docs", "1.0.0", server.WithResourceCapabilities(false, false))
	s.AddResource(mcp.NewResource("test://here", "here"), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: "test://here", Text: "here"}}, nil
	})
	h, err := Handler(s, StreamableHTTP)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	defer hs.Close()
	defer CloseSessions(h)
	const uri = "test://nowhere/at-all"

	legacy := rawPost(t, hs.URL+"/mcp", rawInitialize(t, hs.URL+"/mcp"),
		`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"`+uri+`"}}`)
	modern, err := http.NewRequest(http.MethodPost, hs.URL+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"`+uri+`","_meta":{`+
			`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	modern.Header.Set("Content-Type", "application/json")
	modern.Header.Set("Accept", "application/json, text/event-stream")
	modern.Header.Set("MCP-Protocol-Version", "2026-07-28")
	modern.Header.Set("Mcp-Method", "resources/read")
	modern.Header.Set("Mcp-Name", uri)
	modernResp, err := http.DefaultClient.Do(modern)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		resp *http.Response
		code int
	}{{"2025-06-18", legacy, -32002}, {"2026-07-28", modernResp, -32602}} {
		body, _ := io.ReadAll(tt.resp.Body)
		tt.resp.Body.Close()
		text := strings.TrimSpace(string(body))
		if i := strings.Index(text, "data: "); i >= 0 {
			text = strings.TrimSpace(text[i+len("data: "):])
		}
		var msg struct {
			Error struct {
				Code int `json:"code"`
				Data struct {
					URI string `json:"uri"`
				} `json:"data"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(text), &msg); err != nil {
			t.Fatalf("%s: response %q: %v", tt.name, body, err)
		}
		if msg.Error.Code != tt.code || msg.Error.Data.URI != uri {
			t.Errorf("%s: error code %d data.uri %q, want %d and %q (%s)", tt.name, msg.Error.Code, msg.Error.Data.URI, tt.code, uri, body)
		}
	}
}

func TestAmendNotFound(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"json", `{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"x: resource not found"}}` + "\n",
			`{"error":{"code":-32002,"data":{"uri":"u://x"},"message":"x: resource not found"},"id":1,"jsonrpc":"2.0"}` + "\n"},
		{"sse", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"x: resource not found\"}}\n\n",
			"event: message\ndata: {\"error\":{\"code\":-32602,\"data\":{\"uri\":\"u://x\"},\"message\":\"x: resource not found\"},\"id\":1,\"jsonrpc\":\"2.0\"}\n\n"},
		{"other invalid params", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"uri is required"}}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"uri is required"}}`},
		{"data kept", `{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"m","data":{"uri":"a"}}}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"m","data":{"uri":"a"}}}`},
		{"a result", `{"jsonrpc":"2.0","id":1,"result":{"contents":[]}}`, `{"jsonrpc":"2.0","id":1,"result":{"contents":[]}}`},
	}
	for _, tt := range tests {
		if got := string(amendNotFound([]byte(tt.in), "u://x")); got != tt.want {
			t.Errorf("%s: amendNotFound = %q, want %q", tt.name, got, tt.want)
		}
	}
}
