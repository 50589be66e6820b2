package builtin

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"talk2tables/databasemcp"
	"talk2tables/internal/mariadbtest"
	"talk2tables/internal/mycopy"
	"talk2tables/orchestrator/sqlgen"
)

// TestMySQLAnswersMatchSQLite copies each fixture database into MariaDB
// (same names, so CamelCase and "Order Details" need backticks there; text
// with binary collation as SQLite compares), asks every question of the
// fixture in both dialects, and requires the MySQL SQL to run on MariaDB and
// return what the SQLite SQL returns on SQLite.
func TestMySQLAnswersMatchSQLite(t *testing.T) {
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
			db := mariadbtest.NewDB(t)
			my := db.Conn(t)
			skipped, err := mycopy.FromSQLite(context.Background(), set.lite.db, my)
			if err != nil {
				t.Fatal(err)
			}
			if len(skipped) > 0 {
				t.Logf("not copied to MariaDB: %v", skipped)
			}
			req := mysqlRequest(t, db.Config(), set.lite.req)
			g := New(nil)
			answered := 0
			for _, c := range set.qs {
				lreq, mreq := set.lite.req, req
				lreq.Question, mreq.Question = c.q, c.q
				lp, lerr := g.Generate(context.Background(), lreq)
				mp, merr := g.Generate(context.Background(), mreq)
				if (lerr == nil) != (merr == nil) {
					t.Errorf("%q: sqlite err %v, mysql err %v", c.q, lerr, merr)
					continue
				}
				if lerr != nil {
					continue
				}
				if strings.Contains(mp.SQL, `"`) {
					t.Errorf("%q: MySQL SQL with double quotes (strings there): %s", c.q, mp.SQL)
				}
				want := normalized(set.lite.rows(t, lp.SQL))
				got := normalized(myRows(t, my, mp.SQL))
				ordered := c.ordered || strings.Contains(strings.ToUpper(c.want), " LIMIT ")
				if err := sameRows(got, want, ordered); err != nil {
					t.Errorf("%q:\n mysql:  %s\n sqlite: %s\n %v\n mysql rows:  %v\n sqlite rows: %v", c.q, mp.SQL, lp.SQL, err, head(got), head(want))
				}
				answered++
			}
			if answered == 0 {
				t.Error("no question answered")
			}
		})
	}
}

// mysqlRequest is lite's request with the schema resource read from MariaDB
// by database-mcp, with the same sampled values.
func mysqlRequest(tb testing.TB, cfg *mysql.Config, lite sqlgen.Request) sqlgen.Request {
	tb.Helper()
	m, err := databasemcp.OpenMySQL(context.Background(), databasemcp.MySQLConfig{Conn: cfg}, databasemcp.Options{Today: asOf})
	if err != nil {
		tb.Fatal(err)
	}
	defer m.Close()
	s, err := m.Schema(context.Background())
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
	req.Dialect = "mysql"
	req.Servers = append([]sqlgen.ServerContext(nil), lite.Servers...)
	last := len(req.Servers) - 1
	req.Servers[last].Resources = map[string]any{"database://schema": res}
	req.Servers[last].Version = "mysql"
	return req
}

// myRows runs q on MariaDB; DECIMAL and text come back as bytes: DECIMAL
// values become numbers, midnight DATETIMEs dates.
func myRows(tb testing.TB, db *sql.DB, q string) [][]any {
	tb.Helper()
	rs, err := db.QueryContext(context.Background(), q)
	if err != nil {
		tb.Fatalf("mysql %s: %v", q, err)
	}
	defer rs.Close()
	cts, _ := rs.ColumnTypes()
	var out [][]any
	for rs.Next() {
		vals := make([]any, len(cts))
		ptrs := make([]any, len(cts))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			tb.Fatal(err)
		}
		for i, v := range vals {
			b, ok := v.([]byte)
			switch {
			case ok && cts[i].DatabaseTypeName() == "DECIMAL":
				f, _ := strconv.ParseFloat(string(b), 64)
				vals[i] = f
			case ok && cts[i].DatabaseTypeName() == "DATETIME":
				// As normValue shows PostgreSQL's midnight timestamps: a
				// SQLite DATETIME column may hold bare dates.
				vals[i] = strings.TrimSuffix(string(b), " 00:00:00")
			}
		}
		out = append(out, vals)
	}
	if err := rs.Err(); err != nil {
		tb.Fatalf("mysql %s: %v", q, err)
	}
	return out
}
