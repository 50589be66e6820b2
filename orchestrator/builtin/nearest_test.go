package builtin_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"talk2tables/orchestrator/builtin"
)

// TestNearestColumnIsStated: when a grouping word names columns of several
// tables and the nearest one is taken, the answer says so and names the
// others, so an analyst who meant the customer's country sees it at once.
func TestNearestColumnIsStated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, customer_name TEXT, country TEXT)`,
		`CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(customer_id), ship_country TEXT, amount NUMERIC)`,
		`INSERT INTO customers VALUES (1, 'Ada', 'France'), (2, 'Bo', 'Spain')`,
		`INSERT INTO orders VALUES (1, 1, 'Spain', 10), (2, 2, 'Spain', 20), (3, 1, 'France', 5)`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	req := schemaOnlyRequest(t, path, "2026-01-01")
	req.Question = "total amount by country"
	plan, err := builtin.New(nil).Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan.SQL, "ship_country") {
		t.Fatalf("SQL %s: want the orders' own ship_country", plan.SQL)
	}
	said := strings.Join(plan.Assumptions, "; ")
	if !strings.Contains(said, "orders.ship_country") || !strings.Contains(said, "customers.country") {
		t.Fatalf("assumptions %q: want the column taken and the other one named", said)
	}
}
