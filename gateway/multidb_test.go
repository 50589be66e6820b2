package gateway

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"talk2tables/config"
	"talk2tables/databasemcp"
	"talk2tables/internal/fixtures"
	"talk2tables/orchestrator/executor"
)

// withParcels is a second executor, "parcels_db", over the parcels fixture.
func withParcels(tb testing.TB) extraServer {
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
	return extraServer{id: "parcels_db", srv: databasemcp.NewServer(db, slog.New(slog.DiscardHandler)),
		cfg: config.ServerConfig{Name: "Parcels", Transport: config.TransportInProcess, Priority: 20,
			Domains: []string{"logistics"}, Capabilities: []string{config.CapExecuteQuery, config.CapListResources}}}
}

// TestSeveralDatabasesTools: run_sql takes "server"; ask routes the
// question to its database and says which one answered.
func TestSeveralDatabasesTools(t *testing.T) {
	st := newStack(t, "", withParcels(t))
	c, _ := inProcess(t, st, clientOptions{})
	res := call(t, c, "run_sql", map[string]any{"sql": "SELECT COUNT(*) AS n FROM shipments", "server": "parcels_db"}, nil)
	var d executor.QueryData
	structured(t, res, &d)
	if res.IsError || d.Executor != "parcels_db" || len(d.Rows) != 1 {
		t.Errorf("run_sql on parcels_db = %+v / %s", d, text(res))
	}
	res = call(t, c, "run_sql", map[string]any{"sql": "SELECT 1", "server": "nope"}, nil)
	if !res.IsError || !strings.Contains(text(res), `"database_mcp", "parcels_db"`) {
		t.Errorf("run_sql on an unknown server = %s (isError %v), want the executors named", text(res), res.IsError)
	}
	res = call(t, c, "ask", map[string]any{"question": "how many shipments were sent in 2025"}, nil)
	if res.IsError || !strings.Contains(text(res), "Answered from database `parcels_db`.") {
		t.Errorf("ask = %s (isError %v), want an answer from parcels_db", text(res), res.IsError)
	}
}
