package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"talk2tables/databasemcp"
	"talk2tables/mcpserve"
	"talk2tables/orchestrator"
)

// runDatabaseMCP serves the read-only MCP server over a SQLite database.
func runDatabaseMCP(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("database-mcp", "--db FILE [flags]", io)
	dbPath := fs.String("db", "", "SQLite database to serve read-only (required), e.g. testdata/sales.db")
	transport := fs.String("transport", mcpserve.Stdio, "MCP transport: stdio, sse (/sse + /message) or http (streamable HTTP, /mcp)")
	addr := fs.String("addr", ":8000", "listen address for the sse and http transports")
	timeout := fs.Duration("query-timeout", databasemcp.DefaultQueryTimeout, "statement timeout; a longer query is interrupted and reported as TIMEOUT")
	maxRows := fs.Int("max-rows", databasemcp.DefaultMaxRows,
		fmt.Sprintf("rows execute_query returns when the caller gives no max_rows (1..%d)", databasemcp.HardMaxRows))
	connections := fs.Int("connections", databasemcp.DefaultConnections(),
		fmt.Sprintf("connections in the pool: the most queries running at once, the rest wait in line (1..%d)", databasemcp.MaxConnections))
	maxValue := fs.Int("max-value-bytes", databasemcp.DefaultMaxValueBytes,
		"SQLite's length limit: no string or blob a query builds may be longer (RESOURCE_LIMIT)")
	maxCell := fs.Int("max-cell-bytes", databasemcp.DefaultMaxCellBytes, "a result value longer than this (as JSON) is cut, ending in …")
	maxResult := fs.Int("max-result-bytes", databasemcp.DefaultMaxResultBytes,
		"the rows of a result past this many bytes (as JSON) are left out and the result is marked truncated")
	today := fs.String("today", "", "report this date (YYYY-MM-DD) as today in the schema resource instead of the clock's, for data that ends on a fixed day")
	logLevel := fs.String("log-level", envOr(orchestrator.EnvLogLevel, "info"), "log level: debug, info, warn or error (logs go to stderr; default from $"+orchestrator.EnvLogLevel+")")
	logFormat := fs.String("log-format", envOr(orchestrator.EnvLogFormat, "json"), "log format: json or text (default from $"+orchestrator.EnvLogFormat+")")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dbPath == "" {
		fmt.Fprintln(io.err, "talk2tables database-mcp: --db is required")
		fs.Usage()
		return errUsage
	}
	switch *transport {
	case mcpserve.Stdio, mcpserve.SSE, mcpserve.StreamableHTTP:
	default:
		return fmt.Errorf("database-mcp: --transport %q is not one of stdio, sse, http", *transport)
	}
	if *timeout <= 0 {
		return fmt.Errorf("database-mcp: --query-timeout must be positive, got %s", *timeout)
	}
	if *maxRows < 1 || *maxRows > databasemcp.HardMaxRows {
		return fmt.Errorf("database-mcp: --max-rows must be between 1 and %d, got %d", databasemcp.HardMaxRows, *maxRows)
	}
	if *connections < 1 || *connections > databasemcp.MaxConnections {
		return fmt.Errorf("database-mcp: --connections must be between 1 and %d, got %d", databasemcp.MaxConnections, *connections)
	}
	if *maxValue < 1 || *maxCell < 1 || *maxResult < 1 {
		return fmt.Errorf("database-mcp: --max-value-bytes, --max-cell-bytes and --max-result-bytes must be positive")
	}
	logger, err := newLogger(io.err, *logLevel, *logFormat)
	if err != nil {
		return fmt.Errorf("database-mcp: %w", err)
	}

	start := time.Now()
	db, err := databasemcp.Open(*dbPath, databasemcp.Options{QueryTimeout: *timeout, MaxRows: *maxRows, Today: *today,
		Connections: *connections, MaxValueBytes: *maxValue, MaxCellBytes: *maxCell, MaxResultBytes: *maxResult})
	if err != nil {
		return fmt.Errorf("database-mcp: %w", err)
	}
	defer db.Close()
	// NewServer tags its own logger with mcp_server; cmdLog tags this
	// command's lines the same way without the attribute appearing twice.
	cmdLog := logger.With("mcp_server", databasemcp.ServerName)
	cmdLog.Info("database opened read-only", "event", "database_opened", "db", *dbPath, "transport", *transport,
		"query_timeout", timeout.String(), "max_rows", *maxRows, "connections", *connections,
		"duration_ms", time.Since(start).Milliseconds())

	srv := databasemcp.NewServer(db, logger)
	watchCtx, stopWatch := context.WithCancel(ctx)
	var watching sync.WaitGroup
	watching.Go(func() { databasemcp.NotifyDataChanges(watchCtx, db, srv, cmdLog) })
	defer func() { stopWatch(); watching.Wait() }()
	err = mcpserve.Serve(ctx, srv, mcpserve.Options{
		Transport: *transport, Addr: *addr, Stdin: io.in, Stdout: io.out, Logger: cmdLog,
	})
	if err != nil {
		return fmt.Errorf("database-mcp: %w", err)
	}
	cmdLog.Info("database mcp server stopped")
	return nil
}
