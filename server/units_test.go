package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"talk2tables/config"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/resources"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/sqlerr"
)

func TestValidRequestID(t *testing.T) {
	tests := []struct {
		name string
		id   string
		want bool
	}{
		{"uuid-like", "3f2a-11ee.b_9", true},
		{"empty", "", false},
		{"128 chars", strings.Repeat("a", 128), true},
		{"129 chars", strings.Repeat("a", 129), false},
		{"space", "a b", false},
		{"newline injection", "a\nX-Evil: 1", false},
		{"non-ascii", "é", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := validRequestID(tt.id); got != tt.want {
				t.Errorf("validRequestID(%q) = %v, want %v", tt.id, got, tt.want)
			}
		})
	}
}

func TestClientLimiter(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	l := newClientLimiter(1, 2)
	for i := range 2 {
		if _, ok := l.allow("a", now); !ok {
			t.Fatalf("request %d within burst refused", i+1)
		}
	}
	wait, ok := l.allow("a", now)
	if ok {
		t.Fatal("third request at the same instant allowed, want refused")
	}
	if wait <= 0 || wait > time.Second {
		t.Errorf("wait = %v, want in (0, 1s]", wait)
	}
	if _, ok := l.allow("b", now); !ok {
		t.Error("another client refused: buckets are not per client")
	}
	if _, ok := l.allow("a", now.Add(time.Second)); !ok {
		t.Error("request after refill refused")
	}
	// Idle clients are swept.
	if _, ok := l.allow("c", now.Add(clientIdleTTL+2*sweepEvery)); !ok {
		t.Fatal("fresh client refused")
	}
	if got := l.size(); got != 1 {
		t.Errorf("clients after sweep = %d, want 1", got)
	}
}

func TestClientLimiterBounded(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	l := newClientLimiter(1, 1)
	for i := range maxClients + 50 {
		l.allow(fmt.Sprintf("10.0.%d.%d", i/256, i%256), now.Add(time.Duration(i)*time.Millisecond))
	}
	if got := l.size(); got > maxClients {
		t.Errorf("clients = %d, want <= %d", got, maxClients)
	}
}

func TestAnswerMarkdown(t *testing.T) {
	rows := make([][]any, 25)
	for i := range rows {
		rows[i] = []any{fmt.Sprintf("p|%d", i), float64(i) + 0.25, nil}
	}
	tests := []struct {
		name   string
		res    *orchestrator.QueryResult
		want   []string
		absent []string
	}{
		{
			name: "truncated table with recovery",
			res: &orchestrator.QueryResult{
				Success: true, SQL: "SELECT name, total, note FROM t", Explanation: "Totals per product.",
				Result: &executor.QueryData{Columns: []string{"name", "total", "note"}, Rows: rows, RowCount: 25},
				Attempts: []orchestrator.Attempt{
					{SQL: "SELECT * FROM sale", Error: "no such table: sale", Category: sqlerr.MissingTable},
					{SQL: "SELECT name, total, note FROM t"},
				},
			},
			want: []string{
				"Totals per product.\n\n```sql\nSELECT name, total, note FROM t\n```\n",
				"| name | total | note |\n| --- | --- | --- |\n",
				`| p\|0 | 0.25 | NULL |`,
				"| p\\|19 | 19.25 | NULL |",
				"_Showing 20 of 25 rows._",
				"Answered after 2 attempts",
				"1. MISSING_TABLE: no such table: sale",
			},
			absent: []string{"p\\|20"},
		},
		{
			name: "assumptions",
			res: &orchestrator.QueryResult{Success: true, SQL: "SELECT 1", Explanation: "Revenue last quarter.",
				Assumptions: []string{"period: 2026-07-01 to 2026-09-30", "all order statuses counted:\ncompleted, pending"},
				Result:      &executor.QueryData{Columns: []string{"x"}, Rows: [][]any{{1.0}}, RowCount: 1}},
			want: []string{"Revenue last quarter.\n\nAssumptions:\n- period: 2026-07-01 to 2026-09-30\n" +
				"- all order statuses counted: completed, pending\n\n```sql"},
		},
		{
			name: "no rows",
			res: &orchestrator.QueryResult{Success: true, SQL: "SELECT 1 WHERE 0",
				Result: &executor.QueryData{Columns: []string{"x"}, Rows: [][]any{}}},
			want:   []string{"_No rows matched._"},
			absent: []string{"Answered after"},
		},
		{
			name: "integers stay integers",
			res: &orchestrator.QueryResult{Success: true, SQL: "SELECT 3",
				Result: &executor.QueryData{Columns: []string{"n"}, Rows: [][]any{{float64(1234567)}}, RowCount: 1}},
			want: []string{"| 1234567 |"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := answerMarkdown(tt.res, false)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("markdown lacks %q; got:\n%s", w, got)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(got, a) {
					t.Errorf("markdown holds %q; got:\n%s", a, got)
				}
			}
		})
	}
}

func TestClassify(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("process: %w", err) }
	tests := []struct {
		name       string
		err        error
		wantStatus int
		wantCode   string
	}{
		{"MCP connection lost", wrap(&mcpclient.MCPConnectionError{Server: "database_mcp", Phase: mcpclient.PhaseLost, Err: errors.New("EOF")}), 502, "mcp_unavailable"},
		{"resource fetch", wrap(&resources.ResourceFetchError{Server: "m", Phase: resources.PhaseList, Err: errors.New("x")}), 502, "resource_fetch_failed"},
		{"no MCP available", wrap(&mcpclient.NoMCPAvailableError{Capability: "execute_query"}), 503, "no_mcp_available"},
		{"no executor", wrap(&executor.QueryExecutionError{Reason: executor.ReasonNoExecutor}), 503, "no_executor"},
		{"sql execution", wrap(&executor.QueryExecutionError{Reason: executor.ReasonSQLExecution, Category: sqlerr.SyntaxError, Message: "near x"}), 422, "sql_execution_failed"},
		{"LLM unreachable", wrap(&orchestrator.SQLGenerationError{Reason: sqlgen.ReasonLLMCommunication, Message: "at http://10.0.0.5"}), 502, "llm_unavailable"},
		{"LLM not configured", wrap(&orchestrator.SQLGenerationError{Reason: sqlgen.ReasonNotConfigured}), 503, "llm_not_configured"},
		{"invalid SQL", wrap(&orchestrator.SQLGenerationError{Reason: sqlgen.ReasonInvalidSQL}), 422, "invalid_sql"},
		{"declined", wrap(&orchestrator.SQLGenerationError{Reason: sqlgen.ReasonDeclined, Message: "which product?",
			Hint: "try: revenue for a product by name"}), 422, "question_declined"},
		{"deadline wins over the wrapper", wrap(&orchestrator.SQLGenerationError{Reason: sqlgen.ReasonLLMCommunication, Err: context.DeadlineExceeded}), 504, "timeout"},
		{"client went away", wrap(context.Canceled), 499, "client_closed_request"},
		{"body too large", &http.MaxBytesError{Limit: 10}, 413, "body_too_large"},
		{"anything else", errors.New("open /var/lib/x: permission denied"), 500, "internal_error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := classify(tt.err)
			if got.status != tt.wantStatus || got.detail.Code != tt.wantCode {
				t.Errorf("classify = %d %q, want %d %q", got.status, got.detail.Code, tt.wantStatus, tt.wantCode)
			}
			var ge *orchestrator.SQLGenerationError
			if errors.As(tt.err, &ge) && ge.Reason == orchestrator.ReasonDeclined && got.detail.Hint != ge.Hint {
				t.Errorf("hint = %q, want the decline's %q", got.detail.Hint, ge.Hint)
			}
			if got.detail.Message == "" || strings.Contains(got.detail.Message, "10.0.0.5") || strings.Contains(got.detail.Message, "/var/lib") {
				t.Errorf("message = %q, want a safe, non-empty message", got.detail.Message)
			}
		})
	}
}

func TestNewTwiceOnOneRegistry(t *testing.T) {
	reg := prometheus.NewRegistry()
	New(nil, config.HTTPConfig{}, nil, nil, reg)
	New(nil, config.HTTPConfig{}, nil, nil, reg) // must reuse, not panic
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, mf := range mfs {
		found = found || mf.GetName() == "talk2tables_http_requests_in_flight"
	}
	if !found {
		t.Error("talk2tables_http_requests_in_flight is not registered")
	}
}
