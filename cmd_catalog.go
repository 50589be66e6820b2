package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"talk2tables/catalog"
	"talk2tables/catalog/draft"
	"talk2tables/databasemcp"
	"talk2tables/filetables"
	"talk2tables/mysqlconfig"
	"talk2tables/pgconfig"
)

// catalogCommands are the subcommands of `talk2tables catalog`.
var catalogCommands = map[string]command{
	"init":     {"draft a catalog from a database's schema and data", runCatalogInit},
	"migrate":  {"convert a version-1 product catalog to version 2", runCatalogMigrate},
	"validate": {"check a catalog strictly, and against a database with --db", runCatalogValidate},
}

// runCatalog dispatches `talk2tables catalog <init|migrate|validate>`.
func runCatalog(ctx context.Context, args []string, io stdio) error {
	return dispatch(ctx, "catalog", catalogCommands, catalogUsage, args, io)
}

// dispatch runs the subcommand of a command group (`talk2tables <group>
// <command> ...`): usage on stdout for help, on stderr with errUsage for
// none or an unknown one.
func dispatch(ctx context.Context, group string, cmds map[string]command, usage func(io.Writer), args []string, io stdio) error {
	if len(args) == 0 {
		usage(io.err)
		return errUsage
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(io.out)
		return nil
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(io.err, "talk2tables %s: unknown command %q\n\n", group, args[0])
		usage(io.err)
		return errUsage
	}
	return cmd.run(ctx, args[1:], io)
}

func catalogUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: talk2tables catalog <command> [flags]")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(catalogCommands))
	for n := range catalogCommands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, catalogCommands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'talk2tables catalog <command> --help' for its flags.")
}

// required reports a missing required flag as a usage error.
func required(fs *flag.FlagSet, io stdio, name, value string) error {
	if value != "" {
		return nil
	}
	fmt.Fprintf(io.err, "talk2tables %s: --%s is required\n", fs.Name(), name)
	fs.Usage()
	return errUsage
}

// dbFlags name the database a catalog command reads: a SQLite file (--db)
// or a PostgreSQL or MySQL database (--dsn, --password-env).
type dbFlags struct {
	path, dsn, passwordEnv *string
}

// addDBFlags defines --db, --dsn and --password-env on fs; purpose ends
// their help ("to draft the catalog from").
func addDBFlags(fs *flag.FlagSet, purpose string) dbFlags {
	return dbFlags{
		path: fs.String("db", "", "SQLite database "+purpose+" (opened read-only), or CSV, TSV, JSON Lines or Parquet files "+
			"(a file or a directory, one table per file; this or --dsn)"),
		dsn: fs.String("dsn", "", "PostgreSQL or MySQL/MariaDB database "+purpose+": postgres://user@host:5432/dbname, 'host=... dbname=...', "+
			"mysql://user@host:3306/dbname or user@tcp(host:3306)/dbname (read-only, as database-mcp; the password from PGPASSWORD, "+
			"~/.pgpass, "+mysqlconfig.EnvPassword+" or --password-env; this or --db)"),
		passwordEnv: fs.String("password-env", "", "name of the environment variable holding the database password (with --dsn)"),
	}
}

// given reports whether a database was named.
func (f dbFlags) given() bool { return *f.path != "" || *f.dsn != "" }

// check refuses both targets at once, and --password-env without --dsn.
func (f dbFlags) check() error {
	switch {
	case *f.path != "" && *f.dsn != "":
		return errors.New("give --db (SQLite) or --dsn (PostgreSQL, MySQL), not both")
	case *f.passwordEnv != "" && *f.dsn == "":
		return errors.New("--password-env applies to --dsn (PostgreSQL, MySQL) only")
	}
	return nil
}

// catalogSource is a database a catalog is drafted from or checked against.
type catalogSource interface {
	draft.Source
	Close() error
}

var (
	_ catalogSource = (*databasemcp.DB)(nil)
	_ catalogSource = (*databasemcp.Postgres)(nil)
	_ catalogSource = (*databasemcp.MySQL)(nil)
)

// openedDB is a database opened for a catalog command.
type openedDB struct {
	catalogSource
	name  string // the drafted catalog's source.database: file base name or database name
	label string // for messages: the path, or host/port/database/user (never a password)
	again string // the flags naming it again on a command line (never a password)
}

// openDatabase opens the database named by f read-only, as database-mcp
// would serve it.
func openDatabase(ctx context.Context, f dbFlags, timeout time.Duration) (*openedDB, error) {
	opts := databasemcp.Options{QueryTimeout: timeout}
	if *f.dsn == "" {
		path := *f.path
		if filetables.Is(path) { // CSV, TSV, JSON Lines, Parquet: the tables database-mcp would serve
			loaded, err := filetables.Load(ctx, path, filetables.Options{})
			if err != nil {
				return nil, err
			}
			path, opts.Name = loaded.Path, filepath.Base(*f.path)
		}
		db, err := databasemcp.Open(ctx, path, opts)
		if err != nil {
			return nil, err
		}
		return &openedDB{db, filepath.Base(*f.path), *f.path, "--db " + *f.path}, nil
	}
	again := func(url string) string {
		if *f.passwordEnv != "" {
			return "--dsn " + url + " --password-env " + *f.passwordEnv
		}
		return "--dsn " + url
	}
	if mysqlconfig.Is(*f.dsn) {
		cfg, err := mysqlconfig.Parse(*f.dsn, *f.passwordEnv)
		if err != nil {
			return nil, fmt.Errorf("--dsn: %w", err)
		}
		db, err := databasemcp.OpenMySQL(ctx, databasemcp.MySQLConfig{Conn: cfg, MaxConns: 2}, opts)
		if err != nil {
			return nil, err
		}
		t := mysqlconfig.TargetOf(cfg)
		return &openedDB{db, t.Database, t.String(), again(t.URL())}, nil
	}
	cfg, err := pgconfig.Parse(*f.dsn, *f.passwordEnv)
	if err != nil {
		return nil, fmt.Errorf("--dsn: %w", err)
	}
	db, err := databasemcp.OpenPostgres(ctx, databasemcp.PostgresConfig{Conn: cfg, MaxConns: 2}, opts)
	if err != nil {
		return nil, err
	}
	t := pgconfig.TargetOf(cfg)
	return &openedDB{db, t.Database, t.String(), again(t.URL())}, nil
}

// refuseOverwrite stops before any work when out exists and --force is off.
func refuseOverwrite(out string, force bool) error {
	fi, err := os.Stat(out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("--out %s is a directory; name the catalog file to write, e.g. %s", out, filepath.Join(out, "catalog.json"))
	case !force:
		return fmt.Errorf("%s already exists; pass --force to overwrite it", out)
	}
	return nil
}

// writeCatalog writes a catalog under a temporary name and renames it into
// place, so an interrupted run never leaves half a file.
func writeCatalog(path string, s *catalog.Semantic) error {
	data, err := catalog.Marshal(s)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// runCatalogInit drafts a catalog from a database.
func runCatalogInit(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("catalog init", "--db FILE | --dsn postgres://...|mysql://... --out FILE [flags]", io)
	dbf := addDBFlags(fs, "to draft the catalog from")
	out := fs.String("out", "", "catalog file to write (required), e.g. catalog.json")
	maxEntities := fs.Int("max-entities", draft.DefaultMaxEntities, "most named rows or values kept per entity set (a capped set says so in its note)")
	sampleRows := fs.Int("sample-rows", draft.DefaultSampleRows, "rows of each table the statistics read")
	timeout := fs.Duration("query-timeout", draft.DefaultQueryTimeout, "limit of each sampling statement")
	force := fs.Bool("force", false, "overwrite --out if it exists")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if !dbf.given() {
		fmt.Fprintln(io.err, "talk2tables catalog init: --db (SQLite) or --dsn (PostgreSQL, MySQL) is required")
		fs.Usage()
		return errUsage
	}
	if err := required(fs, io, "out", *out); err != nil {
		return err
	}
	if err := dbf.check(); err != nil {
		return fmt.Errorf("catalog init: %w", err)
	}
	if *maxEntities < 1 || *sampleRows < 1 || *timeout <= 0 {
		return errors.New("catalog init: --max-entities, --sample-rows and --query-timeout must be positive")
	}
	if err := refuseOverwrite(*out, *force); err != nil {
		return fmt.Errorf("catalog init: %w", err)
	}
	start := time.Now()
	db, err := openDatabase(ctx, dbf, *timeout)
	if err != nil {
		return fmt.Errorf("catalog init: %w", err)
	}
	defer db.Close()
	s, err := draft.Draft(ctx, db, draft.Options{MaxEntities: *maxEntities, SampleRows: *sampleRows, QueryTimeout: *timeout,
		Database: db.name})
	if err != nil {
		return fmt.Errorf("catalog init: %w", err)
	}
	if err := writeCatalog(*out, s); err != nil {
		return fmt.Errorf("catalog init: %w", err)
	}
	fmt.Fprintf(io.out, "drafted %s from %s in %s\n", *out, db.label, time.Since(start).Round(time.Millisecond))
	printSummary(io.out, s)
	fmt.Fprintf(io.out, "next: edit %s (README: \"Your own database\"), check it with\n  talk2tables catalog validate --catalog %s %s\n", *out, *out, db.again)
	return nil
}

// runCatalogMigrate converts a version-1 catalog, optionally onto a draft of
// the database it describes.
func runCatalogMigrate(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("catalog migrate", "--in OLD --out NEW [--db FILE | --dsn postgres://...]", io)
	in := fs.String("in", "", "version-1 product catalog to convert (required)")
	out := fs.String("out", "", "version-2 catalog file to write (required)")
	dbf := addDBFlags(fs, "the catalog describes: its draft gives the structure, the old catalog the words and products")
	timeout := fs.Duration("query-timeout", draft.DefaultQueryTimeout, "limit of each sampling statement (with --db or --dsn)")
	force := fs.Bool("force", false, "overwrite --out if it exists")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := required(fs, io, "in", *in); err != nil {
		return err
	}
	if err := required(fs, io, "out", *out); err != nil {
		return err
	}
	if err := dbf.check(); err != nil {
		return fmt.Errorf("catalog migrate: %w", err)
	}
	if err := refuseOverwrite(*out, *force); err != nil {
		return fmt.Errorf("catalog migrate: %w", err)
	}
	data, err := os.ReadFile(*in)
	if err != nil {
		return fmt.Errorf("catalog migrate: %w", err)
	}
	if !catalog.IsVersion1(data) {
		if _, err := catalog.Parse(*in, data); err != nil {
			return fmt.Errorf("catalog migrate: %w", err)
		}
		return fmt.Errorf("catalog migrate: %s is already a version-2 catalog; nothing to convert", *in)
	}
	old, err := catalog.ParseV1(*in, data)
	if err != nil {
		return fmt.Errorf("catalog migrate: %w", err)
	}
	var base *catalog.Semantic
	if dbf.given() {
		db, err := openDatabase(ctx, dbf, *timeout)
		if err != nil {
			return fmt.Errorf("catalog migrate: %w", err)
		}
		defer db.Close()
		if base, err = draft.Draft(ctx, db, draft.Options{QueryTimeout: *timeout, Database: db.name}); err != nil {
			return fmt.Errorf("catalog migrate: %w", err)
		}
	}
	s, err := catalog.Migrate(old, base)
	if err != nil {
		return fmt.Errorf("catalog migrate: %w", err)
	}
	if err := writeCatalog(*out, s); err != nil {
		return fmt.Errorf("catalog migrate: %w", err)
	}
	fmt.Fprintf(io.out, "converted %s to %s\n", *in, *out)
	printSummary(io.out, s)
	return nil
}

// runCatalogValidate loads a catalog strictly and, with --db, checks it
// against the live schema.
func runCatalogValidate(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("catalog validate", "--catalog FILE [--db FILE | --dsn postgres://...]", io)
	path := fs.String("catalog", "", "catalog file to check (required)")
	dbf := addDBFlags(fs, "to check every table, column, key and derived measure against")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := required(fs, io, "catalog", *path); err != nil {
		return err
	}
	if err := dbf.check(); err != nil {
		return fmt.Errorf("catalog validate: %w", err)
	}
	s, err := catalog.Load(*path)
	var ve *catalog.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			fmt.Fprintf(io.out, "%s: %s: %s\n", ve.File, p.Path, p.Message)
		}
		return fmt.Errorf("catalog validate: %s: %d problem(s)", *path, len(ve.Problems))
	}
	if err != nil {
		return fmt.Errorf("catalog validate: %w", err)
	}
	against := ""
	if dbf.given() {
		db, err := openDatabase(ctx, dbf, draft.DefaultQueryTimeout)
		if err != nil {
			return fmt.Errorf("catalog validate: %w", err)
		}
		defer db.Close()
		problems, err := draft.Check(ctx, s, db)
		if err != nil {
			return fmt.Errorf("catalog validate: %w", err)
		}
		for _, p := range problems {
			fmt.Fprintf(io.out, "%s: %s: %s\n", *path, p.Path, p.Message)
		}
		if len(problems) > 0 {
			return fmt.Errorf("catalog validate: %s does not match %s: %d problem(s)", *path, db.label, len(problems))
		}
		against = " and matches " + db.label
	}
	fmt.Fprintf(io.out, "%s is valid%s\n", *path, against)
	printSummary(io.out, s)
	return nil
}

// printSummary prints what a catalog holds: tables by role, measures by
// type, entity sets and the notes.
func printSummary(w io.Writer, s *catalog.Semantic) {
	roles := map[string]int{}
	types := map[string]int{}
	cols := 0
	for _, t := range s.Tables {
		roles[t.Role]++
		cols += len(t.Columns)
		for _, c := range t.Columns {
			if c.Kind == catalog.KindMeasure {
				types[c.Measure]++
			}
		}
	}
	values := 0
	capped := 0
	for _, set := range s.Entities {
		values += len(set.Values)
		if set.Note != "" {
			capped++
		}
	}
	fmt.Fprintf(w, "  tables:       %d (%d fact, %d dimension, %d bridge, %d view), %d columns\n",
		len(s.Tables), roles[catalog.RoleFact], roles[catalog.RoleDimension], roles[catalog.RoleBridge], roles[catalog.RoleView], cols)
	fmt.Fprintf(w, "  measures:     %d additive, %d non-additive columns; %d derived\n",
		types[catalog.MeasureAdditive], types[catalog.MeasureNonAdditive], len(s.Measures))
	fmt.Fprintf(w, "  entity sets:  %d with %d entities (%d with a note)\n", len(s.Entities), values, capped)
	if s.Source != nil && len(s.Source.Notes) > 0 {
		const shown = 10
		fmt.Fprintf(w, "  notes:        %d\n", len(s.Source.Notes))
		for i, n := range s.Source.Notes {
			if i == shown {
				fmt.Fprintf(w, "    … %d more in source.notes\n", len(s.Source.Notes)-shown)
				break
			}
			fmt.Fprintf(w, "    - %s\n", strings.TrimSpace(n))
		}
	}
}
