// Command soak runs `talk2tables serve` as it is deployed — the binary, with
// database-mcp and metadata-mcp as its stdio children — under a steady mix
// of questions (offline generator) and analyst SQL from several clients for
// a long time, and samples the resident memory, open file descriptors and
// threads of serve and both children (and serve's goroutines from /metrics)
// to show whether anything grows.
//
//	make build && go run ./scripts/soak -duration 10m -clients 8
//
// The questions and SQL vary their parameters (products, months, keys, N)
// so the result cache does not answer everything from memory. It prints one
// line per sample and a summary: each figure at the start (after a warm-up),
// at the end, its peak, and the errors seen. Linux only (/proc).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

type options struct {
	bin, catalog     string
	duration, every  time.Duration
	warmup           time.Duration
	clients, rows    int
	keepDir, verbose bool
}

func run() error {
	var o options
	flag.StringVar(&o.bin, "bin", "bin/talk2tables", "talk2tables binary (make build)")
	flag.StringVar(&o.catalog, "catalog", "testdata/sales_catalog.json", "sample catalog")
	flag.DurationVar(&o.duration, "duration", 10*time.Minute, "how long to drive the clients")
	flag.DurationVar(&o.every, "every", 30*time.Second, "sampling interval")
	flag.DurationVar(&o.warmup, "warmup", 30*time.Second, "the first sample compared is taken after this")
	flag.IntVar(&o.clients, "clients", 8, "concurrent clients")
	flag.IntVar(&o.rows, "rows", 50000, "sales rows in the generated database")
	flag.BoolVar(&o.keepDir, "keep", false, "keep the working directory (database, config, serve's log)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := soak(ctx, o, os.Stdout)
	if err != nil {
		return err
	}
	rep.print(os.Stdout)
	if rep.errors > 0 {
		return fmt.Errorf("%d requests failed (see serve's log)", rep.errors)
	}
	return nil
}

// proc figures of one process.
type procStat struct {
	rssKB, fds, threads int
}

// sample is one reading of serve and its children.
type sample struct {
	at         time.Duration
	serve      procStat
	goroutines int
	children   map[string]procStat // by role: database-mcp, metadata-mcp
	requests   int64
}

type report struct {
	samples        []sample
	warmIndex      int
	errors, total  int64
	questions, sql int64
}

func soak(ctx context.Context, o options, w io.Writer) (*report, error) {
	bin, err := filepath.Abs(o.bin)
	if err != nil {
		return nil, err
	}
	catalogPath, err := filepath.Abs(o.catalog)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "t2t-soak-")
	if err != nil {
		return nil, err
	}
	if !o.keepDir {
		defer os.RemoveAll(dir)
	} else {
		fmt.Fprintln(w, "working directory:", dir)
	}
	db := filepath.Join(dir, "sales.db")
	if out, err := exec.CommandContext(ctx, bin, "gen-data", "--db", db, "--rows", strconv.Itoa(o.rows)).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("gen-data: %v: %s", err, out)
	}
	base, cmd, err := startServe(ctx, bin, dir, db, catalogPath)
	if err != nil {
		return nil, err
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	}()
	products, err := productNames(base)
	if err != nil {
		return nil, err
	}

	rep := &report{}
	driveCtx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	var wg sync.WaitGroup
	for c := 0; c < o.clients; c++ {
		wg.Go(func() { drive(driveCtx, base, c, products, rep) })
	}
	start := time.Now()
	tick := time.NewTicker(o.every)
	defer tick.Stop()
	take := func() {
		s := sample{at: time.Since(start).Round(time.Second), serve: stat(cmd.Process.Pid),
			goroutines: goroutines(base), children: children(cmd.Process.Pid), requests: atomic.LoadInt64(&rep.total)}
		if rep.warmIndex == 0 && s.at >= o.warmup {
			rep.warmIndex = len(rep.samples)
		}
		rep.samples = append(rep.samples, s)
		fmt.Fprintf(w, "%7s  serve rss %6.1f MiB fds %3d threads %3d goroutines %4d | %s | requests %d, errors %d\n",
			s.at, mib(s.serve.rssKB), s.serve.fds, s.serve.threads, s.goroutines, childLine(s.children), s.requests,
			atomic.LoadInt64(&rep.errors))
	}
	take()
loop:
	for {
		select {
		case <-driveCtx.Done():
			break loop
		case <-tick.C:
			take()
		}
	}
	wg.Wait()
	take()
	return rep, ctx.Err()
}

// startServe writes the stack's config (both MCP servers as stdio children,
// the offline generator) and runs serve on a free port until /health is 200.
func startServe(ctx context.Context, bin, dir, db, catalogPath string) (string, *exec.Cmd, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	q := strconv.Quote
	cfg := filepath.Join(dir, "soak.yaml")
	yaml := `mcp_servers:
  database_mcp:
    transport: stdio
    command: ` + q(bin) + `
    args: [database-mcp, --db, ` + q(db) + `]
    priority: 10
    capabilities: [execute_query, validate_query, list_resources]
  product_metadata_mcp:
    transport: stdio
    command: ` + q(bin) + `
    args: [metadata-mcp, --catalog, ` + q(catalogPath) + `]
    priority: 1
    capabilities: [list_resources]
orchestration:
  log_level: warn
llm:
  provider: builtin
http:
  rate_limit: 0
`
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		return "", nil, err
	}
	logf, err := os.Create(filepath.Join(dir, "serve.log"))
	if err != nil {
		return "", nil, err
	}
	cmd := exec.CommandContext(ctx, bin, "serve", "--config", cfg, "--addr", addr)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	base := "http://" + addr + "/"
	for i := 0; i < 300; i++ {
		if resp, err := http.Get(base + "health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return base, cmd, nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	return "", nil, errors.New("serve did not become healthy; see serve.log (-keep)")
}

// productNames reads the sample's product names, for varied questions.
func productNames(base string) ([]string, error) {
	var out struct {
		Rows [][]any `json:"rows"`
	}
	if err := post(base+"api/sql", `{"sql":"SELECT product_name FROM products ORDER BY product_id","max_rows":100}`, &out); err != nil {
		return nil, fmt.Errorf("read product names: %w", err)
	}
	var names []string
	for _, r := range out.Rows {
		if s, ok := r[0].(string); ok {
			names = append(names, s)
		}
	}
	if len(names) == 0 {
		return nil, errors.New("no products in the sample database")
	}
	return names, nil
}

var months = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September",
	"October", "November", "December"}

// drive sends client c's stream of requests until ctx ends: questions and
// SQL in turn, their parameters varied.
func drive(ctx context.Context, base string, c int, products []string, rep *report) {
	year := time.Now().Year()
	for n := c * 1000; ctx.Err() == nil; n++ {
		var err error
		switch n % 4 {
		case 0:
			q := fmt.Sprintf("revenue for %s in %s %d", products[n%len(products)], months[n%12], year-1)
			err = post(base+"api/query", `{"question":`+strconv.Quote(q)+`}`, nil)
			atomic.AddInt64(&rep.questions, 1)
		case 1:
			q := fmt.Sprintf("top %d products by revenue in %s %d", 3+n%12, months[(n/3)%12], year-1)
			err = post(base+"api/query", `{"question":`+strconv.Quote(q)+`}`, nil)
			atomic.AddInt64(&rep.questions, 1)
		case 2:
			sql := fmt.Sprintf("SELECT o.order_id, o.status, c.customer_name FROM orders o JOIN customers c ON c.customer_id = o.customer_id WHERE o.order_id = %d", 1+(n*7919)%20000)
			err = post(base+"api/sql", `{"sql":`+strconv.Quote(sql)+`}`, nil)
			atomic.AddInt64(&rep.sql, 1)
		default:
			sql := fmt.Sprintf("SELECT c.region, ROUND(SUM(s.total_amount), 2), COUNT(*) FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id WHERE s.quantity >= %d GROUP BY c.region", 1+n%5)
			err = post(base+"api/sql", `{"sql":`+strconv.Quote(sql)+`}`, nil)
			atomic.AddInt64(&rep.sql, 1)
		}
		atomic.AddInt64(&rep.total, 1)
		if err != nil && ctx.Err() == nil {
			atomic.AddInt64(&rep.errors, 1)
		}
	}
}

var client = &http.Client{Timeout: 60 * time.Second}

func post(url, body string, into any) error {
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != 200 {
		return fmt.Errorf("%s: HTTP %d: %.200s", url, resp.StatusCode, b)
	}
	if into != nil {
		return json.Unmarshal(b, into)
	}
	return nil
}

// stat reads a process's resident memory, open descriptors and threads.
func stat(pid int) procStat {
	var s procStat
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) < 2 {
				continue
			}
			switch f[0] {
			case "VmRSS:":
				s.rssKB, _ = strconv.Atoi(f[1])
			case "Threads:":
				s.threads, _ = strconv.Atoi(f[1])
			}
		}
	}
	if ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid)); err == nil {
		s.fds = len(ents)
	}
	return s
}

// children finds serve's child processes by parent pid and names them by
// their subcommand.
func children(ppid int) map[string]procStat {
	out := map[string]procStat{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces; read after ')'.
		rest := string(b[bytes.LastIndexByte(b, ')')+1:])
		f := strings.Fields(rest)
		if len(f) < 2 || f[1] != strconv.Itoa(ppid) {
			continue
		}
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		role := "child"
		for _, r := range []string{"database-mcp", "metadata-mcp"} {
			if bytes.Contains(cmdline, []byte(r)) {
				role = r
			}
		}
		out[role] = stat(pid)
	}
	return out
}

// goroutines reads serve's go_goroutines from /metrics.
func goroutines(base string) int {
	resp, err := client.Get(base + "metrics")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "go_goroutines "); ok {
			n, _ := strconv.ParseFloat(v, 64)
			return int(n)
		}
	}
	return -1
}

func childLine(m map[string]procStat) string {
	var parts []string
	for _, r := range []string{"database-mcp", "metadata-mcp"} {
		s, ok := m[r]
		if !ok {
			parts = append(parts, r+" gone")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s rss %5.1f MiB fds %3d threads %3d", r, mib(s.rssKB), s.fds, s.threads))
	}
	return strings.Join(parts, " | ")
}

func mib(kb int) float64 { return float64(kb) / 1024 }

// print writes the summary: each figure after the warm-up, at the end, and
// its peak.
func (r *report) print(w io.Writer) {
	if len(r.samples) < 2 {
		return
	}
	first, last := r.samples[r.warmIndex], r.samples[len(r.samples)-1]
	fmt.Fprintf(w, "\n%d requests (%d questions, %d SQL), %d errors, over %s; figures at %s (after warm-up) → end (peak)\n",
		r.total, r.questions, r.sql, r.errors, last.at, first.at)
	row := func(name string, get func(sample) float64, unit string) {
		peak := 0.0
		for _, s := range r.samples[r.warmIndex:] {
			peak = max(peak, get(s))
		}
		fmt.Fprintf(w, "%-28s %8.1f → %8.1f %s (peak %.1f)\n", name, get(first), get(last), unit, peak)
	}
	row("serve RSS", func(s sample) float64 { return mib(s.serve.rssKB) }, "MiB")
	row("serve goroutines", func(s sample) float64 { return float64(s.goroutines) }, "")
	row("serve fds", func(s sample) float64 { return float64(s.serve.fds) }, "")
	row("serve threads", func(s sample) float64 { return float64(s.serve.threads) }, "")
	for _, c := range []string{"database-mcp", "metadata-mcp"} {
		row(c+" RSS", func(s sample) float64 { return mib(s.children[c].rssKB) }, "MiB")
		row(c+" fds", func(s sample) float64 { return float64(s.children[c].fds) }, "")
		row(c+" threads", func(s sample) float64 { return float64(s.children[c].threads) }, "")
	}
}
