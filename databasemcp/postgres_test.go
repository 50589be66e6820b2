package databasemcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/internal/pgtest"
	"talk2tables/mcpserve"
	"talk2tables/pgconfig"
	"talk2tables/schema"
	"talk2tables/sqlerr"
)

// sampleDB is a fresh database with the sample data (rows sales rows).
func sampleDB(tb testing.TB, rows int) *pgtest.DB {
	tb.Helper()
	db := pgtest.NewDB(tb)
	pgtest.LoadSample(tb, db, rows)
	return db
}

func openPostgres(tb testing.TB, dsn string, opts Options) *Postgres {
	tb.Helper()
	cfg, err := pgconfig.Parse(dsn, "")
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := OpenPostgres(ctx, PostgresConfig{Conn: cfg}, opts)
	if err != nil {
		tb.Fatalf("OpenPostgres: %v", err)
	}
	tb.Cleanup(func() { p.Close() })
	return p
}

func stdioPostgresClient(tb testing.TB, dsn string) *client.Client {
	tb.Helper()
	c, err := client.NewStdioMCPClient(os.Args[0],
		[]string{envServeDB + "=" + dsn, envServeTimeout + "=" + testTimeout.String()}, "-test.run=^$")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	initialize(tb, c)
	return c
}

// TestPostgresTransports serves the sample in PostgreSQL, through the
// README's least-privilege role, over every transport: the same tools and
// contracts as over SQLite.
func TestPostgresTransports(t *testing.T) {
	db := sampleDB(t, 2000)
	dsn := db.ReadOnlyRole(t).DSN()
	p := openPostgres(t, dsn, Options{QueryTimeout: testTimeout})
	clients := map[string]*client.Client{
		"inprocess": inProcessClient(t, p),
		"stdio":     stdioPostgresClient(t, dsn),
		"sse":       httpClient(t, p, mcpserve.SSE),
		"http":      httpClient(t, p, mcpserve.StreamableHTTP),
	}
	for name, c := range clients {
		t.Run(name, func(t *testing.T) {
			res := execute(t, c, map[string]any{"query": `SELECT region, count(*) AS n, round(sum(total_amount), 2) AS total
				FROM sales GROUP BY region ORDER BY region`})
			if want := []string{"region", "n", "total"}; !slices.Equal(res.Columns, want) {
				t.Errorf("columns = %v, want %v", res.Columns, want)
			}
			if res.RowCount != 4 || res.Truncated || res.Rows[0][0] != "East" {
				t.Fatalf("result = %+v, want 4 regions starting with East", res)
			}
			var n float64
			for _, r := range res.Rows {
				n += r[1].(float64)
				if _, ok := r[2].(float64); !ok {
					t.Errorf("numeric total %v is %T, want a JSON number", r[2], r[2])
				}
			}
			if n != 2000 {
				t.Errorf("sum of counts = %v, want 2000", n)
			}
			if text, isErr := callTool(t, c, "validate_query", map[string]any{"query": "SELECT sale_date::text FROM sales"}); isErr || text != `{"valid":true}` {
				t.Errorf("validate_query = %s (isError %v), want valid", text, isErr)
			}
			if e := toolError(t, c, "validate_query", map[string]any{"query": "SELECT * FROM sale"}); e.Category != sqlerr.MissingTable {
				t.Errorf("validate_query missing table = %+v", e)
			}
			if e := toolError(t, c, "execute_query", map[string]any{"query": "DELETE FROM sales"}); e.Category != sqlerr.PermissionError {
				t.Errorf("execute_query DELETE = %+v", e)
			}
			s := readSchema(t, c)
			if s.Dialect != "postgres" || s.Database != db.Name || len(s.Tables) != 4 {
				t.Errorf("schema = %s/%s with %d tables, want postgres/%s with 4", s.Dialect, s.Database, len(s.Tables), db.Name)
			}
			tools, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
			if err != nil || len(tools.Tools) != 2 || !strings.Contains(tools.Tools[0].Description, "PostgreSQL") {
				t.Errorf("tools = %+v, %v; want two PostgreSQL tools", tools, err)
			}
		})
	}
}

// TestPostgresSchema reads the schema resource of a database with views,
// a materialized view, an enum, comments, a second schema with a composite
// foreign key into public, and a table the role may not read.
func TestPostgresSchema(t *testing.T) {
	db := sampleDB(t, 2000)
	db.Exec(t,
		"CREATE TYPE priority AS ENUM ('low', 'high', 'urgent')",
		"CREATE TABLE tickets (ticket_id int PRIMARY KEY, order_id int REFERENCES orders, priority priority NOT NULL, note varchar(200))",
		"INSERT INTO tickets SELECT g, g, (ARRAY['low','high','urgent']::priority[])[1 + g % 3], 'n' || g FROM generate_series(1, 50) g",
		"COMMENT ON COLUMN tickets.note IS 'free text from the customer'",
		"CREATE VIEW completed_sales AS SELECT s.* FROM sales s JOIN orders o USING (order_id) WHERE o.status = 'completed'",
		"CREATE MATERIALIZED VIEW region_totals AS SELECT region, sum(total_amount) AS total FROM sales GROUP BY region",
		"CREATE SCHEMA archive",
		"CREATE TABLE archive.order_notes (order_id int, line int, body text, PRIMARY KEY (order_id, line))",
		"CREATE TABLE archive.note_links (order_id int, line int, FOREIGN KEY (order_id, line) REFERENCES archive.order_notes)",
		"CREATE TABLE secrets (k text)",
		"CREATE INDEX tickets_lower_note ON tickets (lower(note))",
	)
	role := db.ReadOnlyRole(t)
	db.Exec(t, "REVOKE SELECT ON secrets FROM "+role.Name)
	p := openPostgres(t, role.DSN(), Options{Today: "2026-06-30"})
	s, err := p.Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s.Dialect != "postgres" || s.Today != "2026-06-30" || s.Database != db.Name {
		t.Errorf("schema header = %s %s %s", s.Dialect, s.Today, s.Database)
	}
	byKey := map[string]schema.Table{}
	var order []string
	for _, tb := range s.Tables {
		byKey[tb.QualifiedName()] = tb
		order = append(order, tb.QualifiedName())
	}
	want := []string{"completed_sales", "customers", "orders", "products", "region_totals", "sales", "tickets",
		"archive.note_links", "archive.order_notes"}
	if !slices.Equal(order, want) {
		t.Fatalf("tables = %v, want %v (public first, no table the role cannot read)", order, want)
	}
	sales := byKey["sales"]
	if sales.Kind != "" || sales.RowCount != 2000 || !strings.Contains(sales.Comment, "Order lines") {
		t.Errorf("sales = kind %q rows %d comment %q", sales.Kind, sales.RowCount, sales.Comment)
	}
	col := func(tb schema.Table, name string) schema.Column {
		for _, c := range tb.Columns {
			if c.Name == name {
				return c
			}
		}
		t.Fatalf("%s has no column %s", tb.Name, name)
		return schema.Column{}
	}
	if c := col(sales, "sale_id"); !c.PrimaryKey || c.Nullable || c.Type != "integer" {
		t.Errorf("sales.sale_id = %+v", c)
	}
	if c := col(sales, "total_amount"); c.Type != "numeric(12,2)" || !strings.Contains(c.Comment, "rounded to cents") {
		t.Errorf("sales.total_amount = %+v", c)
	}
	if c := col(sales, "region"); !slices.Equal(c.DistinctValues, []string{"East", "North", "South", "West"}) {
		t.Errorf("sales.region values = %v", c.DistinctValues)
	}
	if c := col(byKey["orders"], "status"); !slices.Equal(c.DistinctValues, []string{"cancelled", "completed", "pending", "returned"}) {
		t.Errorf("orders.status values = %v", c.DistinctValues)
	}
	if c := col(byKey["customers"], "customer_name"); c.DistinctValues != nil {
		t.Errorf("customer_name has %d distinct values listed, want none (high cardinality)", len(c.DistinctValues))
	}
	wantFK := []schema.ForeignKey{{Column: "order_id", ReferencesTable: "orders", ReferencesColumn: "order_id"},
		{Column: "product_id", ReferencesTable: "products", ReferencesColumn: "product_id"}}
	if !slices.Equal(sales.ForeignKeys, wantFK) {
		t.Errorf("sales foreign keys = %+v, want %+v", sales.ForeignKeys, wantFK)
	}
	if len(sales.Indexes) != 5 {
		t.Errorf("sales indexes = %+v, want the 5 idx_sales_* (not the primary key's)", sales.Indexes)
	}
	tickets := byKey["tickets"]
	if c := col(tickets, "priority"); c.Type != "priority" || !slices.Equal(c.DistinctValues, []string{"high", "low", "urgent"}) {
		t.Errorf("tickets.priority = %+v", c)
	}
	if c := col(tickets, "note"); c.Type != "character varying(200)" || c.Comment != "free text from the customer" || c.DistinctValues != nil {
		t.Errorf("tickets.note = %+v", c)
	}
	if tickets.RowCount != 50 { // never analyzed: counted
		t.Errorf("tickets row count = %d, want 50", tickets.RowCount)
	}
	if ix := tickets.Indexes; len(ix) != 1 || ix[0].Columns[0] != "lower(note::text)" {
		t.Errorf("tickets indexes = %+v, want the expression index", ix)
	}
	view := byKey["completed_sales"]
	if view.Kind != "view" || view.RowCount != -1 || len(view.Columns) != 9 {
		t.Errorf("completed_sales = kind %q rows %d, %d columns", view.Kind, view.RowCount, len(view.Columns))
	}
	if c := col(view, "region"); c.DistinctValues != nil {
		t.Errorf("view column region values = %v, want none (a view has no statistics, and is not sampled)", c.DistinctValues)
	}
	if mv := byKey["region_totals"]; mv.Kind != "view" {
		t.Errorf("materialized view kind = %q, want view", mv.Kind)
	}
	notes, links := byKey["archive.order_notes"], byKey["archive.note_links"]
	if notes.Schema != "archive" || !col(notes, "order_id").PrimaryKey || !col(notes, "line").PrimaryKey {
		t.Errorf("archive.order_notes = %+v", notes)
	}
	if fk := links.ForeignKeys; len(fk) != 1 || fk[0] != (schema.ForeignKey{Column: "order_id,line", ReferencesTable: "archive.order_notes", ReferencesColumn: "order_id,line"}) {
		t.Errorf("composite foreign key = %+v", fk)
	}
	// Today from the server when not pinned (the sessions run in UTC).
	p2 := openPostgres(t, role.DSN(), Options{})
	s2, err := p2.Schema(context.Background())
	if err != nil || s2.Today != time.Now().UTC().Format(time.DateOnly) {
		t.Errorf("today = %q, %v; want the UTC date", s2.Today, err)
	}
	b, _ := json.Marshal(s2.Tables[1])
	if strings.Contains(string(b), `"schema"`) || strings.Contains(string(b), `"kind"`) {
		t.Errorf("a public table's JSON has schema or kind: %s", b)
	}
}

// TestPostgresValues checks the JSON of PostgreSQL's types.
func TestPostgresValues(t *testing.T) {
	db := pgtest.NewDB(t)
	db.Exec(t, "CREATE TYPE mood AS ENUM ('sad', 'happy')")
	p := openPostgres(t, db.DSN(), Options{})
	res, err := p.Query(context.Background(), `SELECT 1::int2 AS a, 2::int4 AS b, 9007199254740993::int8 AS c,
		1.5::float8 AS d, 'NaN'::float8 AS e, '-Infinity'::float4 AS f, 12.30::numeric(5,2) AS g,
		12345678901234567890::numeric AS h, 1/3::numeric AS i, true AS j, 'x'::text AS k, '2026-11-21'::date AS l,
		'2026-11-21 10:00:00.5'::timestamp AS m, '2026-11-21 10:00:00+02'::timestamptz AS n,
		'{"a": 1}'::json AS o, '{"b": [1, 2]}'::jsonb AS p, '\x0102ff'::bytea AS q,
		'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS r, ARRAY[1, NULL, 3] AS s, ARRAY['a', 'b c'] AS t,
		'1 day 02:00'::interval AS u, NULL::text AS v, 'happy'::mood AS w, ARRAY[1.5::numeric] AS x,
		'NaN'::numeric AS y, 100::money AS z`, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.Rows[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `[1,2,9007199254740993,1.5,null,"-Infinity",12.3,"12345678901234567890",0.3333333333333333,true,"x","2026-11-21",` +
		`"2026-11-21T10:00:00.5","2026-11-21T08:00:00Z",{"a":1},{"b":[1,2]},"AQL/","a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",` +
		`[1,null,3],["a","b c"],"1 day 02:00:00",null,"happy",[1.5],null,"$100.00"]`
	if string(b) != want {
		t.Errorf("row JSON =\n%s\nwant\n%s", b, want)
	}
}

// TestPostgresRowsAndTruncation: rows are capped while reading through the
// cursor; truncated says more exist.
func TestPostgresRowsAndTruncation(t *testing.T) {
	db := sampleDB(t, 2000)
	p := openPostgres(t, db.DSN(), Options{MaxRows: 50})
	ctx := context.Background()
	tests := []struct {
		name      string
		query     string
		maxRows   int
		rows      int
		truncated bool
	}{
		{"default cap", "SELECT * FROM sales", 0, 50, true},
		{"explicit cap", "SELECT sale_id FROM sales ORDER BY sale_id", 7, 7, true},
		{"exactly the cap", "SELECT * FROM generate_series(1, 7)", 7, 7, false},
		{"under the cap", "VALUES (1), (2)", 7, 2, false},
		{"table statement", "TABLE products", 1000, 42, false},
		{"trailing semicolons and comment", "SELECT 1 ; ; -- done", 0, 1, false},
		{"explain", "EXPLAIN SELECT * FROM sales WHERE region = 'North'", 0, 2, false},
		{"explain analyze", "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM sales", 0, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := p.Query(ctx, tt.query, tt.maxRows)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Rows) != tt.rows || res.RowCount != tt.rows || res.Truncated != tt.truncated {
				t.Errorf("%d rows (row_count %d), truncated %v; want %d, %v", len(res.Rows), res.RowCount, res.Truncated, tt.rows, tt.truncated)
			}
		})
	}
	if _, err := p.Query(ctx, "SELECT 1", HardMaxRows+1); err == nil {
		t.Error("max rows above the hard limit accepted")
	}
}

// TestPostgresErrorsCategorized: SQLSTATE codes decide the category, and
// the message keeps PostgreSQL's words and hint.
func TestPostgresErrorsCategorized(t *testing.T) {
	db := sampleDB(t, 2000)
	p := openPostgres(t, db.DSN(), Options{QueryTimeout: testTimeout})
	tests := []struct {
		name, query string
		want        sqlerr.Category
		msg         string
	}{
		{"missing column", "SELECT totl FROM sales", sqlerr.MissingColumn, `column "totl" does not exist`},
		{"missing table", "SELECT * FROM sale", sqlerr.MissingTable, `relation "sale" does not exist`},
		{"syntax", "SELECT * FORM sales", sqlerr.SyntaxError, "syntax error"},
		{"grouping", "SELECT region, sum(total_amount) FROM sales", sqlerr.AggregationError, "must appear in the GROUP BY clause"},
		{"ambiguous", "SELECT region FROM sales JOIN customers USING (customer_id)", sqlerr.MissingColumn, "customer_id"},
		{"ambiguous column", "SELECT region FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id", sqlerr.AmbiguousColumn, "ambiguous"},
		{"operator type mismatch", "SELECT * FROM sales WHERE region = 1", sqlerr.DataTypeMismatch, "operator does not exist: text = integer"},
		{"function for other argument types", "SELECT round(total_amount::float8, 1) FROM sales", sqlerr.DataTypeMismatch, "function round(double precision, integer) does not exist"},
		{"unknown function", "SELECT strftime('%Y', sale_date) FROM sales", sqlerr.SyntaxError, "function strftime(unknown, date) does not exist"},
		{"bad input", "SELECT * FROM sales WHERE sale_date > 'yesterday-ish'", sqlerr.DataTypeMismatch, "invalid input syntax for type date"},
		{"division by zero", "SELECT 1 / 0", sqlerr.DataTypeMismatch, "division by zero"},
		{"statement timeout", "SELECT count(*) FROM sales a, sales b, sales c", sqlerr.Timeout, "statement timeout"},
		{"runaway recursion", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", sqlerr.Timeout, "statement timeout"},
		{"parameter", "SELECT * FROM sales WHERE sale_id = $1", sqlerr.SyntaxError, "parameter placeholder $1"},
		{"unterminated string", "SELECT 'abc", sqlerr.SyntaxError, "unterminated quoted string"},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Query(ctx, tt.query, 0)
			var se *sqlerr.Error
			if !errors.As(err, &se) || se.Category != tt.want || !strings.Contains(se.Message, tt.msg) {
				t.Fatalf("Query(%q) = %v, want %s containing %q", tt.query, err, tt.want, tt.msg)
			}
			if tt.want == sqlerr.Timeout {
				return
			}
			verr := p.Validate(ctx, tt.query)
			var ve *sqlerr.Error
			if tt.name == "division by zero" || tt.name == "bad input" {
				return // found when the statement runs, not when it is parsed
			}
			if !errors.As(verr, &ve) || ve.Category != tt.want {
				t.Errorf("Validate(%q) = %v, want %s", tt.query, verr, tt.want)
			}
		})
	}
	// The pool is healthy after all that.
	if res, err := p.Query(ctx, "SELECT count(*) FROM sales", 0); err != nil || res.Rows[0][0] != int64(2000) {
		t.Errorf("count after errors = %v, %v", res, err)
	}
}

// TestPostgresConnectErrors: a wrong password, database, port or DSN is a
// one-line error naming the target and what to fix, never the password.
func TestPostgresConnectErrors(t *testing.T) {
	db := pgtest.NewDB(t)
	secret := "s3cret-not-this-one"
	tests := []struct {
		name, dsn, want string
	}{
		{"wrong password", db.DSNAs(pgtest.Superuser, secret), "password authentication failed: check the password"},
		{"no such database", strings.Replace(db.DSN(), "/"+db.Name+"?", "/nosuchdb?", 1), `database "nosuchdb" does not exist`},
		{"nothing listening", "postgres://x:" + secret + "@127.0.0.1:1/db?sslmode=disable&connect_timeout=5",
			`postgres 127.0.0.1:1 database "db" user "x": cannot reach the server (connection refused)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := pgconfig.Parse(tt.dsn, "")
			if err != nil {
				t.Fatal(err)
			}
			_, err = OpenPostgres(context.Background(), PostgresConfig{Conn: cfg}, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("OpenPostgres error = %v, want %q", err, tt.want)
			}
			if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error leaks the password or spans lines: %q", err)
			}
		})
	}
}
