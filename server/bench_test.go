package server

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"testing"

	"talk2tables/config"

	_ "modernc.org/sqlite" // the floor: the bare engine through its own driver
)

// benchQueries are the statements of BenchmarkSQL: a point lookup, where
// what serve adds per request shows whole, and a wide result, where the
// rows' way through MCP and JSON does.
var benchQueries = []struct{ name, sql string }{
	{"lookup", "SELECT o.order_id, o.order_date, o.status, c.customer_name, c.region FROM orders o JOIN customers c ON c.customer_id = o.customer_id WHERE o.order_id = "},
	{"rows1000", "SELECT s.sale_id, s.sale_date, s.quantity, s.total_amount, p.product_name FROM sales s JOIN products p ON p.product_id = s.product_id WHERE s.sale_id > "},
}

// benchSQL is query i of benchQueries for the n-th request: the key moves
// so that no two requests are alike (the result cache is off anyway).
func benchSQL(i, n int) string {
	key := strconv.Itoa(1 + (n*7919)%2000)
	if i == 1 {
		return benchQueries[i].sql + key + " ORDER BY s.sale_id LIMIT 1000"
	}
	return benchQueries[i].sql + key
}

// BenchmarkSQL is POST /api/sql through the real Gin handler, orchestrator
// and database MCP (in-process; the load tool measures the stdio child),
// result cache off, beside the same statements on the bare engine in the
// same run:
//
//	go test -run '^$' -bench SQL -benchmem ./server/
//	go test -run '^$' -bench 'SQL/api/lookup' -cpuprofile /tmp/sql.prof ./server/
//
// The api side's ns/op less the floor's is what serve adds per request
// (HTTP on loopback with its client included).
func BenchmarkSQL(b *testing.B) {
	st := newStack(b, stackOptions{logLevel: slog.LevelError, rows: 20000,
		orch: func(c *config.Config) { c.Orchestration.ResultCache.Enabled = false }}) // every request runs its query
	db, err := sql.Open("sqlite", "file:"+st.dbPath+"?mode=ro&_pragma=mmap_size(268435456)")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	for i, q := range benchQueries {
		b.Run("floor/"+q.name, func(b *testing.B) {
			conn, err := db.Conn(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			for n := 0; b.Loop(); n++ {
				if err := readAll(conn, benchSQL(i, n)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("api/"+q.name, func(b *testing.B) {
			client := &http.Client{}
			for n := 0; b.Loop(); n++ {
				body := []byte(`{"sql":` + strconv.Quote(benchSQL(i, n)) + `,"max_rows":1000}`)
				resp, err := client.Post(st.URL+"/api/sql", "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				out, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK || !bytes.Contains(out, []byte(`"rows"`)) {
					b.Fatalf("status %d, %v: %.300s", resp.StatusCode, err, out)
				}
			}
		})
	}
}

// readAll runs query on conn and reads every value of every row through
// the driver.
func readAll(conn *sql.Conn, query string) error {
	return conn.Raw(func(dc any) error {
		rows, err := dc.(driver.QueryerContext).QueryContext(context.Background(), query, nil)
		if err != nil {
			return err
		}
		dest := make([]driver.Value, len(rows.Columns()))
		for {
			if err := rows.Next(dest); err != nil {
				rows.Close()
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
		}
	})
}
