package builtin

import (
	"path/filepath"
	"testing"
)

// musicEnv is a snake_case music shop written by the tests
// (testdata/music): four many-to-one hops from invoice lines to record
// labels, invoices dated in unix seconds, albums dated by release year, a
// view beside the tables, and Germany in four tables' countries.
func musicEnv(tb testing.TB) *env {
	tb.Helper()
	dir := filepath.Join("testdata", "music")
	path := sqliteFile(tb, "music.db", readFile(tb, filepath.Join(dir, "schema.sql")), readFile(tb, filepath.Join(dir, "data.sql")))
	return newEnv(tb, path, filepath.Join(dir, "catalog.json"))
}
