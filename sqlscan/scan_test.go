package sqlscan

import (
	"errors"
	"strings"
	"testing"

	"talk2tables/sqlerr"
)

// tok is a compact expected token: kind and text.
type tok struct {
	kind Kind
	text string
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		name    string
		sql     string
		want    []tok
		wantErr string // "" = no unterminated token
	}{
		{"words numbers punct", "SELECT a1, 2.5e-3 FROM t;", []tok{{Word, "SELECT"}, {Word, "a1"}, {Punct, ","}, {Number, "2.5e-3"}, {Word, "FROM"}, {Word, "t"}, {Punct, ";"}}, ""},
		{"leading dot number", "SELECT .5", []tok{{Word, "SELECT"}, {Number, ".5"}}, ""},
		{"dollar inside word", "a$b", []tok{{Word, "a$b"}}, ""},
		{"comments and whitespace dropped", "-- x ; DELETE\n/* ; */\tSELECT\f1", []tok{{Word, "SELECT"}, {Number, "1"}}, ""},
		{"line comment at end", "SELECT 1 -- bye", []tok{{Word, "SELECT"}, {Number, "1"}}, ""},
		{"string with doubled quote", "'it''s; fine'", []tok{{String, "'it''s; fine'"}}, ""},
		{"blob", "X'00ff' x'0A'", []tok{{String, "X'00ff'"}, {String, "x'0A'"}}, ""},
		{"quoted identifiers", "\"a;\" `b;` [c;]", []tok{{Quoted, `"a;"`}, {Quoted, "`b;`"}, {Quoted, "[c;]"}}, ""},
		{"parameters", "? ?1 :id @n $v", []tok{{Param, "?"}, {Param, "?1"}, {Param, ":id"}, {Param, "@n"}, {Param, "$v"}}, ""},
		{"lone colon is punct", "a : b", []tok{{Word, "a"}, {Punct, ":"}, {Word, "b"}}, ""},
		{"operators", "a||b<=c>=d<>e!=f==g<<h>>i->j->>k", []tok{{Word, "a"}, {Punct, "||"}, {Word, "b"}, {Punct, "<="}, {Word, "c"}, {Punct, ">="}, {Word, "d"}, {Punct, "<>"}, {Word, "e"}, {Punct, "!="}, {Word, "f"}, {Punct, "=="}, {Word, "g"}, {Punct, "<<"}, {Word, "h"}, {Punct, ">>"}, {Word, "i"}, {Punct, "->"}, {Word, "j"}, {Punct, "->>"}, {Word, "k"}}, ""},
		{"template braces", "{date_column}", []tok{{Punct, "{"}, {Word, "date_column"}, {Punct, "}"}}, ""},
		{"utf8 glues to word", "\u200bDELETE", []tok{{Word, "\u200bDELETE"}}, ""},
		{"unterminated string", "SELECT 'abc", []tok{{Word, "SELECT"}, {String, "'abc"}}, "unterminated string starting at offset 7"},
		{"unterminated comment", "SELECT 1 /* ; DELETE", []tok{{Word, "SELECT"}, {Number, "1"}}, "unterminated /* comment at offset 9"},
		{"unterminated double quote", `SELECT "ab`, []tok{{Word, "SELECT"}, {Quoted, `"ab`}}, "unterminated quoted identifier starting at offset 7"},
		{"unterminated bracket", "SELECT [ab", []tok{{Word, "SELECT"}, {Quoted, "[ab"}}, "unterminated [identifier at offset 7"},
		{"first unterminated wins", "'a", []tok{{String, "'a"}}, "unterminated string starting at offset 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, err := Tokenize(tt.sql)
			got := make([]tok, len(toks))
			for i, x := range toks {
				got[i] = tok{x.Kind, x.Text}
			}
			if !equalToks(got, tt.want) {
				t.Errorf("Tokenize(%q) = %v, want %v", tt.sql, got, tt.want)
			}
			if tt.wantErr == "" {
				if err != nil {
					t.Errorf("Tokenize(%q) error = %v, want nil", tt.sql, err)
				}
				return
			}
			var se *sqlerr.Error
			if !errors.As(err, &se) || se.Category != sqlerr.SyntaxError || se.Message != tt.wantErr {
				t.Errorf("Tokenize(%q) error = %v, want %s %q", tt.sql, err, sqlerr.SyntaxError, tt.wantErr)
			}
		})
	}
}

func equalToks(a, b []tok) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestTokenUpper(t *testing.T) {
	tests := []struct {
		name, sql, want string
	}{
		{"word", "select", "SELECT"},
		{"double quoted with escape", `"we""ird"`, `WE"IRD`},
		{"backtick", "`ab`", "AB"},
		{"bracket", "[my col]", "MY COL"},
		{"unterminated quoted", `"ab`, "AB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, _ := Tokenize(tt.sql)
			if len(toks) != 1 || toks[0].Upper != tt.want {
				t.Fatalf("Tokenize(%q) = %+v, want one token with Upper %q", tt.sql, toks, tt.want)
			}
			if !toks[0].IsIdent() {
				t.Errorf("IsIdent() = false, want true")
			}
		})
	}
}

func TestCheckReadOnly(t *testing.T) {
	perm, syntax := sqlerr.PermissionError, sqlerr.SyntaxError
	tests := []struct {
		name    string
		sql     string
		want    sqlerr.Category // "" = allowed
		wantMsg string
	}{
		{"select", "SELECT 1", "", ""},
		{"lower case", "select 1", "", ""},
		{"trailing semicolons and comments", "SELECT 1 ; ; -- bye\n/* x */", "", ""},
		{"leading comment", "-- hi\n/* there */ SELECT 1", "", ""},
		{"parenthesised select", "(SELECT 1)", "", ""},
		{"values", "VALUES (1), (2)", "", ""},
		{"with select", "WITH a(x) AS (SELECT 1), b AS MATERIALIZED (SELECT 2) SELECT * FROM a, b", "", ""},
		{"with recursive", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM c WHERE n < 5) SELECT n FROM c", "", ""},
		{"with values", "WITH a AS (SELECT 1) VALUES (1)", "", ""},
		{"with nested delete in string", "WITH a AS (SELECT 'DELETE') SELECT * FROM a", "", ""},
		{"explain", "EXPLAIN SELECT 1", "", ""},
		{"explain query plan with", "EXPLAIN QUERY PLAN WITH a AS (SELECT 1) SELECT * FROM a", "", ""},
		{"semicolons inside tokens", "SELECT 'a;b', 'it''s; fine' AS \"a;\", 2 AS `b;`, 3 AS [c;]", "", ""},
		{"semicolon in comment", "SELECT 1 /* ; DELETE */ -- ; DROP\n", "", ""},
		{"unterminated comment runs to the end", "SELECT 1 /* ; DELETE FROM sales", "", ""},
		{"unterminated string left to the database", "SELECT 'a; DELETE FROM sales", "", ""},
		{"keyword inside identifier", "SELECT updated_at, deleted FROM t", "", ""},
		{"json operator", "SELECT data ->> '$.a' FROM t", "", ""},
		{"two statements", "SELECT 1; SELECT 2", perm, "more than one statement: send exactly one statement; " + ReadOnlyMessage},
		{"statement after comment", "SELECT 1; -- x\nDELETE FROM t", perm, "more than one statement"},
		{"nbsp after semicolon", "SELECT 1;\u00a0DELETE FROM sales", perm, "more than one statement"},
		{"write", "insert into t values (1)", perm, "INSERT is not allowed: " + ReadOnlyMessage},
		{"comment hiding update", "/* SELECT */ UPDATE sales SET quantity = 0", perm, "UPDATE is not allowed"},
		{"parenthesised delete", "(DELETE FROM sales)", perm, "DELETE is not allowed"},
		{"pragma", "PRAGMA writable_schema = 1", perm, "PRAGMA is not allowed"},
		{"attach", "ATTACH DATABASE 'x.db' AS x", perm, "ATTACH is not allowed"},
		{"with write", "WITH a AS (SELECT 1) UPDATE t SET x = 1", perm, "WITH ... UPDATE is not allowed: " + ReadOnlyMessage},
		{"with drop", "WITH a AS (SELECT 1) DROP TABLE t", perm, "WITH ... DROP is not allowed"},
		{"explain write", "EXPLAIN QUERY PLAN DROP TABLE t", perm, "DROP is not allowed"},
		{"explain with delete", "EXPLAIN WITH x AS (SELECT 1) DELETE FROM t", perm, "WITH ... DELETE is not allowed"},
		{"with only", "WITH a AS (SELECT 1)", syntax, "incomplete input: WITH must be followed by a SELECT statement"},
		{"explain alone", "EXPLAIN", syntax, "incomplete input: the query has no statement"},
		{"empty", "", syntax, "empty query: send one SELECT statement"},
		{"only semicolons", " \n\t;; ", syntax, "empty query"},
		{"only a comment", "/* SELECT 1 */", syntax, "empty query"},
		{"parentheses only", "((", syntax, "incomplete input: the query has no statement"},
		{"number first", "1", syntax, `query must start with SELECT, WITH, VALUES or EXPLAIN, not "1"`},
		{"unknown keyword", "selec 1", syntax, `query must start with SELECT, WITH, VALUES or EXPLAIN, not "SELEC"`},
		{"zero width space", "\u200bDELETE FROM sales", syntax, "query must start with"},
		{"fullwidth letters", "ＤＥＬＥＴＥ FROM sales", syntax, "query must start with"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := CheckReadOnly(tt.sql)
			if tt.want == "" {
				if e != nil {
					t.Fatalf("CheckReadOnly(%q) = %v, want nil", tt.sql, e)
				}
				return
			}
			if e == nil || e.Category != tt.want || !strings.Contains(e.Message, tt.wantMsg) {
				t.Fatalf("CheckReadOnly(%q) = %v, want %s containing %q", tt.sql, e, tt.want, tt.wantMsg)
			}
		})
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"SELECT 1", "SELECT 'a;b' -- c\n/* d */ FROM [t] WHERE \"x\" = `y`", "WITH a AS (SELECT 1) DELETE FROM t",
		"'", "\"", "`", "[", "/*", "/**/", "--", "X'", "?1 :a @b $c", "1e+5 .5 ->> ||", "\u200b\xff\xfe", "EXPLAIN QUERY PLAN",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		all := Scan(s)
		var b strings.Builder
		pos := 0
		for i, tk := range all {
			if tk.Text == "" {
				t.Fatalf("token %d of %q is empty", i, s)
			}
			if tk.Pos != pos {
				t.Fatalf("token %d of %q at %d, want %d", i, s, tk.Pos, pos)
			}
			if tk.Unterminated && i != len(all)-1 {
				t.Fatalf("unterminated token %d of %q is not the last", i, s)
			}
			if tk.Kind == Word && tk.Upper == "" {
				t.Fatalf("word %q has no Upper", tk.Text)
			}
			pos += len(tk.Text)
			b.WriteString(tk.Text)
		}
		if b.String() != s {
			t.Fatalf("tokens of %q concatenate to %q", s, b.String())
		}
		toks, err := Tokenize(s)
		if (err != nil) != (len(all) > 0 && all[len(all)-1].Unterminated) {
			t.Fatalf("Tokenize(%q) error = %v, disagrees with Scan", s, err)
		}
		for _, tk := range toks {
			if tk.Kind == Space || tk.Kind == Comment {
				t.Fatalf("Tokenize(%q) kept %s token %q", s, tk.Kind, tk.Text)
			}
		}
		e := CheckReadOnly(s)
		if e != nil && e.Category != sqlerr.PermissionError && e.Category != sqlerr.SyntaxError {
			t.Fatalf("CheckReadOnly(%q) category = %s", s, e.Category)
		}
		if e == nil {
			i := 0
			for i < len(toks) && toks[i].IsPunct("(") {
				i++
			}
			if i == len(toks) || !(toks[i].IsWord("SELECT") || toks[i].IsWord("VALUES") || toks[i].IsWord("WITH") || toks[i].IsWord("EXPLAIN")) {
				t.Fatalf("CheckReadOnly(%q) allowed a query that does not start with SELECT, VALUES, WITH or EXPLAIN", s)
			}
		}
	})
}
