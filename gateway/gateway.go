// Package gateway is the MCP face of talk2tables: an MCP server whose tools
// are the orchestrator's question answering (ask), analyst SQL (run_sql),
// health, every downstream server's tools and resources under namespaced
// names, and a search over all of it with execute to call what it finds.
// Policies (allow/deny lists, rate limits, approvals by elicitation or
// webhook) sit between a client and the downstream servers.
//
// Like package server is for HTTP, it is a thin adapter: the orchestrator
// stays the single place where questions are answered. It serves over stdio
// (`talk2tables mcp`) and over streamable HTTP and SSE (mounted by `serve`).
package gateway

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/coalesce"
	"talk2tables/config"
	"talk2tables/mcptasks"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/sqlgen"
)

// ServerName is the gateway's MCP server name.
const ServerName = "talk2tables"

// Version is reported to MCP clients.
const Version = "0.1.0"

// Orchestrator is what the gateway needs from the orchestrator; the real
// one is *orchestrator.Orchestrator.
type Orchestrator interface {
	Process(ctx context.Context, q orchestrator.Query) (*orchestrator.QueryResult, error)
	ExecuteSQLOn(ctx context.Context, server, sql string, maxRows int, operationID string) (*executor.QueryData, error)
	Servers() []mcpclient.ServerStatus
	Resources(ctx context.Context) ([]orchestrator.ResourceSnapshot, error)
	Health() mcpclient.Health
	GeneratorName() string
	OfflineGenerator() sqlgen.Generator
	Downstreams() []mcpclient.Downstream
	CallTool(ctx context.Context, serverID, tool string, args any, opts mcpclient.CallOptions) (*mcp.CallToolResult, error)
	ReadResource(ctx context.Context, serverID, uri string, opts mcpclient.CallOptions) ([]mcp.ResourceContents, error)
	AuthTools(ctx context.Context, serverID, authorization string) ([]mcp.Tool, []mcp.Resource, error)
	Watch(fn func(mcpclient.Change)) (stop func())
}

var _ Orchestrator = (*orchestrator.Orchestrator)(nil)

// Gateway is talk2tables as an MCP server. It is safe for concurrent use.
type Gateway struct {
	orch   Orchestrator
	cfg    *config.Config
	log    *slog.Logger
	srv    *server.MCPServer
	limits *limiters
	runs   *runs           // questions waiting on the client's model (sampling)
	tasks  *mcptasks.Tasks // ask and run_sql as tasks (streamable HTTP only; nil before HTTPHandlers)
	secret [32]byte        // signs request states handed to clients
	search *searchIndex
	// offline writes SQL when the client's model cannot (sampling fallback).
	offline sqlgen.Generator
	webhook *http.Client
	teacher Teacher // nil: no verify tool, no verified resource

	refreshMu  sync.Mutex // one refresh at a time: SetTools must not interleave
	mu         sync.Mutex
	signature  string                         // of the downstream tools/resources last set
	routes     map[string]route               // namespaced tool → downstream
	resRoutes  map[string]resourceRoute       // prefixed URI → downstream
	authRoutes map[string]map[string]mcp.Tool // forward_auth server → tools seen
	stopWatch  func()
	// refresher rebuilds the re-exposed tools and resources in the
	// background when the orchestrator reports a change (a notification
	// arrives on a transport's reader, which must not wait); changes during
	// a rebuild cause one more.
	refresher *coalesce.Runner
	closed    bool
	wg        sync.WaitGroup
}

// route is a re-exposed downstream tool.
type route struct {
	server, tool string
	def          mcp.Tool
	forwardAuth  bool
}

// resourceRoute is a re-exposed downstream resource.
type resourceRoute struct {
	server, uri string
}

// Option configures New.
type Option func(*Gateway)

// WithOfflineGenerator sets the generator that answers when sampling the
// client's model fails (default: the orchestrator's built-in planner).
func WithOfflineGenerator(g sqlgen.Generator) Option { return func(gw *Gateway) { gw.offline = g } }

// WithWebhookClient sets the HTTP client of approval webhooks.
func WithWebhookClient(c *http.Client) Option { return func(gw *Gateway) { gw.webhook = c } }

// New builds the gateway over orch with cfg's gateway, http (limits) and
// per-server settings. Close it when done.
func New(orch Orchestrator, cfg *config.Config, logger *slog.Logger, opts ...Option) *Gateway {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	g := &Gateway{
		orch:       orch,
		cfg:        cfg,
		log:        logger.With("component", "gateway"),
		limits:     newLimiters(cfg),
		runs:       newRuns(),
		routes:     map[string]route{},
		resRoutes:  map[string]resourceRoute{},
		authRoutes: map[string]map[string]mcp.Tool{},
		webhook:    &http.Client{},
	}
	_, _ = rand.Read(g.secret[:])
	for _, o := range opts {
		o(g)
	}
	if g.offline == nil {
		g.offline = orch.OfflineGenerator()
	}
	g.search = newSearchIndex(g)
	g.srv = server.NewMCPServer(ServerName, Version,
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(false, true),
		server.WithLogging(),
		server.WithRecovery(),
		server.WithToolFilter(g.filterTools),
		server.WithInstructions("talk2tables answers business questions with SQL over the user's own database. "+
			"Call ask with a question in plain language; run_sql runs read-only SQL; health shows the servers. "+
			"Downstream tools are named <server>__<tool>; search finds tools, resources, tables, columns and "+
			"catalog entities by keywords, and execute calls any downstream tool by its namespaced name."),
	)
	g.srv.AddTools(g.ownTools()...)
	g.refresh()
	g.refresher = coalesce.New(g.refresh)
	g.stopWatch = orch.Watch(func(mcpclient.Change) { g.refresher.Request() })
	return g
}

// MCPServer returns the mcp-go server (for stdio, in-process clients and
// the HTTP handlers).
func (g *Gateway) MCPServer() *server.MCPServer { return g.srv }

// Close stops watching the orchestrator and stops questions still waiting
// on a client's model. It does not close the orchestrator.
func (g *Gateway) Close() {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return
	}
	g.closed = true
	g.mu.Unlock()
	g.stopWatch()
	g.refresher.Stop()
	g.runs.closeAll()
	if g.tasks != nil {
		g.tasks.Close()
	}
	g.wg.Wait()
}

// refresh sets the MCP server's tools and resources from the downstream
// servers; clients hear tools/list_changed and resources/list_changed only
// when something changed.
func (g *Gateway) refresh() {
	g.refreshMu.Lock()
	defer g.refreshMu.Unlock()
	downs := g.orch.Downstreams()
	routes := map[string]route{}
	resRoutes := map[string]resourceRoute{}
	var sig strings.Builder
	for _, d := range downs {
		if d.ForwardAuth || d.State != mcpclient.StateConnected {
			continue
		}
		for _, t := range d.Tools {
			name := namespaced(d.ID, t.Name)
			if why := g.cfg.Gateway.ToolAllowed(name, isDestructive(t)); why != "" {
				continue
			}
			routes[name] = route{server: d.ID, tool: t.Name, def: t}
			sig.WriteString("t:" + name + "\x00" + t.Description + "\x00")
		}
		for _, r := range d.Resources {
			uri := prefixedURI(d.ID, r.URI)
			resRoutes[uri] = resourceRoute{server: d.ID, uri: r.URI}
			sig.WriteString("r:" + uri + "\x00")
		}
	}
	g.mu.Lock()
	for id, tools := range g.authRoutes {
		for name, t := range tools {
			routes[name] = route{server: id, tool: strings.TrimPrefix(name, id+"__"), def: t, forwardAuth: true}
			sig.WriteString("a:" + name + "\x00")
		}
	}
	if sig.String() == g.signature {
		g.mu.Unlock()
		return
	}
	g.signature = sig.String()
	g.routes, g.resRoutes = routes, resRoutes
	g.mu.Unlock()
	g.search.markDirty()

	tools := g.ownTools()
	if g.cfg.Gateway.Expose == config.ExposeAll {
		names := make([]string, 0, len(routes))
		for n := range routes {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			tools = append(tools, server.ServerTool{Tool: exposedTool(n, routes[n]), Handler: g.handleDownstream})
		}
	}
	g.srv.SetTools(tools...)
	resources := make([]server.ServerResource, 0, len(resRoutes))
	for _, d := range downs {
		if d.ForwardAuth || d.State != mcpclient.StateConnected {
			continue
		}
		for _, r := range d.Resources {
			res := r
			res.URI = prefixedURI(d.ID, r.URI)
			res.Name = d.ID + ": " + r.Name
			resources = append(resources, server.ServerResource{Resource: res, Handler: g.handleResource})
		}
	}
	if g.teacher != nil {
		resources = append(resources, g.verifiedResource())
	}
	g.srv.SetResources(resources...)
	g.log.Info("gateway tools refreshed", "event", "gateway_tools_refreshed", "tools", len(tools),
		"downstream_tools", len(routes), "resources", len(resources))
}

// ownTools are the gateway's built-in tools, with verify when verified
// questions are on.
func (g *Gateway) ownTools() []server.ServerTool {
	tools := g.builtinTools()
	if g.teacher != nil {
		tools = append(tools, g.verifyTool())
	}
	return tools
}

// routeOf returns the downstream of a namespaced tool name.
func (g *Gateway) routeOf(name string) (route, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	r, ok := g.routes[name]
	return r, ok
}

// namespaced is the name a downstream tool is re-exposed under.
func namespaced(serverID, tool string) string { return serverID + "__" + tool }

// prefixedURI is the URI a downstream resource is re-exposed under:
// t2t://<server id>/<original URI>.
func prefixedURI(serverID, uri string) string { return "t2t://" + serverID + "/" + uri }

// isDestructive applies MCP's annotation defaults to a downstream tool.
func isDestructive(t mcp.Tool) bool {
	return config.IsDestructive(t.Annotations.ReadOnlyHint, t.Annotations.DestructiveHint)
}

// exposedTool is a downstream tool's definition under its namespaced name.
func exposedTool(name string, r route) mcp.Tool {
	t := r.def
	t.Name = name
	if t.Title == "" && t.Annotations.Title == "" {
		t.Title = r.tool + " (" + r.server + ")"
	}
	t.Description = "[" + r.server + "] " + t.Description
	return t
}

// callTimeout bounds a call the gateway makes for a client that has no
// deadline of its own.
func (g *Gateway) callTimeout() time.Duration { return g.cfg.Orchestration.QueryTimeout }
