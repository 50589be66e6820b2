package sqlscan

import (
	"strings"
	"testing"

	"talk2tables/sqlerr"
)

func TestPostgresTokenize(t *testing.T) {
	tests := []struct {
		name    string
		sql     string
		want    []tok
		wantErr string
	}{
		{"cast is one punct", "SELECT x::text, y :: int", []tok{{Word, "SELECT"}, {Word, "x"}, {Punct, "::"}, {Word, "text"}, {Punct, ","}, {Word, "y"}, {Punct, "::"}, {Word, "int"}}, ""},
		{"escape string with backslash quote", `SELECT E'it\'s; \\', 1`, []tok{{Word, "SELECT"}, {String, `E'it\'s; \\'`}, {Punct, ","}, {Number, "1"}}, ""},
		{"lower case escape string", `e'\''`, []tok{{String, `e'\''`}}, ""},
		{"escape string with doubled quote", `E'a''b'`, []tok{{String, `E'a''b'`}}, ""},
		{"standard string: backslash is plain", `'a\'; SELECT 1`, []tok{{String, `'a\'`}, {Punct, ";"}, {Word, "SELECT"}, {Number, "1"}}, ""},
		{"word ending in e before string", `xe'a'`, []tok{{Word, "xe"}, {String, "'a'"}}, ""},
		{"dollar quote", "SELECT $$a; 'b$$", []tok{{Word, "SELECT"}, {String, "$$a; 'b$$"}}, ""},
		{"tagged dollar quote", "$fn$ $$ ; $fn$ x", []tok{{String, "$fn$ $$ ; $fn$"}, {Word, "x"}}, ""},
		{"dollar in identifier is not a quote", "SELECT a$$; b$$", []tok{{Word, "SELECT"}, {Word, "a$$"}, {Punct, ";"}, {Word, "b$$"}}, ""},
		{"positional parameter", "$1 + $23", []tok{{Param, "$1"}, {Punct, "+"}, {Param, "$23"}}, ""},
		{"lone dollar", "$ $", []tok{{Punct, "$"}, {Punct, "$"}}, ""},
		{"nested comment", "SELECT /* a /* b */ ; c */ 1", []tok{{Word, "SELECT"}, {Number, "1"}}, ""},
		{"comment after operator", "1 +-- x\n2 */* y */3", []tok{{Number, "1"}, {Punct, "+"}, {Number, "2"}, {Punct, "*"}, {Number, "3"}}, ""},
		{"brackets and question mark are operators", "a[1] ? 'k' @> b", []tok{{Word, "a"}, {Punct, "["}, {Number, "1"}, {Punct, "]"}, {Punct, "?"}, {String, "'k'"}, {Punct, "@"}, {Punct, ">"}, {Word, "b"}}, ""},
		{"unterminated dollar quote", "SELECT $q$ abc", []tok{{Word, "SELECT"}, {String, "$q$ abc"}}, "unterminated string starting at offset 7"},
		{"unterminated nested comment", "SELECT 1 /* /* */", []tok{{Word, "SELECT"}, {Number, "1"}}, "unterminated /* comment at offset 9"},
		{"unterminated escape string", `E'\'`, []tok{{String, `E'\'`}}, "unterminated string starting at offset 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, err := Postgres.Tokenize(tt.sql)
			got := make([]tok, len(toks))
			for i, x := range toks {
				got[i] = tok{x.Kind, x.Text}
			}
			if !equalToks(got, tt.want) {
				t.Errorf("Postgres.Tokenize(%q) = %v, want %v", tt.sql, got, tt.want)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("error = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("error = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestIdent(t *testing.T) {
	tests := []struct{ sql, want string }{
		{"PG_Sleep", "pg_sleep"},
		{`"PG_Sleep"`, "PG_Sleep"},
		{`"a""b"`, `a"b`},
		{"Ünïcode", "Ünïcode"},
	}
	for _, tt := range tests {
		toks, _ := Postgres.Tokenize(tt.sql)
		if len(toks) != 1 || toks[0].Ident() != tt.want {
			t.Errorf("Ident of %q = %+v, want %q", tt.sql, toks, tt.want)
		}
	}
	if toks, _ := SQLite.Tokenize("[My Col]"); toks[0].Ident() != "My Col" {
		t.Errorf("Ident of [My Col] = %q", toks[0].Ident())
	}
}

func TestPostgresCheckReadOnly(t *testing.T) {
	perm, syntax := sqlerr.PermissionError, sqlerr.SyntaxError
	tests := []struct {
		name    string
		sql     string
		want    sqlerr.Category // "" = allowed
		wantMsg string
	}{
		{"select with casts", "SELECT sale_date::date, total_amount::numeric(12,2) FROM sales", "", ""},
		{"table statement", "TABLE sales", "", ""},
		{"with table", "WITH x AS (SELECT 1) TABLE x", "", ""},
		{"dollar quoted semicolon", "SELECT $$; DELETE FROM sales$$", "", ""},
		{"escape string semicolon", `SELECT E'\'; DELETE FROM sales; --'`, "", ""},
		{"nested comment hides statement", "SELECT 1 /* /* */ ; DELETE FROM sales */", "", ""},
		{"explain analyze", "EXPLAIN ANALYZE SELECT 1", "", ""},
		{"explain options", "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT 1", "", ""},
		{"explain parenthesised select", "EXPLAIN (SELECT 1)", "", ""},
		{"harmless functions", "SELECT now(), date_trunc('month', now()), coalesce(a, 0), count(*) FROM t", "", ""},
		{"substring for", "SELECT substring(name FROM 1 FOR 3) FROM t", "", ""},
		{"quoted column named update", `SELECT "update" FROM t`, "", ""},
		{"updated_at column", "SELECT updated_at, deleted FROM t", "", ""},
		{"jsonb operators", "SELECT data ? 'k', data @> '{}' FROM t", "", ""},

		{"statement after escape string", `SELECT E'\''; DELETE FROM sales`, perm, "more than one statement"},
		{"statement after dollar quote", "SELECT $a$ $$ $a$; DELETE FROM sales", perm, "more than one statement"},
		{"statement after nested comment", "SELECT 1 /* /* */ */; DELETE FROM sales", perm, "more than one statement"},
		{"dollar in identifier does not open a quote", "SELECT x$$; DELETE FROM sales; $$", perm, "more than one statement"},
		{"data-modifying with", "WITH d AS (DELETE FROM sales RETURNING *) SELECT * FROM d", perm, "DELETE inside a query is not allowed"},
		{"insert in with", "WITH i AS (INSERT INTO t VALUES (1) RETURNING 1) SELECT 1", perm, "INSERT inside a query"},
		{"merge in with", "WITH m AS (MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE) SELECT 1", perm, "inside a query"},
		{"select into", "SELECT * INTO evil FROM sales", perm, "SELECT ... INTO creates a table"},
		{"for update", "SELECT * FROM sales FOR UPDATE", perm, "row locks"},
		{"for no key update", "SELECT * FROM sales FOR NO KEY UPDATE", perm, "row locks"},
		{"for share", "SELECT * FROM sales FOR SHARE", perm, "row locks"},
		{"for key share", "SELECT * FROM sales FOR KEY SHARE NOWAIT", perm, "row locks"},
		{"set", "SET statement_timeout = 0", perm, "SET is not allowed"},
		{"reset", "RESET ALL", perm, "RESET is not allowed"},
		{"listen", "LISTEN x", perm, "LISTEN is not allowed"},
		{"notify", "NOTIFY x", perm, "NOTIFY is not allowed"},
		{"copy program", "COPY sales TO PROGRAM 'touch /tmp/x'", perm, "COPY is not allowed"},
		{"do block", "DO $$ BEGIN DELETE FROM sales; END $$", perm, "DO is not allowed"},
		{"explain analyze delete", "EXPLAIN ANALYZE DELETE FROM sales", perm, "DELETE is not allowed"},
		{"explain options delete", "EXPLAIN (ANALYZE) DELETE FROM sales", perm, "DELETE is not allowed"},
		{"pg_sleep", "SELECT pg_sleep(100)", perm, "function pg_sleep has side effects"},
		{"qualified set_config", "SELECT pg_catalog.set_config('statement_timeout', '0', false)", perm, "function set_config"},
		{"quoted nextval", `SELECT "nextval"('s')`, perm, "function nextval"},
		{"comment between name and paren", "SELECT setval /* x */ ('s', 1)", perm, "function setval"},
		{"advisory lock", "SELECT pg_advisory_lock(1)", perm, "function pg_advisory_lock"},
		{"large object export", "SELECT lo_export(1, '/tmp/x')", perm, "function lo_export"},
		{"read file", "SELECT pg_read_file('/etc/passwd')", perm, "function pg_read_file"},
		{"terminate backend", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity", perm, "function pg_terminate_backend"},
		{"dblink", "SELECT * FROM dblink('host=x', 'DELETE FROM sales') AS t(x int)", perm, "function dblink"},
		{"query_to_xml", "SELECT query_to_xml('SELECT pg_advisory_lock(1)', true, false, '')", perm, "function query_to_xml"},
		{"txid_current", "SELECT txid_current()", perm, "function txid_current"},
		{"function in from", "SELECT * FROM pg_sleep_for('1 hour')", perm, "function pg_sleep_for"},
		{"unicode identifier", `SELECT U&"pg\0073leep"(1)`, syntax, "Unicode-escaped identifiers"},
		{"backtick is not an identifier quote", "SELECT 1 AS `a;` ", perm, "more than one statement"},
		{"bracket is not an identifier quote", "SELECT 1 AS [a;]", perm, "more than one statement"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := Postgres.CheckReadOnly(tt.sql)
			if tt.want == "" {
				if e != nil {
					t.Fatalf("Postgres.CheckReadOnly(%q) = %v, want nil", tt.sql, e)
				}
				return
			}
			if e == nil || e.Category != tt.want || !strings.Contains(e.Message, tt.wantMsg) {
				t.Fatalf("Postgres.CheckReadOnly(%q) = %v, want %s containing %q", tt.sql, e, tt.want, tt.wantMsg)
			}
			if tt.want == perm && !strings.Contains(e.Message, ReadOnlyMessage) {
				t.Errorf("message %q does not end with ReadOnlyMessage", e.Message)
			}
		})
	}
}

// TestSQLiteRulesUnchanged runs PostgreSQL-only syntax through SQLite's
// rules: SQLite's lexer must keep refusing what SQLite would run as two
// statements, whatever PostgreSQL would make of it.
func TestSQLiteRulesUnchanged(t *testing.T) {
	tests := []struct {
		sql  string
		want sqlerr.Category
	}{
		{"SELECT 1 /* /* */ ; DELETE FROM sales */", sqlerr.PermissionError}, // no nesting in SQLite
		{"SELECT $$; DELETE FROM sales$$", sqlerr.PermissionError},           // $$ is a parameter
		{"SELECT 'a\\'; DELETE FROM sales", sqlerr.PermissionError},          // no backslash escapes
		{"SELECT 1 AS [a;]", ""}, // [a;] is an identifier
		{"SELECT replace(name, 'a', 'b') FROM t", ""},
		{"SELECT pg_sleep(1)", ""}, // no such SQLite function: SQLite reports it
		{"SET x = 1", sqlerr.SyntaxError},
	}
	for _, tt := range tests {
		e := SQLite.CheckReadOnly(tt.sql)
		var got sqlerr.Category
		if e != nil {
			got = e.Category
		}
		if got != tt.want {
			t.Errorf("SQLite.CheckReadOnly(%q) = %v, want %q", tt.sql, e, tt.want)
		}
		if pkg := CheckReadOnly(tt.sql); (pkg == nil) != (e == nil) {
			t.Errorf("CheckReadOnly(%q) = %v, differs from SQLite.CheckReadOnly", tt.sql, pkg)
		}
	}
}

func TestParseDialect(t *testing.T) {
	for name, want := range map[string]Dialect{"sqlite": SQLite, "SQLite3": SQLite, "PostgreSQL": Postgres,
		"postgres": Postgres, "mysql": MySQL, "MariaDB": MySQL} {
		got, err := ParseDialect(name)
		if err != nil || got != want {
			t.Errorf("ParseDialect(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	for _, name := range []string{"", "oracle", "mssql"} {
		if d, err := ParseDialect(name); err == nil || d.Valid() || !strings.Contains(err.Error(), "use sqlite, postgres, mysql") {
			t.Errorf("ParseDialect(%q) = %v, %v; want an error naming the dialects", name, d, err)
		}
	}
	if Postgres.String() != "postgres" || SQLite.String() != "sqlite" || MySQL.String() != "mysql" || Dialect(0).String() != "" {
		t.Errorf("String() = %q, %q, %q, %q", Postgres, SQLite, MySQL, Dialect(0))
	}
}

func FuzzPostgresScan(f *testing.F) {
	for _, s := range []string{
		"SELECT $$a$$", "$t$ x $t$", "E'\\''", "/* /* */ */", "x::int", "$1", "$", "U&\"a\"", "e'", "$$", "/*/*",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		all := Postgres.Scan(s)
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
		if e := Postgres.CheckReadOnly(s); e != nil && e.Category != sqlerr.PermissionError && e.Category != sqlerr.SyntaxError {
			t.Fatalf("Postgres.CheckReadOnly(%q) category = %s", s, e.Category)
		}
	})
}
