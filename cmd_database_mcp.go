package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"talk2tables/catalog/draft"
	"talk2tables/config"
	"talk2tables/databasemcp"
	"talk2tables/filetables"
	"talk2tables/mcpserve"
	"talk2tables/mysqlconfig"
	"talk2tables/pgconfig"
)

// runDatabaseMCP serves the read-only MCP server over a SQLite file, a
// PostgreSQL database or a MySQL/MariaDB database.
func runDatabaseMCP(ctx context.Context, args []string, io stdio) error {
	f := addDatabaseMCPFlags(newFlagSet("database-mcp", "--db FILE | --dsn postgres://... | --dsn mysql://... [flags]", io))
	if err := parseFlags(f.fs, args); err != nil {
		return err
	}
	if err := f.check(io); err != nil {
		return err
	}
	logger, err := newLogger(io.err, *f.logLevel, *f.logFormat)
	if err != nil {
		return fmt.Errorf("database-mcp: %w", err)
	}
	// NewServer tags its own logger with mcp_server; cmdLog tags this
	// command's lines the same way without the attribute appearing twice.
	cmdLog := logger.With("mcp_server", databasemcp.ServerName)
	opts := databasemcp.Options{QueryTimeout: *f.timeout, MaxRows: *f.maxRows, Today: *f.today,
		Connections: *f.connections, MaxValueBytes: *f.maxValue, MaxCellBytes: *f.maxCell, MaxResultBytes: *f.maxResult}

	start := time.Now()
	watchCtx, stopWatch := context.WithCancel(ctx)
	var watching sync.WaitGroup
	defer func() { stopWatch(); watching.Wait() }()
	db, err := openServed(ctx, cmdLog, *f.dbPath, *f.dsn, *f.passwordEnv, *f.maxConns, *f.connections, opts)
	if err != nil {
		return fmt.Errorf("database-mcp: %w", err)
	}
	defer db.Close()
	defer func() { stopWatch(); watching.Wait() }() // the watchers stop before the database closes
	cmdLog.Info("database opened read-only", append(db.where, "event", "database_opened", "dialect", db.Dialect(),
		"transport", *f.transport, "query_timeout", f.timeout.String(), "max_rows", *f.maxRows,
		"duration_ms", time.Since(start).Milliseconds())...)

	srv := databasemcp.NewServer(db.servedBackend, logger)
	db.watch(watchCtx, &watching, srv, cmdLog)
	err = mcpserve.Serve(ctx, srv, mcpserve.Options{
		Transport: *f.transport, Addr: *f.addr, Stdin: io.in, Stdout: io.out, Logger: cmdLog,
	})
	if err != nil {
		return fmt.Errorf("database-mcp: %w", err)
	}
	cmdLog.Info("database mcp server stopped", "event", "database_closed")
	return nil
}

// databaseMCPFlags are database-mcp's flags.
type databaseMCPFlags struct {
	fs          *flag.FlagSet
	dbPath      *string
	dsn         *string
	passwordEnv *string
	maxConns    *int
	transport   *string
	addr        *string
	timeout     *time.Duration
	maxRows     *int
	connections *int
	maxValue    *int
	maxCell     *int
	maxResult   *int
	today       *string
	logLevel    *string
	logFormat   *string
}

// addDatabaseMCPFlags defines database-mcp's flags on fs.
func addDatabaseMCPFlags(fs *flag.FlagSet) *databaseMCPFlags {
	f := &databaseMCPFlags{fs: fs}
	f.dbPath = fs.String("db", "", "SQLite database to serve read-only, e.g. testdata/sales.db, or CSV, TSV, JSON Lines or Parquet files "+
		"(a file or a directory of them, one table per file), loaded into a SQLite database in the user cache directory (this or --dsn)")
	f.dsn = fs.String("dsn", "", "PostgreSQL or MySQL/MariaDB database to serve read-only: postgres://user@host:5432/dbname or 'host=... dbname=...' "+
		"(a password missing from it comes from PGPASSWORD, ~/.pgpass or --password-env); mysql://user@host:3306/dbname or user@tcp(host:3306)/dbname "+
		"(from "+mysqlconfig.EnvPassword+" or --password-env) (this or --db)")
	f.passwordEnv = fs.String("password-env", "", "name of the environment variable holding the database password (with --dsn)")
	f.maxConns = fs.Int("max-conns", databasemcp.DefaultPostgresConns, "PostgreSQL or MySQL connections in the pool (with --dsn)")
	f.transport = fs.String("transport", mcpserve.Stdio, "MCP transport: stdio, sse (/sse + /message) or http (streamable HTTP, /mcp)")
	f.addr = fs.String("addr", ":8000", "listen address for the sse and http transports")
	f.timeout = fs.Duration("query-timeout", databasemcp.DefaultQueryTimeout, "statement timeout; a longer query is interrupted and reported as TIMEOUT")
	f.maxRows = fs.Int("max-rows", databasemcp.DefaultMaxRows,
		fmt.Sprintf("rows execute_query returns when the caller gives no max_rows (1..%d)", databasemcp.HardMaxRows))
	f.connections = fs.Int("connections", databasemcp.DefaultConnections(),
		fmt.Sprintf("SQLite connections in the pool (with --db): the most queries running at once, the rest wait in line (1..%d)", databasemcp.MaxConnections))
	f.maxValue = fs.Int("max-value-bytes", databasemcp.DefaultMaxValueBytes,
		"SQLite's length limit (with --db): no string or blob a query builds may be longer (RESOURCE_LIMIT)")
	f.maxCell = fs.Int("max-cell-bytes", databasemcp.DefaultMaxCellBytes, "a result value longer than this (as JSON) is cut, ending in …")
	f.maxResult = fs.Int("max-result-bytes", databasemcp.DefaultMaxResultBytes,
		"the rows of a result past this many bytes (as JSON) are left out and the result is marked truncated")
	f.today = fs.String("today", "", "report this date (YYYY-MM-DD) as today in the schema resource instead of the clock's, for data that ends on a fixed day")
	f.logLevel = fs.String("log-level", envOr(config.EnvLogLevel, "info"), "log level: debug, info, warn or error (logs go to stderr; default from $"+config.EnvLogLevel+")")
	f.logFormat = fs.String("log-format", envOr(config.EnvLogFormat, "json"), "log format: json or text (default from $"+config.EnvLogFormat+")")
	return f
}

// check reports a missing or doubled database, a flag that does not apply
// and every value out of range.
func (f *databaseMCPFlags) check(io stdio) error {
	switch {
	case *f.dbPath == "" && *f.dsn == "":
		fmt.Fprintln(io.err, "talk2tables database-mcp: --db (SQLite) or --dsn (PostgreSQL, MySQL) is required")
		f.fs.Usage()
		return errUsage
	case *f.dbPath != "" && *f.dsn != "":
		fmt.Fprintln(io.err, "talk2tables database-mcp: give --db (SQLite) or --dsn (PostgreSQL, MySQL), not both")
		f.fs.Usage()
		return errUsage
	case *f.passwordEnv != "" && *f.dsn == "":
		return fmt.Errorf("database-mcp: --password-env applies to --dsn (PostgreSQL, MySQL) only")
	}
	switch *f.transport {
	case mcpserve.Stdio, mcpserve.SSE, mcpserve.StreamableHTTP:
	default:
		return fmt.Errorf("database-mcp: --transport %q is not one of stdio, sse, http", *f.transport)
	}
	if *f.timeout <= 0 {
		return fmt.Errorf("database-mcp: --query-timeout must be positive, got %s", *f.timeout)
	}
	if *f.maxRows < 1 || *f.maxRows > databasemcp.HardMaxRows {
		return fmt.Errorf("database-mcp: --max-rows must be between 1 and %d, got %d", databasemcp.HardMaxRows, *f.maxRows)
	}
	if *f.maxConns < 1 || *f.maxConns > 1000 {
		return fmt.Errorf("database-mcp: --max-conns must be between 1 and 1000, got %d", *f.maxConns)
	}
	if *f.connections < 1 || *f.connections > databasemcp.MaxConnections {
		return fmt.Errorf("database-mcp: --connections must be between 1 and %d, got %d", databasemcp.MaxConnections, *f.connections)
	}
	if *f.maxValue < 1 || *f.maxCell < 1 || *f.maxResult < 1 {
		return fmt.Errorf("database-mcp: --max-value-bytes, --max-cell-bytes and --max-result-bytes must be positive")
	}
	return nil
}

// servedBackend is a database as database-mcp serves it, which the
// catalog drafter can also read.
type servedBackend interface {
	databasemcp.Backend
	draft.Source
	Close() error
}

var (
	_ servedBackend = (*databasemcp.DB)(nil)
	_ servedBackend = (*databasemcp.Postgres)(nil)
	_ servedBackend = (*databasemcp.MySQL)(nil)
)

// servedDB is a database opened read-only as database-mcp serves it.
type servedDB struct {
	servedBackend
	watched databasemcp.Watcher // SQLite's file, PostgreSQL's and MySQL's data version: watched for data changes
	files   string              // data files loaded as tables, watched for changes ("" when none)
	where   []any               // log attributes naming it (never a password)
}

// openServed opens the database database-mcp (or serve --db/--dsn) serves:
// a MySQL/MariaDB or PostgreSQL DSN, a SQLite file, or data files loaded as
// tables.
func openServed(ctx context.Context, log *slog.Logger, dbPath, dsn, passwordEnv string, maxConns, connections int, opts databasemcp.Options) (*servedDB, error) {
	if mysqlconfig.Is(dsn) {
		my, err := openMySQL(ctx, log, dsn, passwordEnv, maxConns, opts)
		if err != nil {
			return nil, err
		}
		return &servedDB{servedBackend: my, watched: my,
			where: append(my.Target().LogAttrs(), "max_conns", maxConns, "server_version", my.Server())}, nil
	}
	if dsn != "" {
		pg, err := openPostgres(ctx, log, dsn, passwordEnv, maxConns, opts)
		if err != nil {
			return nil, err
		}
		return &servedDB{servedBackend: pg, watched: pg, where: append(pg.Target().LogAttrs(), "max_conns", maxConns)}, nil
	}
	// Before any SQLite connection (loading files opens one): SQLite takes
	// its allocator only before it is initialised.
	databasemcp.InstallAllocator(log)
	path, files := dbPath, ""
	if filetables.Is(dbPath) {
		loaded, err := loadFiles(ctx, log, dbPath)
		if err != nil {
			return nil, err
		}
		path, opts.Name, files = loaded.Path, filepath.Base(dbPath), dbPath
	}
	lite, err := databasemcp.Open(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	return &servedDB{servedBackend: lite, watched: lite, files: files,
		where: []any{"db", dbPath, "connections", connections, "sqlite_allocator", databasemcp.AllocatorState()}}, nil
}

// watch starts, in wg, the watchers of the database's content until ctx
// is done: data files loaded again when they change, and a change of the
// data announced to srv's clients.
func (db *servedDB) watch(ctx context.Context, wg *sync.WaitGroup, srv *server.MCPServer, log *slog.Logger) {
	if db.files != "" {
		wg.Go(func() { watchFiles(ctx, log, db.files) })
	}
	if db.watched != nil {
		wg.Go(func() { databasemcp.NotifyDataChanges(ctx, db.watched, srv, log) })
	}
}

// openPostgres connects database-mcp to PostgreSQL. The DSN is never
// logged; a password written into it draws a warning (process listings
// show it).
func openPostgres(ctx context.Context, log *slog.Logger, dsn, passwordEnv string, maxConns int, opts databasemcp.Options) (*databasemcp.Postgres, error) {
	cfg, err := pgconfig.Parse(dsn, passwordEnv)
	if err != nil {
		return nil, fmt.Errorf("--dsn: %w", err)
	}
	if pgconfig.HasInlinePassword(dsn) {
		log.Warn("the --dsn holds a password, which other users see in process listings: use PGPASSWORD, ~/.pgpass or --password-env",
			"event", "password_in_dsn")
	}
	return databasemcp.OpenPostgres(ctx, databasemcp.PostgresConfig{Conn: cfg, MaxConns: maxConns}, opts)
}

// openMySQL connects database-mcp to MySQL or MariaDB. The DSN is never
// logged; a password written into it draws a warning (process listings
// show it).
func openMySQL(ctx context.Context, log *slog.Logger, dsn, passwordEnv string, maxConns int, opts databasemcp.Options) (*databasemcp.MySQL, error) {
	cfg, err := mysqlconfig.Parse(dsn, passwordEnv)
	if err != nil {
		return nil, fmt.Errorf("--dsn: %w", err)
	}
	if mysqlconfig.HasInlinePassword(dsn) {
		log.Warn("the --dsn holds a password, which other users see in process listings: use "+mysqlconfig.EnvPassword+" or --password-env",
			"event", "password_in_dsn")
	}
	return databasemcp.OpenMySQL(ctx, databasemcp.MySQLConfig{Conn: cfg, MaxConns: maxConns}, opts)
}

// filesWatchInterval is how often database-mcp looks at files served as
// tables (a stat each; a changed file is hashed and loaded again).
const filesWatchInterval = 2 * time.Second

// loadFiles loads CSV, TSV, JSON Lines or Parquet files (a file or a
// directory) into the cached SQLite database database-mcp serves.
func loadFiles(ctx context.Context, log *slog.Logger, path string) (*filetables.Loaded, error) {
	start := time.Now()
	loaded, err := filetables.Load(ctx, path, filetables.Options{})
	if err != nil {
		return nil, err
	}
	rows := int64(0)
	for _, t := range loaded.Tables {
		rows += t.Rows
	}
	log.Info("files loaded as tables", "event", "files_loaded", "path", path, "tables", len(loaded.Tables), "rows", rows,
		"reused", loaded.Reused, "cache", loaded.Path, "duration_ms", time.Since(start).Milliseconds())
	return loaded, nil
}

// watchFiles loads the files again when they change; the SQLite watcher
// then serves the new database and tells the clients.
func watchFiles(ctx context.Context, log *slog.Logger, path string) {
	filetables.Watch(ctx, path, filetables.Options{}, filesWatchInterval,
		func(l *filetables.Loaded) {
			log.Info("files changed and were loaded again", "event", "files_reloaded", "path", path, "tables", len(l.Tables))
		},
		func(err error) {
			log.Warn("files changed but could not be loaded; serving the last good load", "event", "files_reload_failed",
				"path", path, "error", err.Error())
		})
}
