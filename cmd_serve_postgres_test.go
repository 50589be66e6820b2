package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"talk2tables/internal/llmtest"
	"talk2tables/internal/pgtest"
	"talk2tables/internal/testfixture"
)

// analystQueries are the realistic queries (joins, GROUP BY, PostgreSQL
// date functions and casts) the replica test and the benchmark run.
var analystQueries = []string{
	"SELECT region, count(*) AS lines, round(sum(total_amount), 2) AS revenue FROM sales GROUP BY region ORDER BY revenue DESC",
	"SELECT p.category, round(sum(s.total_amount), 2) AS revenue FROM sales s JOIN products p ON p.product_id = s.product_id GROUP BY p.category ORDER BY revenue DESC",
	"SELECT to_char(date_trunc('month', o.order_date), 'YYYY-MM') AS month, count(*) AS orders FROM orders o WHERE o.status = 'completed' GROUP BY 1 ORDER BY 1",
	"SELECT c.segment, round(avg(s.total_amount)::numeric, 2) AS avg_line FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.segment ORDER BY c.segment",
	"SELECT p.product_name, sum(s.quantity)::int AS units FROM sales s JOIN products p USING (product_id) GROUP BY p.product_name ORDER BY units DESC, p.product_name LIMIT 5",
}

// startReplica runs `serve` with database-mcp and metadata-mcp as stdio
// children (this test binary acting as talk2tables) over the PostgreSQL
// database at dsn, and a scripted LLM (the builtin generator when llm is
// nil); it returns the base URL.
func startReplica(t testing.TB, name, dsn string, llm *llmtest.Server) string {
	t.Helper()
	return startServeYAML(t, name, "mcp_servers:\n"+postgresServers(t, dsn)+serveTail(llm))
}

// postgresServers is the mcp_servers entries of database-mcp over the
// PostgreSQL database at dsn (as database_mcp) and the sample catalog.
func postgresServers(tb testing.TB, dsn string) string {
	tb.Helper()
	return `  database_mcp:
    name: Database MCP Server
    transport: stdio
    command: ` + os.Args[0] + `
    args: [database-mcp, --dsn, "` + dsn + `", --password-env, T2T_REPLICA_PASSWORD, --today, "2026-11-21"]
    env: {` + runMainEnv + `: "1", T2T_REPLICA_PASSWORD: "${T2T_REPLICA_PASSWORD}"}
    priority: 10
    domains: [sales]
    capabilities: [execute_query, validate_query, list_resources]
  product_metadata_mcp:
    name: Product Metadata MCP
    transport: stdio
    command: ` + os.Args[0] + `
    args: [metadata-mcp, --catalog, "` + testfixture.CatalogPath(tb) + `"]
    env: {` + runMainEnv + `: "1"}
    priority: 1
    domains: [products]
    capabilities: [list_resources]
`
}

// serveTail is the orchestration and llm sections: the scripted llm, or
// the builtin generator when llm is nil.
func serveTail(llm *llmtest.Server) string {
	out := "orchestration:\n  ping_interval: 0s\nllm:\n"
	if llm == nil {
		return out + "  provider: builtin\n"
	}
	return out + `  provider: openai
  model: scripted
  base_url: ` + llm.URL + `
  api_key_env: T2T_REPLICA_LLM_KEY
  max_retries: 0
  fallback: ""
`
}

// startServeYAML runs `serve` with the configuration cfg and returns its
// base URL; it is stopped when t ends.
func startServeYAML(t testing.TB, name, cfg string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &testfixture.LogBuffer{}
	done := make(chan error, 1) // for waitForURL
	exited := make(chan struct{})
	var result error
	go func() {
		result = run(ctx, []string{"serve", "--config", path, "--addr", "127.0.0.1:0", "--log-level", "warn"},
			stdio{strings.NewReader(""), io.Discard, stderr})
		done <- result
		close(exited)
	}()
	t.Cleanup(func() {
		cancel()
		<-exited
		if result != nil {
			t.Errorf("replica %s: serve returned %v", name, result)
		}
	})
	return waitForURL(t, stderr, done)
}

// post sends body to url and returns the status and decoded JSON.
func post(t testing.TB, url, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatalf("POST %s: decode: %v", url, err)
	}
	return resp.StatusCode, m
}

// stable drops what legitimately differs between two answers: timings,
// timestamps, request ids and how long a result has been cached.
func stable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			switch k {
			case "elapsed_ms", "duration_ms", "execution_time", "timestamp", "request_id", "cache", "age_s", "result_cache":
				continue
			}
			out[k] = stable(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = stable(e)
		}
		return out
	}
	return v
}

// TestServeReplicasPostgres runs two `serve` replicas, each with its own
// database-mcp child, over the same PostgreSQL database: the same analyst
// SQL, SQL errors and LLM-written questions get the same answers from
// both (serve keeps no state a load balancer would have to pin).
func TestServeReplicasPostgres(t *testing.T) {
	db := pgtest.NewDB(t)
	pgtest.LoadSample(t, db, 3000)
	role := db.ReadOnlyRole(t)
	bare, pw := withoutPassword(t, role.DSN())
	t.Setenv("T2T_REPLICA_PASSWORD", pw)
	t.Setenv("T2T_REPLICA_LLM_KEY", "k")
	llm := llmtest.NewResponder(t, func(r llmtest.Request) llmtest.Step {
		if !strings.Contains(r.User(), "Dialect: postgres") {
			return llmtest.Step{Content: llmtest.Plan("SELECT 'the prompt did not say postgres' AS wrong", nil, "wrong dialect")}
		}
		return llmtest.Step{Content: llmtest.Plan(
			"SELECT date_trunc('month', sale_date)::date AS month, round(sum(total_amount), 2) AS revenue FROM sales "+
				"WHERE sale_date >= DATE '2026-09-01' GROUP BY 1 ORDER BY 1", nil, "Revenue per month since September.")}
	})
	a := startReplica(t, "a", bare, llm)
	b := startReplica(t, "b", bare, llm)

	bodies := []string{}
	for _, q := range analystQueries {
		body, _ := json.Marshal(map[string]any{"sql": q, "max_rows": 100})
		bodies = append(bodies, string(body))
	}
	bodies = append(bodies,
		`{"sql":"SELECT nope FROM sales"}`,
		`{"sql":"DELETE FROM sales"}`,
		`{"sql":"SELECT pg_sleep(1)"}`)
	for i, body := range bodies {
		codeA, resA := post(t, a+"api/sql", body)
		codeB, resB := post(t, b+"api/sql", body)
		if codeA != codeB || !reflect.DeepEqual(stable(resA), stable(resB)) {
			t.Errorf("query %d: replica a = %d %v\nreplica b = %d %v", i, codeA, resA, codeB, resB)
		}
		if i < len(analystQueries) && (codeA != 200 || resA["row_count"].(float64) < 1) {
			t.Errorf("query %d = %d %v, want rows", i, codeA, resA)
		}
	}
	_, miss := post(t, a+"api/sql", `{"sql":"SELECT nope FROM sales"}`)
	if e, _ := miss["error"].(map[string]any); e["category"] != "MISSING_COLUMN" {
		t.Errorf("missing column = %v, want category MISSING_COLUMN", miss)
	}

	for _, q := range []string{"revenue by month this autumn", "monthly revenue since september"} {
		body := `{"question":"` + q + `"}`
		codeA, resA := post(t, a+"api/query", body)
		codeB, resB := post(t, b+"api/query", body)
		if codeA != 200 || resA["success"] != true {
			t.Fatalf("question %q on replica a = %d %v", q, codeA, resA)
		}
		if codeA != codeB || !reflect.DeepEqual(stable(resA["result"]), stable(resB["result"])) || resA["sql"] != resB["sql"] {
			t.Errorf("question %q: replica a = %v\nreplica b = %v", q, resA, resB)
		}
		if rows := resA["result"].(map[string]any)["rows"].([]any); len(rows) != 3 {
			t.Errorf("question %q: %d months, want 3 (Sep, Oct, Nov)", q, len(rows))
		}
	}

	// The builtin planner: two more replicas with no LLM answer the same
	// questions with the same SQL and rows.
	c := startReplica(t, "c", bare, nil)
	d := startReplica(t, "d", bare, nil)
	for _, q := range builtinQuestions {
		body := `{"question":"` + q + `"}`
		codeC, resC := post(t, c+"api/query", body)
		codeD, resD := post(t, d+"api/query", body)
		if codeC != 200 || resC["success"] != true {
			t.Errorf("builtin question %q on replica c = %d %v", q, codeC, resC)
			continue
		}
		if codeC != codeD || resC["sql"] != resD["sql"] || !reflect.DeepEqual(stable(resC["result"]), stable(resD["result"])) {
			t.Errorf("builtin question %q: replica c = %v\nreplica d = %v", q, resC, resD)
		}
		if rows := resC["result"].(map[string]any)["rows"].([]any); len(rows) == 0 {
			t.Errorf("builtin question %q: no rows", q)
		}
	}
}

// builtinQuestions are everyday questions the builtin planner answers on
// the sample database, on either engine.
var builtinQuestions = []string{
	"total revenue by region this year",
	"top 5 products by revenue last quarter",
	"monthly revenue trend this year",
	"how many orders were cancelled last month",
	"average order value by customer segment",
}
