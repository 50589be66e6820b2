package builtin

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"talk2tables/internal/testfixture"
	"talk2tables/orchestrator/sqlgen"
)

// withDefaultFilter is the sample environment whose catalog counts only
// orders that were not cancelled, by default.
func withDefaultFilter(t testing.TB) *env {
	t.Helper()
	path := filepath.Join(testfixture.RepoRoot(t), "testdata", "sales_catalog.json")
	var cat map[string]any
	if err := json.Unmarshal([]byte(readFile(t, path)), &cat); err != nil {
		t.Fatal(err)
	}
	orders := cat["tables"].(map[string]any)["orders"].(map[string]any)
	orders["default_filter"] = map[string]any{"column": "status", "exclude": []any{"cancelled"}, "why": "cancelled orders never happened"}
	b, err := json.Marshal(cat)
	if err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(edited, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return newEnv(t, pinnedSalesDB(t, 5000), edited)
}

// TestDefaultFilterReachesLines: a default filter on orders applies when
// orders are counted and whenever rows of a table reaching orders
// many-to-one (sale lines) are counted or aggregated, orders joined when the
// query does not join them already — so "total revenue" and "revenue by
// customer segment" count the same lines. Not when the question names a
// status, not to tables that do not reach orders (customers, products), and
// not to listings.
func TestDefaultFilterReachesLines(t *testing.T) {
	e := withDefaultFilter(t)
	g := New(nil)
	const so = " FROM sales s JOIN orders o ON o.order_id = s.order_id"
	e.runSet(t, g, []question{
		{name: "count", q: "how many orders", want: "SELECT COUNT(*) FROM orders WHERE status <> 'cancelled'"},
		{name: "orders joined for a grouping", q: "revenue by customer segment", want: "SELECT c.segment, SUM(s.total_amount)" + soc + " WHERE o.status <> 'cancelled' GROUP BY c.segment"},
		{name: "orders joined for the filter", q: "total revenue", want: "SELECT SUM(s.total_amount)" + so + " WHERE o.status <> 'cancelled'"},
		{name: "lines grouped by their own column", q: "revenue by region", want: "SELECT s.region, SUM(s.total_amount)" + so + " WHERE o.status <> 'cancelled' GROUP BY s.region"},
		{name: "lines counted", q: "how many sales", want: "SELECT COUNT(*)" + so + " WHERE o.status <> 'cancelled'"},
		{name: "lines by product", q: "units sold by product", want: "SELECT p.product_id, p.product_name, SUM(s.quantity)" + so + " JOIN products p ON p.product_id = s.product_id WHERE o.status <> 'cancelled' GROUP BY p.product_id, p.product_name"},
		{name: "named status wins", q: "how many cancelled orders", want: "SELECT COUNT(*) FROM orders WHERE status = 'cancelled'"},
		{name: "named status wins on lines", q: "revenue of cancelled orders", want: "SELECT SUM(s.total_amount)" + so + " WHERE o.status = 'cancelled'"},
		{name: "status grouping is a grouping", q: "number of orders by status", want: "SELECT status, COUNT(*) FROM orders WHERE status <> 'cancelled' GROUP BY status"},
		{name: "listing is not filtered", q: "list pending orders", want: "SELECT * FROM orders WHERE status = 'pending'"},
		{name: "customers are not orders", q: "how many customers", want: "SELECT COUNT(*) FROM customers"},
		{name: "products do not reach orders", q: "average unit price of products", want: "SELECT AVG(unit_price) FROM products"},
	})
	for _, q := range []string{"total revenue", "revenue by customer segment", "revenue by region"} {
		req := e.req
		req.Question = q
		plan, err := g.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if !containsAny(plan.Assumptions, "excluding cancelled", "catalog default") {
			t.Errorf("%q: assumptions %q do not state the default filter", q, plan.Assumptions)
		}
	}
	// The same lines whichever way the revenue is broken down.
	total := e.rows(t, "SELECT SUM(s.total_amount)"+so+" WHERE o.status <> 'cancelled'")[0][0].(float64)
	for _, q := range []string{"revenue by customer segment", "revenue by region", "revenue by category"} {
		req := e.req
		req.Question = q
		plan, err := g.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, r := range e.rows(t, plan.SQL) {
			sum += r[len(r)-1].(float64)
		}
		if math.Abs(sum-total) > 0.01 {
			t.Errorf("%q adds up to %.2f, total revenue is %.2f:\n %s", q, sum, total, plan.SQL)
		}
	}
}

func containsAny(ss []string, subs ...string) bool {
	for _, s := range ss {
		all := true
		for _, sub := range subs {
			if !strings.Contains(s, sub) {
				all = false
			}
		}
		if all {
			return true
		}
	}
	return false
}

// TestAnswerSaysWhatItAssumed: resolved entities, the date range as dates
// with the date column, the entity a name resolved to, typo readings, and
// the statuses counted.
func TestAnswerSaysWhatItAssumed(t *testing.T) {
	e := salesEnv(t)
	req := e.req
	req.Question = "revenue for abracadbra in the north excluding cancelled orders last quarter"
	plan, err := New(nil).Generate(context.Background(), req)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	want := map[string]map[string]string{
		"abracadbra":   {"products.product_id": "123", "products.product_name": "Magic Wand Pro"},
		"revenue":      {"column": "sales.total_amount"},
		"north":        {"sales.region": "North"},
		"cancelled":    {"orders.status": "cancelled"},
		"last quarter": {"range": "2026-07-01 to 2026-09-30", "column": "sales.sale_date"},
	}
	for k, kv := range want {
		got, ok := plan.ResolvedEntities[k]
		if !ok {
			t.Errorf("resolved_entities lacks %q: %v", k, plan.ResolvedEntities)
			continue
		}
		for kk, vv := range kv {
			if got[kk] != vv {
				t.Errorf("resolved_entities[%q][%q] = %q, want %q", k, kk, got[kk], vv)
			}
		}
	}
	for _, w := range [][]string{
		{"2026-07-01 to 2026-09-30", "sales.sale_date"},
		{"abracadbra", "Magic Wand Pro", "product_id 123"},
		{"read as", "abracadabra"},
	} {
		if !containsAny(plan.Assumptions, w...) {
			t.Errorf("assumptions %q lack %q", plan.Assumptions, w)
		}
	}
	if plan.Confidence >= 0.9 {
		t.Errorf("confidence = %v, want it lowered for a typo", plan.Confidence)
	}
	for _, w := range []string{"sales.total_amount", "2026-07-01 to 2026-09-30", "Magic Wand Pro"} {
		if !strings.Contains(plan.Explanation, w) {
			t.Errorf("explanation %q lacks %q", plan.Explanation, w)
		}
	}
	req.Question = "how many orders"
	plan, err = New(nil).Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !containsAny(plan.Assumptions, "status", "cancelled, completed, pending, returned") {
		t.Errorf("assumptions %q do not say which statuses were counted", plan.Assumptions)
	}
}

// TestNoCatalogSaysSo: with the schema alone the answer says its words
// came from the names, and a question in the schema's own words works.
func TestNoCatalogSaysSo(t *testing.T) {
	e := salesEnv(t)
	req := e.req
	req.Servers = req.Servers[1:]
	req.Question = "total amount by region"
	plan, err := New(nil).Generate(context.Background(), req)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if !containsAny(plan.Assumptions, "no semantic catalog") {
		t.Errorf("assumptions %q do not say there was no catalog", plan.Assumptions)
	}
	got, want := e.rows(t, plan.SQL), e.rows(t, "SELECT region, SUM(total_amount) FROM sales GROUP BY region")
	if err := sameRows(got, want, false); err != nil {
		t.Errorf("%s: %v", plan.SQL, err)
	}
}

// TestEarlierServerWins: the first semantic model (the most preferred
// server) is the one read.
func TestEarlierServerWins(t *testing.T) {
	e := salesEnv(t)
	req := e.req
	override := map[string]any{"version": float64(2), "tables": map[string]any{
		"sales": map[string]any{"words": []any{"sales"}, "role": "fact", "columns": map[string]any{
			"quantity": map[string]any{"words": []any{"revenue"}, "kind": "measure", "measure": "additive"}}}}}
	first := req.Servers[0]
	first.ID, first.Priority, first.Resources = "override", 0, map[string]any{"x://model": override}
	req.Servers = append([]sqlgen.ServerContext{first}, req.Servers...)
	req.Question = "revenue"
	plan, err := New(nil).Generate(context.Background(), req)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if err := sameRows(e.rows(t, plan.SQL), e.rows(t, "SELECT SUM(quantity) FROM sales"), false); err != nil {
		t.Errorf("SQL %s: %v", plan.SQL, err)
	}
}

func TestTotalOf(t *testing.T) {
	for in, want := range map[string]string{"total": "total", "total amount": "total amount", "revenue": "total revenue"} {
		if got := totalOf(in); got != want {
			t.Errorf("totalOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTimeRangedNounSaysItCounted: "orders last month" is answered as how
// many, and the answer says so and how to list them instead.
func TestTimeRangedNounSaysItCounted(t *testing.T) {
	e := musicEnv(t)
	for q, wantSQL := range map[string]string{
		"invoices in 2025":      "COUNT(*)",
		"list invoices in 2025": "SELECT invoice_id,",
	} {
		req := e.req
		req.Question = q
		plan, err := New(nil).Generate(context.Background(), req)
		if err != nil {
			t.Fatalf("Generate(%q): %v", q, err)
		}
		if !strings.Contains(plan.SQL, wantSQL) {
			t.Errorf("%q: SQL %s, want %s", q, plan.SQL, wantSQL)
		}
		counted := containsAny(plan.Assumptions, "counted the invoice rows", "list invoices")
		if counted != (wantSQL == "COUNT(*)") {
			t.Errorf("%q: assumptions %q; want the count said only when counted", q, plan.Assumptions)
		}
	}
}

// TestRankByTableNounSaysItCounts: "top 5 customers by invoices" ranks by
// how many; the answer says so (a reader may have meant their amount).
func TestRankByTableNounSaysItCounts(t *testing.T) {
	e := musicEnv(t)
	req := e.req
	req.Question = "top 5 customers by invoices"
	plan, err := New(nil).Generate(context.Background(), req)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if !strings.Contains(plan.SQL, "COUNT(") {
		t.Errorf("SQL %s, want a count of invoices", plan.SQL)
	}
	if !containsAny(plan.Assumptions, "number of invoice rows", "'invoices' read as how many") {
		t.Errorf("assumptions %q do not say the ranking counts invoices", plan.Assumptions)
	}
}
