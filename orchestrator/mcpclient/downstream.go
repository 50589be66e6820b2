package mcpclient

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"golang.org/x/sync/singleflight"

	"talk2tables/config"
)

// This file is what the gateway (talk2tables as an MCP server) needs from
// the orchestrator: every downstream server's tool and resource
// definitions, calls to them, and word when they change.

// Kinds of Change.
const (
	ChangeTools     = "tools"     // the server's tool list changed
	ChangeResources = "resources" // the server's resource list changed
	ChangeState     = "state"     // the server connected or was lost
)

// Change says a downstream server's tools, resources or state changed.
type Change struct {
	Server string
	Kind   string // ChangeTools | ChangeResources | ChangeState
}

// Watch calls fn on every Change until the returned stop is called. fn runs
// on the goroutine that noticed the change and must not block.
func (p *Pool) Watch(fn func(Change)) (stop func()) {
	p.watchMu.Lock()
	p.watchSeq++
	id := p.watchSeq
	p.watchers[id] = fn
	p.watchMu.Unlock()
	return func() {
		p.watchMu.Lock()
		delete(p.watchers, id)
		p.watchMu.Unlock()
	}
}

func (p *Pool) notifyChange(ch Change) {
	p.watchMu.Lock()
	fns := make([]func(Change), 0, len(p.watchers))
	for _, fn := range p.watchers {
		fns = append(fns, fn)
	}
	p.watchMu.Unlock()
	for _, fn := range fns {
		fn(ch)
	}
}

// Downstream is one configured MCP server as the gateway re-exposes it.
type Downstream struct {
	ID, Name string
	Priority int
	State    string // disconnected | initializing | connected | failed | on_demand
	// ForwardAuth servers are reached with each caller's own token: their
	// tools and resources are listed per caller (AuthTools).
	ForwardAuth bool
	Tools       []mcp.Tool
	Resources   []mcp.Resource
	LastError   string
}

// StateOnDemand is the state of a forward_auth server: it has a session
// per caller token, opened when a caller needs it.
const StateOnDemand = "on_demand"

// Downstreams returns every configured server with its tool and resource
// definitions: the connected ones by priority, then the forward_auth ones
// (without tools: those depend on the caller).
func (p *Pool) Downstreams() []Downstream {
	out := make([]Downstream, 0, len(p.ordered)+len(p.authServers))
	for _, c := range p.ordered {
		c.mu.Lock()
		d := Downstream{ID: c.id, Name: c.cfg.Name, Priority: c.cfg.Priority, State: c.state,
			Tools: append([]mcp.Tool(nil), c.toolDefs...), Resources: append([]mcp.Resource(nil), c.resourceDefs...)}
		if c.lastErr != nil {
			d.LastError = c.lastErr.Error()
		}
		c.mu.Unlock()
		out = append(out, d)
	}
	ids := make([]string, 0, len(p.authServers))
	for id := range p.authServers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		a := p.authServers[id]
		d := Downstream{ID: id, Name: a.cfg.Name, Priority: a.cfg.Priority, State: StateOnDemand, ForwardAuth: true}
		if err := a.lastError(); err != nil {
			d.LastError = err.Error()
		}
		out = append(out, d)
	}
	return out
}

// CallOptions tune CallTool and ReadResource.
type CallOptions struct {
	// Authorization is the caller's Authorization header, sent to
	// forward_auth servers (never logged).
	Authorization string
	// Progress, when set, receives the server's progress notifications
	// for this call.
	Progress func(progress, total float64, message string)
}

// ErrUnknownServer says no server has the id.
var ErrUnknownServer = errors.New("no such mcp server")

// ErrNoAuthorization says a forward_auth server was called without the
// caller's Authorization header.
var ErrNoAuthorization = errors.New("this server is reached with the caller's own credentials: send an Authorization header (over HTTP)")

// CallTool calls tool on the server with id serverID. A tool failure is a
// result with IsError; an error means the call could not be made.
func (p *Pool) CallTool(ctx context.Context, serverID, tool string, args any, opts CallOptions) (*mcp.CallToolResult, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	if opts.Progress != nil {
		token, done := p.progressRoute(opts.Progress)
		defer done()
		req.Params.Meta = &mcp.Meta{ProgressToken: token}
	}
	if a, ok := p.authServers[serverID]; ok {
		var res *mcp.CallToolResult
		err := a.call(ctx, opts.Authorization, "tools/call:"+tool, func(ctx context.Context, cl *client.Client) error {
			var err error
			res, err = cl.CallTool(ctx, req)
			return err
		})
		return res, err
	}
	c, ok := p.conns[serverID]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownServer, serverID)
	}
	var res *mcp.CallToolResult
	err := c.Call(ctx, "tools/call:"+tool, func(ctx context.Context, cl *client.Client) error {
		var err error
		res, err = cl.CallTool(ctx, req)
		return err
	})
	return res, err
}

// ReadResource reads uri from the server with id serverID.
func (p *Pool) ReadResource(ctx context.Context, serverID, uri string, opts CallOptions) ([]mcp.ResourceContents, error) {
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	var res *mcp.ReadResourceResult
	read := func(ctx context.Context, cl *client.Client) error {
		var err error
		res, err = cl.ReadResource(ctx, req)
		return err
	}
	var err error
	if a, ok := p.authServers[serverID]; ok {
		err = a.call(ctx, opts.Authorization, "resources/read", read)
	} else if c, ok := p.conns[serverID]; ok {
		err = c.Call(ctx, "resources/read", read)
	} else {
		return nil, fmt.Errorf("%w %q", ErrUnknownServer, serverID)
	}
	if err != nil {
		return nil, err
	}
	return res.Contents, nil
}

// AuthTools returns the tools and resources the forward_auth server offers
// the caller holding authorization (one session per token, cached).
func (p *Pool) AuthTools(ctx context.Context, serverID, authorization string) ([]mcp.Tool, []mcp.Resource, error) {
	a, ok := p.authServers[serverID]
	if !ok {
		return nil, nil, fmt.Errorf("%w %q with forward_auth", ErrUnknownServer, serverID)
	}
	s, err := a.session(ctx, authorization)
	if err != nil {
		return nil, nil, err
	}
	return s.tools, s.resources, nil
}

// progressRoute registers fn for progress notifications carrying the
// returned token; done unregisters it.
func (p *Pool) progressRoute(fn func(progress, total float64, message string)) (string, func()) {
	token := "t2t-" + strconv.FormatUint(p.progressSeq.Add(1), 10)
	p.progressRoutes.Store(token, fn)
	return token, func() { p.progressRoutes.Delete(token) }
}

// routeProgress hands a downstream progress notification to its caller.
func (p *Pool) routeProgress(n mcp.JSONRPCNotification) {
	token := fmt.Sprint(n.Params.AdditionalFields["progressToken"])
	fn, ok := p.progressRoutes.Load(token)
	if !ok {
		return
	}
	num := func(k string) float64 {
		f, _ := n.Params.AdditionalFields[k].(float64)
		return f
	}
	msg, _ := n.Params.AdditionalFields["message"].(string)
	fn.(func(float64, float64, string))(num("progress"), num("total"), msg)
}

// refreshResources replaces the server's resource list with a fresh one.
func (c *Conn) refreshResources(ctx context.Context) {
	_, gen, ok := c.current()
	if !ok {
		return
	}
	list, err := c.ListResources(ctx)
	if err != nil {
		c.log.Warn("resource list refresh failed", "event", "error_occurred", "component", "mcp_client",
			"error", err.Error())
		return
	}
	uris := make([]string, len(list))
	for i, r := range list {
		uris[i] = r.URI
	}
	c.mu.Lock()
	if c.gen != gen || c.state != StateConnected {
		c.mu.Unlock()
		return
	}
	c.resources, c.resourceDefs = uris, list
	c.mu.Unlock()
	c.log.Info("resource list refreshed", "event", "resource_list_received", "component", "mcp_client",
		"resources", uris)
	c.p.notifyChange(Change{Server: c.id, Kind: ChangeResources})
}

// authServer is a forward_auth server: one MCP session per caller token,
// kept in an LRU with a TTL; a session is closed when it is evicted.
type authServer struct {
	p        *Pool
	id       string
	cfg      config.ServerConfig
	log      *slog.Logger
	sessions *expirable.LRU[string, *authSession]
	sf       singleflight.Group
	opened   atomic.Int64

	mu      sync.Mutex
	lastErr error
}

// authSession is one caller's session with a forward_auth server.
type authSession struct {
	client    *client.Client
	tools     []mcp.Tool
	resources []mcp.Resource
	end       context.CancelFunc // ends the context the session lives on
}

func newAuthServer(p *Pool, id string, cfg config.ServerConfig) *authServer {
	a := &authServer{p: p, id: id, cfg: cfg, log: p.log.With("mcp_server", id)}
	g := p.cfg.Gateway.AuthSessions
	a.sessions = expirable.NewLRU(g.Max, func(_ string, s *authSession) {
		// Evicted (LRU, TTL, or a broken session): close it off the
		// cache's lock.
		p.wg.Go(func() {
			_ = s.client.Close()
			s.end()
		})
		a.log.Info("caller session closed", "event", "mcp_connection_closed", "component", "mcp_client")
	}, g.TTL)
	return a
}

// SessionsOpened returns how many per-caller sessions the forward_auth
// server serverID has opened so far (0 for other servers).
func (p *Pool) SessionsOpened(serverID string) int64 {
	if a, ok := p.authServers[serverID]; ok {
		return a.opened.Load()
	}
	return 0
}

func (a *authServer) lastError() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lastErr
}

// tokenKey identifies a caller's session without keeping the token in
// clear as a map key.
func tokenKey(authorization string) string {
	h := sha256.Sum256([]byte(authorization))
	return hex.EncodeToString(h[:])
}

// session returns the caller's session, opening it (once, however many
// callers wait) when there is none.
func (a *authServer) session(ctx context.Context, authorization string) (*authSession, error) {
	if authorization == "" {
		return nil, &MCPConnectionError{Server: a.id, Phase: PhaseInitial, Err: ErrNoAuthorization}
	}
	key := tokenKey(authorization)
	if s, ok := a.sessions.Get(key); ok {
		return s, nil
	}
	ch := a.sf.DoChan(key, func() (any, error) {
		if s, ok := a.sessions.Get(key); ok {
			return s, nil
		}
		s, err := a.open(context.WithoutCancel(ctx), authorization)
		a.mu.Lock()
		a.lastErr = err
		a.mu.Unlock()
		if err != nil {
			return nil, err
		}
		a.sessions.Add(key, s)
		return s, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, &MCPConnectionError{Server: a.id, Phase: PhaseInitial, Err: r.Err}
		}
		return r.Val.(*authSession), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// open connects a session that sends authorization instead of the
// configured Authorization header.
func (a *authServer) open(ctx context.Context, authorization string) (*authSession, error) {
	if a.p.closed() {
		return nil, errClosed
	}
	start := time.Now()
	tc := &Conn{id: a.id, cfg: a.cfg, p: a.p, log: a.log, rawHeaders: map[string]string{"Authorization": authorization}}
	ctx, cancel := context.WithTimeout(ctx, a.p.cfg.CallTimeout(a.cfg))
	defer cancel()
	// The session lives on a context of its own, never on a request's.
	sctx, endSession := a.p.background()
	opened := false
	defer func() {
		if !opened {
			endSession()
		}
	}()
	cl, _, err := tc.newClient(sctx)
	if err != nil {
		return nil, err
	}
	cl.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationProgress) {
			a.p.routeProgress(n)
		}
	})
	if err := cl.Start(sctx); err != nil {
		_ = cl.Close()
		return nil, fmt.Errorf("start %s transport: %w", a.cfg.Transport, err)
	}
	res, err := initialize(ctx, cl, "talk2tables-gateway")
	if err != nil {
		_ = cl.Close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	s := &authSession{client: cl, end: endSession}
	if s.tools, s.resources, err = listAll(ctx, cl, res.Capabilities); err != nil {
		_ = cl.Close()
		return nil, err
	}
	a.opened.Add(1)
	opened = true
	a.log.Info("caller session established", "event", "mcp_connection_established", "component", "mcp_client",
		"duration_ms", ms(time.Since(start)), "tools", toolNames(s.tools))
	return s, nil
}

// call runs fn on the caller's session under the per-call timeout; a
// transport failure drops the session so the next call opens a new one.
func (a *authServer) call(ctx context.Context, authorization, method string, fn func(ctx context.Context, cl *client.Client) error) error {
	s, err := a.session(ctx, authorization)
	if err != nil {
		return err
	}
	timeout := a.p.cfg.CallTimeout(a.cfg)
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	err = fn(cctx, s.client)
	a.p.metrics.ObserveMCP(a.id, method, time.Since(start))
	if err == nil || ctx.Err() != nil {
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		err = &CallTimeoutError{What: method, Timeout: timeout}
	}
	if isTransportFailure(err) {
		a.sessions.Remove(tokenKey(authorization))
		return &MCPConnectionError{Server: a.id, Phase: PhaseLost, Err: err}
	}
	return err
}

// close closes every caller session.
func (a *authServer) close() { a.sessions.Purge() }
