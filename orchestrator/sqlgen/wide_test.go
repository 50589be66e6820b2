package sqlgen

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"

	"talk2tables/databasemcp"
	"talk2tables/internal/fixtures/wide"
	"talk2tables/metadatamcp"
	"talk2tables/sqlerr"
)

// readResources reads every resource of srv through an in-process MCP
// client, parsed as the orchestrator parses them.
func readResources(tb testing.TB, srv *server.MCPServer) map[string]any {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		tb.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "sqlgen-test", Version: "1"}}}); err != nil {
		tb.Fatal(err)
	}
	list, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string]any{}
	for _, r := range list.Resources {
		res, err := c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: r.URI}})
		if err != nil {
			tb.Fatalf("read %s: %v", r.URI, err)
		}
		text := res.Contents[0].(mcp.TextResourceContents).Text
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			v = text
		}
		out[r.URI] = v
	}
	return out
}

// wideServers are the wide database's server and its drafted catalog's
// server as the orchestrator passes them to a generator.
func wideServers(tb testing.TB) []ServerContext {
	tb.Helper()
	b := wide.Fixture(tb)
	db, err := databasemcp.Open(context.Background(), b.DB, databasemcp.Options{Today: "2026-01-15"})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	meta, err := metadatamcp.New(b.Catalog, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return []ServerContext{
		{ID: "database_mcp", Name: "Database", Priority: 10, Capabilities: []string{"execute_query", "list_resources"},
			Resources: readResources(tb, databasemcp.NewServer(db, nil)), RelevantOnly: true},
		{ID: "metadata_mcp", Name: "Catalog", Priority: 1, Capabilities: []string{"list_resources"},
			Resources: readResources(tb, meta.MCPServer()), RelevantOnly: true},
	}
}

// shownTables returns the tables whose schema entry is in a user prompt.
func shownTables(user string, names []string) map[string]bool {
	out := map[string]bool{}
	for _, n := range names {
		if strings.Contains(user, `{"columns":[`) && strings.Contains(user, `"name":"`+n+`","row_count"`) {
			out[n] = true
		}
	}
	return out
}

func cl100k(tb testing.TB) *tiktoken.Tiktoken {
	tb.Helper()
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding("cl100k_base")
	if err != nil {
		tb.Fatal(err)
	}
	return enc
}

// TestWideSelectionRecall: on the 500-table, 5,000-column database with its
// drafted catalog, each question's prompt holds the tables it needs (recall
// at least 95% over all questions) and stays within the 8,000-token budget,
// by the estimate and by OpenAI's cl100k_base tokenizer.
func TestWideSelectionRecall(t *testing.T) {
	servers := wideServers(t)
	base := RenderServersWith(servers, RenderOptions{TokenBudget: DefaultTokenBudget})
	if base.layout == nil {
		t.Fatalf("the whole database (%d chars) did not trigger the selection", len(base.text))
	}
	full := MeasurePrompt(Request{Question: "q", Servers: servers, Rendered: RenderServers(servers)})
	t.Logf("whole prompt: %d chars, ~%d tokens, %d tables", full.Chars, full.TokensEst, full.TablesTotal)
	if full.TablesTotal != 500 {
		t.Errorf("tables total = %d, want 500", full.TablesTotal)
	}
	enc := cl100k(t)
	var names []string
	for _, tb := range mustTables(t) {
		names = append(names, tb)
	}
	needed, found, maxTok, maxReal := 0, 0, 0, 0
	for _, q := range wide.Questions() {
		req := Request{Question: q.Text, Dialect: "sqlite", Today: "2026-01-15", Servers: servers, Rendered: base}
		req.Rendered = base.Select(req)
		st := MeasurePrompt(req)
		system, user := BuildPrompt(req)
		real := len(enc.Encode(system+user, nil, nil))
		maxTok, maxReal = max(maxTok, st.TokensEst), max(maxReal, real)
		shown := shownTables(user, names)
		var missing []string
		for _, n := range q.Needs {
			needed++
			if shown[n] {
				found++
			} else {
				missing = append(missing, n)
			}
		}
		if st.TokensEst > DefaultTokenBudget || real > DefaultTokenBudget {
			t.Errorf("%q: prompt of %d chars, %d tokens estimated, %d by cl100k_base: over %d", q.Text, st.Chars,
				st.TokensEst, real, DefaultTokenBudget)
		}
		if st.TablesSelected != len(shown) || st.TablesTotal != 500 {
			t.Errorf("%q: stats say %d of %d tables, the prompt shows %d", q.Text, st.TablesSelected, st.TablesTotal, len(shown))
		}
		if len(missing) > 0 {
			t.Logf("%q: missing %v (shown %d tables)", q.Text, missing, len(shown))
		}
	}
	recall := float64(found) / float64(needed)
	t.Logf("recall %d/%d = %.1f%%; largest prompt %d tokens estimated, %d by cl100k_base", found, needed, 100*recall, maxTok, maxReal)
	if recall < 0.95 {
		t.Errorf("recall of needed tables = %.1f%%, want >= 95%%", 100*recall)
	}
}

func mustTables(tb testing.TB) []string {
	tb.Helper()
	ts, err := wide.Tables()
	if err != nil {
		tb.Fatal(err)
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

// A repair of a missing table widens the selection: the tables its failed
// SQL names stay, the best tables for the words of its error join them, and
// the prompt lists further tables as table(columns), within the budget.
func TestWideRepairWidens(t *testing.T) {
	servers := wideServers(t)
	base := RenderServersWith(servers, RenderOptions{TokenBudget: DefaultTokenBudget})
	names := mustTables(t)
	q := "Riders counted per tram line"
	first := Request{Question: q, Dialect: "sqlite", Today: "2026-01-15", Servers: servers, Rendered: base}
	_, user := BuildPrompt(first)
	if shownTables(user, names)["transit_ridership_counts"] {
		t.Fatalf("the first selection of %q already holds transit_ridership_counts, so the repair has nothing to widen: "+
			"pick a question whose first prompt lacks it", q)
	}
	tests := []struct {
		name string
		rep  Repair
	}{
		{"missing table", Repair{Attempt: 1, FailedSQL: "SELECT l.line_name, SUM(r.riders) FROM transit_lines l JOIN ridership r ON r.line_id = l.line_id GROUP BY l.line_name",
			Error: "no such table: ridership", Category: sqlerr.MissingTable}},
		{"missing column", Repair{Attempt: 1, FailedSQL: "SELECT l.line_name, SUM(l.riders_counted) FROM transit_lines l GROUP BY l.line_name",
			Error: "no such column: l.riders_counted", Category: sqlerr.MissingColumn}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := first
			req.Repair = &tt.rep
			st := MeasurePrompt(req)
			_, user := BuildPrompt(req)
			shown := shownTables(user, names)
			if !shown["transit_lines"] {
				t.Error("the repair prompt lost transit_lines, which the failed SQL names")
			}
			listed := strings.Contains(user, "More tables that may hold what the failed query missed") &&
				strings.Contains(user, "transit_ridership_counts")
			if !shown["transit_ridership_counts"] && !listed {
				t.Errorf("the repair prompt neither shows nor lists transit_ridership_counts (shown %d tables)", len(shown))
			}
			if st.TokensEst > DefaultTokenBudget {
				t.Errorf("repair prompt = %d tokens estimated, over %d", st.TokensEst, DefaultTokenBudget)
			}
		})
	}
}

// Under the budget nothing depends on the question: the rendering is the
// whole text, shared by every question.
func TestSmallSchemaUnselected(t *testing.T) {
	servers := sampleRequest().Servers
	r := RenderServersWith(servers, RenderOptions{})
	if r.layout != nil {
		t.Fatal("a small schema built a per-question layout")
	}
	req := Request{Question: "anything", Servers: servers, Rendered: r}
	if got := r.Select(req); got != r {
		t.Error("Select of a rendering under budget returned a new rendering")
	}
	st := MeasurePrompt(req)
	if st.TablesSelected != st.TablesTotal || st.TablesTotal == 0 {
		t.Errorf("stats = %+v, want every table", st)
	}
}

// BenchmarkWideSelect is the per-question selection on the 500-table
// database (index built once per snapshot, before the timer).
func BenchmarkWideSelect(b *testing.B) {
	servers := wideServers(b)
	base := RenderServersWith(servers, RenderOptions{TokenBudget: DefaultTokenBudget})
	qs := wide.Questions()
	base.Select(Request{Question: qs[0].Text, Servers: servers})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		base.Select(Request{Question: qs[i%len(qs)].Text, Dialect: "sqlite", Today: "2026-01-15", Servers: servers})
	}
}

// BenchmarkWideRender is what is done once per resource snapshot of the
// 500-table database: rendering, cutting into tables and indexing.
func BenchmarkWideRender(b *testing.B) {
	servers := wideServers(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r := RenderServersWith(servers, RenderOptions{TokenBudget: DefaultTokenBudget})
		r.layout.ranker()
	}
}

// A resource left to relevance goes into the prompt of a question naming
// its server's domains or its own words, and stays out of the others.
func TestRelevantResourceByDomainAndWords(t *testing.T) {
	servers := append(sampleRequest().Servers, ServerContext{ID: "handbook", Name: "Handbook", Priority: 30,
		Domains: []string{"onboarding"}, Capabilities: []string{"list_resources"}, RelevantOnly: true,
		Resources: map[string]any{"handbook://leave": "Parental leave lasts sixteen weeks."}})
	r := RenderServersWith(servers, RenderOptions{})
	tests := []struct {
		question string
		in       bool
	}{
		{"How long does parental leave last?", true},
		{"What should onboarding cover?", true},
		{"Total sales per product category", false},
	}
	for _, tt := range tests {
		_, user := BuildPrompt(Request{Question: tt.question, Servers: servers, Rendered: r})
		if got := strings.Contains(user, "sixteen weeks"); got != tt.in {
			t.Errorf("%q: resource in the prompt = %v, want %v", tt.question, got, tt.in)
		}
		if !strings.Contains(user, `"handbook"`) {
			t.Errorf("%q: the server itself is missing from the prompt", tt.question)
		}
	}
}

// MeasurePrompt of the snapshot's rendering describes the question's
// selection, as MeasurePrompt of the selection does.
func TestWideMeasureSelects(t *testing.T) {
	servers := wideServers(t)
	base := RenderServersWith(servers, RenderOptions{TokenBudget: DefaultTokenBudget})
	req := Request{Question: wide.Questions()[0].Text, Dialect: "sqlite", Today: "2026-01-15", Servers: servers, Rendered: base}
	a := MeasurePrompt(req)
	req.Rendered = base.Select(req)
	b := MeasurePrompt(req)
	if a.Chars != b.Chars || a.TablesSelected != b.TablesSelected || a.TablesSelected >= a.TablesTotal || a.Budget != DefaultTokenBudget {
		t.Errorf("measured from the snapshot: %+v; from the selection: %+v", a, b)
	}
}
