package config

import (
	"strings"
	"testing"
)

// promptYAML is a one-server configuration with extra keys for the server
// and the llm section.
func promptYAML(serverKeys, llmKeys string) string {
	return `
mcp_servers:
  db:
    transport: stdio
    command: ./bin/talk2tables
    priority: 1
    capabilities: [execute_query, list_resources]
` + serverKeys + `
llm:
  provider: builtin
` + llmKeys
}

func TestParseConfigPrompt(t *testing.T) {
	tests := []struct {
		name       string
		server     string
		llm        string
		wantMode   string
		wantPats   []string
		wantBudget int
		wantCap    int
		wantErr    string
	}{
		{name: "defaults", wantMode: PromptAuto, wantBudget: DefaultPromptTokenBudget, wantCap: DefaultMaxResourceBytes},
		{name: "all", server: "    prompt: all", wantMode: PromptAll, wantBudget: 8000, wantCap: DefaultMaxResourceBytes},
		{name: "none upper case", server: "    prompt: NONE", wantMode: PromptNone, wantBudget: 8000, wantCap: DefaultMaxResourceBytes},
		{name: "patterns and cap", server: "    prompt: [\"database://*\", \"docs://*.md\"]\n    max_resource_bytes: 1000",
			wantMode: PromptPatterns, wantPats: []string{"database://*", "docs://*.md"}, wantBudget: 8000, wantCap: 1000},
		{name: "budget off", llm: "  prompt_token_budget: 0", wantMode: PromptAuto, wantBudget: 0, wantCap: DefaultMaxResourceBytes},
		{name: "budget set", llm: "  prompt_token_budget: 16000", wantMode: PromptAuto, wantBudget: 16000, wantCap: DefaultMaxResourceBytes},
		{name: "unknown mode", server: "    prompt: some", wantErr: `mcp_servers.db.prompt: unknown value "some"`},
		{name: "bad pattern", server: "    prompt: [\"docs://[\"]", wantErr: `mcp_servers.db.prompt[0]: "docs://[" is not a valid URI pattern`},
		{name: "empty list", server: "    prompt: []", wantErr: "mcp_servers.db.prompt: an empty list gathers nothing"},
		{name: "mapping", server: "    prompt: {a: b}", wantErr: "prompt: write all, none, auto or a list of URI patterns"},
		{name: "negative cap", server: "    max_resource_bytes: -1", wantErr: "mcp_servers.db.max_resource_bytes: -1 must not be negative"},
		{name: "budget too small", llm: "  prompt_token_budget: 500", wantErr: "llm.prompt_token_budget: 500 is too small"},
		{name: "budget negative", llm: "  prompt_token_budget: -5", wantErr: "llm.prompt_token_budget: -5 is too small"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ParseConfig([]byte(promptYAML(tt.server, tt.llm)))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseConfig: %v", err)
			}
			s := cfg.MCPServers["db"]
			if got := s.Prompt.mode(); got != tt.wantMode {
				t.Errorf("prompt mode = %q, want %q", got, tt.wantMode)
			}
			if strings.Join(s.Prompt.Patterns, ",") != strings.Join(tt.wantPats, ",") {
				t.Errorf("patterns = %q, want %q", s.Prompt.Patterns, tt.wantPats)
			}
			if got := cfg.LLM.PromptTokenBudget; got != tt.wantBudget {
				t.Errorf("prompt_token_budget = %d, want %d", got, tt.wantBudget)
			}
			if got := s.ResourceCap(); got != tt.wantCap {
				t.Errorf("max resource bytes = %d, want %d", got, tt.wantCap)
			}
		})
	}
}

func TestServerGathers(t *testing.T) {
	tests := []struct {
		name    string
		cfg     ServerConfig
		gathers bool
		wants   map[string]bool
	}{
		{name: "default", cfg: ServerConfig{Capabilities: []string{CapListResources}}, gathers: true,
			wants: map[string]bool{"docs://a.md": true}},
		{name: "no capabilities declared", cfg: ServerConfig{}, gathers: true},
		{name: "capabilities without list_resources", cfg: ServerConfig{Capabilities: []string{CapExecuteQuery}}},
		{name: "none", cfg: ServerConfig{Capabilities: []string{CapListResources}, Prompt: PromptResources{Mode: PromptNone}}},
		{name: "patterns", cfg: ServerConfig{Prompt: PromptResources{Mode: PromptPatterns, Patterns: []string{"database://*", "docs://guides/*.md"}}},
			gathers: true, wants: map[string]bool{"database://schema": true, "docs://guides/a.md": true,
				"docs://guides/deep/a.md": false, "docs://a.md": false, "metadata://entities": false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.cfg.Gathers(); got != tt.gathers {
				t.Errorf("gathers = %v, want %v", got, tt.gathers)
			}
			for uri, want := range tt.wants {
				if got := tt.cfg.Wants(uri); got != want {
					t.Errorf("wants(%q) = %v, want %v", uri, got, want)
				}
			}
		})
	}
}
