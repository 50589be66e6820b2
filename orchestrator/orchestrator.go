// Package orchestrator is the MCP client side of talk2tables: it connects
// to every ranked MCP server, gathers and caches their resources, asks a
// Generator for SQL, validates and runs it on the executor server, and
// repairs failures by category.
package orchestrator

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/config"
	"talk2tables/orchestrator/builtin"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/resources"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/orchestrator/verified"
)

// Orchestrator answers questions with the configured MCP servers and a SQL
// generator. It is safe for concurrent use.
type Orchestrator struct {
	cfg    *config.Config
	log    *slog.Logger
	gen    sqlgen.Generator
	ownGen bool // gen was built by New from the llm config (Close tidies it)
	// offline is the built-in planner: gen itself or gen's fallback when
	// New built gen, and the gateway's sampling fallback (one model cache).
	offline *builtin.Generator
	metrics *Metrics

	clients *mcpclient.Pool
	cache   *resources.Cache
	exec    *executor.Executor

	// pool are the options of the MCP client pool (Option sets them).
	pool mcpclient.Options

	baseMu sync.Mutex
	base   *requestBase // last generator request base (see requestBase)

	// book holds the verified questions (nil: off); sweeps re-check them
	// when a database's schema changes (teach.go).
	book   *verified.Book
	sweeps sweeps

	closeOnce sync.Once
}

// Option configures New.
type Option func(*Orchestrator)

// WithGenerator uses g instead of the generator the llm config selects.
func WithGenerator(g sqlgen.Generator) Option { return func(o *Orchestrator) { o.gen = g } }

// WithMetrics records Prometheus metrics in m.
func WithMetrics(m *Metrics) Option { return func(o *Orchestrator) { o.metrics = m } }

// WithInProcessServer attaches s as the server with config id; its config
// entry must use transport "inprocess". For tests and embedders.
func WithInProcessServer(id string, s *server.MCPServer) Option {
	return func(o *Orchestrator) { o.pool.InProcess[id] = s }
}

// WithChildStderr sends the stderr of stdio children to w (default
// os.Stderr, so their logs join the process's).
func WithChildStderr(w io.Writer) Option { return func(o *Orchestrator) { o.pool.ChildStderr = w } }

// withBackoff sets the reconnect backoff bounds (tests).
func withBackoff(lo, hi time.Duration) Option {
	return func(o *Orchestrator) { o.pool.BackoffMin, o.pool.BackoffMax = lo, hi }
}

// New connects to every configured server in parallel. A required server
// (config.Config.Required) that cannot be reached fails New with an
// *mcpclient.MCPConnectionError (Phase "initial"); any other is marked
// failed and retried in the background.
func New(ctx context.Context, cfg *config.Config, logger *slog.Logger, opts ...Option) (*Orchestrator, error) {
	if cfg == nil {
		return nil, errors.New("orchestrator: nil config")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	o := &Orchestrator{
		cfg:  cfg,
		log:  logger,
		pool: mcpclient.Options{InProcess: map[string]*server.MCPServer{}, ChildStderr: os.Stderr},
	}
	for _, opt := range opts {
		opt(o)
	}
	o.offline = builtin.New(logger)
	if o.gen == nil {
		g, err := newGenerator(cfg.LLMSettings(), logger, o.offline)
		if err != nil {
			return nil, err
		}
		o.gen, o.ownGen = g, true
	}
	if c, ok := o.gen.(interface{ OnCircuitChange(func(string)) }); ok {
		c.OnCircuitChange(o.metrics.circuitState)
	}
	o.pool.Metrics = o.metrics
	o.pool.Hooks = mcpclient.Hooks{
		Connected: func(c *mcpclient.Conn) {
			o.cache.Invalidate(c.ID())
			o.exec.DataChanged(c.ID(), false)
		},
		Invalidated: func(c *mcpclient.Conn) { o.cache.Invalidate(c.ID()) },
		// A new database or catalog may be behind the change: every
		// cached SQL result goes too.
		ResourcesChanged: func(c *mcpclient.Conn) {
			o.cache.Invalidate(c.ID())
			o.exec.DataChanged(c.ID(), true)
		},
		ProbeDatabase: func(ctx context.Context, c *mcpclient.Conn) { o.exec.ProbeDatabase(ctx, c) },
	}
	o.exec = executor.New(cfg, o.metrics)
	o.clients = mcpclient.New(cfg, logger, o.pool)
	o.cache = resources.New(o.clients, o.exec, cfg, logger, o.metrics)
	if err := o.clients.Connect(ctx); err != nil {
		o.Close()
		return nil, err
	}
	return o, nil
}

// Close ends every session (stdio children are reaped), stops reconnects
// and pings. It is idempotent.
func (o *Orchestrator) Close() error {
	o.closeOnce.Do(func() {
		o.sweeps.stop()
		o.clients.Close()
		if o.ownGen {
			// The LLM client's keep-alive pool: its connection goroutines
			// would otherwise linger until the idle timeout.
			sqlgen.CloseIdleConnections(o.gen)
		}
	})
	return nil
}

// Servers returns every configured server by priority.
func (o *Orchestrator) Servers() []mcpclient.ServerStatus { return o.clients.Servers() }

// Health summarizes the servers' states (see mcpclient.Pool.Health).
func (o *Orchestrator) Health() mcpclient.Health { return o.clients.Health() }

// Executors lists the ids of the configured executors by priority (see
// mcpclient.Pool.Executors).
func (o *Orchestrator) Executors() []string { return o.clients.Executors() }

// RoutingTable maps every reachable tool name to the server id answering
// it (see mcpclient.Pool.RoutingTable).
func (o *Orchestrator) RoutingTable() map[string]string { return o.clients.RoutingTable() }

// GeneratorName names the generator answering questions.
func (o *Orchestrator) GeneratorName() string { return o.gen.Name() }

// OfflineGenerator is the built-in planner the orchestrator answers with
// offline (its generator, or that generator's fallback), for a face that
// needs one of its own kind of fallback (the gateway, when the client's
// model cannot answer): one model cache serves both.
func (o *Orchestrator) OfflineGenerator() sqlgen.Generator { return o.offline }

// ResourceSnapshot is one server's resources as last gathered.
type ResourceSnapshot struct {
	ServerID   string         `json:"server_id"`
	Name       string         `json:"name"`
	Priority   int            `json:"priority"`
	Resources  map[string]any `json:"resources"`
	FetchedAt  time.Time      `json:"fetched_at"`
	AgeSeconds float64        `json:"age_seconds"`
	Error      string         `json:"error,omitempty"`
}

// Resources returns every server's resources (through the cache), by
// priority; a server that is down or failing carries Error instead.
func (o *Orchestrator) Resources(ctx context.Context) ([]ResourceSnapshot, error) {
	out := make([]ResourceSnapshot, len(o.clients.Conns()))
	var wg sync.WaitGroup
	for i, c := range o.clients.Conns() {
		out[i] = ResourceSnapshot{ServerID: c.ID(), Name: c.Config().Name, Priority: c.Config().Priority}
		wg.Go(func() {
			if st := c.State(); st != mcpclient.StateConnected {
				out[i].Error = "server is " + st
				return
			}
			if !resources.Gathers(c) {
				out[i].Resources = map[string]any{}
				return
			}
			snap, _, err := o.cache.Get(ctx, c, "")
			if err != nil {
				out[i].Error = err.Error()
				return
			}
			out[i].Resources = snap.Resources
			out[i].FetchedAt = snap.FetchedAt
			out[i].AgeSeconds = time.Since(snap.FetchedAt).Seconds()
		})
	}
	wg.Wait()
	return out, ctx.Err()
}

// The gateway's view of the downstream servers (see mcpclient.Pool).

// Watch calls fn on every change of a downstream server until stop is
// called (see mcpclient.Pool.Watch).
func (o *Orchestrator) Watch(fn func(mcpclient.Change)) (stop func()) { return o.clients.Watch(fn) }

// Downstreams returns every configured server with its tool and resource
// definitions (see mcpclient.Pool.Downstreams).
func (o *Orchestrator) Downstreams() []mcpclient.Downstream { return o.clients.Downstreams() }

// CallTool calls tool on the server with id serverID (see
// mcpclient.Pool.CallTool).
func (o *Orchestrator) CallTool(ctx context.Context, serverID, tool string, args any, opts mcpclient.CallOptions) (*mcp.CallToolResult, error) {
	return o.clients.CallTool(ctx, serverID, tool, args, opts)
}

// ReadResource reads uri from the server with id serverID (see
// mcpclient.Pool.ReadResource).
func (o *Orchestrator) ReadResource(ctx context.Context, serverID, uri string, opts mcpclient.CallOptions) ([]mcp.ResourceContents, error) {
	return o.clients.ReadResource(ctx, serverID, uri, opts)
}

// AuthTools returns the tools and resources the forward_auth server
// offers the caller holding authorization (see mcpclient.Pool.AuthTools).
func (o *Orchestrator) AuthTools(ctx context.Context, serverID, authorization string) ([]mcp.Tool, []mcp.Resource, error) {
	return o.clients.AuthTools(ctx, serverID, authorization)
}

// SessionsOpened returns how many per-caller sessions the forward_auth
// server serverID has opened so far.
func (o *Orchestrator) SessionsOpened(serverID string) int64 {
	return o.clients.SessionsOpened(serverID)
}
