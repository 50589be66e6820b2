package pgtest

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"talk2tables/catalog"
	"talk2tables/datagen"
	"talk2tables/internal/testfixture"
)

// LoadSample loads the sample database with rows sales rows into db's
// public schema, exactly as `talk2tables gen-data --dsn` does: the same
// rows as testfixture.SalesDB(tb, rows) (seed 1, as-of today UTC), with
// PostgreSQL types, keys, indexes, comments and statistics.
func LoadSample(tb testing.TB, db *DB, rows int) datagen.Stats {
	tb.Helper()
	return LoadSampleInto(tb, db, rows, "")
}

// LoadSampleInto is LoadSample into schema (created when missing; "" is
// public).
func LoadSampleInto(tb testing.TB, db *DB, rows int, schema string) datagen.Stats {
	tb.Helper()
	cat, err := catalog.Load(testfixture.CatalogPath(tb))
	if err != nil {
		tb.Fatalf("pgtest: load catalog: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, db.DSN())
	if err != nil {
		tb.Fatalf("pgtest: connect: %v", err)
	}
	defer conn.Close(context.Background())
	st, err := datagen.GeneratePostgres(ctx, conn,
		datagen.Options{Catalog: cat, Seed: 1, AsOf: testfixture.AsOf(), Rows: rows},
		datagen.PostgresTarget{Schema: schema})
	if err != nil {
		tb.Fatalf("pgtest: load sample data: %v", err)
	}
	return st
}
