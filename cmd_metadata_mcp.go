package main

import (
	"context"
	"fmt"
	"sync"

	"talk2tables/config"
	"talk2tables/mcpserve"
	"talk2tables/metadatamcp"
)

// runMetadataMCP serves a semantic catalog as an MCP server.
func runMetadataMCP(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("metadata-mcp", "[flags]", io)
	catalogPath := fs.String("catalog", "testdata/sales_catalog.json", "catalog JSON to serve (version 2, or a version-1 product catalog converted on load); reloaded when the file changes")
	transport := fs.String("transport", mcpserve.Stdio, "MCP transport: stdio, sse (serves /sse and /message) or http (streamable HTTP, serves /mcp)")
	addr := fs.String("addr", ":8002", "listen address for the sse and http transports")
	watch := fs.Bool("watch", true, "reload the catalog when its file changes and notify subscribed clients")
	logLevel := fs.String("log-level", envOr(config.EnvLogLevel, "info"), "log level: debug, info, warn or error (logs go to stderr; default from $"+config.EnvLogLevel+")")
	logFormat := fs.String("log-format", envOr(config.EnvLogFormat, "json"), "log format: json or text (default from $"+config.EnvLogFormat+")")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch *transport {
	case mcpserve.Stdio, mcpserve.SSE, mcpserve.StreamableHTTP:
	default:
		fmt.Fprintf(io.err, "talk2tables metadata-mcp: --transport %q is not one of stdio, sse, http\n", *transport)
		fs.Usage()
		return errUsage
	}
	logger, err := newLogger(io.err, *logLevel, *logFormat)
	if err != nil {
		return fmt.Errorf("metadata-mcp: %w", err)
	}
	logger = logger.With("mcp_server", "metadata")
	srv, err := metadatamcp.New(*catalogPath, logger)
	if err != nil {
		return fmt.Errorf("metadata-mcp: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	if *watch {
		wg.Go(func() {
			if err := srv.Watch(ctx); err != nil {
				// Serving the loaded catalog is still useful; say reloads are off.
				logger.Warn("catalog reloads disabled", "event", "catalog_watch_failed", "error", err.Error())
			}
		})
	}
	err = mcpserve.Serve(ctx, srv.MCPServer(), mcpserve.Options{
		Transport: *transport, Addr: *addr, Stdin: io.in, Stdout: io.out, Logger: logger,
	})
	cancel()
	wg.Wait()
	if err != nil {
		return fmt.Errorf("metadata-mcp: %w", err)
	}
	return nil
}
