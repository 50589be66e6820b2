package main

import (
	"testing"
	"time"

	"talk2tables/internal/pgtest"
)

// TestReplicasSeeAWritePostgres (issue 24 §4): two serve replicas with the
// result cache on (its default 60 s TTL) over one PostgreSQL database; both
// cache a count, the database is written, and both answer the new count
// well within the TTL: database-mcp watches PostgreSQL's data version
// (pg_stat_user_tables' write counters) and tells each replica its data
// changed, which drops the cached results. It was 60 s of the old count on
// one replica while the other had the new one. It logs how long each
// replica took to see the write.
func TestReplicasSeeAWritePostgres(t *testing.T) {
	db := pgtest.NewDB(t)
	pgtest.LoadSample(t, db, 3000)
	role := db.ReadOnlyRole(t)
	bare, pw := withoutPassword(t, role.DSN())
	t.Setenv("T2T_REPLICA_PASSWORD", pw)
	a := startReplica(t, "a", bare, nil)
	b := startReplica(t, "b", bare, nil)
	const count = `{"sql":"SELECT count(*) AS n FROM sales"}`
	read := func(base string) (float64, string) {
		t.Helper()
		code, res := post(t, base+"api/sql", count)
		rows, _ := res["rows"].([]any)
		if code != 200 || len(rows) != 1 {
			t.Fatalf("count on %s = %d %v", base, code, res)
		}
		cache, _ := res["result_cache"].(string)
		return rows[0].([]any)[0].(float64), cache
	}
	before, _ := read(a)
	read(b)
	if _, cache := read(a); cache != "hit" {
		t.Fatalf("second read on replica a: result_cache %q, want hit (the cache is under test)", cache)
	}
	if _, cache := read(b); cache != "hit" {
		t.Fatalf("second read on replica b: result_cache %q, want hit", cache)
	}
	db.Exec(t, "DELETE FROM sales WHERE sale_id IN (SELECT sale_id FROM sales ORDER BY sale_id LIMIT 10)")
	wrote := time.Now()
	for _, r := range []struct{ name, base string }{{"a", a}, {"b", b}} {
		for {
			n, cache := read(r.base)
			if n == before-10 {
				t.Logf("replica %s answered the new count %s after the write (result_cache %s)", r.name,
					time.Since(wrote).Round(100*time.Millisecond), cache)
				break
			}
			if n != before {
				t.Fatalf("replica %s: count %v, want %v then %v", r.name, n, before, before-10)
			}
			if time.Since(wrote) > 20*time.Second {
				t.Fatalf("replica %s still answers the old count %v %s after the write (result_cache %s), want the new one within seconds",
					r.name, n, time.Since(wrote).Round(time.Second), cache)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}
