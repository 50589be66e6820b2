package databasemcp

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"unsafe"

	"modernc.org/libc"
	"modernc.org/memory"
	sqlite3 "modernc.org/sqlite/lib"
)

// SQLite gets its memory through sqlite3_malloc, which in modernc's build
// is libc's malloc: one allocator behind one process-wide mutex. Every
// connection running a query at once takes that mutex for each allocation —
// strftime() allocates its result on every row, and the sorter and page
// cache allocate as they go — so concurrent queries queue on it. A CPU
// profile of the load mix at 2 clients (scripts/load) spent 10% of the time
// in that mutex, a third of it spinning.
//
// So this package gives SQLite its own allocator before any connection is
// opened (sqlite3_config(SQLITE_CONFIG_MALLOC) is allowed only before
// sqlite3_initialize): the memory is split into shards, each a modernc
// memory.Allocator — the allocator libc uses — with its own mutex. A
// connection allocates from the shard of its libc thread state (each
// connection has its own), so connections running at once seldom share a
// mutex. Each block starts with a header naming its shard and size, so a
// block freed or resized from any connection goes back to the right shard.
//
// It is process-wide (SQLite's allocator is global) and changes no result,
// only where the bytes come from. AllocatorEnv=libc keeps modernc's default,
// for comparison or as an escape hatch.

// AllocatorEnv names the environment variable that selects SQLite's
// allocator: "libc" keeps modernc's default; anything else, or unset, the
// sharded allocator.
const AllocatorEnv = "TALK2TABLES_SQLITE_ALLOCATOR"

// allocHeader is the bytes before each block: the shard index and the
// block's size. 16 keeps the block 16-byte aligned like the allocator's.
const allocHeader = 16

type allocShard struct {
	mu sync.Mutex
	a  memory.Allocator
}

var (
	allocShards []allocShard
	// allocatorState says which allocator SQLite uses, for the start log.
	allocatorState string
	// allocMethods is handed to sqlite3_config, which copies it.
	allocMethods sqlite3.Tsqlite3_mem_methods
)

func init() { allocatorState = installAllocator(os.Getenv(AllocatorEnv)) }

// AllocatorState says which allocator SQLite uses in this process:
// "sharded(N)", or "libc" with the reason.
func AllocatorState() string { return allocatorState }

// shardCount is four shards per core, at least 8 and at most 64: with as
// many connections running as cores, two of them rarely draw the same
// shard, and each shard keeps only its own small pool of freed pages.
func shardCount() int { return min(64, max(8, 4*runtime.GOMAXPROCS(0))) }

func installAllocator(choice string) string {
	if choice == "libc" {
		return "libc (" + AllocatorEnv + "=libc)"
	}
	allocShards = make([]allocShard, shardCount())
	allocMethods = sqlite3.Tsqlite3_mem_methods{
		FxMalloc:   cFuncPointer(sqliteMalloc),
		FxFree:     cFuncPointer(sqliteFree),
		FxRealloc:  cFuncPointer(sqliteRealloc),
		FxSize:     cFuncPointer(sqliteSize),
		FxRoundup:  cFuncPointer(sqliteRoundup),
		FxInit:     cFuncPointer(sqliteMemInit),
		FxShutdown: cFuncPointer(sqliteMemShutdown),
	}
	tls := libc.NewTLS()
	defer tls.Close()
	// sqlite3_config is variadic: one pointer slot, off the Go heap (as
	// dbConfig passes sqlite3_db_config's).
	va := libc.Xmalloc(tls, 8)
	if va == 0 {
		allocShards = nil
		return "libc (no memory to configure the sharded allocator)"
	}
	defer libc.Xfree(tls, va)
	rc := sqlite3.Xsqlite3_config(tls, sqlite3.SQLITE_CONFIG_MALLOC, libc.VaList(va, uintptr(unsafe.Pointer(&allocMethods))))
	runtime.KeepAlive(&allocMethods)
	if rc != sqlite3.SQLITE_OK {
		// SQLite was initialised before this package: keep its allocator.
		allocShards = nil
		return fmt.Sprintf("libc (sqlite3_config refused: rc %d)", rc)
	}
	return fmt.Sprintf("sharded(%d)", len(allocShards))
}

// at is the memory at address p, which SQLite's C code handed over or this
// allocator returned: off the Go heap. (Reading the address's bits as a
// pointer is how modernc's own code does it; go vet rejects a plain
// unsafe.Pointer(p) conversion.)
func at(p uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&p)) }

func roundUp8(n int32) int32 { return (n + 7) &^ 7 }

func blockShard(p uintptr) *allocShard {
	return &allocShards[*(*int64)(at(p - allocHeader))]
}

func sqliteMalloc(tls *libc.TLS, n int32) uintptr {
	if n < 0 {
		return 0
	}
	n = roundUp8(n)
	i := int(uint32(tls.ID) % uint32(len(allocShards)))
	s := &allocShards[i]
	s.mu.Lock()
	h, err := s.a.UintptrMalloc(int(n) + allocHeader)
	s.mu.Unlock()
	if err != nil || h == 0 {
		return 0
	}
	*(*int64)(at(h)) = int64(i)
	*(*int64)(at(h + 8)) = int64(n)
	return h + allocHeader
}

func sqliteFree(_ *libc.TLS, p uintptr) {
	if p == 0 {
		return
	}
	s := blockShard(p)
	s.mu.Lock()
	s.a.UintptrFree(p - allocHeader)
	s.mu.Unlock()
}

func sqliteSize(_ *libc.TLS, p uintptr) int32 {
	if p == 0 {
		return 0
	}
	return int32(*(*int64)(at(p - 8)))
}

// sqliteRealloc resizes in place when the block's slot has room (the slot
// of a freed or shrunk block is never smaller than its size), else moves
// the block to the calling connection's shard.
func sqliteRealloc(tls *libc.TLS, p uintptr, n int32) uintptr {
	if p == 0 {
		return sqliteMalloc(tls, n)
	}
	if n < 0 {
		return 0
	}
	n = roundUp8(n)
	old := sqliteSize(tls, p)
	if memory.UintptrUsableSize(p-allocHeader)-allocHeader >= int(n) {
		*(*int64)(at(p - 8)) = int64(n)
		return p
	}
	q := sqliteMalloc(tls, n)
	if q == 0 {
		return 0
	}
	keep := int(min(old, n))
	copy(unsafe.Slice((*byte)(at(q)), keep), unsafe.Slice((*byte)(at(p)), keep))
	sqliteFree(tls, p)
	return q
}

func sqliteRoundup(_ *libc.TLS, n int32) int32 { return roundUp8(n) }
func sqliteMemInit(*libc.TLS, uintptr) int32   { return sqlite3.SQLITE_OK }
func sqliteMemShutdown(*libc.TLS, uintptr)     {}
