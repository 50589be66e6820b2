package builtin

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"talk2tables/catalog"
	"talk2tables/databasemcp"
	"talk2tables/datagen"
	"talk2tables/internal/mariadbtest"
	"talk2tables/internal/pgtest"
	"talk2tables/internal/testfixture"
	"talk2tables/orchestrator/sqlgen"
)

// asOf pins the sample data and every request's today, so questions with
// fixed dates ("in 2025", "Q3 2025") keep checking the same rows whatever
// the clock says.
const asOf = "2026-11-21"

// env is a database plus the request carrying its MCP resources.
type env struct {
	db  *sql.DB
	req sqlgen.Request
}

// question pairs a question with the hand-written SQL whose rows it must return.
type question struct {
	name string
	q    string
	want string
	// ordered: compare rows in order (set automatically when want has LIMIT)
	ordered bool
}

var (
	pinnedOnce sync.Once
	pinnedDir  string
	pinnedErr  error
	pinnedDBs  sync.Map // rows → path
)

func TestMain(m *testing.M) {
	code := mariadbtest.Stop(pgtest.Main(m))
	if pinnedDir != "" {
		os.RemoveAll(pinnedDir)
	}
	os.Exit(code)
}

// pinnedSalesDB is a private copy of the sample database (seed 1) whose
// data ends on asOf.
func pinnedSalesDB(tb testing.TB, rows int) string {
	tb.Helper()
	pinnedOnce.Do(func() { pinnedDir, pinnedErr = os.MkdirTemp("", "builtin-sales-") })
	if pinnedErr != nil {
		tb.Fatalf("temp dir: %v", pinnedErr)
	}
	src := filepath.Join(pinnedDir, fmt.Sprintf("sales-%d.db", rows))
	once, _ := pinnedDBs.LoadOrStore(rows, &sync.Once{})
	var genErr error
	once.(*sync.Once).Do(func() {
		cat, err := catalog.Load(testfixture.CatalogPath(tb))
		if err != nil {
			genErr = err
			return
		}
		day, _ := time.Parse("2006-01-02", asOf)
		_, genErr = datagen.Generate(context.Background(), datagen.Options{Path: src, Catalog: cat, Seed: 1, AsOf: day, Rows: rows})
	})
	if genErr != nil {
		tb.Fatalf("generate sales db: %v", genErr)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		tb.Fatalf("read %s: %v", src, err)
	}
	dst := filepath.Join(tb.TempDir(), "sales.db")
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		tb.Fatalf("copy sales db: %v", err)
	}
	return dst
}

// schemaResource reads the schema exactly as the database MCP resource
// carries it, with today pinned.
func schemaResource(tb testing.TB, path string) map[string]any {
	tb.Helper()
	db, err := databasemcp.Open(context.Background(), path, databasemcp.Options{Today: asOf})
	if err != nil {
		tb.Fatalf("open %s: %v", path, err)
	}
	defer db.Close()
	s, err := db.Schema(context.Background())
	if err != nil {
		tb.Fatalf("schema: %v", err)
	}
	return roundTrip(tb, s)
}

func roundTrip(tb testing.TB, v any) map[string]any {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatalf("marshal: %v", err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		tb.Fatalf("unmarshal: %v", err)
	}
	return out
}

// catalogResources splits a version-2 catalog file into the two resources
// metadata-mcp serves (docs/contracts.md §1): the semantic model without
// entities, and the entity list.
func catalogResources(tb testing.TB, path string) map[string]any {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("read catalog: %v", err)
	}
	var cat map[string]any
	if err := json.Unmarshal(b, &cat); err != nil {
		tb.Fatalf("parse catalog %s: %v", path, err)
	}
	if v, _ := cat["version"].(float64); v != 2 {
		tb.Fatalf("catalog %s is not version 2", path)
	}
	ents, _ := cat["entities"].([]any)
	delete(cat, "entities")
	if ents == nil {
		ents = []any{}
	}
	return map[string]any{
		"metadata://semantic_model": cat,
		"metadata://entities":       map[string]any{"version": float64(2), "entities": ents},
	}
}

// newEnv is a request over the database at dbPath with the catalog's
// resources (none when catalogPath is "").
func newEnv(tb testing.TB, dbPath, catalogPath string) *env {
	tb.Helper()
	schema := schemaResource(tb, dbPath)
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(dbPath)+"?mode=ro")
	if err != nil {
		tb.Fatalf("open %s: %v", dbPath, err)
	}
	tb.Cleanup(func() { db.Close() })
	servers := []sqlgen.ServerContext{}
	if catalogPath != "" {
		servers = append(servers, sqlgen.ServerContext{ID: "metadata_mcp", Name: "Metadata MCP", Priority: 1,
			Resources: catalogResources(tb, catalogPath), Version: "1"})
	}
	servers = append(servers, sqlgen.ServerContext{ID: "database_mcp", Name: "Database MCP Server", Priority: 10,
		Resources: map[string]any{"database://schema": schema}, Version: "1"})
	return &env{db: db, req: sqlgen.Request{Dialect: "sqlite", Today: asOf, Servers: servers}}
}

func salesEnv(tb testing.TB) *env {
	tb.Helper()
	return newEnv(tb, pinnedSalesDB(tb, 5000), filepath.Join(testfixture.RepoRoot(tb), "testdata", "sales_catalog.json"))
}

// rows runs a query and returns its rows as comparable values.
func (e *env) rows(tb testing.TB, query string) [][]any {
	tb.Helper()
	out := testfixture.QueryRows(tb, e.db, query)
	for _, vals := range out {
		for i, v := range vals {
			switch x := v.(type) {
			case int64:
				vals[i] = float64(x)
			case []byte:
				vals[i] = string(x)
			}
		}
	}
	return out
}

// empty: no rows, or only rows of NULLs (an aggregate over no data).
func empty(rows [][]any) bool {
	for _, r := range rows {
		for _, v := range r {
			if v != nil {
				return false
			}
		}
	}
	return true
}

func rowKey(r []any) string {
	parts := make([]string, len(r))
	for i, v := range r {
		if f, ok := v.(float64); ok {
			parts[i] = fmt.Sprintf("%.1f", f)
		} else {
			parts[i] = fmt.Sprint(v)
		}
	}
	return strings.Join(parts, "|")
}

func sameRows(got, want [][]any, ordered bool) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d rows, want %d", len(got), len(want))
	}
	if !ordered {
		got = append([][]any(nil), got...)
		want = append([][]any(nil), want...)
		sort.Slice(got, func(i, j int) bool { return rowKey(got[i]) < rowKey(got[j]) })
		sort.Slice(want, func(i, j int) bool { return rowKey(want[i]) < rowKey(want[j]) })
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			return fmt.Errorf("row %d has %d columns, want %d", i, len(got[i]), len(want[i]))
		}
		for j := range want[i] {
			gf, gok := got[i][j].(float64)
			wf, wok := want[i][j].(float64)
			if gok && wok {
				if math.Abs(gf-wf) > 1e-6+1e-9*math.Abs(wf) {
					return fmt.Errorf("row %d col %d = %v, want %v", i, j, gf, wf)
				}
				continue
			}
			if fmt.Sprint(got[i][j]) != fmt.Sprint(want[i][j]) {
				return fmt.Errorf("row %d col %d = %v, want %v", i, j, got[i][j], want[i][j])
			}
		}
	}
	return nil
}

// check generates SQL for the question and compares its rows with the
// hand-written SQL's; the hand-written SQL must return data.
func (e *env) check(t testing.TB, g *Generator, c question) {
	t.Helper()
	want := e.rows(t, c.want)
	if empty(want) {
		t.Fatalf("hand-written SQL returned no data (weak test): %s", c.want)
	}
	req := e.req
	req.Question = c.q
	plan, err := g.Generate(context.Background(), req)
	if err != nil {
		t.Fatalf("Generate(%q) error: %v", c.q, err)
	}
	got := e.rows(t, plan.SQL)
	ordered := c.ordered || strings.Contains(strings.ToUpper(c.want), " LIMIT ")
	if err := sameRows(got, want, ordered); err != nil {
		t.Errorf("question %q:\n generated: %s\n want SQL:  %s\n %v\n got rows:  %v\n want rows: %v", c.q, plan.SQL, c.want, err, head(got), head(want))
	}
	if plan.Explanation == "" || plan.Confidence <= 0 || plan.Generator != Name {
		t.Errorf("plan = explanation %q confidence %v generator %q, want all set", plan.Explanation, plan.Confidence, plan.Generator)
	}
}

// checkLoose is check with the evaluation harness's comparison: extra
// result columns (a key beside a name) are fine.
func (e *env) checkLoose(t testing.TB, g *Generator, c question) {
	t.Helper()
	want := e.rows(t, c.want)
	if empty(want) {
		t.Fatalf("hand-written SQL returned no data (weak test): %s", c.want)
	}
	req := e.req
	req.Question = c.q
	plan, err := g.Generate(context.Background(), req)
	if err != nil {
		t.Fatalf("Generate(%q) error: %v", c.q, err)
	}
	got := e.rows(t, plan.SQL)
	ordered := c.ordered || strings.Contains(strings.ToUpper(c.want), " LIMIT ")
	if err := sameRowsLoose(got, want, ordered); err != nil {
		t.Errorf("question %q:\n generated: %s\n want SQL:  %s\n %v\n got rows:  %v\n want rows: %v", c.q, plan.SQL, c.want, err, head(got), head(want))
	}
}

func head(r [][]any) [][]any {
	if len(r) > 5 {
		return r[:5]
	}
	return r
}

// declines asserts the generator refuses the question with a hint.
func (e *env) declines(t testing.TB, g *Generator, q string) *sqlgen.SQLGenerationError {
	t.Helper()
	req := e.req
	req.Question = q
	plan, err := g.Generate(context.Background(), req)
	var ge *sqlgen.SQLGenerationError
	if !errors.As(err, &ge) || ge.Reason != sqlgen.ReasonDeclined {
		t.Fatalf("Generate(%q) = SQL %q, err %v; want a declined SQLGenerationError", q, plan.SQL, err)
	}
	if !strings.HasPrefix(ge.Message, declinePrefix) {
		t.Errorf("message = %q, want prefix %q", ge.Message, declinePrefix)
	}
	return ge
}

// runSet checks every question of a set and returns the tally.
func (e *env) runSet(t *testing.T, g *Generator, qs []question) {
	t.Helper()
	for _, c := range qs {
		t.Run(c.name, func(t *testing.T) { e.check(t, g, c) })
	}
}

// sqliteFile builds a database from SQL files in a temporary directory.
func sqliteFile(tb testing.TB, name string, scripts ...string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), name)
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path))
	if err != nil {
		tb.Fatalf("create %s: %v", path, err)
	}
	defer db.Close()
	for _, s := range scripts {
		if _, err := db.Exec(s); err != nil {
			tb.Fatalf("run script on %s: %v", name, err)
		}
	}
	return path
}

func readFile(tb testing.TB, path string) string {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	return string(b)
}

// sameRowsLoose is the evaluation harness's comparison (docs/contracts.md
// §5): every wanted column must be matched by a distinct got column
// holding the same values row for row; extra got columns are fine.
func sameRowsLoose(got, want [][]any, ordered bool) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d rows, want %d", len(got), len(want))
	}
	if len(want) == 0 {
		return nil
	}
	nw, ng := len(want[0]), len(got[0])
	assign := make([]int, nw)
	used := make([]bool, ng)
	var try func(j int) bool
	try = func(j int) bool {
		if j == nw {
			proj := make([][]any, len(got))
			for i, r := range got {
				proj[i] = make([]any, nw)
				for k, a := range assign {
					proj[i][k] = r[a]
				}
			}
			return sameRows(proj, want, ordered) == nil
		}
		for a := 0; a < ng; a++ {
			if used[a] {
				continue
			}
			used[a], assign[j] = true, a
			if try(j + 1) {
				return true
			}
			used[a] = false
		}
		return false
	}
	if !try(0) {
		return fmt.Errorf("no assignment of result columns matches the wanted rows")
	}
	return nil
}

// ruleCase is a question and the SQL whose rows answer it right.
type ruleCase struct {
	q, want string
	ordered bool
}

// checkAnswered asks each case and fails on a decline or on other rows
// than the wanted SQL gives.
func checkAnswered(t *testing.T, e *env, g *Generator, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		req := e.req
		req.Question = c.q
		plan, err := g.Generate(context.Background(), req)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if err := sameRowsLoose(e.rows(t, plan.SQL), e.rows(t, c.want), c.ordered); err != nil {
			t.Errorf("%q wrong: %v\n  sql:  %s\n  want: %s", c.q, err, plan.SQL, c.want)
		}
		if strings.HasPrefix(plan.Explanation, "Shows .") || strings.HasPrefix(plan.Explanation, "Shows ,") || plan.Explanation == "" {
			t.Errorf("%q: the explanation says nothing of what is shown: %q", c.q, plan.Explanation)
		}
	}
}

// checkDeclined asks each question and fails unless it is declined with a
// generation error (logged with its message).
func checkDeclined(t *testing.T, e *env, g *Generator, mode string, qs []string) {
	t.Helper()
	for _, q := range qs {
		req := e.req
		req.Question = q
		plan, err := g.Generate(context.Background(), req)
		var ge *sqlgen.SQLGenerationError
		if err == nil {
			t.Errorf("%q must be declined (%s), got %s", q, mode, plan.SQL)
		} else if errors.As(err, &ge) {
			t.Logf("%s: %q declined: %s", mode, q, ge.Message)
		} else {
			t.Errorf("%q: %v", q, err)
		}
	}
}
