package databasemcp

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"talk2tables/internal/pgtest"
	"talk2tables/sqlerr"
)

// TestPostgresLostSessionsRetried (issue 24): pooled sessions terminated
// under load (pg_terminate_backend, as an administrator or a failover
// does) fail no read-only statement: one whose session died is run once
// more on a session that answers a ping. It was one failed
// request per killed session.
func TestPostgresLostSessionsRetried(t *testing.T) {
	db := sampleDB(t, 500)
	p := openPostgres(t, db.ReadOnlyRole(t).DSN(), Options{})
	admin := db.Conn(t)
	ctx := context.Background()
	var ok, failed atomic.Int64
	var firstErr atomic.Value
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := p.Query(ctx, "SELECT count(*) FROM sales WHERE quantity > 1", 0); err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					continue
				}
				ok.Add(1)
			}
		})
	}
	killed := 0
	for range 8 {
		// A round of kills every 300 ms, each waiting (up to 1 s) for the
		// backends to be gone: one loss per statement, which the retry
		// covers; a statement killed again on its retry fails by design.
		time.Sleep(300 * time.Millisecond)
		var n int
		if err := admin.QueryRow(ctx, `SELECT count(pg_catalog.pg_terminate_backend(pid, 1000)) FROM pg_catalog.pg_stat_activity
			WHERE datname = $1 AND application_name = $2`, db.Name, ApplicationName).Scan(&n); err != nil {
			t.Fatal(err)
		}
		killed += n
	}
	close(stop)
	wg.Wait()
	t.Logf("%d statements ran, %d failed, %d sessions terminated", ok.Load(), failed.Load(), killed)
	if killed == 0 || ok.Load() == 0 {
		t.Fatalf("killed %d sessions under %d statements: the test did not test", killed, ok.Load())
	}
	if failed.Load() > 0 {
		t.Errorf("%d statements failed (first: %v), want none: a statement that lost its session is run again", failed.Load(), firstErr.Load())
	}
}

// TestPostgresDownIsDatabaseError (issue 24): a stopped PostgreSQL is a
// DATABASE_ERROR ("database unavailable"), never UNKNOWN_ERROR, for a
// statement and a validation alike, and the same pool answers again by
// itself once PostgreSQL is back.
func TestPostgresDownIsDatabaseError(t *testing.T) {
	cluster := pgtest.NewCluster(t)
	db := cluster.NewDB(t)
	pgtest.LoadSample(t, db, 100)
	p := openPostgres(t, db.ReadOnlyRole(t).DSN(), Options{QueryTimeout: 5 * time.Second})
	ctx := context.Background()
	if _, err := p.Query(ctx, "SELECT count(*) FROM sales", 0); err != nil {
		t.Fatal(err)
	}
	cluster.Pause(t)
	resumed := false
	t.Cleanup(func() {
		if !resumed {
			cluster.Resume(t)
		}
	})
	_, qerr := p.Query(ctx, "SELECT count(*) FROM sales", 0)
	verr := p.Validate(ctx, "SELECT count(*) FROM sales")
	for name, err := range map[string]error{"Query": qerr, "Validate": verr} {
		if sqlerr.CategoryOf(err) != sqlerr.DatabaseError || !strings.Contains(err.Error(), "database unavailable") {
			t.Errorf("%s while stopped = %v (%s), want DATABASE_ERROR saying the database is unavailable", name, err, sqlerr.CategoryOf(err))
		}
	}
	cluster.Resume(t)
	resumed = true
	if _, err := p.Query(ctx, "SELECT count(*) FROM sales", 0); err != nil {
		t.Errorf("after the restart: %v, want an answer", err)
	}
}

// TestPostgresDataVersion: the data version stays put while the database
// is only read and changes at once when a write commits; the watcher
// tells it.
func TestPostgresDataVersion(t *testing.T) {
	db := sampleDB(t, 100)
	p := openPostgres(t, db.ReadOnlyRole(t).DSN(), Options{})
	ctx := context.Background()
	v1 := p.DataVersion(ctx)
	if v1 == "" {
		t.Fatal("no data version")
	}
	if _, err := p.Query(ctx, "SELECT count(*) FROM sales", 0); err != nil {
		t.Fatal(err)
	}
	p.verMu.Lock()
	p.verAt = time.Time{} // the next DataVersion reads the server again
	p.verMu.Unlock()
	if v := p.DataVersion(ctx); v != v1 {
		t.Fatalf("version after a read = %q, want %q", v, v1)
	}
	changed := make(chan string, 1)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go p.Watch(wctx, 100*time.Millisecond, func(v string) {
		select {
		case changed <- v:
		default:
		}
	})
	time.Sleep(200 * time.Millisecond)
	db.Exec(t, "UPDATE sales SET quantity = quantity + 1 WHERE sale_id = 1")
	wrote := time.Now()
	select {
	case v := <-changed:
		if v == v1 {
			t.Errorf("watcher reported the old version %q", v)
		}
		t.Logf("the watcher saw the write after %s", time.Since(wrote).Round(time.Millisecond))
	case <-time.After(5 * time.Second):
		t.Fatal("the watcher did not report the write within 5 s")
	}
}
