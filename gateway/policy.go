package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"golang.org/x/time/rate"

	"talk2tables/answer"
	"talk2tables/config"
)

// limiters are the token buckets of gateway.tools.<name>.rate_limit and
// mcp_servers.<id>.rate_limit, on top of the HTTP per-client limit.
type limiters struct {
	tools   map[string]*rate.Limiter
	servers map[string]*rate.Limiter
}

func newLimiters(cfg *config.Config) *limiters {
	l := &limiters{tools: map[string]*rate.Limiter{}, servers: map[string]*rate.Limiter{}}
	for name, p := range cfg.Gateway.Tools {
		if r := p.RateLimit; r != nil {
			l.tools[name] = rate.NewLimiter(rate.Limit(r.Rate), r.Burst)
		}
	}
	for id, s := range cfg.MCPServers {
		if r := s.RateLimit; r != nil {
			l.servers[id] = rate.NewLimiter(rate.Limit(r.Rate), r.Burst)
		}
	}
	return l
}

// check takes a token from the tool's bucket and the server's (serverID ""
// for the gateway's own tools); when either is empty it takes none and
// returns a tool error saying when to retry.
func (l *limiters) check(tool, serverID string) *mcp.CallToolResult {
	now := time.Now()
	type held struct {
		what string
		r    *rate.Reservation
	}
	var taken []held
	refuse := func(what string, wait time.Duration) *mcp.CallToolResult {
		for _, h := range taken {
			h.r.CancelAt(now)
		}
		secs := max(1, int((wait+time.Second-1)/time.Second))
		return mcp.NewToolResultError(fmt.Sprintf("rate limited: %s allows no more calls right now; retry after %d s", what, secs))
	}
	for _, c := range []struct {
		what string
		lim  *rate.Limiter
	}{{"tool " + tool, l.tools[tool]}, {"server " + serverID, l.servers[serverID]}} {
		if c.lim == nil {
			continue
		}
		r := c.lim.ReserveN(now, 1)
		if !r.OK() {
			return refuse(c.what, time.Second)
		}
		if d := r.DelayFrom(now); d > 0 {
			r.CancelAt(now)
			return refuse(c.what, d)
		}
		taken = append(taken, held{c.what, r})
	}
	return nil
}

// approvalMode is the approval a downstream tool needs: its own
// gateway.tools entry wins over its server's.
func (g *Gateway) approvalMode(name, serverID string) string {
	if p, ok := g.cfg.Gateway.Tools[name]; ok && p.Approval != "" {
		return p.Approval
	}
	if s, ok := g.cfg.MCPServers[serverID]; ok && s.Approval != "" {
		return s.Approval
	}
	return config.ApprovalNone
}

// approvalID keys the approval elicitation in a multi round-trip call.
const approvalID = "approval"

// approval is the outcome of asking for one.
type approval struct {
	granted bool
	refusal string              // why not, for the client
	pending *mcp.CallToolResult // input_required: ask the client first
}

// approve asks for approval of a call to the downstream tool name, as the
// tool's policy says.
func (g *Gateway) approve(ctx context.Context, req mcp.CallToolRequest, name, serverID string, args any) approval {
	switch g.approvalMode(name, serverID) {
	case config.ApprovalElicit:
		return g.approveByElicitation(ctx, req, name, args)
	case config.ApprovalWebhook:
		return g.approveByWebhook(ctx, name, serverID, args)
	}
	return approval{granted: true}
}

// approveByElicitation asks the connected client's user. On the 2026-07-28
// protocol the question is an input_required result answered on the next
// call (its requestState binds the answer to this very call); before, the
// server asks the client directly.
func (g *Gateway) approveByElicitation(ctx context.Context, req mcp.CallToolRequest, name string, args any) approval {
	argsJSON, _ := json.Marshal(args)
	if clientCapabilities(ctx).Elicitation == nil {
		return approval{refusal: fmt.Sprintf("%s needs the user's approval, and this MCP client cannot ask its user "+
			"(it did not declare the elicitation capability); use a client that supports elicitation, or change the "+
			"tool's approval policy", name)}
	}
	params := mcp.ElicitationParams{
		Message: fmt.Sprintf("Allow talk2tables to call %s with %s?", name, truncate(string(argsJSON), 500)),
		RequestedSchema: map[string]any{"type": "object",
			"properties": map[string]any{"approve": map[string]any{"type": "boolean", "title": "Approve this call"}},
			"required":   []string{"approve"}},
	}
	var res *mcp.ElicitationResult
	if modern(ctx) {
		res = server.ElicitationResponse(req.Params.InputResponses, approvalID)
		if res == nil {
			state := g.signState("approve", name, g.mac(string(argsJSON)))
			return approval{pending: server.NewInputRequestBuilder(state).Elicit(approvalID, params).ToolResult()}
		}
		parts, ok := g.verifyState(req.Params.RequestState, g.cfg.Gateway.ApprovalTimeout)
		if !ok || len(parts) != 3 || parts[0] != "approve" || parts[1] != name || parts[2] != g.mac(string(argsJSON)) {
			return approval{refusal: "the approval answer does not belong to this call (or it expired); call the tool again"}
		}
	} else {
		actx, cancel := context.WithTimeout(ctx, g.cfg.Gateway.ApprovalTimeout)
		defer cancel()
		var err error
		res, err = g.srv.RequestElicitation(actx, mcp.ElicitationRequest{Params: params})
		if err != nil {
			return approval{refusal: fmt.Sprintf("%s needs the user's approval and the client could not ask for it: %v", name, err)}
		}
	}
	if res.Action != mcp.ElicitationResponseActionAccept {
		return approval{refusal: fmt.Sprintf("the user did not approve the call to %s (%s)", name, res.Action)}
	}
	if content, ok := res.Content.(map[string]any); !ok || content["approve"] != true {
		return approval{refusal: fmt.Sprintf("the user did not approve the call to %s", name)}
	}
	return approval{granted: true}
}

// webhookCall is the body posted to gateway.webhook.url.
type webhookCall struct {
	Tool        string `json:"tool"`
	Server      string `json:"server"`
	Arguments   any    `json:"arguments"`
	OperationID string `json:"operation_id"`
}

// webhookAnswer is the body the webhook answers with.
type webhookAnswer struct {
	Allow  bool   `json:"allow"`
	Reason string `json:"reason"`
}

// approveByWebhook posts the call and waits, up to gateway.webhook.timeout,
// for {"allow": bool, "reason": "..."}. No answer in time denies.
func (g *Gateway) approveByWebhook(ctx context.Context, name, serverID string, args any) approval {
	w := g.cfg.Gateway.Webhook
	body, err := json.Marshal(webhookCall{Tool: name, Server: serverID, Arguments: args, OperationID: operationID(ctx)})
	if err != nil {
		return approval{refusal: "the call's arguments cannot be sent for approval: " + err.Error()}
	}
	wctx, cancel := context.WithTimeout(ctx, w.Timeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(wctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return approval{refusal: "the approval webhook URL is not usable: " + err.Error()}
	}
	hreq.Header.Set("Content-Type", "application/json")
	for k, v := range w.Headers {
		hreq.Header.Set(k, os.ExpandEnv(v))
	}
	resp, err := g.webhook.Do(hreq)
	if err != nil {
		if wctx.Err() != nil && ctx.Err() == nil {
			return approval{refusal: fmt.Sprintf("%s was not approved: the approval webhook did not answer within %s", name, w.Timeout)}
		}
		return approval{refusal: fmt.Sprintf("%s was not approved: the approval webhook could not be reached", name)}
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	var ans webhookAnswer
	if resp.StatusCode/100 != 2 || json.Unmarshal(data, &ans) != nil {
		return approval{refusal: fmt.Sprintf("%s was not approved: the approval webhook answered HTTP %d without {\"allow\": ...}", name, resp.StatusCode)}
	}
	if !ans.Allow {
		msg := fmt.Sprintf("%s was denied by the approval webhook", name)
		if ans.Reason != "" {
			msg += ": " + answer.OneLine(ans.Reason)
		}
		return approval{refusal: msg}
	}
	return approval{granted: true}
}

// truncate shortens s to n bytes with an ellipsis.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
