package main

import (
	"context"
	"errors"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/catalog"
	"talk2tables/internal/pgtest"
	"talk2tables/internal/testfixture"
)

// withoutPassword returns dsn without its password, and the password.
func withoutPassword(tb testing.TB, dsn string) (string, string) {
	tb.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	pw, _ := u.User.Password()
	u.User = url.User(u.User.Username())
	return u.String(), pw
}

func TestDatabaseMCPPostgresFlags(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantErr    error
		wantMsg    string
		wantStderr string
	}{
		{name: "both targets", args: []string{"--db", "x.db", "--dsn", "postgres://h/db"}, wantErr: errUsage, wantStderr: "not both"},
		{name: "password env without dsn", args: []string{"--db", "x.db", "--password-env", "PW"}, wantMsg: "--password-env applies to --dsn"},
		{name: "bad pool size", args: []string{"--dsn", "postgres://h/db", "--max-conns", "0"}, wantMsg: "--max-conns must be between 1 and 1000"},
		{name: "unparseable dsn", args: []string{"--dsn", "postgres://u:hunter2@h:notaport/db"}, wantMsg: "--dsn: the DSN is not a valid PostgreSQL connection string"},
		{name: "unset password variable", args: []string{"--dsn", "postgres://u@127.0.0.1:1/db", "--password-env", "T2T_NO_SUCH_VAR"},
			wantMsg: "the password variable T2T_NO_SUCH_VAR is not set or empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, err := runCmd(t, append([]string{"database-mcp"}, tt.args...)...)
			if err == nil {
				t.Fatalf("run(%v) = nil, want an error", tt.args)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("run(%v) = %v, want %v", tt.args, err, tt.wantErr)
			}
			if tt.wantMsg != "" && (!strings.Contains(err.Error(), tt.wantMsg) || strings.Contains(err.Error(), "\n")) {
				t.Errorf("error = %q, want one line containing %q", err, tt.wantMsg)
			}
			if strings.Contains(err.Error()+stderr, "hunter2") {
				t.Errorf("the password appears in the error or logs: %q %q", err, stderr)
			}
			if !strings.Contains(stderr, tt.wantStderr) || stdout != "" {
				t.Errorf("stderr = %q (want %q), stdout = %q", stderr, tt.wantStderr, stdout)
			}
		})
	}
}

// TestDatabaseMCPPostgres serves a PostgreSQL database over stdio pipes,
// with the password from --password-env, then from the DSN itself: the
// logs name the target and never the password.
func TestDatabaseMCPPostgres(t *testing.T) {
	db := pgtest.NewDB(t)
	pgtest.LoadSample(t, db, 300)
	role := db.ReadOnlyRole(t)
	bare, pw := withoutPassword(t, role.DSN())
	t.Setenv("T2T_TEST_DB_PASSWORD", pw)
	t.Setenv("PGPASSWORD", "")

	for _, tc := range []struct {
		name string
		args []string
		warn bool
	}{
		{"password from --password-env", []string{"--dsn", bare, "--password-env", "T2T_TEST_DB_PASSWORD"}, false},
		{"password in the dsn", []string{"--dsn", role.DSN()}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logs := serveStdio(t, append([]string{"database-mcp"}, tc.args...), mcp.LATEST_PROTOCOL_VERSION, func(c *client.Client) {
				call := mcp.CallToolRequest{}
				call.Params.Name = "execute_query"
				call.Params.Arguments = map[string]any{"query": "SELECT status, count(*)::int AS n FROM orders GROUP BY status ORDER BY status", "max_rows": 2}
				res, err := c.CallTool(context.Background(), call)
				if err != nil {
					t.Fatal(err)
				}
				text := mcp.GetTextFromContent(res.Content[0])
				if res.IsError || !strings.Contains(text, `"rows":[["cancelled",`) || !strings.Contains(text, `"truncated":true`) {
					t.Errorf("execute_query = %s", text)
				}
			})
			if strings.Contains(logs, pw) {
				t.Errorf("the password is in the logs:\n%s", logs)
			}
			for _, want := range []string{`"dialect":"postgres"`, `"host":"127.0.0.1"`, `"database":"` + db.Name + `"`,
				`"user":"` + role.Name + `"`, `"event":"database_opened"`} {
				if !strings.Contains(logs, want) {
					t.Errorf("logs lack %s:\n%s", want, logs)
				}
			}
			if got := strings.Contains(logs, `"event":"password_in_dsn"`); got != tc.warn {
				t.Errorf("password_in_dsn warning logged = %v, want %v", got, tc.warn)
			}
		})
	}

	t.Run("wrong password", func(t *testing.T) {
		t.Setenv("T2T_TEST_DB_PASSWORD", "wrong-"+pw)
		_, stderr, err := runCmd(t, "database-mcp", "--dsn", bare, "--password-env", "T2T_TEST_DB_PASSWORD")
		want := `database-mcp: postgres 127.0.0.1:` + strconv.Itoa(db.Cluster.Port) + ` database "` + db.Name + `" user "` + role.Name +
			`": password authentication failed: check the password (PGPASSWORD, --password-env or the DSN)`
		if err == nil || err.Error() != want || errors.Is(err, errUsage) {
			t.Errorf("error = %v\nwant %s", err, want)
		}
		if strings.Contains(stderr+err.Error(), pw) {
			t.Error("the password leaked")
		}
	})
}

// TestGenDataPostgres loads the sample with gen-data --dsn, refuses to load
// over it, replaces it on request and loads a second copy into a schema.
func TestGenDataPostgres(t *testing.T) {
	db := pgtest.NewDB(t)
	bare, pw := withoutPassword(t, db.DSN())
	t.Setenv("PGPASSWORD", pw)
	catalog := testfixture.CatalogPath(t)
	gen := func(extra ...string) (string, error) {
		out, _, err := runCmd(t,
			append([]string{"gen-data", "--dsn", bare, "--catalog", catalog, "--rows", "400", "--as-of", "2026-11-21"}, extra...)...)
		return out, err
	}
	out, err := gen()
	if err != nil {
		t.Fatalf("gen-data --dsn: %v", err)
	}
	if want := "generated 127.0.0.1:" + strconv.Itoa(db.Cluster.Port) + "/" + db.Name + ": 42 products"; !strings.HasPrefix(out, want) {
		t.Errorf("output = %q, want it to start with %q", out, want)
	}
	if _, err := gen(); err == nil || !strings.Contains(err.Error(), "already has customers, orders, products, sales: nothing was changed; use --replace") {
		t.Errorf("second load = %v, want the refusal", err)
	}
	if _, err := gen("--replace", "--rows", "500"); err != nil {
		t.Errorf("--replace: %v", err)
	}
	if out, err := gen("--schema", "demo"); err != nil || !strings.Contains(out, db.Name+" schema demo") {
		t.Errorf("--schema demo = %q, %v", out, err)
	}
	var n int
	if err := db.Conn(t).QueryRow(context.Background(), "SELECT (SELECT count(*) FROM public.sales) + (SELECT count(*) FROM demo.sales)").Scan(&n); err != nil || n != 900 {
		t.Errorf("sales rows in public + demo = %d, %v; want 500 + 400", n, err)
	}
	t.Setenv("PGPASSWORD", "wrong")
	if _, err := gen("--replace"); err == nil || !strings.Contains(err.Error(), "password authentication failed") || strings.Contains(err.Error(), pw) {
		t.Errorf("wrong password = %v", err)
	}
	if _, _, err := runCmd(t, "gen-data", "--db", "x.db", "--schema", "s"); err == nil || !strings.Contains(err.Error(), "apply to --dsn") {
		t.Errorf("--schema with --db = %v", err)
	}
}

// TestCatalogInitPostgres drafts a catalog from the sample in PostgreSQL
// through the read-only role and from the same sample in SQLite: the
// tables get the same roles, keys, labels and date columns and the
// columns the same kinds; then validate --dsn accepts the draft.
func TestCatalogInitPostgres(t *testing.T) {
	db := pgtest.NewDB(t)
	pgtest.LoadSample(t, db, 1000)
	role := db.ReadOnlyRole(t)
	bare, pw := withoutPassword(t, role.DSN())
	t.Setenv("T2T_DRAFT_PASSWORD", pw)
	dir := t.TempDir()
	pgOut, liteOut := filepath.Join(dir, "pg.json"), filepath.Join(dir, "lite.json")
	stdout, _, err := runCmd(t, "catalog", "init", "--dsn", bare, "--password-env", "T2T_DRAFT_PASSWORD", "--out", pgOut)
	if err != nil {
		t.Fatalf("catalog init --dsn: %v", err)
	}
	wantAgain := "talk2tables catalog validate --catalog " + pgOut + " --dsn postgres://" + role.Name + "@127.0.0.1:" +
		strconv.Itoa(db.Cluster.Port) + "/" + db.Name + " --password-env T2T_DRAFT_PASSWORD"
	for _, want := range []string{`from postgres 127.0.0.1:`, "tables:       4 (2 fact, 2 dimension, 0 bridge, 0 view), 23 columns", wantAgain} {
		if !strings.Contains(stdout, want) {
			t.Errorf("catalog init --dsn output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, pw) {
		t.Error("the output shows the password")
	}
	if _, _, err := runCmd(t, "catalog", "init", "--db", testfixture.SalesDB(t, 1000), "--out", liteOut); err != nil {
		t.Fatalf("catalog init --db: %v", err)
	}
	pg, err := catalog.Load(pgOut)
	if err != nil {
		t.Fatal(err)
	}
	lite, err := catalog.Load(liteOut)
	if err != nil {
		t.Fatal(err)
	}
	if pg.Source.Dialect != "postgres" || pg.Source.Database != db.Name {
		t.Errorf("source = %+v, want postgres and %s", pg.Source, db.Name)
	}
	for name, lt := range lite.Tables {
		pt := pg.Tables[name]
		if pt == nil {
			t.Errorf("table %s missing from the PostgreSQL draft", name)
			continue
		}
		if pt.Role != lt.Role || pt.Key != lt.Key || pt.DateColumn != lt.DateColumn || !slices.Equal(pt.Label, lt.Label) {
			t.Errorf("table %s: postgres role %s key %s date %s label %v; sqlite %s %s %s %v",
				name, pt.Role, pt.Key, pt.DateColumn, pt.Label, lt.Role, lt.Key, lt.DateColumn, lt.Label)
		}
		for cn, lc := range lt.Columns {
			if pc := pt.Columns[cn]; pc == nil || pc.Kind != lc.Kind {
				t.Errorf("column %s.%s: postgres %+v, sqlite kind %s", name, cn, pc, lc.Kind)
			}
		}
	}
	out, _, err := runCmd(t, "catalog", "validate", "--catalog", pgOut, "--dsn", bare, "--password-env", "T2T_DRAFT_PASSWORD")
	if err != nil || !strings.Contains(out, "is valid and matches postgres 127.0.0.1:") {
		t.Errorf("catalog validate --dsn = %v\n%s", err, out)
	}
	if _, _, err := runCmd(t, "catalog", "init", "--db", "x.db", "--dsn", bare, "--out", filepath.Join(dir, "x.json")); err == nil ||
		!strings.Contains(err.Error(), "not both") {
		t.Errorf("--db with --dsn = %v", err)
	}
}
