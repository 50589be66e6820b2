// Package config is talk2tables' configuration, mcp_config.yaml: its types
// and defaults, strict YAML decoding whose errors name the key and line in
// words for the person editing the file, and validation per section that
// reports every problem with its path.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"talk2tables/resultlimit"
	"talk2tables/sqlscan"
)

// Transport names accepted in ServerConfig.Transport.
const (
	TransportStdio          = "stdio"
	TransportSSE            = "sse"
	TransportStreamableHTTP = "streamable_http"
	// TransportInProcess attaches a server registered with WithInProcessServer.
	TransportInProcess = "inprocess"
)

// Capability names accepted in ServerConfig.Capabilities.
const (
	CapExecuteQuery  = "execute_query"
	CapValidateQuery = "validate_query"
	CapListResources = "list_resources"
	CapListTools     = "list_tools"
)

// knownCapabilities is the vocabulary of ServerConfig.Capabilities.
var knownCapabilities = []string{CapExecuteQuery, CapValidateQuery, CapListResources, CapListTools}

// Config is the whole configuration (mcp_config.yaml).
type Config struct {
	MCPServers    map[string]ServerConfig `yaml:"mcp_servers"`
	Orchestration OrchestrationConfig     `yaml:"orchestration"`
	LLM           LLMConfig               `yaml:"llm"`
	HTTP          HTTPConfig              `yaml:"http"`
	// Gateway configures talk2tables as an MCP server (package gateway).
	Gateway GatewayConfig `yaml:"gateway"`
	// State is talk2tables' own small database (verified questions).
	State StateConfig `yaml:"state"`
}

// ServerConfig is one MCP server. Relative stdio command and cwd paths are
// resolved against the process working directory (not the config file's
// directory), which is what running from the repository root expects.
type ServerConfig struct {
	Name      string `yaml:"name"`
	Transport string `yaml:"transport"` // stdio | sse | streamable_http | inprocess
	// stdio
	Command string            `yaml:"command"`
	Args    []string          `yaml:"args"`
	Env     map[string]string `yaml:"env"` // added to the parent environment; values expand ${VAR}
	Cwd     string            `yaml:"cwd"`
	// sse and streamable_http
	URL string `yaml:"url"`
	// Headers are sent on every request; values expand ${VAR} from the
	// environment at connect time and are never logged.
	Headers map[string]string `yaml:"headers"`
	// Timeout bounds connecting and each call to this server; 0 means
	// orchestration.mcp_call_timeout.
	Timeout time.Duration `yaml:"timeout"`

	Priority     int      `yaml:"priority"` // 1..999, lower is preferred
	Domains      []string `yaml:"domains"`
	Capabilities []string `yaml:"capabilities"`
	// Prompt says which of the server's resources are gathered and feed
	// the LLM prompt: auto (default), all, none, or a list of URI
	// patterns (see PromptResources).
	Prompt PromptResources `yaml:"prompt"`
	// MaxResourceBytes caps one resource (its text) other than a database
	// schema or a catalog: a larger one is left out with a WARN naming it.
	// 0 means DefaultMaxResourceBytes (256 KiB).
	MaxResourceBytes int `yaml:"max_resource_bytes"`
	// SQLTool names a third-party executor's SQL tool and its argument;
	// default {name: execute_query, argument: query}.
	SQLTool *SQLTool `yaml:"sql_tool"`
	// Required says whether questions (and /health) need this server: a
	// required server that is down fails questions and, at start, serve;
	// one that is not is skipped (metadata.missing_servers). Unset: the
	// orchestration.fail_fast value when the file sets it, else true for
	// executors and the metadata server (see Config.Required).
	Required *bool `yaml:"required"`
	// Dialect is an executor's SQL dialect (sqlite, postgres or mysql): the
	// static read-only check, the schema discovery queries and the
	// discovered schema's dialect use it. Unset: the dialect its schema
	// resource declares, else the one schema discovery recognises.
	Dialect string `yaml:"dialect"`
	// SchemaDiscovery says how an executor whose resources hold no schema
	// gets one: auto (SQL catalog queries in its dialect, else its search
	// tool), sql, search_tool or off. Default auto.
	SchemaDiscovery string `yaml:"schema_discovery"`
	// CatalogFor binds the semantic catalog this (metadata) server serves
	// to the executor with this id. Unset, a catalog belongs to the
	// executor whose schema holds most of its tables (see databases.go).
	CatalogFor string `yaml:"catalog_for"`

	// Gateway keys (talk2tables as an MCP server re-exposing this server).
	// ForwardAuth sends each MCP caller's Authorization header instead of
	// static headers, with one session per caller token (see
	// gateway.auth_sessions); such a server is not connected at start.
	ForwardAuth bool `yaml:"forward_auth"`
	// OAuth gets a client-credentials token when the server asks for one.
	OAuth *OAuthClientConfig `yaml:"oauth"`
	// Approval is asked before any of its tools runs: none, elicit or webhook.
	Approval string `yaml:"approval"`
	// RateLimit bounds calls to this server's tools through the gateway.
	RateLimit *RateLimit `yaml:"rate_limit"`
}

// SQL dialects of ServerConfig.Dialect (sqlscan.Dialect's names).
const (
	DialectSQLite   = "sqlite"
	DialectPostgres = "postgres"
	DialectMySQL    = "mysql"
)

// Values of ServerConfig.SchemaDiscovery.
const (
	DiscoveryAuto   = "auto"
	DiscoverySQL    = "sql"
	DiscoverySearch = "search_tool"
	DiscoveryOff    = "off"
)

// SQLTool maps the executor's SQL tool.
type SQLTool struct {
	Name     string `yaml:"name"`
	Argument string `yaml:"argument"`
}

// HasCapability reports whether the server is configured with capability c.
func (s ServerConfig) HasCapability(c string) bool { return slices.Contains(s.Capabilities, c) }

// ExecuteTool returns the executor's SQL tool name and its argument.
func (s ServerConfig) ExecuteTool() (name, arg string) {
	name, arg = "execute_query", "query"
	if s.SQLTool != nil {
		if s.SQLTool.Name != "" {
			name = s.SQLTool.Name
		}
		if s.SQLTool.Argument != "" {
			arg = s.SQLTool.Argument
		}
	}
	return name, arg
}

// OrchestrationConfig tunes the query loop and connections.
type OrchestrationConfig struct {
	ResourceCacheTTL int `yaml:"resource_cache_ttl"` // seconds; default 300; 0 disables caching
	// FailFast, when set, is the `required` of every server that does not
	// say; unset (the default), executors and the metadata server are
	// required and other servers are not.
	FailFast         *bool `yaml:"fail_fast"`
	MaxRetryAttempts int   `yaml:"max_retry_attempts"` // attempts in total, 1..10, default 3
	// QueryTimeout bounds one whole question (default 30s).
	QueryTimeout time.Duration `yaml:"query_timeout"`
	// MCPCallTimeout bounds one MCP call and a connection attempt (default 15s).
	MCPCallTimeout time.Duration `yaml:"mcp_call_timeout"`
	// PingInterval is how often connected servers are pinged to notice silent
	// deaths and hangs (default 3s; 0 disables pinging).
	PingInterval time.Duration `yaml:"ping_interval"`
	// PingTimeout bounds one liveness ping (default 2s): a server whose
	// ping does not answer within it is unresponsive at once. It also
	// bounds the ping that decides, after a call timed out, whether the
	// call was slow or the server hung. A server's ping never waits longer
	// than its own call timeout.
	PingTimeout time.Duration `yaml:"ping_timeout"`
	LogLevel    string        `yaml:"log_level"`  // debug | info | warn | error
	LogFormat   string        `yaml:"log_format"` // json | text
	// EnableLogging is the original design's switch: false logs only
	// warnings and errors (a log_level of debug or info is raised to warn
	// when the file is read); true or unset logs at log_level.
	EnableLogging *bool `yaml:"enable_logging"`
	// ResultCache keeps the results of read-only SQL (see ResultCacheConfig).
	ResultCache ResultCacheConfig `yaml:"result_cache"`
	// MaxResultBytes bounds the rows of a result accepted from any executor
	// (as JSON; default 16 MiB): rows past it are left out and the result is
	// marked truncated. A message from an HTTP MCP server longer than three
	// times this (plus 1 MiB) is refused while it is read (RESOURCE_LIMIT).
	MaxResultBytes int `yaml:"max_result_bytes"`
	// MaxCellBytes bounds one value of a result (as JSON; default 64 KiB):
	// longer values are cut, ending in "…".
	MaxCellBytes int `yaml:"max_cell_bytes"`
}

// ResultCacheConfig configures the cache of SQL results (package
// orchestrator/resultcache): a statement run again on the same executor
// with the same row cap, while its data has not changed and within TTL, is
// answered from memory.
type ResultCacheConfig struct {
	Enabled  bool          `yaml:"enabled"`   // default true
	TTL      time.Duration `yaml:"ttl"`       // how long a result is fresh; default 60s
	MaxBytes int64         `yaml:"max_bytes"` // total size of cached results (their JSON); default 64 MiB
	// MaxStale is how old a cached result may be and still be served,
	// marked stale, while its executor is down; default 0 (never).
	MaxStale time.Duration `yaml:"max_stale"`
}

// validate reports the problems of the result_cache section.
func (r ResultCacheConfig) validate(add func(format string, args ...any)) {
	if !r.Enabled {
		return
	}
	if r.TTL < time.Second {
		add("orchestration.result_cache.ttl: %v is too short; write a duration of at least 1s, e.g. 60s (or enabled: false)", r.TTL)
	}
	if r.MaxBytes < 1<<20 {
		add("orchestration.result_cache.max_bytes: %d is below 1 MiB (1048576); e.g. 67108864 for 64 MiB", r.MaxBytes)
	}
	if r.MaxStale < 0 {
		add("orchestration.result_cache.max_stale: %v must not be negative (0 never serves stale results)", r.MaxStale)
	}
}

// CacheTTL returns the resource cache TTL as a duration.
func (o OrchestrationConfig) CacheTTL() time.Duration {
	return time.Duration(o.ResourceCacheTTL) * time.Second
}

// LLMConfig selects and tunes the SQL generator.
type LLMConfig struct {
	// Provider is openai (any OpenAI-compatible base_url), anthropic, ollama
	// or builtin; empty means builtin.
	Provider    string        `yaml:"provider"`
	Model       string        `yaml:"model"`
	BaseURL     string        `yaml:"base_url"`
	APIKeyEnv   string        `yaml:"api_key_env"` // name of the env var holding the key
	Temperature float64       `yaml:"temperature"`
	Timeout     time.Duration `yaml:"timeout"` // per LLM request; default 30s
	// DeadlineReserve is kept from each question's query_timeout: the LLM's
	// requests, retries included, end that long before the question's
	// deadline, leaving the fallback and the SQL time to run. 0 means a
	// third of query_timeout (10s of the default 30s); see LLMSettings.
	DeadlineReserve time.Duration `yaml:"deadline_reserve"`
	// MaxResponseBytes bounds one HTTP answer of the LLM (0: 4 MiB): a
	// longer one is not read further and fails the request.
	MaxResponseBytes int64 `yaml:"max_response_bytes"`
	MaxTokens        int   `yaml:"max_tokens"` // default 1024
	// MaxRetries is how many times a failed LLM request (timeout, HTTP 429,
	// 5xx, connection failure) is retried: 0..10, default 3; 0 never retries.
	MaxRetries int `yaml:"max_retries"`
	// RetryBaseDelay is the wait before the first retry, doubled for each
	// further one, with jitter (a server's Retry-After wins); default 500ms,
	// 0 also means 500ms.
	RetryBaseDelay time.Duration `yaml:"retry_base_delay"`
	// Fallback "builtin" (the default) answers with the offline generator
	// when the LLM cannot be reached, fails, times out or its circuit is
	// open; "none" (or "") turns the fallback off.
	Fallback string `yaml:"fallback"`
	// CircuitFailures consecutive questions whose LLM call failed (after
	// its retries) open the circuit: the LLM is skipped for CircuitCooldown
	// (the fallback answers at once, or the question fails fast), then one
	// question probes it. Default 3; 0 turns the breaker off.
	CircuitFailures int           `yaml:"circuit_failures"`
	CircuitCooldown time.Duration `yaml:"circuit_cooldown"` // default 30s
	// PromptTokenBudget bounds each LLM prompt, in estimated tokens
	// (characters / 4): when the schema and catalog resources make a
	// larger prompt, each question's prompt shows the tables relevant to
	// it. Default 8000; 0 turns the bound off.
	PromptTokenBudget int `yaml:"prompt_token_budget"`
}

// Bounds of llm.max_retries and llm.retry_base_delay.
const (
	maxLLMRetries     = 10
	maxRetryBaseDelay = 30 * time.Second
)

// FallbackNone turns llm.fallback off.
const FallbackNone = "none"

// Bounds of llm.max_response_bytes.
const (
	DefaultLLMMaxResponseBytes = 4 << 20
	minLLMResponseBytes        = 1 << 10
	maxLLMResponseBytes        = 1 << 30
)

// LLM provider names.
const (
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
	ProviderOllama    = "ollama"
	ProviderBuiltin   = "builtin"
)

// HTTPConfig configures the HTTP API (consumed by package server only).
type HTTPConfig struct {
	Addr       string `yaml:"addr"`         // ":8001"
	APIKeysEnv string `yaml:"api_keys_env"` // env var with comma-separated API keys; unset/empty → no auth
	// EditorKeysEnv names the environment variable holding the keys that
	// may also teach (verify questions): comma-separated, each "name:key"
	// or a bare key. They are API keys too. With API keys configured and
	// no editor key, nobody can verify over HTTP.
	EditorKeysEnv     string        `yaml:"editor_keys_env"`
	RateLimit         float64       `yaml:"rate_limit"`          // requests/s per client; 0 = off. default 20
	RateBurst         int           `yaml:"rate_burst"`          // default 40
	CORSOrigins       []string      `yaml:"cors_origins"`        // allowed browser origins
	MaxBodyBytes      int64         `yaml:"max_body_bytes"`      // default 65536
	MaxQuestionLength int           `yaml:"max_question_length"` // default 2000
	DefaultMaxRows    int           `yaml:"default_max_rows"`    // 500
	MaxRowsLimit      int           `yaml:"max_rows_limit"`      // 10000
	ShutdownTimeout   time.Duration `yaml:"shutdown_timeout"`    // 30s
	// AllowUnauthenticated lets serve listen beyond the loopback interface
	// with no API keys configured (it then logs a WARN at start). Without it,
	// an address on all interfaces (":8001") is narrowed to 127.0.0.1, and
	// any other non-loopback address is refused.
	AllowUnauthenticated bool `yaml:"allow_unauthenticated"`
	// MetricsAuth puts /metrics behind the API keys.
	MetricsAuth bool `yaml:"metrics_auth"`
	// MetricsAddr serves /metrics on its own listener (e.g.
	// "127.0.0.1:9090") instead of the API's.
	MetricsAddr string `yaml:"metrics_addr"`
}

// Environment variables set for stdio MCP children so they log at the
// orchestrator's level and format; talk2tables' own MCP subcommands read them
// as the defaults of --log-level and --log-format.
const (
	EnvLogLevel  = "TALK2TABLES_LOG_LEVEL"
	EnvLogFormat = "TALK2TABLES_LOG_FORMAT"
)

// DefaultConfig returns the defaults every loaded file starts from. It has
// no servers: a usable configuration must name at least one.
func DefaultConfig() *Config {
	return &Config{
		MCPServers: map[string]ServerConfig{},
		Orchestration: OrchestrationConfig{
			ResourceCacheTTL: 300,
			MaxRetryAttempts: 3,
			QueryTimeout:     30 * time.Second,
			MCPCallTimeout:   15 * time.Second,
			PingInterval:     2500 * time.Millisecond,
			PingTimeout:      2 * time.Second,
			LogLevel:         "info",
			LogFormat:        "json",
			ResultCache:      ResultCacheConfig{Enabled: true, TTL: 60 * time.Second, MaxBytes: 64 << 20},
			MaxResultBytes:   resultlimit.DefaultMaxBytes,
			MaxCellBytes:     resultlimit.DefaultMaxCellBytes,
		},
		LLM: LLMConfig{
			Timeout:         30 * time.Second,
			MaxTokens:       1024,
			MaxRetries:      3,
			RetryBaseDelay:  500 * time.Millisecond,
			CircuitFailures: 3,
			CircuitCooldown: 30 * time.Second,
			Fallback:        ProviderBuiltin,

			MaxResponseBytes: DefaultLLMMaxResponseBytes,

			PromptTokenBudget: DefaultPromptTokenBudget,
		},
		HTTP: HTTPConfig{
			Addr:              ":8001",
			RateLimit:         20,
			RateBurst:         40,
			MaxBodyBytes:      65536,
			MaxQuestionLength: 2000,
			DefaultMaxRows:    500,
			MaxRowsLimit:      10000,
			ShutdownTimeout:   30 * time.Second,
		},
		Gateway: defaultGatewayConfig(),
	}
}

// LoadConfig reads the YAML file at path over DefaultConfig, strictly (an
// unknown key is an error naming its line), then validates it, reporting
// every problem with its path.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	cfg, err := ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	cfg.State.resolve(filepath.Dir(path))
	return cfg, nil
}

// ParseConfig is LoadConfig for YAML already in memory.
func ParseConfig(data []byte) (*Config, error) {
	cfg := DefaultConfig()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		if ce := explainDecodeError(data, err); ce != err {
			return nil, ce
		}
		return nil, fmt.Errorf("%s (check the key names and value types against the documented configuration)",
			strings.TrimPrefix(err.Error(), "yaml: "))
	}
	// A second document is almost always a paste mistake.
	var extra any
	if err := dec.Decode(&extra); err == nil {
		return nil, errors.New("more than one YAML document; keep the whole configuration in one document")
	}
	if cfg.MCPServers == nil {
		cfg.MCPServers = map[string]ServerConfig{}
	}
	if off := cfg.Orchestration.EnableLogging; off != nil && !*off {
		switch strings.ToLower(cfg.Orchestration.LogLevel) {
		case "", "debug", "info":
			cfg.Orchestration.LogLevel = "warn"
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// ConfigError lists every problem found by Validate.
type ConfigError struct {
	Problems []string
}

func (e *ConfigError) Error() string {
	if len(e.Problems) == 1 {
		return "invalid configuration: " + e.Problems[0]
	}
	return fmt.Sprintf("invalid configuration (%d problems):\n  %s", len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// Validate checks the whole configuration and returns a *ConfigError naming
// every problem with its path, or nil.
func (c *Config) Validate() error {
	var p []string
	add := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }
	c.validateServers(add)
	c.Orchestration.validate(add)
	c.LLM.validate(add)
	if r, q := c.LLM.DeadlineReserve, c.Orchestration.QueryTimeout; r > 0 && q > 0 && r >= q {
		add("llm.deadline_reserve: %v leaves the LLM no time: it must be shorter than orchestration.query_timeout (%v)", r, q)
	}
	c.HTTP.validate(add)
	c.validateGateway(add)
	c.State.validate(add)
	if len(p) > 0 {
		return &ConfigError{Problems: p}
	}
	return nil
}

// validateServers checks mcp_servers: each server, that one of them is an
// executor, and every catalog_for.
func (c *Config) validateServers(add func(format string, args ...any)) {
	if len(c.MCPServers) == 0 {
		add("mcp_servers: no server configured; add at least one (e.g. a database server with capability execute_query)")
	}
	ids := make([]string, 0, len(c.MCPServers))
	for id := range c.MCPServers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	executors := 0
	for _, id := range ids {
		s := c.MCPServers[id]
		validateServer("mcp_servers."+id, id, s, add)
		if s.HasCapability(CapExecuteQuery) {
			executors++
		}
	}
	if len(c.MCPServers) > 0 && executors == 0 {
		add("mcp_servers: no server has capability execute_query; questions cannot be answered without an executor")
	}
	c.validateCatalogFor(ids, add)
}

// validateServer checks the server with config id at path at.
func validateServer(at, id string, s ServerConfig, add func(format string, args ...any)) {
	if strings.Contains(id, "__") {
		add("%s: server id must not contain \"__\" (it separates server and tool in qualified tool names)", at)
	}
	switch s.Transport {
	case TransportStdio:
		if strings.TrimSpace(s.Command) == "" {
			add("%s.command: required for transport stdio", at)
		}
		if s.URL != "" {
			add("%s.url: not used by transport stdio; remove it or use sse/streamable_http", at)
		}
	case TransportSSE, TransportStreamableHTTP:
		if s.URL == "" {
			add("%s.url: required for transport %s", at, s.Transport)
		} else if u, err := url.Parse(s.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			add("%s.url: %q is not an http(s) URL", at, s.URL)
		}
		if s.Command != "" {
			add("%s.command: not used by transport %s; remove it or use stdio", at, s.Transport)
		}
	case TransportInProcess:
	case "":
		add("%s.transport: required (stdio, sse or streamable_http)", at)
	default:
		add("%s.transport: unknown transport %q (want stdio, sse or streamable_http)", at, s.Transport)
	}
	if s.Priority < 1 || s.Priority > 999 {
		add("%s.priority: %d is out of range 1..999", at, s.Priority)
	}
	if s.Timeout < 0 || (s.Timeout > 0 && s.Timeout < time.Millisecond) {
		add("%s.timeout: %v is too small; write a duration with a unit, e.g. 10s", at, s.Timeout)
	}
	for i, cp := range s.Capabilities {
		if !slices.Contains(knownCapabilities, cp) {
			add("%s.capabilities[%d]: unknown capability %q (want one of %s)", at, i, cp, strings.Join(knownCapabilities, ", "))
		}
	}
	switch {
	case s.Dialect != "" && !slices.Contains(sqlscan.DialectNames(), s.Dialect):
		// Never another engine's rules by default: the static check
		// cannot read SQL in a dialect it does not know.
		add("%s.dialect: unknown dialect %q (want %s)", at, s.Dialect, strings.Join(sqlscan.DialectNames(), ", "))
	case s.Dialect != "" && !s.HasCapability(CapExecuteQuery):
		add("%s.dialect: only an executor uses it; add capability execute_query or remove it", at)
	}
	switch s.SchemaDiscovery {
	case "", DiscoveryAuto, DiscoverySQL, DiscoverySearch, DiscoveryOff:
	default:
		add("%s.schema_discovery: unknown value %q (want auto, sql, search_tool or off)", at, s.SchemaDiscovery)
	}
	if s.Required != nil && *s.Required && s.ForwardAuth {
		add("%s.required: a forward_auth server is opened per caller, never at start; it cannot be required", at)
	}
	if s.SQLTool != nil {
		if s.SQLTool.Name == "" {
			add("%s.sql_tool.name: required when sql_tool is set", at)
		}
		if !s.HasCapability(CapExecuteQuery) {
			add("%s.sql_tool: only an executor uses it; add capability execute_query", at)
		}
	}
	for k := range s.Headers {
		if k == "" || strings.ContainsAny(k, " :\r\n") {
			add("%s.headers: %q is not a valid header name", at, k)
		}
	}
	validateServerPolicy(at, s, add)
	validatePrompt(at, s, add)
}

// checkDuration reports a duration at path that is not positive (zero
// allowed when zeroOK) or lacks a unit.
func checkDuration(path string, d time.Duration, zeroOK bool, add func(format string, args ...any)) {
	switch {
	case d == 0 && zeroOK:
	case d <= 0:
		add("%s: must be a positive duration such as 30s", path)
	case d < time.Millisecond:
		add("%s: %v is too small; write a duration with a unit, e.g. 30s", path, d)
	}
}

// validate checks the orchestration section.
func (o OrchestrationConfig) validate(add func(format string, args ...any)) {
	if o.ResourceCacheTTL < 0 {
		add("orchestration.resource_cache_ttl: %d must be >= 0 seconds", o.ResourceCacheTTL)
	}
	if o.MaxRetryAttempts < 1 || o.MaxRetryAttempts > 10 {
		add("orchestration.max_retry_attempts: %d is out of range 1..10", o.MaxRetryAttempts)
	}
	checkDuration("orchestration.query_timeout", o.QueryTimeout, false, add)
	checkDuration("orchestration.mcp_call_timeout", o.MCPCallTimeout, false, add)
	checkDuration("orchestration.ping_interval", o.PingInterval, true, add)
	checkDuration("orchestration.ping_timeout", o.PingTimeout, false, add)
	switch strings.ToLower(o.LogLevel) {
	case "debug", "info", "warn", "warning", "error":
	default:
		add("orchestration.log_level: unknown level %q (want debug, info, warn or error)", o.LogLevel)
	}
	switch o.LogFormat {
	case "json", "text":
	default:
		add("orchestration.log_format: unknown format %q (want json or text)", o.LogFormat)
	}
	o.ResultCache.validate(add)
	if o.MaxResultBytes < 1024 {
		add("orchestration.max_result_bytes: %d must be at least 1024 (default 16777216, 16 MiB)", o.MaxResultBytes)
	}
	if o.MaxCellBytes < 16 {
		add("orchestration.max_cell_bytes: %d must be at least 16 (default 65536, 64 KiB)", o.MaxCellBytes)
	}
}

// validate checks the llm section.
func (l LLMConfig) validate(add func(format string, args ...any)) {
	if l.PromptTokenBudget < 0 || (l.PromptTokenBudget > 0 && l.PromptTokenBudget < minPromptTokenBudget) {
		add("llm.prompt_token_budget: %d is too small; write at least %d (default %d), or 0 for no bound",
			l.PromptTokenBudget, minPromptTokenBudget, DefaultPromptTokenBudget)
	}
	switch l.Provider {
	case "", ProviderBuiltin:
	case ProviderOpenAI, ProviderAnthropic, ProviderOllama:
		if l.Model == "" {
			add("llm.model: required for provider %s", l.Provider)
		}
	default:
		add("llm.provider: unknown provider %q (want openai, anthropic, ollama or builtin)", l.Provider)
	}
	if l.BaseURL != "" {
		if u, err := url.Parse(l.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			add("llm.base_url: %q is not an http(s) URL", l.BaseURL)
		}
	}
	if l.APIKeyEnv != "" && strings.ContainsAny(l.APIKeyEnv, " =$") {
		add("llm.api_key_env: %q must be the NAME of an environment variable (the key itself never goes in the file)", l.APIKeyEnv)
	}
	if l.Temperature < 0 || l.Temperature > 2 {
		add("llm.temperature: %v is out of range 0..2", l.Temperature)
	}
	checkDuration("llm.timeout", l.Timeout, false, add)
	if l.MaxTokens < 1 {
		add("llm.max_tokens: %d must be >= 1", l.MaxTokens)
	}
	if l.MaxRetries < 0 || l.MaxRetries > maxLLMRetries {
		add("llm.max_retries: %d is out of range 0..%d (0 turns LLM retries off)", l.MaxRetries, maxLLMRetries)
	}
	switch d := l.RetryBaseDelay; {
	case d == 0:
	case d < 0:
		add("llm.retry_base_delay: %v must not be negative; write a duration such as 500ms", d)
	case d < time.Millisecond:
		add("llm.retry_base_delay: %v is too small; write a duration with a unit, e.g. 500ms", d)
	case d > maxRetryBaseDelay:
		add("llm.retry_base_delay: %v is longer than %v; retries would outlast any query (e.g. 500ms)", d, maxRetryBaseDelay)
	}
	if l.CircuitFailures < 0 || l.CircuitFailures > 100 {
		add("llm.circuit_failures: %d is out of range 0..100 (0 turns the circuit breaker off)", l.CircuitFailures)
	}
	if l.CircuitFailures > 0 && (l.CircuitCooldown < time.Second || l.CircuitCooldown > time.Hour) {
		add("llm.circuit_cooldown: %s must be between 1s and 1h", l.CircuitCooldown)
	}
	switch l.Fallback {
	case "", FallbackNone, ProviderBuiltin:
	default:
		add("llm.fallback: unknown fallback %q (want builtin, or none to turn it off)", l.Fallback)
	}
	if l.DeadlineReserve < 0 {
		add("llm.deadline_reserve: %v must not be negative (0 keeps a third of orchestration.query_timeout)", l.DeadlineReserve)
	} else if l.DeadlineReserve > 0 && l.DeadlineReserve < time.Millisecond {
		add("llm.deadline_reserve: %v is too small; write a duration with a unit, e.g. 10s", l.DeadlineReserve)
	}
	if n := l.MaxResponseBytes; n != 0 && (n < minLLMResponseBytes || n > maxLLMResponseBytes) {
		add("llm.max_response_bytes: %d is out of range %d..%d (0 or unset: %d, 4 MiB)", n, minLLMResponseBytes,
			maxLLMResponseBytes, DefaultLLMMaxResponseBytes)
	}
}

// validate checks the http section.
func (h HTTPConfig) validate(add func(format string, args ...any)) {
	if h.Addr == "" {
		add("http.addr: required, e.g. \":8001\"")
	}
	if h.RateLimit < 0 {
		add("http.rate_limit: %v must be >= 0 (0 turns rate limiting off)", h.RateLimit)
	}
	if h.RateLimit > 0 && h.RateBurst < 1 {
		add("http.rate_burst: %d must be >= 1 when rate_limit is on", h.RateBurst)
	}
	if h.MaxBodyBytes < 1 {
		add("http.max_body_bytes: %d must be >= 1", h.MaxBodyBytes)
	}
	if h.MaxQuestionLength < 1 {
		add("http.max_question_length: %d must be >= 1", h.MaxQuestionLength)
	}
	if h.MaxRowsLimit < 1 {
		add("http.max_rows_limit: %d must be >= 1", h.MaxRowsLimit)
	}
	if h.DefaultMaxRows < 1 || (h.MaxRowsLimit >= 1 && h.DefaultMaxRows > h.MaxRowsLimit) {
		add("http.default_max_rows: %d must be in 1..max_rows_limit (%d)", h.DefaultMaxRows, h.MaxRowsLimit)
	}
	checkDuration("http.shutdown_timeout", h.ShutdownTimeout, false, add)
	if h.Addr != "" {
		if err := CheckListenAddr(h.Addr); err != nil {
			add("http.addr: %v", err)
		}
	}
	if h.MetricsAddr != "" {
		if err := CheckListenAddr(h.MetricsAddr); err != nil {
			add("http.metrics_addr: %v", err)
		}
	}
}

// CheckListenAddr checks that addr is a TCP listen address: host:port or
// :port with a numeric port.
func CheckListenAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		var n int
		n, err = strconv.Atoi(port)
		if err == nil && (n < 0 || n > 65535) {
			err = errors.New("port out of range")
		}
	}
	if err != nil {
		return fmt.Errorf("%q is not a listen address: write host:port or :port, e.g. :8001 or 127.0.0.1:8001", addr)
	}
	return nil
}

// Required reports whether the server with config id is required: its own
// `required`, else orchestration.fail_fast when set, else true for an
// executor (capability execute_query) and for the metadata server.
func (c *Config) Required(id string) bool {
	s := c.MCPServers[id]
	switch {
	case s.Required != nil:
		return *s.Required
	case s.ForwardAuth:
		return false
	case c.Orchestration.FailFast != nil:
		return *c.Orchestration.FailFast
	}
	return s.HasCapability(CapExecuteQuery) || id == c.metadataServer()
}

// metadataServer is the id of the metadata server: the preferred (lowest
// priority number, then id) server that lists resources and does not
// execute SQL. "" when there is none.
func (c *Config) metadataServer() string {
	best := ""
	for id, s := range c.MCPServers {
		if !s.HasCapability(CapListResources) || s.HasCapability(CapExecuteQuery) || s.ForwardAuth {
			continue
		}
		if b, ok := c.MCPServers[best]; best == "" || !ok || s.Priority < b.Priority || (s.Priority == b.Priority && id < best) {
			best = id
		}
	}
	return best
}

// LLMSettings is the llm section with its derived defaults resolved:
// deadline_reserve 0 becomes a third of orchestration.query_timeout.
func (c *Config) LLMSettings() LLMConfig {
	l := c.LLM
	if l.DeadlineReserve == 0 {
		l.DeadlineReserve = c.Orchestration.QueryTimeout / 3
	}
	return l
}

// PingTimeout bounds one liveness ping of server s: ping_timeout, never
// longer than the server's own call timeout.
func (c *Config) PingTimeout(s ServerConfig) time.Duration {
	t := c.Orchestration.PingTimeout
	if t <= 0 {
		t = 2 * time.Second
	}
	return min(t, c.CallTimeout(s))
}

// CallTimeout is the timeout for one call to server s.
func (c *Config) CallTimeout(s ServerConfig) time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return c.Orchestration.MCPCallTimeout
}

// MaxMessageBytes is the longest single message (one JSON body, one SSE
// line) read from an HTTP MCP server: a result within max_result_bytes,
// with its JSON escaped once more inside the JSON-RPC message, fits.
func (c *Config) MaxMessageBytes() int64 {
	return 3*int64(c.Orchestration.MaxResultBytes) + 1<<20
}

// ResultLimits are the bounds serve applies to every result it accepts.
func (c *Config) ResultLimits(maxRows int) resultlimit.Limits {
	return resultlimit.Limits{MaxRows: maxRows, MaxCellBytes: c.Orchestration.MaxCellBytes,
		MaxBytes: c.Orchestration.MaxResultBytes}
}

// validateCatalogFor checks every catalog_for: it names an executor, and
// is set on a server that is not one itself.
func (c *Config) validateCatalogFor(ids []string, add func(format string, args ...any)) {
	for _, id := range ids {
		s := c.MCPServers[id]
		if s.CatalogFor == "" {
			continue
		}
		at := "mcp_servers." + id + ".catalog_for"
		target, ok := c.MCPServers[s.CatalogFor]
		switch {
		case s.HasCapability(CapExecuteQuery):
			add("%s: an executor's own catalog always belongs to its own database; remove catalog_for", at)
		case !ok || !target.HasCapability(CapExecuteQuery):
			var execs []string
			for _, x := range ids {
				if c.MCPServers[x].HasCapability(CapExecuteQuery) {
					execs = append(execs, x)
				}
			}
			add("%s: %q is not a server with capability execute_query; name one of %s", at, s.CatalogFor, quotedList(execs))
		}
	}
}

// quotedList quotes each id and joins them with commas.
func quotedList(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}
