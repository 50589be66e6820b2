package main

import (
	"context"
	"fmt"

	"talk2tables/gateway"
	"talk2tables/mcpserve"
	"talk2tables/orchestrator"
)

// runMCP serves talk2tables itself as an MCP server over stdio (package
// gateway), for desktop hosts such as Claude Desktop or VS Code: the same
// orchestrator, servers and configuration as serve. stdout is the protocol;
// logs, and the stderr of stdio MCP children, go to stderr.
func runMCP(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("mcp", "[--config mcp_config.yaml | --db FILE | --dsn URL]", io)
	flags := addConfigFlags(fs)
	one := addOneDBFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := one.check(fs); err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	cfg, logger, orchOpts, closeDB, err := loadOrStartOne(ctx, flags, one, io)
	if err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	defer closeDB()
	book, closeBook, err := openBook(ctx, cfg.State, logger)
	if err != nil {
		return fmt.Errorf("mcp: %w", stateError(err))
	}
	defer closeBook()
	orchOpts = append(orchOpts, orchestrator.WithChildStderr(io.err))
	if book != nil {
		orchOpts = append(orchOpts, orchestrator.WithVerified(book))
	}
	orch, err := orchestrator.New(ctx, cfg, logger, orchOpts...)
	if err != nil {
		return fmt.Errorf("mcp: start orchestrator: %w", err)
	}
	defer orch.Close()
	var gwOpts []gateway.Option
	if book != nil {
		gwOpts = append(gwOpts, gateway.WithVerified(orch))
	}
	gw := gateway.New(orch, cfg, logger, gwOpts...)
	defer gw.Close()
	logger.Info("mcp gateway serving on stdio", "event", "mcp_gateway_started", "transport", "stdio")
	if err := mcpserve.Serve(ctx, gw.MCPServer(), mcpserve.Options{Transport: mcpserve.Stdio,
		Stdin: io.in, Stdout: io.out, Logger: logger}); err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}
