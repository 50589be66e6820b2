// Command load drives POST /api/query of the full talk2tables stack, all in
// one process, and reports throughput, latency percentiles, errors, heap
// and goroutines before and after.
//
// The stack: a generated sample database (50,000 sales rows by default),
// the database and metadata MCP servers attached in-process, the real
// orchestrator with the real langchaingo OpenAI client talking to a
// zero-latency OpenAI-compatible responder on loopback, and server.New on a
// loopback port with rate limiting off.
//
//	go run ./scripts/load -duration 30s -concurrency 50
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"talk2tables/catalog"
	"talk2tables/databasemcp"
	"talk2tables/datagen"
	"talk2tables/metadatamcp"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/server"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

type options struct {
	duration    time.Duration
	concurrency int
	rows        int
	catalogPath string
	cpuProfile  string
	memProfile  string
	logLevel    string
	sql         string
}

func run() error {
	var o options
	flag.DurationVar(&o.duration, "duration", 30*time.Second, "how long to drive load")
	flag.IntVar(&o.concurrency, "concurrency", 50, "concurrent clients")
	flag.IntVar(&o.rows, "rows", 50000, "sales rows in the generated database")
	flag.StringVar(&o.catalogPath, "catalog", "testdata/sales_catalog.json", "product catalog (run from the repository root)")
	flag.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the load phase to this file")
	flag.StringVar(&o.memProfile, "memprofile", "", "write a heap profile taken after the run to this file")
	flag.StringVar(&o.logLevel, "log-level", "error", "stack log level (debug, info, warn, error); logs go to stderr")
	flag.StringVar(&o.sql, "sql", cheapSQL, "SQL the scripted model answers with (e.g. the -sql of a heavier question)")
	flag.Parse()
	if o.concurrency < 1 || o.duration <= 0 || o.rows < 1 {
		return errors.New("-concurrency, -duration and -rows must be positive")
	}
	ctx := context.Background()

	base, gen, stop, err := startStack(ctx, o)
	if err != nil {
		return err
	}
	defer stop()

	client := &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConns: o.concurrency * 2, MaxIdleConnsPerHost: o.concurrency * 2},
	}
	body := []byte(`{"question":"revenue by region for abracadabra in the last 30 days"}`)
	// Warm up: connections, resource cache, code paths.
	for range 20 {
		if _, err := ask(client, base, body); err != nil {
			return fmt.Errorf("warm-up request: %w", err)
		}
	}
	client.CloseIdleConnections()
	heapBefore, goBefore := settle(gen, 0)

	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "load: %d clients for %s against %s\n", o.concurrency, o.duration, base)
	cpu0 := cpuTime()
	r := drive(client, base, body, o)
	cpu := cpuTime() - cpu0
	lat, errs, firstErr, elapsed := r.latencies, r.errors, r.firstErr, r.elapsed
	if o.cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	client.CloseIdleConnections()
	heapAfter, goAfter := settle(gen, goBefore)
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

	slices.Sort(lat)
	n := len(lat)
	fmt.Printf("requests     %d in %.1f s (%d clients)\n", n+int(errs), elapsed.Seconds(), o.concurrency)
	fmt.Printf("throughput   %.0f q/s\n", float64(n)/elapsed.Seconds())
	if n > 0 {
		fmt.Printf("latency      p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  max %.2f ms\n",
			ms(pct(lat, 50)), ms(pct(lat, 90)), ms(pct(lat, 99)), ms(lat[n-1]))
	}
	if total := n + int(errs); total > 0 {
		// CPU per question is what bounds throughput on a busy machine and
		// varies much less than q/s when other processes share the cores.
		fmt.Printf("cpu          %.0f µs per question (%.2f cores; whole process: stack, LLM responder, clients)\n",
			float64(cpu.Microseconds())/float64(total), cpu.Seconds()/elapsed.Seconds())
	}
	fmt.Printf("errors       %d", errs)
	if firstErr != nil {
		fmt.Printf(" (first: %v)", firstErr)
	}
	fmt.Println()
	fmt.Printf("heap         %.1f MiB before, %.1f MiB after (after GC)\n", mib(heapBefore), mib(heapAfter))
	fmt.Printf("goroutines   %d before, %d after\n", goBefore, goAfter)
	return nil
}

// result is what a load run measured.
type result struct {
	latencies []time.Duration // of successful requests
	errors    int64
	firstErr  error
	elapsed   time.Duration
}

// drive runs the clients until the duration is over.
func drive(client *http.Client, base string, body []byte, o options) result {
	var (
		mu       sync.Mutex
		all      []time.Duration
		errs     atomic.Int64
		firstErr error
		wg       sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(o.duration)
	for range o.concurrency {
		wg.Go(func() {
			local := make([]time.Duration, 0, 4096)
			for time.Now().Before(deadline) {
				d, err := ask(client, base, body)
				if err != nil {
					errs.Add(1)
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					continue
				}
				local = append(local, d)
			}
			mu.Lock()
			all = append(all, local...)
			mu.Unlock()
		})
	}
	wg.Wait()
	return result{latencies: all, errors: errs.Load(), firstErr: firstErr, elapsed: time.Since(start)}
}

// ask posts one question and checks the answer is a successful result.
func ask(client *http.Client, base string, body []byte) (time.Duration, error) {
	start := time.Now()
	resp, err := client.Post(base+"/api/query", "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	d := time.Since(start)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("status %d: %.300s", resp.StatusCode, b)
	}
	if !bytes.Contains(b, []byte(`"success":true`)) {
		return 0, fmt.Errorf("answer without success: %.300s", b)
	}
	return d, nil
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

// startStack builds the database, the MCP servers, the LLM responder, the
// orchestrator and the HTTP server, and returns the API base URL and the
// SQL generator (the one the llm config selects, as in production).
func startStack(ctx context.Context, o options) (string, sqlgen.Generator, func(), error) {
	var cleanups []func()
	stop := func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}
	fail := func(err error) (string, sqlgen.Generator, func(), error) { stop(); return "", nil, nil, err }

	logger, err := stackLogger(o.logLevel)
	if err != nil {
		return fail(err)
	}
	dir, err := os.MkdirTemp("", "talk2tables-load-")
	if err != nil {
		return fail(err)
	}
	cleanups = append(cleanups, func() { os.RemoveAll(dir) })
	cat, err := catalog.Load(o.catalogPath)
	if err != nil {
		return fail(fmt.Errorf("%w (run from the repository root or pass -catalog)", err))
	}
	dbPath := filepath.Join(dir, "sales.db")
	fmt.Fprintf(os.Stderr, "load: generating %d sales rows in %s\n", o.rows, dbPath)
	if _, err := datagen.Generate(ctx, datagen.Options{Path: dbPath, Catalog: cat, Seed: 1, AsOf: time.Now().UTC(), Rows: o.rows}); err != nil {
		return fail(fmt.Errorf("generate database: %w", err))
	}
	db, err := databasemcp.Open(dbPath, databasemcp.Options{})
	if err != nil {
		return fail(err)
	}
	cleanups = append(cleanups, func() { db.Close() })
	meta, err := metadatamcp.New(o.catalogPath, logger)
	if err != nil {
		return fail(err)
	}

	llmURL, stopLLM, err := startResponder(o.sql)
	if err != nil {
		return fail(err)
	}
	cleanups = append(cleanups, stopLLM)
	const keyEnv = "TALK2TABLES_LOAD_LLM_KEY"
	os.Setenv(keyEnv, "load-test")

	cfg := orchestrator.DefaultConfig()
	cfg.MCPServers = map[string]orchestrator.ServerConfig{
		"database_mcp": {Name: "Database MCP Server", Transport: orchestrator.TransportInProcess, Priority: 10,
			Domains:      []string{"sales", "transactions", "orders", "products", "customers"},
			Capabilities: []string{orchestrator.CapExecuteQuery, orchestrator.CapValidateQuery, orchestrator.CapListResources}},
		"product_metadata_mcp": {Name: "Product Metadata MCP", Transport: orchestrator.TransportInProcess, Priority: 1,
			Domains:      []string{"products", "customers", "orders", "sales", "entities", "semantic_model"},
			Capabilities: []string{orchestrator.CapListResources}},
	}
	cfg.LLM = orchestrator.LLMConfig{Provider: orchestrator.ProviderOpenAI, Model: "load", BaseURL: llmURL,
		APIKeyEnv: keyEnv, Timeout: 10 * time.Second, MaxTokens: 512}
	cfg.Orchestration.PingInterval = 0
	cfg.HTTP.RateLimit = 0
	if err := cfg.Validate(); err != nil {
		return fail(err)
	}

	gen, err := orchestrator.NewGenerator(cfg.LLM, logger)
	if err != nil {
		return fail(err)
	}
	reg := prometheus.NewRegistry()
	orch, err := orchestrator.New(ctx, cfg, logger, orchestrator.WithGenerator(gen),
		orchestrator.WithMetrics(orchestrator.NewMetrics(reg)),
		orchestrator.WithInProcessServer("database_mcp", databasemcp.NewServer(db, logger)),
		orchestrator.WithInProcessServer("product_metadata_mcp", meta.MCPServer()))
	if err != nil {
		return fail(fmt.Errorf("start orchestrator: %w", err))
	}
	cleanups = append(cleanups, func() { orch.Close() })

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fail(err)
	}
	srv := &http.Server{Handler: server.New(orch, cfg.HTTP, nil, logger, reg), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	cleanups = append(cleanups, func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	})
	return "http://" + ln.Addr().String(), gen, stop, nil
}

func stackLogger(level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("-log-level: %w", err)
	}
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: l})), nil
}

// cheapSQL is what the scripted model answers by default: a small
// aggregate, so the run measures the service rather than SQLite. A heavier
// question for -sql: revenue by region for one product over 30 days,
//
//	SELECT region, ROUND(SUM(total_amount), 2) AS revenue FROM sales
//	WHERE product_id = 123 AND sale_date >= date('now', '-30 days')
//	GROUP BY region ORDER BY revenue DESC
const cheapSQL = `SELECT category, COUNT(*) AS products, ROUND(AVG(unit_price), 2) AS avg_price
FROM products GROUP BY category ORDER BY category`

// startResponder serves a zero-latency OpenAI-compatible chat-completions
// endpoint that always answers with the same plan. (internal/llmtest needs a
// testing.TB and records every request, which a long load run cannot
// afford.)
func startResponder(sql string) (string, func(), error) {
	plan, err := json.Marshal(map[string]any{
		"sql":               sql,
		"resolved_entities": map[string]map[string]string{"abracadabra": {"products.product_id": "123"}},
		"explanation":       "The answer, as the scripted model wrote it.",
		"confidence":        0.9,
	})
	if err != nil {
		return "", nil, err
	}
	answer, err := json.Marshal(map[string]any{
		"id": "chatcmpl-load", "object": "chat.completion", "created": time.Now().Unix(), "model": "load",
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": string(plan)}}},
		"usage": map[string]int{"prompt_tokens": 1500, "completion_tokens": 80, "total_tokens": 1580},
	})
	if err != nil {
		return "", nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/v1", func() { srv.Close() }, nil
}

// cpuTime is the user+system CPU time the process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func pct(sorted []time.Duration, p int) time.Duration {
	i := (len(sorted)*p + 99) / 100
	if i > 0 {
		i--
	}
	return sorted[i]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
func mib(b uint64) float64       { return float64(b) / (1 << 20) }
