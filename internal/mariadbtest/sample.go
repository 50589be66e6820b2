package mariadbtest

import (
	"context"
	"testing"
	"time"

	"talk2tables/catalog"
	"talk2tables/datagen"
	"talk2tables/internal/testfixture"
)

// LoadSample loads the sample database with rows sales rows into db,
// exactly as `talk2tables gen-data --dsn mysql://...` does: the same rows
// as testfixture.SalesDB(tb, rows) (seed 1, as-of today UTC), with MySQL
// types, keys, indexes, comments and statistics.
func LoadSample(tb testing.TB, db *DB, rows int) datagen.Stats {
	tb.Helper()
	cat, err := catalog.Load(testfixture.CatalogPath(tb))
	if err != nil {
		tb.Fatalf("mariadbtest: load catalog: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := datagen.GenerateMySQL(ctx, db.Conn(tb),
		datagen.Options{Catalog: cat, Seed: 1, AsOf: testfixture.AsOf(), Rows: rows}, datagen.MySQLTarget{})
	if err != nil {
		tb.Fatalf("mariadbtest: load sample data: %v", err)
	}
	return st
}
