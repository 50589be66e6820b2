// Package mcpserve runs an mcp-go server over one of the transports the
// talk2tables MCP servers offer: stdio, SSE or streamable HTTP.
package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Transport names accepted by Serve (and by the --transport flag).
const (
	Stdio          = "stdio"
	SSE            = "sse"
	StreamableHTTP = "http"
)

// Options configures Serve.
type Options struct {
	Transport string    // stdio (default), sse or http
	Addr      string    // listen address for sse and http, e.g. ":8000"
	Stdin     io.Reader // stdio only
	Stdout    io.Writer // stdio only
	Logger    *slog.Logger
	// Ready, when set, is called with the bound address once an HTTP
	// transport listens (useful with Addr ":0").
	Ready func(addr net.Addr)
	// ShutdownTimeout bounds the graceful shutdown of an HTTP transport
	// once ctx is done (default DefaultShutdownTimeout); connections still
	// open after it are closed.
	ShutdownTimeout time.Duration
}

// DefaultShutdownTimeout is Options.ShutdownTimeout's default.
const DefaultShutdownTimeout = 5 * time.Second

// CloseSessions ends every session of a handler returned by Handler, so
// long-lived streams (SSE, streamable HTTP's GET listening stream) return
// and an http.Server's Shutdown need not wait for its deadline; it also
// stops streamable HTTP's idle-session sweeper. Other handlers are left
// alone.
func CloseSessions(h http.Handler) {
	switch c := h.(type) {
	case interface{ CloseSessions() }: // SSE
		c.CloseSessions()
	case *server.StreamableHTTPServer:
		// Shutdown also stops the idle-session sweeper; the handler has no
		// http.Server of its own, so nothing else is shut.
		_ = c.Shutdown(context.Background())
	case interface{ CloseSessions(context.Context) }:
		c.CloseSessions(context.Background())
	}
}

// MaxBodyBytes is the largest request body the HTTP transports read. A
// JSON-RPC message of this server is a few kilobytes (a query is at most
// 20,000 characters); without a bound the transports read any body into
// memory whole before looking at it.
const MaxBodyBytes = 1 << 20

// DefaultSessionIdleTTL is how long a streamable HTTP session may go without
// a request or an open listening stream before the server forgets it.
const DefaultSessionIdleTTL = 30 * time.Minute

// heartbeatInterval is how often the HTTP transports write to an idle
// stream: it keeps proxies from closing it and, over streamable HTTP, keeps
// a session with an open listening stream from counting as idle.
const heartbeatInterval = 15 * time.Second

// HandlerOption tunes Handler.
type HandlerOption func(*handlerConfig)

type handlerConfig struct {
	sessionIdleTTL time.Duration
	contextFunc    func(ctx context.Context, r *http.Request) context.Context
	middleware     func(http.Handler) http.Handler
}

// WithMiddleware puts mw between the handler's own checks (request body
// limit, and on streamable HTTP the ordering and error fixes) and the
// transport, e.g. to answer some messages before the transport does
// (package mcptasks).
func WithMiddleware(mw func(http.Handler) http.Handler) HandlerOption {
	return func(c *handlerConfig) { c.middleware = mw }
}

// WithContextFunc lets fn add values from each HTTP request (headers such
// as Authorization or X-Request-ID) to the context of the MCP messages it
// carries, on both transports.
func WithContextFunc(fn func(ctx context.Context, r *http.Request) context.Context) HandlerOption {
	return func(c *handlerConfig) { c.contextFunc = fn }
}

// WithSessionIdleTTL sets how long an idle streamable HTTP session is kept
// (default DefaultSessionIdleTTL). A client that disappears without
// DELETE-ing its session would otherwise hold its memory until the server
// stops.
func WithSessionIdleTTL(d time.Duration) HandlerOption {
	return func(c *handlerConfig) { c.sessionIdleTTL = d }
}

// Handler returns the http.Handler for an HTTP transport: SSE serves /sse and
// /message, streamable HTTP serves /mcp. Request bodies are limited to
// MaxBodyBytes; idle streamable HTTP sessions are forgotten (see
// WithSessionIdleTTL). Pass the handler to CloseSessions when done: it ends
// the streams and the session sweeper.
func Handler(s *server.MCPServer, transport string, opts ...HandlerOption) (http.Handler, error) {
	cfg := handlerConfig{sessionIdleTTL: DefaultSessionIdleTTL}
	for _, o := range opts {
		o(&cfg)
	}
	var h http.Handler
	switch transport {
	case SSE:
		sseOpts := []server.SSEOption{server.WithKeepAliveInterval(heartbeatInterval)}
		if cfg.contextFunc != nil {
			sseOpts = append(sseOpts, server.WithSSEContextFunc(cfg.contextFunc))
		}
		h = server.NewSSEServer(s, sseOpts...)
	case StreamableHTTP, "streamable_http":
		if cfg.sessionIdleTTL <= 0 {
			return nil, fmt.Errorf("session idle TTL must be positive, got %s", cfg.sessionIdleTTL)
		}
		// The heartbeat (a ping on the listening stream) refreshes the
		// session, so it must come well within the TTL.
		httpOpts := []server.StreamableHTTPOption{
			server.WithSessionIdManager(newSessionIDs()),
			server.WithSessionIdleTTL(cfg.sessionIdleTTL),
			server.WithHeartbeatInterval(min(heartbeatInterval, cfg.sessionIdleTTL/3)),
		}
		if cfg.contextFunc != nil {
			httpOpts = append(httpOpts, server.WithHTTPContextFunc(cfg.contextFunc))
		}
		hookAckFirst(s)
		h = server.NewStreamableHTTPServer(s, httpOpts...)
	default:
		return nil, fmt.Errorf("transport %q is not an HTTP transport (want sse or http)", transport)
	}
	if cfg.middleware != nil {
		h = &closingHandler{Handler: cfg.middleware(h), transport: h}
	}
	return &limitedHandler{next: h, maxBody: MaxBodyBytes, streamable: transport != SSE}, nil
}

// limitedHandler bounds request bodies before the transport reads them; on
// streamable HTTP it also puts the subscription acknowledgement first
// (subscriptions.go) and the URI into resource-not-found errors
// (notfound.go).
type limitedHandler struct {
	next       http.Handler
	maxBody    int64
	streamable bool
}

func (h *limitedHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength > h.maxBody {
		writeJSONRPCError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf(
			"request body is %d bytes; the limit is %d bytes", r.ContentLength, h.maxBody))
		return
	}
	if r.Method == http.MethodPost && r.Body != nil {
		// Read whole within the bound, whatever the framing: a chunked
		// body over it is a 413 too.
		body, err := readBody(w, r, h.maxBody)
		if mbe, ok := isTooLarge(err); ok {
			writeJSONRPCError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf(
				"request body is over the limit of %d bytes", mbe.Limit))
			return
		}
		if err != nil {
			writeJSONRPCError(w, http.StatusBadRequest, "the request body could not be read: "+err.Error())
			return
		}
		if h.streamable {
			if bad := checkMessage(body); bad != nil {
				answerInvalid(w, bad)
				return
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
	} else {
		r.Body = http.MaxBytesReader(w, r.Body, h.maxBody)
	}
	if h.streamable {
		w, r = trackListen(w, r)
		w, r = withNotFoundURI(w, r)
	}
	h.next.ServeHTTP(w, r)
}

// CloseSessions ends the wrapped transport's sessions (see the package
// function CloseSessions).
func (h *limitedHandler) CloseSessions() { CloseSessions(h.next) }

// closingHandler is a middleware in front of a transport whose sessions
// CloseSessions still ends.
type closingHandler struct {
	http.Handler
	transport http.Handler
}

func (h *closingHandler) CloseSessions() { CloseSessions(h.transport) }

// writeJSONRPCError answers with a JSON-RPC error response (id null), the
// shape the transports use for requests they cannot parse.
func writeJSONRPCError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Connection", "close")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(mcp.NewJSONRPCError(mcp.NewRequestId(nil), mcp.INVALID_REQUEST, msg, nil))
}

// stdioWorkers is how many tool calls a stdio server runs at once (mcp-go's
// maximum; its default is 5).
const stdioWorkers = 100

// Serve serves s until ctx is done or the transport fails.
func Serve(ctx context.Context, s *server.MCPServer, opts Options) error {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	switch opts.Transport {
	case "", Stdio:
		stdio := server.NewStdioServer(s)
		// mcp-go runs tool calls on 5 workers by default; a sixth concurrent
		// call would wait unseen in a queue, its handler's own timeout not yet
		// started, and could outlive the client's call timeout. Use the
		// library's maximum so concurrent calls start at once.
		server.WithWorkerPoolSize(stdioWorkers)(stdio)
		// Protocol goes to stdout; the library's own complaints go to our logger.
		stdio.SetErrorLogger(log.New(logWriter{logger}, "", 0))
		err := stdio.Listen(ctx, opts.Stdin, opts.Stdout)
		if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, io.EOF)) {
			return nil
		}
		return err
	case SSE, StreamableHTTP, "streamable_http":
	default:
		return fmt.Errorf("unknown transport %q (want stdio, sse or http)", opts.Transport)
	}
	h, err := Handler(s, opts.Transport)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", opts.Addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}
	logger.Info("mcp server listening", "event", "mcp_server_listening", "transport", opts.Transport, "addr", ln.Addr().String())
	if opts.Ready != nil {
		opts.Ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	timeout := opts.ShutdownTimeout
	if timeout <= 0 {
		timeout = DefaultShutdownTimeout
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	CloseSessions(h)
	if err := srv.Shutdown(shutdownCtx); err != nil {
		srv.Close()
		logger.Warn("mcp server shutdown deadline passed; open connections closed", "event", "mcp_server_shutdown_timeout",
			"timeout", timeout.String(), "error", err.Error())
	}
	return nil
}

type logWriter struct{ l *slog.Logger }

func (w logWriter) Write(p []byte) (int, error) {
	w.l.Warn("mcp transport", "event", "mcp_transport_log", "detail", string(p))
	return len(p), nil
}
