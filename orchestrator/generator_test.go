package orchestrator

import (
	"context"
	"errors"
	"testing"

	"talk2tables/internal/llmtest"
	"talk2tables/orchestrator/sqlgen"
)

func TestNewGenerator(t *testing.T) {
	t.Setenv("T2T_EMPTY_KEY", "")
	t.Setenv("T2T_SET_KEY", "k")
	tests := []struct {
		name    string
		cfg     LLMConfig
		want    string // Name()
		wantErr sqlgen.Reason
	}{
		{name: "empty provider", cfg: LLMConfig{}, want: "builtin"},
		{name: "builtin", cfg: LLMConfig{Provider: "builtin"}, want: "builtin"},
		{name: "openai without key", cfg: LLMConfig{Provider: "openai", Model: "gpt-4o-mini", APIKeyEnv: "T2T_EMPTY_KEY"}, want: "builtin"},
		{name: "openai with key", cfg: LLMConfig{Provider: "openai", Model: "gpt-4o-mini", APIKeyEnv: "T2T_SET_KEY"}, want: "openai:gpt-4o-mini"},
		{name: "openai with key and fallback", cfg: LLMConfig{Provider: "openai", Model: "m", APIKeyEnv: "T2T_SET_KEY", Fallback: "builtin"}, want: "openai:m"},
		{name: "ollama needs no key", cfg: LLMConfig{Provider: "ollama", Model: "llama3"}, want: "ollama:llama3"},
		{name: "no model", cfg: LLMConfig{Provider: "anthropic", APIKeyEnv: "T2T_SET_KEY"}, wantErr: sqlgen.ReasonNotConfigured},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGenerator(tt.cfg, testLogger(t))
			if tt.wantErr != "" {
				var ge *SQLGenerationError
				if !errors.As(err, &ge) || ge.Reason != tt.wantErr {
					t.Fatalf("NewGenerator = %v, want reason %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("NewGenerator: %v", err)
			}
			if got := g.Name(); got != tt.want {
				t.Errorf("Name = %q, want %q", got, tt.want)
			}
		})
	}
}

// With fallback builtin, an unreachable LLM still gets an answer, marked.
func TestProcessFallbackToBuiltin(t *testing.T) {
	f := newFixture(t)
	llm := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Status: 503} })
	t.Setenv("T2T_FB_KEY", "k")
	cfg := inprocConfig()
	cfg.LLM = LLMConfig{Provider: "openai", Model: "m", BaseURL: llm.URL, APIKeyEnv: "T2T_FB_KEY", Fallback: "builtin",
		Timeout: DefaultConfig().LLM.Timeout, MaxTokens: 100}
	o := newOrch(t, cfg, WithInProcessServer("database_mcp", f.dbServer(t)),
		WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
	res, err := o.Process(context.Background(), Query{Question: "total revenue by region"})
	if err != nil {
		t.Fatalf("Process: %v", err)
	}
	if !res.Metadata.Fallback || res.Metadata.Generator != "builtin" || res.Result.RowCount == 0 {
		t.Errorf("metadata = %+v, rows = %d; want builtin fallback with rows", res.Metadata, res.Result.RowCount)
	}
}
