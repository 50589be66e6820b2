package orchestrator

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"talk2tables/config"
	"talk2tables/databasemcp"
	"talk2tables/internal/fixtures"
	"talk2tables/internal/llmtest"
	"talk2tables/internal/testfixture"
	"talk2tables/orchestrator/builtin"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/sqlerr"
)

// twoDBs is the sample sales database (executor "sales_db", priority 10,
// with the sample catalog on product_metadata_mcp) beside the parcels
// fixture (executor "parcels_db", priority 20, no catalog): two real
// database-mcp servers over two SQLite files.
type twoDBs struct {
	sales       *fixture
	parcelsPath string
	parcels     *databasemcp.DB
}

func newTwoDBs(tb testing.TB) *twoDBs {
	tb.Helper()
	path, err := fixtures.Build(context.Background(), fixtures.Parcels, tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	db, err := databasemcp.Open(context.Background(), path, databasemcp.Options{Today: fixtures.AsOf(fixtures.Parcels).Format("2006-01-02")})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return &twoDBs{sales: newFixture(tb), parcelsPath: path, parcels: db}
}

func (d *twoDBs) config() *config.Config {
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 0
	caps := []string{config.CapExecuteQuery, config.CapValidateQuery, config.CapListResources}
	cfg.MCPServers = map[string]config.ServerConfig{
		"sales_db": {Name: "Sales", Transport: config.TransportInProcess, Priority: 10, Domains: []string{"sales"}, Capabilities: caps},
		"parcels_db": {Name: "Parcels", Transport: config.TransportInProcess, Priority: 20, Domains: []string{"logistics"},
			Capabilities: caps},
		"product_metadata_mcp": {Name: "Product Metadata MCP", Transport: config.TransportInProcess, Priority: 1,
			Capabilities: []string{config.CapListResources}},
	}
	return cfg
}

func (d *twoDBs) orch(tb testing.TB, gen sqlgen.Generator) *Orchestrator {
	tb.Helper()
	return newOrch(tb, d.config(), WithGenerator(gen),
		WithInProcessServer("sales_db", d.sales.dbServer(tb)),
		WithInProcessServer("parcels_db", databasemcp.NewServer(d.parcels, testLogger(tb))),
		WithInProcessServer("product_metadata_mcp", d.sales.metaServer(tb)))
}

func (d *twoDBs) directParcels(tb testing.TB, q string) [][]any {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+d.parcelsPath+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	return testfixture.QueryRows(tb, db, q)
}

const shipments2025 = "SELECT COUNT(*) FROM shipments WHERE ship_date >= '2025-01-01' AND ship_date < '2026-01-01'"

// TestSeveralDatabasesBuiltin: the offline planner routes each question to
// its database, the SQL runs there and the result names it; a question
// needing both is declined naming both, and nothing runs.
func TestSeveralDatabasesBuiltin(t *testing.T) {
	d := newTwoDBs(t)
	o := d.orch(t, builtin.New(nil))
	ctx := context.Background()

	res, err := o.Process(ctx, Query{Question: "how many shipments were sent in 2025"})
	if err != nil {
		t.Fatalf("Process parcels question: %v", err)
	}
	if res.Metadata.Executor != "parcels_db" || res.Result.Executor != "parcels_db" {
		t.Errorf("executor = %q / %q, want parcels_db", res.Metadata.Executor, res.Result.Executor)
	}
	if got, want := jsonOf(t, res.Result.Rows), jsonOf(t, d.directParcels(t, shipments2025)); got != want {
		t.Errorf("rows = %s, want %s", got, want)
	}
	if got := strings.Join(res.Metadata.MCPServersUsed, ","); strings.Contains(got, "sales_db") {
		t.Errorf("mcp_servers_used = %s: the sales database did not answer", got)
	}

	res, err = o.Process(ctx, Query{Question: "total revenue by region"})
	if err != nil {
		t.Fatalf("Process sales question: %v", err)
	}
	want := d.sales.direct(t, "SELECT region, SUM(total_amount) AS t FROM sales GROUP BY region ORDER BY t DESC, region")
	if res.Metadata.Executor != "sales_db" || jsonOf(t, res.Result.Rows) != jsonOf(t, want) {
		t.Errorf("executor %q rows %s, want sales_db %s", res.Metadata.Executor, jsonOf(t, res.Result.Rows), jsonOf(t, want))
	}

	_, err = o.Process(ctx, Query{Question: "revenue by depot"})
	var ge *SQLGenerationError
	if !errors.As(err, &ge) || ge.Reason != sqlgen.ReasonDeclined {
		t.Fatalf("cross-database question: err = %v, want a decline", err)
	}
	if !strings.Contains(ge.Message, `"sales_db"`) || !strings.Contains(ge.Message, `"parcels_db"`) {
		t.Errorf("decline %q does not name both databases", ge.Message)
	}
}

// TestSeveralDatabasesLLM: the prompt lists both databases with the
// servers describing each (the sample catalog bound to sales_db by its
// tables); the plan's server picks where the SQL runs; a plan naming no
// server, or reading another database's table, is a failed attempt the
// repair prompt explains and nothing is sent.
func TestSeveralDatabasesLLM(t *testing.T) {
	d := newTwoDBs(t)
	plan := func(server, sql string) llmtest.Step {
		return llmtest.Step{Content: jsonOf(t, map[string]any{"server": server, "sql": sql, "explanation": "x", "confidence": 0.9})}
	}
	llm := llmtest.New(t,
		llmtest.Step{Content: llmtest.Plan(shipments2025, nil, "no server named")},
		plan("sales_db", shipments2025),
		plan("parcels_db", shipments2025))
	o := d.orch(t, llmGen(t, llm))
	res, err := o.Process(context.Background(), Query{Question: "how many shipments in 2025"})
	if err != nil {
		t.Fatalf("Process: %v", err)
	}
	if res.Metadata.Executor != "parcels_db" {
		t.Errorf("executor = %q, want parcels_db", res.Metadata.Executor)
	}
	if got, want := jsonOf(t, res.Result.Rows), jsonOf(t, d.directParcels(t, shipments2025)); got != want {
		t.Errorf("rows = %s, want %s", got, want)
	}
	if len(res.Attempts) != 3 {
		t.Fatalf("attempts = %+v, want 3", res.Attempts)
	}
	if a := res.Attempts[0]; !strings.Contains(a.Error, `names no database in "server"`) {
		t.Errorf("attempt 1 error = %q, want the missing server explained", a.Error)
	}
	if a := res.Attempts[1]; a.Category != sqlerr.MissingTable || !strings.Contains(a.Error, `"parcels_db"`) {
		t.Errorf("attempt 2 = %+v, want MISSING_TABLE naming parcels_db", a)
	}
	if a := res.Attempts[2]; a.Server != "parcels_db" || a.Error != "" {
		t.Errorf("attempt 3 = %+v, want a clean run on parcels_db", a)
	}
	reqs := llm.Requests()
	first := reqs[0].User()
	for _, w := range []string{"- sales_db (Sales): dialect sqlite", "described by servers sales_db, product_metadata_mcp",
		"- parcels_db (Parcels): dialect sqlite", "described by servers parcels_db\n"} {
		if !strings.Contains(first, w) {
			t.Errorf("prompt lacks %q", w)
		}
	}
	if !strings.Contains(reqs[2].User(), `table shipments is in database \"parcels_db\"`) {
		t.Errorf("repair prompt does not explain the other database's table:\n%s", reqs[2].User())
	}
}

// TestExecuteSQLOnServer: analyst SQL runs on the named executor; without
// one on the top-priority executor; an unknown name is refused with the
// configured ones.
func TestExecuteSQLOnServer(t *testing.T) {
	d := newTwoDBs(t)
	o := d.orch(t, builtin.New(nil))
	ctx := context.Background()
	data, err := o.ExecuteSQLOn(ctx, "parcels_db", shipments2025, 10, "")
	if err != nil {
		t.Fatalf("ExecuteSQLOn parcels_db: %v", err)
	}
	if data.Executor != "parcels_db" || jsonOf(t, data.Rows) != jsonOf(t, d.directParcels(t, shipments2025)) {
		t.Errorf("data = %+v", data)
	}
	data, err = o.ExecuteSQL(ctx, "SELECT COUNT(*) FROM sales", 10, "")
	if err != nil || data.Executor != "sales_db" {
		t.Fatalf("ExecuteSQL = %+v, %v; want sales_db", data, err)
	}
	// Once the schemas are known, SQL over the other database's table says
	// where to send it.
	if _, err := o.Process(ctx, Query{Question: "total revenue"}); err != nil {
		t.Fatal(err)
	}
	_, err = o.ExecuteSQL(ctx, "SELECT COUNT(*) FROM shipments", 10, "")
	var qe *executor.QueryExecutionError
	if !errors.As(err, &qe) || qe.Category != sqlerr.MissingTable || !strings.Contains(qe.Message, `"server": "parcels_db"`) {
		t.Errorf("other database's table: err = %v, want MISSING_TABLE naming parcels_db", err)
	}
	_, err = o.ExecuteSQLOn(ctx, "nope", "SELECT 1", 10, "")
	var ue *mcpclient.UnknownExecutorError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `"sales_db", "parcels_db"`) {
		t.Errorf("unknown server: err = %v", err)
	}
	if got := strings.Join(o.Executors(), ","); got != "sales_db,parcels_db" {
		t.Errorf("Executors = %s", got)
	}
}

// TestCatalogForOverridesCoverage: catalog_for binds a catalog to the
// executor it names, whatever tables it covers.
func TestCatalogForOverridesCoverage(t *testing.T) {
	d := newTwoDBs(t)
	cfg := d.config()
	meta := cfg.MCPServers["product_metadata_mcp"]
	meta.CatalogFor = "parcels_db"
	cfg.MCPServers["product_metadata_mcp"] = meta
	llm := llmtest.New(t, llmtest.Step{Content: jsonOf(t, map[string]any{"server": "sales_db",
		"sql": "SELECT COUNT(*) FROM sales", "explanation": "x", "confidence": 0.9})})
	o := newOrch(t, cfg, WithGenerator(llmGen(t, llm)),
		WithInProcessServer("sales_db", d.sales.dbServer(t)),
		WithInProcessServer("parcels_db", databasemcp.NewServer(d.parcels, testLogger(t))),
		WithInProcessServer("product_metadata_mcp", d.sales.metaServer(t)))
	res, err := o.Process(context.Background(), Query{Question: "how many sales lines"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Metadata.MCPServersUsed, ","); got != "sales_db" {
		t.Errorf("mcp_servers_used = %s, want only sales_db (the catalog belongs to parcels_db)", got)
	}
	user := llm.Requests()[0].User()
	for _, w := range []string{"described by servers sales_db\n", "described by servers parcels_db, product_metadata_mcp\n"} {
		if !strings.Contains(user, w) {
			t.Errorf("prompt lacks %q", w)
		}
	}
}
