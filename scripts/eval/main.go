// Command eval prints the end-to-end evaluation report: for each fixture
// database, how many questions the offline planner answers correctly,
// declines or gets wrong, with the catalog as drafted and after the
// fixture's small edits.
//
//	go run ./scripts/eval [-fixtures sales,bikeshop] [-details] [-drafted] [-transport inprocess|streamable_http]
//	    [-postgres postgres://user@host:5432/postgres [-password-env PGPASSWORD]]
//	go run ./scripts/eval -inventory [-fixtures …]
//
// The report has, per fixture and catalog, the outcomes over all questions
// and the score (correct − 10 × wrong); held-out fixtures come in a table
// of their own, and -details never lists their questions. -inventory
// prints what each fixture holds instead: tables, questions, and how many
// of the answerable ones need a join or a grouping or ordering.
//
// With -postgres every fixture is also evaluated on PostgreSQL: its rows
// are loaded into a throwaway database created (and dropped) on that server
// per run — the role needs CREATEDB — database-mcp serves it with its
// PostgreSQL backend, the catalog is drafted from it (the sample keeps its
// own), and each answer is checked against the gold SQL run on SQLite.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"talk2tables/evaluation"
	"talk2tables/internal/fixtures"
	"talk2tables/pgconfig"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "eval:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	names := fs.String("fixtures", strings.Join(fixtures.Names(), ","), "comma-separated fixtures to evaluate")
	details := fs.Bool("details", false, "list every question not answered correctly, with the SQL run and why")
	transport := fs.String("transport", evaluation.InProcess, "how the MCP servers are reached: inprocess or streamable_http")
	pgDSN := fs.String("postgres", "", "also evaluate on PostgreSQL: a server where the role may CREATE DATABASE (a throwaway database per run)")
	passwordEnv := fs.String("password-env", "", "environment variable holding the -postgres password (default PGPASSWORD or ~/.pgpass)")
	drafted := fs.Bool("drafted", false, "evaluate the fixtures without a hand-made catalog with the catalog `talk2tables catalog init` drafts, even where the tests do not yet")
	inventory := fs.Bool("inventory", false, "print what each fixture holds (tables, questions by kind) instead of evaluating")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if *transport != evaluation.InProcess && *transport != evaluation.StreamableHTTP {
		return fmt.Errorf("%w: -transport %q: want inprocess or streamable_http", errUsage, *transport)
	}
	dir, err := os.MkdirTemp("", "talk2tables-eval-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	if *inventory {
		return writeInventory(ctx, stdout, dir, strings.Split(*names, ","))
	}

	var reports []*evaluation.Report
	var skipped []string
	for _, name := range strings.Split(*names, ",") {
		name = strings.TrimSpace(name)
		if _, err := fixtures.Questions(name); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		cat, ok := evaluation.CatalogFor(name)
		if !ok && *drafted {
			cat, ok = evaluation.Drafted, true
		}
		if !ok {
			skipped = append(skipped, name)
			continue
		}
		modes := []bool{false}
		if fixtures.EditsPath(name) != "" {
			modes = append(modes, true)
		}
		for _, edited := range modes {
			sub, err := os.MkdirTemp(dir, name+"-")
			if err != nil {
				return err
			}
			rep, err := evaluation.Run(ctx, name, evaluation.Options{Dir: sub, Catalog: cat, Edited: edited, Transport: *transport})
			if err != nil {
				return err
			}
			reports = append(reports, rep)
			if *pgDSN != "" {
				rep, err := runPostgres(ctx, *pgDSN, *passwordEnv, name, evaluation.Options{Dir: sub + "-pg", Catalog: cat,
					Edited: edited, Transport: *transport, DraftFromPostgres: name != fixtures.Sample})
				if err != nil {
					return fmt.Errorf("%s on PostgreSQL: %w", name, err)
				}
				reports = append(reports, rep)
			}
		}
	}
	if err := evaluation.WriteTable(stdout, reports); err != nil {
		return err
	}
	if len(skipped) > 0 {
		fmt.Fprintf(stdout, "\nnot evaluated (drafted catalogs are evaluated with -drafted): %s\n", strings.Join(skipped, ", "))
	}
	if *details {
		fmt.Fprintln(stdout)
		return evaluation.WriteDetails(stdout, reports)
	}
	return nil
}

// writeInventory prints, per fixture, its tables and views (of a fresh
// build) and its questions: answerable, to decline, and how many of the
// answerable ones read several tables or group or order (fixtures.GoldShape).
func writeInventory(ctx context.Context, w io.Writer, dir string, names []string) error {
	fmt.Fprintln(w, "| fixture | tables | views | answerable | must-decline | with joins | with grouping or ordering | questions | held out |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---|---|")
	for _, name := range names {
		name = strings.TrimSpace(name)
		qs, err := fixtures.Questions(name)
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		path, err := fixtures.Build(ctx, name, dir)
		if err != nil {
			return err
		}
		tables, views, err := countTables(ctx, path)
		if err != nil {
			return err
		}
		var answerable, decline, joins, grouping int
		for _, q := range qs {
			if q.Decline {
				decline++
				continue
			}
			answerable++
			s := fixtures.GoldShape(q)
			if s.Joins {
				joins++
			}
			if s.Grouping {
				grouping++
			}
		}
		style, held := "analyst", ""
		if fixtures.Plain(name) {
			style = "benchmark"
		}
		if fixtures.HeldOut(name) {
			held = "yes"
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d (%.0f%%) | %d (%.0f%%) | %s | %s |\n", name, tables, views, answerable, decline,
			joins, pct(joins, answerable), grouping, pct(grouping, answerable), style, held)
	}
	return nil
}

func pct(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

func countTables(ctx context.Context, path string) (tables, views int, err error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return 0, 0, err
	}
	defer db.Close()
	err = db.QueryRowContext(ctx, `SELECT COUNT(*) FILTER (WHERE type = 'table'), COUNT(*) FILTER (WHERE type = 'view')
		FROM sqlite_master WHERE name NOT LIKE 'sqlite\_%' ESCAPE '\'`).Scan(&tables, &views)
	return tables, views, err
}

// runPostgres evaluates one fixture on a throwaway PostgreSQL database
// created on the server at dsn and dropped afterwards.
func runPostgres(ctx context.Context, dsn, passwordEnv, name string, opts evaluation.Options) (*evaluation.Report, error) {
	admin, err := pgconfig.Parse(dsn, passwordEnv)
	if err != nil {
		return nil, err
	}
	conn, err := pgx.ConnectConfig(ctx, admin)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	db := fmt.Sprintf("t2t_eval_%s_%d_%d", name, os.Getpid(), time.Now().UnixNano())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{db}.Sanitize()); err != nil {
		return nil, fmt.Errorf("create database %s (the role needs CREATEDB): %w", db, err)
	}
	defer func() {
		// WITH (FORCE) ends database-mcp's pooled sessions, already closed.
		if _, err := conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+pgx.Identifier{db}.Sanitize()+" WITH (FORCE)"); err != nil {
			fmt.Fprintf(os.Stderr, "eval: drop database %s: %v\n", db, err)
		}
	}()
	cfg := admin.Copy()
	cfg.Database = db
	opts.Postgres = cfg
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, err
	}
	return evaluation.Run(ctx, name, opts)
}
