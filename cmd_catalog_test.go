package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"talk2tables/catalog"
	"talk2tables/internal/testfixture"
)

// runCmd runs the binary's run in-process and returns stdout, stderr and the error.
func runCmd(t testing.TB, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, stdio{strings.NewReader(""), &out, &errOut})
	if err != nil && strings.Contains(err.Error(), "\n") {
		t.Errorf("error spans lines: %q", err)
	}
	return out.String(), errOut.String(), err
}

func TestCatalogUsage(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr error
		stdout  string
		stderr  string
	}{
		{"no command", []string{"catalog"}, errUsage, "", "Usage: talk2tables catalog <command>"},
		{"help", []string{"catalog", "--help"}, nil, "init      draft a catalog from a database", ""},
		{"unknown", []string{"catalog", "draft"}, errUsage, "", `unknown command "draft"`},
		{"init help", []string{"catalog", "init", "--help"}, errHelp, "", "-max-entities int"},
		{"init without db", []string{"catalog", "init", "--out", "x.json"}, errUsage, "", "talk2tables catalog init: --db (SQLite) or --dsn (PostgreSQL, MySQL) is required"},
		{"init without out", []string{"catalog", "init", "--db", "x.db"}, errUsage, "", "--out is required"},
		{"init stray argument", []string{"catalog", "init", "--db", "x.db", "--out", "y", "extra"}, errUsage, "", `unexpected argument "extra"`},
		{"migrate without in", []string{"catalog", "migrate", "--out", "x.json"}, errUsage, "", "--in is required"},
		{"validate without catalog", []string{"catalog", "validate"}, errUsage, "", "--catalog is required"},
		{"listed in the main usage", []string{"--help"}, nil, "catalog       draft (init), migrate or validate a catalog", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, err := runCmd(t, tt.args...)
			if !errors.Is(err, tt.wantErr) && !(tt.wantErr == nil && err == nil) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(out, tt.stdout) || !strings.Contains(errOut, tt.stderr) {
				t.Errorf("stdout %q stderr %q; want %q and %q", out, errOut, tt.stdout, tt.stderr)
			}
		})
	}
}

func TestCatalogInit(t *testing.T) {
	db := testfixture.SalesDB(t, 1000)
	dir := t.TempDir()
	out := filepath.Join(dir, "catalog.json")
	stdout, _, err := runCmd(t, "catalog", "init", "--db", db, "--out", out, "--max-entities", "30")
	if err != nil {
		t.Fatalf("catalog init: %v", err)
	}
	for _, want := range []string{"drafted " + out + " from " + db, "tables:       4 (2 fact, 2 dimension, 0 bridge, 0 view), 23 columns",
		"measures:     2 additive, 3 non-additive columns; 0 derived", "entity sets:", "notes:", "capped at 30",
		"talk2tables catalog validate --catalog " + out + " --db " + db} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	s, err := catalog.Load(out)
	if err != nil {
		t.Fatalf("the written catalog does not load: %v", err)
	}
	if s.Source.Database != "sales.db" || s.Tables["sales"].Role != catalog.RoleFact {
		t.Errorf("catalog = %+v", s.Source)
	}

	// It never overwrites without --force, and says how.
	before, _ := os.ReadFile(out)
	_, _, err = runCmd(t, "catalog", "init", "--db", db, "--out", out)
	if err == nil || !strings.Contains(err.Error(), out+" already exists; pass --force to overwrite it") {
		t.Errorf("second init = %v, want a refusal naming --force", err)
	}
	if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
		t.Errorf("the refused init changed the file")
	}
	if _, _, err := runCmd(t, "catalog", "init", "--db", db, "--out", out, "--force"); err != nil {
		t.Errorf("init --force: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the directory holds %d files, want only catalog.json (no temporary files left)", len(entries))
	}

	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"missing database", []string{"--db", filepath.Join(dir, "none.db"), "--out", filepath.Join(dir, "a.json")}, "none.db does not exist"},
		{"out is a directory", []string{"--db", db, "--out", dir}, "is a directory; name the catalog file to write"},
		{"bad max entities", []string{"--db", db, "--out", filepath.Join(dir, "b.json"), "--max-entities", "0"}, "must be positive"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runCmd(t, append([]string{"catalog", "init"}, tt.args...)...)
			if err == nil || errors.Is(err, errUsage) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want a one-line error containing %q", err, tt.want)
			}
		})
	}
}

func TestCatalogMigrate(t *testing.T) {
	dir := t.TempDir()
	v1 := filepath.Join("catalog", "testdata", "product_metadata_v1.json")
	out := filepath.Join(dir, "v2.json")
	stdout, _, err := runCmd(t, "catalog", "migrate", "--in", v1, "--out", out)
	if err != nil {
		t.Fatalf("migrate: %v", err)
	}
	if !strings.Contains(stdout, "converted "+v1+" to "+out) || !strings.Contains(stdout, "read from the names only") {
		t.Errorf("stdout = %s", stdout)
	}
	if _, err := catalog.Load(out); err != nil {
		t.Errorf("migrated file does not load: %v", err)
	}

	withDB := filepath.Join(dir, "v2db.json")
	if _, _, err := runCmd(t, "catalog", "migrate", "--in", v1, "--out", withDB, "--db", testfixture.SalesDB(t, 1000)); err != nil {
		t.Fatalf("migrate --db: %v", err)
	}
	s, err := catalog.Load(withDB)
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Tables["sales"].Columns["order_id"]; c.References != "orders.order_id" {
		t.Errorf("with --db the structure comes from the database: sales.order_id = %+v", c)
	}

	_, _, err = runCmd(t, "catalog", "migrate", "--in", out, "--out", filepath.Join(dir, "again.json"))
	if err == nil || !strings.Contains(err.Error(), "is already a version-2 catalog; nothing to convert") {
		t.Errorf("migrating a v2 file = %v", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"product_aliases": {}, "column_mappings": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runCmd(t, "catalog", "migrate", "--in", bad, "--out", filepath.Join(dir, "c.json"))
	if err == nil || !strings.Contains(err.Error(), ": $: names no table") {
		t.Errorf("migrating a bad v1 file = %v", err)
	}
}

func TestCatalogValidate(t *testing.T) {
	dir := t.TempDir()
	good := testfixture.CatalogPath(t)
	stdout, _, err := runCmd(t, "catalog", "validate", "--catalog", good, "--db", testfixture.SalesDB(t, 1000))
	if err != nil || !strings.Contains(stdout, good+" is valid and matches ") {
		t.Fatalf("validate the sample = %v\n%s", err, stdout)
	}

	bad := filepath.Join(dir, "bad.json")
	data, _ := os.ReadFile(good)
	data = bytes.Replace(data, []byte(`"role": "fact"`), []byte(`"role": "facts"`), 1)
	data = bytes.Replace(data, []byte(`"kind": "attribute"`), []byte(`"kind": "category"`), 1)
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, err = runCmd(t, "catalog", "validate", "--catalog", bad)
	if err == nil || !strings.Contains(err.Error(), bad+": 2 problem(s)") {
		t.Errorf("validate bad = %v", err)
	}
	if lines := strings.Split(strings.TrimSpace(stdout), "\n"); len(lines) != 2 || !strings.Contains(stdout, `must be one of fact, dimension, bridge, view, got "facts"`) {
		t.Errorf("stdout = %q, want one line per problem", stdout)
	}

	// A catalog of another database: every table is named.
	other := filepath.Join(dir, "other.db")
	if _, _, err := runCmd(t, "gen-data", "--db", other, "--rows", "10"); err != nil {
		t.Fatal(err)
	}
	draftOut := filepath.Join(dir, "draft.json")
	if _, _, err := runCmd(t, "catalog", "init", "--db", other, "--out", draftOut); err != nil {
		t.Fatal(err)
	}
	s, _ := catalog.Load(draftOut)
	s.Tables["sales"].Columns["margin"] = &catalog.Column{Kind: catalog.KindMeasure, Measure: catalog.MeasureNonAdditive}
	if data, err = catalog.Marshal(s); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(draftOut, data, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, err = runCmd(t, "catalog", "validate", "--catalog", draftOut, "--db", other)
	if err == nil || !strings.Contains(err.Error(), "does not match "+other+": 1 problem(s)") ||
		!strings.Contains(stdout, `tables.sales.columns.margin: table "sales" has no column "margin"`) {
		t.Errorf("validate against the db = %v\n%s", err, stdout)
	}
}
