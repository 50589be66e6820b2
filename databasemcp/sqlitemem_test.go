package databasemcp

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"modernc.org/libc"

	"talk2tables/internal/testfixture"
)

func bytesAt(p uintptr, n int) []byte { return unsafe.Slice((*byte)(at(p)), n) }

// The test binary, like database-mcp, installs the sharded allocator in
// init: every SQLite test of the package runs on it.
func TestShardedAllocatorInstalled(t *testing.T) {
	if os.Getenv(AllocatorEnv) == "libc" {
		t.Skip("libc allocator chosen by the environment")
	}
	if want := fmt.Sprintf("sharded(%d)", shardCount()); AllocatorState() != want {
		t.Fatalf("AllocatorState() = %q, want %q", AllocatorState(), want)
	}
}

func TestShardedAllocatorBlocks(t *testing.T) {
	if allocShards == nil {
		t.Skip("sharded allocator not installed: " + AllocatorState())
	}
	a, b := libc.NewTLS(), libc.NewTLS()
	defer a.Close()
	defer b.Close()

	p := sqliteMalloc(a, 13)
	if p == 0 {
		t.Fatal("malloc(13) = 0")
	}
	if p%16 != 0 {
		t.Errorf("block %#x is not 16-byte aligned", p)
	}
	if got := sqliteSize(a, p); got != 16 {
		t.Errorf("size of malloc(13) = %d, want 16 (rounded up to 8)", got)
	}
	if got := sqliteRoundup(a, 13); got != 16 {
		t.Errorf("roundup(13) = %d, want 16", got)
	}
	copy(bytesAt(p, 13), "hello, sqlite")

	// Growing past the slot moves the block and keeps its bytes; the new
	// block belongs to the shard of the connection that grew it.
	q := sqliteRealloc(b, p, 100000)
	if q == 0 {
		t.Fatal("realloc to 100000 = 0")
	}
	if got := string(bytesAt(q, 13)); got != "hello, sqlite" {
		t.Errorf("after growing: %q, want the old bytes", got)
	}
	if got := sqliteSize(b, q); got != 100000 {
		t.Errorf("size after growing = %d, want 100000", got)
	}
	if blockShard(q) != &allocShards[int(uint32(b.ID)%uint32(len(allocShards)))] {
		t.Error("a moved block is not in the shard of the connection that moved it")
	}
	// Shrinking stays in place.
	if r := sqliteRealloc(b, q, 10); r != q || sqliteSize(b, r) != 16 {
		t.Errorf("shrink: block %#x size %d, want %#x size 16", r, sqliteSize(b, r), q)
	}
	// Freed from another connection than the one that allocated it.
	sqliteFree(a, q)
	sqliteFree(a, 0)
	if sqliteMalloc(a, -1) != 0 {
		t.Error("malloc(-1) must fail")
	}
}

// Blocks allocated, grown and freed by many goroutines at once, each
// checking its own bytes: a shard mix-up would corrupt them (and -race
// sees unsynchronised shard use).
func TestShardedAllocatorConcurrent(t *testing.T) {
	if allocShards == nil {
		t.Skip("sharded allocator not installed: " + AllocatorState())
	}
	var wg sync.WaitGroup
	handoff := make(chan uintptr, 64)
	for g := range 8 {
		wg.Go(func() {
			tls := libc.NewTLS()
			defer tls.Close()
			for i := range 2000 {
				n := int32(8 + (i*37+g*101)%5000)
				p := sqliteMalloc(tls, n)
				if p == 0 {
					t.Error("malloc failed")
					return
				}
				mark := byte(g*31 + i)
				b := bytesAt(p, int(n))
				for j := range b {
					b[j] = mark
				}
				p = sqliteRealloc(tls, p, 2*n)
				for j, c := range bytesAt(p, int(n)) {
					if c != mark {
						t.Errorf("goroutine %d block %d byte %d = %d, want %d", g, i, j, c, mark)
						return
					}
				}
				select {
				case handoff <- p: // another goroutine frees it
				default:
					sqliteFree(tls, p)
				}
				select {
				case o := <-handoff:
					sqliteFree(tls, o)
				default:
				}
			}
		})
	}
	wg.Wait()
	close(handoff)
	for p := range handoff {
		sqliteFree(nil, p)
	}
}

// The queries that allocate most (strftime on every row, sorts, long
// strings) give the same results on 8 connections at once as one at a
// time.
func TestShardedAllocatorQueries(t *testing.T) {
	path := testfixture.SalesDB(t, 5000)
	db, err := Open(context.Background(), path, Options{Connections: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	queries := []string{
		`SELECT strftime('%Y-%m', sale_date) AS month, ROUND(SUM(total_amount), 2), COUNT(*) FROM sales GROUP BY month ORDER BY month`,
		`SELECT p.product_name, ROUND(SUM(s.total_amount), 2) AS revenue FROM sales s JOIN products p ON p.product_id = s.product_id GROUP BY p.product_name ORDER BY revenue DESC`,
		`SELECT length(group_concat(sale_date || ':' || total_amount, ',')) FROM sales`,
		`SELECT sale_id, total_amount FROM sales ORDER BY total_amount DESC, sale_id LIMIT 50`,
	}
	ctx := context.Background()
	want := make([]string, len(queries))
	for i, q := range queries {
		r, err := db.Query(ctx, q, 1000)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		want[i] = fmt.Sprint(r.Rows)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for k := range 6 {
				i := (g + k) % len(queries)
				r, err := db.Query(ctx, queries[i], 1000)
				if err != nil {
					t.Error(err)
					return
				}
				if got := fmt.Sprint(r.Rows); got != want[i] {
					t.Errorf("query %d on 8 connections differs from its serial result", i)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TALK2TABLES_SQLITE_ALLOCATOR=libc keeps modernc's allocator: the test
// binary re-runs this test in a child with it set.
func TestLibcAllocatorChoice(t *testing.T) {
	if os.Getenv(AllocatorEnv) == "libc" {
		if !strings.HasPrefix(AllocatorState(), "libc") || allocShards != nil {
			t.Fatalf("with %s=libc: AllocatorState() = %q", AllocatorEnv, AllocatorState())
		}
		db, err := sql.Open(driverName, "file::memory:")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var s string
		if err := db.QueryRow(`SELECT strftime('%Y-%m', '2026-11-23')`).Scan(&s); err != nil || s != "2026-11" {
			t.Fatalf("query on the libc allocator: %q, %v", s, err)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLibcAllocatorChoice$", "-test.v")
	cmd.Env = append(os.Environ(), AllocatorEnv+"=libc")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestLibcAllocatorChoice") {
		t.Fatalf("child with %s=libc: %v\n%s", AllocatorEnv, err, out)
	}
}
