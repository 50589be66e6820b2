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
	fs := newFlagSet("mcp", "[--config mcp_config.yaml]", io)
	flags := addConfigFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg, err := flags.load()
	if err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	logger, err := newLogger(io.err, cfg.Orchestration.LogLevel, cfg.Orchestration.LogFormat)
	if err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	orch, err := orchestrator.New(ctx, cfg, logger, orchestrator.WithChildStderr(io.err))
	if err != nil {
		return fmt.Errorf("mcp: start orchestrator: %w", err)
	}
	defer orch.Close()
	gw := gateway.New(orch, cfg, logger)
	defer gw.Close()
	logger.Info("mcp gateway serving on stdio", "event", "mcp_gateway_started", "transport", "stdio")
	if err := mcpserve.Serve(ctx, gw.MCPServer(), mcpserve.Options{Transport: mcpserve.Stdio,
		Stdin: io.in, Stdout: io.out, Logger: logger}); err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}
