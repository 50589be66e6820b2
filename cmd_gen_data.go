package main

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"

	"talk2tables/catalog"
	"talk2tables/datagen"
	"talk2tables/mysqlconfig"
	"talk2tables/pgconfig"
)

// sampleCatalog is testdata/sales_catalog.json, built into the binary so
// gen-data works from any directory.
//
//go:embed testdata/sales_catalog.json
var sampleCatalog []byte

// loadSampleCatalog loads path, or the built-in sample catalog when path is
// empty.
func loadSampleCatalog(path string) (*catalog.Semantic, error) {
	if path == "" {
		return catalog.Parse("built-in sample catalog (testdata/sales_catalog.json)", sampleCatalog)
	}
	return catalog.Load(path)
}

// runGenData builds the sample database from the catalog: a SQLite file, or
// tables in a PostgreSQL or MySQL/MariaDB database.
func runGenData(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("gen-data", "--db FILE | --dsn postgres://... | --dsn mysql://... [flags]", io)
	dbPath := fs.String("db", "", "SQLite database file to create or replace, e.g. testdata/sales.db (this or --dsn)")
	dsn := fs.String("dsn", "", "PostgreSQL database to load the sample tables into with COPY (postgres://user@host:5432/dbname or 'host=... dbname=...'), "+
		"or MySQL/MariaDB database (mysql://user@host:3306/dbname or user@tcp(host:3306)/dbname) (this or --db)")
	passwordEnv := fs.String("password-env", "", "name of the environment variable holding the database password (with --dsn; default PGPASSWORD or ~/.pgpass, "+mysqlconfig.EnvPassword+")")
	schema := fs.String("schema", "", "PostgreSQL schema for the tables, created when missing (with --dsn; default the user's current schema, usually public)")
	replace := fs.Bool("replace", false, "drop the sample's four tables (products, customers, orders, sales) first when they exist (with --dsn)")
	catalogPath := fs.String("catalog", "", "sample catalog whose products entity set (key, name, category and unit_price attributes) is sold (default: the repository's testdata/sales_catalog.json, built into the binary)")
	seed := fs.Int64("seed", 1, "random seed; the same seed and --as-of give the same data")
	asOf := fs.String("as-of", "", "last day of sales data, YYYY-MM-DD (default today, UTC); data covers the 24 months ending then")
	rows := fs.Int("rows", 50000, fmt.Sprintf("number of sales rows, 1..%d", datagen.MaxRows))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *dbPath == "" && *dsn == "":
		fmt.Fprintln(io.err, "talk2tables gen-data: --db (SQLite) or --dsn (PostgreSQL, MySQL) is required")
		fs.Usage()
		return errUsage
	case *dbPath != "" && *dsn != "":
		fmt.Fprintln(io.err, "talk2tables gen-data: give --db (SQLite) or --dsn (PostgreSQL, MySQL), not both")
		fs.Usage()
		return errUsage
	case *dsn == "" && (*passwordEnv != "" || *schema != "" || *replace):
		return fmt.Errorf("gen-data: --password-env, --schema and --replace apply to --dsn only")
	case *schema != "" && mysqlconfig.Is(*dsn):
		return fmt.Errorf("gen-data: --schema applies to PostgreSQL only; a MySQL DSN names its database")
	}
	if *rows < 1 || *rows > datagen.MaxRows {
		return fmt.Errorf("gen-data: --rows must be between 1 and %d, got %d", datagen.MaxRows, *rows)
	}
	day := time.Now().UTC()
	if *asOf != "" {
		t, err := time.Parse("2006-01-02", *asOf)
		if err != nil {
			return fmt.Errorf("gen-data: --as-of %q is not a date like 2026-11-21 (YYYY-MM-DD)", *asOf)
		}
		day = t
	}
	// Refuse a directory before generating: the rename at the end would fail
	// only after all the work, with a puzzling "file exists".
	if fi, err := os.Stat(*dbPath); *dbPath != "" && err == nil && fi.IsDir() {
		return fmt.Errorf("gen-data: --db %s is a directory; name the database file to create, e.g. %s", *dbPath, filepath.Join(*dbPath, "sales.db"))
	}
	cat, err := loadSampleCatalog(*catalogPath)
	if err != nil {
		return fmt.Errorf("gen-data: %w", err)
	}
	opts := datagen.Options{Path: *dbPath, Catalog: cat, Seed: *seed, AsOf: day, Rows: *rows}
	var st datagen.Stats
	where := *dbPath
	if mysqlconfig.Is(*dsn) {
		st, where, err = genMySQL(ctx, *dsn, *passwordEnv, opts, datagen.MySQLTarget{Replace: *replace})
	} else if *dsn != "" {
		st, where, err = genPostgres(ctx, *dsn, *passwordEnv, opts, datagen.PostgresTarget{Schema: *schema, Replace: *replace})
	} else {
		st, err = datagen.Generate(ctx, opts)
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("gen-data: interrupted; %s was left as it was", where)
	}
	if err != nil {
		return fmt.Errorf("gen-data: %w", err)
	}
	fmt.Fprintf(io.out, "generated %s: %d products, %d customers, %d orders, %d sales (%s..%s) in %s\n",
		st.Path, st.Products, st.Customers, st.Orders, st.Sales, st.From, st.To, st.Duration.Round(time.Millisecond))
	return nil
}

// genPostgres loads the sample into PostgreSQL. It returns a description of
// the target for messages (host, port, database, never the password).
func genPostgres(ctx context.Context, dsn, passwordEnv string, opts datagen.Options, dst datagen.PostgresTarget) (datagen.Stats, string, error) {
	cfg, err := pgconfig.Parse(dsn, passwordEnv)
	if err != nil {
		return datagen.Stats{}, "the database", fmt.Errorf("--dsn: %w", err)
	}
	target := pgconfig.TargetOf(cfg)
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return datagen.Stats{}, target.String(), ctx.Err()
		}
		return datagen.Stats{}, target.String(), pgconfig.ConnectError(target, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	st, err := datagen.GeneratePostgres(ctx, conn, opts, dst)
	if err != nil && ctx.Err() != nil {
		err = context.Canceled
	}
	if err == nil {
		st.Path = target.Address() + "/" + st.Path
	}
	return st, target.String(), err
}

// genMySQL loads the sample into MySQL or MariaDB. It returns a description
// of the target for messages (host, port, database, never the password).
func genMySQL(ctx context.Context, dsn, passwordEnv string, opts datagen.Options, dst datagen.MySQLTarget) (datagen.Stats, string, error) {
	cfg, err := mysqlconfig.Parse(dsn, passwordEnv)
	if err != nil {
		return datagen.Stats{}, "the database", fmt.Errorf("--dsn: %w", err)
	}
	target := mysqlconfig.TargetOf(cfg)
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return datagen.Stats{}, target.String(), fmt.Errorf("%s: %w", target, err)
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	if err := db.PingContext(ctx); err != nil {
		if ctx.Err() != nil {
			return datagen.Stats{}, target.String(), ctx.Err()
		}
		return datagen.Stats{}, target.String(), mysqlconfig.ConnectError(target, err)
	}
	st, err := datagen.GenerateMySQL(ctx, db, opts, dst)
	if err != nil && ctx.Err() != nil {
		err = context.Canceled
	}
	if err == nil {
		st.Path = target.Address() + "/" + st.Path
	}
	return st, target.String(), err
}
