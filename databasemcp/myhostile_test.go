package databasemcp

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"talk2tables/internal/hostile"
	"talk2tables/internal/mariadbtest"
	"talk2tables/sqlerr"
	"talk2tables/sqlscan"
)

// mySnapshot is what hostile inputs must not change: every table's row
// count and checksum, the database's objects (tables, views, routines,
// users), the sequence's position and the named locks.
type mySnapshot struct {
	tables  map[string]string
	objects string
	seq     int64
	locked  bool
}

func takeMySnapshot(tb testing.TB, db *mariadbtest.DB) mySnapshot {
	tb.Helper()
	conn := db.Conn(tb)
	ctx := context.Background()
	s := mySnapshot{tables: map[string]string{}}
	names := queryStrings(tb, conn, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' ORDER BY 1")
	for _, n := range names {
		var table string
		var sum sql.NullInt64
		if err := conn.QueryRowContext(ctx, "CHECKSUM TABLE `"+n+"` EXTENDED").Scan(&table, &sum); err != nil {
			tb.Fatal(err)
		}
		var rows int64
		if err := conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM `"+n+"`").Scan(&rows); err != nil {
			tb.Fatal(err)
		}
		s.tables[n] = fmt.Sprintf("%d %d", rows, sum.Int64)
	}
	s.objects = strings.Join(queryStrings(tb, conn, `SELECT CONCAT(TABLE_TYPE, ':', TABLE_NAME) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()
		UNION ALL SELECT CONCAT(ROUTINE_TYPE, ':', ROUTINE_NAME) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE()
		UNION ALL SELECT CONCAT(User, '@', Host) FROM mysql.user ORDER BY 1`), ",")
	if err := conn.QueryRowContext(ctx, "SELECT next_not_cached_value FROM hostile_seq").Scan(&s.seq); err != nil {
		tb.Fatal(err)
	}
	var used sql.NullInt64
	if err := conn.QueryRowContext(ctx, "SELECT IS_USED_LOCK('evil')").Scan(&used); err != nil {
		tb.Fatal(err)
	}
	s.locked = used.Valid
	return s
}

func queryStrings(tb testing.TB, db *sql.DB, q string) []string {
	tb.Helper()
	rows, err := db.QueryContext(context.Background(), q)
	if err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			tb.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// TestMySQLHostileInputs sends the MySQL hostile set through a real MCP
// client to database-mcp over MariaDB, connected as a superuser with every
// privilege (FILE, SUPER, ...), so that no privilege helps: the guards
// alone must hold. Then it proves nothing changed: every table's rows and
// checksum, the objects and users, the sequence, the named locks, the
// directory the file writers aim at; and that the pool still serves.
func TestMySQLHostileInputs(t *testing.T) {
	db := mariaSampleDB(t, 2000)
	out := t.TempDir() // where escapes try to write
	if err := os.Chmod(out, 0o777); err != nil {
		t.Fatal(err)
	}
	evil := filepath.Join(out, "evil")
	db.Exec(t,
		"CREATE SEQUENCE hostile_seq",
		"CREATE TABLE audit (x int)",
		// Functions of the user's own: one writes (the read-only
		// transaction stops it), one sleeps (the statement timeout does).
		"CREATE FUNCTION bump() RETURNS int MODIFIES SQL DATA BEGIN INSERT INTO audit VALUES (1); RETURN 1; END",
		"CREATE FUNCTION nap() RETURNS int NO SQL BEGIN DO SLEEP(30); RETURN 1; END",
		"CREATE PROCEDURE wipe() MODIFIES SQL DATA DELETE FROM sales",
	)
	before := takeMySnapshot(t, db)
	m := openMySQL(t, db.DSN(), Options{QueryTimeout: testTimeout})
	c := inProcessClient(t, m)

	perm, timeout := sqlerr.PermissionError, sqlerr.Timeout
	tests := hostile.MySQL(hostile.Paths{Dir: out, Evil: evil})
	if len(tests) < 60 {
		t.Fatalf("only %d hostile inputs", len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			start := time.Now()
			e := toolError(t, c, "execute_query", map[string]any{"query": tt.Query})
			if e.Category != tt.Want {
				t.Errorf("execute_query(%.80q) = %s %q, want %s", tt.Query, e.Category, e.Message, tt.Want)
			}
			if tt.Want == perm && !strings.Contains(e.Message, "only read-only SELECT queries are allowed") {
				t.Errorf("message = %q, want it to say only read-only SELECT queries are allowed", e.Message)
			}
			if d := time.Since(start); d > testTimeout+2*time.Second {
				t.Errorf("answered after %s, want within the %s statement timeout", d, testTimeout)
			}
			if tt.Want != timeout && tt.Layer == hostile.Static {
				if v := toolError(t, c, "validate_query", map[string]any{"query": tt.Query}); v != e {
					t.Errorf("validate_query = %+v, want %+v", v, e)
				}
			}
		})
	}

	// Second layer alone: with the statement guard bypassed, the read-only
	// transaction refuses every write, and the statement timeout ends a
	// SLEEP(30) with a categorised error well within 30 s.
	ctx := context.Background()
	for _, q := range []string{
		"INSERT INTO sales (sale_id) VALUES (999999)", "DELETE FROM sales", "UPDATE products SET unit_price = 0",
		"SELECT bump()", "CALL wipe()", "SELECT NEXTVAL(hostile_seq)",
	} {
		_, err := m.run(ctx, q, 10)
		if got := sqlerr.CategoryOf(err); got != perm {
			t.Errorf("guard bypassed: run(%q) = %v, want %s", q, err, perm)
		}
	}
	// Other queries are unaffected meanwhile.
	start := time.Now()
	slept := make(chan error, 1)
	go func() {
		_, err := m.run(ctx, "SELECT SLEEP(30)", 10)
		slept <- err
	}()
	if res := execute(t, c, map[string]any{"query": "SELECT COUNT(*) FROM orders"}); res.RowCount != 1 {
		t.Errorf("a query beside SLEEP(30) = %+v", res)
	}
	err := <-slept
	if got := sqlerr.CategoryOf(err); got != timeout || time.Since(start) > testTimeout+2*time.Second {
		t.Errorf("guard bypassed: SLEEP(30) = %v after %s, want %s within the statement timeout", err, time.Since(start), timeout)
	}
	// A named lock taken behind the guard's back does not outlive its query.
	if _, err := m.run(ctx, "SELECT GET_LOCK('evil', 0)", 10); err != nil {
		t.Fatalf("guard bypassed: GET_LOCK = %v", err)
	}
	// The sessions still serve after all that.
	if res := execute(t, c, map[string]any{"query": "SELECT COUNT(*) FROM sales"}); res.Rows[0][0] != 2000.0 {
		t.Errorf("count after hostile inputs = %v, want 2000", res.Rows[0][0])
	}

	after := takeMySnapshot(t, db)
	for table, sum := range before.tables {
		if after.tables[table] != sum {
			t.Errorf("table %s changed: %s, want %s", table, after.tables[table], sum)
		}
	}
	if len(after.tables) != len(before.tables) || after.objects != before.objects {
		t.Errorf("the database's objects changed:\n%s\nwant\n%s", after.objects, before.objects)
	}
	if after.seq != before.seq || after.locked {
		t.Errorf("sequence at %d (was %d), named lock held: %v", after.seq, before.seq, after.locked)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("files created by hostile inputs: %v", entries)
	}
}

// TestMySQLLexerMatchesServer compares sqlscan's MySQL rules with the
// server's own parser on generated statements built from the tricky pieces
// (backslash escapes, double-quoted strings, backticks, '#' and '-- '
// comments, '--' without a space): whenever the server parses a text, both
// must agree on whether it holds one statement or several. The driver's
// multiStatements is off, so the server's own answer to several statements
// is a syntax error near the second one; the test asks the server through a
// connection with multi-statements on instead, inside a transaction that
// is rolled back, with statements that only read.
func TestMySQLLexerMatchesServer(t *testing.T) {
	db := mariadbtest.NewDB(t)
	cfg := db.Config()
	cfg.MultiStatements = true
	pieces := []string{
		"'a;b'", `'\';'`, `'\\'`, `"a;b"`, `"\";"`, "`a;b`", "`a\\`", "# ;\n", "-- ;\n", "--1", "/* ; */",
		"1", "''", "'''';'", `'\''`, "X'3B'", "N'x;'", ";", "; SELECT 2", "/* ' */", "# '\n", "' /* '", "(1)", "x.y", "@a",
	}
	conn := openRaw(t, cfg)
	agreed := 0
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		b.WriteString("SELECT ")
		for j := 1 + (i*7+3)%4; j > 0; j-- {
			b.WriteString(pieces[(i*31+j*17+i/len(pieces))%len(pieces)])
			b.WriteString(" ")
		}
		q := b.String()
		// The default reading only: the server runs with MySQL's default quoting.
		toks, _ := sqlscanMySQL(q)
		oursMulti := false
		for k, tk := range toks {
			if tk.IsPunct(";") && k < len(toks)-1 {
				oursMulti = true
			}
		}
		n, err := countResults(conn, q)
		if err != nil {
			continue // the server does not parse it either way
		}
		agreed++
		if (n > 1) != oursMulti {
			t.Errorf("%q: the server runs %d statement(s), sqlscan sees multi=%v", q, n, oursMulti)
		}
	}
	if agreed < 300 {
		t.Errorf("only %d of 2000 generated statements parsed: the generator is too weak to compare", agreed)
	}
}

func openRaw(tb testing.TB, cfg *mysql.Config) *sql.DB {
	tb.Helper()
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	db := sql.OpenDB(conn)
	db.SetMaxOpenConns(1)
	tb.Cleanup(func() { db.Close() })
	return db
}

func sqlscanMySQL(q string) ([]sqlscan.Token, error) { return sqlscan.MySQL.Tokenize(q) }

// countResults runs q (several statements allowed) and counts its result
// sets; an error in any statement is returned.
func countResults(db *sql.DB, q string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for {
		for rows.Next() {
		}
		if err := rows.Err(); err != nil {
			return 0, err
		}
		n++
		if !rows.NextResultSet() {
			break
		}
	}
	return n, rows.Err()
}
