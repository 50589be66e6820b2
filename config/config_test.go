package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const validYAML = `
mcp_servers:
  database_mcp:
    name: "Database MCP Server"
    transport: stdio
    command: ./bin/talk2tables
    args: [database-mcp, --db, testdata/sales.db]
    priority: 10
    domains: [sales]
    capabilities: [execute_query, list_resources]
  product_metadata_mcp:
    name: "Product Metadata MCP"
    transport: sse
    url: http://localhost:8002/sse
    headers: {Authorization: "Bearer ${META_TOKEN}"}
    timeout: 5s
    priority: 1
    capabilities: [list_resources]
orchestration:
  resource_cache_ttl: 60
  fail_fast: false
  max_retry_attempts: 5
  query_timeout: 10s
llm:
  provider: openai
  model: gpt-4o-mini
  api_key_env: OPENAI_API_KEY
  fallback: builtin
http:
  addr: ":9000"
`

func TestParseConfigValid(t *testing.T) {
	cfg, err := ParseConfig([]byte(validYAML))
	if err != nil {
		t.Fatalf("ParseConfig: %v", err)
	}
	db := cfg.MCPServers["database_mcp"]
	if db.Priority != 10 || db.Command != "./bin/talk2tables" || len(db.Args) != 3 {
		t.Errorf("database_mcp = %+v", db)
	}
	meta := cfg.MCPServers["product_metadata_mcp"]
	if meta.Timeout != 5*time.Second || meta.Headers["Authorization"] != "Bearer ${META_TOKEN}" {
		t.Errorf("product_metadata_mcp = %+v", meta)
	}
	if ff := cfg.Orchestration.FailFast; ff == nil || *ff {
		t.Errorf("fail_fast = %v, want set to false", ff)
	}
	if got, want := cfg.Orchestration.MaxRetryAttempts, 5; got != want {
		t.Errorf("max_retry_attempts = %d, want %d", got, want)
	}
	// Defaults survive for keys the file leaves out.
	if got, want := cfg.Orchestration.MCPCallTimeout, 15*time.Second; got != want {
		t.Errorf("mcp_call_timeout = %v, want %v", got, want)
	}
	if got, want := cfg.HTTP.Addr, ":9000"; got != want {
		t.Errorf("http.addr = %q, want %q", got, want)
	}
	if got, want := cfg.HTTP.MaxRowsLimit, 10000; got != want {
		t.Errorf("http.max_rows_limit = %d, want %d", got, want)
	}
	if got, want := cfg.LLM.MaxTokens, 1024; got != want {
		t.Errorf("llm.max_tokens = %d, want %d", got, want)
	}
}

func TestParseConfigProblems(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []string // substrings, all of which must appear
	}{
		{
			name: "typo names the line, the place and the nearest key",
			yaml: "mcp_servers:\n  db:\n    transport: stdio\n    command: x\n    prioriti: 1\n",
			want: []string{"line 5: unknown key `prioriti` in mcp_servers.db; did you mean `priority`?"},
		},
		{
			name: "unknown key far from any lists the keys",
			yaml: "orchestration:\n  speed: fast\n",
			want: []string{"line 2: unknown key `speed` in orchestration; the keys there are", "fail_fast", "query_timeout"},
		},
		{
			name: "unknown top-level section",
			yaml: "mcp_server:\n  db: {}\n",
			want: []string{"line 1: unknown key `mcp_server` at the top level; did you mean `mcp_servers`?"},
		},
		{
			name: "every type problem in YAML words, no Go types",
			yaml: "mcp_servers:\n  m:\n    transport: stdio\n    args: x\n    env: [a]\n    priority: high\nhttp:\n  rate_limit: [1]\n",
			want: []string{"mcp_servers.m.args (line 4): `x` is text, but it takes a list",
				"mcp_servers.m.env (line 5): the value is a list, but it takes a mapping",
				"mcp_servers.m.priority (line 6): `high` is text, but it takes a whole number",
				"http.rate_limit (line 8): the value is a list, but it takes a number"},
		},
		{
			name: "catalog_for names a non-executor",
			yaml: "mcp_servers:\n  db:\n    transport: stdio\n    command: x\n    priority: 1\n    capabilities: [execute_query]\n" +
				"  meta:\n    transport: stdio\n    command: y\n    priority: 2\n    capabilities: [list_resources]\n    catalog_for: dbb\n",
			want: []string{`mcp_servers.meta.catalog_for: "dbb" is not a server with capability execute_query; name one of "db"`},
		},
		{
			name: "catalog_for on an executor",
			yaml: "mcp_servers:\n  db:\n    transport: stdio\n    command: x\n    priority: 1\n    capabilities: [execute_query]\n    catalog_for: db\n",
			want: []string{"mcp_servers.db.catalog_for: an executor's own catalog always belongs to its own database; remove catalog_for"},
		},
		{
			name: "priority out of range",
			yaml: "mcp_servers:\n  database_mcp:\n    transport: stdio\n    command: x\n    priority: 0\n    capabilities: [execute_query]\n",
			want: []string{"mcp_servers.database_mcp.priority: 0 is out of range 1..999"},
		},
		{
			name: "every problem reported",
			yaml: `
mcp_servers:
  a:
    transport: stdio
    priority: 1000
    capabilities: [execute_query, teleport]
  b:
    transport: sse
    priority: 1
  c:
    transport: carrier_pigeon
    priority: 2
  d:
    transport: streamable_http
    url: ftp://x
    priority: 3
orchestration:
  max_retry_attempts: 11
  log_format: xml
llm:
  provider: gpt
  fallback: magic
`,
			want: []string{
				"mcp_servers.a.command: required for transport stdio",
				"mcp_servers.a.priority: 1000 is out of range 1..999",
				`mcp_servers.a.capabilities[1]: unknown capability "teleport"`,
				"mcp_servers.b.url: required for transport sse",
				`mcp_servers.c.transport: unknown transport "carrier_pigeon"`,
				`mcp_servers.d.url: "ftp://x" is not an http(s) URL`,
				"orchestration.max_retry_attempts: 11 is out of range 1..10",
				`orchestration.log_format: unknown format "xml"`,
				`llm.provider: unknown provider "gpt"`,
				`llm.fallback: unknown fallback "magic"`,
			},
		},
		{
			name: "no server",
			yaml: "orchestration:\n  fail_fast: true\n",
			want: []string{"mcp_servers: no server configured"},
		},
		{
			name: "empty file",
			yaml: "",
			want: []string{"mcp_servers: no server configured"},
		},
		{
			name: "no executor",
			yaml: "mcp_servers:\n  m:\n    transport: stdio\n    command: x\n    priority: 1\n",
			want: []string{"no server has capability execute_query"},
		},
		{
			name: "bare number duration",
			yaml: oneExecutor + "orchestration:\n  query_timeout: 30\n",
			want: []string{"orchestration.query_timeout (line 8): `30` is a whole number, but it takes a duration such as 30s"},
		},
		{
			name: "model required for llm provider",
			yaml: oneExecutor + "llm:\n  provider: anthropic\n",
			want: []string{"llm.model: required for provider anthropic"},
		},
		{
			name: "wrong type",
			yaml: "mcp_servers:\n  m:\n    transport: stdio\n    command: x\n    priority: high\n",
			want: []string{"line 5", "high"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(tt.yaml))
			if err == nil {
				t.Fatalf("ParseConfig = nil error, want problems %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error = %q\nwant it to contain %q", err, w)
				}
			}
			for _, goType := range []string{"time.Duration", "config.", "[]string", "map[string]", "float64"} {
				if strings.Contains(err.Error(), goType) {
					t.Errorf("error = %q names the Go type %q", err, goType)
				}
			}
		})
	}
}

func TestParseConfigDuplicatePrioritiesAllowed(t *testing.T) {
	y := `
mcp_servers:
  a: {transport: stdio, command: x, priority: 5, capabilities: [execute_query]}
  b: {transport: stdio, command: y, priority: 5}
`
	if _, err := ParseConfig([]byte(y)); err != nil {
		t.Fatalf("ParseConfig: %v", err)
	}
}

func TestValidateCollectsAll(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MCPServers["x"] = ServerConfig{Transport: TransportStdio, Priority: 0}
	err := cfg.Validate()
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("Validate = %v, want *ConfigError", err)
	}
	if got := len(ce.Problems); got < 3 {
		t.Errorf("problems = %d (%q), want >= 3", got, ce.Problems)
	}
}

func TestLoadConfigFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte(validYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(path); err != nil {
		t.Fatalf("LoadConfig: %v", err)
	}
	_, err := LoadConfig(filepath.Join(t.TempDir(), "missing.yaml"))
	if err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("LoadConfig(missing) = %v, want an error naming the file", err)
	}
}

func TestRepoConfigLoads(t *testing.T) {
	if _, err := LoadConfig(filepath.Join("..", "mcp_config.yaml")); err != nil {
		t.Fatalf("default mcp_config.yaml: %v", err)
	}
}

func TestParseConfigLLMRetries(t *testing.T) {
	tests := []struct {
		name      string
		llm       string // the llm: section's body
		wantN     int
		wantDelay time.Duration
		wantErr   []string // substrings of the error; nil means valid
	}{
		{name: "defaults", llm: "  provider: builtin\n", wantN: 3, wantDelay: 500 * time.Millisecond},
		{name: "set", llm: "  max_retries: 5\n  retry_base_delay: 250ms\n", wantN: 5, wantDelay: 250 * time.Millisecond},
		{name: "retries off", llm: "  max_retries: 0\n", wantN: 0, wantDelay: 500 * time.Millisecond},
		{name: "zero delay means default", llm: "  retry_base_delay: 0s\n", wantN: 3, wantDelay: 0},
		{name: "negative retries", llm: "  max_retries: -1\n",
			wantErr: []string{"llm.max_retries: -1 is out of range 0..10"}},
		{name: "too many retries", llm: "  max_retries: 11\n",
			wantErr: []string{"llm.max_retries: 11 is out of range 0..10"}},
		{name: "negative delay", llm: "  retry_base_delay: -1s\n",
			wantErr: []string{"llm.retry_base_delay: -1s must not be negative"}},
		{name: "delay without unit", llm: "  retry_base_delay: 500\n",
			wantErr: []string{"line 8", "takes a duration such as 30s"}},
		{name: "delay below a millisecond", llm: "  retry_base_delay: 500us\n",
			wantErr: []string{"llm.retry_base_delay: 500µs is too small", "500ms"}},
		{name: "delay too long", llm: "  retry_base_delay: 2m\n",
			wantErr: []string{"llm.retry_base_delay: 2m0s is longer than 30s"}},
		{name: "delay not a duration", llm: "  retry_base_delay: soon\n",
			wantErr: []string{"line 8", "soon"}},
		{name: "misspelt key", llm: "  max_retry: 3\n",
			wantErr: []string{"line 8", "`max_retry`", "did you mean `max_retries`?"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := parseExpecting(t, oneExecutor+"llm:\n"+tt.llm, tt.wantErr)
			if cfg == nil {
				return
			}
			if got := cfg.LLM.MaxRetries; got != tt.wantN {
				t.Errorf("llm.max_retries = %d, want %d", got, tt.wantN)
			}
			if got := cfg.LLM.RetryBaseDelay; got != tt.wantDelay {
				t.Errorf("llm.retry_base_delay = %v, want %v", got, tt.wantDelay)
			}
		})
	}
}

func TestParseConfigResultCache(t *testing.T) {
	def := DefaultConfig().Orchestration.ResultCache
	tests := []struct {
		name    string
		section string // orchestration.result_cache's body; "" leaves it out
		want    ResultCacheConfig
		wantErr []string
	}{
		{name: "defaults", want: def},
		{name: "off", section: "    enabled: false\n", want: ResultCacheConfig{TTL: def.TTL, MaxBytes: def.MaxBytes}},
		{name: "set", section: "    ttl: 5m\n    max_bytes: 1048576\n    max_stale: 1h\n",
			want: ResultCacheConfig{Enabled: true, TTL: 5 * time.Minute, MaxBytes: 1 << 20, MaxStale: time.Hour}},
		{name: "ttl too short", section: "    ttl: 10ms\n", wantErr: []string{"orchestration.result_cache.ttl: 10ms is too short"}},
		{name: "max_bytes too small", section: "    max_bytes: 1000\n",
			wantErr: []string{"orchestration.result_cache.max_bytes: 1000 is below 1 MiB"}},
		{name: "negative max_stale", section: "    max_stale: -1s\n",
			wantErr: []string{"orchestration.result_cache.max_stale: -1s must not be negative"}},
		{name: "misspelt key", section: "    max_stail: 1h\n", wantErr: []string{"line 9", "max_stail"}},
		{name: "an off cache is not checked", section: "    enabled: false\n    ttl: 1ms\n",
			want: ResultCacheConfig{TTL: time.Millisecond, MaxBytes: def.MaxBytes}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			yaml := oneExecutor
			if tt.section != "" {
				yaml += "orchestration:\n  result_cache:\n" + tt.section
			}
			cfg := parseExpecting(t, yaml, tt.wantErr)
			if cfg == nil {
				return
			}
			if got := cfg.Orchestration.ResultCache; got != tt.want {
				t.Errorf("result_cache = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestSeedConfigExample: the original design's mcp_config.yaml, as written
// there (testdata/seed/mcp_config.yaml), loads and every key keeps the
// design's meaning.
func TestSeedConfigExample(t *testing.T) {
	cfg, err := LoadConfig(filepath.Join("..", "testdata", "seed", "mcp_config.yaml"))
	if err != nil {
		t.Fatalf("the seed's mcp_config.yaml: %v", err)
	}
	db, meta := cfg.MCPServers["database_mcp"], cfg.MCPServers["product_metadata_mcp"]
	if db.Name != "Database MCP Server" || db.Transport != TransportSSE || db.URL != "http://localhost:8000/sse" || db.Priority != 10 {
		t.Errorf("database_mcp = %+v", db)
	}
	if !db.HasCapability(CapExecuteQuery) || !db.HasCapability(CapListResources) || strings.Join(db.Domains, ",") != "sales,transactions,orders,products" {
		t.Errorf("database_mcp capabilities %v, domains %v", db.Capabilities, db.Domains)
	}
	if meta.Transport != TransportSSE || meta.URL != "http://localhost:8002/sse" || meta.Priority != 1 ||
		meta.HasCapability(CapExecuteQuery) || strings.Join(meta.Domains, ",") != "products,product_aliases,column_mappings" {
		t.Errorf("product_metadata_mcp = %+v", meta)
	}
	if got, want := cfg.Orchestration.CacheTTL(), 5*time.Minute; got != want {
		t.Errorf("resource_cache_ttl = %v, want %v", got, want)
	}
	// fail_fast: true — any server down fails the question.
	if !cfg.Required("database_mcp") || !cfg.Required("product_metadata_mcp") {
		t.Error("fail_fast: true, yet a server is not required")
	}
	// enable_logging: true keeps log_level "DEBUG".
	if got := strings.ToLower(cfg.Orchestration.LogLevel); got != "debug" {
		t.Errorf("log_level = %q, want debug", got)
	}
	if cfg.LLM.Provider != "" && cfg.LLM.Provider != ProviderBuiltin {
		t.Errorf("llm.provider = %q, want the offline generator (the seed names no LLM)", cfg.LLM.Provider)
	}
}

// TestEnableLogging: enable_logging: false logs only warnings and errors,
// whatever log_level says below warn; true leaves log_level alone.
func TestEnableLogging(t *testing.T) {
	tests := []struct {
		name, orchestration, want string
	}{
		{"off lifts debug to warn", "  enable_logging: false\n  log_level: DEBUG\n", "warn"},
		{"off lifts the default info to warn", "  enable_logging: false\n", "warn"},
		{"off keeps error", "  enable_logging: false\n  log_level: error\n", "error"},
		{"on keeps debug", "  enable_logging: true\n  log_level: debug\n", "debug"},
		{"unset keeps info", "  log_level: info\n", "info"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := parseExpecting(t, oneExecutor+"orchestration:\n"+tt.orchestration, nil)
			if got := strings.ToLower(cfg.Orchestration.LogLevel); got != tt.want {
				t.Errorf("log level = %q, want %q", got, tt.want)
			}
		})
	}
	if _, err := ParseConfig([]byte(oneExecutor + "orchestration:\n  enable_logging: sometimes\n")); err == nil {
		t.Error("enable_logging: sometimes = nil error, want a type error")
	}
}

// TestParseConfigLLMFaults (issue 24): llm.fallback is builtin unless
// turned off, llm.deadline_reserve defaults to a third of query_timeout
// and must leave the LLM some time, llm.max_response_bytes has a range.
func TestParseConfigLLMFaults(t *testing.T) {
	tests := []struct {
		name         string
		yaml         string // after the servers
		wantFallback string
		wantReserve  time.Duration
		wantMax      int64
		wantErr      []string
	}{
		{name: "defaults", yaml: "llm:\n  provider: openai\n  model: m\n",
			wantFallback: ProviderBuiltin, wantReserve: 10 * time.Second, wantMax: DefaultLLMMaxResponseBytes},
		{name: "fallback off", yaml: "llm:\n  fallback: none\n", wantFallback: FallbackNone, wantReserve: 10 * time.Second,
			wantMax: DefaultLLMMaxResponseBytes},
		{name: "reserve follows query_timeout", yaml: "orchestration:\n  query_timeout: 9s\n",
			wantFallback: ProviderBuiltin, wantReserve: 3 * time.Second, wantMax: DefaultLLMMaxResponseBytes},
		{name: "set", yaml: "llm:\n  deadline_reserve: 5s\n  max_response_bytes: 1048576\n",
			wantFallback: ProviderBuiltin, wantReserve: 5 * time.Second, wantMax: 1 << 20},
		{name: "reserve as long as the question", yaml: "orchestration:\n  query_timeout: 5s\nllm:\n  deadline_reserve: 5s\n",
			wantErr: []string{"llm.deadline_reserve: 5s leaves the LLM no time"}},
		{name: "negative reserve", yaml: "llm:\n  deadline_reserve: -1s\n", wantErr: []string{"llm.deadline_reserve: -1s must not be negative"}},
		{name: "tiny response bound", yaml: "llm:\n  max_response_bytes: 10\n", wantErr: []string{"llm.max_response_bytes: 10 is out of range"}},
		{name: "unknown fallback", yaml: "llm:\n  fallback: gpt\n", wantErr: []string{`unknown fallback "gpt" (want builtin, or none to turn it off)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := parseExpecting(t, oneExecutor+tt.yaml, tt.wantErr)
			if cfg == nil {
				return
			}
			l := cfg.LLMSettings()
			if l.Fallback != tt.wantFallback || l.DeadlineReserve != tt.wantReserve || l.MaxResponseBytes != tt.wantMax {
				t.Errorf("llm = fallback %q, reserve %v, max %d; want %q, %v, %d", l.Fallback, l.DeadlineReserve,
					l.MaxResponseBytes, tt.wantFallback, tt.wantReserve, tt.wantMax)
			}
		})
	}
}

// oneExecutor is the smallest valid mcp_servers section: one stdio server
// that executes queries.
const oneExecutor = "mcp_servers:\n  m:\n    transport: stdio\n    command: x\n    priority: 1\n    capabilities: [execute_query]\n"

// parseExpecting parses yaml. With wantErr nil it must be valid, and its
// configuration is returned; otherwise its error must contain every one of
// wantErr, and nil is returned.
func parseExpecting(tb testing.TB, yaml string, wantErr []string) *Config {
	tb.Helper()
	cfg, err := ParseConfig([]byte(yaml))
	if wantErr == nil {
		if err != nil {
			tb.Fatalf("ParseConfig: %v", err)
		}
		return cfg
	}
	if err == nil {
		tb.Fatalf("ParseConfig = nil error, want %q", wantErr)
	}
	for _, w := range wantErr {
		if !strings.Contains(err.Error(), w) {
			tb.Errorf("error = %q\nwant it to contain %q", err, w)
		}
	}
	return nil
}
