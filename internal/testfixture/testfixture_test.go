package testfixture_test

import (
	"database/sql"
	"os"
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
