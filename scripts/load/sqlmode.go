package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"talk2tables/databasemcp"
)

// side is what one side of a level (the floor, /api/sql or /api/query)
// measured over all its rounds.
type side struct {
	name      string
	n         int
	secs      float64
	errs      int64
	firstErr  error
	lat       [][]time.Duration // per mix item
	qpsRound  []float64
	lastCount int           // successful requests of the last round
	cpu       time.Duration // CPU used by the side's processes, when known
	childCPU  time.Duration // the part of cpu used by database-mcp over stdio
	cpuRound  []float64     // CPU seconds per successful request, round by round
}

// cpuPerRequest is the side's CPU per successful request (0 when unknown).
func (s *side) cpuPerRequest() time.Duration {
	if s.n == 0 {
		return 0
	}
	return s.cpu / time.Duration(s.n)
}

func newSide(name string) *side { return &side{name: name, lat: make([][]time.Duration, len(mix))} }

func (s *side) qps() float64 { return float64(s.n) / s.secs }

func (s *side) addRun(r *runResult) {
	for i := range mix {
		s.lat[i] = append(s.lat[i], r.latencies[i]...)
	}
	s.n += r.count()
	s.lastCount = r.count()
	s.secs += r.elapsed.Seconds()
	s.errs += r.errors
	if s.firstErr == nil {
		s.firstErr = r.firstErr
	}
	s.qpsRound = append(s.qpsRound, float64(r.count())/r.elapsed.Seconds())
}

// addCPU records the CPU a round used (its requests were added by addRun).
func (s *side) addCPU(cpu time.Duration) {
	s.cpu += cpu
	per := 0.0
	if n := s.lastCount; n > 0 {
		per = cpu.Seconds() / float64(n)
	}
	s.cpuRound = append(s.cpuRound, per)
}

// costRatios is the floor's CPU per request over the side's, round by
// round: the throughput ratio the side would have if both got the same
// share of the cores. On a machine shared with other work the q/s ratio
// also measures how the scheduler shared it in each round; this one does
// not.
func (s *side) costRatios(floor *side) []float64 {
	out := make([]float64, 0, len(s.cpuRound))
	for i := range s.cpuRound {
		if s.cpuRound[i] > 0 && floor.cpuRound[i] > 0 {
			out = append(out, floor.cpuRound[i]/s.cpuRound[i])
		}
	}
	return out
}

// ratios is the side's throughput over the floor's, round by round.
func (s *side) ratios(floor *side) []float64 {
	out := make([]float64, len(s.qpsRound))
	for i := range out {
		out[i] = s.qpsRound[i] / floor.qpsRound[i]
	}
	return out
}

// level is one client count under one SQLite allocator.
type level struct {
	conc  int
	alloc string // the allocator's name, "" for the environment's
	st    *stack
	floor *side
	api   []*side // /api/sql, then /api/query when measured
}

// apiSides are the HTTP endpoints a level measures beside the floor.
var apiSides = map[string]request{"sql": sqlRequest, "query": queryRequest}

// round runs the level once on every side; the order rotates with r so
// that no side always runs first or last.
func (l *level) round(ctx context.Context, o options, client *http.Client, r int) error {
	steps := []func() error{func() error {
		fr, err := runFloorKind(ctx, o, l.st.dbPath, l.conc, o.duration, l.alloc)
		if err != nil {
			return err
		}
		l.floor.addRun(fr.result())
		l.floor.addCPU(time.Duration(fr.CPU * float64(time.Second)))
		return nil
	}}
	for _, s := range l.api {
		steps = append(steps, func() error {
			// CPU of this process (serve, and the HTTP clients driving it)
			// and of its children (database-mcp over stdio).
			cpu0, child0 := cpuTime(), childrenCPU()
			s.addRun(drive(client, l.st.base, l.conc, o.duration, apiSides[strings.TrimPrefix(s.name, "/api/")]))
			child := childrenCPU() - child0
			s.addCPU(cpuTime() - cpu0 + child)
			s.childCPU += child
			return nil
		})
	}
	for i := range steps {
		if err := steps[(i+r)%len(steps)](); err != nil {
			return err
		}
	}
	return nil
}

// runFloorKind runs the floor chosen by -floor.
func runFloorKind(ctx context.Context, o options, db string, conc int, d time.Duration, alloc string) (*floorRun, error) {
	if o.floor == "c" {
		return runFloor(ctx, o.python, db, conc, d)
	}
	return runGoFloor(ctx, db, conc, d, alloc)
}

// result turns a floor run into the HTTP sides' shape.
func (f *floorRun) result() *runResult {
	r := &runResult{latencies: make([][]time.Duration, len(mix)), elapsed: time.Duration(f.Elapsed * float64(time.Second))}
	for i := range mix {
		r.latencies[i] = durations(f.Latencies[i])
	}
	return r
}

// sqlMode measures /api/sql (and /api/query) beside the floor at every
// level, under each allocator of -allocators.
func sqlMode(ctx context.Context, o options) error {
	if o.floor == "c" {
		python, err := findPython(o.python)
		if err != nil {
			return err
		}
		o.python = python
	} else if o.floor != "go" {
		return fmt.Errorf("-floor %q: want go or c", o.floor)
	}
	if len(o.allocators) > 1 && o.transport != "stdio" {
		return fmt.Errorf("-allocators %s needs -transport stdio (the allocator is chosen per process)", strings.Join(o.allocators, ","))
	}
	client := newClient(slices.Max(o.levels))
	var results []*level
	var floorVersion string
	var allocStates []string
	for _, alloc := range o.allocators {
		st, err := startStack(ctx, o, stackOptions{transport: o.transport, cache: o.cache, allocator: alloc})
		if err != nil {
			return err
		}
		defer st.stop()
		// Warm up both sides: connections, page cache, code paths.
		for _, s := range o.sides {
			if r := drive(client, st.base, len(mix), 2*time.Second, apiSides[s]); r.errors > 0 {
				return fmt.Errorf("warm-up %s: %v", s, r.firstErr)
			}
		}
		fr, err := runFloorKind(ctx, o, st.dbPath, len(mix), time.Second, alloc)
		if err != nil {
			return err
		}
		floorVersion = fr.Version
		allocStates = append(allocStates, fmt.Sprintf("%s: %s", allocName(&level{alloc: alloc}), fr.Allocator))
		for _, conc := range o.levels {
			l := &level{conc: conc, alloc: alloc, st: st, floor: newSide("floor")}
			for _, s := range o.sides {
				l.api = append(l.api, newSide("/api/"+s))
			}
			results = append(results, l)
		}
	}
	cache := "off"
	if o.cache {
		cache = "ON (repeated statements are answered from it)"
	}
	fmt.Printf("load: %s beside the floor, mix of %s, database-mcp over %s, result cache %s, %s; %d rounds of %s per side and level, order rotating\n",
		strings.Join(sideNames(results[0]), " and "), mixNames(), o.transport, cache, dbDesc(o), o.rounds, o.duration)
	if o.floor == "c" {
		fmt.Printf("floor: %s, sqlite3 %s (C), one connection per thread, default settings", o.python, floorVersion)
	} else {
		fmt.Printf("floor: the bare engine, modernc.org/sqlite (SQLite %s) read straight through its driver, one connection per goroutine, opened with database-mcp's settings", floorVersion)
	}
	fmt.Printf("; %d cores, GOMAXPROCS %d\n", runtime.NumCPU(), runtime.GOMAXPROCS(0))
	fmt.Printf("SQLite allocator of the floor and of database-mcp (%s): %s\n\n", databasemcp.AllocatorEnv, strings.Join(allocStates, ", "))

	// Rounds go over every level in turn, so a change in the machine's
	// background load during the run hits all levels alike.
	for r := range o.rounds {
		fmt.Fprintf(os.Stderr, "load: round %d of %d\n", r+1, o.rounds)
		for _, l := range results {
			if err := l.round(ctx, o, client, r); err != nil {
				return err
			}
		}
	}
	printLevels(results)
	printPerQuery(results)
	printChecks(results)
	return nil
}

// childrenCPU is the CPU time used so far by this process's running
// children (read from /proc; 0 where there is none).
func childrenCPU() time.Duration {
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	var total time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, pid := range strings.Fields(string(b)) {
			total += procCPU(pid)
		}
	}
	return total
}

// procCPU is the user+system CPU of process pid (/proc/PID/stat, in clock
// ticks of 10 ms).
func procCPU(pid string) time.Duration {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0
	}
	// The fields after the command name, which is in parentheses.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

func sideNames(l *level) []string {
	var out []string
	for _, s := range l.api {
		out = append(out, "POST "+s.name)
	}
	return out
}

// median returns the median of xs and their range.
func median(xs []float64) (med, lo, hi float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0, 0, 0
	}
	med = s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return med, s[0], s[n-1]
}

func allocName(l *level) string {
	if l.alloc == "" {
		return "env"
	}
	return l.alloc
}

// printLevels prints, per level, the floor's and each endpoint's
// throughput (median over rounds) and the ratio to the floor (median of
// the rounds' ratios, with their range), and the latencies.
func printLevels(results []*level) {
	fmt.Printf("%-9s %7s %12s", "allocator", "clients", "floor q/s")
	for _, s := range results[0].api {
		fmt.Printf(" %12s %22s", s.name+" q/s", "ratio (range)")
	}
	fmt.Printf(" %10s %10s %11s %34s %22s\n", "sql p50", "sql p99", "floor p50", "CPU/request: floor, sql (child)", "sql cost ratio (range)")
	for _, l := range results {
		fq, _, _ := median(l.floor.qpsRound)
		fmt.Printf("%-9s %7d %12.1f", allocName(l), l.conc, fq)
		for _, s := range l.api {
			q, _, _ := median(s.qpsRound)
			r, lo, hi := median(s.ratios(l.floor))
			fmt.Printf(" %12.1f %22s", q, fmt.Sprintf("%.2f (%.2f–%.2f)", r, lo, hi))
		}
		sqlLat, fl := mergeSorted(l.api[0].lat), mergeSorted(l.floor.lat)
		sq := l.api[0]
		childPer := time.Duration(0)
		if sq.n > 0 {
			childPer = sq.childCPU / time.Duration(sq.n)
		}
		cr, clo, chi := median(sq.costRatios(l.floor))
		fmt.Printf(" %7.1f ms %7.1f ms %8.1f ms %34s %22s\n", ms(pct(sqlLat, 50)), ms(pct(sqlLat, 99)), ms(pct(fl, 50)),
			fmt.Sprintf("%.1f, %.1f (%.1f) ms", ms(l.floor.cpuPerRequest()), ms(sq.cpuPerRequest()), ms(childPer)),
			fmt.Sprintf("%.2f (%.2f–%.2f)", cr, clo, chi))
		for _, s := range l.api {
			if s.errs > 0 {
				fmt.Printf("          %s: %d errors, first: %v\n", s.name, s.errs, s.firstErr)
			}
		}
	}
}

// printPerQuery prints each query's median latency through /api/sql and on
// the floor at each level.
func printPerQuery(results []*level) {
	fmt.Printf("\nmedian latency per query (%s / floor):\n%-9s %7s", results[0].api[0].name, "allocator", "clients")
	for _, it := range mix {
		fmt.Printf(" %20s", it.name)
	}
	fmt.Println()
	for _, l := range results {
		fmt.Printf("%-9s %7d", allocName(l), l.conc)
		for i := range mix {
			a, b := sorted(l.api[0].lat[i]), sorted(l.floor.lat[i])
			fmt.Printf(" %8.2f / %6.2f ms", ms(pct(a, 50)), ms(pct(b, 50)))
		}
		fmt.Println()
	}
}

// printChecks compares the run with the target of issue 23 §3: /api/sql
// at 0.9 × the floor or better at every level (the median round), in
// throughput and in CPU per request (the cost ratio: the floor's CPU per
// request over the stack's — serve, its HTTP clients and database-mcp).
func printChecks(results []*level) {
	fmt.Println("\ntargets:")
	for _, l := range results {
		r, _, _ := median(l.api[0].ratios(l.floor))
		c, _, _ := median(l.api[0].costRatios(l.floor))
		fmt.Printf("  %s c=%-3d %s %.2f x the floor's q/s (target >= 0.90): %s; cost ratio %.2f: %s\n",
			allocName(l), l.conc, l.api[0].name, r, verdict(r >= 0.9), c, verdict(c >= 0.9))
	}
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT MET"
}

// withAllocator sets the SQLite allocator of a child's environment
// ("" leaves it as inherited).
func withAllocator(env []string, alloc string) []string {
	if alloc == "" {
		return env
	}
	env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, databasemcp.AllocatorEnv+"=") })
	return append(env, databasemcp.AllocatorEnv+"="+alloc)
}
