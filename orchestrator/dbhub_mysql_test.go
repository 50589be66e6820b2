package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"talk2tables/config"
	"talk2tables/internal/fixtures"
	"talk2tables/internal/mariadbtest"
	"talk2tables/orchestrator/builtin"
	"talk2tables/orchestrator/executor"
	"talk2tables/sqlerr"
)

// TestDBHubExecutorMariaDB: DBHub over MariaDB as a third-party executor
// (the sample loaded as gen-data --dsn mysql://... loads it, read through
// the least-privilege user): the schema is discovered as mysql, the static
// check reads its SQL with MySQL's rules (a DELETE hidden by a backslash
// escape never reaches DBHub), errors are classified from MySQL's
// messages, and the sample's questions get the same answers as from
// database-mcp over SQLite with the same rows.
func TestDBHubExecutorMariaDB(t *testing.T) {
	dbhubCommand(t) // skip before starting a server when DBHub is missing
	db := mariadbtest.NewDB(t)
	mariadbtest.LoadSample(t, db, 5000)
	u := db.ReadOnlyUser(t)
	f := newFixture(t) // the same rows in SQLite, and the catalog
	cfg := dbhubConfig(t, u.DSN(), 10000)
	cfg.Orchestration.MCPCallTimeout = 20 * time.Second
	cfg.MCPServers["product_metadata_mcp"] = config.ServerConfig{Name: "Product Metadata MCP", Transport: config.TransportInProcess,
		Priority: 1, Capabilities: []string{config.CapListResources}}
	o := newOrch(t, cfg, WithGenerator(builtin.New(nil)), WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
	lite := newOrch(t, liteConfig(), WithGenerator(builtin.New(nil)),
		WithInProcessServer("database_mcp", f.dbServer(t)), WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
	ctx := context.Background()

	res, err := o.ExecuteSQL(ctx, "SELECT sale_id, region FROM sales ORDER BY sale_id", 7, "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 7 || !res.Truncated || strings.Join(res.Columns, ",") != "sale_id,region" {
		t.Errorf("columns %v, %d rows, truncated %v; want sale_id,region, 7 rows, truncated", res.Columns, len(res.Rows), res.Truncated)
	}
	var qe *executor.QueryExecutionError
	if _, err = o.ExecuteSQL(ctx, "SELECT nope FROM sales", 5, "t"); !errors.As(err, &qe) || qe.Category != sqlerr.MissingColumn {
		t.Errorf("err = %v, want MISSING_COLUMN from MySQL's message", err)
	}
	if _, err = o.ExecuteSQL(ctx, `SELECT 'a\'' ; DELETE FROM sales; -- '`, 5, "t"); !errors.As(err, &qe) || qe.Category != sqlerr.PermissionError {
		t.Errorf("hidden DELETE: err = %v, want PERMISSION_ERROR from the static check", err)
	}
	for _, s := range o.Servers() {
		if s.ID == "dbhub" && s.SchemaSource != "discovered via execute_sql (mysql)" {
			t.Errorf("schema_source = %q, want discovered via execute_sql (mysql)", s.SchemaSource)
		}
	}

	qs, err := fixtures.Questions(fixtures.Sample)
	if err != nil {
		t.Fatal(err)
	}
	same, answered := 0, 0
	for _, q := range qs {
		if q.Decline || len(q.Edits) > 0 {
			continue
		}
		want, err := lite.Process(ctx, Query{Question: q.Text, MaxRows: 10000})
		if err != nil {
			continue // declined on SQLite too: nothing to compare
		}
		got, err := o.Process(ctx, Query{Question: q.Text, MaxRows: 10000})
		if err != nil {
			t.Logf("%s %q: not answered through DBHub: %v", q.ID, q.Text, err)
			continue
		}
		answered++
		if g, w := canonical(got.Result.Rows), canonical(want.Result.Rows); g != w {
			t.Errorf("%s %q:\n  DBHub/MariaDB (%s): %.300s\n  SQLite (%s): %.300s", q.ID, q.Text, got.SQL, g, want.SQL, w)
			continue
		}
		same++
	}
	t.Logf("%d questions answered through DBHub over MariaDB, %d the same as on SQLite", answered, same)
	if answered < 30 {
		t.Errorf("only %d questions answered through DBHub over MariaDB", answered)
	}
}

// liteConfig is the sample's two servers in-process, as mcp_config.yaml has
// them.
func liteConfig() *config.Config {
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 0
	cfg.MCPServers["database_mcp"] = config.ServerConfig{Name: "Database MCP", Transport: config.TransportInProcess, Priority: 10,
		Capabilities: []string{config.CapExecuteQuery, config.CapValidateQuery, config.CapListResources}}
	cfg.MCPServers["product_metadata_mcp"] = config.ServerConfig{Name: "Product Metadata MCP", Transport: config.TransportInProcess,
		Priority: 1, Capabilities: []string{config.CapListResources}}
	return cfg
}

// canonical renders rows with numbers rounded to cents (MySQL's DECIMAL
// comes back from DBHub as text, SQLite's REAL as a float) and dates as
// their first ten characters, so equal answers print alike.
func canonical(rows [][]any) string {
	var b strings.Builder
	for _, r := range rows {
		for _, v := range r {
			s := fmt.Sprint(v)
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				s = strconv.FormatFloat(f, 'f', 2, 64)
			} else if len(s) >= 10 && s[4] == '-' && s[7] == '-' && strings.Contains(s, "T00:00:00") {
				s = s[:10]
			}
			b.WriteString(s + "|")
		}
		b.WriteString("\n")
	}
	return b.String()
}
