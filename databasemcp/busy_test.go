package databasemcp

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"talk2tables/internal/testfixture"
	"talk2tables/sqlerr"
)

// TestBusyIsNotAStatementTimeout: a query that cannot get a connection
// because every one is taken is told the database is busy, not that its own
// statement was too slow; once a connection frees up, queries run again.
func TestBusyIsNotAStatementTimeout(t *testing.T) {
	db, err := Open(context.Background(), testfixture.SalesDB(t, 500), Options{QueryTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	held := make([]*sql.Conn, 0, db.opts.Connections)
	for range db.opts.Connections {
		c, err := db.sql.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}

	_, err = db.Query(ctx, "SELECT 1", 0)
	var se *sqlerr.Error
	if !errors.As(err, &se) || se.Category != sqlerr.Timeout || !strings.Contains(se.Message, "database busy") {
		t.Fatalf("Query with every connection taken = %v, want TIMEOUT \"database busy\"", err)
	}
	if err := db.Validate(ctx, "SELECT 1"); err == nil || !strings.Contains(err.Error(), "database busy") {
		t.Errorf("Validate with every connection taken = %v, want \"database busy\"", err)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := db.Query(cctx, "SELECT 1", 0); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Errorf("Query with a cancelled context = %v, want \"cancelled\"", err)
	}

	held[0].Close()
	res, err := db.Query(ctx, "SELECT 1", 0)
	if err != nil || res.RowCount != 1 {
		t.Errorf("Query after a connection freed = %+v, %v; want one row", res, err)
	}
	for _, c := range held[1:] {
		c.Close()
	}
}
