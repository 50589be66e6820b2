package server

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"talk2tables/config"
	"talk2tables/internal/llmtest"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/executor"
	"talk2tables/sqlerr"
)

func TestQueryJSON(t *testing.T) {
	st := newStack(t, stackOptions{})
	resp, body := st.call(t, "POST", "/api/query", `{"question":"revenue by region","max_rows":100}`,
		map[string]string{"X-Request-ID": "req-42.a_b"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status = %d, want 200; body %s", resp.StatusCode, body)
	}
	if got := resp.Header.Get("X-Request-ID"); got != "req-42.a_b" {
		t.Errorf("X-Request-ID = %q, want the one sent", got)
	}
	var res orchestrator.QueryResult
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatalf("decode result: %v", err)
	}
	if !res.Success || res.SQL != goodSQL || res.Query != "revenue by region" {
		t.Errorf("result = success %v sql %q query %q, want success with the scripted SQL", res.Success, res.SQL, res.Query)
	}
	if res.Result == nil || len(res.Result.Rows) != 4 || strings.Join(res.Result.Columns, ",") != "region,revenue" {
		t.Errorf("result data = %+v, want 4 regions with columns region,revenue", res.Result)
	}
	if res.Metadata.Generator == "" || len(res.Attempts) != 1 {
		t.Errorf("metadata generator %q, attempts %d; want a generator and 1 attempt", res.Metadata.Generator, len(res.Attempts))
	}

	got := st.logs.Events(t, "query_received")
	if len(got) != 1 || got[0]["operation_id"] != "req-42.a_b" {
		t.Errorf("query_received events = %v, want one with operation_id req-42.a_b", got)
	}
	var access map[string]any
	for _, e := range st.logs.Events(t, "http_request") {
		if e["route"] == "/api/query" {
			access = e
		}
	}
	if access == nil {
		t.Fatal("no http_request log for /api/query")
	}
	for k, want := range map[string]any{"method": "POST", "status": float64(200), "request_id": "req-42.a_b"} {
		if access[k] != want {
			t.Errorf("access log %s = %v, want %v", k, access[k], want)
		}
	}
	if _, ok := access["duration_ms"].(float64); !ok {
		t.Errorf("access log duration_ms = %v, want a number", access["duration_ms"])
	}
	if strings.Contains(st.logs.String(), "test-llm-key") {
		t.Error("logs contain the LLM API key")
	}
}

func TestQueryBadInput(t *testing.T) {
	st := newStack(t, stackOptions{http: func(h *config.HTTPConfig) {
		h.MaxBodyBytes = 4096
		h.MaxQuestionLength = 100
		h.MaxRowsLimit = 1000
	}})
	tests := []struct {
		name      string
		body      string
		chunked   bool
		wantCode  int
		wantField string
		wantText  string
	}{
		{name: "malformed JSON", body: `{"question":`, wantCode: 400, wantText: "incomplete"},
		{name: "not JSON", body: `question=hi`, wantCode: 400, wantText: "not valid JSON"},
		{name: "empty body", body: ``, wantCode: 400, wantText: "empty"},
		{name: "array body", body: `["hi"]`, wantCode: 400, wantText: "JSON object"},
		{name: "question wrong type", body: `{"question":5}`, wantCode: 400, wantField: "question", wantText: "must be a string"},
		{name: "max_rows wrong type", body: `{"question":"hi","max_rows":"10"}`, wantCode: 400, wantField: "max_rows", wantText: "a number"},
		{name: "max_rows fractional", body: `{"question":"hi","max_rows":1.5}`, wantCode: 400, wantField: "max_rows"},
		{name: "unknown field", body: `{"question":"hi","sql":"DROP TABLE x"}`, wantCode: 400, wantField: "sql", wantText: "not accepted"},
		{name: "missing question", body: `{}`, wantCode: 400, wantField: "question", wantText: "required"},
		{name: "blank question", body: `{"question":"  \n "}`, wantCode: 400, wantField: "question", wantText: "required"},
		{name: "question too long", body: `{"question":"` + strings.Repeat("é", 101) + `"}`, wantCode: 400, wantField: "question", wantText: "limit is 100"},
		{name: "max_rows zero", body: `{"question":"hi","max_rows":0}`, wantCode: 400, wantField: "max_rows", wantText: "between 1 and 1000"},
		{name: "max_rows over limit", body: `{"question":"hi","max_rows":1001}`, wantCode: 400, wantField: "max_rows"},
		{name: "max_rows negative", body: `{"question":"hi","max_rows":-3}`, wantCode: 400, wantField: "max_rows"},
		{name: "trailing data", body: `{"question":"hi"} {"question":"again"}`, wantCode: 400, wantText: "single JSON object"},
		{name: "body too large", body: `{"question":"` + strings.Repeat("a", 5000) + `"}`, wantCode: 413, wantText: "4096 bytes"},
		{name: "body too large, chunked", body: `{"question":"` + strings.Repeat("a", 5000) + `"}`, chunked: true, wantCode: 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r io.Reader = strings.NewReader(tt.body)
			if tt.chunked {
				r = io.MultiReader(r) // hides the length: sent chunked
			}
			req, _ := http.NewRequest("POST", st.URL+"/api/query", r)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.wantCode {
				t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, tt.wantCode, body)
			}
			e := errorOf(t, body)
			if e.Error.Field != tt.wantField {
				t.Errorf("field = %q, want %q (message %q)", e.Error.Field, tt.wantField, e.Error.Message)
			}
			if !strings.Contains(e.Error.Message, tt.wantText) {
				t.Errorf("message = %q, want it to contain %q", e.Error.Message, tt.wantText)
			}
			if e.Error.RequestID == "" || e.Error.RequestID != resp.Header.Get("X-Request-ID") {
				t.Errorf("request_id = %q, header %q; want equal and set", e.Error.RequestID, resp.Header.Get("X-Request-ID"))
			}
		})
	}
	if n := len(st.llm.Requests()); n != 0 {
		t.Errorf("LLM requests = %d, want 0: bad input must be refused before processing", n)
	}
}

func TestSQLEndpoint(t *testing.T) {
	st := newStack(t, stackOptions{})
	tests := []struct {
		name         string
		body         string
		wantCode     int
		wantCategory sqlerr.Category
		wantField    string
		check        func(t *testing.T, d executor.QueryData)
	}{
		{name: "valid", body: `{"sql":"SELECT region, COUNT(*) AS n FROM sales GROUP BY region ORDER BY region"}`, wantCode: 200,
			check: func(t *testing.T, d executor.QueryData) {
				if len(d.Rows) != 4 || d.Rows[0][0] != "East" {
					t.Errorf("rows = %v, want 4 regions starting with East", d.Rows)
				}
			}},
		{name: "max_rows caps rows", body: `{"sql":"SELECT sale_id FROM sales","max_rows":3}`, wantCode: 200,
			check: func(t *testing.T, d executor.QueryData) {
				if len(d.Rows) != 3 || !d.Truncated {
					t.Errorf("rows %d truncated %v, want 3 and truncated", len(d.Rows), d.Truncated)
				}
			}},
		{name: "missing table", body: `{"sql":"SELECT * FROM sale"}`, wantCode: 422, wantCategory: sqlerr.MissingTable},
		{name: "write refused", body: `{"sql":"DELETE FROM sales"}`, wantCode: 422, wantCategory: sqlerr.PermissionError},
		{name: "empty sql", body: `{"sql":""}`, wantCode: 400, wantField: "sql"},
		{name: "question instead of sql", body: `{"question":"hi"}`, wantCode: 400, wantField: "question"},
		{name: "max_rows too big", body: `{"sql":"SELECT 1","max_rows":999999}`, wantCode: 400, wantField: "max_rows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := st.call(t, "POST", "/api/sql", tt.body, nil)
			if resp.StatusCode != tt.wantCode {
				t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, tt.wantCode, body)
			}
			if tt.wantCode != 200 {
				e := errorOf(t, body)
				if e.Error.Category != tt.wantCategory || e.Error.Field != tt.wantField {
					t.Errorf("category %q field %q, want %q %q (%s)", e.Error.Category, e.Error.Field, tt.wantCategory, tt.wantField, body)
				}
				return
			}
			var d executor.QueryData
			if err := json.Unmarshal(body, &d); err != nil {
				t.Fatalf("decode: %v", err)
			}
			tt.check(t, d)
		})
	}
}

func TestServersAndResources(t *testing.T) {
	st := newStack(t, stackOptions{})
	resp, body := st.call(t, "GET", "/api/servers", "", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("servers status = %d, want 200", resp.StatusCode)
	}
	var sb struct {
		Servers []serverJSON `json:"servers"`
	}
	if err := json.Unmarshal(body, &sb); err != nil {
		t.Fatal(err)
	}
	if len(sb.Servers) != 2 || sb.Servers[0].ID != "product_metadata_mcp" || sb.Servers[1].ID != "database_mcp" {
		t.Fatalf("servers = %s, want metadata (priority 1) then database", body)
	}
	db := sb.Servers[1]
	if db.State != "connected" || db.Priority != 10 || !contains(db.Tools, "execute_query") ||
		!contains(db.Resources, "database://schema") || db.LastContact == nil {
		t.Errorf("database server = %+v, want connected, priority 10, execute_query, database://schema, last contact", db)
	}
	if !strings.Contains(string(body), `"last_contact"`) || strings.Contains(string(body), `"ID"`) {
		t.Errorf("servers body uses the wrong field names: %s", body)
	}

	resp, body = st.call(t, "GET", "/api/resources", "", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("resources status = %d, want 200; %s", resp.StatusCode, body)
	}
	var rb struct {
		Resources []orchestrator.ResourceSnapshot `json:"resources"`
	}
	if err := json.Unmarshal(body, &rb); err != nil {
		t.Fatal(err)
	}
	if len(rb.Resources) != 2 {
		t.Fatalf("resources = %d servers, want 2", len(rb.Resources))
	}
	for _, r := range rb.Resources {
		if r.Error != "" || len(r.Resources) == 0 || r.AgeSeconds < 0 {
			t.Errorf("server %s: error %q, %d resources, age %v; want resources and no error", r.ServerID, r.Error, len(r.Resources), r.AgeSeconds)
		}
	}
	if _, ok := rb.Resources[1].Resources["database://schema"]; !ok {
		t.Errorf("database resources lack database://schema: %v", keys(rb.Resources[1].Resources))
	}
}

func TestHealthAndMetrics(t *testing.T) {
	// Without the result cache, so the question after the loss reaches the
	// (gone) database server.
	st := newStack(t, stackOptions{dbOverNet: true, orch: func(c *config.Config) {
		c.Orchestration.ResultCache.Enabled = false
	}})
	resp, body := st.call(t, "GET", "/health", "", nil)
	var h healthBody
	if err := json.Unmarshal(body, &h); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || h.Status != "healthy" || h.Service != "talk2tables" ||
		h.Servers["database_mcp"] != "connected" || h.Generator == "" {
		t.Errorf("health = %d %s, want 200 healthy with both servers connected and a generator", resp.StatusCode, body)
	}

	st.call(t, "POST", "/api/query", `{"question":"revenue by region"}`, nil)
	resp, body = st.call(t, "GET", "/metrics", "", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("metrics status = %d", resp.StatusCode)
	}
	for _, name := range []string{
		"talk2tables_http_request_duration_seconds_bucket{method=\"POST\",route=\"/api/query\",status=\"200\"",
		"talk2tables_http_requests_in_flight",
		"talk2tables_llm_request_duration_seconds",
		"talk2tables_mcp_call_duration_seconds",
		"talk2tables_queries_in_flight",
	} {
		if !strings.Contains(string(body), name) {
			t.Errorf("/metrics lacks %s", name)
		}
	}

	// The database MCP goes away: health turns degraded (503) once the
	// orchestrator notices, which the next question makes it do.
	st.dbServer.CloseClientConnections()
	st.dbServer.Close()
	st.call(t, "POST", "/api/query", `{"question":"revenue by region"}`, nil)
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, body = st.call(t, "GET", "/health", "", nil)
		if resp.StatusCode == http.StatusServiceUnavailable || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := json.Unmarshal(body, &h); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusServiceUnavailable || h.Status != "degraded" || h.Servers["database_mcp"] == "connected" {
		t.Errorf("health after database loss = %d %s, want 503 degraded", resp.StatusCode, body)
	}
}

func TestErrorFunnel(t *testing.T) {
	garbage := func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "I am not JSON and hold no SQL."} }
	tests := []struct {
		name        string
		opt         stackOptions
		kill        bool // close the database MCP before asking
		wantStatus  int
		wantCodes   []string
		wantResult  bool   // the failed QueryResult is attached
		wantMessage string // a part of the error message
	}{
		{name: "LLM answers garbage", opt: stackOptions{respond: garbage},
			wantStatus: 422, wantCodes: []string{"invalid_sql"}, wantResult: true},
		{name: "LLM refuses the request", opt: stackOptions{respond: func(llmtest.Request) llmtest.Step {
			return llmtest.Step{Status: 404, Content: "model not found"}
		}}, wantStatus: 502, wantCodes: []string{"llm_unavailable"}},
		{name: "LLM answers invalid JSON", opt: stackOptions{respond: func(llmtest.Request) llmtest.Step {
			return llmtest.Step{Raw: `{"choices": [ not json`}
		}}, wantStatus: 502, wantCodes: []string{"llm_invalid_response"}, wantMessage: "invalid JSON"},
		{name: "LLM slower than its share of the query timeout", opt: stackOptions{
			respond: func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: goodPlan, Delay: 10 * time.Second} },
			orch:    func(c *config.Config) { c.Orchestration.QueryTimeout = 3 * time.Second },
		}, wantStatus: 504, wantCodes: []string{"llm_timeout"}},
		{name: "query timeout while the SQL runs", opt: stackOptions{
			respond: func(llmtest.Request) llmtest.Step {
				return llmtest.Step{Content: llmtest.Plan("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) "+
					"SELECT count(*) AS n FROM c", nil, "slow")}
			},
			orch: func(c *config.Config) { c.Orchestration.QueryTimeout = time.Second },
		}, wantStatus: 504, wantCodes: []string{"timeout"}, wantMessage: "the SQL was running on executor"},
		{name: "LLM key rejected", opt: stackOptions{respond: func(llmtest.Request) llmtest.Step {
			return llmtest.Step{Status: 401, Content: "invalid api key"}
		}}, wantStatus: 503, wantCodes: []string{"llm_not_configured"}},
		{name: "SQL keeps failing", opt: stackOptions{respond: func(llmtest.Request) llmtest.Step {
			return llmtest.Step{Content: llmtest.Plan("SELECT nope FROM sales", nil, "bad column")}
		}}, wantStatus: 422, wantCodes: []string{"sql_execution_failed"}, wantResult: true},
		{name: "MCP server down", opt: stackOptions{dbOverNet: true}, kill: true,
			wantStatus: 502, wantCodes: []string{"mcp_unavailable", "resource_fetch_failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newStack(t, tt.opt)
			if tt.kill {
				st.dbServer.CloseClientConnections()
				st.dbServer.Close()
			}
			resp, body := st.call(t, "POST", "/api/query", `{"question":"revenue by region"}`, nil)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, tt.wantStatus, body)
			}
			e := errorOf(t, body)
			if !contains(tt.wantCodes, e.Error.Code) {
				t.Errorf("code = %q, want one of %v", e.Error.Code, tt.wantCodes)
			}
			if !strings.Contains(e.Error.Message, tt.wantMessage) {
				t.Errorf("message = %q, want it to say %q", e.Error.Message, tt.wantMessage)
			}
			if tt.wantResult && (e.Result == nil || e.Result.Success || e.Result.Error != e.Error.Message) {
				t.Errorf("result = %+v, want the failed result carrying the safe message", e.Result)
			}
			for _, leak := range []string{"goroutine", ".go:", "127.0.0.1", "/tmp/", "panic"} {
				if strings.Contains(e.Error.Message, leak) {
					t.Errorf("message %q leaks internals (%q)", e.Error.Message, leak)
				}
			}
			if tt.wantStatus >= 500 {
				n := 0
				for _, e := range st.logs.Events(t, "error_occurred") {
					if e["component"] == "http" {
						n++
					}
				}
				if n != 1 {
					t.Errorf("error_occurred logs = %d, want exactly 1 (the funnel)", n)
				}
			}
		})
	}
}

func TestQuerySSE(t *testing.T) {
	bad := llmtest.Plan("SELECT region, SUM(total_amount) FROM sale GROUP BY region", nil, "first try")
	st := newStack(t, stackOptions{steps: []llmtest.Step{{Content: bad}, {Content: goodPlan}}})
	events, resp := streamQuery(t, st, `{"question":"revenue by region"}`)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Errorf("Content-Type = %q, want text/event-stream", ct)
	}
	names := make([]string, len(events))
	for i, e := range events {
		names[i] = e.name
	}
	order := []string{"gathering", "generating", "retry", "generating", "executing", "done"}
	if !subsequence(names, order) {
		t.Fatalf("events = %v, want %v in this order", names, order)
	}
	if names[len(names)-1] != "done" {
		t.Errorf("last event = %q, want done", names[len(names)-1])
	}
	for _, e := range events {
		if e.name == "retry" {
			var p progressEvent
			if err := json.Unmarshal([]byte(e.data), &p); err != nil {
				t.Fatal(err)
			}
			if p.Category != sqlerr.MissingTable || p.Attempt == 0 {
				t.Errorf("retry event = %+v, want category MISSING_TABLE and an attempt number", p)
			}
		}
	}
	var res orchestrator.QueryResult
	if err := json.Unmarshal([]byte(events[len(events)-1].data), &res); err != nil {
		t.Fatalf("done data: %v", err)
	}
	if !res.Success || len(res.Attempts) != 2 || res.Attempts[0].Category != sqlerr.MissingTable {
		t.Errorf("done result: success %v attempts %+v, want success after a MISSING_TABLE attempt", res.Success, res.Attempts)
	}
}

func TestQuerySSEError(t *testing.T) {
	st := newStack(t, stackOptions{respond: func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "no sql here"} }})
	events, resp := streamQuery(t, st, `{"question":"revenue by region"}`)
	if resp.StatusCode != 200 {
		t.Fatalf("status = %d, want 200 (the error travels in the stream)", resp.StatusCode)
	}
	last := events[len(events)-1]
	if last.name != "error" {
		t.Fatalf("last event = %q, want error; events %v", last.name, events)
	}
	var e errorBody
	if err := json.Unmarshal([]byte(last.data), &e); err != nil {
		t.Fatal(err)
	}
	if e.Error.Code != "invalid_sql" || e.Error.RequestID != resp.Header.Get("X-Request-ID") || e.Result == nil {
		t.Errorf("error event = %s, want invalid_sql with the request id and the result", last.data)
	}
	// Bad input is refused before the stream starts.
	resp, body := st.call(t, "POST", "/api/query", `{"question":""}`, map[string]string{"Accept": "text/event-stream"})
	if resp.StatusCode != 400 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Errorf("bad SSE request = %d %s, want a 400 JSON error", resp.StatusCode, body)
	}
}

// sseEvent is one parsed server-sent event.
type sseEvent struct{ name, data string }

// streamQuery posts a question asking for SSE and parses the stream.
func streamQuery(tb testing.TB, st *stack, body string) ([]sseEvent, *http.Response) {
	tb.Helper()
	req, _ := http.NewRequest("POST", st.URL+"/api/query", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var (
		events []sseEvent
		cur    sseEvent
	)
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.name != "" || cur.data != "" {
				events = append(events, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if cur.data != "" {
				tb.Fatalf("multi-line data in one event: %q", line)
			}
			cur.data = strings.TrimPrefix(line, "data: ")
		default:
			tb.Fatalf("unexpected SSE line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if cur.name != "" || cur.data != "" {
		tb.Fatalf("stream ended inside an event: %+v", cur)
	}
	if len(events) == 0 {
		tb.Fatal("no events")
	}
	return events, resp
}

// subsequence reports whether want appears in got in order.
func subsequence(got, want []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// Results are JSON without HTML escaping: SQL and cell values read as
// written ("quantity >= 1", not "quantity \u003e= 1"), on plain JSON and SSE.
func TestResponsesNotHTMLEscaped(t *testing.T) {
	const sql = "SELECT 'a<b & c>d' AS note, COUNT(*) AS n FROM sales WHERE quantity >= 1"
	st := newStack(t, stackOptions{respond: func(llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: llmtest.Plan(sql, nil, "Sales with quantity >= 1.")}
	}})
	tests := []struct {
		name, path, body string
		header           map[string]string
	}{
		{name: "query", path: "/api/query", body: `{"question":"how many sales"}`},
		{name: "query SSE", path: "/api/query", body: `{"question":"how many sales"}`,
			header: map[string]string{"Accept": "text/event-stream"}},
		{name: "sql", path: "/api/sql", body: `{"sql":"SELECT 'a<b & c>d' AS note WHERE 2 >= 1"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := st.call(t, "POST", tt.path, tt.body, tt.header)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status = %d, want 200; body %s", resp.StatusCode, body)
			}
			if !strings.Contains(string(body), `a<b & c>d`) || strings.Contains(string(body), `\u00`) {
				t.Errorf("body has HTML escapes or lacks the raw text: %s", body)
			}
		})
	}
}

// TestGeneratedWriteIs422: a write from the LLM is answered 422 with
// PERMISSION_ERROR, and the result shows it as the one attempt, with its SQL.
func TestGeneratedWriteIs422(t *testing.T) {
	st := newStack(t, stackOptions{steps: []llmtest.Step{{Content: llmtest.Plan("DELETE FROM sales", nil, "clean up")}}})
	resp, body := st.call(t, "POST", "/api/query", `{"question":"delete all sales"}`, nil)
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status = %d, want 422; body %s", resp.StatusCode, body)
	}
	e := errorOf(t, body)
	if e.Error.Category != sqlerr.PermissionError || e.Error.Code != "sql_execution_failed" {
		t.Errorf("error = %+v, want sql_execution_failed with PERMISSION_ERROR", e.Error)
	}
	if e.Result == nil || len(e.Result.Attempts) != 1 || e.Result.Attempts[0].SQL != "DELETE FROM sales" ||
		e.Result.Attempts[0].Category != sqlerr.PermissionError {
		t.Errorf("result = %+v, want one PERMISSION_ERROR attempt showing the SQL", e.Result)
	}
	if st.llm.Remaining() != 0 || len(st.llm.Requests()) != 1 {
		t.Errorf("llm requests = %d, want 1 (a write is never repaired)", len(st.llm.Requests()))
	}
}
