package datagen_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"talk2tables/catalog"
	"talk2tables/datagen"
	"talk2tables/internal/testfixture"
)

var asOf = time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)

func loadCatalog(tb testing.TB) *catalog.Semantic {
	tb.Helper()
	c, err := catalog.Load(testfixture.CatalogPath(tb))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func generate(tb testing.TB, opts datagen.Options) (string, datagen.Stats) {
	tb.Helper()
	if opts.Path == "" {
		opts.Path = filepath.Join(tb.TempDir(), "sales.db")
	}
	if opts.Catalog == nil {
		opts.Catalog = loadCatalog(tb)
	}
	st, err := datagen.Generate(context.Background(), opts)
	if err != nil {
		tb.Fatalf("Generate: %v", err)
	}
	return opts.Path, st
}

func openDB(tb testing.TB, path string) *sql.DB {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func queryInt(tb testing.TB, db *sql.DB, q string, args ...any) int {
	tb.Helper()
	var n int
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	return n
}

// contentHash hashes every row of every table in primary-key order.
func contentHash(tb testing.TB, path string) string {
	tb.Helper()
	db := openDB(tb, path)
	h := sha256.New()
	for _, q := range []string{
		"SELECT * FROM products ORDER BY product_id",
		"SELECT * FROM customers ORDER BY customer_id",
		"SELECT * FROM orders ORDER BY order_id",
		"SELECT * FROM sales ORDER BY sale_id",
	} {
		for _, vals := range testfixture.QueryRows(tb, db, q) {
			fmt.Fprintf(h, "%v\n", vals)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestGenerateDeterministic(t *testing.T) {
	cat := loadCatalog(t)
	a, _ := generate(t, datagen.Options{Catalog: cat, Seed: 7, AsOf: asOf, Rows: 3000})
	b, _ := generate(t, datagen.Options{Catalog: cat, Seed: 7, AsOf: asOf, Rows: 3000})
	c, _ := generate(t, datagen.Options{Catalog: cat, Seed: 8, AsOf: asOf, Rows: 3000})
	ha, hb, hc := contentHash(t, a), contentHash(t, b), contentHash(t, c)
	if ha != hb {
		t.Errorf("same seed and as-of: hashes %s and %s differ", ha, hb)
	}
	if ha == hc {
		t.Errorf("seeds 7 and 8 gave identical data (%s)", ha)
	}
}

func TestGenerateShape(t *testing.T) {
	path, st := generate(t, datagen.Options{Seed: 1, AsOf: asOf, Rows: 10000})
	db := openDB(t, path)
	if st.Sales != 10000 || st.Products != 42 || st.Customers != 400 || st.Orders == 0 {
		t.Errorf("stats = %+v, want 10000 sales, 42 products, 400 customers, some orders", st)
	}
	if st.From != "2024-12-01" || st.To != "2026-11-21" {
		t.Errorf("window = %s..%s, want 2024-12-01..2026-11-21", st.From, st.To)
	}
	if got := queryInt(t, db, "SELECT count(*) FROM orders"); got != st.Orders {
		t.Errorf("orders rows = %d, stats say %d", got, st.Orders)
	}
	checks := []struct {
		name string
		q    string
		want func(int) bool
		desc string
	}{
		{"sales on as-of day", "SELECT count(*) FROM sales WHERE sale_date = '2026-11-21'", positive, "> 0"},
		{"sales in as-of month", "SELECT count(*) FROM sales WHERE sale_date >= '2026-11-01'", positive, "> 0"},
		{"nothing after as-of", "SELECT count(*) FROM sales WHERE sale_date > '2026-11-21'", zero, "0"},
		{"nothing before window", "SELECT count(*) FROM sales WHERE sale_date < '2024-12-01'", zero, "0"},
		{"every month of 24 has sales", "SELECT count(DISTINCT substr(sale_date, 1, 7)) FROM sales", eq(24), "24"},
		{"sales region is the customer's", `SELECT count(*) FROM sales s JOIN orders o ON o.order_id = s.order_id
			JOIN customers c ON c.customer_id = o.customer_id WHERE s.region <> c.region`, zero, "0"},
		{"sale date is the order date", `SELECT count(*) FROM sales s JOIN orders o ON o.order_id = s.order_id
			WHERE s.sale_date <> o.order_date`, zero, "0"},
		{"no order before signup", `SELECT count(*) FROM orders o JOIN customers c ON c.customer_id = o.customer_id
			WHERE o.order_date < c.signup_date`, zero, "0"},
		{"total is quantity*price*(1-discount) to the cent", `SELECT count(*) FROM sales
			WHERE abs(total_amount - quantity*unit_price*(1-discount)) > 0.0051`, zero, "0"},
		{"every order has 1 to 4 lines", `SELECT count(*) FROM (SELECT count(*) n FROM sales GROUP BY order_id)
			WHERE n NOT BETWEEN 1 AND 4`, zero, "0"},
		{"no empty orders", `SELECT count(*) FROM orders WHERE order_id NOT IN (SELECT order_id FROM sales)`, zero, "0"},
		{"no orphan sales", `SELECT count(*) FROM sales WHERE order_id NOT IN (SELECT order_id FROM orders)
			OR product_id NOT IN (SELECT product_id FROM products)`, zero, "0"},
		{"emails unique and present", "SELECT count(DISTINCT email) FROM customers", eq(400), "400"},
		{"four statuses", "SELECT count(DISTINCT status) FROM orders", eq(4), "4"},
		{"most orders completed", `SELECT 100 * sum(status = 'completed') / count(*) FROM orders`, between(70, 95), "70..95 %"},
		{"four regions", "SELECT count(DISTINCT region) FROM sales", eq(4), "4"},
		{"three segments", "SELECT count(DISTINCT segment) FROM customers", eq(3), "3"},
		{"North is the biggest region by far", `SELECT 100 * sum(region = 'North') / count(*) FROM sales`, between(35, 60), "35..60 %"},
		{"top product sells far more than the median", `SELECT max(n) / (SELECT n FROM (SELECT count(*) n FROM sales GROUP BY product_id ORDER BY n) LIMIT 1 OFFSET 20)
			FROM (SELECT count(*) n FROM sales GROUP BY product_id)`, between(3, 1000), ">= 3x"},
		{"growth: last 12 months outsell the 12 before", `SELECT sum(sale_date >= '2025-12-01') > sum(sale_date < '2025-12-01') FROM sales`, eq(1), "true"},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if got := queryInt(t, db, c.q); !c.want(got) {
				t.Errorf("%s = %d, want %s", c.name, got, c.desc)
			}
		})
	}
	var idx []string
	rows, err := db.Query(`SELECT tbl || '(' || group_concat(col) || ')' FROM (SELECT m.tbl_name AS tbl, m.name AS idx, ii.name AS col
		FROM sqlite_master m, pragma_index_info(m.name) ii WHERE m.type = 'index' AND m.name LIKE 'idx_%' ORDER BY m.name, ii.seqno)
		GROUP BY tbl, idx`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		rows.Scan(&s)
		idx = append(idx, s)
	}
	all := " " + strings.Join(idx, " ") + " "
	for _, want := range []string{"sales(sale_date)", "sales(product_id)", "sales(order_id)", "sales(region)",
		"orders(customer_id)", "orders(order_date)", "orders(status)", "customers(region)", "customers(segment)", "products(category)"} {
		if !strings.Contains(all, " "+want+" ") {
			t.Errorf("index on %s missing; have %s", want, all)
		}
	}
	if got := queryInt(t, db, "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'"); got != 1 {
		t.Errorf("sqlite_stat1 missing: ANALYZE did not run")
	}
}

func positive(n int) bool { return n > 0 }
func zero(n int) bool     { return n == 0 }
func eq(w int) func(int) bool {
	return func(n int) bool { return n == w }
}
func between(lo, hi int) func(int) bool {
	return func(n int) bool { return n >= lo && n <= hi }
}

func TestGenerateTinyAndBounds(t *testing.T) {
	cat := loadCatalog(t)
	path, st := generate(t, datagen.Options{Catalog: cat, Seed: 1, AsOf: asOf, Rows: 1})
	if st.Sales != 1 || st.Orders != 1 || st.Customers != 1 {
		t.Errorf("1 row: stats = %+v, want 1 sale, 1 order, 1 customer", st)
	}
	if got := queryInt(t, openDB(t, path), "SELECT count(*) FROM sales WHERE sale_date = '2026-11-21'"); got != 1 {
		t.Errorf("the only sale is not on the as-of day")
	}
	tests := []struct {
		name string
		opts datagen.Options
		want string
	}{
		{"zero rows", datagen.Options{Catalog: cat, Rows: 0, Path: "x.db"}, "rows must be between 1 and"},
		{"too many rows", datagen.Options{Catalog: cat, Rows: datagen.MaxRows + 1, Path: "x.db"}, "rows must be between 1 and"},
		{"no catalog", datagen.Options{Rows: 10, Path: "x.db"}, "catalog"},
		{"no path", datagen.Options{Catalog: cat, Rows: 10}, "path"},
		{"missing directory", datagen.Options{Catalog: cat, Rows: 10, Path: filepath.Join(t.TempDir(), "no", "x.db")}, "create temporary database"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := datagen.Generate(context.Background(), tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Generate error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestProductsFromCatalog(t *testing.T) {
	ps, err := datagen.Products(loadCatalog(t))
	if err != nil {
		t.Fatalf("Products: %v", err)
	}
	if len(ps) != 42 || ps[0].ID != 101 || ps[0].Name != "Quantum Processor" || ps[0].Category != "Computing" || ps[0].UnitPrice != 899 {
		t.Errorf("products = %d, first %+v; want 42 starting with 101 Quantum Processor (Computing, 899)", len(ps), ps[0])
	}
	products := func(s *catalog.Semantic) *catalog.EntitySet {
		for _, set := range s.Entities {
			if set.Table == "products" && set.Key == "product_id" {
				return set
			}
		}
		t.Fatal("the sample catalog has no products entity set")
		return nil
	}
	tests := []struct {
		name string
		edit func(*catalog.Semantic)
		want string
	}{
		{"no entity set", func(s *catalog.Semantic) { s.Entities = nil },
			`the catalog lists no products: it needs an entity set of table "products" keyed by "product_id"`},
		{"no category", func(s *catalog.Semantic) { delete(products(s).Values[0].Attributes, "category") },
			`products entity 0 ("Quantum Processor"): needs a "category" attribute`},
		{"text key", func(s *catalog.Semantic) { products(s).Values[1].Key = "x102" },
			`products entity 1 ("Neural Accelerator Card"): key x102 is not an integer`},
		{"bad price", func(s *catalog.Semantic) { products(s).Values[2].Attributes["unit_price"] = "cheap" },
			`products entity 2 ("UltraBook 14"): unit_price attribute cheap is not a positive number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := loadCatalog(t)
			tt.edit(c)
			_, err := datagen.Generate(context.Background(), datagen.Options{Catalog: c, Rows: 10, Path: filepath.Join(t.TempDir(), "x.db")})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Generate error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestGenerateCancelledLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sales.db")
	if err := os.WriteFile(path, []byte("previous"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := datagen.Generate(ctx, datagen.Options{Path: path, Catalog: loadCatalog(t), Seed: 1, AsOf: asOf, Rows: 5000})
	if err == nil {
		t.Fatal("Generate with a cancelled context succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only the previous sales.db", names)
	}
	if b, _ := os.ReadFile(path); string(b) != "previous" {
		t.Errorf("previous database was replaced by a cancelled run")
	}
}

func TestGenerateReplacesExisting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sales.db")
	generate(t, datagen.Options{Path: path, Seed: 1, AsOf: asOf, Rows: 100})
	generate(t, datagen.Options{Path: path, Seed: 1, AsOf: asOf, Rows: 200})
	if got := queryInt(t, openDB(t, path), "SELECT count(*) FROM sales"); got != 200 {
		t.Errorf("sales = %d after regenerating with 200 rows", got)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v, want 0644", info.Mode().Perm())
	}
}

func BenchmarkGenerate50k(b *testing.B) {
	cat := loadCatalog(b)
	dir := b.TempDir()
	for i := 0; b.Loop(); i++ {
		path := filepath.Join(dir, fmt.Sprintf("s%d.db", i))
		if _, err := datagen.Generate(context.Background(), datagen.Options{Path: path, Catalog: cat, Seed: 1, AsOf: asOf, Rows: 50000}); err != nil {
			b.Fatal(err)
		}
		os.Remove(path)
	}
}
