package databasemcp

import (
	"context"
	"database/sql"
	"testing"

	"github.com/mark3labs/mcp-go/client"

	"talk2tables/internal/pgtest"
	"talk2tables/internal/testfixture"
)

// The two benchmark queries, over a 50,000-row sales table.
const (
	benchPointQuery   = "SELECT * FROM products WHERE product_id = 123"
	benchGroupByQuery = "SELECT region, SUM(total_amount) FROM sales GROUP BY region"
	benchRows         = 50000
)

var benchQueries = []struct{ name, query string }{
	{"point", benchPointQuery},
	{"groupby", benchGroupByQuery},
}

// BenchmarkDirect runs the queries through database/sql on a read-only
// connection: the baseline the MCP round trips are compared with.
func BenchmarkDirect(b *testing.B) {
	path := testfixture.SalesDB(b, benchRows)
	db, err := sql.Open("sqlite", readOnlyDSN(path))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for _, q := range benchQueries {
		b.Run(q.name, func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				rows, err := db.QueryContext(ctx, q.query)
				if err != nil {
					b.Fatal(err)
				}
				cols, _ := rows.Columns()
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				n := 0
				for rows.Next() {
					if err := rows.Scan(ptrs...); err != nil {
						b.Fatal(err)
					}
					n++
				}
				if err := rows.Close(); err != nil || n == 0 {
					b.Fatalf("rows = %d, err = %v", n, err)
				}
			}
		})
	}
}

// BenchmarkInProcess is an execute_query round trip through mcp-go's
// in-process client.
func BenchmarkInProcess(b *testing.B) {
	path := testfixture.SalesDB(b, benchRows)
	benchClient(b, inProcessClient(b, openDB(b, path, Options{})))
}

// BenchmarkStdio is an execute_query round trip over stdio to a child
// process (this test binary, re-executed as the server).
func BenchmarkStdio(b *testing.B) {
	path := testfixture.SalesDB(b, benchRows)
	benchClient(b, stdioClient(b, path))
}

func benchClient(b *testing.B, c *client.Client) {
	for _, q := range benchQueries {
		b.Run(q.name, func(b *testing.B) {
			args := map[string]any{"query": q.query}
			execute(b, c, args) // warm up the connection pool and page cache
			for b.Loop() {
				if res := execute(b, c, args); res.RowCount == 0 {
					b.Fatal("no rows")
				}
			}
		})
	}
}

// BenchmarkPostgres runs the same queries on the sample in PostgreSQL:
// straight through a pgx connection (the baseline), through the backend
// (guards, read-only transaction, cursor, JSON values: one round trip) and
// as an execute_query round trip through mcp-go's in-process client.
func BenchmarkPostgres(b *testing.B) {
	db := pgtest.NewDB(b)
	pgtest.LoadSample(b, db, benchRows)
	conn := db.Conn(b)
	p := openPostgres(b, db.DSN(), Options{})
	ctx := context.Background()
	for _, q := range benchQueries {
		b.Run("pgx/"+q.name, func(b *testing.B) {
			for b.Loop() {
				rows, err := conn.Query(ctx, q.query)
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for rows.Next() {
					if _, err := rows.Values(); err != nil {
						b.Fatal(err)
					}
					n++
				}
				if rows.Close(); rows.Err() != nil || n == 0 {
					b.Fatalf("rows = %d, err = %v", n, rows.Err())
				}
			}
		})
		b.Run("backend/"+q.name, func(b *testing.B) {
			for b.Loop() {
				if res, err := p.Query(ctx, q.query, 0); err != nil || res.RowCount == 0 {
					b.Fatalf("Query = %v, %v", res, err)
				}
			}
		})
	}
	b.Run("inprocess", func(b *testing.B) { benchClient(b, inProcessClient(b, p)) })
}
