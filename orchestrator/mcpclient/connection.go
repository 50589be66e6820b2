package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"talk2tables/coalesce"
	"talk2tables/config"
	"talk2tables/telemetry"
)

// Connection states of a server.
const (
	StateDisconnected = "disconnected"
	StateInitializing = "initializing"
	StateConnected    = "connected"
	StateFailed       = "failed"
	// StateUnresponsive: the session is up but the server does not answer
	// (its ping timed out); calls to it fail at once until a ping answers
	// again, or it is restarted (liveness.go).
	StateUnresponsive = "unresponsive"
)

// maxListPages bounds a paginated tools/resources listing.
const maxListPages = 100

// Reconnect backoff bounds.
const (
	backoffMin = 200 * time.Millisecond
	backoffMax = 30 * time.Second
)

// conn is one configured MCP server and its connection state machine:
// disconnected → initializing → connected → failed (→ initializing ...).
type Conn struct {
	id  string
	cfg config.ServerConfig
	p   *Pool
	log *slog.Logger

	mu           sync.Mutex
	state        string
	client       *client.Client
	gen          uint64 // bumped on every successful connect
	lastErr      error
	lastContact  time.Time
	caps         mcp.ServerCapabilities
	tools        []string // tool names as the server spells them
	resources    []string // resource URIs from the last listing
	toolDefs     []mcp.Tool
	resourceDefs []mcp.Resource
	cmd          *exec.Cmd
	// endSession ends the context the session's transport (and stdio
	// child) lives on, once its client is closed.
	endSession   context.CancelFunc
	stderr       *childStderr // the stdio child's stderr, for its last words
	reconnecting bool
	connectedAt  int // how many times it connected
	// toolsRefresh and resourcesRefresh re-list the server's tools and
	// resources after a list_changed notification (refreshJob).
	toolsRefresh     *coalesce.Runner
	resourcesRefresh *coalesce.Runner
	// rawHeaders are sent as they are (no ${VAR} expansion) over the
	// configured headers: a forward_auth caller's Authorization.
	rawHeaders map[string]string

	// Liveness (liveness.go): since when the server is unresponsive, the
	// calls in flight (aborted when it turns unresponsive), and a database
	// fault its executor reported.
	unresponsiveSince time.Time
	inflight          map[uint64]context.CancelCauseFunc
	inflightSeq       uint64
	fault             *dbFault
	// faultLogged: when a database failure was last logged at ERROR; a
	// failure again soon after (a database flapping while it stops) is a
	// WARN, so one outage is one ERROR line
	faultLogged time.Time
	sqlOK       time.Time // when a statement last ran on it (ClearFault)
	// subscribed are the resource URIs subscribed to in this session
	// (policy.go).
	subscribed map[string]bool
	// changes coalesces resource change notifications (policy.go).
	changes changeWindow
	// schemaSource says where the executor's schema comes from (discover.go).
	schemaSource string
}

// Status returns the server's ServerStatus.
func (c *Conn) Status() ServerStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := ServerStatus{
		ID: c.id, Name: c.cfg.Name, Transport: c.cfg.Transport, State: c.state,
		Priority: c.cfg.Priority, Domains: c.cfg.Domains, Capabilities: c.cfg.Capabilities,
		Tools: append([]string(nil), c.tools...), Resources: append([]string(nil), c.resources...),
		LastContact: c.lastContact, Required: c.p.required(c), SchemaSource: c.schemaSource,
	}
	if c.lastErr != nil {
		st.LastError = c.lastErr.Error()
	}
	if c.state == StateUnresponsive {
		st.UnresponsiveSince = c.unresponsiveSince
	}
	if c.fault != nil {
		st.DatabaseError = c.fault.message
		st.DatabaseErrorSince = c.fault.since
	}
	return st
}

// snapshot returns the client and its generation if connected.
func (c *Conn) current() (*client.Client, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.client, c.gen, c.state == StateConnected && c.client != nil
}

func (c *Conn) State() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

func (c *Conn) HasTool(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.tools {
		if t == name {
			return true
		}
	}
	return false
}

// PID returns the stdio child's process id, or 0.
func (c *Conn) PID() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil || c.cmd.Process == nil {
		return 0
	}
	return c.cmd.Process.Pid
}

// newClient builds (but does not start) the mcp-go client for the config;
// a stdio child lives on sctx. The returned function yields the stdio
// child's command once Start ran (nil for other transports).
func (c *Conn) newClient(sctx context.Context) (*client.Client, func() *exec.Cmd, error) {
	opts := append([]client.ClientOption{
		// Our servers and most third-party ones speak the initialize
		// handshake; pinning it skips the 5 s server/discover probe and keeps
		// ping and resources/subscribe available.
		client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION),
	}, telemetry.MCPClientOptions()...) // the trace context in each request's _meta
	switch c.cfg.Transport {
	case config.TransportStdio:
		// Children log like serve unless the server's own env says otherwise
		// (later entries win in exec's environment).
		env := make([]string, 0, len(c.cfg.Env)+2)
		env = append(env, config.EnvLogLevel+"="+c.p.cfg.Orchestration.LogLevel, config.EnvLogFormat+"="+c.p.cfg.Orchestration.LogFormat)
		for k, v := range c.cfg.Env {
			env = append(env, k+"="+os.ExpandEnv(v))
		}
		// Started here, not by the transport, so its stdout is read through
		// the message bound (stdio.go).
		t, getCmd, err := c.stdioTransport(sctx, env)
		if err != nil {
			return nil, nil, err
		}
		return client.NewClient(t, opts...), getCmd, nil
	case config.TransportSSE:
		t, err := transport.NewSSE(c.cfg.URL,
			transport.WithHeaders(c.headers()),
			transport.WithHeaderFunc(c.requestHeaders),
			transport.WithHTTPClient(boundedHTTPClient(c.p.cfg.MaxMessageBytes())),
			transport.WithSSELogger(c.log))
		if err != nil {
			return nil, nil, err
		}
		cl := client.NewClient(t, opts...)
		return cl, nil, nil
	case config.TransportStreamableHTTP:
		// No WithHTTPTimeout: it sets http.Client.Timeout, which also ends
		// the long-lived listening stream every mcp_call_timeout (then a
		// 1 s gap in which notifications are lost). Every request is
		// bounded by its context instead (dial, call).
		t, err := transport.NewStreamableHTTP(c.cfg.URL,
			transport.WithHTTPHeaders(c.headers()),
			transport.WithHTTPHeaderFunc(c.requestHeaders),
			transport.WithHTTPBasicClient(boundedHTTPClient(c.p.cfg.MaxMessageBytes())),
			transport.WithContinuousListening(),
			transport.WithHTTPLogger(c.log))
		if err != nil {
			return nil, nil, err
		}
		return client.NewClient(t, opts...), nil, nil
	case config.TransportInProcess:
		srv := c.p.inProcess[c.id]
		if srv == nil {
			return nil, nil, fmt.Errorf("transport inprocess: no in-process server registered for %q (use WithInProcessServer)", c.id)
		}
		cl, err := client.NewInProcessClientWithOptions(srv, opts...)
		return cl, nil, err
	}
	return nil, nil, fmt.Errorf("unknown transport %q", c.cfg.Transport)
}

// requestHeaders are the per-request headers of the HTTP transports: the
// OAuth token, and the trace context (traceparent) when tracing is on.
func (c *Conn) requestHeaders(ctx context.Context) map[string]string {
	h := c.oauthHeader(ctx)
	t := telemetry.HeaderFunc(ctx)
	if len(t) == 0 {
		return h
	}
	out := make(map[string]string, len(h)+len(t))
	maps.Copy(out, h)
	maps.Copy(out, t)
	return out
}

// headers returns the configured headers, expanded, with rawHeaders over
// them.
func (c *Conn) headers() map[string]string {
	h := expandHeaders(c.cfg.Headers)
	for k, v := range c.rawHeaders {
		for old := range h {
			if strings.EqualFold(old, k) {
				delete(h, old)
			}
		}
		h[k] = v
	}
	return h
}

// expandHeaders expands ${VAR} in header values from the environment.
func expandHeaders(h map[string]string) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		out[k] = os.ExpandEnv(v)
	}
	return out
}

// connect runs one connection attempt: start, initialize, discover.
// ctx bounds the handshake only; the client itself lives until Close.
func (c *Conn) connect(ctx context.Context) error {
	c.mu.Lock()
	if c.p.closed() {
		c.mu.Unlock()
		return errClosed
	}
	c.state = StateInitializing
	c.mu.Unlock()
	start := time.Now()
	c.log.Info("mcp connection initiated", "event", "mcp_connection_initiated", "component", "mcp_client",
		"transport", c.cfg.Transport)

	err := c.dial(ctx)
	d := time.Since(start)
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		err = &CallTimeoutError{What: "connect", Timeout: c.p.cfg.CallTimeout(c.cfg)}
	}
	if err != nil {
		c.mu.Lock()
		c.state = StateFailed
		c.lastErr = err
		c.mu.Unlock()
		c.log.Warn("mcp connection failed", "event", "mcp_connection_failed", "component", "mcp_client",
			"duration_ms", ms(d), "error", err.Error())
		return err
	}
	st := c.Status()
	c.log.Info("mcp connection established", "event", "mcp_connection_established", "component", "mcp_client",
		"duration_ms", ms(d), "tools", st.Tools, "resources", st.Resources)
	return nil
}

var errClosed = errors.New("orchestrator closed")

// withLastWords adds to a failed connection what a stdio child last wrote
// on stderr (typically why it exited: a missing database file, a bad flag),
// waiting a moment for the pipe to deliver it.
func (c *Conn) withLastWords(err error) error {
	c.mu.Lock()
	sink := c.stderr
	c.mu.Unlock()
	if sink == nil || c.cfg.Transport != config.TransportStdio {
		return err
	}
	var words string
	for wait := 0; wait < 20; wait++ {
		if words = sink.lastWords(); words != "" {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if words == "" {
		return fmt.Errorf("%w (the server wrote nothing on stderr; check command %q and its args)", err, c.cfg.Command)
	}
	return fmt.Errorf("%w; the server said: %s", err, words)
}

// CallTimeoutError says a server did not answer within mcp_call_timeout.
// It deliberately does not unwrap to context.DeadlineExceeded: that means
// the question's own query_timeout ran out (HTTP 504 "try a narrower
// question"), while this is the server's fault. It is kept as the server's
// last error, so questions refused while it reconnects say the same.
type CallTimeoutError struct {
	What    string // the MCP method, or "connect"
	Timeout time.Duration
}

func (e *CallTimeoutError) Error() string {
	return fmt.Sprintf("%s: no answer within mcp_call_timeout (%s)", e.What, e.Timeout)
}

func (c *Conn) dial(ctx context.Context) error {
	timeout := c.p.cfg.CallTimeout(c.cfg)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	if src := c.p.oauth[c.id]; src != nil {
		// Discover and get the token now, so a failure says why.
		if _, err := src.token(ctx); err != nil {
			return err
		}
	}
	// The transport (and a stdio child) lives on a context of its own,
	// never on a request's: it ends after the client is closed, or with
	// the pool.
	sctx, endSession := c.p.background()
	connected := false
	defer func() {
		if !connected {
			endSession()
		}
	}()
	cl, getCmd, err := c.newClient(sctx)
	if err != nil {
		return err
	}
	cl.OnNotification(c.onNotification)
	cl.OnConnectionLost(func(err error) {
		// Called by HTTP transports when their stream breaks.
		c.fail(cl, fmt.Errorf("connection lost: %w", err))
	})
	if err := cl.Start(sctx); err != nil {
		_ = cl.Close()
		return c.withLastWords(fmt.Errorf("start %s transport: %w", c.cfg.Transport, err))
	}
	var cmd *exec.Cmd
	if getCmd != nil {
		cmd = getCmd()
	}
	res, err := initialize(ctx, cl, "talk2tables-orchestrator")
	if err != nil {
		_ = cl.Close()
		return c.withLastWords(fmt.Errorf("initialize: %w", err))
	}
	// Resources are subscribed to once read, and only those that feed the
	// prompt (see package resources).
	toolDefs, resourceDefs, err := listAll(ctx, cl, res.Capabilities)
	if err != nil {
		_ = cl.Close()
		return err
	}
	var resources []string
	for _, r := range resourceDefs {
		resources = append(resources, r.URI)
	}
	c.mu.Lock()
	if c.p.closed() {
		c.mu.Unlock()
		_ = cl.Close()
		return errClosed
	}
	c.client = cl
	c.cmd = cmd
	c.endSession, connected = endSession, true
	c.gen++
	c.connectedAt++
	c.caps = res.Capabilities
	c.tools = toolNames(toolDefs)
	c.resources = resources
	c.toolDefs = toolDefs
	c.resourceDefs = resourceDefs
	c.state = StateConnected
	c.lastErr = nil
	c.lastContact = time.Now()
	c.subscribed = map[string]bool{}
	c.mu.Unlock()
	c.p.hooks.Connected(c) // a (re)connected server may serve other resources and data
	c.p.notifyChange(Change{Server: c.id, Kind: ChangeState})
	return nil
}

// initialize runs the initialize handshake as client name, with the legacy
// protocol pinned (see newClient).
func initialize(ctx context.Context, cl *client.Client, name string) (*mcp.InitializeResult, error) {
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1.0.0"}
	return cl.Initialize(ctx, init)
}

// listAll lists the tools and the resources a server's capabilities say
// it has (none of a kind it does not offer: a resources-only server
// answers tools/list with method-not-found).
func listAll(ctx context.Context, cl *client.Client, caps mcp.ServerCapabilities) (tools []mcp.Tool, resources []mcp.Resource, err error) {
	if caps.Tools != nil {
		if tools, err = listTools(ctx, cl); err != nil {
			return nil, nil, fmt.Errorf("list tools: %w", err)
		}
	}
	if caps.Resources != nil {
		if resources, err = listResources(ctx, cl); err != nil {
			return nil, nil, fmt.Errorf("list resources: %w", err)
		}
	}
	return tools, resources, nil
}

// listTools lists every tool (see listPages for the guards).
func listTools(ctx context.Context, cl *client.Client) ([]mcp.Tool, error) {
	return listPages("tools", func(cursor mcp.Cursor) ([]mcp.Tool, mcp.Cursor, error) {
		req := mcp.ListToolsRequest{}
		req.Params.Cursor = cursor
		res, err := cl.ListToolsByPage(ctx, req)
		if err != nil {
			return nil, "", err
		}
		return res.Tools, res.NextCursor, nil
	})
}

// toolNames returns the names of tools.
func toolNames(tools []mcp.Tool) []string {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	return names
}

// ListResources lists every resource of the server (see listPages for the
// guards) through Call (its timeout, liveness and reconnection).
func (c *Conn) ListResources(ctx context.Context) ([]mcp.Resource, error) {
	var list []mcp.Resource
	err := c.Call(ctx, "resources/list", func(ctx context.Context, cl *client.Client) error {
		var err error
		list, err = listResources(ctx, cl)
		return err
	})
	return list, err
}

func listResources(ctx context.Context, cl *client.Client) ([]mcp.Resource, error) {
	return listPages("resources", func(cursor mcp.Cursor) ([]mcp.Resource, mcp.Cursor, error) {
		req := mcp.ListResourcesRequest{}
		req.Params.Cursor = cursor
		res, err := cl.ListResourcesByPage(ctx, req)
		if err != nil {
			return nil, "", err
		}
		return res.Resources, res.NextCursor, nil
	})
}

// listPages collects a paginated MCP listing of what ("tools",
// "resources"): page fetches the page at cursor (first page: "") and returns
// its items and the next cursor. It follows at most maxListPages pages and
// refuses a cursor seen before, so a server whose cursor never ends cannot
// keep the connection busy.
func listPages[T any](what string, page func(cursor mcp.Cursor) ([]T, mcp.Cursor, error)) ([]T, error) {
	var out []T
	seen := map[mcp.Cursor]bool{}
	var cursor mcp.Cursor
	for n := 0; ; n++ {
		if n >= maxListPages {
			return nil, fmt.Errorf("more than %d pages of %s; the server's cursor does not end", maxListPages, what)
		}
		items, next, err := page(cursor)
		if err != nil {
			return nil, err
		}
		out = append(out, items...)
		if next == "" {
			return out, nil
		}
		if seen[next] {
			return nil, fmt.Errorf("%s/list repeated cursor %q", what, next)
		}
		seen[next] = true
		cursor = next
	}
}

// onNotification invalidates the cache when the server says its resources
// changed, and re-lists its tools when it says they changed.
func (c *Conn) onNotification(n mcp.JSONRPCNotification) {
	switch n.Method {
	case string(mcp.MethodNotificationResourceUpdated):
		uri, _ := n.Params.AdditionalFields["uri"].(string)
		c.resourceUpdated(uri)
	case string(mcp.MethodNotificationResourcesListChanged):
		c.resourcesChanged(n.Method)
		c.resourcesRefresh.Request() // re-list them in the background
	case string(mcp.MethodNotificationProgress):
		c.p.routeProgress(n)
	case mcp.MethodNotificationToolsListChanged:
		c.log.Info("tools changed on server", "event", "tools_list_changed", "component", "mcp_client")
		c.toolsRefresh.Request() // re-list them in the background
	}
}

// refreshJob is fn on a background context, for a coalesce.Runner: the
// notification asking for it arrives on the transport's reader, which must
// not wait for the answer to its own request, and notifications that
// arrive during a refresh cause one more refresh, never a pile of them.
// Nothing runs once the pool is closed.
func (c *Conn) refreshJob(fn func(ctx context.Context)) func() {
	return func() {
		if c.p.closed() {
			return
		}
		ctx, stop := c.p.background()
		defer stop()
		fn(ctx)
	}
}

// refreshTools replaces the server's tool list (and so its routes) with a
// fresh tools/list. A server that is not connected is skipped: connecting
// lists its tools anyway.
func (c *Conn) refreshTools(ctx context.Context) error {
	_, gen, ok := c.current()
	if !ok {
		return nil
	}
	start := time.Now()
	var defs []mcp.Tool
	err := c.Call(ctx, "tools/list", func(ctx context.Context, cl *client.Client) error {
		var err error
		defs, err = listTools(ctx, cl)
		return err
	})
	tools := toolNames(defs)
	if err != nil {
		c.log.Warn("tool list refresh failed", "event", "error_occurred", "component", "mcp_client",
			"error", err.Error())
		return err
	}
	c.mu.Lock()
	if c.gen != gen || c.state != StateConnected {
		c.mu.Unlock()
		return nil // reconnected meanwhile: that connection listed its own tools
	}
	old := c.tools
	c.tools = tools
	c.toolDefs = defs
	c.mu.Unlock()
	c.p.notifyChange(Change{Server: c.id, Kind: ChangeTools})
	c.log.Info("tool list refreshed", "event", "tools_list_refreshed", "component", "mcp_client",
		"duration_ms", ms(time.Since(start)), "tools", tools, "added", missingFrom(tools, old),
		"removed", missingFrom(old, tools))
	return nil
}

// missingFrom returns the names in a that b lacks.
func missingFrom(a, b []string) []string {
	out := []string{}
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// Call runs fn with the connected client under the per-call timeout. A
// transport failure (not a tool or protocol error, and not the caller's own
// cancellation) marks the server failed and starts reconnecting. method is
// the MCP method, "tools/call:<tool>" for a tool call; each call but a ping
// is a client span.
func (c *Conn) Call(ctx context.Context, method string, fn func(ctx context.Context, cl *client.Client) error) (err error) {
	if method != "ping" {
		name, tool, _ := strings.Cut(method, ":")
		attrs := []attribute.KeyValue{telemetry.AttrServer.String(c.id), telemetry.AttrMCPMethod.String(name)}
		if tool != "" {
			attrs = append(attrs, telemetry.AttrMCPTool.String(tool))
		}
		var span trace.Span
		ctx, span = telemetry.Start(ctx, "mcp "+method, trace.SpanKindClient, attrs...)
		defer func() { telemetry.End(span, err) }()
	}
	timeout := c.p.cfg.CallTimeout(c.cfg)
	if method == "ping" {
		timeout = c.p.cfg.PingTimeout(c.cfg)
	}
	cl, _, ok := c.current()
	if !ok {
		return c.DownError()
	}
	// The call ends at its timeout, or at once when the server is found
	// unresponsive meanwhile (by another call or the ping loop). Either way
	// mcp-go sends notifications/cancelled for it (over stdio; over HTTP
	// the request's stream is closed).
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cctx, abort := context.WithCancelCause(cctx)
	defer abort(nil)
	defer c.track(abort)()
	start := time.Now()
	err = fn(cctx, cl)
	c.p.metrics.ObserveMCP(c.id, method, time.Since(start))
	if err == nil {
		c.mu.Lock()
		c.lastContact = time.Now()
		c.mu.Unlock()
		return nil
	}
	if ctx.Err() != nil {
		return err // the caller gave up; not the server's fault
	}
	if errors.Is(context.Cause(cctx), errUnresponsive) {
		return c.DownError()
	}
	// The call's own deadline passed: whatever the client made of it (an
	// in-process server may answer with its handler's context error first).
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(cctx.Err(), context.DeadlineExceeded) {
		return c.timedOut(cl, &CallTimeoutError{What: method, Timeout: timeout})
	}
	if isTooLarge(err) {
		err = fmt.Errorf("%w: %v", ErrResponseTooLarge, err)
	}
	if errors.Is(err, ErrResponseTooLarge) {
		return err // this answer was refused; the connection is fine
	}
	if isTransportFailure(err) {
		c.fail(cl, err)
		return &MCPConnectionError{Server: c.id, Phase: PhaseLost, Err: err}
	}
	c.p.hooks.Invalidated(c)
	return err
}

// isTransportFailure reports whether err means the session is broken (not
// a tool or protocol error, and not a call that timed out: timedOut decides
// about those).
func isTransportFailure(err error) bool {
	var te *transport.Error
	return errors.As(err, &te) || errors.Is(err, transport.ErrTransportClosed)
}

// fail marks the server failed if cl is still its current client, closes
// that client and starts a background reconnect.
func (c *Conn) fail(cl *client.Client, err error) {
	c.mu.Lock()
	if c.client != cl || (c.state != StateConnected && c.state != StateUnresponsive) || c.p.closed() {
		c.mu.Unlock()
		return
	}
	c.state = StateFailed
	c.lastErr = err
	c.client = nil
	endSession := c.endSession
	c.endSession = nil
	c.mu.Unlock()
	c.p.hooks.Invalidated(c)
	c.p.notifyChange(Change{Server: c.id, Kind: ChangeState})
	c.log.Error("mcp connection lost", "event", "mcp_connection_failed", "component", "mcp_client",
		"phase", PhaseLost, "error", err.Error())
	c.p.wg.Go(func() {
		_ = cl.Close()
		endSession()
	})
	c.startReconnect()
}

// startReconnect starts the background reconnect loop unless one runs.
func (c *Conn) startReconnect() {
	c.mu.Lock()
	if c.reconnecting || c.p.closed() {
		c.mu.Unlock()
		return
	}
	c.reconnecting = true
	c.mu.Unlock()
	c.p.wg.Go(c.reconnectLoop)
}

// reconnectLoop retries connect with exponential backoff and jitter until it
// succeeds or the orchestrator closes.
func (c *Conn) reconnectLoop() {
	defer func() {
		c.mu.Lock()
		c.reconnecting = false
		c.mu.Unlock()
	}()
	ctx, stop := c.p.background()
	defer stop()
	delay := c.p.backoffMin
	for attempt := 1; ; attempt++ {
		t := time.NewTimer(jitter(delay))
		select {
		case <-c.p.done:
			t.Stop()
			return
		case <-t.C:
		}
		err := c.connect(ctx)
		if err == nil {
			c.log.Info("mcp server reconnected", "event", "mcp_server_reconnected", "component", "mcp_client", "attempt", attempt)
			return
		}
		if errors.Is(err, errClosed) {
			return
		}
		delay = min(delay*2, c.p.backoffMax)
	}
}

// pingLoop pings every connected server each interval so a silent death
// or a hang (a stopped child, an HTTP server that stopped answering) is
// noticed between questions: a ping that does not answer within
// ping_timeout makes the server unresponsive at once (liveness.go).
func (p *Pool) pingLoop(interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
		}
		p.pingAll()
	}
}

// pingAll pings every connected server once, in parallel, and has the
// database of each executor that answered checked (Hooks.ProbeDatabase):
// an MCP server may answer pings while its database is down.
func (p *Pool) pingAll() {
	ctx, stop := p.background()
	defer stop()
	var wg sync.WaitGroup
	for _, c := range p.conns {
		if c.State() != StateConnected {
			continue
		}
		wg.Go(func() {
			err := c.Call(ctx, "ping", func(ctx context.Context, cl *client.Client) error { return cl.Ping(ctx) })
			if err == nil {
				p.probeDatabase(ctx, c)
			}
		})
	}
	wg.Wait()
}

// close ends the server's session (a stdio child is reaped by the
// transport's Close).
func (c *Conn) close() {
	c.mu.Lock()
	cl, endSession := c.client, c.endSession
	c.client, c.endSession = nil, nil
	was := c.state
	c.state = StateDisconnected
	c.mu.Unlock()
	if cl != nil {
		_ = cl.Close()
	}
	if endSession != nil {
		endSession()
	}
	if was == StateConnected {
		c.log.Info("mcp connection closed", "event", "mcp_connection_closed", "component", "mcp_client")
	}
}

// sortedConns returns the connections sorted by priority, then id.
func sortedConns(m map[string]*Conn) []*Conn {
	out := make([]*Conn, 0, len(m))
	for _, c := range m {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].cfg.Priority != out[j].cfg.Priority {
			return out[i].cfg.Priority < out[j].cfg.Priority
		}
		return out[i].id < out[j].id
	})
	return out
}

// Route finds the server for a tool name: a bare name goes to the connected
// server with the lowest priority number that has it; "server__tool" names
// the server explicitly.
func (p *Pool) Route(name string) (*Conn, string, bool) {
	if i := indexQualified(name); i > 0 {
		if c, ok := p.conns[name[:i]]; ok && c.HasTool(name[i+2:]) {
			return c, name[i+2:], true
		}
	}
	for _, c := range p.ordered {
		if c.State() == StateConnected && c.HasTool(name) {
			return c, name, true
		}
	}
	return nil, "", false
}

func indexQualified(name string) int {
	for i := 0; i+1 < len(name); i++ {
		if name[i] == '_' && name[i+1] == '_' {
			return i
		}
	}
	return -1
}

// RoutingTable maps every reachable tool name to the server id answering
// it: bare names resolved by priority, and every tool as "server__tool".
func (p *Pool) RoutingTable() map[string]string {
	out := map[string]string{}
	for i := len(p.ordered) - 1; i >= 0; i-- { // lower priority number overwrites
		c := p.ordered[i]
		if c.State() != StateConnected {
			continue
		}
		c.mu.Lock()
		for _, t := range c.tools {
			out[t] = c.id
			out[c.id+"__"+t] = c.id
		}
		c.mu.Unlock()
	}
	return out
}

// Executor returns the connected server with capability execute_query and
// the lowest priority number.
func (p *Pool) Executor() (*Conn, error) {
	var down *Conn
	for _, c := range p.ordered {
		if !c.cfg.HasCapability(config.CapExecuteQuery) {
			continue
		}
		if c.State() == StateConnected {
			return c, nil
		}
		if down == nil {
			down = c
		}
	}
	if down != nil && p.cfg.Required(down.id) {
		return nil, down.DownError()
	}
	return nil, &NoMCPAvailableError{Capability: config.CapExecuteQuery}
}

// jitter returns a random wait in [delay/2, delay].
func jitter(delay time.Duration) time.Duration {
	return delay/2 + time.Duration(rand.Int64N(int64(delay/2)+1))
}
