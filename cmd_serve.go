package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"talk2tables/config"
	"talk2tables/gateway"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/verified"
	"talk2tables/server"
	"talk2tables/web"
)

// runServe runs the HTTP API, the orchestrator and the web UI until ctx is
// done, then shuts down gracefully: in-flight requests finish (bounded by
// http.shutdown_timeout), then the MCP sessions close and stdio children are
// reaped.
func runServe(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("serve", "[--config mcp_config.yaml | --db FILE | --dsn URL] [--addr :8001]", io)
	flags := addConfigFlags(fs)
	one := addOneDBFlags(fs)
	addr := fs.String("addr", "", "listen `address`, overrides http.addr (e.g. :8001 or 127.0.0.1:8001)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := one.check(fs); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	cfg, logger, orchOpts, closeDB, err := loadOrStartOne(ctx, flags, one, io)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer closeDB()
	if *addr != "" {
		cfg.HTTP.Addr = *addr
	}
	listenAddr, err := serveListenAddr(cfg.HTTP, logger)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	book, closeBook, err := openBook(ctx, cfg.State, logger)
	if err != nil {
		return fmt.Errorf("serve: %w", stateError(err))
	}
	defer closeBook()
	orch, err := startOrchestrator(ctx, cfg, logger, reg, book, orchOpts)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer func() {
		if err := orch.Close(); err != nil {
			logger.Warn("close orchestrator", "event", "mcp_connection_closed", "error", err.Error())
		}
	}()
	var serverOpts []server.Option
	var gwOpts []gateway.Option
	if book != nil {
		serverOpts = append(serverOpts, server.WithVerified(orch))
		gwOpts = append(gwOpts, gateway.WithVerified(orch))
	}

	// The MCP face (ask, run_sql, downstream tools) at /mcp and /sse.
	gw := gateway.New(orch, cfg, logger, gwOpts...)
	defer gw.Close()
	mcpHandlers, err := gw.HTTPHandlers()
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}

	ln, err := listen(listenAddr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if cfg.HTTP.MetricsAddr != "" {
		_, stop, err := serveMetrics(cfg.HTTP.MetricsAddr, reg, logger)
		if err != nil {
			ln.Close()
			return fmt.Errorf("serve: metrics: %w", err)
		}
		defer stop()
	}
	handler := server.New(orch, cfg.HTTP, web.Files, logger, reg,
		append(serverOpts, server.WithMCP(mcpHandlers.Streamable, mcpHandlers.SSE))...)
	return serveUntilDone(ctx, cfg, handler, ln, mcpHandlers, logger, io)
}

// startOrchestrator starts the orchestrator with its metrics in reg and,
// when there is one, the verified-answer book.
func startOrchestrator(ctx context.Context, cfg *config.Config, logger *slog.Logger, reg *prometheus.Registry,
	book *verified.Book, orchOpts []orchestrator.Option) (*orchestrator.Orchestrator, error) {
	orchOpts = append(orchOpts, orchestrator.WithMetrics(orchestrator.NewMetrics(reg)))
	if book != nil {
		orchOpts = append(orchOpts, orchestrator.WithVerified(book))
	}
	orch, err := orchestrator.New(ctx, cfg, logger, orchOpts...)
	if err != nil {
		return nil, fmt.Errorf("start orchestrator: %w", err)
	}
	return orch, nil
}

// serveListenAddr applies listenPolicy to http.addr and logs what it decided
// when that is not simply the configured address.
func serveListenAddr(h config.HTTPConfig, logger *slog.Logger) (string, error) {
	listenAddr, warning, err := listenPolicy(h.Addr, server.KeysConfigured(h), h.AllowUnauthenticated)
	if err != nil {
		return "", err
	}
	if warning != "" {
		logger.Warn(warning, "event", "http_unauthenticated", "addr", listenAddr)
	} else if listenAddr != h.Addr {
		logger.Info("no API keys configured: listening on the loopback interface only", "event", "http_loopback_only",
			"addr", listenAddr, "configured", h.Addr,
			"hint", "set http.api_keys_env (and its variable), or http.allow_unauthenticated: true, to listen on other interfaces")
	}
	return listenAddr, nil
}

// serveUntilDone serves handler on ln until ctx is done or the server fails,
// then shuts down: the MCP event streams close, in-flight requests get
// http.shutdown_timeout to finish, and what still runs after that is stopped.
func serveUntilDone(ctx context.Context, cfg *config.Config, handler http.Handler, ln net.Listener,
	mcpHandlers *gateway.Handlers, logger *slog.Logger, io stdio) error {
	// Requests run under baseCtx; when the shutdown grace period ends, it is
	// cancelled with server.ErrShuttingDown so questions still running stop
	// and their clients get a 503 (or an SSE error event) rather than a cut
	// connection.
	baseCtx, cancelBase := context.WithCancelCause(context.Background())
	defer cancelBase(nil)
	srv := &http.Server{
		Handler:           handler,
		BaseContext:       func(net.Listener) context.Context { return baseCtx },
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		// SSE and slow questions write for up to the query timeout.
		WriteTimeout: cfg.Orchestration.QueryTimeout + 30*time.Second,
		IdleTimeout:  120 * time.Second,
	}
	metricsAt := "/metrics"
	if cfg.HTTP.MetricsAddr != "" {
		metricsAt = "/metrics on " + cfg.HTTP.MetricsAddr
	}
	fmt.Fprintf(io.err, "talk2tables: serving on %s (API, UI, MCP at /mcp and /sse, /health, %s)\n", displayURL(ln.Addr()), metricsAt)
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

// listenPolicy decides where serve listens. With API keys, or on a loopback
// address, addr as given. Without keys, an address on all interfaces
// (":8001", "0.0.0.0:8001") is narrowed to 127.0.0.1 and any other address
// refused, unless allowUnauthenticated, which keeps addr and returns a
// warning to log.
func listenPolicy(addr string, haveKeys, allowUnauthenticated bool) (listenAddr, warning string, err error) {
	if err := config.CheckListenAddr(addr); err != nil {
		return "", "", fmt.Errorf("--addr / http.addr %w", err)
	}
	host, port, _ := net.SplitHostPort(addr)
	if haveKeys || isLoopback(host) {
		return addr, "", nil
	}
	if allowUnauthenticated {
		return addr, "serving without API keys beyond the loopback interface (http.allow_unauthenticated): " +
			"anyone who can reach this address can ask questions and run SQL", nil
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		return net.JoinHostPort("127.0.0.1", port), "", nil
	}
	return "", "", fmt.Errorf("refusing to listen on %s without API keys: set http.api_keys_env to a variable "+
		"holding comma-separated keys, or set http.allow_unauthenticated: true to serve it openly", addr)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// listen opens the TCP listener, saying what to do when it cannot.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	switch {
	case err == nil:
		return ln, nil
	case errors.Is(err, syscall.EADDRINUSE):
		return nil, fmt.Errorf("listen on %s: the port is in use by another process; pick another with --addr "+
			"(e.g. make run ADDR=:9000)", addr)
	case errors.Is(err, syscall.EACCES):
		return nil, fmt.Errorf("listen on %s: permission denied (ports below 1024 need privileges); pick another "+
			"with --addr, e.g. :8001", addr)
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return nil, fmt.Errorf("listen on %s: this machine has no such address; use one of its own, or :PORT "+
			"for all of them", addr)
	}
	return nil, fmt.Errorf("listen on %s: %w", addr, err)
}

// serveMetrics serves /metrics on its own listener until stop is called; it
// returns the address it listens on.
func serveMetrics(addr string, reg *prometheus.Registry, logger *slog.Logger) (bound string, stop func(), err error) {
	ln, err := listen(addr)
	if err != nil {
		return "", nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", server.MetricsHandler(reg))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	logger.Info("metrics server started", "event", "metrics_server_started", "addr", ln.Addr().String())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	return ln.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		<-done
	}, nil
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
