package databasemcp

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"talk2tables/internal/testfixture"
	"talk2tables/schema"
	"talk2tables/sqlerr"
)

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	notSQLite := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notSQLite, []byte("this is not a database, just some text"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.db")
	tests := []struct {
		name     string
		path     string
		opts     Options
		contains string
	}{
		{name: "missing", path: missing, contains: missing + " does not exist"},
		{name: "directory", path: dir, contains: dir + " is a directory"},
		{name: "not sqlite", path: notSQLite, contains: notSQLite + " is not a SQLite database"},
		{name: "empty file", path: empty, contains: empty + " is not a SQLite database"},
		{name: "empty path", path: "", contains: "no database path"},
		{name: "max rows above hard max", path: testfixture.SalesDB(t, 10), opts: Options{MaxRows: HardMaxRows + 1}, contains: "above the limit"},
		{name: "negative timeout", path: testfixture.SalesDB(t, 10), opts: Options{QueryTimeout: -1}, contains: "must not be negative"},
		{name: "bad today", path: testfixture.SalesDB(t, 10), opts: Options{Today: "30/06/2026"}, contains: `today "30/06/2026" is not a date`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, err := Open(context.Background(), tt.path, tt.opts)
			if err == nil {
				db.Close()
				t.Fatalf("Open(context.Background(), %q) succeeded, want an error", tt.path)
			}
			if !strings.Contains(err.Error(), tt.contains) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Open error = %q, want one line containing %q", err, tt.contains)
			}
		})
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("Open created %s (stat error %v), want no file", missing, err)
	}
}

func TestOpenDefaults(t *testing.T) {
	db := openDB(t, testfixture.SalesDB(t, 10), Options{})
	want := Options{QueryTimeout: DefaultQueryTimeout, MaxRows: DefaultMaxRows, MaxQueryLength: DefaultMaxQueryLength,
		Connections: DefaultConnections(), MaxValueBytes: DefaultMaxValueBytes, MaxCellBytes: DefaultMaxCellBytes,
		MaxResultBytes: DefaultMaxResultBytes}
	if got := db.Options(); got != want {
		t.Errorf("options = %+v, want %+v", got, want)
	}
	ctx := context.Background()
	c, err := db.sql.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Even reading a pragma directly is denied by the authorizer.
	if _, err := c.ExecContext(ctx, "PRAGMA query_only"); err == nil {
		t.Errorf("PRAGMA query_only ran, want the authorizer to deny it")
	}
}

// TestPinnedToday: Options.Today replaces the clock's date in the schema.
func TestPinnedToday(t *testing.T) {
	db, err := Open(context.Background(), testfixture.SalesDB(t, 10), Options{Today: "2026-06-30"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := db.Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s.Today != "2026-06-30" {
		t.Errorf("today = %q, want 2026-06-30", s.Today)
	}
}

func TestCheckQuery(t *testing.T) {
	tests := []struct {
		name  string
		query string
		want  sqlerr.Category // "" = accepted
	}{
		{"select", "SELECT 1", ""},
		{"lower case", "select 1", ""},
		{"trailing semicolons and comments", "SELECT 1 ; ; -- bye\n/* x */", ""},
		{"leading comment", "-- hi\n/* there */ SELECT 1", ""},
		{"parenthesised select", "(SELECT 1)", ""},
		{"with select", "WITH a(x) AS (SELECT 1), b AS MATERIALIZED (SELECT 2) SELECT * FROM a, b", ""},
		{"with nested delete in string", "WITH a AS (SELECT 'DELETE') SELECT * FROM a", ""},
		{"with values", "WITH a AS (SELECT 1) VALUES (1)", ""},
		{"explain", "EXPLAIN SELECT 1", ""},
		{"explain query plan", "EXPLAIN QUERY PLAN WITH a AS (SELECT 1) SELECT * FROM a", ""},
		{"semicolon in string", "SELECT 'a;b'", ""},
		{"semicolon in doubled quote string", "SELECT 'it''s; fine'", ""},
		{"semicolon in identifiers", "SELECT 1 AS \"a;\", 2 AS `b;`, 3 AS [c;]", ""},
		{"semicolon in comment", "SELECT 1 /* ; DELETE */ -- ; DROP\n", ""},
		{"unterminated comment runs to the end", "SELECT 1 /* ; DELETE FROM sales", ""},
		{"keyword inside identifier", "SELECT updated_at, deleted FROM t", ""},
		{"two statements", "SELECT 1; SELECT 2", sqlerr.PermissionError},
		{"statement after comment", "SELECT 1; -- x\nDELETE FROM t", sqlerr.PermissionError},
		{"write", "insert into t values (1)", sqlerr.PermissionError},
		{"with write", "WITH a AS (SELECT 1) UPDATE t SET x = 1", sqlerr.PermissionError},
		{"with only", "WITH a AS (SELECT 1)", sqlerr.SyntaxError},
		{"explain alone", "EXPLAIN", sqlerr.SyntaxError},
		{"explain write", "EXPLAIN QUERY PLAN DROP TABLE t", sqlerr.PermissionError},
		{"empty", "", sqlerr.SyntaxError},
		{"parentheses only", "((", sqlerr.SyntaxError},
		{"number first", "1", sqlerr.SyntaxError},
		{"unknown keyword", "SELEC 1", sqlerr.SyntaxError},
		{"too long", "SELECT " + strings.Repeat("1", 100), sqlerr.ResourceLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := checkQuery(tt.query, 100)
			var got sqlerr.Category
			if e != nil {
				got = e.Category
			}
			if got != tt.want {
				t.Errorf("checkQuery(%q) = %v, want category %q", tt.query, e, tt.want)
			}
		})
	}
}

func TestAuthorize(t *testing.T) {
	tests := []struct {
		name       string
		action     int
		arg1, arg2 string
		want       bool
	}{
		{"select", actionSelect, "", "", true},
		{"read", actionRead, "sales", "region", true},
		{"read dbpage", actionRead, "sqlite_dbpage", "data", false},
		{"function", actionFunction, "", "replace", true},
		{"load_extension", actionFunction, "", "load_extension", false},
		{"load_extension upper", actionFunction, "", "LOAD_EXTENSION", false},
		{"recursive", actionRecursive, "", "", true},
		{"pragma table_info", actionPragma, "table_info", "sales", true},
		{"pragma journal_mode", actionPragma, "journal_mode", "WAL", false},
		{"pragma query_only", actionPragma, "query_only", "0", false},
		{"insert", 18, "sales", "", false},
		{"attach", 24, "x.db", "", false},
		{"transaction", 22, "BEGIN", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := authorize(tt.action, tt.arg1, tt.arg2); got != tt.want {
				t.Errorf("authorize(%d, %q, %q) = %v, want %v", tt.action, tt.arg1, tt.arg2, got, tt.want)
			}
		})
	}
}

func TestCleanMessage(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SQL logic error: no such table: sale (1)", "no such table: sale"},
		{"authorization denied: not authorized (23)", "authorization denied: not authorized"},
		{"datatype mismatch (20)", "datatype mismatch"},
		{"something (odd)", "something (odd)"},
	}
	for _, tt := range tests {
		if got := cleanMessage(tt.in); got != tt.want {
			t.Errorf("cleanMessage(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSchemaViews: views are in the schema with kind "view" and an unknown
// row count; tables keep no kind.
func TestSchemaViews(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.db")
	w, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.Exec(`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);
		INSERT INTO items VALUES (1, 'a'), (2, 'b');
		CREATE VIEW "Item Names" AS SELECT name FROM items`)
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	db := openDB(t, path, Options{})
	s, err := db.Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tables) != 2 {
		t.Fatalf("tables = %+v, want items and the view", s.Tables)
	}
	tb, v := s.Tables[0], s.Tables[1]
	if tb.Name != "items" || tb.Kind != "" || tb.RowCount != 2 || len(tb.Columns[1].DistinctValues) != 2 {
		t.Errorf("table = %+v, want items without kind, 2 rows, its distinct names", tb)
	}
	if v.Name != "Item Names" || v.Kind != schema.KindView || v.RowCount != -1 || len(v.Columns) != 1 || v.Columns[0].DistinctValues != nil {
		t.Errorf("view = %+v, want kind view, row count -1, one column without values", v)
	}
}

// TestDateTextKept: values of DATE, DATETIME and TIMESTAMP columns come back
// as the database holds them, not as RFC 3339 times with a zone the data
// never had (the driver parses them; answers compared with the same query
// run by sqlite3 must match).
func TestDateTextKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dates.db")
	w, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec(`CREATE TABLE ev (d DATE, dt DATETIME, ts TIMESTAMP, plain TEXT);
INSERT INTO ev VALUES ('2026-06-17', '2023-07-29 20:00:00', '2023-07-29 20:00:00.5', '2023-07-29 20:00:00'),
                      ('2026-06-18', '2021-01-01 00:00:00', '2023-07-29T20:00:00+02:00', 'x');`); err != nil {
		t.Fatal(err)
	}
	w.Close()
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Query(context.Background(), "SELECT d, dt, ts, plain, MAX(dt) OVER () FROM ev ORDER BY d", 10)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]any{
		{"2026-06-17", "2023-07-29 20:00:00", "2023-07-29 20:00:00.5", "2023-07-29 20:00:00", "2023-07-29 20:00:00"},
		{"2026-06-18", "2021-01-01 00:00:00", "2023-07-29 20:00:00+02:00", "x", "2023-07-29 20:00:00"},
	}
	if fmt.Sprint(res.Rows) != fmt.Sprint(want) {
		t.Errorf("rows = %v, want %v", res.Rows, want)
	}
}
