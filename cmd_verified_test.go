package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"talk2tables/internal/testfixture"
)

func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// exported exports the verified questions and decodes them.
func exported(t testing.TB, where ...string) []verifiedFileEntry {
	t.Helper()
	out, stderr, err := runCmd(t, append([]string{"verified", "export", "-"}, where...)...)
	if err != nil {
		t.Fatalf("export: %v\n%s", err, stderr)
	}
	var entries []verifiedFileEntry
	if err := yaml.Unmarshal([]byte(out), &entries); err != nil {
		t.Fatalf("export wrote %q: %v", out, err)
	}
	return entries
}

// TestVerifiedExportImport: an import checks every entry on the database
// and stores all or none — a bad entry is refused with its line — and an
// export reads back as the same questions; importing again changes
// nothing, and other SQL for a verified question needs --replace.
func TestVerifiedExportImport(t *testing.T) {
	offlineEnv(t)
	dir := t.TempDir()
	where := []string{"--db", testfixture.SalesDB(t, 1000), "--state-dir", filepath.Join(dir, "state")}

	good := writeFile(t, dir, "good.yaml", `# reviewed in git
- question: number of orders by status
  sql: SELECT status, COUNT(*) AS n FROM orders GROUP BY status
  verified_by: ana
- question: revenue in the East region
  sql: |
    SELECT ROUND(SUM(total_amount), 2) AS revenue
    FROM sales WHERE region = 'East'
`)
	tests := []struct {
		name, file, want string
	}{
		{"sql that does not run", `- question: number of orders by status
  sql: SELECT status, COUNT(*) FROM orders GROUP BY status
- question: total refunds
  sql: SELECT SUM(refund_amount) FROM sales
`, `bad.yaml:3: key "sql": `},
		{"write statement", `- question: number of orders by status
  sql: SELECT status, COUNT(*) FROM orders GROUP BY status

- question: forget the East
  sql: DELETE FROM sales WHERE region = 'East'
`, `bad.yaml:4: key "sql": `},
		{"unknown key", `- question: number of orders by status
  sql: SELECT COUNT(*) FROM orders
- question: total sales
  sqll: SELECT SUM(total_amount) FROM sales
`, `bad.yaml:4: unknown key "sqll"`},
		{"missing sql", "- question: number of orders by status\n  sql: SELECT COUNT(*) FROM orders\n- question: total sales\n",
			`bad.yaml:3: key "sql" is required`},
		{"same question twice", `- question: number of orders by status
  sql: SELECT COUNT(*) FROM orders
- question: Number of orders, by status?
  sql: SELECT COUNT(*) FROM orders
`, "is the one at line 1"},
		{"unknown database", "- question: total sales\n  sql: SELECT 1\n  database: elsewhere\n", `bad.yaml:1: key "database": "elsewhere"`},
		{"not a list", "question: total sales\nsql: SELECT 1\n", "bad.yaml:1: want a list of entries"},
		{"not YAML", "- question: [total\n", "bad.yaml: yaml:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := writeFile(t, t.TempDir(), "bad.yaml", tt.file)
			_, _, err := runCmd(t, append([]string{"verified", "import", bad}, where...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "nothing was imported") {
				t.Errorf("import = %v, want an error containing %q and that nothing was imported", err, tt.want)
			}
		})
	}
	if _, _, err := runCmd(t, append([]string{"verified", "export", filepath.Join(dir, "none.yaml")}, where...)...); err != nil {
		t.Fatalf("export of an empty state = %v", err)
	}
	if got := exported(t, where...); len(got) != 0 {
		t.Fatalf("after refused imports, export = %+v, want nothing imported", got)
	}

	_, stderr, err := runCmd(t, append([]string{"verified", "import", good}, where...)...)
	if err != nil || !strings.Contains(stderr, "2 verified questions added, 0 replaced, 0 unchanged") {
		t.Fatalf("import = %v\n%s", err, stderr)
	}
	got := exported(t, where...)
	if len(got) != 2 || got[0].Question != "number of orders by status" || got[0].VerifiedBy != "ana" || got[1].VerifiedBy != "cli" ||
		got[0].Database != "database_mcp" || got[1].Status != "verified" || !strings.Contains(got[1].SQL, "region = 'East'") {
		t.Fatalf("export = %+v", got)
	}
	// The export file imports into another state database as is.
	file := filepath.Join(dir, "export.yaml")
	if _, _, err := runCmd(t, append([]string{"verified", "export", file}, where...)...); err != nil {
		t.Fatal(err)
	}
	other := []string{where[0], where[1], "--state-dir", filepath.Join(dir, "other")}
	if _, stderr, err := runCmd(t, append([]string{"verified", "import", file}, other...)...); err != nil || !strings.Contains(stderr, "2 verified questions added") {
		t.Fatalf("import of an export = %v\n%s", err, stderr)
	}
	if again := exported(t, other...); len(again) != 2 || !again[0].VerifiedAt.Equal(got[0].VerifiedAt) || again[0].VerifiedBy != "ana" {
		t.Errorf("round trip = %+v, want %+v", again, got)
	}

	if _, stderr, err := runCmd(t, append([]string{"verified", "import", good}, where...)...); err != nil ||
		!strings.Contains(stderr, "0 verified questions added, 0 replaced, 2 unchanged") {
		t.Errorf("import again = %v\n%s", err, stderr)
	}
	changed := writeFile(t, dir, "changed.yaml", "- question: number of orders by status\n  sql: SELECT status, COUNT(*) AS orders FROM orders GROUP BY status ORDER BY 2 DESC\n")
	if _, _, err := runCmd(t, append([]string{"verified", "import", changed}, where...)...); err == nil ||
		!strings.Contains(err.Error(), "changed.yaml:1:") || !strings.Contains(err.Error(), "--replace") {
		t.Errorf("import of other SQL = %v, want a refusal naming --replace", err)
	}
	if _, stderr, err := runCmd(t, append([]string{"verified", "import", changed, "--replace"}, where...)...); err != nil ||
		!strings.Contains(stderr, "0 verified questions added, 1 replaced") {
		t.Errorf("import --replace = %v\n%s", err, stderr)
	}
	if got := exported(t, where...); len(got) != 2 || !strings.Contains(got[0].SQL+got[1].SQL, "ORDER BY 2 DESC") {
		t.Errorf("after --replace export = %+v", got)
	}
}

// TestVerifiedCommandErrors: usage mistakes are exit-2 errors.
func TestVerifiedCommandErrors(t *testing.T) {
	for _, args := range [][]string{{"verified"}, {"verified", "nope"}, {"verified", "export"}, {"verified", "import", "a.yaml", "b.yaml"}} {
		if _, _, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), "usage") {
			t.Errorf("%v = %v, want a usage error", args, err)
		}
	}
	cfg := downstreamConfig(t, "state:\n  disabled: true\n")
	if _, _, err := runCmd(t, "verified", "export", "-", "--config", cfg); err == nil || !strings.Contains(err.Error(), "state.disabled") {
		t.Errorf("export with state off = %v, want it said", err)
	}
}
