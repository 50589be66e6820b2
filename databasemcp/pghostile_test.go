package databasemcp

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"talk2tables/internal/pgtest"
	"talk2tables/sqlerr"
	"talk2tables/sqlscan"
)

// snapshot is what hostile inputs must not change: every table's row count
// and checksum, the objects of the database, large objects, advisory locks,
// sequence positions.
type snapshot struct {
	tables  map[string]string // table → "rows md5"
	objects string            // every relation, function, type, schema, extension, large object
	locks   int
	seq     int64
}

func takeSnapshot(tb testing.TB, db *pgtest.DB) snapshot {
	tb.Helper()
	conn := db.Conn(tb)
	ctx := context.Background()
	s := snapshot{tables: map[string]string{}}
	rows, err := conn.Query(ctx, `SELECT format('%I.%I', n.nspname, c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')`)
	if err != nil {
		tb.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		tb.Fatal(err)
	}
	for _, t := range tables {
		var n int64
		var sum string
		q := fmt.Sprintf("SELECT count(*), coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') FROM %s t", t)
		if err := conn.QueryRow(ctx, q).Scan(&n, &sum); err != nil {
			tb.Fatalf("%s: %v", q, err)
		}
		s.tables[t] = fmt.Sprintf("%d %s", n, sum)
	}
	err = conn.QueryRow(ctx, `SELECT
		(SELECT string_agg(oid::text || relname, ',' ORDER BY oid) FROM pg_class) || '|' ||
		(SELECT string_agg(oid::text || proname, ',' ORDER BY oid) FROM pg_proc) || '|' ||
		(SELECT string_agg(oid::text || typname, ',' ORDER BY oid) FROM pg_type) || '|' ||
		(SELECT string_agg(oid::text || nspname, ',' ORDER BY oid) FROM pg_namespace) || '|' ||
		(SELECT coalesce(string_agg(oid::text, ',' ORDER BY oid), '') FROM pg_largeobject_metadata) || '|' ||
		(SELECT string_agg(rolname, ',' ORDER BY rolname) FROM pg_roles) || '|' ||
		(SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension)`).Scan(&s.objects)
	if err != nil {
		tb.Fatal(err)
	}
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'").Scan(&s.locks); err != nil {
		tb.Fatal(err)
	}
	if err := conn.QueryRow(ctx, "SELECT last_value FROM hostile_seq").Scan(&s.seq); err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestPostgresHostileInputs sends statements that try to write, escape,
// keep state or exhaust the server through a real MCP client, connected as
// the superuser so that no privilege helps: the guards alone must hold.
// Then it proves nothing changed and, once the server is closed, that no
// session is left behind.
func TestPostgresHostileInputs(t *testing.T) {
	db := sampleDB(t, 2000)
	out := t.TempDir() // where escapes try to write
	if err := os.Chmod(out, 0o777); err != nil {
		t.Fatal(err)
	}
	evil := filepath.Join(out, "evil")
	db.Exec(t,
		"CREATE SEQUENCE hostile_seq",
		"CREATE EXTENSION dblink",
		// A volatile function of the user's own that writes.
		"CREATE FUNCTION bump() RETURNS bigint LANGUAGE sql VOLATILE AS $$ SELECT nextval('hostile_seq') $$",
		// One wrongly declared stable: only the read-only transaction stops it.
		"CREATE TABLE audit (x int)",
		"CREATE FUNCTION sneaky() RETURNS int LANGUAGE plpgsql STABLE AS $$ BEGIN INSERT INTO audit VALUES (1); RETURN 1; END $$",
		"CREATE PROCEDURE wipe() LANGUAGE sql AS $$ DELETE FROM sales $$",
		// Session-level advisory locks hidden where the guard cannot see them:
		// behind a view, and in a function mislabelled stable.
		"CREATE VIEW locking_view AS SELECT pg_try_advisory_lock(4242) AS locked",
		"CREATE FUNCTION sneaky_lock() RETURNS int LANGUAGE sql STABLE AS $$ SELECT pg_advisory_lock(4343); SELECT 1 $$",
	)
	before := takeSnapshot(t, db)
	p := openPostgres(t, db.DSN(), Options{QueryTimeout: testTimeout})
	// Created after the server read the function catalog.
	db.Exec(t, "CREATE FUNCTION late_bump() RETURNS bigint LANGUAGE sql VOLATILE AS $$ SELECT nextval('hostile_seq') $$")
	before.objects = takeSnapshot(t, db).objects
	c := inProcessClient(t, p)

	perm, syntax, timeout, unknown := sqlerr.PermissionError, sqlerr.SyntaxError, sqlerr.Timeout, sqlerr.UnknownError
	tests := []struct {
		name  string
		query string
		want  sqlerr.Category
	}{
		// more than one statement, with PostgreSQL's lexical rules
		{"two statements", "SELECT 1; DELETE FROM sales", perm},
		{"escape string hides nothing", `SELECT E'\''; DELETE FROM sales; --'`, perm},
		{"dollar quote then statement", "SELECT $q$ $$ $q$; DROP TABLE sales", perm},
		{"nested comment then statement", "SELECT 1 /* /* */ */; TRUNCATE sales", perm},
		{"dollar inside identifier", "SELECT 1 AS x$$; DELETE FROM sales; $$", perm},
		{"nbsp after semicolon", "SELECT 1;\u00a0DELETE FROM sales", perm},
		// writes and DDL
		{"insert", "INSERT INTO sales (sale_id) VALUES (999999)", perm},
		{"update", "UPDATE sales SET quantity = 0", perm},
		{"delete", "DELETE FROM sales", perm},
		{"merge", "MERGE INTO products p USING products q ON p.product_id = q.product_id WHEN MATCHED THEN DELETE", perm},
		{"truncate", "TRUNCATE sales", perm},
		{"drop", "DROP TABLE sales", perm},
		{"create", "CREATE TABLE evil (x int)", perm},
		{"create temp", "CREATE TEMP TABLE evil (x int)", perm},
		{"alter", "ALTER TABLE sales ADD COLUMN evil text", perm},
		{"grant", "GRANT ALL ON sales TO PUBLIC", perm},
		{"comment", "COMMENT ON TABLE sales IS 'x'", perm},
		{"select into", "SELECT * INTO evil FROM sales", perm},
		{"data-modifying with", "WITH d AS (DELETE FROM sales RETURNING *) SELECT count(*) FROM d", perm},
		{"explain analyze delete", "EXPLAIN ANALYZE DELETE FROM sales", perm},
		{"row lock", "SELECT * FROM sales FOR UPDATE", perm},
		{"row lock nowait", "SELECT * FROM sales FOR NO KEY UPDATE NOWAIT", perm},
		{"lock table", "LOCK TABLE sales IN ACCESS EXCLUSIVE MODE", perm},
		// session, transactions, procedural code, files
		{"set", "SET statement_timeout = 0", perm},
		{"set role", "SET ROLE pg_write_server_files", perm},
		{"reset", "RESET ALL", perm},
		{"listen", "LISTEN evil", perm},
		{"notify", "NOTIFY evil, 'x'", perm},
		{"prepare", "PREPARE p AS DELETE FROM sales", perm},
		{"declare", "DECLARE c CURSOR WITH HOLD FOR SELECT 1", perm},
		{"begin", "BEGIN READ WRITE", perm},
		{"commit", "COMMIT", perm},
		{"do block", "DO $$ BEGIN DELETE FROM sales; END $$", perm},
		{"call", "CALL wipe()", perm},
		{"copy to program", "COPY sales TO PROGRAM 'touch " + evil + "'", perm},
		{"copy to file", "COPY (SELECT 1) TO '" + evil + "'", perm},
		{"copy from file", "COPY products FROM '/etc/passwd'", perm},
		{"vacuum", "VACUUM sales", perm},
		{"analyze", "ANALYZE sales", perm},
		{"load", "LOAD 'plpgsql'", perm},
		{"discard", "DISCARD ALL", perm},
		// functions with side effects
		{"sleep", "SELECT pg_sleep(100)", perm},
		{"sleep qualified", "SELECT pg_catalog.pg_sleep(100)", perm},
		{"sleep quoted", `SELECT "pg_sleep"(100)`, perm},
		{"sleep for in from", "SELECT * FROM pg_sleep_for('1 hour')", perm},
		{"sleep behind a comment", "SELECT pg_sleep /* x */ (100)", perm},
		{"unicode escaped name", `SELECT U&"pg\0073leep"(100)`, syntax},
		{"set_config", "SELECT set_config('statement_timeout', '0', false)", perm},
		{"nextval", "SELECT nextval('hostile_seq')", perm},
		{"setval", "SELECT setval('hostile_seq', 1000)", perm},
		{"advisory lock", "SELECT pg_advisory_lock(42)", perm},
		{"try advisory lock", "SELECT pg_try_advisory_lock(42)", perm},
		{"advisory xact lock", "SELECT pg_advisory_xact_lock_shared(42)", perm},
		{"large object import", "SELECT lo_import('/etc/passwd')", perm},
		{"large object create", "SELECT lo_create(0)", perm},
		{"large object export", "SELECT lo_export(1, '" + evil + "')", perm},
		{"read file", "SELECT pg_read_file('/etc/passwd')", perm},
		{"read binary file", "SELECT pg_read_binary_file('/etc/passwd')", perm},
		{"list directory", "SELECT * FROM pg_ls_dir('.')", perm},
		{"stat file", "SELECT pg_stat_file('postgresql.conf')", perm},
		{"terminate backends", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity", perm},
		{"cancel backends", "SELECT pg_cancel_backend(pid) FROM pg_stat_activity", perm},
		{"reload config", "SELECT pg_reload_conf()", perm},
		{"rotate log", "SELECT pg_rotate_logfile()", perm},
		{"switch wal", "SELECT pg_switch_wal()", perm},
		{"notify function", "SELECT pg_notify('evil', 'x')", perm},
		{"dblink", "SELECT * FROM dblink('dbname=" + db.Name + "', 'SELECT 1') AS t(x int)", perm},
		{"dblink exec", "SELECT dblink_exec('dbname=" + db.Name + "', 'DELETE FROM sales')", perm},
		{"query_to_xml", "SELECT query_to_xml('SELECT pg_advisory_lock(7)', true, false, '')", perm},
		{"table_to_xml", "SELECT table_to_xml('sales', true, false, '')", perm},
		{"txid", "SELECT txid_current()", perm},
		{"setseed", "SELECT setseed(0.5)", perm},
		{"user volatile function", "SELECT bump()", perm},
		{"user volatile function created later", "SELECT late_bump()", perm},
		{"mislabelled stable function", "SELECT sneaky()", perm},
		// unicode and whitespace tricks
		{"zero width space", "\u200bDELETE FROM sales", syntax},
		{"fullwidth letters", "ＤＥＬＥＴＥ FROM sales", syntax},
		{"only semicolons", " \n\t;; ", syntax},
		{"only a comment", "/* SELECT 1 */", syntax},
		// exhaustion
		{"very long query", "SELECT '" + strings.Repeat("a", DefaultMaxQueryLength) + "'", unknown},
		{"runaway recursion", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", timeout},
		{"cartesian join", "SELECT count(*) FROM sales a, sales b, sales c", timeout},
		{"huge series", "SELECT sum(g) FROM generate_series(1, 10000000000) g", timeout},
	}
	if len(tests) < 50 {
		t.Fatalf("only %d hostile inputs", len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := toolError(t, c, "execute_query", map[string]any{"query": tt.query})
			if e.Category != tt.want {
				t.Errorf("execute_query(%.80q) = %s %q, want %s", tt.query, e.Category, e.Message, tt.want)
			}
			if tt.want == perm && !strings.Contains(e.Message, "only read-only SELECT queries are allowed") {
				t.Errorf("message = %q, want it to say only read-only SELECT queries are allowed", e.Message)
			}
			if tt.want != timeout && tt.name != "mislabelled stable function" {
				if v := toolError(t, c, "validate_query", map[string]any{"query": tt.query}); v != e {
					t.Errorf("validate_query = %+v, want %+v", v, e)
				}
			}
		})
	}

	// Second layer alone: with the statement guard bypassed, the read-only
	// transaction refuses every write, and rolling it back undoes session
	// settings.
	ctx := context.Background()
	for _, q := range []string{
		"INSERT INTO sales (sale_id) VALUES (999999)", "DELETE FROM sales", "CREATE TABLE evil (x int)",
		"CREATE TEMP TABLE evil (x int)", "DROP TABLE sales", "TRUNCATE sales", "SELECT nextval('hostile_seq')",
		"SELECT setval('hostile_seq', 1000)", "SELECT bump()", "SELECT sneaky()",
		"SELECT * INTO evil FROM sales", "SELECT * FROM sales FOR UPDATE", "CALL wipe()",
		"COPY products FROM '/etc/passwd'",
	} {
		_, err := p.run(ctx, q, true, 10)
		var se *sqlerr.Error
		if !errors.As(err, &se) || se.Category != perm {
			t.Errorf("guard bypassed: run(%q) = %v, want %s", q, err, perm)
		}
	}
	// PostgreSQL lets these run in a read-only transaction; the rollback
	// undoes them (the snapshot below proves it for the large objects).
	for _, q := range []string{
		"SELECT set_config('statement_timeout', '0', false)", "SELECT lo_create(0)", "SELECT lo_import('/etc/passwd')",
	} {
		if _, err := p.run(ctx, q, true, 10); err != nil {
			t.Fatalf("guard bypassed: run(%q) = %v, want it to run and be rolled back", q, err)
		}
	}
	for range 8 { // every pooled session still has its timeout
		res, err := p.Query(ctx, "SELECT current_setting('statement_timeout'), current_setting('transaction_read_only')", 0)
		if err != nil || res.Rows[0][0] != "300ms" || res.Rows[0][1] != "on" {
			t.Fatalf("session settings after a rolled-back set_config = %v, %v; want 300ms, on", res, err)
		}
	}
	// Locks taken behind the guard's back do not outlive their query.
	for _, q := range []string{"SELECT * FROM locking_view", "SELECT sneaky_lock()"} {
		for range 3 {
			if _, err := p.Query(ctx, q, 0); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	// The sessions still serve after all that.
	if res := execute(t, c, map[string]any{"query": "SELECT count(*) FROM sales"}); res.Rows[0][0] != 2000.0 {
		t.Errorf("count after hostile inputs = %v, want 2000", res.Rows[0][0])
	}

	after := takeSnapshot(t, db)
	for table, sum := range before.tables {
		if after.tables[table] != sum {
			t.Errorf("table %s changed: %s, want %s", table, after.tables[table], sum)
		}
	}
	if len(after.tables) != len(before.tables) {
		t.Errorf("tables: %d after, %d before", len(after.tables), len(before.tables))
	}
	if after.objects != before.objects {
		t.Error("the database's objects (relations, functions, types, schemas, large objects, roles, extensions) changed")
	}
	if after.locks != 0 || after.seq != before.seq {
		t.Errorf("advisory locks held = %d, sequence at %d (was %d)", after.locks, after.seq, before.seq)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("files created by hostile inputs: %v", entries)
	}
	if n := db.Sessions(t, ApplicationName); n == 0 {
		t.Error("no database-mcp session open while serving")
	}
	p.Close()
	if n := db.Sessions(t, ApplicationName); n != 0 {
		t.Errorf("%d database-mcp sessions left after Close, want 0", n)
	}
}

// TestPostgresLexerMatchesServer compares sqlscan's PostgreSQL rules with
// the server's own parser on generated statements built from the tricky
// pieces (escape strings, dollar quotes, nested comments, identifiers with
// '$'): whenever the server parses a text, both must agree on whether it
// holds one statement or several.
func TestPostgresLexerMatchesServer(t *testing.T) {
	db := pgtest.NewDB(t)
	conn := db.Conn(t)
	pieces := []string{
		"'a;b'", `E'\';'`, `E'\\'`, `e'\\\''`, "$$;$$", "$q$ $$ ; $q$", "/* ; */", "/* /* ; */ */", "-- ;\n",
		`"a;b"`, "x$$", "1", `U&'\0041;'`, "B'01'", "X'1F'", "N'x;'", "''", `'\'`, "$a$x$a$", ";", "; SELECT 2",
		"/* ' */", "-- '\n", "' /* '", "$$ -- $$", "(1)", "1::text", "x.y",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()
	agreed := 0
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		b.WriteString("SELECT ")
		for j := 1 + rng.IntN(4); j > 0; j-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			b.WriteString(" ")
		}
		q := b.String()
		e := sqlscan.Postgres.CheckReadOnly(q)
		oursMulti := e != nil && strings.Contains(e.Message, "more than one statement")
		_, err := conn.PgConn().Prepare(ctx, "", q, nil)
		var pe *pgconn.PgError
		switch {
		case err == nil:
			if oursMulti {
				t.Errorf("%q: the server parses one statement, sqlscan sees several", q)
			}
			agreed++
		case errors.As(err, &pe) && strings.Contains(pe.Message, "cannot insert multiple commands"):
			if !oursMulti {
				t.Errorf("%q: the server sees several statements, sqlscan one (%v)", q, e)
			}
			agreed++
		}
	}
	if agreed < 1000 {
		t.Errorf("only %d of 3000 generated statements parsed: the generator is too weak to compare", agreed)
	}
}
