package main

import (
	"bytes"
	"os"
	"regexp"
	"testing"

	"talk2tables/internal/pgtest"
	"talk2tables/internal/testfixture"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestCompare runs both sides briefly against a throwaway database and
// checks the report: both rows measured, no errors, a ratio.
func TestCompare(t *testing.T) {
	db := pgtest.NewDB(t)
	var out bytes.Buffer
	catalog := testfixture.CatalogPath(t)
	err := run([]string{"-dsn", db.DSN(), "-load", "300", "-catalog", catalog, "-concurrency", "2", "-duration", "1s"}, &out)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	for _, re := range []string{
		`\| POST /api/sql \(talk2tables\) \| [1-9][0-9]* \| [0-9.]+ ms \| [0-9.]+ ms \| [0-9.]+ ms \| 0 \|`,
		`\| pgbench \(PostgreSQL directly\) \| [1-9][0-9]* \| [0-9.]+ ms \| — \| — \| 0 \|`,
		`ratio: talk2tables reaches [0-9.]+× pgbench's throughput`,
	} {
		if !regexp.MustCompile(re).MatchString(out.String()) {
			t.Errorf("report lacks %s:\n%s", re, out.String())
		}
	}
	t.Setenv("DATABASE_URL", "")
	if err := run([]string{"-concurrency", "2"}, &out); err == nil {
		t.Error("run without -dsn succeeded")
	}
}
