package gateway

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/internal/llmtest"
	"talk2tables/orchestrator"
	"talk2tables/sqlerr"
)

// model plays the client's own model: it answers sampling requests from a
// script and records the prompts.
type model struct {
	mu      sync.Mutex
	answers []string
	prompts []string
	systems []string
	fail    bool
}

func (m *model) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail {
		return nil, errors.New("the user rejected the sampling request")
	}
	for _, msg := range req.Messages {
		if tc, ok := msg.Content.(mcp.TextContent); ok {
			m.prompts = append(m.prompts, tc.Text)
		} else if mm, ok := msg.Content.(map[string]any); ok {
			t, _ := mm["text"].(string)
			m.prompts = append(m.prompts, t)
		}
	}
	m.systems = append(m.systems, req.SystemPrompt)
	if len(m.answers) == 0 {
		return nil, errors.New("script exhausted")
	}
	a := m.answers[0]
	m.answers = m.answers[1:]
	return &mcp.CreateMessageResult{Model: "client-model",
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(a)}}, nil
}

func (m *model) seen() (prompts, systems []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.prompts...), append([]string(nil), m.systems...)
}

func TestAskWithClientSampling(t *testing.T) {
	for _, tc := range []struct {
		name   string
		legacy bool
		stdio  bool
	}{{"2026-07-28 over HTTP", false, false}, {"2025-11-25 over stdio", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			m := &model{answers: []string{
				llmtest.Plan("SELECT COUNT(*) AS n FROM order_rows", nil, "Counts orders."),
				llmtest.Plan("SELECT COUNT(*) AS n FROM orders", nil, "Counts orders."),
			}}
			o := clientOptions{legacy: tc.legacy, sampling: m}
			var c interface {
				CallTool(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error)
			}
			var n *notes
			if tc.stdio {
				c, n = overStdio(t, "", o)
			} else {
				c, n = overHTTP(t, newStack(t, ""), o)
			}
			req := mcp.CallToolRequest{}
			req.Params.Name = "ask"
			req.Params.Arguments = map[string]any{"question": "how many orders are there"}
			req.Params.Meta = &mcp.Meta{ProgressToken: "s1"}
			res, err := c.CallTool(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError {
				t.Fatalf("ask: %s", text(res))
			}
			var qr orchestrator.QueryResult
			structured(t, res, &qr)
			if qr.Metadata.Generator != "sampling:client-model" || qr.Metadata.Fallback {
				t.Errorf("generator = %q (fallback %v), want sampling:client-model", qr.Metadata.Generator, qr.Metadata.Fallback)
			}
			if len(qr.Attempts) != 2 || qr.Attempts[0].Category != sqlerr.MissingTable || qr.SQL != "SELECT COUNT(*) AS n FROM orders" {
				t.Errorf("attempts = %+v, sql %q; want a MISSING_TABLE repaired by the client's model", qr.Attempts, qr.SQL)
			}
			prompts, systems := m.seen()
			if len(prompts) != 2 || !strings.Contains(prompts[0], "\n\"how many orders are there\"\n") ||
				!strings.Contains(prompts[1], "MISSING_TABLE") || !strings.Contains(systems[0], "sql") {
				t.Errorf("prompts = %q, want the sqlgen prompt then the repair prompt with the category", prompts)
			}
			// Over streamable HTTP a notification may be lost (the call's
			// stream can end first); over stdio each one arrives.
			if tc.stdio && !slicesContainsStage(stages(n.of(string(mcp.MethodNotificationProgress))), "retry") {
				t.Errorf("progress stages = %v, want a retry", stages(n.of(string(mcp.MethodNotificationProgress))))
			}
		})
	}
}

func slicesContainsStage(got []string, s string) bool {
	for _, g := range got {
		if g == s {
			return true
		}
	}
	return false
}

func TestSamplingFallsBackOffline(t *testing.T) {
	m := &model{fail: true}
	st := newStack(t, "")
	c, _ := overHTTP(t, st, clientOptions{legacy: true, sampling: m})
	res := call(t, c, "ask", map[string]any{"question": "how many orders by status"}, nil)
	if res.IsError {
		t.Fatalf("ask: %s", text(res))
	}
	var qr orchestrator.QueryResult
	structured(t, res, &qr)
	if !qr.Metadata.Fallback || qr.Metadata.Generator != "builtin" {
		t.Errorf("metadata = %+v, want the offline generator as fallback", qr.Metadata)
	}
}

func TestNoSamplingWhenLLMConfiguredOrOff(t *testing.T) {
	m := &model{answers: []string{llmtest.Plan("SELECT 1 AS one", nil, "x")}}
	st := newStack(t, "gateway: {sampling: \"off\"}")
	c, _ := inProcess(t, st, clientOptions{sampling: m})
	res := call(t, c, "ask", map[string]any{"question": "how many orders by status"}, nil)
	var qr orchestrator.QueryResult
	structured(t, res, &qr)
	if qr.Metadata.Generator != "builtin" {
		t.Errorf("generator = %q with sampling off, want builtin", qr.Metadata.Generator)
	}
	if p, _ := m.seen(); len(p) != 0 {
		t.Errorf("the client's model was asked %d times with sampling off", len(p))
	}
}

// The sampling fallback is the orchestrator's own built-in planner, not a
// second instance with a second model cache.
func TestSamplingFallbackIsTheOrchestratorsPlanner(t *testing.T) {
	st := newStack(t, "")
	if st.gw.offline != st.orch.OfflineGenerator() {
		t.Errorf("gateway offline generator = %p, want the orchestrator's %p", st.gw.offline, st.orch.OfflineGenerator())
	}
}
