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

	"talk2tables/internal/hostile"
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

	perm, timeout := sqlerr.PermissionError, sqlerr.Timeout
	tests := hostile.Postgres(hostile.Paths{Dir: out, Evil: evil}, db.Name)
	if len(tests) < 50 {
		t.Fatalf("only %d hostile inputs", len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			e := toolError(t, c, "execute_query", map[string]any{"query": tt.Query})
			if e.Category != tt.Want {
				t.Errorf("execute_query(%.80q) = %s %q, want %s", tt.Query, e.Category, e.Message, tt.Want)
			}
			if tt.Want == perm && !strings.Contains(e.Message, "only read-only SELECT queries are allowed") {
				t.Errorf("message = %q, want it to say only read-only SELECT queries are allowed", e.Message)
			}
			if tt.Want != timeout && tt.Name != "mislabelled stable function" {
				if v := toolError(t, c, "validate_query", map[string]any{"query": tt.Query}); v != e {
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
