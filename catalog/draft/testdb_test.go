package draft

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"talk2tables/catalog"
	"talk2tables/databasemcp"
)

// buildDB creates a SQLite file in a temp dir: ddl, then fill inserts rows.
func buildDB(tb testing.TB, ddl string, fill func(ins func(table string, vals ...any))) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "test.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := tx.Exec(ddl); err != nil {
		tb.Fatalf("ddl: %v", err)
	}
	stmts := map[string]*sql.Stmt{}
	ins := func(table string, vals ...any) {
		key := fmt.Sprintf("%s/%d", table, len(vals))
		st := stmts[key]
		if st == nil {
			marks := strings.TrimSuffix(strings.Repeat("?, ", len(vals)), ", ")
			if st, err = tx.Prepare(fmt.Sprintf("INSERT INTO %s VALUES (%s)", table, marks)); err != nil {
				tb.Fatalf("prepare insert into %s: %v", table, err)
			}
			stmts[key] = st
		}
		if _, err := st.Exec(vals...); err != nil {
			tb.Fatalf("insert into %s %v: %v", table, vals, err)
		}
	}
	if fill != nil {
		fill(ins)
	}
	for _, st := range stmts {
		st.Close()
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// openSource opens a test database read-only the way catalog init does.
var _ Source = (*databasemcp.DB)(nil)

func openSource(tb testing.TB, path string) *databasemcp.DB {
	tb.Helper()
	db, err := databasemcp.Open(context.Background(), path, databasemcp.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// fixedNow pins drafted_at in golden drafts.
func fixedNow() time.Time { return time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC) }

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// tradingDB is a CamelCase trading-company schema: bracket/space names
// ("Order Details"), DATETIME text with a time part, NUMERIC money, a 0..1
// discount, text keys, a self reference, a composite key, views, an empty
// table, a table without a key, NULL-heavy columns, and names with quotes
// and non-ASCII letters.
func tradingDB(tb testing.TB) string {
	tb.Helper()
	const ddl = `
CREATE TABLE Categories (CategoryID INTEGER PRIMARY KEY, CategoryName NVARCHAR(15) NOT NULL, Description TEXT);
CREATE TABLE Suppliers (SupplierID INTEGER PRIMARY KEY, CompanyName NVARCHAR(40) NOT NULL, ContactName NVARCHAR(30),
  Country NVARCHAR(15), "Città" NVARCHAR(30), Phone NVARCHAR(24), HomePage TEXT);
CREATE TABLE Products (ProductID INTEGER PRIMARY KEY, ProductName NVARCHAR(40) NOT NULL,
  SupplierID INTEGER REFERENCES Suppliers(SupplierID), CategoryID INTEGER REFERENCES Categories(CategoryID),
  QuantityPerUnit NVARCHAR(20), UnitPrice NUMERIC(10,2) NOT NULL, UnitsInStock SMALLINT, Discontinued INTEGER NOT NULL);
CREATE TABLE Customers (CustomerID NCHAR(5) PRIMARY KEY, CompanyName NVARCHAR(40) NOT NULL, ContactName NVARCHAR(30),
  ContactTitle NVARCHAR(30), City NVARCHAR(15), Country NVARCHAR(15), Fax NVARCHAR(24));
CREATE TABLE Employees (EmployeeID INTEGER PRIMARY KEY, LastName NVARCHAR(20) NOT NULL, FirstName NVARCHAR(10) NOT NULL,
  Title NVARCHAR(30), BirthDate DATETIME, HireDate DATETIME, ReportsTo INTEGER REFERENCES Employees(EmployeeID));
CREATE TABLE Shippers (ShipperID INTEGER PRIMARY KEY, CompanyName NVARCHAR(40) NOT NULL, Phone NVARCHAR(24));
CREATE TABLE Orders (OrderID INTEGER PRIMARY KEY, CustomerID NCHAR(5) REFERENCES Customers(CustomerID),
  EmployeeID INTEGER REFERENCES Employees(EmployeeID), OrderDate DATETIME, RequiredDate DATETIME, ShippedDate DATETIME,
  ShipVia INTEGER REFERENCES Shippers(ShipperID), Freight NUMERIC(10,2), ShipName NVARCHAR(40), ShipCountry NVARCHAR(15),
  "Ship's Note" TEXT);
CREATE TABLE [Order Details] (OrderID INTEGER NOT NULL REFERENCES Orders(OrderID),
  ProductID INTEGER NOT NULL REFERENCES Products(ProductID), UnitPrice NUMERIC(10,2) NOT NULL, Quantity SMALLINT NOT NULL,
  Discount REAL NOT NULL, PRIMARY KEY (OrderID, ProductID));
CREATE TABLE Promotions (PromotionID INTEGER PRIMARY KEY, PromotionName TEXT, StartDate DATE, DiscountRate REAL);
CREATE TABLE AuditLog (Action TEXT, LoggedAt DATETIME, "Who ""Did"" It" TEXT);
CREATE VIEW [Order Subtotals] AS SELECT OrderID, SUM(UnitPrice * Quantity * (1 - Discount)) AS Subtotal
  FROM [Order Details] GROUP BY OrderID;
CREATE VIEW "Products Above Average Price" AS SELECT ProductName, UnitPrice FROM Products
  WHERE UnitPrice > (SELECT AVG(UnitPrice) FROM Products);`
	return buildDB(tb, ddl, func(ins func(string, ...any)) {
		r := rand.New(rand.NewPCG(7, 11))
		cats := []string{"Beverages", "Condiments", "Confections", "Dairy Products", "Grains/Cereals", "Meat/Poultry", "Produce", "Seafood"}
		for i, c := range cats {
			ins("Categories", i+1, c, "All kinds of "+strings.ToLower(c)+", sourced from our suppliers around the world and stored with care.")
		}
		countries := []string{"Germany", "France", "UK", "USA", "Brazil", "Italy", "Spain", "Sweden", "Japan", "Canada"}
		cities := []string{"Berlin", "Paris", "London", "Seattle", "São Paulo", "Torino", "Madrid", "Göteborg", "Tokyo", "Montréal"}
		firsts := []string{"Maria", "Ana", "Antonio", "Thomas", "Christina", "Hanna", "Frédérique", "Martín", "Laurence", "Elizabeth", "Victoria", "Patricio"}
		lasts := []string{"Anders", "Trujillo", "Moreno", "Hardy", "Berglund", "Moos", "Citeaux", "Sommer", "Lebihan", "Lincoln", "Ashworth", "Simpson"}
		for i := range 12 {
			k := i % len(countries)
			ins("Suppliers", i+1, fmt.Sprintf("%s Trading %d", lasts[i%len(lasts)], i+1), pick(r, firsts)+" "+pick(r, lasts),
				countries[k], cities[k], fmt.Sprintf("(0%d) 555-%04d", k, r.IntN(10000)), fmt.Sprintf("http://supplier%d.example.com/", i+1))
		}
		nouns := []string{"Chai", "Chang", "Syrup", "Cajun Seasoning", "Gumbo Mix", "Boysenberry Spread", "Dried Pears", "Cranberry Sauce",
			"Kobe Beef", "Ikura", "Queso", "Konbu", "Tofu", "Genen Shouyu", "Pavlova", "Alice Mutton", "Carnarvon Tigers", "Teatime Biscuits",
			"Marmalade", "Scones", "Ale", "Lager", "Pâté", "Gnocchi", "Ravioli", "Escargots", "Camembert", "Gorgonzola", "Mascarpone", "Tarte"}
		var prices []float64
		for i := range 60 {
			price := float64(200+r.IntN(9000)) / 100
			prices = append(prices, price)
			name := nouns[i%len(nouns)]
			if i >= len(nouns) {
				name = "Organic " + name
			}
			ins("Products", i+1, name, 1+r.IntN(12), 1+i%len(cats), fmt.Sprintf("%d boxes x %d bags", 1+r.IntN(24), 1+r.IntN(40)),
				price, r.IntN(120), boolInt(r.IntN(8) == 0))
		}
		for i := range 90 {
			k := r.IntN(len(countries))
			var fax any
			if r.IntN(10) == 0 {
				fax = fmt.Sprintf("030-%07d", r.IntN(10000000))
			}
			ins("Customers", fmt.Sprintf("C%04d", i+1), fmt.Sprintf("%s %s GmbH %d", pick(r, lasts), pick(r, []string{"Handel", "Imports", "Foods", "Markt"}), i+1),
				pick(r, firsts)+" "+pick(r, lasts), pick(r, []string{"Owner", "Sales Representative", "Marketing Manager", "Accounting Manager"}),
				cities[k], countries[k], fax)
		}
		for i := range 9 {
			var boss any
			if i > 0 {
				boss = 1 + i/4
			}
			ins("Employees", i+1, lasts[i], firsts[i], pick(r, []string{"Sales Representative", "Sales Manager", "Vice President, Sales", "Inside Sales Coordinator"}),
				fmt.Sprintf("19%02d-%02d-%02d 00:00:00", 50+r.IntN(40), 1+r.IntN(12), 1+r.IntN(28)),
				fmt.Sprintf("20%02d-%02d-%02d 00:00:00", 10+r.IntN(14), 1+r.IntN(12), 1+r.IntN(28)), boss)
		}
		for i, s := range []string{"Speedy Express", "United Package", "Federal Shipping"} {
			ins("Shippers", i+1, s, fmt.Sprintf("(503) 555-%04d", 9831+i))
		}
		day := time.Date(2024, 1, 1, 8, 0, 0, 0, time.UTC)
		for o := 1; o <= 800; o++ {
			day = day.Add(time.Duration(r.IntN(20)) * time.Hour).Add(time.Duration(r.IntN(3600)) * time.Second)
			cust := fmt.Sprintf("C%04d", 1+r.IntN(90))
			var shipped any
			if r.IntN(10) > 0 {
				shipped = day.AddDate(0, 0, 1+r.IntN(9)).Format(time.DateTime)
			}
			var note any
			if r.IntN(20) == 0 {
				note = "Leave at the back door; the customer's dock closes at 5."
			}
			ins("Orders", o, cust, 1+r.IntN(9), day.Format(time.DateTime), day.AddDate(0, 0, 28).Format(time.DateTime), shipped,
				1+r.IntN(3), float64(r.IntN(50000))/100, "Ship to "+cust, pick(r, countries), note)
			used := map[int]bool{}
			for range 1 + r.IntN(4) {
				p := 1 + r.IntN(60)
				if used[p] {
					continue
				}
				used[p] = true
				ins("[Order Details]", o, p, prices[p-1], 1+r.IntN(40), pick(r, []float64{0, 0, 0, 0.05, 0.1, 0.15, 0.2, 0.25}))
			}
		}
		for i := range 30 {
			var who any
			if i%3 == 0 {
				who = pick(r, firsts)
			}
			ins("AuditLog", pick(r, []string{"login", "export", "price change"}), day.Add(-time.Duration(i)*time.Hour).Format(time.DateTime), who)
		}
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// retailDB is a snake_case retail schema: a four-hop foreign-key chain
// (regions ← stores ← orders ← order_lines → products → categories),
// integer epochs in seconds and milliseconds, 0/1 and Y/N flags, a year, a
// non-ISO text date, coordinates, percentages, ratings, durations, values
// differing only in case, customer names shared by several rows, and more
// customers than the entity cap of the test.
func retailDB(tb testing.TB) string {
	tb.Helper()
	const ddl = `
CREATE TABLE regions (region_id INTEGER PRIMARY KEY, region_name TEXT NOT NULL);
CREATE TABLE stores (store_id INTEGER PRIMARY KEY, store_name TEXT NOT NULL, region_id INTEGER NOT NULL REFERENCES regions(region_id),
  opened_year INTEGER, latitude REAL, longitude REAL, is_active INTEGER NOT NULL);
CREATE TABLE categories (category_id INTEGER PRIMARY KEY, category_name TEXT NOT NULL,
  parent_category_id INTEGER REFERENCES categories(category_id));
CREATE TABLE products (product_id INTEGER PRIMARY KEY, product_name TEXT NOT NULL, category_id INTEGER REFERENCES categories(category_id),
  list_price REAL NOT NULL, weight_grams REAL, rating REAL, launch_year INTEGER, sku TEXT);
CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, email TEXT, country TEXT,
  loyalty_tier TEXT, created_at INTEGER NOT NULL, marketing_opt_in TEXT, age INTEGER);
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, order_no INTEGER NOT NULL, store_id INTEGER NOT NULL REFERENCES stores(store_id),
  customer_id INTEGER REFERENCES customers(customer_id), created_at INTEGER NOT NULL, shipped_on TEXT, status TEXT NOT NULL,
  total_amount REAL NOT NULL);
CREATE TABLE order_lines (order_line_id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(order_id),
  product_id INTEGER NOT NULL REFERENCES products(product_id), quantity INTEGER NOT NULL, unit_price REAL NOT NULL,
  discount_pct REAL NOT NULL);
CREATE TABLE web_events (event_id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(customer_id),
  event_ts INTEGER NOT NULL, duration_seconds INTEGER, page_url TEXT, bytes_sent INTEGER);
CREATE TABLE store_staff (store_id INTEGER NOT NULL REFERENCES stores(store_id), customer_id INTEGER NOT NULL REFERENCES customers(customer_id));
CREATE VIEW v_store_revenue AS SELECT s.store_name, SUM(o.total_amount) AS revenue FROM orders o JOIN stores s USING (store_id) GROUP BY s.store_name;`
	return buildDB(tb, ddl, func(ins func(string, ...any)) {
		r := rand.New(rand.NewPCG(3, 5))
		regions := []string{"North", "South", "East", "West", "Central"}
		for i, n := range regions {
			ins("regions", i+1, n)
		}
		for i := range 20 {
			ins("stores", i+1, fmt.Sprintf("Store %02d", i+1), 1+i%len(regions), 1995+r.IntN(30), 40+r.Float64()*10, -5+r.Float64()*20, boolInt(i%7 != 0))
		}
		top := []string{"Home", "Garden", "Kitchen", "Toys", "Books"}
		for i, n := range top {
			ins("categories", i+1, n, nil)
		}
		for i := range 10 {
			ins("categories", 6+i, fmt.Sprintf("%s Extras %d", top[i%5], i), 1+i%5)
		}
		var prices []float64
		for i := range 80 {
			p := float64(100+r.IntN(20000)) / 100
			prices = append(prices, p)
			ins("products", i+1, fmt.Sprintf("Product %03d", i+1), 1+r.IntN(15), p, float64(r.IntN(5000)), float64(10+r.IntN(41))/10, 2015+r.IntN(10), fmt.Sprintf("SKU-%05d", 10000+i))
		}
		countries := []string{"Germany", "France", "Portugal", "Spain", "Italy"}
		firsts := []string{"Ana", "Ben", "Carla", "Dieter", "Eva", "Farid", "Greta", "Hugo", "Ines", "Jonas"}
		lasts := []string{"Alves", "Becker", "Costa", "Dubois", "Esposito", "Fischer", "Garcia", "Huber", "Ito", "Jansen", "Klein", "Lopez", "Meyer", "Novak"}
		base := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
		for i := range 1100 {
			country := pick(r, countries)
			if country == "Germany" && r.IntN(10) == 0 {
				country = "germany" // entered by hand somewhere
			}
			ins("customers", i+1, pick(r, firsts), pick(r, lasts), fmt.Sprintf("c%d@example.org", i+1), country,
				pick(r, []string{"bronze", "silver", "gold"}), base+int64(r.IntN(365*24*3600)), pick(r, []string{"Y", "N"}), 18+r.IntN(60))
		}
		line := 0
		statuses := []string{"completed", "completed", "completed", "returned", "cancelled"}
		for o := 1; o <= 1500; o++ {
			created := base + int64(o)*20000 + int64(r.IntN(10000))
			var shipped any
			if r.IntN(4) > 0 {
				shipped = time.Unix(created, 0).UTC().AddDate(0, 0, 2).Format("01/02/2006")
			}
			total := 0.0
			type l struct {
				p, q int
				d    float64
			}
			var ls []l
			for range 1 + r.IntN(3) {
				x := l{1 + r.IntN(80), 1 + r.IntN(5), float64(r.IntN(4) * 5)}
				ls = append(ls, x)
				total += prices[x.p-1] * float64(x.q) * (1 - x.d/100)
			}
			ins("orders", o, 500000+o*7, 1+r.IntN(20), 1+r.IntN(1100), created, shipped, pick(r, statuses), float64(int(total*100))/100)
			for _, x := range ls {
				line++
				ins("order_lines", line, o, x.p, x.q, prices[x.p-1], x.d)
			}
		}
		for e := 1; e <= 600; e++ {
			ins("web_events", e, 1+r.IntN(1100), (base+int64(e)*3600)*1000+int64(r.IntN(1000)), 5+r.IntN(600),
				fmt.Sprintf("https://shop.example.org/p/%d", 1+r.IntN(80)), 1000+r.IntN(90000))
		}
		for i := range 40 {
			ins("store_staff", 1+i%20, 1+i)
		}
	})
}

// draftOf drafts the database at path with pinned time.
func draftOf(tb testing.TB, path string, opts Options) *catalog.Semantic {
	tb.Helper()
	opts.Now = fixedNow
	if opts.Database == "" {
		opts.Database = "test.db"
	}
	s, err := Draft(context.Background(), openSource(tb, path), opts)
	if err != nil {
		tb.Fatalf("Draft: %v", err)
	}
	return s
}
