package databasemcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"talk2tables/internal/mariadbtest"
	"talk2tables/mysqlconfig"
	"talk2tables/schema"
	"talk2tables/sqlerr"
)

func mariaSampleDB(tb testing.TB, rows int) *mariadbtest.DB {
	tb.Helper()
	db := mariadbtest.NewDB(tb)
	mariadbtest.LoadSample(tb, db, rows)
	return db
}

func openMySQL(tb testing.TB, dsn string, opts Options) *MySQL {
	tb.Helper()
	cfg, err := mysqlconfig.Parse(dsn, "")
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	m, err := OpenMySQL(ctx, MySQLConfig{Conn: cfg}, opts)
	if err != nil {
		tb.Fatalf("OpenMySQL: %v", err)
	}
	tb.Cleanup(func() { m.Close() })
	return m
}

// TestMySQLServesTheSample: over the least-privilege user, the schema
// resource reads tables, columns, keys, foreign keys, indexes, comments,
// row counts and distinct values from information_schema, and queries
// answer with MySQL's values as JSON.
func TestMySQLServesTheSample(t *testing.T) {
	db := mariaSampleDB(t, 2000)
	m := openMySQL(t, db.ReadOnlyUser(t).DSN(), Options{Today: "2026-11-21"})
	if !m.MariaDB() || m.Dialect() != "mysql" {
		t.Fatalf("server %q, dialect %q", m.Server(), m.Dialect())
	}
	s, err := m.Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s.Dialect != "mysql" || s.Database != db.Name || s.Today != "2026-11-21" || len(s.Tables) != 4 {
		t.Fatalf("schema = %s %s %s with %d tables", s.Dialect, s.Database, s.Today, len(s.Tables))
	}
	tables := map[string]schema.Table{}
	for _, tb := range s.Tables {
		tables[tb.Name] = tb
	}
	sales := tables["sales"]
	if sales.RowCount != 2000 || !strings.Contains(sales.Comment, "Order lines") {
		t.Errorf("sales: rows %d, comment %q", sales.RowCount, sales.Comment)
	}
	cols := map[string]schema.Column{}
	for _, c := range sales.Columns {
		cols[c.Name] = c
	}
	if c := cols["sale_id"]; !c.PrimaryKey || c.Nullable || c.Type != "int(11)" {
		t.Errorf("sale_id = %+v", c)
	}
	if c := cols["region"]; strings.Join(c.DistinctValues, ",") != "East,North,South,West" {
		t.Errorf("region values = %v", c.DistinctValues)
	}
	if c := cols["discount"]; c.Type != "decimal(4,2)" || !strings.Contains(c.Comment, "Fraction") {
		t.Errorf("discount = %+v", c)
	}
	fks, _ := json.Marshal(sales.ForeignKeys)
	if string(fks) != `[{"column":"order_id","references_table":"orders","references_column":"order_id"},{"column":"product_id","references_table":"products","references_column":"product_id"}]` {
		t.Errorf("sales foreign keys = %s", fks)
	}
	idx := map[string]bool{}
	for _, ix := range sales.Indexes {
		idx[ix.Name] = true
	}
	if !idx["idx_sales_region_sale_date"] || len(tables["products"].Indexes) != 1 {
		t.Errorf("indexes: sales %v, products %v (the UNIQUE constraint's index is left out)", sales.Indexes, tables["products"].Indexes)
	}

	res, err := m.Query(context.Background(),
		"SELECT sale_id, total_amount, sale_date, region, CAST(1.5 AS DOUBLE) AS f, NULL AS n, JSON_OBJECT('a', 1) AS j "+
			"FROM sales ORDER BY sale_id LIMIT 3", 2)
	if err != nil {
		t.Fatal(err)
	}
	if res.RowCount != 2 || !res.Truncated || res.DataVersion == "" {
		t.Fatalf("result = %+v", res)
	}
	b, _ := json.Marshal(res.Rows[0])
	row := string(b)
	// MariaDB's JSON is LONGTEXT: the object comes back as text (MySQL's
	// JSON type is embedded as JSON).
	if !strings.HasPrefix(row, "[1,") || !strings.Contains(row, `,1.5,null,"{\"a\": 1}"]`) || !strings.Contains(row, `"20`) {
		t.Errorf("row = %s", row)
	}
	if d, _ := res.Rows[0][2].(string); len(d) != len("2026-01-02") {
		t.Errorf("sale_date = %v, want YYYY-MM-DD text", res.Rows[0][2])
	}
	// The session that was cut short is replaced; the pool still serves.
	if res, err := m.Query(context.Background(), "SELECT COUNT(*) FROM sales", 0); err != nil || res.Rows[0][0] != int64(2000) {
		t.Fatalf("count = %v, %v", res, err)
	}
}

// TestMySQLErrors: errors are categorised by error number, validate_query
// prepares without running, the statement timeout interrupts a query at the
// server and the pool keeps serving.
func TestMySQLErrors(t *testing.T) {
	db := mariaSampleDB(t, 500)
	m := openMySQL(t, db.DSN(), Options{QueryTimeout: testTimeout})
	ctx := context.Background()
	for _, tt := range []struct {
		q    string
		want sqlerr.Category
	}{
		{"SELECT nope FROM sales", sqlerr.MissingColumn},
		{"SELECT * FROM nope", sqlerr.MissingTable},
		{"SELECT FROM sales", sqlerr.SyntaxError},
		{"SELECT order_id FROM sales JOIN orders USING (customer_id)", sqlerr.MissingColumn},
		{"SELECT order_id FROM sales s JOIN orders o ON o.order_id = s.order_id", sqlerr.AmbiguousColumn},
		{"SELECT no_such_function(1)", sqlerr.SyntaxError},
		{"SELECT SUM(SUM(quantity)) FROM sales", sqlerr.AggregationError},
		{"SELECT 1 FROM sales WHERE ?", sqlerr.SyntaxError},
	} {
		_, err := m.Query(ctx, tt.q, 0)
		if got := sqlerr.CategoryOf(err); got != tt.want {
			t.Errorf("Query(%q) = %v, want %s", tt.q, err, tt.want)
		}
		if got := sqlerr.CategoryOf(m.Validate(ctx, tt.q)); got != tt.want {
			t.Errorf("Validate(%q) = %v, want %s", tt.q, m.Validate(ctx, tt.q), tt.want)
		}
	}
	if err := m.Validate(ctx, "SELECT region, SUM(total_amount) FROM sales GROUP BY region"); err != nil {
		t.Errorf("Validate(valid) = %v", err)
	}
	start := time.Now()
	_, err := m.Query(ctx, "SELECT COUNT(*) FROM sales a, sales b, sales c", 0)
	if sqlerr.CategoryOf(err) != sqlerr.Timeout || time.Since(start) > testTimeout+time.Second {
		t.Errorf("cartesian join = %v after %s, want TIMEOUT within the statement timeout", err, time.Since(start))
	}
	if res, err := m.Query(ctx, "SELECT 1", 0); err != nil || res.Rows[0][0] != int64(1) {
		t.Errorf("after a timeout: %v, %v", res, err)
	}
}

// TestMySQLDataVersion: the data version changes when a table is written
// and stays put otherwise; the watcher tells it.
func TestMySQLDataVersion(t *testing.T) {
	db := mariaSampleDB(t, 100)
	m := openMySQL(t, db.DSN(), Options{})
	ctx := context.Background()
	v1 := m.DataVersion(ctx)
	m.verMu.Lock()
	m.verAt = time.Time{} // the next DataVersion reads the server again
	m.verMu.Unlock()
	if v := m.DataVersion(ctx); v != v1 || v == "" {
		t.Fatalf("version without a write = %q, want %q", v, v1)
	}
	changed := make(chan string, 1)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go m.Watch(wctx, 100*time.Millisecond, func(v string) { changed <- v })
	time.Sleep(1100 * time.Millisecond) // a new second: UPDATE_TIME has a one-second resolution
	db.Exec(t, "UPDATE products SET unit_price = unit_price + 1 WHERE product_id = 123")
	select {
	case v := <-changed:
		if v == v1 {
			t.Errorf("watcher reported the old version %q", v)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no change reported within 10 s of a write")
	}
}

// TestMySQLReadOnlyUser: the recipe's user reads every table and cannot
// write, create tables (temporary ones too) or lift the read-only
// transaction, even with the guards bypassed.
func TestMySQLReadOnlyUser(t *testing.T) {
	db := mariaSampleDB(t, 100)
	u := db.ReadOnlyUser(t)
	m := openMySQL(t, u.DSN(), Options{})
	ctx := context.Background()
	for _, table := range []string{"products", "customers", "orders", "sales"} {
		if _, err := m.Query(ctx, "SELECT COUNT(*) FROM "+table, 0); err != nil {
			t.Errorf("read %s: %v", table, err)
		}
	}
	for _, q := range []string{"DELETE FROM sales", "CREATE TABLE evil (x int)", "CREATE TEMPORARY TABLE evil (x int)",
		"INSERT INTO products VALUES (9999, 'x', 'y', 1)"} {
		_, err := m.run(ctx, q, 10)
		if got := sqlerr.CategoryOf(err); got != sqlerr.PermissionError {
			t.Errorf("guard bypassed: run(%q) = %v, want PERMISSION_ERROR", q, err)
		}
	}
}

// TestMySQLSizeBounds: a value the server will not build past
// max_allowed_packet comes back NULL, long values are cut to the cell
// bound and rows past the result bound are left out, with a note.
func TestMySQLSizeBounds(t *testing.T) {
	db := mariaSampleDB(t, 500)
	m := openMySQL(t, db.DSN(), Options{MaxCellBytes: 1000, MaxResultBytes: 50000})
	ctx := context.Background()
	res, err := m.Query(ctx, "SELECT REPEAT('a', 100000000) AS big", 0)
	if err != nil || res.Rows[0][0] != nil {
		t.Fatalf("a 100 MB value = %v, %v; want NULL (over max_allowed_packet)", res, err)
	}
	res, err = m.Query(ctx, "SELECT sale_id, REPEAT('x', 5000) AS v FROM sales ORDER BY sale_id", 0)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := res.Rows[0][1].(string)
	if !res.Truncated || res.Note == "" || len(res.Rows) >= 500 || len(v) > 1000 || !strings.HasSuffix(v, "…") {
		t.Errorf("%d rows, truncated %v, note %q, first value %d bytes", len(res.Rows), res.Truncated, res.Note, len(v))
	}
	if res, err := m.Query(ctx, "SELECT COUNT(*) FROM sales", 0); err != nil || res.Rows[0][0] != int64(500) {
		t.Errorf("after a cut result: %v, %v", res, err)
	}
}
