package databasemcp

import (
	"context"
	"database/sql"
	"os"
	"strconv"
	"sync/atomic"
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
	db, err := sql.Open("sqlite", readOnlyDSN(path, mmapSize(benchRows*200)))
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

// BenchmarkConcurrentReads runs issue 13's analyst query (a 3-table join
// and GROUP BY) from 2 goroutines per core, on the driver's default DSN and
// on database-mcp's (memory-mapped): the default's throughput does not grow
// with goroutines (pread and the shared page-cache mutex), the mapped one's
// does. Compare ns/op between the two.
func BenchmarkConcurrentReads(b *testing.B) {
	path := testfixture.SalesDB(b, benchRows)
	const query = `SELECT c.region, ROUND(SUM(s.total_amount), 2), COUNT(*) FROM sales s
JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.region`
	for _, c := range []struct{ name, dsn string }{
		{"default", "file:" + path + "?mode=ro"},
		{"mmap", readOnlyDSN(path, mmapSize(benchRows*200))},
	} {
		b.Run(c.name, func(b *testing.B) {
			db, err := sql.Open("sqlite", c.dsn)
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(8)
			db.SetMaxIdleConns(8)
			b.SetParallelism(2)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					var n int
					rows, err := db.Query(query)
					if err != nil {
						b.Error(err)
						return
					}
					for rows.Next() {
						n++
					}
					rows.Close()
					if n != 4 {
						b.Errorf("rows = %d, want 4 regions", n)
						return
					}
				}
			})
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

// BenchmarkAnalystMix runs three analyst queries of the load mix (a grouped
// 3-table join, a top-N with 2 joins, a monthly strftime trend) through DB
// with two clients per core, each going through the mix. A test binary runs
// modernc's default allocator (nothing installs the sharded one on import);
// `go run ./scripts/load -allocators sharded,libc` compares the two.
func BenchmarkAnalystMix(b *testing.B) {
	path := testfixture.SalesDB(b, benchRows)
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	queries := []string{
		`SELECT c.region, ROUND(SUM(s.total_amount), 2) AS revenue, COUNT(*) FROM sales s
JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.region ORDER BY revenue DESC`,
		`SELECT p.product_name, ROUND(SUM(s.total_amount), 2) AS revenue FROM sales s
JOIN products p ON p.product_id = s.product_id JOIN orders o ON o.order_id = s.order_id
WHERE o.status = 'completed' GROUP BY p.product_name ORDER BY revenue DESC LIMIT 10`,
		`SELECT strftime('%Y-%m', sale_date) AS month, ROUND(SUM(total_amount), 2), COUNT(*) FROM sales GROUP BY month ORDER BY month`,
	}
	b.Logf("sqlite allocator: %s", AllocatorState())
	var next atomic.Int64
	if p, err := strconv.Atoi(os.Getenv("BENCH_PARALLELISM")); err == nil && p > 0 {
		b.SetParallelism(p)
	}
	b.RunParallel(func(pb *testing.PB) {
		i := int(next.Add(1))
		for pb.Next() {
			if _, err := db.Query(context.Background(), queries[i%len(queries)], 100); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
}
