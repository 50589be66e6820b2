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

	"talk2tables/internal/hostile"
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
	evil := filepath.Join(out, "evil")
	before := sha256File(t, path)
	filesBefore := listDir(t, dir)

	perm, timeout := sqlerr.PermissionError, sqlerr.Timeout
	tests := hostile.SQLite(hostile.Paths{Dir: out, Evil: evil})
	if len(tests) < 30 {
		t.Fatalf("only %d hostile inputs", len(tests))
	}
	db := openDB(t, path, Options{QueryTimeout: testTimeout})
	c := inProcessClient(t, db)
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			e := toolError(t, c, "execute_query", map[string]any{"query": tt.Query})
			if e.Category != tt.Want {
				t.Errorf("execute_query(%.80q) = %s %q, want %s", tt.Query, e.Category, e.Message, tt.Want)
			}
			if tt.Want == perm && !strings.Contains(e.Message, "only read-only SELECT queries are allowed") {
				t.Errorf("message = %q, want it to say only read-only SELECT queries are allowed", e.Message)
			}
			if tt.Want != timeout {
				if v := toolError(t, c, "validate_query", map[string]any{"query": tt.Query}); v != e {
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
