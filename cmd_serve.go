package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"talk2tables/gateway"
	"talk2tables/orchestrator"
	"talk2tables/server"
	"talk2tables/web"
)

// runServe runs the HTTP API, the orchestrator and the web UI until ctx is
// done, then shuts down gracefully: in-flight requests finish (bounded by
// http.shutdown_timeout), then the MCP sessions close and stdio children are
// reaped.
func runServe(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("serve", "[--config mcp_config.yaml] [--addr :8001]", io)
	configPath := fs.String("config", "mcp_config.yaml", "orchestrator configuration `file`")
	addr := fs.String("addr", "", "listen `address`, overrides http.addr (e.g. :8001 or 127.0.0.1:8001)")
	logLevel := fs.String("log-level", "", "debug, info, warn or error; overrides orchestration.log_level")
	logFormat := fs.String("log-format", "", "json or text; overrides orchestration.log_format")
	if err := parseFlags(fs, args); err != nil {
		return err
	}

	cfg, err := orchestrator.LoadConfig(*configPath)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if *addr != "" {
		cfg.HTTP.Addr = *addr
	}
	// Overrides go into the config so stdio MCP children log the same way.
	if *logLevel != "" {
		cfg.Orchestration.LogLevel = *logLevel
	}
	if *logFormat != "" {
		cfg.Orchestration.LogFormat = *logFormat
	}
	logger, err := newLogger(io.err, cfg.Orchestration.LogLevel, cfg.Orchestration.LogFormat)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	orch, err := orchestrator.New(ctx, cfg, logger, orchestrator.WithMetrics(orchestrator.NewMetrics(reg)))
	if err != nil {
		return fmt.Errorf("serve: start orchestrator: %w", err)
	}
	defer func() {
		if err := orch.Close(); err != nil {
			logger.Warn("close orchestrator", "event", "mcp_connection_closed", "error", err.Error())
		}
	}()

	// The MCP face (ask, run_sql, downstream tools) at /mcp and /sse.
	gw := gateway.New(orch, cfg, logger)
	defer gw.Close()
	mcpHandlers, err := gw.HTTPHandlers()
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}

	ln, err := net.Listen("tcp", cfg.HTTP.Addr)
	if err != nil {
		return fmt.Errorf("serve: listen on %s: %w (is another process using the port? pick one with --addr)", cfg.HTTP.Addr, err)
	}
	// Requests run under baseCtx; when the shutdown grace period ends, it is
	// cancelled with server.ErrShuttingDown so questions still running stop
	// and their clients get a 503 (or an SSE error event) rather than a cut
	// connection.
	baseCtx, cancelBase := context.WithCancelCause(context.Background())
	defer cancelBase(nil)
	srv := &http.Server{
		Handler:           server.New(orch, cfg.HTTP, web.Files, logger, reg, server.WithMCP(mcpHandlers.Streamable, mcpHandlers.SSE)),
		BaseContext:       func(net.Listener) context.Context { return baseCtx },
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		// SSE and slow questions write for up to the query timeout.
		WriteTimeout: cfg.Orchestration.QueryTimeout + 30*time.Second,
		IdleTimeout:  120 * time.Second,
	}
	fmt.Fprintf(io.err, "talk2tables: serving on %s (API, UI, MCP at /mcp and /sse, /health, /metrics)\n", displayURL(ln.Addr()))
	logger.Info("http server started", "event", "http_server_started", "addr", ln.Addr().String())

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}

	logger.Info("http server stopping", "event", "http_server_stopping", "timeout", cfg.HTTP.ShutdownTimeout.String())
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.HTTP.ShutdownTimeout)
	defer cancel()
	// MCP event streams stay open until their sessions end.
	mcpHandlers.Close()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		// Grace period over: stop what still runs, give the handlers a moment
		// to answer 503 / send their SSE error event, then cut the rest.
		logger.Warn("http shutdown grace period passed; stopping in-flight requests", "event", "http_server_stopping",
			"error", err.Error())
		cancelBase(server.ErrShuttingDown)
		finalCtx, cancelFinal := context.WithTimeout(context.Background(), 2*time.Second)
		if err := srv.Shutdown(finalCtx); err != nil {
			_ = srv.Close()
		}
		cancelFinal()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("http server stopped", "event", "http_server_stopped")
	return nil
}

// displayURL turns a listen address into a URL a person can open.
func displayURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String()
	}
	if host == "" || host == "::" || host == "0.0.0.0" {
		host = "localhost"
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return "http://" + host + ":" + port + "/"
}
