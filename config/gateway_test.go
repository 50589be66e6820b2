package config

import (
	"strings"
	"testing"
	"time"
)

const gatewayYAML = `
mcp_servers:
  database_mcp:
    transport: stdio
    command: ./bin/talk2tables
    priority: 10
    capabilities: [execute_query]
    approval: elicit
    rate_limit: {requests_per_second: 5, burst: 10}
  crm:
    transport: streamable_http
    url: https://crm.example.com/mcp
    priority: 20
    forward_auth: true
  billing:
    transport: sse
    url: https://billing.example.com/sse
    priority: 30
    oauth: {client_id: t2t, client_secret_env: BILLING_SECRET, scopes: [read]}
gateway:
  expose: search_only
  allow: ["database_mcp__*", "crm__*", "billing__*"]
  deny: [billing__refund]
  allow_destructive: [crm__update_note]
  tools:
    ask: {rate_limit: {requests_per_second: 1, burst: 2}}
    billing__invoices: {approval: webhook}
  webhook: {url: "https://approvals.example.com/hook", timeout: 5s}
  sampling: "off"
  auth_sessions: {max: 10, ttl: 1m}
`

func TestGatewayConfig(t *testing.T) {
	cfg, err := ParseConfig([]byte(gatewayYAML))
	if err != nil {
		t.Fatalf("ParseConfig: %v", err)
	}
	g := cfg.Gateway
	if g.Expose != ExposeSearchOnly || g.Sampling != SamplingOff || g.Webhook.Timeout != 5*time.Second ||
		g.AuthSessions.Max != 10 || g.SearchResults != 10 || g.ApprovalTimeout != 2*time.Minute {
		t.Errorf("gateway = %+v", g)
	}
	db := cfg.MCPServers["database_mcp"]
	if db.Approval != ApprovalElicit || db.RateLimit == nil || db.RateLimit.Burst != 10 {
		t.Errorf("database_mcp gateway keys = %+v", db)
	}
	if !cfg.MCPServers["crm"].ForwardAuth || cfg.MCPServers["billing"].OAuth.ClientSecretEnv != "BILLING_SECRET" {
		t.Errorf("crm/billing = %+v / %+v", cfg.MCPServers["crm"], cfg.MCPServers["billing"])
	}
	tests := []struct {
		name        string
		destructive bool
		want        string // "" = allowed
	}{
		{"database_mcp__execute_query", false, ""},
		{"billing__refund", false, "gateway.deny"},
		{"other__x", false, "gateway.allow"},
		{"crm__update_note", true, ""},
		{"crm__delete_all", true, "destructive"},
	}
	for _, tt := range tests {
		if got := g.ToolAllowed(tt.name, tt.destructive); (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("ToolAllowed(%s, %v) = %q, want %q", tt.name, tt.destructive, got, tt.want)
		}
	}
}

func TestGatewayConfigProblems(t *testing.T) {
	yaml := `
mcp_servers:
  db:
    transport: stdio
    command: x
    priority: 1
    capabilities: [execute_query]
    forward_auth: true
    approval: ask_mom
    rate_limit: {requests_per_second: 0, burst: 0}
    oauth: {client_id: "", client_secret_env: "the secret"}
gateway:
  expose: everything
  sampling: maybe
  allow: ["[bad"]
  tools:
    nope__x: {approval: webhook}
    teleport: {}
    ask: {approval: elicit}
  auth_sessions: {max: 0}
  search_results: 0
`
	_, err := ParseConfig([]byte(yaml))
	if err == nil {
		t.Fatal("ParseConfig accepted a bad gateway configuration")
	}
	for _, want := range []string{
		"mcp_servers.db.approval: unknown approval \"ask_mom\"",
		"mcp_servers.db.rate_limit.requests_per_second: 0 must be > 0",
		"mcp_servers.db.rate_limit.burst: 0 must be >= 1",
		"mcp_servers.db.forward_auth: needs transport sse or streamable_http",
		"mcp_servers.db.forward_auth: a server reached with each caller's own token cannot answer questions",
		"mcp_servers.db.oauth.client_id: required",
		"mcp_servers.db.oauth.client_secret_env: must be the NAME",
		`gateway.expose: unknown mode "everything"`,
		`gateway.sampling: unknown mode "maybe"`,
		`gateway.allow[0]: "[bad" is not a valid pattern`,
		`gateway.tools.nope__x: no server "nope"`,
		"gateway.tools.teleport: not a namespaced tool",
		"gateway.tools.ask.approval: approvals apply to downstream tools and verify only",
		"gateway.webhook.url: required when a server or tool uses approval: webhook",
		"gateway.auth_sessions.max: 0 must be >= 1",
		"gateway.search_results: 0 is out of range 1..100",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}
