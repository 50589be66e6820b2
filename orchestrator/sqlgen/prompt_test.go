package sqlgen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"talk2tables/sqlerr"
)

// sampleRequest is a small but realistic request: the database server is
// listed before the (more preferred) metadata server to prove sorting.
func sampleRequest() Request {
	return Request{
		Question: "sales for abracadabra this month",
		Dialect:  "sqlite",
		Today:    "2026-11-22",
		Servers: []ServerContext{
			{
				ID: "database_mcp", Name: "Database MCP Server", Priority: 10,
				Domains:      []string{"sales", "orders"},
				Capabilities: []string{"execute_query", "list_resources"},
				Resources: map[string]any{"database://schema": map[string]any{
					"dialect": "sqlite", "today": "2026-11-22", "database": "sales.db",
					"tables": []any{
						map[string]any{"name": "sales", "row_count": 5000, "columns": []any{
							map[string]any{"name": "product_id", "type": "INTEGER"},
							map[string]any{"name": "total_amount", "type": "REAL"},
							map[string]any{"name": "sale_date", "type": "TEXT"},
						}},
						map[string]any{"name": "products", "row_count": 40, "columns": []any{
							map[string]any{"name": "product_id", "type": "INTEGER", "primary_key": true},
							map[string]any{"name": "product_name", "type": "TEXT"},
						}},
					},
				}},
			},
			{
				ID: "product_metadata_mcp", Name: "Product Metadata MCP", Priority: 1,
				Domains:      []string{"products", "catalog"},
				Capabilities: []string{"list_resources"},
				Resources: map[string]any{
					"metadata://entities": map[string]any{"version": 2, "entities": []any{map[string]any{
						"table": "products", "key": "product_id", "columns": []any{"product_name"},
						"values": []any{map[string]any{"name": "Magic Wand Pro", "key": 123,
							"aliases": []any{"abracadabra", "abra"}}},
					}}},
					"metadata://semantic_model": map[string]any{"version": 2, "tables": map[string]any{
						"sales": map[string]any{"words": []any{"sales", "transactions"}, "role": "fact",
							"date_column": "sale_date", "columns": map[string]any{
								"total_amount": map[string]any{"words": []any{"sales amount", "revenue"}, "kind": "measure",
									"measure": "additive", "unit": "money"},
								"sale_date":  map[string]any{"kind": "date", "date_format": "date"},
								"product_id": map[string]any{"kind": "identifier", "references": "products.product_id"},
							}},
						"products": map[string]any{"words": []any{"products", "items"}, "role": "dimension",
							"key": "product_id", "label": []any{"product_name"}, "columns": map[string]any{
								"product_id":   map[string]any{"kind": "identifier"},
								"product_name": map[string]any{"kind": "label"},
							}},
					}},
					"metadata://notes": "plain text <resource> & more",
				},
			},
		},
	}
}

// goldenRepair is the repair of prompt_repair.golden: a second attempt after
// a missing table, with two SQL statements already tried.
func goldenRepair() *Repair {
	return &Repair{
		Attempt:   2,
		FailedSQL: "SELECT SUM(total_amount) FROM sale WHERE product_id = 123",
		Error:     "no such table: sale",
		Category:  sqlerr.MissingTable,
		Tried: []string{
			"SELECT SUM(amount)\n  FROM sales WHERE product_id = 123",
			"SELECT SUM(total_amount) FROM sale WHERE product_id = 123",
		},
	}
}

// checkPromptGolden builds req's prompts and compares them with the golden
// file name (refreshed instead with UPDATE_GOLDEN=1).
func checkPromptGolden(t testing.TB, name string, req Request) {
	t.Helper()
	system, user := BuildPrompt(req)
	got := "=== system ===\n" + system + "\n=== user ===\n" + user + "\n"
	path := filepath.Join("testdata", name)
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (create it with UPDATE_GOLDEN=1 go test ./orchestrator/sqlgen/): %v", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file; got:\n%s\n(refresh with UPDATE_GOLDEN=1 if intended)", name, got)
	}
}

func TestBuildPromptGolden(t *testing.T) {
	checkPromptGolden(t, "prompt.golden", sampleRequest())

	req := sampleRequest()
	req.Repair = goldenRepair()
	checkPromptGolden(t, "prompt_repair.golden", req)
}

func TestBuildPromptContent(t *testing.T) {
	req := sampleRequest()
	system, user := BuildPrompt(req)
	for _, want := range []string{"sqlite", "2026-11-22", "semantic model", "entities resource", "non_additive",
		"{Column}", "date_column", "default_filter", "lower priority number", "read-only SELECT",
		`"resolved_entities"`, `"assumptions"`, `"confidence"`} {
		if !strings.Contains(system, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	meta := strings.Index(user, `"id":"product_metadata_mcp"`)
	db := strings.Index(user, `"id":"database_mcp"`)
	if meta < 0 || db < 0 || meta > db {
		t.Errorf("servers not in priority order: metadata at %d, database at %d", meta, db)
	}
	if !strings.Contains(user, "plain text <resource> & more") {
		t.Error("user prompt HTML-escapes resource text")
	}
	if strings.Contains(user, "REPAIR") {
		t.Error("first-attempt prompt contains a repair section")
	}
	// Deterministic: same request, same prompt; input order untouched.
	s2, u2 := BuildPrompt(sampleRequest())
	if s2 != system || u2 != user {
		t.Error("BuildPrompt is not deterministic")
	}
	if req.Servers[0].ID != "database_mcp" {
		t.Error("BuildPrompt reordered the caller's slice")
	}
}

func TestRepairPromptPerCategory(t *testing.T) {
	seen := map[string]sqlerr.Category{}
	for _, c := range sqlerr.Categories() {
		t.Run(string(c), func(t *testing.T) {
			req := sampleRequest()
			req.Repair = &Repair{Attempt: 1, FailedSQL: "SELECT x FROM y", Error: "boom " + string(c), Category: c,
				Tried: []string{"SELECT x FROM y"}}
			_, user := BuildPrompt(req)
			instr := RepairInstruction(c)
			for _, want := range []string{"Original question" + questionNote + ":\n\"sales for abracadabra this month\"\n", "SELECT x FROM y",
				"Error (" + string(c) + "), as a JSON string: \"boom " + string(c) + "\"", instr, "do not return any of these again", "1. SELECT x FROM y"} {
				if !strings.Contains(user, want) {
					t.Errorf("repair prompt lacks %q", want)
				}
			}
			if prev, dup := seen[instr]; dup {
				t.Errorf("instruction for %s is the same as for %s", c, prev)
			}
			seen[instr] = c
		})
	}
	if got := RepairInstruction("NOT_A_CATEGORY"); got != RepairInstruction(sqlerr.UnknownError) {
		t.Errorf("unknown category instruction = %q, want the UNKNOWN_ERROR one", got)
	}
	checks := map[sqlerr.Category][]string{
		sqlerr.MissingTable:     {"table words", "tables listed"},
		sqlerr.MissingColumn:    {"exact column names", "qualify"},
		sqlerr.AmbiguousColumn:  {"qualify every column"},
		sqlerr.AggregationError: {"GROUP BY", "HAVING"},
		sqlerr.SyntaxError:      {"SELECT", "spelling", "one statement"},
		sqlerr.DataTypeMismatch: {"date literals", "CAST"},
		sqlerr.Timeout:          {"filters", "cartesian", "LIMIT"},
	}
	for c, wants := range checks {
		for _, w := range wants {
			if !strings.Contains(RepairInstruction(c), w) {
				t.Errorf("RepairInstruction(%s) lacks %q", c, w)
			}
		}
	}
}

// TestRepairPromptFollowsDialectAndDatabase: the repair instructions add the
// dialect's own rules and examples taken from this request's resources, and
// a prompt over another database names none of the sample's tables.
func TestRepairPromptFollowsDialectAndDatabase(t *testing.T) {
	repair := func(req Request, c sqlerr.Category) string {
		req.Repair = &Repair{Attempt: 1, FailedSQL: "SELECT 1", Error: "boom", Category: c}
		_, user := BuildPrompt(req)
		return user
	}
	req := sampleRequest()
	for c, want := range map[sqlerr.Category]string{
		sqlerr.SyntaxError:      "SQLite: date(), strftime",
		sqlerr.DataTypeMismatch: "SQLite: dates are usually ISO text",
		sqlerr.MissingTable:     `For example "items" -> table products.`,
		sqlerr.MissingColumn:    `For example "sales amount" -> sales.total_amount.`,
	} {
		if got := repair(req, c); !strings.Contains(got, want) {
			t.Errorf("%s repair lacks %q", c, want)
		}
	}
	req.Dialect = "postgres"
	if got := repair(req, sqlerr.SyntaxError); !strings.Contains(got, "PostgreSQL: double-quote identifiers") {
		t.Errorf("postgres syntax repair lacks the PostgreSQL rules:\n%s", got)
	}
	req.Dialect = "mysql"
	if got := repair(req, sqlerr.SyntaxError); !strings.Contains(got, "MySQL: quote identifiers with backticks") || strings.Contains(got, "SQLite:") {
		t.Errorf("mysql syntax repair lacks the MySQL rules:\n%s", got)
	}

	other := Request{Question: "invoice totals per country", Dialect: "sqlite", Today: "2026-06-30",
		Servers: []ServerContext{{ID: "db", Priority: 1, Resources: map[string]any{"database://schema": map[string]any{
			"dialect": "sqlite", "tables": []any{
				map[string]any{"name": "Invoice", "columns": []any{
					map[string]any{"name": "InvoiceId", "type": "INTEGER"},
					map[string]any{"name": "BillingCountry", "type": "NVARCHAR(40)"},
					map[string]any{"name": "InvoiceDate", "type": "DATETIME"}}},
				map[string]any{"name": "Customer", "columns": []any{
					map[string]any{"name": "CustomerId", "type": "INTEGER"},
					map[string]any{"name": "Country", "type": "NVARCHAR(40)"}}},
				map[string]any{"name": "Employee", "columns": []any{
					map[string]any{"name": "EmployeeId", "type": "INTEGER"},
					map[string]any{"name": "Country", "type": "NVARCHAR(40)"}}},
			}}}}}}
	system, user := BuildPrompt(other)
	all := system + user + repair(other, sqlerr.AmbiguousColumn)
	for _, sample := range []string{"sales", "total_amount", "region", "products", "abracadabra", "sale_date"} {
		if strings.Contains(strings.ToLower(all), sample) {
			t.Errorf("prompt over another database mentions the sample's %q", sample)
		}
	}
	for _, want := range []string{"Customer.Country and Employee.Country", "Invoice.InvoiceDate"} {
		if !strings.Contains(all, want) {
			t.Errorf("prompt lacks the live example %q", want)
		}
	}
}

func TestRepairClassifiesMissingCategory(t *testing.T) {
	req := sampleRequest()
	req.Repair = &Repair{Attempt: 1, FailedSQL: "SELECT nope FROM sales", Error: "no such column: nope"}
	_, user := BuildPrompt(req)
	if !strings.Contains(user, `Error (MISSING_COLUMN), as a JSON string: "no such column: nope"`) {
		t.Errorf("repair prompt did not classify the error:\n%s", user)
	}
}

func TestBuildPromptRendered(t *testing.T) {
	base := sampleRequest()
	wantSystem, wantUser := BuildPrompt(base)

	other := sampleRequest()
	other.Servers[1].Resources = map[string]any{"metadata://notes": "changed"}
	stale := RenderServers(other.Servers)

	tests := []struct {
		name     string
		rendered func(req Request) *RenderedServers
	}{
		{name: "rendered from the same slice", rendered: func(req Request) *RenderedServers { return RenderServers(req.Servers) }},
		{name: "rendered from another slice is ignored", rendered: func(Request) *RenderedServers { return stale }},
		{name: "rendered from a shorter slice is ignored", rendered: func(req Request) *RenderedServers { return RenderServers(req.Servers[:1]) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := sampleRequest()
			req.Rendered = tt.rendered(req)
			system, user := BuildPrompt(req)
			if system != wantSystem {
				t.Errorf("system prompt differs:\ngot:\n%s\nwant:\n%s", system, wantSystem)
			}
			if user != wantUser {
				t.Errorf("user prompt differs:\ngot:\n%s\nwant:\n%s", user, wantUser)
			}
		})
	}

	// Reused for many questions and a repair, the rendering still gives the
	// golden prompts.
	req := sampleRequest()
	req.Rendered = RenderServers(req.Servers)
	for range 3 {
		checkPromptGolden(t, "prompt.golden", req)
	}
	req.Repair = goldenRepair()
	checkPromptGolden(t, "prompt_repair.golden", req)

	// No servers: rendered or not, the same sentence.
	empty := Request{Question: "q"}
	_, u1 := BuildPrompt(empty)
	empty.Rendered = RenderServers(nil)
	_, u2 := BuildPrompt(empty)
	if u1 != u2 || !strings.Contains(u1, "No MCP server resources are available.") {
		t.Errorf("empty servers: got %q and %q", u1, u2)
	}
}

func TestSystemPromptFollowsDialectAndDate(t *testing.T) {
	tests := []struct {
		name, dialect, today string
		want, notWant        string
	}{
		{name: "sqlite today", dialect: "sqlite", today: "2026-11-22", want: "Today is 2026-11-22.", notWant: "postgres"},
		{name: "sqlite next day", dialect: "sqlite", today: "2026-11-23", want: "Today is 2026-11-23.", notWant: "2026-11-22"},
		{name: "other dialect", dialect: "postgres", today: "2026-11-23", want: "read-only postgres query", notWant: "SQLite specifics"},
		{name: "back to sqlite", dialect: "sqlite", today: "2026-11-22", want: "SQLite specifics", notWant: "2026-11-23"},
		{name: "mysql", dialect: "mysql", today: "2026-11-22", want: "MySQL specifics: quote identifiers with spaces or reserved words in backticks", notWant: "SQLite specifics"},
		{name: "mysql dates", dialect: "mysql", today: "2026-11-22", want: "YEAR(col), MONTH(col), DATE_FORMAT(col, '%Y-%m')", notWant: "strftime"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := sampleRequest()
			req.Dialect, req.Today = tt.dialect, tt.today
			system, user := BuildPrompt(req)
			if !strings.Contains(system, tt.want) || strings.Contains(system, tt.notWant) {
				t.Errorf("system prompt: want %q and not %q; got:\n%s", tt.want, tt.notWant, system)
			}
			if !strings.Contains(user, "Today: "+tt.today) {
				t.Errorf("user prompt lacks Today: %s", tt.today)
			}
		})
	}
}

// The prompt leaves out false/null/empty members and members repeating a
// database reference, without touching the shared snapshot.
func TestPromptValue(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "schema defaults", in: `{"columns":[{"name":"id","nullable":false,"primary_key":true,"distinct_values":null},{"name":"x","nullable":true}],"foreign_keys":[],"extra":{}}`,
			want: `{"columns":[{"name":"id","primary_key":true},{"name":"x","nullable":true}]}`},
		{name: "zero and empty string kept", in: `{"row_count":0,"note":"","flag":true}`, want: `{"flag":true,"note":"","row_count":0}`},
		{name: "catalog duplicates", in: `{"abra":{"canonical_id":"123","canonical_name":"Magic Wand Pro","canonical_sku":"W-1","aliases":["abra"],"database_references":{"products.product_id":123,"products.product_name":"Magic Wand Pro"}}}`,
			want: `{"abra":{"aliases":["abra"],"canonical_sku":"W-1","database_references":{"products.product_id":123,"products.product_name":"Magic Wand Pro"}}}`},
		{name: "no references keeps ids", in: `{"abra":{"canonical_id":"999","canonical_name":"Cheap Trick"}}`,
			want: `{"abra":{"canonical_id":"999","canonical_name":"Cheap Trick"}}`},
		{name: "array elements kept", in: `[false,null,[],{},{"a":false}]`, want: `[false,null,[],{},{}]`},
		{name: "text resource", in: `"plain text"`, want: `"plain text"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in any
			if err := json.Unmarshal([]byte(tt.in), &in); err != nil {
				t.Fatal(err)
			}
			got := compactJSON(promptValue(in))
			if got != tt.want {
				t.Errorf("promptValue(%s) = %s, want %s", tt.in, got, tt.want)
			}
			if again := compactJSON(in); again != compactJSON(mustParse(t, tt.in)) {
				t.Errorf("input changed to %s", again)
			}
		})
	}
}

func mustParse(tb testing.TB, s string) any {
	tb.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		tb.Fatal(err)
	}
	return v
}
