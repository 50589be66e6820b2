package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"talk2tables/catalog"
	"talk2tables/datagen"
)

// runGenData builds the sample SQLite database from the catalog.
func runGenData(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("gen-data", "--db FILE [flags]", io)
	dbPath := fs.String("db", "", "database file to create or replace (required), e.g. testdata/sales.db")
	catalogPath := fs.String("catalog", "testdata/sales_catalog.json", "sample catalog whose products entity set (key, name, category and unit_price attributes) is sold")
	seed := fs.Int64("seed", 1, "random seed; the same seed and --as-of give the same data")
	asOf := fs.String("as-of", "", "last day of sales data, YYYY-MM-DD (default today, UTC); data covers the 24 months ending then")
	rows := fs.Int("rows", 50000, fmt.Sprintf("number of sales rows, 1..%d", datagen.MaxRows))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dbPath == "" {
		fmt.Fprintln(io.err, "talk2tables gen-data: --db is required")
		fs.Usage()
		return errUsage
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
	if fi, err := os.Stat(*dbPath); err == nil && fi.IsDir() {
		return fmt.Errorf("gen-data: --db %s is a directory; name the database file to create, e.g. %s", *dbPath, filepath.Join(*dbPath, "sales.db"))
	}
	cat, err := catalog.Load(*catalogPath)
	if err != nil {
		return fmt.Errorf("gen-data: %w", err)
	}
	st, err := datagen.Generate(ctx, datagen.Options{Path: *dbPath, Catalog: cat, Seed: *seed, AsOf: day, Rows: *rows})
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("gen-data: interrupted; %s was left as it was", *dbPath)
	}
	if err != nil {
		return fmt.Errorf("gen-data: %w", err)
	}
	fmt.Fprintf(io.out, "generated %s: %d products, %d customers, %d orders, %d sales (%s..%s) in %s\n",
		st.Path, st.Products, st.Customers, st.Orders, st.Sales, st.From, st.To, st.Duration.Round(time.Millisecond))
	return nil
}
