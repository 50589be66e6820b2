package orchestrator

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"talk2tables/config"
	"talk2tables/internal/llmtest"
	"talk2tables/internal/testfixture"
	"talk2tables/orchestrator/sqlgen"
)

func TestNewGenerator(t *testing.T) {
	t.Setenv("T2T_EMPTY_KEY", "")
	t.Setenv("T2T_SET_KEY", "k")
	tests := []struct {
		name    string
		cfg     config.LLMConfig
		want    string // Name()
		wantErr sqlgen.Reason
	}{
		{name: "empty provider", cfg: config.LLMConfig{}, want: "builtin"},
		{name: "builtin", cfg: config.LLMConfig{Provider: "builtin"}, want: "builtin"},
		{name: "openai without key", cfg: config.LLMConfig{Provider: "openai", Model: "gpt-4o-mini", APIKeyEnv: "T2T_EMPTY_KEY"}, want: "builtin"},
		{name: "openai with key", cfg: config.LLMConfig{Provider: "openai", Model: "gpt-4o-mini", APIKeyEnv: "T2T_SET_KEY"}, want: "openai:gpt-4o-mini"},
		{name: "openai with key and fallback", cfg: config.LLMConfig{Provider: "openai", Model: "m", APIKeyEnv: "T2T_SET_KEY", Fallback: "builtin"}, want: "openai:m"},
		{name: "ollama needs no key", cfg: config.LLMConfig{Provider: "ollama", Model: "llama3"}, want: "ollama:llama3"},
		{name: "no model", cfg: config.LLMConfig{Provider: "anthropic", APIKeyEnv: "T2T_SET_KEY"}, wantErr: sqlgen.ReasonNotConfigured},
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

// With fallback builtin, an unreachable LLM still gets an answer, marked,
// after exactly llm.max_retries retries spaced by llm.retry_base_delay.
func TestProcessFallbackToBuiltin(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name         string
		maxRetries   int
		wantRequests int
	}{
		{name: "default retries", maxRetries: config.DefaultConfig().LLM.MaxRetries, wantRequests: 4},
		{name: "one retry", maxRetries: 1, wantRequests: 2},
		{name: "retries off", maxRetries: 0, wantRequests: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			llm := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Status: 503} })
			t.Setenv("T2T_FB_KEY", "k")
			cfg := inprocConfig()
			cfg.LLM = config.LLMConfig{Provider: "openai", Model: "m", BaseURL: llm.URL, APIKeyEnv: "T2T_FB_KEY", Fallback: "builtin",
				Timeout: config.DefaultConfig().LLM.Timeout, MaxTokens: 100,
				MaxRetries: tt.maxRetries, RetryBaseDelay: 5 * time.Millisecond}
			var logs testfixture.LogBuffer
			o, err := New(context.Background(), cfg, slog.New(slog.NewJSONHandler(&logs, nil)),
				WithInProcessServer("database_mcp", f.dbServer(t)),
				WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			t.Cleanup(func() { o.Close() })
			res, err := o.Process(context.Background(), Query{Question: "total revenue by region"})
			if err != nil {
				t.Fatalf("Process: %v", err)
			}
			if !res.Metadata.Fallback || res.Metadata.Generator != "builtin" || res.Result.RowCount == 0 {
				t.Errorf("metadata = %+v, rows = %d; want builtin fallback with rows", res.Metadata, res.Result.RowCount)
			}
			if got := len(llm.Requests()); got != tt.wantRequests {
				t.Errorf("LLM requests = %d, want %d (1 + llm.max_retries %d)", got, tt.wantRequests, tt.maxRetries)
			}
			// Each retry waits at most retry_base_delay << retry (jitter
			// takes up to half off); the 500ms default would wait >= 250ms.
			var waits []float64
			for _, rec := range logs.Records(t) {
				if rec["msg"] == "llm request failed; retrying" {
					w, ok := rec["wait_ms"].(float64)
					if !ok {
						t.Fatalf("retry log wait_ms = %v, want a number", rec["wait_ms"])
					}
					waits = append(waits, w)
				}
			}
			if len(waits) != tt.maxRetries {
				t.Fatalf("retry waits logged = %v, want %d", waits, tt.maxRetries)
			}
			for i, w := range waits {
				if limit := float64(int(5) << i); w > limit {
					t.Errorf("retry %d waited %vms, want <= %vms (retry_base_delay 5ms)", i+1, w, limit)
				}
			}
		})
	}
}

// TestLLMCircuitBreaker: with the LLM down, the first questions pay its
// failure and fall back; once the circuit opens, questions go to the builtin
// generator without asking the LLM, the result says why, and /metrics counts
// it.
func TestLLMCircuitBreaker(t *testing.T) {
	f := newFixture(t)
	llm := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Status: 503} })
	t.Setenv("T2T_CB_KEY", "k")
	cfg := inprocConfig()
	cfg.LLM = config.LLMConfig{Provider: "openai", Model: "m", BaseURL: llm.URL, APIKeyEnv: "T2T_CB_KEY", Fallback: "builtin",
		Timeout: config.DefaultConfig().LLM.Timeout, MaxTokens: 100, MaxRetries: 1, RetryBaseDelay: time.Millisecond,
		CircuitFailures: 2, CircuitCooldown: time.Minute}
	m := NewMetrics(prometheus.NewRegistry())
	o := newOrch(t, cfg, WithMetrics(m),
		WithInProcessServer("database_mcp", f.dbServer(t)),
		WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
	var results []*QueryResult
	for range 4 {
		res, err := o.Process(context.Background(), Query{Question: "total revenue by region"})
		if err != nil {
			t.Fatalf("Process: %v", err)
		}
		results = append(results, res)
	}
	if got := len(llm.Requests()); got != 4 {
		t.Errorf("LLM requests = %d, want 4 (2 questions × 2 tries, then the circuit is open)", got)
	}
	for i, res := range results {
		if !res.Metadata.Fallback || res.Metadata.Generator != "builtin" || res.Metadata.FallbackReason == "" {
			t.Errorf("question %d metadata = %+v, want a builtin fallback with its reason", i, res.Metadata)
		}
	}
	if r := results[3].Metadata.FallbackReason; !strings.Contains(r, "not asked again until") {
		t.Errorf("reason = %q, want it to say the LLM is skipped", r)
	}
	if got := testutil.ToFloat64(m.fallbacks.WithLabelValues(sqlgen.FallbackCircuitOpen)); got != 2 {
		t.Errorf("fallbacks{circuit_open} = %v, want 2", got)
	}
	if got := testutil.ToFloat64(m.fallbacks.WithLabelValues(sqlgen.FallbackLLMFailed)); got != 2 {
		t.Errorf("fallbacks{llm_failed} = %v, want 2", got)
	}
	if got := testutil.ToFloat64(m.circuitOpen); got != 1 {
		t.Errorf("llm_circuit_open = %v, want 1", got)
	}
}

// The built-in planner New builds is the one OfflineGenerator hands out
// (to the gateway's sampling fallback): one model cache, not two.
func TestOneOfflinePlanner(t *testing.T) {
	f := newFixture(t)
	cfg := inprocConfig()
	cfg.LLM.Provider = config.ProviderBuiltin
	o := newOrch(t, cfg, WithInProcessServer("database_mcp", f.dbServer(t)), WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
	if o.OfflineGenerator() != o.gen {
		t.Errorf("OfflineGenerator = %p, want the orchestrator's own built-in generator %p", o.OfflineGenerator(), o.gen)
	}
}
