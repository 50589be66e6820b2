package sqlgen

import (
	"errors"
	"strings"
	"testing"

	"talk2tables/sqlerr"
)

// twoDatabases is sampleRequest with a second executor, a PostgreSQL
// database of another domain, as a separate source.
func twoDatabases() Request {
	req := sampleRequest()
	req.Servers = append(req.Servers, ServerContext{
		ID: "shop_db", Name: "Bike Shop", Priority: 20, Domains: []string{"bikes"},
		Capabilities: []string{"execute_query", "list_resources"},
		Resources: map[string]any{"database://schema": map[string]any{
			"dialect": "postgres", "today": "2026-05-20", "database": "shop",
			"tables": []any{map[string]any{"name": "SalesOrder", "row_count": 900, "columns": []any{
				map[string]any{"name": "OrderId", "type": "integer", "primary_key": true},
				map[string]any{"name": "OrderStatus", "type": "text"},
			}}},
		}},
	})
	req.Databases = []Database{
		{Server: "database_mcp", Name: "Database MCP Server", Dialect: "sqlite", Today: "2026-11-22",
			Domains: []string{"sales", "orders"}, Sources: []string{"database_mcp", "product_metadata_mcp"}},
		{Server: "shop_db", Name: "Bike Shop", Dialect: "postgres", Today: "2026-05-20",
			Domains: []string{"bikes"}, Sources: []string{"shop_db"}},
	}
	return req
}

func TestBuildPromptSeveralDatabasesGolden(t *testing.T) {
	req := twoDatabases()
	checkPromptGolden(t, "prompt_multi.golden", req)
	req.Repair = goldenRepair()
	req.Repair.Server = "database_mcp"
	checkPromptGolden(t, "prompt_multi_repair.golden", req)
}

// TestBuildPromptSeveralDatabases: each database is a named source with
// its dialect, date, domains and servers; the contract names the server;
// both dialects' rules are given; a single database's prompt is unchanged.
func TestBuildPromptSeveralDatabases(t *testing.T) {
	req := twoDatabases()
	system, user := BuildPrompt(req)
	for _, want := range []string{
		`"server": "<id of the one database the SQL runs on>"`,
		"never join, union or compare tables of two databases",
		`answer with "sql": ""`,
		"SQLite specifics", "PostgreSQL specifics",
	} {
		if !strings.Contains(system, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	for _, want := range []string{
		"- database_mcp (Database MCP Server): dialect sqlite, today 2026-11-22, domains sales, orders; described by servers database_mcp, product_metadata_mcp",
		"- shop_db (Bike Shop): dialect postgres, today 2026-05-20, domains bikes; described by servers shop_db",
	} {
		if !strings.Contains(user, want) {
			t.Errorf("user prompt lacks %q:\n%s", want, user)
		}
	}
	if strings.Contains(user, "\nDialect: ") {
		t.Error("with several databases the prompt must not name one dialect for all")
	}
	req.Repair = &Repair{Attempt: 1, FailedSQL: "SELEC 1 FROM \"SalesOrder\"", Error: "syntax error at or near \"SELEC\"",
		Category: sqlerr.SyntaxError, Server: "shop_db"}
	_, user = BuildPrompt(req)
	if !strings.Contains(user, "Failed SQL (for database shop_db)") || !strings.Contains(user, "PostgreSQL:") {
		t.Errorf("repair prompt does not follow the failed SQL's database:\n%s", user)
	}

	single := sampleRequest()
	single.Databases = req.Databases[:1]
	s1, u1 := BuildPrompt(single)
	s0, u0 := BuildPrompt(sampleRequest())
	if s1 != s0 || u1 != u0 {
		t.Error("a request with one database listed must build the same prompt as one without")
	}
	if strings.Contains(s0, `"server"`) {
		t.Error("the single-database contract must not ask for a server")
	}
}

func TestParseResponseServer(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"string", `{"server": " shop_db ", "sql": "SELECT 1"}`, "shop_db"},
		{"list of one", `{"server": ["shop_db"], "sql": "SELECT 1"}`, "shop_db"},
		{"list of two", `{"server": ["a", "b"], "sql": "SELECT 1"}`, ""},
		{"number", `{"server": 3, "sql": "SELECT 1"}`, ""},
		{"absent", `{"sql": "SELECT 1"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseResponse(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if p.Server != tc.want {
				t.Errorf("server = %q, want %q", p.Server, tc.want)
			}
		})
	}
}

// TestParseAnswerCrossDatabase: with several databases, an answer with no
// SQL that explains itself declines with the model's words; with one it
// stays an invalid answer, and SQL is never turned into a decline.
func TestParseAnswerCrossDatabase(t *testing.T) {
	const noSQL = `{"server": "", "sql": "", "explanation": "needs database_mcp (sales) and shop_db (bike orders)"}`
	_, err := ParseAnswer(twoDatabases(), noSQL)
	var ge *SQLGenerationError
	if !errors.As(err, &ge) || ge.Reason != ReasonDeclined || !strings.Contains(ge.Message, "database_mcp") ||
		!strings.Contains(ge.Hint, `"shop_db"`) {
		t.Fatalf("err = %#v, want a decline naming both databases", err)
	}
	_, err = ParseAnswer(sampleRequest(), noSQL)
	if !errors.As(err, &ge) || ge.Reason != ReasonInvalidSQL {
		t.Fatalf("single database: err = %v, want invalid_sql", err)
	}
	_, err = ParseAnswer(twoDatabases(), `{"sql": ""}`)
	if !errors.As(err, &ge) || ge.Reason != ReasonInvalidSQL {
		t.Fatalf("no explanation: err = %v, want invalid_sql", err)
	}
	p, err := ParseAnswer(twoDatabases(), `{"server": "shop_db", "sql": "SELECT 1", "explanation": "x"}`)
	if err != nil || p.Server != "shop_db" {
		t.Fatalf("plan %+v, err %v", p, err)
	}
}

func TestDatabaseNames(t *testing.T) {
	dbs := twoDatabases().Databases
	if got := DatabaseNames(dbs); got != `"database_mcp" or "shop_db"` {
		t.Errorf("got %s", got)
	}
	dbs = append(dbs, Database{Server: "c"})
	if got := DatabaseNames(dbs); got != `"database_mcp", "shop_db" or "c"` {
		t.Errorf("got %s", got)
	}
	req := twoDatabases()
	if s := req.ServersOf(req.Databases[0]); len(s) != 2 || s[0].ID != "database_mcp" || s[1].ID != "product_metadata_mcp" {
		t.Errorf("ServersOf = %v", s)
	}
}
