// Package datagen builds the sample SQLite sales database from the sample
// catalog (testdata/sales_catalog.json): the products come from the entity
// set of its products table (key, name, attributes category and unit_price);
// customers, orders and sales over the 24 months ending at
// an as-of date, deterministic for a seed, with realistic skew (popular
// products, one dominant region, seasonality, growth) and indexes on the
// columns queries filter and join on.
package datagen

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"talk2tables/catalog"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// The sample schema's product table, as the catalog names it.
const (
	productsTable = "products"
	productsKey   = "product_id"
)

// Product is one product the generator sells, from the catalog's entity set
// of table products.
type Product struct {
	ID        int64   // the entity's key (products.product_id)
	Name      string  // products.product_name
	Category  string  // attributes.category (products.category)
	UnitPrice float64 // attributes.unit_price; 0 when the catalog gives none
	Tags      []string
}

// Products reads the products from the catalog's keyed entity set of table
// products, ordered by id: every entity needs an integer key and a category
// attribute; a unit_price attribute, when given, must be a positive number.
func Products(c *catalog.Semantic) ([]Product, error) {
	if c == nil {
		return nil, errors.New("a catalog with at least one product is required")
	}
	var set *catalog.EntitySet
	for _, s := range c.Entities {
		if s.Table == productsTable && s.Key == productsKey {
			set = s
			break
		}
	}
	if set == nil || len(set.Values) == 0 {
		return nil, fmt.Errorf("the catalog lists no products: it needs an entity set of table %q keyed by %q with at least one value", productsTable, productsKey)
	}
	var out []Product
	var problems []string
	seen := map[int64]bool{}
	for i, e := range set.Values {
		p, err := productOf(e)
		if err != nil {
			problems = append(problems, fmt.Sprintf("products entity %d (%q): %v", i, e.Name, err))
			continue
		}
		if seen[p.ID] {
			problems = append(problems, fmt.Sprintf("products entity %d (%q): key %d is used twice", i, e.Name, p.ID))
			continue
		}
		seen[p.ID] = true
		out = append(out, p)
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "; "))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func productOf(e *catalog.Entity) (Product, error) {
	p := Product{Name: e.Name, Tags: e.Tags}
	switch k := e.Key.(type) {
	case int64:
		p.ID = k
	case float64:
		if k != math.Trunc(k) {
			return p, fmt.Errorf("key %v is not an integer", k)
		}
		p.ID = int64(k)
	default:
		return p, fmt.Errorf("key %v is not an integer", e.Key)
	}
	if p.ID <= 0 {
		return p, fmt.Errorf("key %d is not a positive integer", p.ID)
	}
	cat, _ := e.Attributes["category"].(string)
	if strings.TrimSpace(cat) == "" {
		return p, errors.New(`needs a "category" attribute (its products.category)`)
	}
	p.Category = cat
	if raw, ok := e.Attributes["unit_price"]; ok {
		switch x := raw.(type) {
		case float64:
			p.UnitPrice = x
		case int64:
			p.UnitPrice = float64(x)
		}
		if p.UnitPrice <= 0 {
			return p, fmt.Errorf("unit_price attribute %v is not a positive number", raw)
		}
	}
	return p, nil
}

// MaxRows is the largest number of sales rows Generate accepts.
const MaxRows = 10_000_000

// Options configures Generate.
type Options struct {
	Path    string            // destination database file; replaced atomically
	Catalog *catalog.Semantic // products to sell: the keyed entity set of table products
	Seed    int64             // same seed and AsOf give the same data
	AsOf    time.Time         // last day of data (UTC date); zero means today
	Rows    int               // number of sales rows, 1..MaxRows
}

// Stats describes a generated database.
type Stats struct {
	Path      string
	Products  int
	Customers int
	Orders    int
	Sales     int
	From, To  string // first and last day of the sales window (YYYY-MM-DD)
	Duration  time.Duration
}

// Schema is the DDL of the sample database (tables only; indexes come after the data).
const Schema = `
CREATE TABLE products (
  product_id   INTEGER PRIMARY KEY,
  product_name TEXT NOT NULL UNIQUE,
  category     TEXT NOT NULL,
  unit_price   REAL NOT NULL
);
CREATE TABLE customers (
  customer_id   INTEGER PRIMARY KEY,
  customer_name TEXT NOT NULL,
  email         TEXT UNIQUE,
  region        TEXT NOT NULL,
  segment       TEXT NOT NULL,
  signup_date   TEXT NOT NULL
);
CREATE TABLE orders (
  order_id    INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers(customer_id),
  order_date  TEXT NOT NULL,
  status      TEXT NOT NULL
);
CREATE TABLE sales (
  sale_id      INTEGER PRIMARY KEY,
  order_id     INTEGER NOT NULL REFERENCES orders(order_id),
  product_id   INTEGER NOT NULL REFERENCES products(product_id),
  quantity     INTEGER NOT NULL,
  unit_price   REAL NOT NULL,
  discount     REAL NOT NULL,
  total_amount REAL NOT NULL,
  sale_date    TEXT NOT NULL,
  region       TEXT NOT NULL
);`

// Indexes are created after the inserts (faster than maintaining them row by row).
const Indexes = `
CREATE INDEX idx_products_category ON products(category);
CREATE INDEX idx_customers_region ON customers(region);
CREATE INDEX idx_customers_segment ON customers(segment);
CREATE INDEX idx_customers_signup_date ON customers(signup_date);
CREATE INDEX idx_orders_customer_id ON orders(customer_id);
CREATE INDEX idx_orders_order_date ON orders(order_date);
CREATE INDEX idx_orders_status ON orders(status);
CREATE INDEX idx_sales_sale_date ON sales(sale_date);
CREATE INDEX idx_sales_product_id ON sales(product_id);
CREATE INDEX idx_sales_order_id ON sales(order_id);
CREATE INDEX idx_sales_region ON sales(region);
CREATE INDEX idx_sales_region_sale_date ON sales(region, sale_date);`

const dateLayout = "2006-01-02"

// Generate writes a new sample database at opts.Path. It builds the file
// under a temporary name in the same directory and renames it into place, so
// an interrupted or failed run never leaves a partial database behind.
func Generate(ctx context.Context, opts Options) (Stats, error) {
	start := time.Now()
	products, asOf, err := opts.check()
	if err != nil {
		return Stats{}, err
	}

	dir := filepath.Dir(opts.Path)
	tmp, err := os.CreateTemp(dir, filepath.Base(opts.Path)+".tmp-*")
	if err != nil {
		return Stats{}, fmt.Errorf("create temporary database in %s: %w", dir, err)
	}
	tmpPath := tmp.Name()
	tmp.Close()
	// CreateTemp makes the file private; a database is shared like any data file.
	if err := os.Chmod(tmpPath, 0o644); err != nil {
		os.Remove(tmpPath)
		return Stats{}, fmt.Errorf("chmod temporary database: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmpPath)
		}
	}()

	st, err := build(ctx, tmpPath, opts, products, asOf)
	if err != nil {
		return Stats{}, err
	}
	if err := ctx.Err(); err != nil {
		return Stats{}, err
	}
	if err := os.Rename(tmpPath, opts.Path); err != nil {
		return Stats{}, fmt.Errorf("move database into place: %w", err)
	}
	ok = true
	st.Path = opts.Path
	st.Duration = time.Since(start)
	return st, nil
}

// check validates opts and returns the products and the as-of day (UTC
// midnight).
func (opts Options) check() ([]Product, time.Time, error) {
	products, err := Products(opts.Catalog)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("generate: %w", err)
	}
	if opts.Rows < 1 || opts.Rows > MaxRows {
		return nil, time.Time{}, fmt.Errorf("generate: rows must be between 1 and %d, got %d", MaxRows, opts.Rows)
	}
	if opts.Path == "" {
		return nil, time.Time{}, errors.New("generate: a database path is required")
	}
	asOf := opts.AsOf
	if asOf.IsZero() {
		asOf = time.Now()
	}
	return products, time.Date(asOf.Year(), asOf.Month(), asOf.Day(), 0, 0, 0, 0, time.UTC), nil
}

func build(ctx context.Context, path string, opts Options, products []Product, asOf time.Time) (Stats, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return Stats{}, fmt.Errorf("open %s: %w", path, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, p := range []string{
		"PRAGMA journal_mode=OFF",
		"PRAGMA synchronous=OFF",
		"PRAGMA cache_size=-131072", // 128 MiB: keeps index builds in memory
		"PRAGMA locking_mode=EXCLUSIVE",
	} {
		if _, err := db.ExecContext(ctx, p); err != nil {
			return Stats{}, fmt.Errorf("%s: %w", p, err)
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return Stats{}, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, Schema); err != nil {
		return Stats{}, fmt.Errorf("create schema: %w", err)
	}
	g := newGenerator(opts, products, asOf)
	st, err := g.fill(ctx, sqliteTarget{tx})
	if err != nil {
		return Stats{}, err
	}
	if _, err := tx.ExecContext(ctx, Indexes); err != nil {
		return Stats{}, fmt.Errorf("create indexes: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return Stats{}, fmt.Errorf("commit: %w", err)
	}
	if _, err := db.ExecContext(ctx, "ANALYZE"); err != nil {
		return Stats{}, fmt.Errorf("analyze: %w", err)
	}
	// Leave a normal rollback-journal database behind for readers.
	if _, err := db.ExecContext(ctx, "PRAGMA journal_mode=DELETE"); err != nil {
		return Stats{}, fmt.Errorf("reset journal mode: %w", err)
	}
	if err := db.Close(); err != nil {
		return Stats{}, fmt.Errorf("close: %w", err)
	}
	return st, nil
}

// Regions, segments and statuses with their weights.
var (
	regions      = []string{"North", "East", "South", "West"}
	regionWeight = []float64{0.45, 0.25, 0.18, 0.12} // North is much bigger
	segments     = []string{"Consumer", "Corporate", "Small Business"}
	segmentW     = []float64{0.60, 0.25, 0.15}
	statuses     = []string{"completed", "pending", "cancelled", "returned"}
	statusW      = []float64{0.82, 0.06, 0.07, 0.05}
	recentW      = []float64{0.60, 0.30, 0.07, 0.03} // last week: more still pending
	linesW       = []float64{0.45, 0.30, 0.15, 0.10} // 1..4 lines per order
	discounts    = []float64{0, 0.05, 0.10, 0.15, 0.20}
	discountW    = []float64{0.62, 0.15, 0.12, 0.07, 0.04}
	corpDiscW    = []float64{0.35, 0.20, 0.25, 0.12, 0.08}
	monthFactor  = [12]float64{0.85, 0.80, 0.95, 1.0, 1.0, 1.05, 1.0, 1.0, 1.05, 1.10, 1.35, 1.60}
	firstNames   = []string{"Ava", "Ben", "Chloe", "Daniel", "Emma", "Felix", "Grace", "Hugo", "Isla", "Jack",
		"Kara", "Liam", "Maya", "Noah", "Olivia", "Priya", "Quinn", "Ravi", "Sofia", "Tom",
		"Uma", "Victor", "Wen", "Xavier", "Yara", "Zoe", "Aiko", "Bruno", "Carmen", "Dmitri"}
	lastNames = []string{"Anderson", "Brown", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Hughes", "Ito", "Johnson",
		"Kim", "Lopez", "Martin", "Nguyen", "Okafor", "Patel", "Rossi", "Singh", "Taylor", "Usman",
		"Valdez", "Walker", "Xu", "Young", "Zhang", "Moreau", "Novak", "Silva", "Kowalski", "Haddad"}
)

type product struct {
	id    int64
	price float64
}

type customer struct {
	region  uint8
	segment uint8
}

type generator struct {
	rng       *rand.Rand
	opts      Options
	days      []string // the sales window, oldest first
	catalog   []Product
	products  []product // in popularity order
	popCDF    []float64
	customers []customer
	signupDay []int // per customer: index into the sales window, may be negative
}

func newGenerator(opts Options, products []Product, asOf time.Time) *generator {
	g := &generator{
		rng:     rand.New(rand.NewPCG(uint64(opts.Seed), 0x7a1c2b7ab1e5)),
		opts:    opts,
		catalog: products,
	}
	first := time.Date(asOf.Year(), asOf.Month()-23, 1, 0, 0, 0, 0, time.UTC)
	for d := first; !d.After(asOf); d = d.AddDate(0, 0, 1) {
		g.days = append(g.days, d.Format(dateLayout))
	}
	return g
}

func (g *generator) fill(ctx context.Context, dst target) (Stats, error) {
	st := Stats{From: g.days[0], To: g.days[len(g.days)-1]}
	var err error
	if st.Products, err = g.insertProducts(ctx, dst); err != nil {
		return st, err
	}
	if st.Customers, err = g.insertCustomers(ctx, dst); err != nil {
		return st, err
	}
	st.Orders, st.Sales, err = g.insertOrders(ctx, dst)
	return st, err
}

func (g *generator) insertProducts(ctx context.Context, dst target) (int, error) {
	ins, err := dst.table(ctx, "products", 4)
	if err != nil {
		return 0, err
	}
	for _, p := range g.catalog {
		price := p.UnitPrice
		if price <= 0 {
			price = fallbackPrice(p.ID)
		}
		g.products = append(g.products, product{id: p.ID, price: price})
		if err := ins.add(ctx, p.ID, p.Name, p.Category, price); err != nil {
			return 0, err
		}
	}
	if err := ins.close(ctx); err != nil {
		return 0, err
	}
	// Zipf-like popularity over a seeded ranking of the products.
	g.rng.Shuffle(len(g.products), func(i, j int) { g.products[i], g.products[j] = g.products[j], g.products[i] })
	w := make([]float64, len(g.products))
	for i := range w {
		w[i] = 1 / math.Pow(float64(i+1), 0.9)
	}
	g.popCDF = cdf(w)
	return len(g.products), nil
}

// fallbackPrice prices a product the catalog gives no price for: stable per id.
func fallbackPrice(id int64) float64 {
	return float64(10+(id*7919)%490) + 0.99
}

func (g *generator) insertCustomers(ctx context.Context, dst target) (int, error) {
	n := max(1, g.opts.Rows/25)
	ins, err := dst.table(ctx, "customers", 6)
	if err != nil {
		return 0, err
	}
	// Signups run from 12 months before the sales window to its last day,
	// in customer id order; customer 1 predates every sale.
	lead := 365
	span := len(g.days) + lead - 1
	rCDF, sCDF := cdf(regionWeight), cdf(segmentW)
	g.customers = make([]customer, n)
	g.signupDay = make([]int, n)
	var name, email strings.Builder
	for i := range n {
		day := int(float64(span)*math.Pow(float64(i)/float64(n), 0.8)) - lead
		g.signupDay[i] = day
		c := customer{region: uint8(pick(g.rng, rCDF)), segment: uint8(pick(g.rng, sCDF))}
		g.customers[i] = c
		fn, ln := firstNames[g.rng.IntN(len(firstNames))], lastNames[g.rng.IntN(len(lastNames))]
		name.Reset()
		email.Reset()
		id := int64(i + 1)
		name.WriteString(fn + " " + ln)
		fmt.Fprintf(&email, "%s.%s.%d@example.com", strings.ToLower(fn), strings.ToLower(ln), id)
		if err := ins.add(ctx, id, name.String(), email.String(), regions[c.region], segments[c.segment], g.dayString(day)); err != nil {
			return 0, err
		}
	}
	return n, ins.close(ctx)
}

// dayString formats a day index relative to the sales window (negative: before it).
func (g *generator) dayString(day int) string {
	if day >= 0 {
		return g.days[day]
	}
	t, _ := time.Parse(dateLayout, g.days[0])
	return t.AddDate(0, 0, day).Format(dateLayout)
}

// dayQuotas spreads rows over the window by trend, season and weekday; the
// last day (the as-of date) always gets at least one row.
func (g *generator) dayQuotas() []int {
	n := len(g.days)
	w := make([]float64, n)
	total := 0.0
	for i, s := range g.days {
		t, _ := time.Parse(dateLayout, s)
		f := (1 + 0.6*float64(i)/float64(n)) * monthFactor[t.Month()-1]
		if wd := t.Weekday(); wd == time.Saturday || wd == time.Sunday {
			f *= 1.15
		}
		f *= 0.9 + 0.2*g.rng.Float64() // day-to-day noise
		w[i] = f
		total += f
	}
	rows := g.opts.Rows
	quota := make([]int, n)
	type rem struct {
		i int
		r float64
	}
	rems := make([]rem, n)
	assigned := 0
	for i := range w {
		exact := float64(rows) * w[i] / total
		quota[i] = int(exact)
		assigned += quota[i]
		rems[i] = rem{i, exact - float64(quota[i])}
	}
	sort.SliceStable(rems, func(a, b int) bool { return rems[a].r > rems[b].r })
	for k := 0; assigned < rows; k++ {
		quota[rems[k%n].i]++
		assigned++
	}
	if quota[n-1] == 0 {
		big := 0
		for i := range quota {
			if quota[i] > quota[big] {
				big = i
			}
		}
		quota[big]--
		quota[n-1]++
	}
	return quota
}

func (g *generator) insertOrders(ctx context.Context, dst target) (orders, sales int, err error) {
	// Sales first: a target that can stream only one table at a time
	// (PostgreSQL's COPY) streams the big one and spools the orders.
	sIns, err := dst.table(ctx, "sales", 9)
	if err != nil {
		return 0, 0, err
	}
	oIns, err := dst.table(ctx, "orders", 4)
	if err != nil {
		return 0, 0, err
	}
	stCDF, recentCDF, lCDF := cdf(statusW), cdf(recentW), cdf(linesW)
	dCDF, corpCDF := cdf(discountW), cdf(corpDiscW)
	quota := g.dayQuotas()
	var orderID, saleID int64
	var chosen [4]int
	last := len(g.days) - 1
	for day, q := range quota {
		// Customers who had signed up by this day: a prefix of the id order.
		eligible := sort.Search(len(g.signupDay), func(i int) bool { return g.signupDay[i] > day })
		date := g.days[day]
		for q > 0 {
			orderID++
			ci := int(float64(eligible) * math.Pow(g.rng.Float64(), 1.3)) // long-time customers buy more
			c := g.customers[ci]
			status := statuses[pick(g.rng, stCDF)]
			if last-day < 7 {
				status = statuses[pick(g.rng, recentCDF)]
			}
			if err := oIns.add(ctx, orderID, int64(ci+1), date, status); err != nil {
				return 0, 0, err
			}
			lines := min(q, 1+pick(g.rng, lCDF), len(g.products))
			for l := range lines {
				var pi int
				for again := true; again; {
					pi = pick(g.rng, g.popCDF)
					again = false
					for _, prev := range chosen[:l] {
						if prev == pi {
							again = true
						}
					}
				}
				chosen[l] = pi
				p := g.products[pi]
				qty := 1 + pick(g.rng, quantityCDF)
				if p.price < 50 {
					qty += g.rng.IntN(4) // cheap things go in bulk
				}
				disc := discounts[pick(g.rng, dCDF)]
				if c.segment == 1 { // Corporate negotiates
					disc = discounts[pick(g.rng, corpCDF)]
				}
				total := math.Round(float64(qty)*p.price*(1-disc)*100) / 100
				saleID++
				if err := sIns.add(ctx, saleID, orderID, p.id, int64(qty), p.price, disc, total, date, regions[c.region]); err != nil {
					return 0, 0, err
				}
			}
			q -= lines
		}
	}
	if err := oIns.close(ctx); err != nil {
		return 0, 0, err
	}
	if err := sIns.close(ctx); err != nil {
		return 0, 0, err
	}
	return int(orderID), int(saleID), nil
}

var quantityCDF = cdf([]float64{0.50, 0.25, 0.12, 0.08, 0.05})

// cdf turns weights into a cumulative distribution ending at 1.
func cdf(w []float64) []float64 {
	out := make([]float64, len(w))
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	acc := 0.0
	for i, x := range w {
		acc += x / sum
		out[i] = acc
	}
	out[len(out)-1] = 1
	return out
}

// pick draws an index from a cumulative distribution.
func pick(r *rand.Rand, c []float64) int {
	u := r.Float64()
	for i, x := range c {
		if u < x {
			return i
		}
	}
	return len(c) - 1
}
