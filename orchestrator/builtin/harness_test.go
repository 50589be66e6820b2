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
	"testing"

	_ "modernc.org/sqlite"

	"talk2tables/databasemcp"
	"talk2tables/internal/testfixture"
	"talk2tables/orchestrator/sqlgen"
)

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
	// mayBeEmpty: the expected result may legitimately have no rows
	mayBeEmpty bool
	// wantDecline: the generator must refuse (kept here to test near-misses)
	wantDecline bool
}

// schemaResource reads the schema exactly as the database MCP resource carries it.
func schemaResource(tb testing.TB, path string) map[string]any {
	tb.Helper()
	db, err := databasemcp.Open(path, databasemcp.Options{})
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

// catalogResources splits a catalog file into the metadata MCP resources:
// a version-2 catalog into the semantic model and the entities (as
// metadata-mcp serves it), a version-1 catalog into aliases and mappings.
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
	if _, v2 := cat["version"]; v2 {
		entities := map[string]any{"version": cat["version"], "entities": cat["entities"]}
		delete(cat, "entities")
		return map[string]any{"metadata://semantic_model": cat, "metadata://entities": entities}
	}
	aliases, _ := cat["product_aliases"].(map[string]any)
	mappings, _ := cat["column_mappings"].(map[string]any)
	if aliases == nil || mappings == nil {
		tb.Fatalf("catalog %s lacks product_aliases or column_mappings", path)
	}
	return map[string]any{
		"metadata://product_aliases":  aliases,
		"metadata://column_mappings":  mappings,
		"metadata://metadata_summary": map[string]any{"product_count": float64(len(aliases))},
	}
}

func newEnv(tb testing.TB, dbPath, catalogPath string) *env {
	tb.Helper()
	schema := schemaResource(tb, dbPath)
	resources := catalogResources(tb, catalogPath)
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(dbPath)+"?mode=ro")
	if err != nil {
		tb.Fatalf("open %s: %v", dbPath, err)
	}
	tb.Cleanup(func() { db.Close() })
	today, _ := schema["today"].(string)
	return &env{db: db, req: sqlgen.Request{
		Dialect: "sqlite",
		Today:   today,
		Servers: []sqlgen.ServerContext{
			{ID: "product_metadata_mcp", Name: "Product Metadata MCP", Priority: 1, Resources: resources},
			{ID: "database_mcp", Name: "Database MCP Server", Priority: 10,
				Resources: map[string]any{"database://schema": schema}},
		},
	}}
}

func salesEnv(tb testing.TB) *env {
	tb.Helper()
	return newEnv(tb, testfixture.SalesDB(tb, 5000), testfixture.CatalogPath(tb))
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
				if math.Abs(gf-wf) > 0.011+1e-9*math.Abs(wf) {
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

// check generates SQL for the question and compares its rows with the hand-written SQL's.
func (e *env) check(t *testing.T, g *Generator, c question) {
	t.Helper()
	req := e.req
	req.Question = c.q
	plan, err := g.Generate(context.Background(), req)
	if err != nil {
		t.Fatalf("Generate(%q) error: %v", c.q, err)
	}
	want := e.rows(t, c.want)
	if len(want) == 0 && !c.mayBeEmpty {
		t.Fatalf("hand-written SQL returned no rows (weak test): %s", c.want)
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

func head(r [][]any) [][]any {
	if len(r) > 5 {
		return r[:5]
	}
	return r
}

// declines asserts the generator refuses the question.
func (e *env) declines(t *testing.T, g *Generator, q string) {
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
}
