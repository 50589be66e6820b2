package databasemcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"talk2tables/internal/testfixture"
	"talk2tables/sqlerr"
)

// TestHostileInputs sends statements that try to write, escape or exhaust
// the database through a real MCP client, then proves the file did not
// change and no file appeared next to it or in the targets they name.
func TestHostileInputs(t *testing.T) {
	path := testfixture.SalesDB(t, 2000)
	dir := filepath.Dir(path)
	out := t.TempDir() // where escapes try to write
	evil := filepath.Join(out, "evil.db")
	before := sha256File(t, path)
	filesBefore := listDir(t, dir)

	perm, syntax, timeout, unknown := sqlerr.PermissionError, sqlerr.SyntaxError, sqlerr.Timeout, sqlerr.UnknownError
	tests := []struct {
		name  string
		query string
		want  sqlerr.Category
	}{
		// more than one statement
		{"two statements", "SELECT 1; DELETE FROM sales", perm},
		{"two selects", "SELECT 1; SELECT 2", perm},
		{"comment between statements", "SELECT 1;/**/DELETE FROM sales", perm},
		{"line comment then statement", "SELECT 1 -- x\n; DROP TABLE sales", perm},
		{"nbsp after semicolon", "SELECT 1;\u00a0DELETE FROM sales", perm},
		{"string then statement", "SELECT 'a'';'; UPDATE sales SET quantity = 0", perm},
		{"pragma after select", "SELECT * FROM sales WHERE region = 'x'; PRAGMA writable_schema=1", perm},
		// writes and DDL
		{"insert", "INSERT INTO sales(sale_id) VALUES (999999)", perm},
		{"update", "UPDATE sales SET quantity = 0", perm},
		{"delete", "DELETE FROM sales", perm},
		{"replace", "REPLACE INTO products VALUES (1, 'x', 'y', 1)", perm},
		{"drop", "DROP TABLE sales", perm},
		{"create", "CREATE TABLE evil(x)", perm},
		{"create temp", "CREATE TEMP TABLE evil(x)", perm},
		{"create virtual", "CREATE VIRTUAL TABLE v USING fts5(x)", perm},
		{"alter", "ALTER TABLE sales ADD COLUMN evil TEXT", perm},
		{"with delete", "WITH x AS (SELECT 1) DELETE FROM sales", perm},
		{"with insert", "WITH x AS (SELECT 1) INSERT INTO products SELECT * FROM products", perm},
		{"with recursive update", "WITH RECURSIVE x(n) AS (SELECT 1) UPDATE sales SET quantity = 1", perm},
		{"explain delete", "EXPLAIN DELETE FROM sales", perm},
		{"explain query plan with delete", "EXPLAIN QUERY PLAN WITH x AS (SELECT 1) DELETE FROM sales", perm},
		{"comment before delete", "/* harmless */ DELETE FROM sales", perm},
		{"parenthesised delete", "(DELETE FROM sales)", perm},
		{"lower case delete", "delete from sales", perm},
		// files and connections
		{"attach", "ATTACH DATABASE '" + evil + "' AS evil", perm},
		{"attach memory", "ATTACH ':memory:' AS m", perm},
		{"detach", "DETACH DATABASE main", perm},
		{"vacuum", "VACUUM", perm},
		{"vacuum into", "VACUUM INTO '" + filepath.Join(out, "copy.db") + "'", perm},
		{"load extension", "SELECT load_extension('x')", perm},
		{"load extension with entry", "SELECT load_extension('/lib/x86_64-linux-gnu/libc.so.6', 'system')", perm},
		{"readfile", "SELECT readfile('/etc/passwd')", syntax},
		{"writefile", "SELECT writefile('" + filepath.Join(out, "w") + "', 'x')", syntax},
		{"raw pages", "SELECT * FROM sqlite_dbpage", perm},
		// pragmas and maintenance
		{"pragma journal_mode", "PRAGMA journal_mode=WAL", perm},
		{"pragma user_version", "PRAGMA user_version=5", perm},
		{"pragma query_only off", "PRAGMA query_only=0", perm},
		{"pragma read", "PRAGMA table_info(sales)", perm},
		{"reindex", "REINDEX", perm},
		{"analyze", "ANALYZE", perm},
		{"begin", "BEGIN IMMEDIATE", perm},
		{"savepoint", "SAVEPOINT a", perm},
		// unicode and whitespace tricks
		{"zero width space", "\u200bDELETE FROM sales", syntax},
		{"fullwidth letters", "ＤＥＬＥＴＥ FROM sales", syntax},
		{"only whitespace and semicolons", " \n\t;; ", syntax},
		{"only a comment", "/* SELECT 1 */", syntax},
		// exhaustion
		{"very long query", "SELECT '" + strings.Repeat("a", DefaultMaxQueryLength) + "'", unknown},
		{"runaway recursion", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c", timeout},
		{"cartesian join", "SELECT count(*) FROM sales a, sales b, sales c", timeout},
		{"cartesian join after first row", "SELECT 1 UNION ALL SELECT max(a.total_amount + b.total_amount + c.total_amount) FROM sales a, sales b, sales c", timeout},
	}
	if len(tests) < 30 {
		t.Fatalf("only %d hostile inputs", len(tests))
	}
	db := openDB(t, path, Options{QueryTimeout: testTimeout})
	c := inProcessClient(t, db)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := toolError(t, c, "execute_query", map[string]any{"query": tt.query})
			if e.Category != tt.want {
				t.Errorf("execute_query(%.80q) = %s %q, want %s", tt.query, e.Category, e.Message, tt.want)
			}
			if tt.want == perm && !strings.Contains(e.Message, "only read-only SELECT queries are allowed") {
				t.Errorf("message = %q, want it to say only read-only SELECT queries are allowed", e.Message)
			}
			if tt.want != timeout {
				if v := toolError(t, c, "validate_query", map[string]any{"query": tt.query}); v != e {
					t.Errorf("validate_query = %+v, want %+v", v, e)
				}
			}
		})
	}
	// The connections still work after the table.
	if res := execute(t, c, map[string]any{"query": "SELECT count(*) FROM sales"}); res.Rows[0][0] != 2000.0 {
		t.Errorf("count after hostile inputs = %v, want 2000", res.Rows[0][0])
	}

	// Second layer alone: the authorizer and the read-only connection refuse
	// every write even when the statement guard is bypassed.
	ctx := context.Background()
	for _, q := range []string{
		"DELETE FROM sales", "INSERT INTO products VALUES (1, 'x', 'y', 1)", "CREATE TEMP TABLE t(x)", "DROP TABLE sales",
		"ATTACH DATABASE '" + evil + "' AS evil", "VACUUM INTO '" + filepath.Join(out, "copy2.db") + "'", "VACUUM",
		"PRAGMA query_only=0", "PRAGMA journal_mode=WAL", "PRAGMA user_version=5", "BEGIN", "ANALYZE", "REINDEX",
		"SELECT load_extension('x')", "CREATE VIRTUAL TABLE v USING fts5(x)",
	} {
		_, err := db.sql.ExecContext(ctx, q)
		if got := db.categorize(err); err == nil || got.Category != perm {
			t.Errorf("guard bypassed: Exec(%q) = %v, want %s", q, err, perm)
		}
	}

	if got := sha256File(t, path); got != before {
		t.Errorf("database checksum changed: %s, want %s", got, before)
	}
	if got := listDir(t, dir); !slices.Equal(got, filesBefore) {
		t.Errorf("database directory = %v, want %v (no -journal, -wal, -shm or other new file)", got, filesBefore)
	}
	if got := listDir(t, out); len(got) != 0 {
		t.Errorf("files created by hostile inputs: %v", got)
	}
}

func sha256File(tb testing.TB, path string) string {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		tb.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func listDir(tb testing.TB, dir string) []string {
	tb.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
