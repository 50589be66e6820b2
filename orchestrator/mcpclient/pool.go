// Package mcpclient holds talk2tables' sessions with the MCP servers it is
// configured with: transports (stdio children, SSE, streamable HTTP,
// in-process), bounded reads, liveness and reconnection, OAuth tokens,
// per-caller forward_auth sessions, routing of tool calls and
// notifications. Nothing above it dials a server.
package mcpclient

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"talk2tables/coalesce"
	"talk2tables/config"
)

// Pool is a session with every configured MCP server. It is safe for
// concurrent use.
type Pool struct {
	cfg     *config.Config
	log     *slog.Logger
	metrics Metrics
	hooks   Hooks

	conns   map[string]*Conn
	ordered []*Conn // by priority, then id

	inProcess   map[string]*server.MCPServer
	childStderr io.Writer
	backoffMin  time.Duration
	backoffMax  time.Duration

	// done is closed by Close: the sessions and the background work
	// (reconnects, pings, refreshes) end with it (see background).
	done      chan struct{}
	wg        sync.WaitGroup
	isClosed  atomic.Bool
	closeOnce sync.Once

	// authServers are the forward_auth servers: one session per caller
	// token, opened on demand (downstream.go).
	authServers map[string]*authServer
	watchMu     sync.Mutex
	watchers    map[int]func(Change)
	watchSeq    int
	// progressRoutes maps the progress token of a gateway call to its
	// callback (downstream.go).
	progressRoutes sync.Map
	progressSeq    atomic.Uint64
	// oauth holds the token source of each server with oauth configured.
	oauth map[string]*oauthSource
}

// Metrics records what the pool observes; the orchestrator's Prometheus
// collectors implement it.
type Metrics interface {
	ObserveMCP(server, method string, d time.Duration)
}

// Hooks tell the layers above the pool what happened to a server. Each may
// be nil.
type Hooks struct {
	// Connected runs after a server (re)connected: it may serve other
	// resources and data than before.
	Connected func(c *Conn)
	// Invalidated runs when what was read from a server can no longer be
	// trusted: its session was lost, or a call to it failed.
	Invalidated func(c *Conn)
	// ResourcesChanged runs when a server said its resources changed
	// (notifications coalesced, see changeCoalesce).
	ResourcesChanged func(c *Conn)
	// ProbeDatabase checks an executor's database: that it still runs a
	// statement (see Conn.SetDown), and once it does, the statement that
	// found it broken (see Conn.SetFault). It runs after each answered
	// ping of an executor, and when an executor says its resources
	// changed.
	ProbeDatabase func(ctx context.Context, c *Conn)
}

// Options configure New.
type Options struct {
	// InProcess are the servers of transport "inprocess", by config id.
	InProcess map[string]*server.MCPServer
	// ChildStderr receives what stdio children write on stderr that is
	// already a JSON log line.
	ChildStderr io.Writer
	// BackoffMin and BackoffMax bound the reconnect backoff (default 200ms
	// and 30s).
	BackoffMin, BackoffMax time.Duration
	Metrics                Metrics
	Hooks                  Hooks
}

type noMetrics struct{}

func (noMetrics) ObserveMCP(string, string, time.Duration) {}

// New prepares a session with every configured server; Connect opens them.
// cfg must be valid (config.Config.Validate).
func New(cfg *config.Config, logger *slog.Logger, opts Options) *Pool {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	p := &Pool{
		cfg:         cfg,
		log:         logger,
		metrics:     opts.Metrics,
		hooks:       opts.Hooks,
		conns:       map[string]*Conn{},
		authServers: map[string]*authServer{},
		oauth:       map[string]*oauthSource{},
		watchers:    map[int]func(Change){},
		done:        make(chan struct{}),
		inProcess:   opts.InProcess,
		childStderr: opts.ChildStderr,
		backoffMin:  cmp.Or(opts.BackoffMin, backoffMin),
		backoffMax:  cmp.Or(opts.BackoffMax, backoffMax),
	}
	if p.metrics == nil {
		p.metrics = noMetrics{}
	}
	h := &p.hooks
	for _, f := range []*func(*Conn){&h.Connected, &h.Invalidated, &h.ResourcesChanged} {
		if *f == nil {
			*f = func(*Conn) {}
		}
	}
	if h.ProbeDatabase == nil {
		h.ProbeDatabase = func(context.Context, *Conn) {}
	}
	for id, sc := range cfg.MCPServers {
		if sc.ForwardAuth {
			p.authServers[id] = newAuthServer(p, id, sc)
			continue
		}
		if sc.OAuth != nil {
			p.oauth[id] = newOAuthSource(id, sc, logger.With("mcp_server", id))
		}
		c := &Conn{id: id, cfg: sc, p: p, state: StateDisconnected, log: logger.With("mcp_server", id)}
		c.toolsRefresh = coalesce.New(c.refreshJob(func(ctx context.Context) { _ = c.refreshTools(ctx) }))
		c.resourcesRefresh = coalesce.New(c.refreshJob(c.refreshResources))
		p.conns[id] = c
	}
	p.ordered = sortedConns(p.conns)
	return p
}

// Connect connects to every server in parallel. A required server
// (config.Config.Required) that cannot be reached is an *MCPConnectionError
// (Phase "initial"); any other is marked failed and retried in the
// background. Pings start when every server was tried.
func (p *Pool) Connect(ctx context.Context) error {
	var wg sync.WaitGroup
	errs := make([]error, len(p.ordered))
	for i, c := range p.ordered {
		wg.Go(func() { errs[i] = c.connect(ctx) })
	}
	wg.Wait()
	for i, c := range p.ordered {
		if errs[i] == nil {
			continue
		}
		if p.cfg.Required(c.id) {
			return &MCPConnectionError{Server: c.id, Phase: PhaseInitial, Err: errs[i]}
		}
		c.startReconnect()
	}
	if iv := p.cfg.Orchestration.PingInterval; iv > 0 {
		p.wg.Go(func() { p.pingLoop(iv) })
	}
	return nil
}

// background returns a context for work that outlives the request that
// started it (a session, a reconnect, a ping, a refresh): it ends when
// the pool closes, or when stop is called.
func (p *Pool) background() (ctx context.Context, stop context.CancelFunc) {
	ctx, stop = context.WithCancel(context.Background())
	go func() {
		select {
		case <-p.done:
			stop()
		case <-ctx.Done():
		}
	}()
	return ctx, stop
}

// closed reports whether Close was called.
func (p *Pool) closed() bool { return p.isClosed.Load() }

// Close ends every session (stdio children are reaped), stops reconnects
// and pings. It is idempotent.
func (p *Pool) Close() {
	p.closeOnce.Do(func() {
		p.isClosed.Store(true)
		close(p.done)
		var wg sync.WaitGroup
		for _, c := range p.ordered {
			wg.Go(c.close)
			wg.Go(c.toolsRefresh.Stop)
			wg.Go(c.resourcesRefresh.Stop)
		}
		for _, a := range p.authServers {
			wg.Go(a.close)
		}
		wg.Wait()
		p.wg.Wait()
	})
}

// Conn returns the server with config id, or nil (forward_auth servers
// have no Conn: they have a session per caller).
func (p *Pool) Conn(id string) *Conn { return p.conns[id] }

// Conns returns every server but the forward_auth ones, by priority, then
// id. The slice must not be changed.
func (p *Pool) Conns() []*Conn { return p.ordered }

// ServerStatus is one server as /health and the API show it.
type ServerStatus struct {
	ID, Name, Transport string
	State               string // disconnected | initializing | connected | failed
	Priority            int
	Domains             []string
	Capabilities        []string
	Tools               []string
	Resources           []string
	LastError           string
	LastContact         time.Time
	Required            bool
	// UnresponsiveSince is set while the server is unresponsive.
	UnresponsiveSince time.Time
	// DatabaseError is an executor's database failure (DATABASE_ERROR)
	// since DatabaseErrorSince, until a statement runs again.
	DatabaseError      string
	DatabaseErrorSince time.Time
	// SchemaSource says where an executor's schema comes from: its
	// resource, discovered through its SQL or search tool, or "" (none).
	SchemaSource string
}

// Servers returns every configured server by priority.
func (p *Pool) Servers() []ServerStatus {
	out := make([]ServerStatus, len(p.ordered))
	for i, c := range p.ordered {
		out[i] = c.Status()
	}
	return out
}

// required reports whether the service is degraded without c (see
// config.Config.Required).
func (p *Pool) required(c *Conn) bool { return p.cfg.Required(c.id) }

// Executors lists the ids of the configured executors (servers with
// capability execute_query), by priority: the first answers /api/sql and
// run_sql when no server is named.
func (p *Pool) Executors() []string {
	var out []string
	for _, c := range p.ordered {
		if c.cfg.HasCapability(config.CapExecuteQuery) {
			out = append(out, c.id)
		}
	}
	return out
}

// SeveralExecutors reports whether servers (as Servers returns them) hold
// more than one executor: answers then say which database answered.
func SeveralExecutors(servers []ServerStatus) bool {
	n := 0
	for _, s := range servers {
		if slices.Contains(s.Capabilities, config.CapExecuteQuery) {
			n++
		}
	}
	return n > 1
}

// UnknownExecutorError says a request named a server that is not one of
// the configured executors.
type UnknownExecutorError struct {
	Server    string
	Executors []string // the configured executors, by priority
}

func (e *UnknownExecutorError) Error() string {
	return fmt.Sprintf("%q is not a database server of this configuration; name one of %s (or leave server out for %q)",
		e.Server, quotedList(e.Executors), first(e.Executors))
}

func quotedList(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}

func first(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}

// ExecutorNamed returns the executor with config id server: an
// *UnknownExecutorError when there is none, an *MCPConnectionError when it
// is not connected.
func (p *Pool) ExecutorNamed(server string) (*Conn, error) {
	c, ok := p.conns[server]
	if !ok || !c.cfg.HasCapability(config.CapExecuteQuery) {
		return nil, &UnknownExecutorError{Server: server, Executors: p.Executors()}
	}
	if c.State() != StateConnected {
		c.mu.Lock()
		err := c.lastErr
		c.mu.Unlock()
		if err == nil {
			err = fmt.Errorf("not connected")
		}
		return nil, &MCPConnectionError{Server: c.id, Phase: PhaseLost, Err: err}
	}
	return c, nil
}

// ms converts a duration to fractional milliseconds for logs.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
