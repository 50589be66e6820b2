package gateway

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/config"
	"talk2tables/orchestrator/mcpclient"
)

// handleDownstream serves a re-exposed tool (<server>__<tool>).
func (g *Gateway) handleDownstream(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return g.callDownstream(ctx, req, req.Params.Name, req.Params.Arguments), nil
}

// handleExecute calls a downstream tool named in its arguments.
func (g *Gateway) handleExecute(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if res := g.limits.check(ToolExecute, ""); res != nil {
		return res, nil
	}
	name, bad := stringArg(req, "name", 0)
	if bad != nil {
		return bad, nil
	}
	args := req.GetArguments()["arguments"]
	if args == nil {
		args = map[string]any{}
	}
	if _, ok := args.(map[string]any); !ok {
		return mcp.NewToolResultError(fmt.Sprintf(`"arguments" must be an object, got %T`, args)), nil
	}
	return g.callDownstream(ctx, req, name, args), nil
}

// callDownstream applies the policies to a call of the namespaced tool
// name, then makes it. Every refusal and failure is a tool result with
// isError saying why.
func (g *Gateway) callDownstream(ctx context.Context, req mcp.CallToolRequest, name string, args any) *mcp.CallToolResult {
	opID := operationID(ctx)
	r, ok := g.routeOf(name)
	if !ok {
		r, ok = g.learnAuthTool(ctx, name)
	}
	if !ok {
		return mcp.NewToolResultError(g.unknownTool(name))
	}
	if res := g.limits.check(name, r.server); res != nil {
		g.log.Info("tool call refused", "event", "tool_call_refused", "tool", name, "operation_id", opID, "reason", "rate_limited")
		return res
	}
	a := g.approve(ctx, req, name, r.server, args)
	if a.pending != nil {
		return a.pending
	}
	if !a.granted {
		g.log.Info("tool call refused", "event", "tool_call_refused", "tool", name, "operation_id", opID, "reason", "not_approved")
		return mcp.NewToolResultError(a.refusal)
	}
	opts := mcpclient.CallOptions{Authorization: authFrom(ctx)}
	if token := progressToken(req); token != nil {
		// The downstream server's progress reaches this call's client.
		opts.Progress = func(progress, total float64, message string) {
			params := map[string]any{"progressToken": token, "progress": progress}
			if total > 0 {
				params["total"] = total
			}
			if message != "" {
				params["message"] = message
			}
			_ = g.srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), params)
		}
	}
	start := time.Now()
	res, err := g.orch.CallTool(ctx, r.server, r.tool, args, opts)
	if err != nil {
		return g.fail(ctx, name, opID, err)
	}
	g.log.Info("tool call completed", "event", "tool_call_completed", "tool", name, "server", r.server,
		"operation_id", opID, "duration_ms", msSince(start), "is_error", res.IsError)
	return res
}

// unknownTool explains why name cannot be called.
func (g *Gateway) unknownTool(name string) string {
	i := strings.Index(name, "__")
	if i <= 0 {
		return fmt.Sprintf("unknown tool %q: downstream tools are named <server>__<tool>; call search to find them", name)
	}
	serverID, tool := name[:i], name[i+2:]
	for _, d := range g.orch.Downstreams() {
		if d.ID != serverID {
			continue
		}
		for _, t := range d.Tools {
			if t.Name == tool {
				if why := g.cfg.Gateway.ToolAllowed(name, isDestructive(t)); why != "" {
					return fmt.Sprintf("tool %q is not available: %s", name, why)
				}
			}
		}
		if d.State != mcpclient.StateConnected && !d.ForwardAuth {
			return fmt.Sprintf("the MCP server %q is %s; call health and try again shortly", serverID, d.State)
		}
		return fmt.Sprintf("the MCP server %q has no tool %q; call search to find tools", serverID, tool)
	}
	return fmt.Sprintf("unknown MCP server %q in %q; call health to list the servers", serverID, name)
}

// learnAuthTool finds name among the caller's own tools of a forward_auth
// server (listing them with the caller's token) and registers it.
func (g *Gateway) learnAuthTool(ctx context.Context, name string) (route, bool) {
	i := strings.Index(name, "__")
	if i <= 0 {
		return route{}, false
	}
	serverID := name[:i]
	tools := g.authToolsOf(ctx, serverID)
	for _, t := range tools {
		if t.Name == name {
			return g.routeOf(name)
		}
	}
	return route{}, false
}

// authToolsOf returns the caller's allowed tools of a forward_auth server
// under their namespaced names (none without an Authorization header), and
// registers new ones so they can be called.
func (g *Gateway) authToolsOf(ctx context.Context, serverID string) []mcp.Tool {
	auth := authFrom(ctx)
	if auth == "" {
		return nil
	}
	tools, _, err := g.orch.AuthTools(ctx, serverID, auth)
	if err != nil {
		g.log.Warn("caller tools unavailable", "event", "error_occurred", "server", serverID, "error", err.Error())
		return nil
	}
	var out []mcp.Tool
	learned := false
	g.mu.Lock()
	known := g.authRoutes[serverID]
	if known == nil {
		known = map[string]mcp.Tool{}
		g.authRoutes[serverID] = known
	}
	for _, t := range tools {
		name := namespaced(serverID, t.Name)
		if g.cfg.Gateway.ToolAllowed(name, isDestructive(t)) != "" {
			continue
		}
		if _, ok := known[name]; !ok {
			known[name] = t
			learned = true
		}
		out = append(out, exposedTool(name, route{server: serverID, tool: t.Name, def: t, forwardAuth: true}))
	}
	g.mu.Unlock()
	if learned {
		g.refresh() // registers them (and tells clients the list changed)
	}
	return out
}

// filterTools shapes tools/list (and every call) for the caller: tools of
// forward_auth servers are the ones the caller's own token lists.
func (g *Gateway) filterTools(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
	authServers := map[string]bool{}
	for id, s := range g.cfg.MCPServers {
		if s.ForwardAuth {
			authServers[id] = true
		}
	}
	if len(authServers) == 0 {
		return tools
	}
	mine := map[string]mcp.Tool{}
	if g.cfg.Gateway.Expose == config.ExposeAll && authFrom(ctx) != "" {
		for id := range authServers {
			for _, t := range g.authToolsOf(ctx, id) {
				mine[t.Name] = t
			}
		}
	}
	out := make([]mcp.Tool, 0, len(tools)+len(mine))
	for _, t := range tools {
		if i := strings.Index(t.Name, "__"); i > 0 && authServers[t.Name[:i]] {
			if _, ok := mine[t.Name]; !ok {
				continue // another caller's tool
			}
			delete(mine, t.Name)
		}
		out = append(out, t)
	}
	for _, t := range mine {
		out = append(out, t) // learned just now: registered for the next call
	}
	return out
}

// handleResource reads a re-exposed downstream resource.
func (g *Gateway) handleResource(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	g.mu.Lock()
	r, ok := g.resRoutes[req.Params.URI]
	g.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("unknown resource %q", req.Params.URI)
	}
	contents, err := g.orch.ReadResource(ctx, r.server, r.uri, mcpclient.CallOptions{Authorization: authFrom(ctx)})
	if err != nil {
		f := classify(err)
		g.log.Warn("resource read failed", "event", "error_occurred", "uri", req.Params.URI, "error", err.Error())
		return nil, fmt.Errorf("%s", f.message)
	}
	out := make([]mcp.ResourceContents, 0, len(contents))
	for _, c := range contents {
		switch v := c.(type) {
		case mcp.TextResourceContents:
			v.URI = req.Params.URI
			out = append(out, v)
		case mcp.BlobResourceContents:
			v.URI = req.Params.URI
			out = append(out, v)
		default:
			out = append(out, c)
		}
	}
	return out, nil
}
