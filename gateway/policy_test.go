package gateway

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/config"
	"talk2tables/mcpserve"
)

// toolsServer is a downstream test server: echo (read-only), wipe (no
// annotations: may be destructive) and slow (reports progress).
func toolsServer(calls *atomic.Int64) *server.MCPServer {
	s := server.NewMCPServer("tools-test", "1", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echo a message back"), mcp.WithString("message", mcp.Required()),
		mcp.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			calls.Add(1)
			return mcp.NewToolResultText("echo: " + req.GetString("message", "")), nil
		})
	s.AddTool(mcp.NewTool("wipe", mcp.WithDescription("Delete everything")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			calls.Add(1)
			return mcp.NewToolResultText("wiped"), nil
		})
	return s
}

func toolsExtra(calls *atomic.Int64, approval string, rl *config.RateLimit) extraServer {
	return extraServer{id: "tools", srv: toolsServer(calls), cfg: config.ServerConfig{Name: "Tools",
		Transport: config.TransportInProcess, Priority: 50, Approval: approval, RateLimit: rl}}
}

func TestAllowDenyAndDestructive(t *testing.T) {
	var calls atomic.Int64
	tests := []struct {
		name      string
		config    string
		want, not []string
	}{
		{"destructive denied by default", "", []string{"tools__echo"}, []string{"tools__wipe"}},
		{"allow_destructive", "gateway: {allow_destructive: [tools__wipe]}", []string{"tools__echo", "tools__wipe"}, nil},
		{"deny wins", "gateway: {deny: [\"database_mcp__*\"], allow_destructive: [\"*\"]}",
			[]string{"tools__echo", "tools__wipe"}, []string{"database_mcp__execute_query"}},
		{"allow list", "gateway: {allow: [tools__echo]}", []string{"tools__echo"},
			[]string{"database_mcp__execute_query", "tools__wipe"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newStack(t, tt.config, toolsExtra(&calls, "", nil))
			c, _ := inProcess(t, st, clientOptions{})
			got := toolNames(t, c)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("tools = %v, want %s", got, w)
				}
			}
			for _, n := range tt.not {
				if slices.Contains(got, n) {
					t.Errorf("tools = %v, want no %s", got, n)
				}
				res := call(t, c, "execute", map[string]any{"name": n, "arguments": map[string]any{}}, nil)
				if !res.IsError || !strings.Contains(text(res), "not available") {
					t.Errorf("execute %s = %s, want a refusal saying why", n, text(res))
				}
			}
		})
	}
}

func TestRateLimits(t *testing.T) {
	var calls atomic.Int64
	rl := &config.RateLimit{Rate: 0.001, Burst: 2}
	st := newStackWith(t, "gateway: {tools: {ask: {rate_limit: {requests_per_second: 0.001, burst: 1}}}}",
		nil, toolsExtra(&calls, "", rl))
	c, _ := inProcess(t, st, clientOptions{})
	if res := call(t, c, "ask", map[string]any{"question": "how many orders"}, nil); res.IsError {
		t.Fatalf("first ask refused: %s", text(res))
	}
	res := call(t, c, "ask", map[string]any{"question": "how many orders"}, nil)
	if !res.IsError || !strings.Contains(text(res), "rate limited: tool ask") {
		t.Errorf("second ask = %s, want a rate-limit refusal", text(res))
	}
	// The server's bucket (burst 2) is shared by its tools, direct or through execute.
	call(t, c, "tools__echo", map[string]any{"message": "a"}, nil)
	call(t, c, "execute", map[string]any{"name": "tools__echo", "arguments": map[string]any{"message": "b"}}, nil)
	res = call(t, c, "tools__echo", map[string]any{"message": "c"}, nil)
	if !res.IsError || !strings.Contains(text(res), "rate limited: server tools") || !strings.Contains(text(res), "retry after") {
		t.Errorf("third call = %s, want the server's rate-limit refusal", text(res))
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("downstream calls = %d, want 2 (the refused one never reached it)", n)
	}
}

// elicitor answers approval requests.
type elicitor struct {
	approve bool
	asked   atomic.Int64
	message atomic.Value
}

func (e *elicitor) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	e.asked.Add(1)
	e.message.Store(req.Params.Message)
	res := &mcp.ElicitationResult{}
	res.Action = mcp.ElicitationResponseActionAccept
	res.Content = map[string]any{"approve": e.approve}
	return res, nil
}

func TestElicitationApproval(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		name := "2026-07-28"
		if legacy {
			name = "2025-11-25"
		}
		t.Run(name, func(t *testing.T) {
			var calls atomic.Int64
			st := newStack(t, "", toolsExtra(&calls, config.ApprovalElicit, nil))
			yes := &elicitor{approve: true}
			c, _ := overHTTP(t, st, clientOptions{legacy: legacy, elicitation: yes})
			res := call(t, c, "tools__echo", map[string]any{"message": "hi"}, nil)
			if res.IsError || text(res) != "echo: hi" || yes.asked.Load() != 1 {
				t.Fatalf("approved call = %s (isError %v, asked %d), want the echo after one question", text(res), res.IsError, yes.asked.Load())
			}
			if msg, _ := yes.message.Load().(string); !strings.Contains(msg, "tools__echo") || !strings.Contains(msg, `"message":"hi"`) {
				t.Errorf("approval question = %q, want the tool and its arguments", msg)
			}
			no := &elicitor{approve: false}
			c2, _ := overHTTP(t, st, clientOptions{legacy: legacy, elicitation: no})
			res = call(t, c2, "execute", map[string]any{"name": "tools__echo", "arguments": map[string]any{"message": "x"}}, nil)
			if !res.IsError || !strings.Contains(text(res), "did not approve") {
				t.Errorf("declined call = %s, want a refusal", text(res))
			}
			c3, _ := overHTTP(t, st, clientOptions{legacy: legacy})
			res = call(t, c3, "tools__echo", map[string]any{"message": "x"}, nil)
			if !res.IsError || !strings.Contains(text(res), "cannot ask its user") {
				t.Errorf("call without elicitation = %s, want a clear refusal", text(res))
			}
			if n := calls.Load(); n != 1 {
				t.Errorf("downstream calls = %d, want 1 (only the approved one)", n)
			}
		})
	}
}

func TestForgedApprovalRefused(t *testing.T) {
	var calls atomic.Int64
	st := newStack(t, "", toolsExtra(&calls, config.ApprovalElicit, nil))
	// A modern (2026-07-28) call that can elicit.
	ctx := server.WithRequestProtocolInfo(context.Background(), &server.RequestProtocolInfo{Modern: true,
		ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION, ClientCapabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{}}})
	args := map[string]any{"message": "x"}
	accept := mcp.InputResponses{approvalID: mcp.NewElicitationInputResponse(mcp.ElicitationResult{
		ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"approve": true}}})}
	req := mcp.CallToolRequest{}
	req.Params.Name = "tools__echo"
	req.Params.Arguments = args

	first := st.gw.approve(ctx, req, "tools__echo", "tools", args)
	if first.pending == nil || first.granted {
		t.Fatalf("first call = %+v, want an input_required question", first)
	}
	issued := first.pending.RequestState
	other, _ := json.Marshal(map[string]any{"message": "y"})
	tests := []struct {
		name  string
		state string
		args  map[string]any
		want  bool
	}{
		{"answer to the question asked", issued, args, true},
		{"made-up state", "forged.state", args, false},
		{"state of other arguments", st.gw.signState("approve", "tools__echo", st.gw.mac(string(other))), args, false},
		{"state of another tool", st.gw.signState("approve", "tools__wipe", st.gw.mac(`{"message":"x"}`)), args, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := req
			r.Params.RequestState = tt.state
			r.Params.InputResponses = accept
			got := st.gw.approve(ctx, r, "tools__echo", "tools", tt.args)
			if got.granted != tt.want {
				t.Errorf("approve = %+v, want granted %v", got, tt.want)
			}
		})
	}
}

func TestWebhookApproval(t *testing.T) {
	var posted atomic.Value
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body webhookCall
		_ = json.NewDecoder(r.Body).Decode(&body)
		posted.Store(body)
		if r.Header.Get("X-Hook-Token") != "s3cret" {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		msg, _ := body.Arguments.(map[string]any)["message"].(string)
		switch msg {
		case "slow":
			select {
			case <-time.After(10 * time.Second):
			case <-r.Context().Done():
			}
		case "deny":
			_, _ = w.Write([]byte(`{"allow": false, "reason": "not on weekends"}`))
		default:
			_, _ = w.Write([]byte(`{"allow": true}`))
		}
	}))
	t.Cleanup(hook.Close)
	t.Setenv("GATEWAY_TEST_HOOK", "s3cret")
	var calls atomic.Int64
	st := newStack(t, "gateway: {webhook: {url: "+hook.URL+", timeout: 300ms, headers: {X-Hook-Token: \"${GATEWAY_TEST_HOOK}\"}}}",
		toolsExtra(&calls, config.ApprovalWebhook, nil))
	c, _ := inProcess(t, st, clientOptions{})
	tests := []struct {
		message, want string
		isError       bool
	}{
		{"hello", "echo: hello", false},
		{"deny", "denied by the approval webhook: not on weekends", true},
		{"slow", "did not answer within 300ms", true},
	}
	for _, tt := range tests {
		res := call(t, c, "tools__echo", map[string]any{"message": tt.message}, nil)
		if res.IsError != tt.isError || !strings.Contains(text(res), tt.want) {
			t.Errorf("call %q = %s (isError %v), want %q", tt.message, text(res), res.IsError, tt.want)
		}
	}
	body, _ := posted.Load().(webhookCall)
	if body.Tool != "tools__echo" || body.Server != "tools" || body.OperationID == "" {
		t.Errorf("webhook body = %+v, want the tool, server and operation id", body)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("downstream calls = %d, want 1", n)
	}
}

func TestDownstreamListChanged(t *testing.T) {
	var calls atomic.Int64
	extra := toolsExtra(&calls, "", nil)
	st := newStack(t, "", extra)
	c, n := overHTTP(t, st, clientOptions{legacy: true})
	if slices.Contains(toolNames(t, c), "tools__later") {
		t.Fatal("tools__later listed before it exists")
	}
	extra.srv.AddTool(mcp.NewTool("later", mcp.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("later"), nil
		})
	eventually(t, "tools/list_changed from the gateway", func() bool {
		return len(n.of(string(mcp.MethodNotificationToolsListChanged))) > 0
	})
	if !slices.Contains(toolNames(t, c), "tools__later") {
		t.Errorf("tools after list_changed = %v, want tools__later", toolNames(t, c))
	}
	if res := call(t, c, "tools__later", nil, nil); res.IsError || text(res) != "later" {
		t.Errorf("tools__later = %s", text(res))
	}
}

func TestDownstreamResourcesChangedAndServerLost(t *testing.T) {
	res := server.NewMCPServer("res-test", "1", server.WithResourceCapabilities(false, true), server.WithToolCapabilities(false))
	res.AddTool(mcp.NewTool("ping_me", mcp.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("pong"), nil
		})
	h, err := mcpserve.Handler(res, mcpserve.StreamableHTTP)
	if err != nil {
		t.Fatal(err)
	}
	down := httptest.NewServer(h)
	t.Cleanup(down.Close)
	st := newStackWith(t, "", func(cfg *config.Config) {
		cfg.Orchestration.FailFast = new(bool)
		cfg.MCPServers["remote"] = config.ServerConfig{Name: "Remote", Transport: config.TransportStreamableHTTP,
			URL: down.URL + "/mcp", Priority: 30, Capabilities: []string{config.CapListResources}}
	})
	c, n := overHTTP(t, st, clientOptions{legacy: true})
	ctx := context.Background()
	res.AddResource(mcp.NewResource("notes://today", "today's notes", mcp.WithMIMEType("text/plain")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: "notes://today", Text: "all quiet"}}, nil
		})
	eventually(t, "resources/list_changed from the gateway", func() bool {
		return len(n.of(string(mcp.MethodNotificationResourcesListChanged))) > 0
	})
	rl, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rl.Resources {
		found = found || r.URI == "t2t://remote/notes://today"
	}
	if !found {
		t.Fatalf("resources = %v, want t2t://remote/notes://today", rl.Resources)
	}
	// The server goes away: its tools leave the list, and clients are told.
	before := len(n.of(string(mcp.MethodNotificationToolsListChanged)))
	mcpserve.CloseSessions(h)
	down.CloseClientConnections()
	down.Close()
	call(t, c, "remote__ping_me", nil, nil) // the failed call notices it
	eventually(t, "tools/list_changed after the server was lost", func() bool {
		return len(n.of(string(mcp.MethodNotificationToolsListChanged))) > before
	})
	if slices.Contains(toolNames(t, c), "remote__ping_me") {
		t.Error("remote__ping_me still listed after its server was lost")
	}
}
