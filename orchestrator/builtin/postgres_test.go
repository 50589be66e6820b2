package builtin

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"talk2tables/databasemcp"
	"talk2tables/internal/pgcopy"
	"talk2tables/internal/pgtest"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/pgconfig"
)

// TestPostgresAnswersMatchSQLite copies each fixture database into a real
// PostgreSQL database (same names, so CamelCase and "Order Details" need
// quoting there; DATETIME becomes timestamp, TEXT dates stay text, unix
// seconds stay integers), asks every question of the fixture in both
// dialects, and requires the PostgreSQL SQL to run and return what the
// SQLite SQL returns on SQLite.
func TestPostgresAnswersMatchSQLite(t *testing.T) {
	sets := []struct {
		name string
		lite *env
		qs   []question
	}{
		{"sales", salesEnv(t), salesQuestions()},
		{"store", storeEnv(t), storeQuestions()},
		{"music", musicEnv(t), musicQuestions()},
		{"brewery", breweryEnv(t), breweryQuestions()},
	}
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			pg := pgtest.NewDB(t)
			conn := pg.Conn(t)
			copyToPostgres(t, set.lite.db, conn)
			req := postgresRequest(t, pg.DSN(), set.lite.req)
			g := New(nil)
			for _, c := range set.qs {
				lreq, preq := set.lite.req, req
				lreq.Question, preq.Question = c.q, c.q
				lp, lerr := g.Generate(context.Background(), lreq)
				pp, perr := g.Generate(context.Background(), preq)
				if (lerr == nil) != (perr == nil) {
					t.Errorf("%q: sqlite err %v, postgres err %v", c.q, lerr, perr)
					continue
				}
				if lerr != nil {
					continue // a view PostgreSQL was not given
				}
				want := normalized(set.lite.rows(t, lp.SQL))
				got := normalized(pgRows(t, conn, pp.SQL))
				ordered := c.ordered || strings.Contains(strings.ToUpper(c.want), " LIMIT ")
				if err := sameRows(got, want, ordered); err != nil {
					t.Errorf("%q:\n postgres: %s\n sqlite:   %s\n %v\n pg rows:     %v\n sqlite rows: %v", c.q, pp.SQL, lp.SQL, err, head(got), head(want))
				}
			}
		})
	}
}

// copyToPostgres creates the SQLite database's tables (with their primary
// and foreign keys) and views in PostgreSQL under the same names and copies
// the rows.
func copyToPostgres(tb testing.TB, lite *sql.DB, conn *pgx.Conn) {
	tb.Helper()
	skipped, err := pgcopy.FromSQLite(context.Background(), lite, conn)
	if err != nil {
		tb.Fatal(err)
	}
	if len(skipped) > 0 {
		tb.Fatalf("create view: %v", skipped)
	}
}

// postgresRequest is lite's request with the schema resource read from
// PostgreSQL by database-mcp.
func postgresRequest(tb testing.TB, dsn string, lite sqlgen.Request) sqlgen.Request {
	tb.Helper()
	cfg, err := pgconfig.Parse(dsn, "")
	if err != nil {
		tb.Fatal(err)
	}
	p, err := databasemcp.OpenPostgres(context.Background(), databasemcp.PostgresConfig{Conn: cfg}, databasemcp.Options{Today: asOf})
	if err != nil {
		tb.Fatal(err)
	}
	defer p.Close()
	s, err := p.Schema(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	b, _ := json.Marshal(s)
	var res map[string]any
	if err := json.Unmarshal(b, &res); err != nil {
		tb.Fatal(err)
	}
	shareSampledValues(res, lite)
	req := lite
	req.Dialect = "postgres"
	req.Servers = append([]sqlgen.ServerContext(nil), lite.Servers...)
	last := len(req.Servers) - 1
	req.Servers[last].Resources = map[string]any{"database://schema": res}
	req.Servers[last].Version = "pg"
	return req
}

// shareSampledValues gives the PostgreSQL schema the low-cardinality
// values the SQLite schema lists, so both dialects are asked with the same
// knowledge and only the SQL differs.
func shareSampledValues(pg map[string]any, lite sqlgen.Request) {
	sample := map[string]any{}
	for _, s := range lite.Servers {
		sch, ok := s.Resources["database://schema"].(map[string]any)
		if !ok {
			continue
		}
		for _, t := range sch["tables"].([]any) {
			tm := t.(map[string]any)
			for _, c := range tm["columns"].([]any) {
				cm := c.(map[string]any)
				if v, ok := cm["distinct_values"]; ok {
					sample[tm["name"].(string)+"."+cm["name"].(string)] = v
				}
			}
		}
	}
	for _, t := range pg["tables"].([]any) {
		tm := t.(map[string]any)
		for _, c := range tm["columns"].([]any) {
			cm := c.(map[string]any)
			delete(cm, "distinct_values")
			if v, ok := sample[tm["name"].(string)+"."+cm["name"].(string)]; ok {
				cm["distinct_values"] = v
			}
		}
	}
}

func pgRows(tb testing.TB, conn *pgx.Conn, q string) [][]any {
	tb.Helper()
	rs, err := conn.Query(context.Background(), q)
	if err != nil {
		tb.Fatalf("postgres %s: %v", q, err)
	}
	defer rs.Close()
	var out [][]any
	for rs.Next() {
		vals, err := rs.Values()
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, vals)
	}
	if err := rs.Err(); err != nil {
		tb.Fatalf("postgres %s: %v", q, err)
	}
	return out
}

// normalized turns both drivers' values into float64, string or nil, and
// times into text.
func normalized(rows [][]any) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = make([]any, len(r))
		for j, v := range r {
			out[i][j] = normValue(v)
		}
	}
	return out
}

func normValue(v any) any {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case int32:
		return float64(x)
	case float32:
		return float64(x)
	case float64:
		return x
	case pgtype.Numeric:
		f, err := x.Float64Value()
		if err != nil || !f.Valid {
			return nil
		}
		return f.Float64
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 {
			return x.Format("2006-01-02")
		}
		return x.Format("2006-01-02 15:04:05")
	case []byte:
		return string(x)
	case string:
		if t, err := time.Parse("2006-01-02", x); err == nil {
			return t.Format("2006-01-02")
		}
		return x
	}
	if v == nil {
		return nil
	}
	return fmt.Sprint(v)
}
