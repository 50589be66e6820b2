// Command mcpclient connects talk2tables' MCP client side (the
// orchestrator) to one remote MCP server over streamable HTTP, lists its
// tools and calls the first one that takes no required argument. The MCP
// conformance suite's client scenarios run it (scripts/interop/conformance.test.mjs):
//
//	mcpclient <server-url>
//
// MCP_CONFORMANCE_CONTEXT (set by the suite) may carry OAuth client
// credentials {"client_id", "client_secret"}: they become the server's
// oauth configuration, so the orchestrator's discovery and
// client-credentials code is what the suite checks.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"time"

	"talk2tables/config"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/mcpclient"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mcpclient:", err)
		os.Exit(1)
	}
}

func run() error {
	if len(os.Args) < 2 {
		return fmt.Errorf("usage: mcpclient <server-url>")
	}
	url := os.Args[len(os.Args)-1]
	var conformance struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &conformance); err != nil {
			return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 0
	remote := config.ServerConfig{Name: "remote", Transport: config.TransportStreamableHTTP, URL: url,
		Priority: 1, Capabilities: []string{config.CapExecuteQuery}}
	if conformance.ClientID != "" {
		const secretEnv = "MCPCLIENT_OAUTH_SECRET"
		if err := os.Setenv(secretEnv, conformance.ClientSecret); err != nil {
			return err
		}
		remote.OAuth = &config.OAuthClientConfig{ClientID: conformance.ClientID, ClientSecretEnv: secretEnv}
	}
	cfg.MCPServers = map[string]config.ServerConfig{"remote": remote}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	logger := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	orch, err := orchestrator.New(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer orch.Close()
	for _, d := range orch.Downstreams() {
		for _, t := range d.Tools {
			fmt.Println("tool:", t.Name)
			if len(t.InputSchema.Required) == 0 {
				res, err := orch.CallTool(ctx, d.ID, t.Name, map[string]any{}, mcpclient.CallOptions{})
				if err != nil {
					return fmt.Errorf("call %s: %w", t.Name, err)
				}
				fmt.Println("called:", t.Name, "isError:", res.IsError)
				return nil
			}
		}
	}
	return nil
}
