package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/config"
	"talk2tables/databasemcp"
	"talk2tables/internal/llmtest"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/sqlerr"
)

const abraSQL = `SELECT sale_id, total_amount FROM sales
WHERE product_id = 123 AND strftime('%Y-%m', sale_date) = strftime('%Y-%m', 'now') ORDER BY sale_id`

var abraEntities = map[string]map[string]string{"abracadabra": {"products.product_id": "123"}}

func jsonOf(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// e2e is an orchestrator over the real database server and a metadata
// server, in-process, driven by a scripted LLM.
func e2e(tb testing.TB, f *fixture, cfg *config.Config, steps ...llmtest.Step) (*Orchestrator, *llmtest.Server) {
	tb.Helper()
	llm := llmtest.New(tb, steps...)
	o := newOrch(tb, cfg, WithGenerator(llmGen(tb, llm)),
		WithInProcessServer("database_mcp", f.dbServer(tb)),
		WithInProcessServer("product_metadata_mcp", f.metaServer(tb)))
	return o, llm
}

func TestProcessAbracadabra(t *testing.T) {
	f := newFixture(t)
	o, llm := e2e(t, f, inprocConfig(), llmtest.Step{Content: llmtest.Plan(abraSQL, abraEntities, "sales of Magic Wand Pro this month")})
	var stages []string
	res, err := o.Process(context.Background(), Query{Question: "sales for abracadabra this month", OperationID: "op-1",
		Progress: func(p Progress) { stages = append(stages, p.Stage) }})
	if err != nil {
		t.Fatalf("Process: %v", err)
	}
	if !res.Success || res.SQL != abraSQL {
		t.Fatalf("result = %+v", res)
	}
	want := f.direct(t, abraSQL)
	if len(want) == 0 {
		t.Fatal("fixture has no abracadabra sales this month; the comparison would be empty")
	}
	if got, w := jsonOf(t, res.Result.Rows), jsonOf(t, want); got != w {
		t.Errorf("rows = %s\nwant %s", got, w)
	}
	if got := res.ResolvedEntities["abracadabra"]["products.product_id"]; got != "123" {
		t.Errorf("resolved abracadabra = %q, want 123", got)
	}
	if got, w := strings.Join(res.Metadata.MCPServersUsed, ","), "product_metadata_mcp,database_mcp"; got != w {
		t.Errorf("mcp_servers_used = %s, want %s", got, w)
	}
	if res.Metadata.Generator != "openai:test-model" || res.Metadata.Cache != "miss" || res.Metadata.Timestamp == "" {
		t.Errorf("metadata = %+v", res.Metadata)
	}
	if len(res.Attempts) != 1 || res.Attempts[0].Error != "" {
		t.Errorf("attempts = %+v, want one clean attempt", res.Attempts)
	}
	if got, w := strings.Join(stages, ","), "gathering,generating,validating,executing"; got != w {
		t.Errorf("progress = %s, want %s", got, w)
	}
	// The prompt carried the metadata (priority 1 first) and the schema.
	reqs := llm.Requests()
	if len(reqs) != 1 {
		t.Fatalf("llm requests = %d, want 1", len(reqs))
	}
	prompt := reqs[0].System() + reqs[0].User()
	im, id := strings.Index(prompt, "product_metadata_mcp"), strings.Index(prompt, "database_mcp")
	if im < 0 || id < 0 || im > id {
		t.Errorf("prompt should list product_metadata_mcp (priority 1) before database_mcp; positions %d, %d", im, id)
	}
	if !strings.Contains(prompt, "Magic Wand Pro") || !strings.Contains(prompt, "total_amount") {
		t.Errorf("prompt lacks catalog or schema")
	}
}

func TestProcessPriorityResolution(t *testing.T) {
	f := newFixture(t)
	cfg := inprocConfig()
	cfg.MCPServers["shadow_catalog"] = config.ServerConfig{Name: "Shadow catalog", Transport: config.TransportInProcess, Priority: 50,
		Capabilities: []string{config.CapListResources}}
	shadow := newResourceServer("shadow", map[string]string{
		"shadow://product_aliases": `{"abracadabra":{"canonical_id":"999","canonical_name":"Cheap Trick","aliases":["abracadabra"],"database_references":{"products.product_id":999}}}`,
	}, nil)
	// The model follows the lower priority number: product 123, not 999.
	llm := llmtest.NewResponder(t, func(r llmtest.Request) llmtest.Step {
		p := r.System() + r.User()
		i123, i999 := strings.Index(p, `"key":123,"name":"Magic Wand Pro"`), strings.Index(p, `"products.product_id":999`)
		if i123 < 0 || i999 < 0 || i123 > i999 {
			return llmtest.Step{Content: llmtest.Plan("SELECT 'wrong order'", nil, "")}
		}
		return llmtest.Step{Content: llmtest.Plan("SELECT product_id, product_name FROM products WHERE product_id = 123", abraEntities, "")}
	})
	o := newOrch(t, cfg, WithGenerator(llmGen(t, llm)),
		WithInProcessServer("database_mcp", f.dbServer(t)),
		WithInProcessServer("product_metadata_mcp", f.metaServer(t)),
		WithInProcessServer("shadow_catalog", shadow.s))
	res, err := o.Process(context.Background(), Query{Question: "sales for abracadabra"})
	if err != nil {
		t.Fatalf("Process: %v", err)
	}
	if got := jsonOf(t, res.Result.Rows); got != `[[123,"Magic Wand Pro"]]` {
		t.Errorf("rows = %s, want product 123", got)
	}
	if got, w := strings.Join(res.Metadata.MCPServersUsed, ","), "product_metadata_mcp,database_mcp,shadow_catalog"; got != w {
		t.Errorf("mcp_servers_used = %s, want %s", got, w)
	}
}

func TestProcessRecovery(t *testing.T) {
	good := "SELECT region, SUM(total_amount) AS total FROM sales GROUP BY region ORDER BY region"
	tests := []struct {
		name string
		bad  string
		cat  sqlerr.Category
	}{
		{"missing table", "SELECT region, SUM(total_amount) FROM sale GROUP BY region", sqlerr.MissingTable},
		{"missing column", "SELECT region, SUM(amount) FROM sales GROUP BY region", sqlerr.MissingColumn},
		{"syntax", "SELECT region, SUM(total_amount) FROM sales GROUP BY region ORDER BY", sqlerr.SyntaxError},
		{"aggregation", "SELECT region, product_id, SUM(total_amount) FROM sales GROUP BY region", sqlerr.AggregationError},
	}
	f := newFixture(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, llm := e2e(t, f, inprocConfig(),
				llmtest.Step{Content: llmtest.Plan(tt.bad, nil, "")},
				llmtest.Step{Content: llmtest.Plan(good, nil, "")})
			var retries []Progress
			res, err := o.Process(context.Background(), Query{Question: "revenue by region", Progress: func(p Progress) {
				if p.Stage == StageRetry {
					retries = append(retries, p)
				}
			}})
			if err != nil {
				t.Fatalf("Process: %v (attempts %+v)", err, res.Attempts)
			}
			if len(res.Attempts) != 2 {
				t.Fatalf("attempts = %+v, want 2", res.Attempts)
			}
			if got := res.Attempts[0].Category; got != tt.cat {
				t.Errorf("attempt 1 category = %s, want %s (error %q)", got, tt.cat, res.Attempts[0].Error)
			}
			if res.Attempts[0].SQL != tt.bad || res.Attempts[1].SQL != good || res.Attempts[1].Error != "" {
				t.Errorf("attempts = %+v", res.Attempts)
			}
			if res.Result.RowCount != 4 {
				t.Errorf("row_count = %d, want 4 regions", res.Result.RowCount)
			}
			if len(retries) != 1 || retries[0].Attempt != 2 || retries[0].Category != tt.cat {
				t.Errorf("retry progress = %+v", retries)
			}
			repair := llm.Requests()[1].User()
			if !strings.Contains(repair, tt.bad) || !strings.Contains(repair, string(tt.cat)) {
				t.Errorf("repair prompt lacks the failed SQL or category:\n%s", repair)
			}
		})
	}
}

func TestProcessStops(t *testing.T) {
	f := newFixture(t)
	t.Run("permission error not retried", func(t *testing.T) {
		o, llm := e2e(t, f, inprocConfig(), llmtest.Step{Content: llmtest.Plan("SELECT 1", nil, "")})
		// A plan that passes parsing but writes: the generator (sqlgen) itself
		// rejects non-read-only SQL, so drive the executor path directly.
		_, err := o.ExecuteSQL(context.Background(), "DELETE FROM sales", 10, "op")
		var qe *executor.QueryExecutionError
		if !errors.As(err, &qe) || qe.Category != sqlerr.PermissionError {
			t.Fatalf("ExecuteSQL(DELETE) = %v, want PERMISSION_ERROR", err)
		}
		if llm.Remaining() != 1 {
			t.Errorf("llm was called")
		}
	})
	t.Run("permission error from executor stops the loop", func(t *testing.T) {
		cfg := inprocConfig()
		cfg.MCPServers["database_mcp"] = config.ServerConfig{Transport: config.TransportInProcess, Priority: 10,
			Capabilities: []string{config.CapExecuteQuery}}
		deny := newResourceServer("deny", nil, map[string]server.ToolHandlerFunc{
			"execute_query": func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultError(`{"category":"PERMISSION_ERROR","message":"attempt to write a readonly database"}`), nil
			},
		})
		llm := llmtest.New(t, llmtest.Step{Content: llmtest.Plan("SELECT 1", nil, "")})
		o := newOrch(t, cfg, WithGenerator(llmGen(t, llm)),
			WithInProcessServer("database_mcp", deny.s), WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
		res, err := o.Process(context.Background(), Query{Question: "q"})
		var qe *executor.QueryExecutionError
		if !errors.As(err, &qe) || qe.Category != sqlerr.PermissionError {
			t.Fatalf("err = %v, want PERMISSION_ERROR", err)
		}
		if res == nil || res.Success || len(res.Attempts) != 1 || res.Error == "" {
			t.Errorf("result = %+v, want one failed attempt", res)
		}
	})
	t.Run("repeated SQL stops", func(t *testing.T) {
		bad := "SELECT nope FROM sales"
		o, llm := e2e(t, f, inprocConfig(),
			llmtest.Step{Content: llmtest.Plan(bad, nil, "")},
			llmtest.Step{Content: llmtest.Plan("  select NOPE from SALES; ", nil, "")})
		res, err := o.Process(context.Background(), Query{Question: "q"})
		if err == nil || !strings.Contains(err.Error(), "repeated") {
			t.Fatalf("err = %v, want repeated-SQL stop", err)
		}
		if len(res.Attempts) != 1 || llm.Remaining() != 0 {
			t.Errorf("attempts = %d, llm remaining = %d; want 1 and 0", len(res.Attempts), llm.Remaining())
		}
	})
	t.Run("max attempts respected", func(t *testing.T) {
		cfg := inprocConfig()
		cfg.Orchestration.MaxRetryAttempts = 2
		o, llm := e2e(t, f, cfg,
			llmtest.Step{Content: llmtest.Plan("SELECT a FROM sales", nil, "")},
			llmtest.Step{Content: llmtest.Plan("SELECT b FROM sales", nil, "")},
			llmtest.Step{Content: llmtest.Plan("SELECT region FROM sales", nil, "")})
		res, err := o.Process(context.Background(), Query{Question: "q"})
		var qe *executor.QueryExecutionError
		if !errors.As(err, &qe) || qe.Category != sqlerr.MissingColumn {
			t.Fatalf("err = %v, want MISSING_COLUMN after 2 attempts", err)
		}
		if len(res.Attempts) != 2 || llm.Remaining() != 1 {
			t.Errorf("attempts = %d, llm remaining = %d; want 2 and 1", len(res.Attempts), llm.Remaining())
		}
	})
}

func TestProcessLLMFailures(t *testing.T) {
	f := newFixture(t)
	t.Run("garbage", func(t *testing.T) {
		o, _ := e2e(t, f, inprocConfig(), llmtest.Step{Content: "I like turtles."})
		res, err := o.Process(context.Background(), Query{Question: "q"})
		var ge *SQLGenerationError
		if !errors.As(err, &ge) || ge.Reason != sqlgen.ReasonInvalidSQL {
			t.Fatalf("err = %v, want invalid_sql", err)
		}
		if res == nil || res.Success {
			t.Errorf("result = %+v", res)
		}
	})
	t.Run("429 then ok", func(t *testing.T) {
		o, llm := e2e(t, f, inprocConfig(),
			llmtest.Step{Status: http.StatusTooManyRequests, RetryAfter: "0"},
			llmtest.Step{Content: llmtest.Plan("SELECT COUNT(*) FROM products", nil, "")})
		res, err := o.Process(context.Background(), Query{Question: "how many products"})
		if err != nil {
			t.Fatalf("Process: %v", err)
		}
		if res.Result.RowCount != 1 || len(llm.Requests()) != 2 {
			t.Errorf("rows = %d, llm requests = %d; want 1 and 2", res.Result.RowCount, len(llm.Requests()))
		}
	})
	t.Run("query timeout", func(t *testing.T) {
		cfg := inprocConfig()
		cfg.Orchestration.QueryTimeout = 300 * time.Millisecond
		o, _ := e2e(t, f, cfg, llmtest.Step{Delay: 5 * time.Second, Content: llmtest.Plan("SELECT 1", nil, "")})
		res, err := o.Process(context.Background(), Query{Question: "q"})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want DeadlineExceeded", err)
		}
		if res == nil || res.Success {
			t.Errorf("result = %+v", res)
		}
	})
}

func TestProcessConcurrent(t *testing.T) {
	f := newFixture(t)
	llm := llmtest.NewResponder(t, func(r llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: llmtest.Plan("SELECT COUNT(*) FROM sales", nil, "")}
	})
	o := newOrch(t, inprocConfig(), WithGenerator(llmGen(t, llm)),
		WithInProcessServer("database_mcp", f.dbServer(t)),
		WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { _, errs[i] = o.Process(context.Background(), Query{Question: "count"}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Process %d: %v", i, err)
		}
	}
}

// TestProcessRepairsEveryCategory: a scripted LLM breaks its first SQL in
// each repairable category (on the real database server, whose statement
// timeout is short here so TIMEOUT can happen); every question is repaired on
// the second attempt, and each repair prompt carries the failed SQL, the
// exact error, the category and what to change.
func TestProcessRepairsEveryCategory(t *testing.T) {
	good := "SELECT region, SUM(total_amount) AS total FROM sales GROUP BY region ORDER BY region"
	tests := []struct {
		bad string
		cat sqlerr.Category
	}{
		{"SELEC region, SUM(total_amount) FORM sales GROUP BY region", sqlerr.SyntaxError},
		{"SELECT region, SUM(total_amount) FROM sale GROUP BY region", sqlerr.MissingTable},
		{"SELECT region, SUM(amount) FROM sales GROUP BY region", sqlerr.MissingColumn},
		{"SELECT region, SUM(s.total_amount) FROM sales s JOIN orders o ON o.order_id = s.order_id " +
			"JOIN customers c ON c.customer_id = o.customer_id GROUP BY region", sqlerr.AmbiguousColumn},
		{"SELECT region, product_id, SUM(total_amount) FROM sales GROUP BY region", sqlerr.AggregationError},
		{"SELECT region, SUM(total_amount) FROM sales WHERE SUM(total_amount) > 0 GROUP BY region", sqlerr.AggregationError},
		{"SELECT region, SUM(total_amount) FROM sales GROUP BY region LIMIT 'all'", sqlerr.DataTypeMismatch},
		{"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) " +
			"SELECT region, (SELECT max(n) FROM r) FROM sales GROUP BY region", sqlerr.Timeout},
		{"SELECT region, length(randomblob(2000000000)) FROM sales GROUP BY region", sqlerr.ResourceLimit},
		{"SELECT region, abs(-9223372036854775807 - 1) FROM sales GROUP BY region", sqlerr.UnknownError},
	}
	f := newFixture(t)
	// Short enough that the runaway query of the TIMEOUT case ends soon, long
	// enough that the good query never hits it on a loaded machine.
	db, err := databasemcp.Open(context.Background(), f.dbPath, databasemcp.Options{QueryTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, tt := range tests {
		t.Run(string(tt.cat), func(t *testing.T) {
			llm := llmtest.New(t, llmtest.Step{Content: llmtest.Plan(tt.bad, nil, "")},
				llmtest.Step{Content: llmtest.Plan(good, nil, "")})
			o := newOrch(t, inprocConfig(), WithGenerator(llmGen(t, llm)),
				WithInProcessServer("database_mcp", databasemcp.NewServer(db, testLogger(t))),
				WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
			res, err := o.Process(context.Background(), Query{Question: "revenue by region"})
			if err != nil {
				t.Fatalf("Process: %v (attempts %+v)", err, res.Attempts)
			}
			if len(res.Attempts) != 2 || res.Attempts[0].Category != tt.cat || res.Attempts[0].SQL != tt.bad {
				t.Fatalf("attempts = %+v, want the broken SQL as a %s attempt, then the repair", res.Attempts, tt.cat)
			}
			if res.Result.RowCount != 4 {
				t.Errorf("row_count = %d, want 4 regions", res.Result.RowCount)
			}
			repair := llm.Requests()[1].User()
			quoted, _ := json.Marshal(res.Attempts[0].Error) // the error is quoted as a JSON string
			for _, want := range []string{tt.bad, string(quoted), "Error (" + string(tt.cat) + ")",
				"How to fix " + string(tt.cat) + ": " + sqlgen.RepairInstruction(tt.cat)} {
				if !strings.Contains(repair, want) {
					t.Errorf("repair prompt lacks %q:\n%s", want, repair)
				}
			}
		})
	}
}

// TestProcessGeneratedWriteRefused: a write from the generator is an attempt
// with its SQL and a PERMISSION_ERROR; it is never sent to the database and
// never repaired.
func TestProcessGeneratedWriteRefused(t *testing.T) {
	f := newFixture(t)
	for _, sql := range []string{
		"DELETE FROM sales",
		"UPDATE sales SET quantity = 0",
		"ATTACH DATABASE '/tmp/x.db' AS x",
		"SELECT 1; DROP TABLE sales",
	} {
		t.Run(sql, func(t *testing.T) {
			calls := 0
			spy := newResourceServer("spy", nil, map[string]server.ToolHandlerFunc{
				"execute_query": func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					calls++
					return mcp.NewToolResultText(`{"columns":["x"],"rows":[[1]]}`), nil
				},
			})
			cfg := inprocConfig()
			cfg.MCPServers["database_mcp"] = config.ServerConfig{Transport: config.TransportInProcess, Priority: 10,
				Capabilities: []string{config.CapExecuteQuery}, SchemaDiscovery: config.DiscoveryOff} // every call counts
			llm := llmtest.New(t, llmtest.Step{Content: llmtest.Plan(sql, nil, "")},
				llmtest.Step{Content: llmtest.Plan("SELECT 1", nil, "")})
			o := newOrch(t, cfg, WithGenerator(llmGen(t, llm)),
				WithInProcessServer("database_mcp", spy.s), WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
			res, err := o.Process(context.Background(), Query{Question: "remove the sales"})
			var qe *executor.QueryExecutionError
			if !errors.As(err, &qe) || qe.Category != sqlerr.PermissionError {
				t.Fatalf("err = %v, want PERMISSION_ERROR", err)
			}
			if len(res.Attempts) != 1 || res.Attempts[0].SQL != sql || res.Attempts[0].Category != sqlerr.PermissionError {
				t.Errorf("attempts = %+v, want one PERMISSION_ERROR attempt with the SQL", res.Attempts)
			}
			if res.SQL != sql {
				t.Errorf("result sql = %q, want the refused SQL shown", res.SQL)
			}
			if calls != 0 || llm.Remaining() != 1 {
				t.Errorf("executor calls = %d, llm steps left = %d; want 0 and 1 (never executed, never retried)", calls, llm.Remaining())
			}
		})
	}
}
