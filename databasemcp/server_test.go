package databasemcp

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/internal/testfixture"
	"talk2tables/schema"
	"talk2tables/sqlerr"
)

func TestTransports(t *testing.T) {
	path := testfixture.SalesDB(t, 2000)
	for name, c := range clientsFor(t, path) {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()

			tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil {
				t.Fatalf("list tools: %v", err)
			}
			var names []string
			for _, tool := range tools.Tools {
				names = append(names, tool.Name)
				a := tool.Annotations
				if a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
					t.Errorf("tool %s annotations = %+v, want read-only and not destructive", tool.Name, a)
				}
				if !slices.Contains(tool.InputSchema.Required, "query") {
					t.Errorf("tool %s required = %v, want query", tool.Name, tool.InputSchema.Required)
				}
			}
			slices.Sort(names)
			if want := []string{"execute_query", "validate_query"}; !slices.Equal(names, want) {
				t.Errorf("tools = %v, want %v", names, want)
			}

			res := execute(t, c, map[string]any{"query": "SELECT region, count(*) AS n FROM sales GROUP BY region ORDER BY region"})
			if want := []string{"region", "n"}; !slices.Equal(res.Columns, want) {
				t.Errorf("columns = %v, want %v", res.Columns, want)
			}
			if res.RowCount != 4 || len(res.Rows) != 4 || res.Truncated || res.Rows[0][0] != "East" {
				t.Errorf("result = %+v, want 4 regions starting with East, not truncated", res)
			}
			var total float64
			for _, r := range res.Rows {
				total += r[1].(float64)
			}
			if total != 2000 {
				t.Errorf("sum of counts = %v, want 2000", total)
			}

			if text, isErr := callTool(t, c, "validate_query", map[string]any{"query": "SELECT * FROM sales"}); isErr || text != `{"valid":true}` {
				t.Errorf("validate_query valid = %s (isError %v), want {\"valid\":true}", text, isErr)
			}
			if e := toolError(t, c, "validate_query", map[string]any{"query": "SELECT * FROM sale"}); e.Category != sqlerr.MissingTable {
				t.Errorf("validate_query category = %s, want %s", e.Category, sqlerr.MissingTable)
			}
			if e := toolError(t, c, "execute_query", map[string]any{"query": "DELETE FROM sales"}); e.Category != sqlerr.PermissionError {
				t.Errorf("execute_query DELETE category = %s, want %s", e.Category, sqlerr.PermissionError)
			}

			s := readSchema(t, c)
			if s.Dialect != "sqlite" || s.Database != "sales.db" || len(s.Tables) != 4 {
				t.Errorf("schema = %s/%s with %d tables, want sqlite/sales.db with 4", s.Dialect, s.Database, len(s.Tables))
			}
		})
	}
}

func readSchema(tb testing.TB, c *client.Client) *schema.Schema {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		tb.Fatalf("list resources: %v", err)
	}
	if len(list.Resources) != 1 || list.Resources[0].URI != SchemaURI || list.Resources[0].MIMEType != "application/json" {
		tb.Fatalf("resources = %+v, want one %s (application/json)", list.Resources, SchemaURI)
	}
	req := mcp.ReadResourceRequest{}
	req.Params.URI = SchemaURI
	res, err := c.ReadResource(ctx, req)
	if err != nil {
		tb.Fatalf("read %s: %v", SchemaURI, err)
	}
	if len(res.Contents) != 1 {
		tb.Fatalf("read %s: %d contents, want 1", SchemaURI, len(res.Contents))
	}
	tc, ok := mcp.AsTextResourceContents(res.Contents[0])
	if !ok || tc.MIMEType != "application/json" {
		tb.Fatalf("read %s: contents %+v, want application/json text", SchemaURI, res.Contents[0])
	}
	var s schema.Schema
	if err := json.Unmarshal([]byte(tc.Text), &s); err != nil {
		tb.Fatalf("decode schema: %v", err)
	}
	return &s
}

func TestSchemaResource(t *testing.T) {
	c := inProcessClient(t, openDB(t, testfixture.SalesDB(t, 2000), Options{}))
	s := readSchema(t, c)

	var today string
	if err := openDB(t, testfixture.SalesDB(t, 10), Options{}).sql.QueryRow("SELECT date('now')").Scan(&today); err != nil {
		t.Fatal(err)
	}
	if s.Today != today {
		t.Errorf("today = %q, want %q", s.Today, today)
	}
	tables := map[string]schema.Table{}
	var names []string
	for _, tb := range s.Tables {
		tables[tb.Name] = tb
		names = append(names, tb.Name)
	}
	if want := []string{"customers", "orders", "products", "sales"}; !slices.Equal(names, want) {
		t.Fatalf("tables = %v, want %v", names, want)
	}
	sales := tables["sales"]
	if sales.RowCount != 2000 {
		t.Errorf("sales row_count = %d, want 2000", sales.RowCount)
	}
	cols := map[string]schema.Column{}
	for _, c := range sales.Columns {
		cols[c.Name] = c
	}
	if len(sales.Columns) != 9 {
		t.Errorf("sales has %d columns, want 9", len(sales.Columns))
	}
	if got, want := cols["region"], (schema.Column{Name: "region", Type: "TEXT", DistinctValues: []string{"East", "North", "South", "West"}}); !reflect.DeepEqual(got, want) {
		t.Errorf("sales.region = %+v, want %+v", got, want)
	}
	if got := cols["sale_id"]; !got.PrimaryKey || got.Nullable || got.Type != "INTEGER" {
		t.Errorf("sales.sale_id = %+v, want INTEGER primary key, not nullable", got)
	}
	if got := cols["sale_date"]; got.DistinctValues != nil {
		t.Errorf("sales.sale_date distinct values = %v, want none (high cardinality)", got.DistinctValues)
	}
	wantFK := []schema.ForeignKey{
		{Column: "product_id", ReferencesTable: "products", ReferencesColumn: "product_id"},
		{Column: "order_id", ReferencesTable: "orders", ReferencesColumn: "order_id"},
	}
	if !sameElements(sales.ForeignKeys, wantFK) {
		t.Errorf("sales foreign keys = %+v, want %+v", sales.ForeignKeys, wantFK)
	}
	wantIdx := []schema.Index{
		{Name: "idx_sales_order_id", Columns: []string{"order_id"}},
		{Name: "idx_sales_product_id", Columns: []string{"product_id"}},
		{Name: "idx_sales_region", Columns: []string{"region"}},
		{Name: "idx_sales_region_sale_date", Columns: []string{"region", "sale_date"}},
		{Name: "idx_sales_sale_date", Columns: []string{"sale_date"}},
	}
	if !reflect.DeepEqual(sales.Indexes, wantIdx) {
		t.Errorf("sales indexes = %+v, want %+v", sales.Indexes, wantIdx)
	}
	status := map[string]schema.Column{}
	for _, c := range tables["orders"].Columns {
		status[c.Name] = c
	}
	if got, want := status["status"].DistinctValues, []string{"cancelled", "completed", "pending", "returned"}; !slices.Equal(got, want) {
		t.Errorf("orders.status distinct values = %v, want %v", got, want)
	}
	for _, c := range tables["customers"].Columns {
		if c.Name == "email" && (!c.Nullable || c.DistinctValues != nil) {
			t.Errorf("customers.email = %+v, want nullable without distinct values", c)
		}
	}
	for _, tb := range s.Tables {
		for _, ix := range tb.Indexes {
			if strings.HasPrefix(ix.Name, "sqlite_autoindex") {
				t.Errorf("table %s lists automatic index %s, want it left out", tb.Name, ix.Name)
			}
		}
	}
	if got := tables["orders"].ForeignKeys; len(got) != 1 || got[0].ReferencesColumn != "customer_id" {
		t.Errorf("orders foreign keys = %+v, want customer_id -> customers.customer_id", got)
	}
}

func sameElements[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

// TestErrorCategories drives every category with a real SQLite message
// through every transport.
func TestErrorCategories(t *testing.T) {
	tests := []struct {
		name     string
		query    string
		want     sqlerr.Category
		contains string
		runtime  bool // detected only when run: validate_query accepts it
	}{
		{name: "syntax near", query: "SELECT * FORM sales", want: sqlerr.SyntaxError, contains: "near"},
		{name: "incomplete input", query: "SELECT * FROM sales WHERE", want: sqlerr.SyntaxError, contains: "incomplete input"},
		{name: "unknown function", query: "SELECT nosuchfn(1)", want: sqlerr.SyntaxError, contains: "no such function"},
		{name: "missing table", query: "SELECT * FROM sale", want: sqlerr.MissingTable, contains: "no such table: sale"},
		{name: "missing column", query: "SELECT revenue FROM sales", want: sqlerr.MissingColumn, contains: "no such column: revenue"},
		{name: "ambiguous column", query: "SELECT region FROM sales s JOIN customers c ON 1", want: sqlerr.AmbiguousColumn, contains: "ambiguous column name: region"},
		{name: "misuse of aggregate", query: "SELECT region FROM sales WHERE sum(quantity) > 1", want: sqlerr.AggregationError, contains: "misuse of aggregate"},
		{name: "nested aggregate", query: "SELECT sum(sum(quantity)) FROM sales", want: sqlerr.AggregationError, contains: "misuse of aggregate"},
		{name: "datatype mismatch", query: "SELECT * FROM sales LIMIT 'x'", want: sqlerr.DataTypeMismatch, contains: "datatype mismatch", runtime: true},
		{name: "permission", query: "UPDATE sales SET quantity = 0", want: sqlerr.PermissionError, contains: "only read-only SELECT"},
		{name: "permission by authorizer", query: "SELECT load_extension('x')", want: sqlerr.PermissionError, contains: "only read-only SELECT"},
		{name: "timeout", query: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c", want: sqlerr.Timeout, contains: "interrupted", runtime: true},
		{name: "unknown integer overflow", query: "SELECT abs(-9223372036854775808)", want: sqlerr.UnknownError, contains: "integer overflow", runtime: true},
		{name: "unknown malformed json", query: "SELECT json('{')", want: sqlerr.UnknownError, contains: "malformed JSON", runtime: true},
	}
	for name, c := range clientsFor(t, testfixture.SalesDB(t, 500)) {
		t.Run(name, func(t *testing.T) {
			for _, tt := range tests {
				e := toolError(t, c, "execute_query", map[string]any{"query": tt.query})
				if e.Category != tt.want || !strings.Contains(e.Message, tt.contains) {
					t.Errorf("%s: execute_query(%q) = %s %q, want %s containing %q", tt.name, tt.query, e.Category, e.Message, tt.want, tt.contains)
				}
				if tt.runtime {
					if text, isErr := callTool(t, c, "validate_query", map[string]any{"query": tt.query}); isErr {
						t.Errorf("%s: validate_query(%q) = %s, want valid (the error happens at run time)", tt.name, tt.query, text)
					}
					continue
				}
				v := toolError(t, c, "validate_query", map[string]any{"query": tt.query})
				if v != e {
					t.Errorf("%s: validate_query error = %+v, want the execute_query error %+v", tt.name, v, e)
				}
			}
		})
	}
}

func TestQueries(t *testing.T) {
	c := inProcessClient(t, openDB(t, testfixture.SalesDB(t, 2000), Options{QueryTimeout: testTimeout}))
	tests := []struct {
		name    string
		query   string
		maxRows any
		columns []string
		rows    [][]any // nil: only the count is checked
		count   int
		trunc   bool
	}{
		{name: "string that is a keyword", query: "SELECT 'update' AS w", columns: []string{"w"}, rows: [][]any{{"update"}}, count: 1},
		{name: "replace function", query: "SELECT replace(region,'N','n') AS r FROM sales WHERE region = 'North' LIMIT 1", columns: []string{"r"}, rows: [][]any{{"north"}}, count: 1},
		{name: "identifier updated_at", query: "SELECT 1 AS updated_at, 'drop table' AS deleted", columns: []string{"updated_at", "deleted"}, rows: [][]any{{1.0, "drop table"}}, count: 1},
		{name: "semicolon inside string", query: "SELECT 'a;b' AS s;", columns: []string{"s"}, rows: [][]any{{"a;b"}}, count: 1},
		{name: "trailing comment", query: "SELECT 1 AS one; -- done\n", columns: []string{"one"}, rows: [][]any{{1.0}}, count: 1},
		{name: "quoted identifier with semicolon", query: `SELECT 2 AS "x;DELETE"`, columns: []string{"x;DELETE"}, rows: [][]any{{2.0}}, count: 1},
		{name: "value types", query: "SELECT 1 AS i, 2.5 AS f, 'x' AS s, NULL AS n, x'41' AS b", columns: []string{"i", "f", "s", "n", "b"}, rows: [][]any{{1.0, 2.5, "x", nil, "A"}}, count: 1},
		{name: "values", query: "VALUES (1, 'a')", columns: []string{"column1", "column2"}, rows: [][]any{{1.0, "a"}}, count: 1},
		{name: "cte", query: "WITH t AS (SELECT region, SUM(total_amount) AS total FROM sales GROUP BY region) SELECT region FROM t ORDER BY region",
			columns: []string{"region"}, rows: [][]any{{"East"}, {"North"}, {"South"}, {"West"}}, count: 4},
		{name: "recursive cte", query: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 5) SELECT sum(x) AS s FROM c",
			columns: []string{"s"}, rows: [][]any{{15.0}}, count: 1},
		{name: "explain query plan", query: "EXPLAIN QUERY PLAN SELECT * FROM sales WHERE sale_date > '2026-01-01'", count: 1},
		{name: "explain", query: "EXPLAIN SELECT 1", count: -1},
		{name: "row cap", query: "SELECT sale_id FROM sales ORDER BY sale_id", maxRows: 5, columns: []string{"sale_id"},
			rows: [][]any{{1.0}, {2.0}, {3.0}, {4.0}, {5.0}}, count: 5, trunc: true},
		{name: "row cap exact", query: "SELECT sale_id FROM sales ORDER BY sale_id LIMIT 3", maxRows: 3, count: 3},
		{name: "default row cap", query: "SELECT sale_id FROM sales", count: DefaultMaxRows, trunc: true},
		{name: "row cap on an endless stream", query: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c",
			maxRows: 10, count: 10, trunc: true},
		{name: "empty result", query: "SELECT * FROM sales WHERE 0", count: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := map[string]any{"query": tt.query}
			if tt.maxRows != nil {
				args["max_rows"] = tt.maxRows
			}
			res := execute(t, c, args)
			if tt.columns != nil && !slices.Equal(res.Columns, tt.columns) {
				t.Errorf("columns = %v, want %v", res.Columns, tt.columns)
			}
			if tt.rows != nil && !reflect.DeepEqual(res.Rows, tt.rows) {
				t.Errorf("rows = %v, want %v", res.Rows, tt.rows)
			}
			if tt.count >= 0 && (res.RowCount != tt.count || len(res.Rows) != tt.count) {
				t.Errorf("row_count = %d (%d rows), want %d", res.RowCount, len(res.Rows), tt.count)
			}
			if tt.count < 0 && res.RowCount == 0 {
				t.Errorf("row_count = 0, want rows")
			}
			if res.Truncated != tt.trunc {
				t.Errorf("truncated = %v, want %v", res.Truncated, tt.trunc)
			}
			if res.ElapsedMS < 0 {
				t.Errorf("elapsed_ms = %v, want >= 0", res.ElapsedMS)
			}
			if res.Rows == nil || res.Columns == nil {
				t.Errorf("rows/columns are null, want arrays")
			}
		})
	}
}

func TestBadArguments(t *testing.T) {
	c := inProcessClient(t, openDB(t, testfixture.SalesDB(t, 10), Options{}))
	tests := []struct {
		name     string
		tool     string
		args     map[string]any
		contains string
	}{
		{name: "missing query", tool: "execute_query", args: map[string]any{}, contains: `"query" is required`},
		{name: "missing query validate", tool: "validate_query", args: map[string]any{}, contains: `"query" is required`},
		{name: "query not a string", tool: "execute_query", args: map[string]any{"query": 42}, contains: `"query" must be a string`},
		{name: "max_rows zero", tool: "execute_query", args: map[string]any{"query": "SELECT 1", "max_rows": 0}, contains: `"max_rows" must be an integer from 1 to 100000`},
		{name: "max_rows negative", tool: "execute_query", args: map[string]any{"query": "SELECT 1", "max_rows": -1}, contains: `"max_rows"`},
		{name: "max_rows fraction", tool: "execute_query", args: map[string]any{"query": "SELECT 1", "max_rows": 1.5}, contains: `"max_rows"`},
		{name: "max_rows string", tool: "execute_query", args: map[string]any{"query": "SELECT 1", "max_rows": "10"}, contains: `"max_rows" must be a positive integer`},
		{name: "max_rows above hard max", tool: "execute_query", args: map[string]any{"query": "SELECT 1", "max_rows": HardMaxRows + 1}, contains: "100001"},
		{name: "empty query", tool: "execute_query", args: map[string]any{"query": "  -- nothing\n"}, contains: "empty query"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := toolError(t, c, tt.tool, tt.args)
			if !strings.Contains(e.Message, tt.contains) {
				t.Errorf("message = %q, want it to contain %q", e.Message, tt.contains)
			}
		})
	}
	if res := execute(t, c, map[string]any{"query": "SELECT 1", "max_rows": HardMaxRows}); res.RowCount != 1 {
		t.Errorf("max_rows at the hard max: row_count = %d, want 1", res.RowCount)
	}
}

// TestTimeoutLeavesConnectionsUsable runs more timeouts than the pool has
// connections, concurrently, then uses every connection again.
func TestTimeoutLeavesConnectionsUsable(t *testing.T) {
	db := openDB(t, testfixture.SalesDB(t, 2000), Options{QueryTimeout: testTimeout})
	ctx := context.Background()
	queries := []string{
		"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c",
		"SELECT count(*) FROM sales a, sales b, sales c",
		// The first row comes at once; the second needs the cartesian join,
		// so only an interrupt during a later step can stop it.
		"SELECT 1 UNION ALL SELECT count(*) FROM sales a, sales b, sales c",
	}
	poolSize := db.opts.Connections
	errs := make(chan error, 2*poolSize)
	for i := range 2 * poolSize {
		go func() {
			_, err := db.Query(ctx, queries[i%len(queries)], 10)
			errs <- err
		}()
	}
	for range 2 * poolSize {
		if got := sqlerr.CategoryOf(<-errs); got != sqlerr.Timeout {
			t.Errorf("category = %q, want %s", got, sqlerr.Timeout)
		}
	}
	for range 2 * poolSize {
		res, err := db.Query(ctx, "SELECT count(*) FROM sales", 0)
		if err != nil {
			t.Fatalf("query after timeouts: %v", err)
		}
		if got := res.Rows[0][0]; got != int64(2000) {
			t.Fatalf("count after timeouts = %v, want 2000", got)
		}
	}
	// A cancelled request also interrupts and reports TIMEOUT.
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := db.Query(cctx, queries[0], 10); sqlerr.CategoryOf(err) != sqlerr.Timeout {
		t.Errorf("cancelled query error = %v, want %s", err, sqlerr.Timeout)
	}
}

// TestLoggingSetLevel: the server declares logging, so a client (and the
// MCP conformance suite's logging-set-level scenario) may set its level.
func TestLoggingSetLevel(t *testing.T) {
	c, err := client.NewInProcessClientWithOptions(NewServer(openDB(t, testfixture.SalesDB(t, 10), Options{}), nil),
		client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	res, err := c.Initialize(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Capabilities.Logging == nil {
		t.Error("capabilities.logging not declared")
	}
	if err := c.SetLevel(ctx, mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevelWarning}}); err != nil {
		t.Errorf("logging/setLevel: %v", err)
	}
}
