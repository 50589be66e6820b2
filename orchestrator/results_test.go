package orchestrator

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"talk2tables/config"
	"talk2tables/databasemcp"
	"talk2tables/internal/llmtest"
	"talk2tables/internal/testfixture"
	"talk2tables/mcpserve"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/sqlgen"
)

// countingExecutor is a third-party SQL server (no data version) whose
// execute_query and validate_query calls are counted.
type countingExecutor struct {
	s                   *server.MCPServer
	executed, validated atomic.Int64
}

func newCountingExecutor() *countingExecutor {
	e := &countingExecutor{s: server.NewMCPServer("foreign-sql", "1.0.0", server.WithToolCapabilities(false))}
	e.s.AddTool(mcp.NewTool("execute_query", mcp.WithString("query"), mcp.WithNumber("max_rows")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n := e.executed.Add(1)
			return mcp.NewToolResultText(`{"columns":["run"],"rows":[[` + strconv.FormatInt(n, 10) + `]],"row_count":1}`), nil
		})
	e.s.AddTool(mcp.NewTool("validate_query", mcp.WithString("query")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			e.validated.Add(1)
			return mcp.NewToolResultText(`{"valid":true}`), nil
		})
	return e
}

func executorConfig(transport string) *config.Config {
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 0
	// Its answers are no catalog: schema discovery would only add calls to
	// the counted ones.
	cfg.MCPServers["sql_mcp"] = config.ServerConfig{Name: "Foreign SQL", Transport: transport, Priority: 1,
		Capabilities: []string{config.CapExecuteQuery, config.CapValidateQuery}, SchemaDiscovery: config.DiscoveryOff}
	return cfg
}

// TestResultCacheAnswersRepeatedSQL: the same statement (up to comments,
// spacing and a trailing semicolon) with the same row cap is answered from
// the cache without reaching the executor, through ExecuteSQL and Process
// alike; a different row cap or statement is not; metrics count it.
func TestResultCacheAnswersRepeatedSQL(t *testing.T) {
	ex := newCountingExecutor()
	plan := llmtest.Plan("SELECT run FROM runs", nil, "runs")
	llm := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: plan} })
	reg := prometheus.NewRegistry()
	o := newOrch(t, executorConfig(config.TransportInProcess), WithInProcessServer("sql_mcp", ex.s),
		WithGenerator(llmGen(t, llm)), WithMetrics(NewMetrics(reg)))
	ctx := context.Background()

	first, err := o.ExecuteSQL(ctx, "SELECT run FROM runs", 10, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if first.ResultCache != executor.ResultCacheMiss || first.AgeS != nil {
		t.Errorf("first run: result_cache = %q, age = %v; want miss without an age", first.ResultCache, first.AgeS)
	}
	again, err := o.ExecuteSQL(ctx, "  select run FROM runs -- again\n;", 10, "t2")
	if err != nil {
		t.Fatal(err)
	}
	if again.ResultCache == executor.ResultCacheHit {
		t.Errorf("a statement differing in a word's case was a hit; column labels follow the spelling")
	}
	hit, err := o.ExecuteSQL(ctx, "SELECT run\n  FROM runs /* same */ ;", 10, "t3")
	if err != nil {
		t.Fatal(err)
	}
	if hit.ResultCache != executor.ResultCacheHit || hit.AgeS == nil || hit.Rows[0][0] != first.Rows[0][0] {
		t.Errorf("repeat: result_cache = %q, age = %v, rows %v; want a hit with the first rows %v",
			hit.ResultCache, hit.AgeS, hit.Rows, first.Rows)
	}
	if _, err := o.ExecuteSQL(ctx, "SELECT run FROM runs", 11, "t4"); err != nil {
		t.Fatal(err)
	}
	if got := ex.executed.Load(); got != 3 {
		t.Errorf("executions = %d, want 3 (first, other spelling, other max_rows)", got)
	}

	// Process: the generated SQL's second run skips validate and execute.
	for i := range 2 {
		res, err := o.Process(ctx, Query{Question: "how many runs", MaxRows: 20})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{executor.ResultCacheMiss, executor.ResultCacheHit}[i]
		if res.Result.ResultCache != want {
			t.Errorf("Process %d: result_cache = %q, want %q", i+1, res.Result.ResultCache, want)
		}
	}
	if e, v := ex.executed.Load(), ex.validated.Load(); e != 4 || v != 1 {
		t.Errorf("after two questions: executions %d, validations %d; want 4 and 1", e, v)
	}
	if got := testutil.ToFloat64(o.metrics.resultCache.WithLabelValues("hit")); got != 2 {
		t.Errorf("talk2tables_result_cache_total{event=hit} = %v, want 2", got)
	}
	if got := testutil.ToFloat64(o.metrics.resultCacheBytes); got <= 0 {
		t.Errorf("talk2tables_result_cache_bytes = %v, want the cached results' size", got)
	}
}

// TestResultCacheOff: enabled: false sends every statement to the executor
// and marks nothing.
func TestResultCacheOff(t *testing.T) {
	ex := newCountingExecutor()
	cfg := executorConfig(config.TransportInProcess)
	cfg.Orchestration.ResultCache.Enabled = false
	o := newOrch(t, cfg, WithInProcessServer("sql_mcp", ex.s), WithGenerator(scriptedOrFail(t)))
	for range 3 {
		d, err := o.ExecuteSQL(context.Background(), "SELECT 1", 10, "")
		if err != nil || d.ResultCache != "" || d.AgeS != nil {
			t.Fatalf("ExecuteSQL = %+v, %v; want a result without cache fields", d, err)
		}
	}
	if got := ex.executed.Load(); got != 3 {
		t.Errorf("executions = %d, want 3", got)
	}
}

// scriptedOrFail is a generator that must not be called.
func scriptedOrFail(tb testing.TB) *failGen { return &failGen{tb: tb} }

type failGen struct{ tb testing.TB }

var _ sqlgen.Generator = (*failGen)(nil)

func (g *failGen) Name() string { return "none" }

func (g *failGen) Generate(context.Context, sqlgen.Request) (sqlgen.Plan, error) {
	g.tb.Error("the generator was called; this test runs SQL only")
	return sqlgen.Plan{}, errors.New("no generator here")
}

// TestResultCacheFollowsTheDatabase: with database-mcp as the executor, a
// new database renamed over its file (as gen-data writes one) is noticed —
// database-mcp reports database://schema updated — and the next run of the
// same statement reads the new data.
func TestResultCacheFollowsTheDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sales.db")
	copyDB(t, testfixture.SalesDB(t, 100), path)
	db, err := databasemcp.Open(context.Background(), path, databasemcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	srv := databasemcp.NewServer(db, nil)
	watch, stopWatch := context.WithCancel(context.Background())
	var watching sync.WaitGroup
	watching.Go(func() { databasemcp.NotifyDataChanges(watch, db, srv, nil) })
	t.Cleanup(func() { stopWatch(); watching.Wait() })

	cfg := inprocConfig()
	delete(cfg.MCPServers, "product_metadata_mcp")
	o := newOrch(t, cfg, WithInProcessServer("database_mcp", srv), WithGenerator(scriptedOrFail(t)))
	ctx := context.Background()
	count := func() (int64, string) {
		t.Helper()
		d, err := o.ExecuteSQL(ctx, "SELECT count(*) AS n FROM sales", 10, "")
		if err != nil {
			t.Fatal(err)
		}
		if d.DataVersion == "" {
			t.Errorf("result without data_version")
		}
		return int64(d.Rows[0][0].(float64)), d.ResultCache
	}
	if n, how := count(); n != 100 || how != executor.ResultCacheMiss {
		t.Fatalf("first count = %d (%s), want 100 (miss)", n, how)
	}
	if n, how := count(); n != 100 || how != executor.ResultCacheHit {
		t.Fatalf("second count = %d (%s), want 100 (hit)", n, how)
	}
	copyDB(t, testfixture.SalesDB(t, 300), path)
	eventually(t, "the new database's count", func() bool {
		n, _ := count()
		return n == 300
	})
	if n, how := count(); n != 300 || how != executor.ResultCacheHit {
		t.Errorf("count after the change = %d (%s), want 300 (hit again)", n, how)
	}
}

func copyDB(tb testing.TB, src, dst string) {
	tb.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(dst+".tmp", data, 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.Rename(dst+".tmp", dst); err != nil {
		tb.Fatal(err)
	}
}

// TestStaleWhileDown: with max_stale set, a statement cached before the
// executor went away is answered, marked stale with its age, instead of an
// error; a statement never cached still fails; with max_stale 0 the cached
// one fails too.
func TestStaleWhileDown(t *testing.T) {
	for _, maxStale := range []time.Duration{time.Hour, 0} {
		t.Run("max_stale "+maxStale.String(), func(t *testing.T) {
			ex := newCountingExecutor()
			h, err := mcpserve.Handler(ex.s, mcpserve.StreamableHTTP)
			if err != nil {
				t.Fatal(err)
			}
			hs := httptest.NewServer(h)
			t.Cleanup(func() { mcpserve.CloseSessions(h); hs.CloseClientConnections(); hs.Close() })
			cfg := executorConfig(config.TransportStreamableHTTP)
			sc := cfg.MCPServers["sql_mcp"]
			sc.URL = hs.URL + "/mcp"
			cfg.MCPServers["sql_mcp"] = sc
			cfg.Orchestration.ResultCache.MaxStale = maxStale
			cfg.Orchestration.MCPCallTimeout = time.Second
			o := newOrch(t, cfg, WithGenerator(scriptedOrFail(t)), withBackoff(time.Hour, time.Hour))
			ctx := context.Background()
			if _, err := o.ExecuteSQL(ctx, "SELECT run FROM runs", 10, ""); err != nil {
				t.Fatal(err)
			}

			mcpserve.CloseSessions(h)
			hs.CloseClientConnections()
			hs.Close()
			eventually(t, "the executor to be seen down", func() bool {
				_, err := o.ExecuteSQL(ctx, "SELECT 'probe'", 10, "")
				var ce *mcpclient.MCPConnectionError
				return errors.As(err, &ce)
			})
			d, err := o.ExecuteSQL(ctx, "SELECT run FROM runs", 10, "")
			if maxStale == 0 {
				var ce *mcpclient.MCPConnectionError
				if !errors.As(err, &ce) {
					t.Fatalf("with max_stale 0: ExecuteSQL = %+v, %v; want the connection error", d, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ExecuteSQL of a cached statement while down = %v, want the stale result", err)
			}
			if !d.Stale || d.ResultCache != executor.ResultCacheStale || d.AgeS == nil || d.RowCount != 1 {
				t.Errorf("stale result = %+v, want stale: true, result_cache stale, an age and the row", d)
			}
			if _, err := o.ExecuteSQL(ctx, "SELECT never_cached", 10, ""); err == nil {
				t.Error("a statement never cached was answered while the executor is down")
			}
		})
	}
}
