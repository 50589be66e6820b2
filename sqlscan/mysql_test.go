package sqlscan

import (
	"strings"
	"testing"

	"talk2tables/sqlerr"
)

func TestMySQLTokenize(t *testing.T) {
	tests := []struct {
		name string
		mode mysqlMode
		sql  string
		want []tok
	}{
		{"backslash escapes a quote", mysqlMode{}, `'a\'b' x`, []tok{{String, `'a\'b'`}, {Word, "x"}}},
		{"doubled quote", mysqlMode{}, `'a''b'`, []tok{{String, `'a''b'`}}},
		{"double quotes are strings", mysqlMode{}, `"a\"b;" x`, []tok{{String, `"a\"b;"`}, {Word, "x"}}},
		{"ANSI_QUOTES: double quotes are identifiers", mysqlMode{ansiQuotes: true}, `"a\" x`, []tok{{Quoted, `"a\"`}, {Word, "x"}}},
		{"NO_BACKSLASH_ESCAPES", mysqlMode{noBackslashEscapes: true}, `'a\' x`, []tok{{String, `'a\'`}, {Word, "x"}}},
		{"backticks have no escapes", mysqlMode{}, "`a\\` `b``c`", []tok{{Quoted, "`a\\`"}, {Quoted, "`b``c`"}}},
		{"hash comment", mysqlMode{}, "1 # ; DELETE\n2", []tok{{Number, "1"}, {Number, "2"}}},
		{"dash dash space comment", mysqlMode{}, "1 -- ; x\n2", []tok{{Number, "1"}, {Number, "2"}}},
		{"dash dash tab comment", mysqlMode{}, "1 --\t; x\n2", []tok{{Number, "1"}, {Number, "2"}}},
		{"dash dash at the end", mysqlMode{}, "1 --", []tok{{Number, "1"}}},
		{"dash dash without space is minus minus", mysqlMode{}, "1--1", []tok{{Number, "1"}, {Punct, "-"}, {Punct, "-"}, {Number, "1"}}},
		{"comments do not nest", mysqlMode{}, "/* /* */ x */", []tok{{Word, "x"}, {Punct, "*"}, {Punct, "/"}}},
		{"executable comment is kept", mysqlMode{}, "1 /*!50000 x */ 2", []tok{{Number, "1"}, {Comment, "/*!50000 x */"}, {Number, "2"}}},
		{"MariaDB executable comment is kept", mysqlMode{}, "/*M!100000 x */", []tok{{Comment, "/*M!100000 x */"}}},
		{"optimizer hint is kept", mysqlMode{}, "/*+ BKA(t) */", []tok{{Comment, "/*+ BKA(t) */"}}},
		{"hex and bit strings", mysqlMode{}, `X'0a' b'01' N'n\'o'`, []tok{{String, "X'0a'"}, {String, "b'01'"}, {Word, "N"}, {String, `'n\'o'`}}},
		{"charset introducer", mysqlMode{}, "_utf8mb4'x'", []tok{{Word, "_utf8mb4"}, {String, "'x'"}}},
		{"variables", mysqlMode{}, "@x @@global.sql_mode @'q' ?", []tok{{Param, "@x"}, {Param, "@@global"}, {Punct, "."}, {Word, "sql_mode"}, {Param, "@"}, {String, "'q'"}, {Param, "?"}}},
		{"operators", mysqlMode{}, "a:=b<=>c&&d->>e", []tok{{Word, "a"}, {Punct, ":="}, {Word, "b"}, {Punct, "<=>"}, {Word, "c"}, {Punct, "&&"}, {Word, "d"}, {Punct, "->>"}, {Word, "e"}}},
		{"dollar identifiers", mysqlMode{}, "$a b$c", []tok{{Word, "$a"}, {Word, "b$c"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, _ := MySQL.tokenize(tt.sql, tt.mode)
			got := make([]tok, len(toks))
			for i, x := range toks {
				got[i] = tok{x.Kind, x.Text}
			}
			if !equalToks(got, tt.want) {
				t.Errorf("tokenize(%q, %+v) = %v, want %v", tt.sql, tt.mode, got, tt.want)
			}
		})
	}
}

// TestMySQLCheckReadOnly covers the queries analysts write (which must
// pass) and the refusals whose message matters; the hostile set is in
// TestHostileSetStatic.
func TestMySQLCheckReadOnly(t *testing.T) {
	tests := []struct {
		sql  string
		want sqlerr.Category
		msg  string // part of the message, when refused
	}{
		{"SELECT `order id`, DATE_FORMAT(order_date, '%Y-%m') AS m FROM `orders` WHERE note = 'it\\'s # not -- a comment'", "", ""},
		{"SELECT \"a;b\", 'x''y' FROM dual", "", ""},
		{"SELECT 1--1", "", ""},
		{"SELECT YEAR(d), COUNT(*) FROM t GROUP BY YEAR(d) ORDER BY 1 LIMIT 10;", "", ""},
		{"WITH m AS (SELECT 1 AS x) SELECT x FROM m", "", ""},
		{"EXPLAIN FORMAT=JSON SELECT 1", "", ""},
		{"EXPLAIN ANALYZE SELECT 1", "", ""},
		{"TABLE products", "", ""},
		{"VALUES ROW(1, 2)", "", ""},
		{"(SELECT 1) UNION (SELECT 2)", "", ""},
		{"SELECT @@version, CURRENT_USER()", "", ""},
		{"SELECT x FROM t WHERE a <=> b AND c -> '$.k' IS NOT NULL", "", ""},
		{"SELECT 'a\\'' ; DELETE FROM t; -- '", sqlerr.PermissionError, "more than one statement"},
		{"SELECT \"a\\\"; DELETE FROM t; -- \"", sqlerr.PermissionError, "sql_mode ANSI_QUOTES"},
		{"SELECT 'a\\'; DELETE FROM t; -- '", sqlerr.PermissionError, "sql_mode NO_BACKSLASH_ESCAPES"},
		{"SELECT 1 /*!50000 , 2 */", sqlerr.PermissionError, "executable comments"},
		{"SELECT /*+ SET_VAR(max_execution_time = 0) */ 1", sqlerr.PermissionError, "optimizer hints"},
		{"SELECT @a := 1", sqlerr.PermissionError, "assigning variables"},
		{"SELECT 1 INTO OUTFILE '/tmp/x'", sqlerr.PermissionError, "INTO writes a file"},
		{"SELECT sleep(1)", sqlerr.PermissionError, "function SLEEP"},
		{"EXPLAIN FOR CONNECTION 4", sqlerr.SyntaxError, "must start with"},
		{"SHOW TABLES", sqlerr.PermissionError, "SHOW is not allowed"},
		{"DESCRIBE t", sqlerr.SyntaxError, "must start with"},
	}
	for _, tt := range tests {
		e := MySQL.CheckReadOnly(tt.sql)
		var got sqlerr.Category
		if e != nil {
			got = e.Category
		}
		if got != tt.want || (e != nil && !strings.Contains(e.Message, tt.msg)) {
			t.Errorf("MySQL.CheckReadOnly(%q) = %v, want %q with %q", tt.sql, e, tt.want, tt.msg)
		}
	}
}

// TestDialectsReadDifferently is the bug of issue 22: one text, two
// readings. SQLite sees a single SELECT of two strings, MySQL a SELECT and a
// DELETE; each dialect's check must follow its own engine.
func TestDialectsReadDifferently(t *testing.T) {
	q := `SELECT 'a\'' ; DELETE FROM t; -- '`
	if e := SQLite.CheckReadOnly(q); e != nil {
		t.Errorf("SQLite.CheckReadOnly(%q) = %v, want nil (SQLite has no backslash escapes: one statement)", q, e)
	}
	if e := MySQL.CheckReadOnly(q); e == nil || e.Category != sqlerr.PermissionError {
		t.Errorf("MySQL.CheckReadOnly(%q) = %v, want PERMISSION_ERROR (MySQL reads a DELETE)", q, e)
	}
	if e := Postgres.CheckReadOnly(q); e != nil {
		t.Errorf("Postgres.CheckReadOnly(%q) = %v, want nil (standard strings: one statement)", q, e)
	}
}

func FuzzMySQLScan(f *testing.F) {
	for _, s := range []string{
		`'a\'b'`, `"x\"`, "`a``b`", "# c\n", "-- c", "--1", "/*!1 x */", "/*M!1*/", "/*+ h */", "@`v`", "x'0a'", "'\\", "/*",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, mode := range mysqlModes {
			all := MySQL.scan(s, mode)
			var b strings.Builder
			for i, tk := range all {
				if tk.Text == "" {
					t.Fatalf("token %d of %q is empty", i, s)
				}
				if tk.Unterminated && i != len(all)-1 {
					t.Fatalf("unterminated token %d of %q is not the last", i, s)
				}
				b.WriteString(tk.Text)
			}
			if b.String() != s {
				t.Fatalf("tokens of %q concatenate to %q", s, b.String())
			}
		}
		if e := MySQL.CheckReadOnly(s); e != nil && e.Category != sqlerr.PermissionError && e.Category != sqlerr.SyntaxError {
			t.Fatalf("MySQL.CheckReadOnly(%q) category = %s", s, e.Category)
		}
	})
}
