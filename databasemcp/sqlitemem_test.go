package databasemcp

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"talk2tables/internal/testfixture"
)

func bytesAt(p uintptr, n int) []byte { return unsafe.Slice((*byte)(at(p)), n) }

// envAllocatorChild makes the test binary, re-run by TestInstallAllocator,
// install the allocator as database-mcp does and check the outcome named
// by its value.
const envAllocatorChild = "TALK2TABLES_TEST_ALLOCATOR_CHILD"

// Linking the package installs nothing: SQLite keeps modernc's allocator
// in every test binary until a program calls InstallAllocator.
func TestAllocatorNotInstalledOnImport(t *testing.T) {
	if os.Getenv(envAllocatorChild) != "" {
		t.Skip("child run")
	}
	if sharded != nil || AllocatorState() != "libc (not installed)" {
		t.Fatalf("AllocatorState() = %q (sharded %v), want libc (not installed)", AllocatorState(), sharded != nil)
	}
}

func buildWith(versions map[string]string) *debug.BuildInfo {
	bi := &debug.BuildInfo{Main: debug.Module{Path: "talk2tables"}}
	for path, v := range versions {
		bi.Deps = append(bi.Deps, &debug.Module{Path: path, Version: v})
	}
	return bi
}

func TestCheckModules(t *testing.T) {
	other := func(path, v string) map[string]string {
		m := map[string]string{}
		for k, w := range validatedModules {
			m[k] = w
		}
		if v == "" {
			delete(m, path)
		} else {
			m[path] = v
		}
		return m
	}
	replaced := buildWith(validatedModules)
	replaced.Deps[0].Replace = &debug.Module{Path: "../fork", Version: ""}
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		ok   bool
		want string // in the error; "" for none
	}{
		{"validated versions", buildWith(validatedModules), true, ""},
		{"newer libc", buildWith(other("modernc.org/libc", "v1.78.0")), true, "modernc.org/libc v1.78.0, validated with " + validatedModules["modernc.org/libc"]},
		{"older sqlite", buildWith(other("modernc.org/sqlite", "v1.59.0")), true, "modernc.org/sqlite v1.59.0, validated with"},
		{"memory missing", buildWith(other("modernc.org/memory", "")), true, "modernc.org/memory not linked"},
		{"replaced module", replaced, true, "replaced by ../fork"},
		{"no build info", nil, false, "no module versions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkModules(tt.bi, tt.ok)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("checkModules = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("checkModules = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestInstallAllocator re-runs the test binary once per case, since
// SQLite takes an allocator only once per process: installed when the
// linked modules are the validated ones, refused (with a warning and
// modernc's allocator kept) when libc differs, and left out with
// AllocatorEnv=libc. Each child then runs the concurrent queries.
func TestInstallAllocator(t *testing.T) {
	if mode := os.Getenv(envAllocatorChild); mode != "" {
		installInChild(t, mode)
		return
	}
	tests := []struct {
		mode, env string
		want      []string // in the child's output
	}{
		{"validated", "", []string{fmt.Sprintf(`state=sharded(%d)`, shardCount()), "event=sqlite_allocator "}},
		{"other-libc", "", []string{"level=WARN", "event=sqlite_allocator_refused", "modernc.org/libc v1.77.99, validated with"}},
		{"validated", "libc", []string{"event=sqlite_allocator ", AllocatorEnv + "=libc"}},
	}
	for _, tt := range tests {
		t.Run(tt.mode+"/"+tt.env, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestInstallAllocator$", "-test.v")
			cmd.Env = append(os.Environ(), envAllocatorChild+"="+tt.mode, AllocatorEnv+"="+tt.env)
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "--- PASS: TestInstallAllocator") {
				t.Fatalf("child: %v\n%s", err, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("child output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func installInChild(t testing.TB, mode string) {
	t.Helper()
	versions := validatedModules
	if mode == "other-libc" {
		versions = map[string]string{}
		for k, v := range validatedModules {
			versions[k] = v
		}
		versions["modernc.org/libc"] = "v1.77.99"
	}
	// A test binary lists no modules: give it those of a release build.
	buildInfo = func() (*debug.BuildInfo, bool) { return buildWith(versions), true }
	var logs bytes.Buffer
	state := InstallAllocator(slog.New(slog.NewTextHandler(&logs, nil)))
	t.Log(strings.TrimSpace(logs.String()))
	if again := InstallAllocator(nil); again != state {
		t.Errorf("second InstallAllocator = %q, want the first's %q", again, state)
	}
	wantSharded := mode == "validated" && os.Getenv(AllocatorEnv) != "libc"
	if got := sharded != nil; got != wantSharded || strings.HasPrefix(state, "sharded") != wantSharded {
		t.Fatalf("state %q, sharded installed %v, want %v", state, got, wantSharded)
	}
	concurrentQueries(t)
}

// concurrentQueries runs the queries that allocate most (strftime on every
// row, sorts, long strings) on 8 connections at once and compares each
// with its serial result.
func concurrentQueries(t testing.TB) {
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

func TestShardedAllocatorBlocks(t *testing.T) {
	a := newShardedAllocator(8)
	const conn1, conn2 = 3, 6

	p := a.malloc(conn1, 13)
	if p == 0 {
		t.Fatal("malloc(13) = 0")
	}
	if p%16 != 0 {
		t.Errorf("block %#x is not 16-byte aligned", p)
	}
	if got := blockSize(p); got != 16 {
		t.Errorf("size of malloc(13) = %d, want 16 (rounded up to 8)", got)
	}
	if got := sqliteRoundup(nil, 13); got != 16 {
		t.Errorf("roundup(13) = %d, want 16", got)
	}
	copy(bytesAt(p, 13), "hello, sqlite")

	// Growing past the slot moves the block and keeps its bytes; the new
	// block belongs to the shard of the connection that grew it.
	q := a.realloc(conn2, p, 100000)
	if q == 0 {
		t.Fatal("realloc to 100000 = 0")
	}
	if got := string(bytesAt(q, 13)); got != "hello, sqlite" {
		t.Errorf("after growing: %q, want the old bytes", got)
	}
	if got := blockSize(q); got != 100000 {
		t.Errorf("size after growing = %d, want 100000", got)
	}
	if a.blockShard(q) != &a.shards[conn2] {
		t.Error("a moved block is not in the shard of the connection that moved it")
	}
	// Shrinking stays in place.
	if r := a.realloc(conn2, q, 10); r != q || blockSize(r) != 16 {
		t.Errorf("shrink: block %#x size %d, want %#x size 16", r, blockSize(r), q)
	}
	// Freed from another connection than the one that allocated it.
	a.free(q)
	a.free(0)
	if a.malloc(conn1, -1) != 0 {
		t.Error("malloc(-1) must fail")
	}
	if a.realloc(conn1, 0, 24) == 0 {
		t.Error("realloc(0, 24) must allocate")
	}
}

// FuzzShardedAllocator drives the allocator from 4 goroutines at once
// (connections on 4 libc threads, two of them sharing a shard), each
// reading the input as its own script of mallocs, reallocs and frees, and
// handing blocks to the others to free or grow: every byte of every block
// is checked before it is resized or freed, and after every resize. A
// shard mix-up or an overlapping block shows as a wrong byte; unsynchronised
// shard use shows under -race.
func FuzzShardedAllocator(f *testing.F) {
	f.Add([]byte{0, 10, 1, 200, 2, 0, 3, 1, 0, 255, 1, 7})
	f.Add(bytes.Repeat([]byte{0, 0x80, 1, 0xff, 3, 2}, 40))
	f.Add(bytes.Repeat([]byte{0, 0xff, 0xff, 2, 1}, 64))
	f.Add([]byte("malloc realloc free handoff realloc free"))
	f.Fuzz(func(t *testing.T, script []byte) {
		a := newShardedAllocator(3) // fewer shards than threads: shards are shared
		handoff := make(chan block, 8)
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() { runScript(t, a, int32(g+1), script, g, handoff) })
		}
		wg.Wait()
		close(handoff)
		for b := range handoff {
			b.check(t)
			a.free(b.p)
		}
	})
}

// block is a live allocation and the byte pattern it must hold.
type block struct {
	p    uintptr
	n    int
	seed byte
}

func (b block) fill() {
	for i, s := 0, bytesAt(b.p, b.n); i < len(s); i++ {
		s[i] = b.seed + byte(i*7)
	}
}

func (b block) check(t testing.TB) bool {
	t.Helper()
	for i, c := range bytesAt(b.p, b.n) {
		if want := b.seed + byte(i*7); c != want {
			t.Errorf("block %#x (%d bytes) byte %d = %d, want %d", b.p, b.n, i, c, want)
			return false
		}
	}
	return true
}

// runScript interprets script, from an offset of its own and wrapping
// around, as len(script) operations of connection id: a byte's value mod 4
// is malloc, realloc, free or hand off, the next two bytes a size (up to
// 64 KiB, which crosses the allocator's page sizes).
func runScript(t testing.TB, a *shardedAllocator, id int32, script []byte, g int, handoff chan block) {
	var live []block
	defer func() {
		for _, b := range live {
			b.check(t)
			a.free(b.p)
		}
	}()
	if len(script) == 0 {
		return
	}
	seq := byte(g * 64)
	for k := range len(script) {
		at := func(i int) byte { return script[(3*k+i+5*g)%len(script)] }
		op := at(0) % 4
		n := int(binary.LittleEndian.Uint16([]byte{at(1), at(2)}))
		seq++
		switch {
		case op == 0 || len(live) == 0: // malloc
			p := a.malloc(id, int32(n))
			if p == 0 {
				t.Errorf("malloc(%d) = 0", n)
				return
			}
			if p%8 != 0 || blockSize(p) < int32(n) {
				t.Errorf("malloc(%d): block %#x of size %d", n, p, blockSize(p))
				return
			}
			b := block{p, n, seq}
			b.fill()
			live = append(live, b)
		case op == 1: // realloc the oldest, keeping its bytes, then refill
			b := live[0]
			if !b.check(t) {
				return
			}
			q := a.realloc(id, b.p, int32(n))
			if q == 0 {
				t.Errorf("realloc(%d) = 0", n)
				return
			}
			kept := block{q, min(b.n, n), b.seed}
			if !kept.check(t) {
				return
			}
			live[0] = block{q, n, seq}
			live[0].fill()
		case op == 2: // free the newest
			b := live[len(live)-1]
			live = live[:len(live)-1]
			if !b.check(t) {
				return
			}
			a.free(b.p)
		default: // hand the newest to another connection, take one if offered
			b := live[len(live)-1]
			select {
			case handoff <- b:
				live = live[:len(live)-1]
			default:
			}
			select {
			case o := <-handoff:
				if !o.check(t) {
					return
				}
				live = append(live, o)
			default:
			}
		}
	}
}
