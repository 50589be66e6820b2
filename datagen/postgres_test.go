package datagen_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"talk2tables/datagen"
	"talk2tables/internal/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func pgConnect(tb testing.TB, db *pgtest.DB) *pgx.Conn {
	tb.Helper()
	return db.Conn(tb)
}

func loadPostgres(tb testing.TB, conn *pgx.Conn, rows int, dst datagen.PostgresTarget) (datagen.Stats, error) {
	tb.Helper()
	return datagen.GeneratePostgres(context.Background(), conn,
		datagen.Options{Catalog: loadCatalog(tb), Seed: 1, AsOf: asOf, Rows: rows}, dst)
}

// TestPostgresSameRowsAsSQLite loads the sample into PostgreSQL with COPY
// and compares every row of every table with the SQLite file generated
// from the same options.
func TestPostgresSameRowsAsSQLite(t *testing.T) {
	db := pgtest.NewDB(t)
	conn := pgConnect(t, db)
	pst, err := loadPostgres(t, conn, 3000, datagen.PostgresTarget{})
	if err != nil {
		t.Fatalf("GeneratePostgres: %v", err)
	}
	path, sst := generate(t, datagen.Options{Seed: 1, AsOf: asOf, Rows: 3000})
	if pst.Products != sst.Products || pst.Customers != sst.Customers || pst.Orders != sst.Orders || pst.Sales != sst.Sales ||
		pst.From != sst.From || pst.To != sst.To {
		t.Errorf("postgres stats = %+v, sqlite stats = %+v", pst, sst)
	}
	lite := openDB(t, path)
	for _, tc := range []struct{ table, key string }{
		{"products", "product_id"}, {"customers", "customer_id"}, {"orders", "order_id"}, {"sales", "sale_id"},
	} {
		q := fmt.Sprintf("SELECT * FROM %s ORDER BY %s", tc.table, tc.key)
		want := sqliteRows(t, lite, q)
		got := pgRows(t, conn, q)
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows in postgres, %d in sqlite", tc.table, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s row %d:\npostgres %s\nsqlite   %s", tc.table, i, got[i], want[i])
			}
		}
	}
	// Keys, foreign keys, indexes, comments and statistics are in place.
	checks := []struct {
		q    string
		want int
	}{
		{"SELECT count(*) FROM pg_constraint WHERE conrelid = 'sales'::regclass AND contype = 'f'", 2},
		{"SELECT count(*) FROM pg_constraint WHERE contype = 'p' AND connamespace = 'public'::regnamespace", 4},
		{"SELECT count(*) FROM pg_indexes WHERE schemaname = 'public' AND indexname LIKE 'idx\\_%'", 12},
		{"SELECT count(*) FROM pg_description WHERE objoid = 'sales'::regclass", 3},
		{"SELECT count(*) FROM pg_stats WHERE tablename = 'orders' AND attname = 'status'", 1},
	}
	for _, c := range checks {
		var n int
		if err := conn.QueryRow(context.Background(), c.q).Scan(&n); err != nil || n != c.want {
			t.Errorf("%s = %d, %v; want %d", c.q, n, err, c.want)
		}
	}
}

// norm renders a SQLite value as pgRows renders PostgreSQL's text: numbers
// through float64.
func norm(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}

func sqliteRows(tb testing.TB, db *sql.DB, q string) []string {
	tb.Helper()
	rows, err := db.Query(q)
	if err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			tb.Fatal(err)
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = norm(v)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out
}

func pgRows(tb testing.TB, conn *pgx.Conn, q string) []string {
	tb.Helper()
	// Numbers as float8 text, dates as text: the same rendering as SQLite's.
	rows, err := conn.Query(context.Background(), q, pgx.QueryResultFormats{pgx.TextFormatCode})
	if err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		raw := rows.RawValues()
		parts := make([]string, len(raw))
		for i, b := range raw {
			s := string(b)
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				s = strconv.FormatFloat(f, 'f', -1, 64)
			}
			parts[i] = s
		}
		out = append(out, strings.Join(parts, "|"))
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestPostgresRefusesExistingTables: a second load without Replace changes
// nothing and says how to proceed; with Replace it reloads; a schema keeps
// a second copy apart.
func TestPostgresRefusesExistingTables(t *testing.T) {
	db := pgtest.NewDB(t)
	conn := pgConnect(t, db)
	if _, err := loadPostgres(t, conn, 500, datagen.PostgresTarget{}); err != nil {
		t.Fatalf("first load: %v", err)
	}
	db.Exec(t, "CREATE TABLE keep_me (x int)", "INSERT INTO keep_me VALUES (42)")
	_, err := loadPostgres(t, conn, 800, datagen.PostgresTarget{})
	if err == nil || !strings.Contains(err.Error(), "schema public already has customers, orders, products, sales: nothing was changed; use --replace") {
		t.Fatalf("second load error = %v, want a refusal naming the tables and --replace", err)
	}
	if n := count(t, conn, "SELECT count(*) FROM sales"); n != 500 {
		t.Errorf("sales after the refused load = %d, want 500", n)
	}
	if _, err := loadPostgres(t, conn, 800, datagen.PostgresTarget{Replace: true}); err != nil {
		t.Fatalf("replace: %v", err)
	}
	if n := count(t, conn, "SELECT count(*) FROM sales"); n != 800 {
		t.Errorf("sales after replace = %d, want 800", n)
	}
	if n := count(t, conn, "SELECT x FROM keep_me"); n != 42 {
		t.Errorf("an unrelated table changed: %d", n)
	}
	st, err := loadPostgres(t, conn, 300, datagen.PostgresTarget{Schema: "Sample Two"})
	if err != nil {
		t.Fatalf("load into a schema: %v", err)
	}
	if st.Path != db.Name+" schema Sample Two" {
		t.Errorf("Stats.Path = %q", st.Path)
	}
	if n := count(t, conn, `SELECT count(*) FROM "Sample Two".sales`); n != 300 {
		t.Errorf(`"Sample Two".sales = %d rows, want 300`, n)
	}
	if n := count(t, conn, "SELECT count(*) FROM public.sales"); n != 800 {
		t.Errorf("public.sales = %d rows after loading another schema, want 800", n)
	}
}

// TestPostgresCancelledLeavesNothing: a load cancelled in the middle of the
// COPY rolls back; the connection stays usable.
func TestPostgresCancelledLeavesNothing(t *testing.T) {
	db := pgtest.NewDB(t)
	conn := pgConnect(t, db)
	ctx, cancel := context.WithCancel(context.Background())
	stop := make(chan struct{})
	go func() {
		// Cancel as soon as the first table has appeared to other sessions'
		// catalog view: the load is under way.
		watch := db.Conn(t)
		for {
			var busy bool
			err := watch.QueryRow(context.Background(),
				"SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'COPY%')", db.Name).Scan(&busy)
			if err != nil || busy {
				break
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
		cancel()
	}()
	_, err := datagen.GeneratePostgres(ctx, conn,
		datagen.Options{Catalog: loadCatalog(t), Seed: 1, AsOf: asOf, Rows: 2_000_000}, datagen.PostgresTarget{})
	close(stop)
	cancel()
	if err == nil {
		t.Fatal("GeneratePostgres returned nil after cancel")
	}
	if !errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "cancel") {
		t.Logf("error after cancel: %v", err)
	}
	check := db.Conn(t)
	if n := count(t, check, "SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace"); n != 0 {
		t.Errorf("%d relations left in public after a cancelled load, want 0", n)
	}
}

func count(tb testing.TB, conn *pgx.Conn, q string) int {
	tb.Helper()
	var n int
	if err := conn.QueryRow(context.Background(), q).Scan(&n); err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	return n
}
