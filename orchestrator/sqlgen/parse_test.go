package sqlgen

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"talk2tables/sqlerr"
)

func TestCheckReadOnly(t *testing.T) {
	tests := []struct {
		name    string
		sql     string
		wantErr string // "" = read-only
	}{
		{"select", "SELECT 1", ""},
		{"lower case with trailing semicolon", "select region from sales;", ""},
		{"leading comments", "-- total\n/* block */ SELECT 1", ""},
		{"with select", "WITH t AS (SELECT 1 AS x) SELECT x FROM t", ""},
		{"with recursive", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM c WHERE n < 5) SELECT n FROM c", ""},
		{"explain query plan", "EXPLAIN QUERY PLAN SELECT * FROM sales", ""},
		{"values", "VALUES (1), (2)", ""},
		{"semicolon in string", "SELECT 'a;b' AS x", ""},
		{"keyword in string", "SELECT 'DELETE FROM sales' AS x", ""},
		{"semicolon in comment", "SELECT 1 -- ; DROP TABLE sales", ""},
		{"escaped quote", "SELECT 'it''s; fine'", ""},
		{"quoted identifier with semicolon", `SELECT "we;ird" FROM t`, ""},
		{"two semicolons at end", "SELECT 1;;", ""},
		{"json operator", "SELECT data ->> '$.a' FROM t", ""},
		{"empty", "   ", "empty"},
		{"only comment", "-- nothing", "empty"},
		{"two statements", "SELECT 1; SELECT 2", "more than one statement"},
		{"stacked drop", "SELECT 1; DROP TABLE sales", "more than one statement"},
		{"delete", "DELETE FROM sales", "DELETE is not allowed"},
		{"insert", "INSERT INTO sales VALUES (1)", "INSERT is not allowed"},
		{"pragma", "PRAGMA writable_schema = 1", "PRAGMA is not allowed"},
		{"attach", "ATTACH DATABASE 'x.db' AS x", "ATTACH is not allowed"},
		{"comment hiding update", "/* SELECT */ UPDATE sales SET quantity = 0", "UPDATE is not allowed"},
		{"with delete", "WITH t AS (SELECT 1) DELETE FROM sales", "WITH ... DELETE"},
		{"explain delete", "EXPLAIN DELETE FROM sales", "DELETE is not allowed"},
		{"question mark placeholder", "SELECT * FROM products WHERE product_id = ?", "placeholder ?"},
		{"named placeholder", "SELECT * FROM products WHERE product_id = :id", "placeholder :id"},
		{"template placeholder", "SELECT * FROM sales WHERE {date_column} >= date('now')", "{date_column}"},
		{"unterminated string", "SELECT 'abc", "unterminated string"},
		{"unterminated comment", "SELECT 1 /* oops", "unterminated /*"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckReadOnly(tt.sql)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("CheckReadOnly(%q) = %v, want nil", tt.sql, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("CheckReadOnly(%q) = %v, want error containing %q", tt.sql, err, tt.wantErr)
			}
		})
	}
}

// TestCheckReadOnlyCategory checks that a refusal carries the category the
// database MCP server would report for the same SQL.
func TestCheckReadOnlyCategory(t *testing.T) {
	tests := []struct {
		name string
		sql  string
		want sqlerr.Category
	}{
		{"write", "DELETE FROM sales", sqlerr.PermissionError},
		{"second statement", "SELECT 1; SELECT 2", sqlerr.PermissionError},
		{"with drop", "WITH t AS (SELECT 1) DROP TABLE sales", sqlerr.PermissionError},
		{"unknown keyword", "SELEC 1", sqlerr.SyntaxError},
		{"empty", "", sqlerr.SyntaxError},
		{"unterminated string", "SELECT 'abc", sqlerr.SyntaxError},
		{"placeholder", "SELECT ?", sqlerr.SyntaxError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckReadOnly(tt.sql)
			var se *sqlerr.Error
			if !errors.As(err, &se) || se.Category != tt.want {
				t.Fatalf("CheckReadOnly(%q) = %v, want a *sqlerr.Error with category %s", tt.sql, err, tt.want)
			}
			if strings.HasPrefix(err.Error(), string(tt.want)) {
				t.Errorf("error text = %q, want the bare message without the category", err.Error())
			}
		})
	}
}

func TestParseResponse(t *testing.T) {
	const sql = "SELECT SUM(total_amount) FROM sales WHERE product_id = 123"
	tests := []struct {
		name       string
		text       string
		wantSQL    string
		wantEnt    map[string]map[string]string
		wantConf   float64
		wantExpl   string
		wantAssume []string
		wantReason Reason // "" = success
		wantMsg    string
	}{
		{name: "contract", text: `{"sql": "` + sql + `", "resolved_entities": {"abracadabra": {"products.product_id": "123"}}, "explanation": "sum", "confidence": 0.8}`,
			wantSQL: sql, wantEnt: map[string]map[string]string{"abracadabra": {"products.product_id": "123"}}, wantConf: 0.8, wantExpl: "sum"},
		{name: "assumptions", text: `{"sql": "` + sql + `", "assumptions": ["2026-07-01 to 2026-09-30", " ", 3]}`,
			wantSQL: sql, wantAssume: []string{"2026-07-01 to 2026-09-30"}},
		{name: "one assumption as a string", text: `{"sql": "` + sql + `", "assumptions": "all statuses"}`,
			wantSQL: sql, wantAssume: []string{"all statuses"}},
		{name: "numeric entity values", text: `{"sql": "` + sql + `", "resolved_entities": {"abra": {"products.product_id": 123, "products.price": 9.5}}}`,
			wantSQL: sql, wantEnt: map[string]map[string]string{"abra": {"products.product_id": "123", "products.price": "9.5"}}},
		{name: "string entity value", text: `{"sql": "` + sql + `", "resolved_entities": {"abra": "products.product_id = 123"}}`,
			wantSQL: sql, wantEnt: map[string]map[string]string{"abra": {"value": "products.product_id = 123"}}},
		{name: "json fence", text: "```json\n{\"sql\": \"" + sql + ";\", \"confidence\": \"0.7\"}\n```", wantSQL: sql, wantConf: 0.7},
		{name: "json inside prose", text: "Sure! Here is the query:\n{\"sql\": \"" + sql + "\", \"explanation\": \"uses {braces} in text\"}\nHope it helps.",
			wantSQL: sql, wantExpl: "uses {braces} in text"},
		{name: "braces before the object", text: "Note {this}. {\"sql\": \"" + sql + "\"}", wantSQL: sql},
		{name: "nested json object other key first", text: `{"meta": {"a": 1}, "sql": "` + sql + `"}`, wantSQL: sql},
		{name: "query key instead of sql", text: `{"query": "` + sql + `"}`, wantSQL: sql},
		{name: "percent confidence", text: `{"sql": "` + sql + `", "confidence": 85}`, wantSQL: sql, wantConf: 0.85},
		{name: "sql fence", text: "Here you go:\n```sql\n" + sql + ";\n```\nDone.", wantSQL: sql},
		{name: "SQLite fence upper case", text: "```SQLite\n" + sql + "\n```", wantSQL: sql},
		{name: "plain fence starting with SELECT", text: "```\n" + sql + "\n```", wantSQL: sql},
		{name: "python fence then sql fence", text: "```python\nprint(1)\n```\n```sql\n" + sql + "\n```", wantSQL: sql},
		{name: "bare sql", text: sql + ";", wantSQL: sql},
		{name: "bare with query", text: "WITH t AS (SELECT 1 AS x) SELECT x FROM t", wantSQL: "WITH t AS (SELECT 1 AS x) SELECT x FROM t"},
		{name: "unterminated sql fence", text: "```sql\n" + sql, wantSQL: sql},
		{name: "empty", text: "  \n", wantReason: ReasonInvalidSQL, wantMsg: "empty answer"},
		{name: "garbage", text: "I'm sorry, I can't help with that.", wantReason: ReasonInvalidSQL, wantMsg: "neither"},
		{name: "broken json", text: `{"sql": "SELECT 1`, wantReason: ReasonInvalidSQL, wantMsg: "neither"},
		{name: "json without sql", text: `{"answer": 42}`, wantReason: ReasonInvalidSQL, wantMsg: "neither"},
		{name: "empty sql with explanation", text: `{"sql": "", "explanation": "no table holds weather data"}`, wantReason: ReasonInvalidSQL, wantMsg: "no table holds weather data"},
		// SQL that is broken or not read-only is still SQL: the attempt loop
		// records it, refuses writes and repairs the rest.
		{name: "write statement", text: `{"sql": "DELETE FROM sales"}`, wantSQL: "DELETE FROM sales"},
		{name: "bare write", text: "ATTACH DATABASE 'x.db' AS x;", wantSQL: "ATTACH DATABASE 'x.db' AS x"},
		{name: "write in plain fence", text: "```\nUPDATE sales SET quantity = 0\n```", wantSQL: "UPDATE sales SET quantity = 0"},
		{name: "two statements in fence", text: "```sql\nSELECT 1; DROP TABLE sales;\n```", wantSQL: "SELECT 1; DROP TABLE sales"},
		{name: "placeholder left", text: `{"sql": "SELECT * FROM sales WHERE {date_column} > date('now')"}`, wantSQL: "SELECT * FROM sales WHERE {date_column} > date('now')"},
		{name: "typo in contract", text: `{"sql": "SELEC region FORM sales"}`, wantSQL: "SELEC region FORM sales"},
		{name: "bare typo", text: "SELEC region FORM sales", wantSQL: "SELEC region FORM sales"},
		{name: "prose", text: "Sure, I can do that: selecting the regions now.", wantReason: ReasonInvalidSQL, wantMsg: "neither"},
		{name: "lower-case near miss is prose", text: "selec the regions", wantReason: ReasonInvalidSQL, wantMsg: "neither"},
		{name: "non-query fence only", text: "```\nprint('hi')\n```", wantReason: ReasonInvalidSQL, wantMsg: "neither"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseResponse(tt.text)
			if tt.wantReason != "" {
				var ge *SQLGenerationError
				if !errors.As(err, &ge) || ge.Reason != tt.wantReason {
					t.Fatalf("ParseResponse err = %v, want SQLGenerationError %s", err, tt.wantReason)
				}
				if !strings.Contains(ge.Message, tt.wantMsg) {
					t.Errorf("message = %q, want containing %q", ge.Message, tt.wantMsg)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseResponse: %v", err)
			}
			if p.SQL != tt.wantSQL {
				t.Errorf("SQL = %q, want %q", p.SQL, tt.wantSQL)
			}
			if p.Confidence != tt.wantConf {
				t.Errorf("Confidence = %v, want %v", p.Confidence, tt.wantConf)
			}
			if !slices.Equal(p.Assumptions, tt.wantAssume) {
				t.Errorf("Assumptions = %q, want %q", p.Assumptions, tt.wantAssume)
			}
			if p.Explanation != tt.wantExpl {
				t.Errorf("Explanation = %q, want %q", p.Explanation, tt.wantExpl)
			}
			if p.ResolvedEntities == nil {
				t.Fatal("ResolvedEntities = nil, want a map")
			}
			for phrase, cols := range tt.wantEnt {
				for col, v := range cols {
					if got := p.ResolvedEntities[phrase][col]; got != v {
						t.Errorf("ResolvedEntities[%q][%q] = %q, want %q", phrase, col, got, v)
					}
				}
			}
			if len(p.ResolvedEntities) != len(tt.wantEnt) {
				t.Errorf("ResolvedEntities = %v, want %v", p.ResolvedEntities, tt.wantEnt)
			}
		})
	}
}

func FuzzParseResponse(f *testing.F) {
	for _, s := range []string{`{"sql":"SELECT 1"}`, "```sql\nSELECT 1\n```", "SELECT 'a", "{{{", "```", `{"sql": 5}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseResponse(s)
		if err == nil {
			if p.SQL == "" {
				t.Fatal("success with empty SQL")
			}
			if strings.TrimSpace(p.SQL) != p.SQL || strings.HasSuffix(p.SQL, ";") {
				t.Fatalf("SQL %q not trimmed", p.SQL)
			}
		}
		_ = CheckAggregation(s)
	})
}

func TestCheckReadOnlyIn(t *testing.T) {
	cast := "SELECT date_trunc('month', sale_date)::date AS month, sum(total_amount) FROM sales GROUP BY 1"
	if err := CheckReadOnlyIn("postgres", cast); err != nil {
		t.Errorf("CheckReadOnlyIn(postgres, cast) = %v, want nil", err)
	}
	if err := CheckReadOnly(cast); err == nil || !strings.Contains(err.Error(), "parameter placeholder :date") {
		t.Errorf("CheckReadOnly (sqlite) of a cast = %v, want the placeholder refusal", err)
	}
	if err := CheckReadOnlyIn("postgres", "SELECT * FROM sales FOR UPDATE"); sqlerr.CategoryOf(err) != sqlerr.PermissionError {
		t.Errorf("CheckReadOnlyIn(postgres, FOR UPDATE) = %v, want PERMISSION_ERROR", err)
	}
}
