package orchestrator

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"talk2tables/config"
	"talk2tables/internal/llmtest"
	"talk2tables/internal/testfixture"
)

func TestLogEventsAndMetrics(t *testing.T) {
	f := newFixture(t)
	t.Setenv("T2T_TEST_TOKEN", "hunter2-secret")
	var buf testfixture.LogBuffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	llm := llmtest.New(t,
		llmtest.Step{Content: llmtest.Plan("SELECT nope FROM sales", nil, "")},
		llmtest.Step{Content: llmtest.Plan(abraSQL, abraEntities, "")})
	cfg := httpConfig(t, f, config.TransportStreamableHTTP)
	o, err := New(context.Background(), cfg, logger, WithMetrics(m), WithGenerator(llmGen(t, llm)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Process(context.Background(), Query{Question: "sales for abracadabra this month", OperationID: "op-42"}); err != nil {
		t.Fatal(err)
	}
	o.Close()

	events := map[string]bool{}
	for _, rec := range buf.Records(t) {
		ev, _ := rec["event"].(string)
		events[ev] = true
		if strings.HasPrefix(ev, "query_") || strings.HasPrefix(ev, "sql_") || strings.HasPrefix(ev, "llm_") ||
			strings.HasPrefix(ev, "resource_gathering") || ev == "recovery_attempted" {
			if rec["operation_id"] != "op-42" || rec["component"] == nil {
				t.Errorf("event %s lacks operation_id/component: %v", ev, rec)
			}
		}
	}
	for _, ev := range []string{"mcp_connection_initiated", "mcp_connection_established", "mcp_connection_closed",
		"resource_list_requested", "resource_list_received", "resource_fetch_requested", "resource_fetch_completed",
		"resource_cache_miss", "query_processing_started", "resource_gathering_started", "resource_gathering_completed",
		"llm_prompt_created", "llm_response_received", "sql_generated", "sql_execution_started",
		"sql_execution_completed", "query_processing_completed", "error_occurred", "recovery_attempted"} {
		if !events[ev] {
			t.Errorf("event %s not logged", ev)
		}
	}
	if strings.Contains(buf.String(), "hunter2-secret") || strings.Contains(buf.String(), "test-key") {
		t.Errorf("a secret was logged")
	}
	if strings.Contains(buf.String(), "Magic Wand Pro") {
		t.Errorf("resource or result data was logged")
	}

	if got := testutil.ToFloat64(m.recoveryOutcomes.WithLabelValues(OutcomeRecovered)); got != 1 {
		t.Errorf("recovered = %v, want 1", got)
	}
	if got := testutil.ToFloat64(m.sqlErrors.WithLabelValues("MISSING_COLUMN")); got != 1 {
		t.Errorf("sql errors MISSING_COLUMN = %v, want 1", got)
	}
	if got := testutil.ToFloat64(m.queries.WithLabelValues("success")); got != 1 {
		t.Errorf("queries success = %v, want 1", got)
	}
	if got := testutil.ToFloat64(m.inFlight); got != 0 {
		t.Errorf("in flight = %v, want 0", got)
	}
	if n := testutil.CollectAndCount(m.mcpDuration); n == 0 {
		t.Errorf("no mcp call durations recorded")
	}
}

func TestNilMetricsIsNoop(t *testing.T) {
	var m *Metrics
	m.observeLLM(1, 1, 1)
	m.ObserveMCP("s", "m", 1)
	m.CacheHit("s")
	m.CacheMiss("s")
	m.sqlError("X")
	m.recoveryAttempt("X")
	m.recoveryOutcome("x")
	m.queryStarted()
	m.queryFinished(true)
}
