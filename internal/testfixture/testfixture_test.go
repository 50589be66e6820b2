package testfixture_test

import (
	"database/sql"
	"os"
	"strings"
	"testing"

	"talk2tables/internal/testfixture"
)

func TestSalesDBCopies(t *testing.T) {
	a := testfixture.SalesDB(t, 500)
	b := testfixture.SalesDB(t, 500)
	if a == b {
		t.Fatalf("two calls returned the same path %s, want private copies", a)
	}
	for _, p := range []string{a, b} {
		db, err := sql.Open("sqlite", "file:"+p+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.QueryRow("SELECT count(*) FROM sales WHERE sale_date = date('now')").Scan(&n); err != nil {
			t.Fatal(err)
		}
		var total int
		db.QueryRow("SELECT count(*) FROM sales").Scan(&total)
		db.Close()
		if total != 500 || n == 0 {
			t.Errorf("%s: %d sales, %d today; want 500 with some today", p, total, n)
		}
	}
	// A test may change its copy without touching another's.
	if err := os.WriteFile(a, []byte("scribble"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(b); err != nil || st.Size() < 4096 {
		t.Errorf("writing one copy changed the other: %v, %v", st, err)
	}
}

func TestCatalogPath(t *testing.T) {
	if _, err := os.Stat(testfixture.CatalogPath(t)); err != nil {
		t.Errorf("CatalogPath: %v", err)
	}
}

func TestQueryRows(t *testing.T) {
	db, err := sql.Open("sqlite", "file:"+testfixture.SalesDB(t, 100)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got := testfixture.QueryRows(t, db, "SELECT region, COUNT(*) FROM sales GROUP BY region ORDER BY region")
	if len(got) == 0 {
		t.Fatal("QueryRows = no rows, want one per region")
	}
	total := int64(0)
	for i, r := range got {
		region, ok := r[0].(string)
		n, ok2 := r[1].(int64)
		if len(r) != 2 || !ok || !ok2 || (i > 0 && region <= got[i-1][0].(string)) {
			t.Fatalf("row %d = %#v, want (region string, count int64) in region order", i, r)
		}
		total += n
	}
	if total != 100 {
		t.Errorf("counts add up to %d, want 100", total)
	}
	if got := testfixture.QueryRows(t, db, "SELECT 1 WHERE 0"); len(got) != 0 {
		t.Errorf("QueryRows on an empty result = %v, want none", got)
	}

	tb := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		testfixture.QueryRows(tb, db, "SELECT nope FROM sales")
	}()
	<-done
	if !strings.Contains(tb.msg, "SELECT nope FROM sales") {
		t.Errorf("QueryRows on a bad query: Fatalf message %q, want one naming the query", tb.msg)
	}
}
