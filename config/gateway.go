package config

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"
	"time"
)

// Approval modes of a downstream server or tool (ServerConfig.Approval,
// ToolPolicy.Approval).
const (
	ApprovalNone    = "none"    // call without asking
	ApprovalElicit  = "elicit"  // ask the connected MCP client (elicitation) first
	ApprovalWebhook = "webhook" // post the call to gateway.webhook.url and wait for allow/deny
)

// Exposure modes of the gateway's tools/list (GatewayConfig.Expose).
const (
	ExposeAll        = "all"         // built-in tools plus every allowed downstream tool
	ExposeSearchOnly = "search_only" // built-in tools only; downstream tools through search + execute
)

// Sampling modes of the gateway's ask tool (GatewayConfig.Sampling).
const (
	SamplingAuto = "auto" // the client's model writes SQL when no LLM is configured and the client can sample
	SamplingOff  = "off"  // never ask the client's model
)

// RateLimit is a token bucket: Rate requests per second, up to Burst at once.
type RateLimit struct {
	Rate  float64 `yaml:"requests_per_second"`
	Burst int     `yaml:"burst"`
}

// OAuthClientConfig gets an OAuth 2.1 client-credentials token for a remote
// MCP server that answers 401 with protected-resource metadata (RFC 9728):
// the authorization server and its token endpoint are discovered, the token
// is cached and refreshed before it expires.
type OAuthClientConfig struct {
	ClientID string `yaml:"client_id"`
	// ClientSecretEnv names the environment variable holding the client
	// secret (never the secret itself).
	ClientSecretEnv string   `yaml:"client_secret_env"`
	Scopes          []string `yaml:"scopes"`
	// RefreshBefore is how long before its expiry a token is replaced
	// (default 60s).
	RefreshBefore time.Duration `yaml:"refresh_before"`
}

// ToolPolicy is the gateway policy of one tool, keyed by its namespaced name
// ("server__tool", or a built-in tool such as "ask").
type ToolPolicy struct {
	Approval  string     `yaml:"approval"`
	RateLimit *RateLimit `yaml:"rate_limit"`
}

// WebhookConfig is where approval: webhook posts a call.
type WebhookConfig struct {
	URL string `yaml:"url"`
	// Headers are sent with every post; values expand ${VAR} and are never
	// logged.
	Headers map[string]string `yaml:"headers"`
	Timeout time.Duration     `yaml:"timeout"` // default 10s; no answer in time denies the call
}

// AuthSessionsConfig bounds the per-caller sessions of forward_auth servers.
type AuthSessionsConfig struct {
	Max int           `yaml:"max"` // sessions kept (LRU), default 100
	TTL time.Duration `yaml:"ttl"` // a session unused this long is closed, default 10m
}

// GatewayConfig configures talk2tables as an MCP server (package gateway:
// `talk2tables mcp` and /mcp, /sse of `serve`).
type GatewayConfig struct {
	Expose string `yaml:"expose"` // all | search_only; default all
	// Allow, when not empty, lists the downstream tools re-exposed
	// (namespaced names, path.Match patterns such as "database_mcp__*").
	Allow []string `yaml:"allow"`
	// Deny lists downstream tools never re-exposed; it wins over Allow.
	Deny []string `yaml:"deny"`
	// AllowDestructive lists tools re-exposed although they may be
	// destructive (destructiveHint true, or no read-only hint): those are
	// denied unless named here.
	AllowDestructive []string              `yaml:"allow_destructive"`
	Tools            map[string]ToolPolicy `yaml:"tools"`
	Webhook          WebhookConfig         `yaml:"webhook"`
	// ApprovalTimeout bounds how long an elicitation approval may wait for
	// the user (default 2m).
	ApprovalTimeout time.Duration      `yaml:"approval_timeout"`
	Sampling        string             `yaml:"sampling"` // auto | off; default auto
	AuthSessions    AuthSessionsConfig `yaml:"auth_sessions"`
	// SearchResults is how many hits the search tool returns (default 10).
	SearchResults int `yaml:"search_results"`
}

// defaultGatewayConfig is the gateway part of DefaultConfig.
func defaultGatewayConfig() GatewayConfig {
	return GatewayConfig{
		Expose:          ExposeAll,
		Webhook:         WebhookConfig{Timeout: 10 * time.Second},
		ApprovalTimeout: 2 * time.Minute,
		Sampling:        SamplingAuto,
		AuthSessions:    AuthSessionsConfig{Max: 100, TTL: 10 * time.Minute},
		SearchResults:   10,
	}
}

// builtinToolNames are the gateway's own tools; gateway.tools may set their
// rate limits.
var builtinToolNames = []string{"ask", "run_sql", "health", "search", "execute", ToolVerify}

// ToolVerify is the gateway's tool that saves a verified question: the one
// built-in tool that writes (to talk2tables' state, never to the user's
// database), so the one whose approval can be set (default elicit).
const ToolVerify = "verify"

// Headers the HTTP face (package server) sets on the MCP requests it
// passes to the MCP face (package gateway), after its own
// authentication: the caller's role, and an editor key's name. It drops
// any a client sent.
const (
	HeaderRole   = "X-Talk2tables-Role"
	HeaderEditor = "X-Talk2tables-Editor"
)

// Roles of HeaderRole.
const (
	RoleEditor = "editor" // an editor key: may ask and verify
	RoleViewer = "viewer" // an API key: may ask, not verify
	RoleOpen   = "open"   // no API key is configured: anyone may
)

// VerifyApproval is the approval the verify tool needs: its
// gateway.tools.verify entry, else elicit (ask the client's user).
func (g GatewayConfig) VerifyApproval() string {
	if p, ok := g.Tools[ToolVerify]; ok && p.Approval != "" {
		return p.Approval
	}
	return ApprovalElicit
}

// IsBuiltinTool reports whether name is one of the gateway's own tools.
func IsBuiltinTool(name string) bool { return slices.Contains(builtinToolNames, name) }

// IsDestructive reports whether a tool's annotations allow destructive
// updates, as MCP reads them: a tool that does not say it is read-only and
// does not say destructiveHint false may destroy.
func IsDestructive(readOnly, destructive *bool) bool {
	if readOnly != nil && *readOnly {
		return false
	}
	return destructive == nil || *destructive
}

// ToolAllowed applies gateway.allow, gateway.deny and the destructive
// default to the namespaced tool name; it returns "" or the reason the tool
// is not re-exposed.
func (g GatewayConfig) ToolAllowed(name string, destructive bool) string {
	if matchAny(g.Deny, name) {
		return "denied by gateway.deny"
	}
	if len(g.Allow) > 0 && !matchAny(g.Allow, name) {
		return "not in gateway.allow"
	}
	if destructive && !matchAny(g.AllowDestructive, name) {
		return "may be destructive (no readOnlyHint, destructiveHint not false); list it in gateway.allow_destructive to re-expose it"
	}
	return ""
}

// matchAny reports whether name matches one of the path.Match patterns.
func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, err := path.Match(p, name); err == nil && ok {
			return true
		}
	}
	return false
}

// validateServerPolicy checks a server's gateway keys.
func validateServerPolicy(at string, s ServerConfig, add func(string, ...any)) {
	checkApproval(at+".approval", s.Approval, add)
	checkRateLimit(at+".rate_limit", s.RateLimit, add)
	if s.ForwardAuth {
		switch s.Transport {
		case TransportSSE, TransportStreamableHTTP:
		default:
			add("%s.forward_auth: needs transport sse or streamable_http (the caller's Authorization header is sent over HTTP)", at)
		}
		if s.HasCapability(CapExecuteQuery) || s.HasCapability(CapListResources) {
			add("%s.forward_auth: a server reached with each caller's own token cannot answer questions for everyone; remove capabilities execute_query and list_resources (its tools and resources are re-exposed to MCP clients)", at)
		}
		if s.OAuth != nil {
			add("%s.oauth: not used with forward_auth (the caller's token is sent); remove one of them", at)
		}
	}
	if o := s.OAuth; o != nil {
		switch s.Transport {
		case TransportSSE, TransportStreamableHTTP:
		default:
			add("%s.oauth: needs transport sse or streamable_http", at)
		}
		if strings.TrimSpace(o.ClientID) == "" {
			add("%s.oauth.client_id: required", at)
		}
		if o.ClientSecretEnv == "" || strings.ContainsAny(o.ClientSecretEnv, " =$") {
			add("%s.oauth.client_secret_env: must be the NAME of the environment variable holding the client secret", at)
		}
		if o.RefreshBefore < 0 {
			add("%s.oauth.refresh_before: %v must not be negative", at, o.RefreshBefore)
		}
		if _, ok := s.Headers["Authorization"]; ok {
			add("%s.headers.Authorization: set by oauth; remove the static header", at)
		}
	}
}

func checkApproval(at, v string, add func(string, ...any)) {
	switch v {
	case "", ApprovalNone, ApprovalElicit, ApprovalWebhook:
	default:
		add("%s: unknown approval %q (want none, elicit or webhook)", at, v)
	}
}

func checkRateLimit(at string, r *RateLimit, add func(string, ...any)) {
	if r == nil {
		return
	}
	if r.Rate <= 0 {
		add("%s.requests_per_second: %v must be > 0 (remove rate_limit to turn it off)", at, r.Rate)
	}
	if r.Burst < 1 {
		add("%s.burst: %d must be >= 1", at, r.Burst)
	}
}

// validateGateway checks the gateway section.
func (c *Config) validateGateway(add func(string, ...any)) {
	g := c.Gateway
	switch g.Expose {
	case ExposeAll, ExposeSearchOnly:
	default:
		add("gateway.expose: unknown mode %q (want all or search_only)", g.Expose)
	}
	switch g.Sampling {
	case SamplingAuto, SamplingOff:
	default:
		add("gateway.sampling: unknown mode %q (want auto or off)", g.Sampling)
	}
	for _, list := range []struct {
		name     string
		patterns []string
	}{{"allow", g.Allow}, {"deny", g.Deny}, {"allow_destructive", g.AllowDestructive}} {
		for i, p := range list.patterns {
			if _, err := path.Match(p, ""); err != nil || p == "" {
				add("gateway.%s[%d]: %q is not a valid pattern (namespaced tool names with * and ?, e.g. database_mcp__*)", list.name, i, p)
			}
		}
	}
	names := make([]string, 0, len(g.Tools))
	for n := range g.Tools {
		names = append(names, n)
	}
	sort.Strings(names)
	usesWebhook := false
	for _, n := range names {
		p := g.Tools[n]
		at := "gateway.tools." + n
		if i := strings.Index(n, "__"); i > 0 {
			if _, ok := c.MCPServers[n[:i]]; !ok {
				add("%s: no server %q in mcp_servers (keys are server__tool or a built-in tool: %s)", at, n[:i], strings.Join(builtinToolNames, ", "))
			}
		} else if !IsBuiltinTool(n) {
			add("%s: not a namespaced tool (server__tool) nor a built-in tool (%s)", at, strings.Join(builtinToolNames, ", "))
		}
		checkApproval(at+".approval", p.Approval, add)
		if p.Approval != "" && p.Approval != ApprovalNone && IsBuiltinTool(n) && n != ToolVerify {
			add("%s.approval: approvals apply to downstream tools and verify only", at)
		}
		checkRateLimit(at+".rate_limit", p.RateLimit, add)
		usesWebhook = usesWebhook || p.Approval == ApprovalWebhook
	}
	for _, s := range c.MCPServers {
		usesWebhook = usesWebhook || s.Approval == ApprovalWebhook
	}
	if w := g.Webhook; w.URL != "" {
		if u, err := url.Parse(w.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			add("gateway.webhook.url: %q is not an http(s) URL", w.URL)
		}
	} else if usesWebhook {
		add("gateway.webhook.url: required when a server or tool uses approval: webhook")
	}
	if g.Webhook.Timeout <= 0 {
		add("gateway.webhook.timeout: must be a positive duration such as 10s")
	}
	if g.ApprovalTimeout <= 0 {
		add("gateway.approval_timeout: must be a positive duration such as 2m")
	}
	if g.AuthSessions.Max < 1 {
		add("gateway.auth_sessions.max: %d must be >= 1", g.AuthSessions.Max)
	}
	if g.AuthSessions.TTL <= 0 {
		add("gateway.auth_sessions.ttl: must be a positive duration such as 10m")
	}
	if g.SearchResults < 1 || g.SearchResults > 100 {
		add("gateway.search_results: %d is out of range 1..100", g.SearchResults)
	}
}

// String names a rate limit for messages, e.g. "5/s (burst 10)".
func (r RateLimit) String() string {
	return fmt.Sprintf("%g/s (burst %d)", r.Rate, r.Burst)
}
