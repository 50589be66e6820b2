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
	for _, want := range []string{"| sales | untouched | 57 |", "| sales | untouched, PostgreSQL | 57 |"} {
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

// TestInventory: -inventory lists every fixture with its tables and
// question counts, and evaluates nothing.
func TestInventory(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"-inventory", "-fixtures", "ferries,league"}, &out, &errOut); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	for _, want := range []string{"| ferries | 6 | 0 |", "| league | 8 | 0 |", "benchmark | yes |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("inventory lacks %q:\n%s", want, out.String())
		}
	}
}

// TestHeldOutApart: a held-out fixture is scored in a table of its own,
// and -details never lists its questions.
func TestHeldOutApart(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"-fixtures", "ferries,league", "-details"}, &out, &errOut); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	report := out.String()
	held := strings.Index(report, "Held out")
	if held < 0 || strings.Index(report, "| ferries |") > held || strings.Index(report, "| league |") < held {
		t.Errorf("ferries should come before the held-out table and league in it:\n%s", report)
	}
	if !strings.Contains(report, "| score |") {
		t.Errorf("no score column:\n%s", report)
	}
	if strings.Contains(report, "lg-") || !strings.Contains(report, "league (untouched): held out, questions not listed") {
		t.Errorf("the details list a held-out question, or do not say they are left out:\n%s", report)
	}
	if !strings.Contains(report, "ferries (untouched) fr-") {
		t.Errorf("the details do not list the other fixture's questions:\n%s", report)
	}
}
