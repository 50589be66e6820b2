package databasemcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"talk2tables/internal/testfixture"
	"talk2tables/sqlerr"
)

// TestPostgresHugeValuesAreBounded is issue 14's test on PostgreSQL: a 20
// MB value is refused with RESOURCE_LIMIT as its row arrives (never read
// whole), 200 one-megabyte values are cut to the cell bound with truncated
// and a note, each within the statement timeout plus a second, while a
// cheap query beside them keeps answering and the pool recovers the
// sessions it closed. A gigabyte value: PostgreSQL's repeat() builds it for
// ~11 s without checking for interrupts, so statement_timeout cannot stop
// it; the client gives up half a second after the timeout (TIMEOUT) —
// still within the bound — or, on a fast server, refuses the row.
func TestPostgresHugeValuesAreBounded(t *testing.T) {
	db := sampleDB(t, 1000)
	// The race detector slows reading 200 MB of rows about tenfold, and a
	// machine busy with other builds slows it again (16 s seen with the
	// race detector on a loaded 2-core machine): the cut results get room;
	// the gigabyte value waits for the short timeout whatever the speed.
	timeout := 10 * time.Second
	if testfixture.Race {
		timeout = 60 * time.Second
	}
	p := openPostgres(t, db.DSN(), Options{QueryTimeout: timeout})
	short := openPostgres(t, db.DSN(), Options{QueryTimeout: 3 * time.Second})
	ctx := context.Background()

	stop := make(chan struct{})
	var cheap sync.WaitGroup
	var cheapRuns int
	cheap.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			res, err := p.Query(ctx, "SELECT 1", 0)
			cheapRuns++
			if err != nil || res.RowCount != 1 {
				t.Errorf("cheap query beside the huge ones: %+v, %v", res, err)
			}
		}
	})
	for _, tt := range []struct {
		query    string
		category sqlerr.Category // "" means a cut result
	}{
		{"SELECT repeat('x', 1000000000)", sqlerr.Timeout},
		{"SELECT repeat('x', 1000000) FROM generate_series(1, 200)", ""},
		{"SELECT repeat('x', 20000000)", sqlerr.ResourceLimit},
		{"SELECT repeat('x', 200000) AS t FROM sales LIMIT 500", ""},
	} {
		t.Run(tt.query, func(t *testing.T) {
			backend, bound := p, timeout+time.Second
			if tt.category == sqlerr.Timeout {
				backend, bound = short, short.opts.QueryTimeout+time.Second
			}
			start := time.Now()
			res, err := backend.Query(ctx, tt.query, 0)
			if d := time.Since(start); d > bound {
				t.Errorf("answered after %s, want at most %s", d, bound)
			}
			switch got := sqlerr.CategoryOf(err); {
			case tt.category == sqlerr.Timeout && (got == sqlerr.Timeout || got == sqlerr.ResourceLimit):
				return
			case tt.category != "":
				if got != tt.category || !strings.Contains(err.Error(), "16 MiB") {
					t.Errorf("err = %v, want %s naming the 16 MiB limit", err, tt.category)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v, want a cut result", err)
			}
			if !res.Truncated || !strings.Contains(res.Note, "cut") {
				t.Errorf("truncated %v, note %q; want a cut result saying so", res.Truncated, res.Note)
			}
			for _, row := range res.Rows {
				if cell, _ := json.Marshal(row[0]); len(cell) > DefaultMaxCellBytes {
					t.Fatalf("a cell is %d bytes of JSON, over %d", len(cell), DefaultMaxCellBytes)
				}
			}
			if b, _ := json.Marshal(res.Rows); len(b) > DefaultMaxResultBytes {
				t.Errorf("rows are %d bytes of JSON, over %d", len(b), DefaultMaxResultBytes)
			}
		})
	}
	close(stop)
	cheap.Wait()
	if cheapRuns == 0 {
		t.Error("no cheap query ran beside the huge ones")
	}
	if res, err := p.Query(ctx, "SELECT count(*) FROM sales", 0); err != nil || res.RowCount != 1 {
		t.Errorf("query after the refused rows: %+v, %v", res, err)
	}
}
