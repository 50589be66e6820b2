package databasemcp

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
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
// only where the bytes come from. Nothing installs it on import: database-mcp
// calls InstallAllocator at start, so other programs and tests that link
// this package keep modernc's default. It reads modernc internals (the libc
// thread state's ID, the memory allocator's block layout), so it is refused
// when the linked modernc modules are not the versions it was validated
// with. AllocatorEnv=libc keeps modernc's default, for comparison or as an
// escape hatch.

// AllocatorEnv names the environment variable that selects SQLite's
// allocator: "libc" keeps modernc's default; anything else, or unset, the
// sharded allocator.
const AllocatorEnv = "TALK2TABLES_SQLITE_ALLOCATOR"

// allocHeader is the bytes before each block: the shard index and the
// block's size. 16 keeps the block 16-byte aligned like the allocator's.
const allocHeader = 16

// validatedModules are the module versions the sharded allocator was
// validated with (its tests, the load mix under -race and the soak run).
// With any other version linked it is refused: update these after running
// `go test -race ./databasemcp/` and the fuzz test on the new versions.
var validatedModules = map[string]string{
	"modernc.org/sqlite": "v1.60.1",
	"modernc.org/libc":   "v1.77.1",
	"modernc.org/memory": "v1.12.1",
}

// buildInfo reads the modules linked into the binary (a variable so that
// tests, whose binaries carry no module list, can supply one).
var buildInfo = debug.ReadBuildInfo

type allocShard struct {
	mu sync.Mutex
	a  memory.Allocator
}

// shardedAllocator is the allocator's state: shards chosen by the libc
// thread ID of the connection that allocates.
type shardedAllocator struct{ shards []allocShard }

var (
	// sharded is the allocator SQLite calls once installed (nil before).
	sharded *shardedAllocator
	// allocatorState says which allocator SQLite uses, for the start log.
	allocatorState = "libc (not installed)"
	installOnce    sync.Once
	// allocMethods is handed to sqlite3_config, which copies it.
	allocMethods sqlite3.Tsqlite3_mem_methods
)

// AllocatorState says which allocator SQLite uses in this process:
// "sharded(N)", or "libc" with the reason.
func AllocatorState() string { return allocatorState }

// InstallAllocator gives SQLite the sharded allocator for the rest of the
// process, unless AllocatorEnv=libc, the linked modernc modules differ from
// validatedModules, or SQLite is already initialised; then modernc's
// allocator stays and a warning says why. It logs the outcome (event
// sqlite_allocator, or sqlite_allocator_refused) and returns
// AllocatorState(). Call it at start, before any SQLite connection is
// opened; later calls only return the state.
func InstallAllocator(logger *slog.Logger) string {
	installOnce.Do(func() {
		if logger == nil {
			logger = slog.New(slog.DiscardHandler)
		}
		if os.Getenv(AllocatorEnv) == "libc" {
			allocatorState = "libc (" + AllocatorEnv + "=libc)"
			logger.Info("sqlite allocator", "event", "sqlite_allocator", "state", allocatorState)
			return
		}
		if err := checkModules(buildInfo()); err != nil {
			allocatorState = "libc (sharded allocator refused: " + err.Error() + ")"
			logger.Warn("sqlite allocator refused, keeping modernc's default", "event", "sqlite_allocator_refused",
				"reason", err.Error(), "state", allocatorState)
			return
		}
		if err := installSharded(); err != nil {
			allocatorState = "libc (" + err.Error() + ")"
			logger.Warn("sqlite allocator refused, keeping modernc's default", "event", "sqlite_allocator_refused",
				"reason", err.Error(), "state", allocatorState)
			return
		}
		allocatorState = fmt.Sprintf("sharded(%d)", len(sharded.shards))
		logger.Info("sqlite allocator", "event", "sqlite_allocator", "state", allocatorState)
	})
	return allocatorState
}

// checkModules reports a module of validatedModules that the build links
// at another version, replaces, or does not list.
func checkModules(bi *debug.BuildInfo, ok bool) error {
	if !ok || bi == nil {
		return errors.New("the binary carries no module versions to check")
	}
	linked := map[string]string{}
	for _, m := range bi.Deps {
		v := m.Version
		if m.Replace != nil {
			v = "replaced by " + m.Replace.Path + " " + m.Replace.Version
		}
		linked[m.Path] = v
	}
	var bad []string
	for _, path := range slices.Sorted(maps.Keys(validatedModules)) {
		want := validatedModules[path]
		switch got, found := linked[path]; {
		case !found:
			bad = append(bad, path+" not linked")
		case got != want:
			bad = append(bad, fmt.Sprintf("%s %s, validated with %s", path, got, want))
		}
	}
	if len(bad) > 0 {
		return errors.New(strings.Join(bad, "; "))
	}
	return nil
}

// shardCount is four shards per core, at least 8 and at most 64: with as
// many connections running as cores, two of them rarely draw the same
// shard, and each shard keeps only its own small pool of freed pages.
func shardCount() int { return min(64, max(8, 4*runtime.GOMAXPROCS(0))) }

func newShardedAllocator(n int) *shardedAllocator {
	return &shardedAllocator{shards: make([]allocShard, n)}
}

// installSharded hands SQLite the sharded allocator's methods.
func installSharded() error {
	sharded = newShardedAllocator(shardCount())
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
		sharded = nil
		return errors.New("no memory to configure the sharded allocator")
	}
	defer libc.Xfree(tls, va)
	rc := sqlite3.Xsqlite3_config(tls, sqlite3.SQLITE_CONFIG_MALLOC, libc.VaList(va, uintptr(unsafe.Pointer(&allocMethods))))
	runtime.KeepAlive(&allocMethods)
	if rc != sqlite3.SQLITE_OK {
		// SQLite was initialised before: keep its allocator.
		sharded = nil
		return fmt.Errorf("sqlite3_config refused: rc %d, SQLite already initialised", rc)
	}
	return nil
}

// at is the memory at address p, which SQLite's C code handed over or this
// allocator returned: off the Go heap. (Reading the address's bits as a
// pointer is how modernc's own code does it; go vet rejects a plain
// unsafe.Pointer(p) conversion.)
func at(p uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&p)) }

func roundUp8(n int32) int32 { return (n + 7) &^ 7 }

func (a *shardedAllocator) blockShard(p uintptr) *allocShard {
	return &a.shards[*(*int64)(at(p - allocHeader))]
}

// malloc returns n bytes (rounded up to 8) from the shard of thread id.
func (a *shardedAllocator) malloc(id int32, n int32) uintptr {
	if n < 0 {
		return 0
	}
	n = roundUp8(n)
	i := int(uint32(id) % uint32(len(a.shards)))
	s := &a.shards[i]
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

func (a *shardedAllocator) free(p uintptr) {
	if p == 0 {
		return
	}
	s := a.blockShard(p)
	s.mu.Lock()
	s.a.UintptrFree(p - allocHeader)
	s.mu.Unlock()
}

func blockSize(p uintptr) int32 {
	if p == 0 {
		return 0
	}
	return int32(*(*int64)(at(p - 8)))
}

// realloc resizes in place when the block's slot has room (the slot of a
// freed or shrunk block is never smaller than its size), else moves the
// block to the shard of thread id.
func (a *shardedAllocator) realloc(id int32, p uintptr, n int32) uintptr {
	if p == 0 {
		return a.malloc(id, n)
	}
	if n < 0 {
		return 0
	}
	n = roundUp8(n)
	old := blockSize(p)
	if memory.UintptrUsableSize(p-allocHeader)-allocHeader >= int(n) {
		*(*int64)(at(p - 8)) = int64(n)
		return p
	}
	q := a.malloc(id, n)
	if q == 0 {
		return 0
	}
	keep := int(min(old, n))
	copy(unsafe.Slice((*byte)(at(q)), keep), unsafe.Slice((*byte)(at(p)), keep))
	a.free(p)
	return q
}

// SQLite's xMalloc, xFree, xRealloc, xSize, xRoundup, xInit and xShutdown.
func sqliteMalloc(tls *libc.TLS, n int32) uintptr             { return sharded.malloc(tls.ID, n) }
func sqliteFree(_ *libc.TLS, p uintptr)                       { sharded.free(p) }
func sqliteSize(_ *libc.TLS, p uintptr) int32                 { return blockSize(p) }
func sqliteRealloc(tls *libc.TLS, p uintptr, n int32) uintptr { return sharded.realloc(tls.ID, p, n) }
func sqliteRoundup(_ *libc.TLS, n int32) int32                { return roundUp8(n) }
func sqliteMemInit(*libc.TLS, uintptr) int32                  { return sqlite3.SQLITE_OK }
func sqliteMemShutdown(*libc.TLS, uintptr)                    {}
