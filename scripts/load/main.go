// Command load measures talk2tables under load, all in one process plus
// the database MCP server as a stdio child (the default deployment's
// topology; -transport inprocess attaches it in-process instead).
//
// The workload is a realistic analyst mix (mix.go): a grouped aggregate over
// a 3-table join, a top-10 with 2 joins, a monthly trend and a point lookup,
// over a generated sample database (50,000 sales rows by default).
//
//	go run ./scripts/load                  # -mode sql: /api/sql beside the C floor at 2, 4, 8, 16 clients
//	go run ./scripts/load -mode query      # /api/query: the mix's questions through a zero-latency scripted LLM
//	go run ./scripts/load -mode cache      # /api/sql and /api/query at 16 clients, result cache on vs off
//
// In sql mode every level runs the mix, in alternating rounds, through
// talk2tables' /api/sql and through the C floor: Python's sqlite3 module
// (Debian's python3 and its C SQLite, default settings) with one connection
// per thread and as many threads as clients. Alternating rounds put both
// sides under the same background load; the ratio is talk2tables' q/s over
// the floor's.
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
	if path := os.Getenv(envChildDB); path != "" {
		if err := serveChild(path); err != nil {
			fmt.Fprintln(os.Stderr, "load child:", err)
			os.Exit(1)
		}
		return
	}
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
}

func run() error {
	var o options
	var levels string
	flag.StringVar(&o.mode, "mode", "sql", "sql (/api/sql beside the C floor), query (/api/query) or cache (result cache on vs off)")
	flag.DurationVar(&o.duration, "duration", 5*time.Second, "length of one run (sql mode: per side, level and round)")
	flag.IntVar(&o.rounds, "rounds", 3, "sql mode: alternating rounds per level")
	flag.StringVar(&levels, "levels", "2,4,8,16", "sql mode: client counts")
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
			return fmt.Errorf("-levels: %q is not a positive number", f)
		}
		o.levels = append(o.levels, n)
	}
	if o.concurrency < 1 || o.duration <= 0 || o.rows < 1 || o.rounds < 1 {
		return errors.New("-concurrency, -duration, -rounds and -rows must be positive")
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

func newClient(conc int) *http.Client {
	return &http.Client{
		Timeout:   60 * time.Second,
		Transport: &http.Transport{MaxIdleConns: conc * 2, MaxIdleConnsPerHost: conc * 2},
	}
}

// level is what one client count measured over all its rounds.
type level struct {
	conc      int
	t2tN      int
	t2tSecs   float64
	t2tErrs   int64
	firstErr  error
	t2tLat    [][]time.Duration
	floorN    int
	floorSecs float64
	floorLat  [][]time.Duration
	perRound  []float64 // ratio of each round
}

func (l *level) t2tQPS() float64   { return float64(l.t2tN) / l.t2tSecs }
func (l *level) floorQPS() float64 { return float64(l.floorN) / l.floorSecs }

// round runs the level once on each side, the floor first when floorFirst.
func (l *level) round(ctx context.Context, client *http.Client, base, python, db string, d time.Duration, floorFirst bool) error {
	var t2t *runResult
	var fl *floorRun
	var err error
	runT2T := func() { t2t = drive(client, base, l.conc, d, sqlRequest) }
	if floorFirst {
		fl, err = runFloor(ctx, python, db, l.conc, d)
		runT2T()
	} else {
		runT2T()
		fl, err = runFloor(ctx, python, db, l.conc, d)
	}
	if err != nil {
		return err
	}
	fn := 0
	for i := range mix {
		l.t2tLat[i] = append(l.t2tLat[i], t2t.latencies[i]...)
		l.floorLat[i] = append(l.floorLat[i], durations(fl.Latencies[i])...)
		fn += len(fl.Latencies[i])
	}
	l.t2tN += t2t.count()
	l.t2tSecs += t2t.elapsed.Seconds()
	l.t2tErrs += t2t.errors
	if l.firstErr == nil {
		l.firstErr = t2t.firstErr
	}
	l.floorN += fn
	l.floorSecs += fl.Elapsed
	if fn > 0 {
		l.perRound = append(l.perRound, (float64(t2t.count())/t2t.elapsed.Seconds())/(float64(fn)/fl.Elapsed))
	}
	return nil
}

// sqlMode measures /api/sql beside the floor at every level.
func sqlMode(ctx context.Context, o options) error {
	python, err := findPython(o.python)
	if err != nil {
		return err
	}
	st, err := startStack(ctx, o, stackOptions{transport: o.transport})
	if err != nil {
		return err
	}
	defer st.stop()
	maxConc := slices.Max(o.levels)
	client := newClient(maxConc)
	// Warm up both sides: connections, page cache, code paths.
	if r := drive(client, st.base, len(mix), 2*time.Second, sqlRequest); r.errors > 0 {
		return fmt.Errorf("warm-up: %v", r.firstErr)
	}
	fr, err := runFloor(ctx, python, st.dbPath, len(mix), time.Second)
	if err != nil {
		return err
	}
	fmt.Printf("load: POST /api/sql, mix of %s, database-mcp over %s (SQLite allocator %s), %s; %d rounds of %s per side and level, alternating\n",
		mixNames(), o.transport, databasemcp.AllocatorState(), dbDesc(o), o.rounds, o.duration)
	fmt.Printf("floor: %s, sqlite3 %s (C), one connection per thread, default settings; %d cores, GOMAXPROCS %d\n\n",
		python, fr.Version, runtime.NumCPU(), runtime.GOMAXPROCS(0))

	// Rounds go over every level in turn, so a change in the machine's
	// background load during the run hits all levels alike (the levels are
	// compared with each other too), and within a level the two sides
	// alternate which goes first.
	results := make([]*level, len(o.levels))
	for i, conc := range o.levels {
		results[i] = &level{conc: conc, t2tLat: make([][]time.Duration, len(mix)), floorLat: make([][]time.Duration, len(mix))}
	}
	for r := range o.rounds {
		fmt.Fprintf(os.Stderr, "load: round %d of %d\n", r+1, o.rounds)
		for _, l := range results {
			if err := l.round(ctx, client, st.base, python, st.dbPath, o.duration, r%2 == 0); err != nil {
				return err
			}
		}
	}
	for _, l := range results {
		printLevel(l)
	}
	printPerQuery(results)
	printChecks(results)
	return nil
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

var headerOnce = false

func printLevel(l *level) {
	if !headerOnce {
		headerOnce = true
		fmt.Printf("%8s %14s %10s %7s %16s %10s %10s %11s %6s\n",
			"clients", "talk2tables", "floor", "ratio", "ratio by round", "t2t p50", "t2t p99", "floor p50", "errors")
	}
	all := mergeSorted(l.t2tLat)
	fl := mergeSorted(l.floorLat)
	rounds := make([]string, len(l.perRound))
	for i, r := range l.perRound {
		rounds[i] = fmt.Sprintf("%.2f", r)
	}
	fmt.Printf("%8d %10.1f q/s %6.1f q/s %7.2f %16s %7.1f ms %7.1f ms %8.1f ms %6d\n",
		l.conc, l.t2tQPS(), l.floorQPS(), l.t2tQPS()/l.floorQPS(), strings.Join(rounds, " "),
		ms(pct(all, 50)), ms(pct(all, 99)), ms(pct(fl, 50)), l.t2tErrs)
	if l.firstErr != nil {
		fmt.Printf("         first error: %v\n", l.firstErr)
	}
}

// printPerQuery prints each query's median latency on both sides at each
// level.
func printPerQuery(results []*level) {
	fmt.Printf("\nmedian latency per query (talk2tables / floor):\n%8s", "clients")
	for _, it := range mix {
		fmt.Printf(" %20s", it.name)
	}
	fmt.Println()
	for _, l := range results {
		fmt.Printf("%8d", l.conc)
		for i := range mix {
			a, b := sorted(l.t2tLat[i]), sorted(l.floorLat[i])
			fmt.Printf(" %8.2f / %6.2f ms", ms(pct(a, 50)), ms(pct(b, 50)))
		}
		fmt.Println()
	}
}

// printChecks compares the run with the targets of issue 13 §1.
func printChecks(results []*level) {
	fmt.Println("\ntargets:")
	for _, l := range results {
		r := l.t2tQPS() / l.floorQPS()
		fmt.Printf("  c=%-3d throughput %.2f x the floor (target >= 0.90): %s\n", l.conc, r, verdict(r >= 0.9))
	}
	first, last := results[0], results[len(results)-1]
	if first.conc < last.conc {
		fmt.Printf("  c=%d throughput %.1f q/s vs c=%d %.1f q/s (target: not lower): %s\n",
			last.conc, last.t2tQPS(), first.conc, first.t2tQPS(), verdict(last.t2tQPS() >= first.t2tQPS()))
	}
	for _, l := range results {
		if l.conc == 8 {
			all := mergeSorted(l.t2tLat)
			p50, p99 := pct(all, 50), pct(all, 99)
			fmt.Printf("  c=8 p99 %.1f ms vs p50 %.1f ms = %.1f x (target < 4): %s\n",
				ms(p99), ms(p50), float64(p99)/float64(p50), verdict(p99 < 4*p50))
		}
	}
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT MET"
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
