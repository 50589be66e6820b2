// Command load measures talk2tables under load, all in one process plus
// the database MCP server as a stdio child (the default deployment's
// topology; -transport inprocess attaches it in-process instead).
//
// The workload is a realistic analyst mix (mix.go): a grouped aggregate over
// a 3-table join, a top-10 with 2 joins, a monthly trend and a point lookup,
// over a generated sample database (50,000 sales rows by default).
//
//	go run ./scripts/load                          # -mode sql: /api/sql and /api/query beside the bare engine at 1, 2, 4, 16 clients
//	go run ./scripts/load -allocators sharded,libc # the same under both SQLite allocators, in one run
//	go run ./scripts/load -cache                   # the same with the result cache on
//	go run ./scripts/load -floor c                 # beside C SQLite (python3's sqlite3) instead
//	go run ./scripts/load -mode query              # /api/query alone: CPU, heap and goroutines per question
//	go run ./scripts/load -mode cache              # /api/sql and /api/query at 16 clients, result cache on vs off
//
// In sql mode every level runs the mix, in rounds whose order rotates,
// through the floor, /api/sql and /api/query. The floor is the bare engine
// (gofloor.go): this program re-executed, running the mix on modernc's
// SQLite driver — the version talk2tables links — with one connection per
// goroutine and as many goroutines as clients. A side's ratio is its q/s
// over the floor's in the same round; the table gives the median round.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"talk2tables/databasemcp"
	"talk2tables/orchestrator/sqlgen"
)

func main() {
	// A floor or database-mcp child may profile itself ($envProfileDir):
	// the comparison of the two processes shows what database-mcp does
	// beyond the engine.
	if path := os.Getenv(envFloor); path != "" {
		stop := profileSelf("floor")
		defer stop()
		if err := serveGoFloor(path); err != nil {
			fmt.Fprintln(os.Stderr, "load floor:", err)
			os.Exit(1)
		}
		return
	}
	if path := os.Getenv(envChildDB); path != "" {
		stop := profileSelf("child")
		defer stop()
		if err := serveChild(path); err != nil {
			fmt.Fprintln(os.Stderr, "load child:", err)
			os.Exit(1)
		}
		return
	}
	// In-process, this process serves the database too (-transport
	// inprocess): SQLite's allocator as database-mcp chooses it, before the
	// sample is generated.
	databasemcp.InstallAllocator(nil)
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

type options struct {
	mode        string
	duration    time.Duration
	rounds      int
	levels      []int
	concurrency int
	rows        int
	dbPath      string
	catalogPath string
	transport   string
	connections int
	python      string
	cpuProfile  string
	memProfile  string
	logLevel    string
	floor       string
	allocators  []string
	sides       []string
	cache       bool
}

func run() error {
	o, err := parseOptions()
	if err != nil {
		return err
	}
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	ctx := context.Background()
	if o.dbPath == "" {
		path, remove, err := generateDB(ctx, o)
		if err != nil {
			return err
		}
		defer remove()
		o.dbPath = path
	} else {
		o.rows = 0 // not generated: dbDesc names the file
	}
	switch o.mode {
	case "sql":
		return sqlMode(ctx, o)
	case "query":
		return queryMode(ctx, o)
	case "cache":
		return cacheMode(ctx, o)
	}
	return fmt.Errorf("-mode %q: want sql, query or cache", o.mode)
}

// parseOptions reads the flags into options and checks them.
func parseOptions() (options, error) {
	var o options
	var levels, allocators, sides string
	flag.StringVar(&o.mode, "mode", "sql", "sql (/api/sql beside the C floor), query (/api/query) or cache (result cache on vs off)")
	flag.DurationVar(&o.duration, "duration", 5*time.Second, "length of one run (sql mode: per side, level and round)")
	flag.IntVar(&o.rounds, "rounds", 3, "sql mode: alternating rounds per level")
	flag.StringVar(&levels, "levels", "1,2,4,16", "sql mode: client counts")
	flag.StringVar(&o.floor, "floor", "go", "sql mode: go (the bare engine: modernc, one connection per goroutine) or c (python3's sqlite3)")
	flag.StringVar(&sides, "sides", "sql,query", "sql mode: endpoints measured beside the floor (sql, query; /api/sql first)")
	flag.StringVar(&allocators, "allocators", "", "sql mode: SQLite allocators to compare, e.g. sharded,libc (each gets its own floor and database-mcp; default: the environment's "+databasemcp.AllocatorEnv+")")
	flag.BoolVar(&o.cache, "cache", false, "sql mode: the result cache on (off by default: every request runs its query)")
	flag.IntVar(&o.concurrency, "concurrency", 16, "query and cache modes: concurrent clients")
	flag.IntVar(&o.rows, "rows", 50000, "sales rows in the generated database")
	flag.StringVar(&o.dbPath, "db", "", "use this sample database instead of generating one")
	flag.StringVar(&o.catalogPath, "catalog", "testdata/sales_catalog.json", "catalog (run from the repository root)")
	flag.StringVar(&o.transport, "transport", "stdio", "how serve reaches database-mcp: stdio (a child process) or inprocess")
	flag.IntVar(&o.connections, "connections", 0, "database-mcp's pool size (0: its default from the cores)")
	flag.StringVar(&o.python, "python", "", "python3 for the C floor (default /usr/bin/python3, else python3 on PATH)")
	flag.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the measured runs to this file")
	flag.StringVar(&o.memProfile, "memprofile", "", "query mode: write a heap profile taken after the run to this file")
	flag.StringVar(&o.logLevel, "log-level", "error", "stack log level (debug, info, warn, error); logs go to stderr")
	flag.Parse()
	for _, f := range strings.Split(levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return o, fmt.Errorf("-levels: %q is not a positive number", f)
		}
		o.levels = append(o.levels, n)
	}
	for _, f := range strings.Split(sides, ",") {
		f = strings.TrimSpace(f)
		if _, ok := apiSides[f]; !ok {
			return o, fmt.Errorf("-sides: %q is not sql or query", f)
		}
		o.sides = append(o.sides, f)
	}
	if o.sides[0] != "sql" {
		return o, errors.New("-sides: sql must come first (the target is /api/sql's)")
	}
	o.allocators = []string{""}
	if allocators != "" {
		o.allocators = nil
		for _, f := range strings.Split(allocators, ",") {
			switch f = strings.TrimSpace(f); f {
			case "sharded", "libc":
				o.allocators = append(o.allocators, f)
			default:
				return o, fmt.Errorf("-allocators: %q is not sharded or libc", f)
			}
		}
	}
	if o.concurrency < 1 || o.duration <= 0 || o.rows < 1 || o.rounds < 1 {
		return o, errors.New("-concurrency, -duration, -rounds and -rows must be positive")
	}
	return o, nil
}

func newClient(conc int) *http.Client {
	return &http.Client{
		Timeout:   60 * time.Second,
		Transport: &http.Transport{MaxIdleConns: conc * 2, MaxIdleConnsPerHost: conc * 2},
	}
}

func mixNames() string {
	names := make([]string, len(mix))
	for i, it := range mix {
		names[i] = it.name
	}
	return strings.Join(names, "+")
}

func dbDesc(o options) string {
	if o.rows == 0 {
		return o.dbPath
	}
	return fmt.Sprintf("%d generated sales rows", o.rows)
}

func sorted(d []time.Duration) []time.Duration {
	out := slices.Clone(d)
	slices.Sort(out)
	return out
}

func mergeSorted(ls [][]time.Duration) []time.Duration {
	var out []time.Duration
	for _, l := range ls {
		out = append(out, l...)
	}
	slices.Sort(out)
	return out
}

// queryMode drives /api/query with the mix's questions, as analysts ask
// them, and reports throughput, latency, CPU, heap and goroutines.
func queryMode(ctx context.Context, o options) error {
	st, err := startStack(ctx, o, stackOptions{transport: o.transport})
	if err != nil {
		return err
	}
	defer st.stop()
	client := newClient(o.concurrency)
	if r := drive(client, st.base, len(mix), time.Second, queryRequest); r.errors > 0 {
		return fmt.Errorf("warm-up: %v", r.firstErr)
	}
	client.CloseIdleConnections()
	heapBefore, goBefore := settle(st.gen, 0)
	fmt.Fprintf(os.Stderr, "load: %d clients for %s against %s\n", o.concurrency, o.duration, st.base)
	cpu0 := cpuTime()
	r := drive(client, st.base, o.concurrency, o.duration, queryRequest)
	cpu := cpuTime() - cpu0
	client.CloseIdleConnections()
	heapAfter, goAfter := settle(st.gen, goBefore)
	if o.memProfile != "" {
		f, err := os.Create(o.memProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.WriteHeapProfile(f); err != nil {
			return err
		}
	}
	lat := r.all()
	n := len(lat)
	fmt.Printf("POST /api/query, mix of %s, database-mcp over %s, %s\n", mixNames(), o.transport, dbDesc(o))
	fmt.Printf("requests     %d in %.1f s (%d clients)\n", n+int(r.errors), r.elapsed.Seconds(), o.concurrency)
	fmt.Printf("throughput   %.1f q/s\n", float64(n)/r.elapsed.Seconds())
	if n > 0 {
		fmt.Printf("latency      p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  max %.2f ms\n",
			ms(pct(lat, 50)), ms(pct(lat, 90)), ms(pct(lat, 99)), ms(lat[n-1]))
		// CPU per question is what bounds throughput on a busy machine and
		// varies much less than q/s when other processes share the cores.
		fmt.Printf("cpu          %.0f µs per question in this process (%.2f cores; stdio child not included)\n",
			float64(cpu.Microseconds())/float64(n), cpu.Seconds()/r.elapsed.Seconds())
	}
	fmt.Printf("errors       %d", r.errors)
	if r.firstErr != nil {
		fmt.Printf(" (first: %v)", r.firstErr)
	}
	fmt.Println()
	fmt.Printf("heap         %.1f MiB before, %.1f MiB after (after GC)\n", mib(heapBefore), mib(heapAfter))
	fmt.Printf("goroutines   %d before, %d after\n", goBefore, goAfter)
	return nil
}

// settle collects garbage and waits (up to 5 s) for goroutines to drop to
// target, then reports the live heap and the goroutine count.
func settle(gen sqlgen.Generator, target int) (uint64, int) {
	// Idle keep-alive connections (the LLM client's pool) are bounded, not a
	// leak: close them before counting.
	sqlgen.CloseIdleConnections(gen)
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		runtime.GC() // the second also empties sync.Pool victim caches
		if target == 0 || runtime.NumGoroutine() <= target || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc, runtime.NumGoroutine()
}

// cpuTime is the user+system CPU time the process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
