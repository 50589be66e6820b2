package databasemcp

import (
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	_ "modernc.org/sqlite"
)

// The sample schema of DESIGN.md.
const sampleSchema = `
CREATE TABLE products (product_id INTEGER PRIMARY KEY, product_name TEXT NOT NULL UNIQUE,
	category TEXT NOT NULL, unit_price REAL NOT NULL);
CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, customer_name TEXT NOT NULL, email TEXT UNIQUE,
	region TEXT NOT NULL, segment TEXT NOT NULL, signup_date TEXT NOT NULL);
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers,
	order_date TEXT NOT NULL, status TEXT NOT NULL);
CREATE TABLE sales (sale_id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders,
	product_id INTEGER NOT NULL REFERENCES products, quantity INTEGER NOT NULL,
	unit_price REAL NOT NULL, discount REAL NOT NULL, total_amount REAL NOT NULL,
	sale_date TEXT NOT NULL, region TEXT NOT NULL);
CREATE INDEX idx_sales_sale_date ON sales(sale_date);
CREATE INDEX idx_sales_product_id ON sales(product_id);
CREATE INDEX idx_sales_order_id ON sales(order_id);
CREATE INDEX idx_orders_customer_id ON orders(customer_id);
`

var (
	fixtureMu    sync.Mutex
	fixtureDir   string
	fixtureFiles = map[int]string{}
)

// salesDB returns the path of a sample database with the given number of
// sales rows, in a fresh temp dir of tb. Each size is generated once per
// process and copied.
func salesDB(tb testing.TB, rows int) string {
	tb.Helper()
	src := fixtureFile(tb, rows)
	dst := filepath.Join(tb.TempDir(), "sales.db")
	copyFile(tb, src, dst)
	return dst
}

func fixtureFile(tb testing.TB, rows int) string {
	tb.Helper()
	fixtureMu.Lock()
	defer fixtureMu.Unlock()
	if p, ok := fixtureFiles[rows]; ok {
		return p
	}
	if fixtureDir == "" {
		d, err := os.MkdirTemp("", "databasemcp-fixture-")
		if err != nil {
			tb.Fatal(err)
		}
		fixtureDir = d
	}
	p := filepath.Join(fixtureDir, fmt.Sprintf("sales-%d.db", rows))
	if err := generate(p, rows); err != nil {
		tb.Fatalf("generate fixture: %v", err)
	}
	fixtureFiles[rows] = p
	return p
}

func generate(path string, rows int) error {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec(sampleSchema); err != nil {
		return err
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	r := rand.New(rand.NewPCG(1, 2))
	regions := []string{"North", "South", "East", "West"}
	segments := []string{"Consumer", "Corporate", "Small Business"}
	statuses := []string{"completed", "completed", "completed", "pending", "cancelled", "returned"}
	categories := []string{"Electronics", "Entertainment", "Home", "Office", "Sports", "Toys"}
	named := map[int]string{123: "Magic Wand Pro", 456: "TechGadget", 789: "SuperSonic Blaster", 101: "Quantum Processor"}
	var productIDs []int
	for id := 100; id < 140; id++ {
		productIDs = append(productIDs, id)
	}
	productIDs = append(productIDs, 456, 789)
	price := map[int]float64{}
	for _, id := range productIDs {
		name, ok := named[id]
		if !ok {
			name = fmt.Sprintf("Product %d", id)
		}
		price[id] = float64(5+r.IntN(500)) + 0.99
		if _, err := tx.Exec("INSERT INTO products VALUES (?, ?, ?, ?)", id, name, categories[id%len(categories)], price[id]); err != nil {
			return err
		}
	}
	customers := max(rows/20, 10)
	for id := 1; id <= customers; id++ {
		if _, err := tx.Exec("INSERT INTO customers VALUES (?, ?, ?, ?, ?, ?)", id, fmt.Sprintf("Customer %d", id),
			fmt.Sprintf("c%d@example.com", id), regions[r.IntN(4)], segments[r.IntN(3)],
			fmt.Sprintf("2025-%02d-%02d", 1+r.IntN(12), 1+r.IntN(28))); err != nil {
			return err
		}
	}
	orders := max(rows/3, 1)
	for id := 1; id <= orders; id++ {
		if _, err := tx.Exec("INSERT INTO orders VALUES (?, ?, ?, ?)", id, 1+r.IntN(customers),
			fmt.Sprintf("2026-%02d-%02d", 1+r.IntN(11), 1+r.IntN(28)), statuses[r.IntN(len(statuses))]); err != nil {
			return err
		}
	}
	ins, err := tx.Prepare("INSERT INTO sales VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	for id := 1; id <= rows; id++ {
		pid := productIDs[r.IntN(len(productIDs))]
		qty := 1 + r.IntN(5)
		disc := float64(r.IntN(4)) * 0.05
		total := float64(int(float64(qty)*price[pid]*(1-disc)*100)) / 100
		if _, err := ins.Exec(id, 1+r.IntN(orders), pid, qty, price[pid], disc, total,
			fmt.Sprintf("2026-%02d-%02d", 1+r.IntN(11), 1+r.IntN(28)), regions[r.IntN(4)]); err != nil {
			return err
		}
	}
	if err := ins.Close(); err != nil {
		return err
	}
	return tx.Commit()
}

func copyFile(tb testing.TB, src, dst string) {
	tb.Helper()
	in, err := os.Open(src)
	if err != nil {
		tb.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		tb.Fatal(err)
	}
	if err := out.Close(); err != nil {
		tb.Fatal(err)
	}
}

func removeFixtures() {
	if fixtureDir != "" {
		os.RemoveAll(fixtureDir)
	}
}
