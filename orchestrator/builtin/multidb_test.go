package builtin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"talk2tables/internal/fixtures"
	"talk2tables/orchestrator/sqlgen"
)

// twoDatabases is a request with two databases of different domains: the
// sample sales database with its catalog (executor "sales") and the parcels
// fixture with its drafted catalog (executor "parcels"), each a separate
// source described by its own two servers.
func twoDatabases(tb testing.TB) (req sqlgen.Request, sales, parcels *env) {
	tb.Helper()
	sales = salesEnv(tb)
	path, err := fixtures.Build(context.Background(), fixtures.Parcels, tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	parcels = newEnv(tb, path, draftCatalog(tb, path))
	var servers []sqlgen.ServerContext
	for _, set := range []struct {
		db   string
		from []sqlgen.ServerContext
	}{{"sales", sales.req.Servers}, {"parcels", parcels.req.Servers}} {
		for _, s := range set.from {
			if s.ID == "database_mcp" {
				s.ID = set.db
			} else {
				s.ID = set.db + "_catalog"
			}
			servers = append(servers, s)
		}
	}
	req = sqlgen.Request{Dialect: "sqlite", Today: asOf, Servers: servers, Databases: []sqlgen.Database{
		{Server: "sales", Dialect: "sqlite", Today: asOf, Domains: []string{"sales"},
			Sources: []string{"sales", "sales_catalog"}},
		{Server: "parcels", Dialect: "sqlite", Today: fixtures.AsOf(fixtures.Parcels).Format("2006-01-02"),
			Domains: []string{"logistics"}, Sources: []string{"parcels", "parcels_catalog"}},
	}}
	return req, sales, parcels
}

// TestSeveralDatabasesRouting: each question goes to the one database that
// understands it, with that database's own model, and its SQL gives the
// right rows there; questions that read the same in both, or need both,
// are declined naming both.
func TestSeveralDatabasesRouting(t *testing.T) {
	req, sales, parcels := twoDatabases(t)
	g := New(nil)
	for _, c := range []struct {
		name, q, server string
		db              *env
		want            string // gold SQL on db
		declineNames    bool   // declined, the message naming both databases
	}{
		{name: "sales only", q: "total revenue by region", server: "sales", db: sales,
			want: "SELECT region, SUM(total_amount) FROM sales GROUP BY region"},
		{name: "parcels only", q: "how many shipments were sent in 2025", server: "parcels", db: parcels,
			want: "SELECT COUNT(*) FROM shipments WHERE ship_date >= '2025-01-01' AND ship_date < '2026-01-01'"},
		{name: "parcels regions, not sales.region", q: "total shipping fee by region last year", server: "parcels", db: parcels,
			want: `SELECT r.region_name, SUM(s.shipping_fee) FROM shipments s JOIN depots d ON d.depot_id = s.depot_id
				JOIN regions r ON r.region_id = d.region_id WHERE s.ship_date >= '2025-01-01' AND s.ship_date < '2026-01-01'
				GROUP BY r.region_id, r.region_name`},
		{name: "the domain picks", q: "how many regions in logistics", server: "parcels", db: parcels,
			want: "SELECT COUNT(*) FROM regions"},
		{name: "words split across databases", q: "revenue by depot", declineNames: true},
		{name: "reads the same in both", q: "how many customers", declineNames: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := req
			r.Question = c.q
			plan, err := g.Generate(context.Background(), r)
			if c.declineNames {
				var ge *sqlgen.SQLGenerationError
				if !errors.As(err, &ge) || ge.Reason != sqlgen.ReasonDeclined {
					t.Fatalf("Generate = %+v, %v; want a decline", plan, err)
				}
				if !strings.Contains(ge.Message, `"sales"`) || !strings.Contains(ge.Message, `"parcels"`) {
					t.Errorf("decline %q does not name both databases", ge.Message)
				}
				return
			}
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if plan.Server != c.server {
				t.Fatalf("Server = %q, want %q (SQL %s)", plan.Server, c.server, plan.SQL)
			}
			if err := sameRowsLoose(c.db.rows(t, plan.SQL), c.db.rows(t, c.want), false); err != nil {
				t.Errorf("SQL %s: %v", plan.SQL, err)
			}
		})
	}
	if n := g.Compiles(); n != 2 {
		t.Errorf("Compiles = %d, want 2 (one model per database, cached)", n)
	}
}

// TestOneDatabaseNeedsNoServer: with one database the plan names none, as
// before.
func TestOneDatabaseNeedsNoServer(t *testing.T) {
	e := salesEnv(t)
	req := e.req
	req.Question = "total revenue"
	req.Databases = []sqlgen.Database{{Server: "database_mcp", Dialect: "sqlite", Sources: []string{"database_mcp", "metadata_mcp"}}}
	plan, err := New(nil).Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Server != "" {
		t.Errorf("Server = %q, want empty with one database", plan.Server)
	}
}
