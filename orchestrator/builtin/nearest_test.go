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

// TestTwoLinksDecline: payments reach addresses through the customer and
// through the staff member; "by city" could follow either, so the planner
// declines and says why instead of picking one.
func TestTwoLinksDecline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rentals.db")
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`CREATE TABLE address (address_id INTEGER PRIMARY KEY, address TEXT, city TEXT)`,
		`CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, address_id INTEGER REFERENCES address(address_id))`,
		`CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, address_id INTEGER REFERENCES address(address_id))`,
		`CREATE TABLE payment (payment_id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customer(customer_id), staff_id INTEGER REFERENCES staff(staff_id), amount NUMERIC)`,
		`INSERT INTO address VALUES (1, '1 Main St', 'Lyon'), (2, '2 High St', 'Leeds'), (3, '3 Low Rd', 'Lyon')`,
		`INSERT INTO customer VALUES (1, 'Ada', 'Byron', 2), (2, 'Bo', 'Diddley', 3)`,
		`INSERT INTO staff VALUES (1, 'Mike', 'Hill', 1)`,
		`INSERT INTO payment VALUES (1, 1, 1, 10), (2, 2, 1, 20)`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	req := schemaOnlyRequest(t, path, "2026-01-01")
	for _, q := range []string{"total amount by city", "number of payments by city"} {
		req.Question = q
		plan, err := builtin.New(nil).Generate(context.Background(), req)
		if err == nil {
			t.Fatalf("%q answered %s; want a decline: the city of the customer or of the staff member?", q, plan.SQL)
		}
		if !strings.Contains(err.Error(), "more than one way") {
			t.Fatalf("%q declined with %q: want it to say the tables are linked in more than one way", q, err)
		}
	}
}
