package config

import (
	"strings"
	"testing"
	"time"
)

// TestRequiredDefaults: unset, executors and the metadata server are
// required and other servers are not; orchestration.fail_fast, when set,
// is the default of every server that does not say; a server's own
// required wins.
func TestRequiredDefaults(t *testing.T) {
	const base = `mcp_servers:
  db:
    transport: stdio
    command: x
    priority: 10
    capabilities: [execute_query]%s
  meta:
    transport: stdio
    command: x
    priority: 1
    capabilities: [list_resources]
  aux:
    transport: stdio
    command: x
    priority: 50
    capabilities: [list_resources]%s
`
	tests := []struct {
		name                   string
		dbExtra, auxExtra, orc string
		db, meta, aux          bool
	}{
		{name: "defaults", db: true, meta: true, aux: false},
		{name: "fail_fast true", orc: "orchestration:\n  fail_fast: true\n", db: true, meta: true, aux: true},
		{name: "fail_fast false", orc: "orchestration:\n  fail_fast: false\n", db: false, meta: false, aux: false},
		{name: "own required wins", orc: "orchestration:\n  fail_fast: true\n", auxExtra: "\n    required: false",
			dbExtra: "\n    required: true", db: true, meta: true, aux: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ParseConfig([]byte(strings.Replace(strings.Replace(base, "%s", tt.dbExtra, 1), "%s", tt.auxExtra, 1) + tt.orc))
			if err != nil {
				t.Fatal(err)
			}
			if got := [3]bool{cfg.Required("db"), cfg.Required("meta"), cfg.Required("aux")}; got != [3]bool{tt.db, tt.meta, tt.aux} {
				t.Errorf("required db, meta, aux = %v, want %v", got, [3]bool{tt.db, tt.meta, tt.aux})
			}
		})
	}
}

// TestForeignConfigProblems: dialect, schema_discovery and required are
// checked with the path of the wrong key.
func TestForeignConfigProblems(t *testing.T) {
	const head = "mcp_servers:\n  db:\n    transport: stdio\n    command: x\n    priority: 1\n    capabilities: [execute_query]\n"
	tests := []struct{ body, want string }{
		{head + "    dialect: oracle\n", `mcp_servers.db.dialect: unknown dialect "oracle" (want sqlite, postgres, mysql)`},
		{head + "    schema_discovery: magic\n", `mcp_servers.db.schema_discovery: unknown value "magic"`},
		{head + "  meta:\n    transport: stdio\n    command: x\n    priority: 2\n    capabilities: [list_resources]\n    dialect: sqlite\n",
			"mcp_servers.meta.dialect: only an executor uses it"},
		{head + "orchestration:\n  ping_timeout: -1s\n", "orchestration.ping_timeout"},
		{head + "    required: maybe\n", "required"},
	}
	for _, tt := range tests {
		_, err := ParseConfig([]byte(tt.body))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseConfig(%q) = %v, want %q", tt.body, err, tt.want)
		}
	}
	cfg, err := ParseConfig([]byte(head + "    dialect: postgres\n    schema_discovery: search_tool\norchestration:\n  ping_timeout: 500ms\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.MCPServers["db"]; s.Dialect != DialectPostgres || s.SchemaDiscovery != DiscoverySearch || cfg.Orchestration.PingTimeout != 500*time.Millisecond {
		t.Errorf("parsed = %+v, ping_timeout %v", s, cfg.Orchestration.PingTimeout)
	}
}
