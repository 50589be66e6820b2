// Command pgcompare measures what talk2tables adds on top of PostgreSQL:
// the same analyst queries (joins and GROUP BY over the sample data) at the
// same concurrency, once through POST /api/sql of the full stack (HTTP API,
// orchestrator, MCP, database-mcp, PostgreSQL) and once straight into
// PostgreSQL with pgbench, and prints both side by side with their ratio.
//
//	go run ./scripts/pgcompare -dsn postgres://user@127.0.0.1:5432/sales -load 50000 -concurrency 8 -duration 20s
//
// The password comes from PGPASSWORD (or -password-env). -load N replaces
// the sample tables with N sales rows first (gen-data --dsn --replace).
// database-mcp runs in-process by default; -bin bin/talk2tables runs it as
// a stdio child, as the default mcp_config.yaml does.
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
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"

	"talk2tables/catalog"
	"talk2tables/config"
	"talk2tables/databasemcp"
	"talk2tables/datagen"
	"talk2tables/orchestrator"
	"talk2tables/pgconfig"
	"talk2tables/server"
)

// queries is the analyst mix both sides run, round robin (each client
// starts at its own offset).
var queries = []string{
	"SELECT region, count(*) AS lines, round(sum(total_amount), 2) AS revenue FROM sales GROUP BY region ORDER BY revenue DESC",
	"SELECT p.category, round(sum(s.total_amount), 2) AS revenue FROM sales s JOIN products p ON p.product_id = s.product_id GROUP BY p.category ORDER BY revenue DESC",
	"SELECT to_char(date_trunc('month', o.order_date), 'YYYY-MM') AS month, count(*) AS orders FROM orders o WHERE o.status = 'completed' GROUP BY 1 ORDER BY 1",
	"SELECT c.segment, round(avg(s.total_amount), 2) AS avg_line FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.segment ORDER BY c.segment",
	"SELECT p.product_name, sum(s.quantity) AS units FROM sales s JOIN products p USING (product_id) GROUP BY p.product_name ORDER BY units DESC, p.product_name LIMIT 5",
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pgcompare:", err)
		os.Exit(1)
	}
}

// options are the command line.
type options struct {
	dsn, passwordEnv, pgbench, bin, catalog, protocol, cpuProfile string
	load, concurrency                                             int
	duration                                                      time.Duration
}

func run(args []string, out io.Writer) error {
	var o options
	fs := flag.NewFlagSet("pgcompare", flag.ContinueOnError)
	fs.StringVar(&o.dsn, "dsn", os.Getenv("DATABASE_URL"), "PostgreSQL database with the sample tables (default $DATABASE_URL)")
	fs.StringVar(&o.passwordEnv, "password-env", "", "environment variable with the password (default PGPASSWORD or ~/.pgpass)")
	fs.IntVar(&o.load, "load", 0, "first replace the sample tables with this many sales rows (0: use what is there)")
	fs.StringVar(&o.catalog, "catalog", "testdata/sales_catalog.json", "catalog for -load (run from the repository root)")
	fs.IntVar(&o.concurrency, "concurrency", 8, "concurrent clients on both sides (and database-mcp's pool size)")
	fs.DurationVar(&o.duration, "duration", 20*time.Second, "how long each side runs")
	fs.StringVar(&o.pgbench, "pgbench", "", "pgbench binary (default: on $PATH, else /usr/lib/postgresql/*/bin/pgbench)")
	fs.StringVar(&o.protocol, "protocol", "extended", "pgbench query protocol: simple, extended (talk2tables' own) or prepared")
	fs.StringVar(&o.bin, "bin", "", "talk2tables binary: run database-mcp as its stdio child (default: in-process)")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the /api/sql phase to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.dsn == "" {
		return errors.New("-dsn is required (or set DATABASE_URL)")
	}
	if o.concurrency < 1 || o.duration < time.Second {
		return errors.New("-concurrency must be positive and -duration at least 1s")
	}
	cfg, err := pgconfig.Parse(o.dsn, o.passwordEnv)
	if err != nil {
		return fmt.Errorf("-dsn: %w", err)
	}
	pgbench, err := findPgbench(o.pgbench)
	if err != nil {
		return err
	}
	ctx := context.Background()
	if o.load > 0 {
		if err := loadSample(ctx, cfg, o); err != nil {
			return err
		}
	}

	base, stop, err := startStack(ctx, cfg, o)
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
	}
	api, err := driveAPI(base, o)
	if o.cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	stop()
	if err != nil {
		return err
	}
	direct, err := runPgbench(ctx, pgbench, cfg, o)
	if err != nil {
		return err
	}
	report(out, o, api, direct)
	return nil
}

// side is what one side measured.
type side struct {
	qps            float64
	mean, p50, p99 time.Duration
	count, errors  int
	firstErr       error
}

func report(w io.Writer, o options, api, direct side) {
	mode := "in-process"
	if o.bin != "" {
		mode = "stdio"
	}
	fmt.Fprintf(w, "%d analyst queries round robin, %d clients, %s per side (database-mcp %s, pgbench -M %s)\n\n",
		len(queries), o.concurrency, o.duration, mode, o.protocol)
	fmt.Fprintf(w, "| path | queries/s | mean latency | p50 | p99 | errors |\n|---|---|---|---|---|---|\n")
	fmt.Fprintf(w, "| POST /api/sql (talk2tables) | %.0f | %.2f ms | %.2f ms | %.2f ms | %d |\n",
		api.qps, ms(api.mean), ms(api.p50), ms(api.p99), api.errors)
	fmt.Fprintf(w, "| pgbench (PostgreSQL directly) | %.0f | %.2f ms | — | — | %d |\n", direct.qps, ms(direct.mean), direct.errors)
	if direct.qps > 0 {
		fmt.Fprintf(w, "\nratio: talk2tables reaches %.2f× pgbench's throughput; latency %.2f× (mean %+.2f ms per query)\n",
			api.qps/direct.qps, float64(api.mean)/float64(direct.mean), ms(api.mean-direct.mean))
	}
	if api.firstErr != nil {
		fmt.Fprintf(w, "first error: %v\n", api.firstErr)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// loadSample replaces the sample tables, as gen-data --dsn --replace does.
func loadSample(ctx context.Context, cfg *pgx.ConnConfig, o options) error {
	cat, err := catalog.Load(o.catalog)
	if err != nil {
		return fmt.Errorf("%w (run from the repository root or pass -catalog)", err)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return pgconfig.ConnectError(pgconfig.TargetOf(cfg), err)
	}
	defer conn.Close(ctx)
	fmt.Fprintf(os.Stderr, "pgcompare: loading %d sales rows into %s\n", o.load, pgconfig.TargetOf(cfg))
	_, err = datagen.GeneratePostgres(ctx, conn, datagen.Options{Catalog: cat, Seed: 1, AsOf: time.Now().UTC(), Rows: o.load},
		datagen.PostgresTarget{Replace: true})
	return err
}

// startStack serves the API over loopback with database-mcp (in-process,
// or a stdio child of -bin) as the only MCP server and the builtin
// generator: /api/sql needs no LLM.
func startStack(ctx context.Context, pg *pgx.ConnConfig, o options) (string, func(), error) {
	var cleanups []func()
	stop := func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}
	fail := func(err error) (string, func(), error) { stop(); return "", nil, err }
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))

	cfg := config.DefaultConfig()
	dbCfg := config.ServerConfig{Name: "Database MCP Server", Priority: 10, Domains: []string{"sales"},
		Capabilities: []string{config.CapExecuteQuery, config.CapValidateQuery, config.CapListResources}}
	var opts []orchestrator.Option
	if o.bin == "" {
		db, err := databasemcp.OpenPostgres(ctx, databasemcp.PostgresConfig{Conn: pg, MaxConns: o.concurrency}, databasemcp.Options{})
		if err != nil {
			return fail(err)
		}
		cleanups = append(cleanups, func() { db.Close() })
		dbCfg.Transport = config.TransportInProcess
		opts = append(opts, orchestrator.WithInProcessServer("database_mcp", databasemcp.NewServer(db, logger)))
	} else {
		bin, err := filepath.Abs(o.bin)
		if err != nil {
			return fail(err)
		}
		dbCfg.Transport, dbCfg.Command = config.TransportStdio, bin
		dbCfg.Args = []string{"database-mcp", "--dsn", dsnWithoutPassword(pg),
			"--max-conns", strconv.Itoa(o.concurrency), "--log-level", "error"}
		if pg.Password != "" {
			// The child gets the password through the environment, never argv.
			os.Setenv("PGCOMPARE_PASSWORD", pg.Password)
			dbCfg.Args = append(dbCfg.Args, "--password-env", "PGCOMPARE_PASSWORD")
		}
	}
	cfg.MCPServers = map[string]config.ServerConfig{"database_mcp": dbCfg}
	cfg.LLM.Provider, cfg.LLM.Fallback = config.ProviderBuiltin, ""
	cfg.Orchestration.PingInterval = 0
	cfg.Orchestration.ResultCache.Enabled = false // every query runs: measure the SQL path, not the result cache
	cfg.HTTP.RateLimit = 0
	if err := cfg.Validate(); err != nil {
		return fail(err)
	}
	reg := prometheus.NewRegistry()
	orch, err := orchestrator.New(ctx, cfg, logger, append(opts, orchestrator.WithMetrics(orchestrator.NewMetrics(reg)))...)
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
	return "http://" + ln.Addr().String(), stop, nil
}

// dsnWithoutPassword is a key=value DSN of cfg's target.
func dsnWithoutPassword(cfg *pgx.ConnConfig) string {
	q := func(s string) string { return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'" }
	dsn := fmt.Sprintf("host=%s port=%d dbname=%s user=%s", q(cfg.Host), cfg.Port, q(cfg.Database), q(cfg.User))
	if cfg.TLSConfig == nil {
		dsn += " sslmode=disable"
	}
	return dsn
}

// driveAPI runs the query mix against POST /api/sql.
func driveAPI(base string, o options) (side, error) {
	client := &http.Client{Timeout: 60 * time.Second,
		Transport: &http.Transport{MaxIdleConns: o.concurrency * 2, MaxIdleConnsPerHost: o.concurrency * 2}}
	defer client.CloseIdleConnections()
	bodies := make([][]byte, len(queries))
	for i, q := range queries {
		bodies[i], _ = json.Marshal(map[string]any{"sql": q, "max_rows": 1000})
	}
	for _, b := range bodies { // warm up: connections, resource cache, plans
		if _, err := post(client, base, b); err != nil {
			return side{}, fmt.Errorf("warm-up: %w", err)
		}
	}
	var (
		mu       sync.Mutex
		all      []time.Duration
		errs     atomic.Int64
		firstErr error
		wg       sync.WaitGroup
	)
	fmt.Fprintf(os.Stderr, "pgcompare: %d clients on POST /api/sql for %s\n", o.concurrency, o.duration)
	start := time.Now()
	deadline := start.Add(o.duration)
	for c := range o.concurrency {
		wg.Go(func() {
			local := make([]time.Duration, 0, 4096)
			for i := c; time.Now().Before(deadline); i++ {
				d, err := post(client, base, bodies[i%len(bodies)])
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
	elapsed := time.Since(start)
	slices.Sort(all)
	s := side{count: len(all), errors: int(errs.Load()), firstErr: firstErr, qps: float64(len(all)) / elapsed.Seconds()}
	if n := len(all); n > 0 {
		var sum time.Duration
		for _, d := range all {
			sum += d
		}
		s.mean, s.p50, s.p99 = sum/time.Duration(n), all[n*50/100], all[min(n-1, n*99/100)]
	}
	return s, nil
}

func post(client *http.Client, base string, body []byte) (time.Duration, error) {
	start := time.Now()
	resp, err := client.Post(base+"/api/sql", "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	d := time.Since(start)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(b, []byte(`"row_count":`)) {
		return 0, fmt.Errorf("status %d: %.300s", resp.StatusCode, b)
	}
	return d, nil
}

func findPgbench(given string) (string, error) {
	if given != "" {
		return given, nil
	}
	if p, err := exec.LookPath("pgbench"); err == nil {
		return p, nil
	}
	if m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pgbench"); len(m) > 0 {
		slices.Sort(m)
		return m[len(m)-1], nil
	}
	return "", errors.New("pgbench not found: install postgresql-client (apt-get install postgresql-client) or pass -pgbench")
}

var (
	tpsLine     = regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`)
	latencyLine = regexp.MustCompile(`latency average = ([0-9.]+) ms`)
	failedLine  = regexp.MustCompile(`number of failed transactions: ([0-9]+)`)
)

// runPgbench runs the same queries with pgbench: one script file per query,
// equal weights, the same number of clients.
func runPgbench(ctx context.Context, bin string, cfg *pgx.ConnConfig, o options) (side, error) {
	dir, err := os.MkdirTemp("", "pgcompare-")
	if err != nil {
		return side{}, err
	}
	defer os.RemoveAll(dir)
	args := []string{"-n", "-M", o.protocol, "-c", strconv.Itoa(o.concurrency), "-j", strconv.Itoa(min(o.concurrency, 4)),
		"-T", strconv.Itoa(int(o.duration.Seconds())), "-h", cfg.Host, "-p", strconv.Itoa(int(cfg.Port)), "-U", cfg.User}
	for i, q := range queries {
		f := filepath.Join(dir, fmt.Sprintf("q%d.sql", i))
		if err := os.WriteFile(f, []byte(q+";\n"), 0o644); err != nil {
			return side{}, err
		}
		args = append(args, "-f", f)
	}
	args = append(args, cfg.Database)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "PGPASSWORD="+cfg.Password, "PGAPPNAME=pgcompare-pgbench")
	if cfg.TLSConfig == nil {
		cmd.Env = append(cmd.Env, "PGSSLMODE=disable")
	}
	fmt.Fprintf(os.Stderr, "pgcompare: %d clients in pgbench for %s\n", o.concurrency, o.duration)
	outb, err := cmd.CombinedOutput()
	if err != nil {
		return side{}, fmt.Errorf("pgbench: %w\n%s", err, outb)
	}
	out := string(outb)
	m, l := tpsLine.FindStringSubmatch(out), latencyLine.FindStringSubmatch(out)
	if m == nil || l == nil {
		return side{}, fmt.Errorf("pgbench printed no tps/latency:\n%s", out)
	}
	tps, _ := strconv.ParseFloat(m[1], 64)
	lat, _ := strconv.ParseFloat(l[1], 64)
	s := side{qps: tps, mean: time.Duration(lat * float64(time.Millisecond))}
	if f := failedLine.FindStringSubmatch(out); f != nil {
		s.errors, _ = strconv.Atoi(f[1])
	}
	return s, nil
}
