package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runGenDataCmd runs 'talk2tables gen-data args...' in-process.
func runGenDataCmd(t testing.TB, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(context.Background(), append([]string{"gen-data"}, args...), stdio{strings.NewReader(""), &out, &errOut})
	return out.String(), errOut.String(), err
}

func TestGenDataCommand(t *testing.T) {
	catalogPath := filepath.Join("testdata", "sales_catalog.json")
	dir := t.TempDir()
	badCatalog := filepath.Join(dir, "bad.json")
	os.WriteFile(badCatalog, []byte(`{"product_aliases": {"abra": {"canonical_name": "X"}}, "column_mappings": {}}`), 0o644)
	tests := []struct {
		name       string
		args       []string
		wantErr    error  // errors.Is target, if set
		wantErrMsg string // substring of the error, if set
		wantStderr string
	}{
		{name: "help", args: []string{"--help"}, wantErr: errHelp, wantStderr: "-as-of string"},
		{name: "unknown flag", args: []string{"--db", "x.db", "--colour"}, wantErr: errUsage, wantStderr: "flag provided but not defined: -colour"},
		{name: "missing db", args: []string{"--rows", "10"}, wantErr: errUsage, wantStderr: "--db (SQLite) or --dsn (PostgreSQL, MySQL) is required"},
		{name: "stray argument", args: []string{"--db", "x.db", "extra"}, wantErr: errUsage, wantStderr: `unexpected argument "extra"`},
		{name: "bad as-of", args: []string{"--db", filepath.Join(dir, "a.db"), "--as-of", "21/11/2026"},
			wantErrMsg: `--as-of "21/11/2026" is not a date like 2026-11-21 (YYYY-MM-DD)`},
		{name: "rows too small", args: []string{"--db", filepath.Join(dir, "a.db"), "--rows", "0"},
			wantErrMsg: "--rows must be between 1 and 10000000, got 0"},
		{name: "rows too large", args: []string{"--db", filepath.Join(dir, "a.db"), "--rows", "10000001"},
			wantErrMsg: "--rows must be between 1 and 10000000"},
		{name: "bad catalog", args: []string{"--db", filepath.Join(dir, "a.db"), "--catalog", badCatalog},
			wantErrMsg: badCatalog + ": product_aliases.abra.canonical_id: missing"},
		{name: "missing catalog", args: []string{"--db", filepath.Join(dir, "a.db"), "--catalog", filepath.Join(dir, "none.json")},
			wantErrMsg: "none.json"},
		{name: "missing directory", args: []string{"--db", filepath.Join(dir, "no", "such", "a.db"), "--catalog", catalogPath, "--rows", "10"},
			wantErrMsg: "create temporary database"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, err := runGenDataCmd(t, tt.args...)
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErrMsg != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrMsg) {
					t.Errorf("err = %v, want it to contain %q", err, tt.wantErrMsg)
				}
				if err != nil && strings.Contains(err.Error(), "\n") {
					t.Errorf("error spans lines: %q", err)
				}
			}
			if !strings.Contains(stderr, tt.wantStderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tt.wantStderr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "a.db")); !os.IsNotExist(err) {
		t.Errorf("a failed run left a.db behind (stat: %v)", err)
	}
}

func TestGenDataCommandGenerates(t *testing.T) {
	db := filepath.Join(t.TempDir(), "sales.db")
	stdout, _, err := runGenDataCmd(t, "--db", db, "--rows", "300", "--seed", "3", "--as-of", "2026-02-28",
		"--catalog", filepath.Join("testdata", "sales_catalog.json"))
	if err != nil {
		t.Fatalf("gen-data: %v", err)
	}
	for _, want := range []string{db, "42 products", "300 sales", "2024-03-01..2026-02-28"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary %q lacks %q", stdout, want)
		}
	}
	if strings.Count(stdout, "\n") != 1 {
		t.Errorf("summary is not one line: %q", stdout)
	}
	conn, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var n int
	var last string
	if err := conn.QueryRow("SELECT count(*), max(sale_date) FROM sales").Scan(&n, &last); err != nil {
		t.Fatal(err)
	}
	if n != 300 || last != "2026-02-28" {
		t.Errorf("sales = %d up to %s, want 300 up to 2026-02-28", n, last)
	}
}

func TestGenDataCommandInterrupted(t *testing.T) {
	db := filepath.Join(t.TempDir(), "sales.db")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	err := run(ctx, []string{"gen-data", "--db", db, "--rows", "1000", "--catalog", filepath.Join("testdata", "sales_catalog.json")},
		stdio{strings.NewReader(""), &out, &errOut})
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("err = %v, want an interrupted error", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(db))
	if len(entries) != 0 {
		t.Errorf("an interrupted run left %d files behind", len(entries))
	}
}

// TestGenDataAnyDirectory: without --catalog, gen-data uses the sample
// catalog built into the binary, so it works outside the repository root.
func TestGenDataAnyDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"gen-data", "--db", "x.db", "--rows", "200", "--as-of", "2026-06-30"},
		stdio{strings.NewReader(""), &stdout, &stderr})
	if err != nil {
		t.Fatalf("gen-data outside the repository: %v (stderr %s)", err, stderr.String())
	}
	if fi, err := os.Stat(filepath.Join(dir, "x.db")); err != nil || fi.Size() == 0 {
		t.Errorf("x.db not written: %v", err)
	}
	if !strings.Contains(stdout.String(), "generated x.db") {
		t.Errorf("stdout = %q", stdout.String())
	}
}
