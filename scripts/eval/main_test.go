package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"talk2tables/internal/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestPostgresFlag runs the script as a user would with -postgres: the
// report has the sample on SQLite and on PostgreSQL, both without a wrong
// answer, and the throwaway database is gone afterwards.
func TestPostgresFlag(t *testing.T) {
	db := pgtest.NewDB(t)
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"-fixtures", "sales", "-postgres", db.DSN()}, &out, &errOut); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	report := out.String()
	for _, want := range []string{"| sales | untouched | 47 |", "| sales | untouched, PostgreSQL | 47 |"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	for _, line := range strings.Split(report, "\n") {
		if f := strings.Split(line, "|"); len(f) > 7 && strings.HasPrefix(line, "| sales") && strings.TrimSpace(f[6]) != "0" {
			t.Errorf("wrong answers: %s", line)
		}
	}
	var left int
	if err := db.Conn(t).QueryRow(context.Background(), "SELECT count(*) FROM pg_database WHERE datname LIKE 't2t_eval_%'").Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d throwaway databases left behind", left)
	}
	t.Logf("report:\n%s", report)
}
