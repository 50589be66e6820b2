package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"talk2tables/internal/fixtures"
	"talk2tables/internal/pgtest"
	"talk2tables/internal/testfixture"
)

// TestServeSQLiteAndPostgres runs `serve` with two executors side by side:
// the sample on PostgreSQL (database_mcp, with the sample catalog) and the
// parcels fixture on SQLite (parcels_db), and the builtin planner. Each
// question is answered by its own database in its own dialect and says
// which; a question needing both is declined naming both; /api/sql runs on
// the server it names.
func TestServeSQLiteAndPostgres(t *testing.T) {
	db := pgtest.NewDB(t)
	pgtest.LoadSample(t, db, 3000)
	bare, pw := withoutPassword(t, db.ReadOnlyRole(t).DSN())
	t.Setenv("T2T_REPLICA_PASSWORD", pw)
	parcels, err := fixtures.Build(context.Background(), fixtures.Parcels, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg := "mcp_servers:\n" + postgresServers(t, bare) + `  parcels_db:
    name: Parcels
    transport: stdio
    command: ` + os.Args[0] + `
    args: [database-mcp, --db, "` + parcels + `", --today, "` + fixtures.AsOf(fixtures.Parcels).Format("2006-01-02") + `"]
    env: {` + runMainEnv + `: "1"}
    priority: 20
    domains: [logistics]
    capabilities: [execute_query, validate_query, list_resources]
` + serveTail(nil)
	base := startServeYAML(t, "pg-and-sqlite", cfg)

	code, res := post(t, base+"api/query", `{"question":"total revenue by region this year"}`)
	if code != 200 || metaExecutor(res) != "database_mcp" || !strings.Contains(res["sql"].(string), "sale_date") {
		t.Errorf("sales question = %d %v, want an answer from database_mcp (PostgreSQL)", code, res)
	}

	const shipments = "SELECT COUNT(*) FROM shipments WHERE ship_date >= '2025-01-01' AND ship_date < '2026-01-01'"
	want := sqliteRows(t, parcels, shipments)
	code, res = post(t, base+"api/query", `{"question":"how many shipments were sent in 2025"}`)
	if code != 200 || metaExecutor(res) != "parcels_db" {
		t.Fatalf("parcels question = %d %v, want an answer from parcels_db", code, res)
	}
	if got := mustJSON(t, res["result"].(map[string]any)["rows"]); got != mustJSON(t, want) {
		t.Errorf("parcels rows = %s, want %s", got, mustJSON(t, want))
	}

	code, res = post(t, base+"api/query", `{"question":"revenue by depot"}`)
	msg := mustJSON(t, res["error"])
	if code != 422 || !strings.Contains(msg, `database_mcp`) || !strings.Contains(msg, `parcels_db`) {
		t.Errorf("cross-database question = %d %s, want a decline naming both", code, msg)
	}

	code, res = post(t, base+"api/sql", `{"sql":"`+shipments+`","server":"parcels_db"}`)
	if code != 200 || mustJSON(t, res["rows"]) != mustJSON(t, want) || res["executor"] != "parcels_db" {
		t.Errorf("/api/sql on parcels_db = %d %v", code, res)
	}
	code, res = post(t, base+"api/sql", `{"sql":"SELECT COUNT(*) FROM sales"}`)
	if code != 200 || res["executor"] != "database_mcp" {
		t.Errorf("/api/sql without server = %d %v, want database_mcp", code, res)
	}
}

func metaExecutor(res map[string]any) string {
	m, _ := res["metadata"].(map[string]any)
	s, _ := m["executor"].(string)
	return s
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sqliteRows runs q on the SQLite file at path.
func sqliteRows(t testing.TB, path, q string) [][]any {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return testfixture.QueryRows(t, db, q)
}
