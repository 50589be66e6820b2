package verified

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"talk2tables/config"
	"talk2tables/state"
)

func TestNormalize(t *testing.T) {
	for _, tt := range []struct{ name, a, b string }{
		{"case and punctuation", "Total revenue by region?", "total REVENUE, by region"},
		{"stop words", "What is the total revenue by region", "total revenue by region"},
		{"politeness", "Please show me the top 5 products", "top 5 products"},
		{"contraction", "What's our revenue in 2025?", "revenue in 2025"},
		{"digit groups", "orders over 1,000", "orders over 1000"},
		{"spelled-out number", "the five newest customers", "the 5 newest customers"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if a, b := Normalize(tt.a), Normalize(tt.b); a != b {
				t.Errorf("Normalize(%q) = %q, Normalize(%q) = %q; want equal", tt.a, a, tt.b, b)
			}
		})
	}
	for _, tt := range []struct{ a, b string }{
		{"how many orders", "orders"},
		{"orders in 2025", "orders in 2024"},
		{"customers in the east", "customers in the west"},
		{"who manages the region", "when was the region created"},
		{"revenue last month", "revenue this month"},
	} {
		if Normalize(tt.a) == Normalize(tt.b) {
			t.Errorf("Normalize(%q) == Normalize(%q) = %q: different questions must differ", tt.a, tt.b, Normalize(tt.a))
		}
	}
	if got := Normalize("sales on 2026-03-05, over 1,000.50"); got != "sales on 2026-03-05 over 1000.50" {
		t.Errorf("dates and numbers: %q", got)
	}
}

func TestRelativeTime(t *testing.T) {
	for q, want := range map[string]bool{
		"revenue last month": true, "sales in the past 7 days": true, "orders today": true, "revenue year to date": true,
		"how many shipments so far this month": true, "revenue in 2025": false, "last order of each customer": false,
		"total sales": false,
	} {
		if got := relativeTime(q); got != want {
			t.Errorf("relativeTime(%q) = %v, want %v", q, got, want)
		}
	}
}

// shop is the knowledge of a small made-up shop database.
var shop = Knowledge{
	Dialect: "sqlite",
	Columns: map[string][]string{
		"orders":   {"id", "customer_id", "placed_on", "status", "total"},
		"customer": {"id", "name", "country", "first_name", "last_name"},
		"items":    {"id", "order_id", "product_id", "qty"},
	},
	Sets: []EntitySet{{Table: "product", Key: "product_id", Columns: []string{"title"}, Values: []Entity{
		{Name: "Blue Kettle", Key: "7", Aliases: []string{"kettle"}}, {Name: "Red Teapot", Key: "9"}}}},
}

func TestExtract(t *testing.T) {
	type slot struct{ kind, column, phrase, value string }
	for _, tt := range []struct {
		name, question, sql string
		want                []slot
		dated               bool
	}{
		{name: "year range, value through an alias",
			question: "number of orders from customers in Canada in 2025",
			sql: `SELECT COUNT(*) FROM orders o JOIN customer c ON c.id = o.customer_id
				WHERE c.country = 'Canada' AND o.placed_on >= '2025-01-01' AND o.placed_on < '2026-01-01'`,
			want: []slot{{KindValue, "customer.country", "Canada", "Canada"}, {KindYear, "", "2025", "2025"}}},
		{name: "top N", question: "top 5 customers by total",
			sql:  `SELECT c.name, SUM(o.total) FROM orders o JOIN customer c ON c.id = o.customer_id GROUP BY c.id ORDER BY 2 DESC LIMIT 5`,
			want: []slot{{KindNumber, "", "5", "5"}}},
		{name: "two adjacent values", question: "orders of Jo Park",
			sql:  `SELECT o.id FROM orders o JOIN customer c ON c.id = o.customer_id WHERE c.first_name = 'Jo' AND c.last_name = 'Park'`,
			want: []slot{{KindValue, "customer.first_name", "Jo", "Jo"}, {KindValue, "customer.last_name", "Park", "Park"}}},
		{name: "entity key", question: "units of kettle sold",
			sql:  `SELECT SUM(qty) FROM items WHERE product_id = 7`,
			want: []slot{{KindEntity, "product.product_id", "kettle", "7"}}},
		{name: "quarter: both ends move with the year", question: "total of orders in Q3 2025",
			sql:  `SELECT SUM(total) FROM orders WHERE placed_on >= '2025-07-01' AND placed_on < '2025-10-01'`,
			want: []slot{{KindYear, "", "2025", "2025"}}},
		{name: "a year said twice is no slot", question: "orders in 2025 vs 2025",
			sql: `SELECT COUNT(*) FROM orders WHERE placed_on >= '2025-01-01'`, want: nil},
		{name: "two years sharing a literal are no slots", question: "orders from 2024 to 2025",
			sql: `SELECT COUNT(*) FROM orders WHERE placed_on >= '2024-01-01' AND placed_on < '2025-01-01'`, want: nil},
		{name: "a number the SQL uses twice is no slot", question: "orders with 3 items",
			sql: `SELECT COUNT(*) FROM orders WHERE id > 3 AND total > 3`, want: nil},
		{name: "relative period as fixed dates", question: "total of orders last month",
			sql: `SELECT SUM(total) FROM orders WHERE placed_on >= '2026-05-01' AND placed_on < '2026-06-01'`, dated: true},
		{name: "relative period in SQL terms", question: "total of orders last month",
			sql: `SELECT SUM(total) FROM orders WHERE placed_on >= date('now', 'start of month', '-1 month')`},
		{name: "an ISO day and the next", question: "orders on 2026-03-05",
			sql:  `SELECT COUNT(*) FROM orders WHERE placed_on >= '2026-03-05' AND placed_on < '2026-03-06'`,
			want: []slot{{KindDate, "", "2026-03-05", "2026-03-05"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Extract(tt.question, tt.sql, shop)
			var gs []slot
			for _, s := range got.Slots {
				gs = append(gs, slot{s.Kind, s.Column, s.Phrase, s.Value})
				for _, sp := range s.Spans {
					lit := tt.sql[sp.Start:sp.End]
					if !strings.Contains(lit, s.Value) && s.Kind != KindYear && s.Kind != KindDate {
						t.Errorf("slot %q: span %q does not hold %q", s.Phrase, lit, s.Value)
					}
				}
			}
			if !reflect.DeepEqual(gs, tt.want) {
				t.Errorf("slots = %+v\nwant    %+v", gs, tt.want)
			}
			if got.Dated != tt.dated {
				t.Errorf("dated = %v, want %v", got.Dated, tt.dated)
			}
		})
	}
}

// values is a Resolver over fixed columns, standing in for the catalog and
// the database (the orchestrator's resolver is tested end to end).
type values map[string][]string

func (v values) Value(_ context.Context, _ string, s state.Slot, phrase string) (string, bool) {
	for _, x := range v[s.Column] {
		if strings.EqualFold(x, phrase) {
			return x, true
		}
	}
	return "", false
}

func (v values) EntityKey(_ context.Context, _ string, s state.Slot, phrase string) (string, bool, bool) {
	for _, set := range shop.Sets {
		for _, e := range set.Values {
			for _, n := range append([]string{e.Name}, e.Aliases...) {
				if strings.EqualFold(n, phrase) {
					return e.Key, false, true
				}
			}
		}
	}
	return "", false, false
}

var _ Resolver = values(nil)

func newBook(t testing.TB, entries ...state.Entry) *Book {
	t.Helper()
	st, err := state.Open(context.Background(), config.StateConfig{Path: filepath.Join(t.TempDir(), "s.db")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, e := range entries {
		if _, err := st.Add(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	b := New(st, 0, nil)
	if err := b.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	return b
}

func teach(db, question, sql string) state.Entry {
	x := Extract(question, sql, shop)
	return state.Entry{Database: db, Question: question, Normalized: Normalize(question), SQL: sql, Slots: x.Slots, VerifiedBy: "test"}
}

func TestLookup(t *testing.T) {
	canada := `SELECT COUNT(*) FROM orders o JOIN customer c ON c.id = o.customer_id
				WHERE c.country = 'Canada' AND o.placed_on >= '2025-01-01' AND o.placed_on < '2026-01-01'`
	b := newBook(t,
		teach("shop", "number of orders from customers in Canada in 2025", canada),
		teach("shop", "top 5 customers by total", `SELECT name FROM customer ORDER BY id LIMIT 5`),
		teach("shop", "the three newest orders", `SELECT id FROM orders ORDER BY placed_on DESC LIMIT 3`),
		teach("shop", "how many orders had kettles", `SELECT COUNT(*) FROM items i JOIN product p ON p.id = i.product_id WHERE p.title = 'Kettle'`),
		teach("shop", "units of kettle sold", `SELECT SUM(qty) FROM items WHERE product_id = 7`),
		teach("other", "how many orders", `SELECT COUNT(*) FROM orders`),
	)
	res := values{"customer.country": {"Canada", "Germany", "New Zealand"},
		"product.title": {"Kettle", "Teapot", "Glass", "Strawberry", "Potato"}}
	req := func(q string) Request {
		return Request{Question: q, Databases: []string{"shop"}, Dialects: map[string]string{"shop": "sqlite"}}
	}
	for _, tt := range []struct {
		name, question string
		wantSQL        string // "" for no hit
		subs           int
	}{
		{"same question", "Number of orders from customers in Canada in 2025?", canada, 0},
		{"another year", "number of orders from customers in Canada in 2024",
			strings.NewReplacer("2025-01-01", "2024-01-01", "2026-01-01", "2025-01-01").Replace(canada), 1},
		{"another country, two words, and year", "number of orders from customers in new zealand in 2023",
			strings.NewReplacer("'Canada'", "'New Zealand'", "2025-01-01", "2023-01-01", "2026-01-01", "2024-01-01").Replace(canada), 2},
		{"a value the column does not have", "number of orders from customers in Atlantis in 2025", "", 0},
		{"another word besides the slot", "number of cancelled orders from customers in Canada in 2025", "", 0},
		{"another N", "top 12 customers by total", `SELECT name FROM customer ORDER BY id LIMIT 12`, 1},
		{"another N spelled out", "top ten customers by total", `SELECT name FROM customer ORDER BY id LIMIT 10`, 1},
		{"a spelled-out N, in digits", "the 7 newest orders", `SELECT id FROM orders ORDER BY placed_on DESC LIMIT 7`, 1},
		{"a spelled-out N, spelled out", "the twelve newest orders", `SELECT id FROM orders ORDER BY placed_on DESC LIMIT 12`, 1},
		{"one is no number", "the one newest orders", "", 0},
		{"a value said in the plural, another plural", "how many orders had teapots",
			`SELECT COUNT(*) FROM items i JOIN product p ON p.id = i.product_id WHERE p.title = 'Teapot'`, 1},
		{"plural in -es", "how many orders had potatoes",
			`SELECT COUNT(*) FROM items i JOIN product p ON p.id = i.product_id WHERE p.title = 'Potato'`, 1},
		{"plural in -ies", "how many orders had strawberries",
			`SELECT COUNT(*) FROM items i JOIN product p ON p.id = i.product_id WHERE p.title = 'Strawberry'`, 1},
		{"plural of a word in -ss", "how many orders had glasses",
			`SELECT COUNT(*) FROM items i JOIN product p ON p.id = i.product_id WHERE p.title = 'Glass'`, 1},
		{"the singular", "how many orders had teapot",
			`SELECT COUNT(*) FROM items i JOIN product p ON p.id = i.product_id WHERE p.title = 'Teapot'`, 1},
		{"a plural the column does not have", "how many orders had spoons", "", 0},
		{"a year where N was", "top 2024 customers by total", `SELECT name FROM customer ORDER BY id LIMIT 2024`, 1},
		{"another entity", "units of red teapot sold", `SELECT SUM(qty) FROM items WHERE product_id = 9`, 1},
		{"another database's question", "how many orders", "", 0},
		{"unrelated", "average basket size", "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hit := b.Lookup(context.Background(), req(tt.question), res)
			switch {
			case tt.wantSQL == "" && hit != nil:
				t.Fatalf("hit %d with %s; want none", hit.Entry.ID, hit.SQL)
			case tt.wantSQL == "":
				return
			case hit == nil:
				t.Fatalf("no hit; want %s", tt.wantSQL)
			}
			if hit.SQL != tt.wantSQL {
				t.Errorf("sql = %s\nwant  %s", hit.SQL, tt.wantSQL)
			}
			if len(hit.Substituted) != tt.subs {
				t.Errorf("substituted %+v, want %d", hit.Substituted, tt.subs)
			}
		})
	}
}

func TestLookupSkipsStaleAndDated(t *testing.T) {
	e := teach("shop", "total of orders last month", `SELECT SUM(total) FROM orders WHERE placed_on >= '2026-05-01'`)
	e.ValidOn = "2026-06-17"
	stale := teach("shop", "how many orders", `SELECT COUNT(*) FROM orders`)
	stale.Status = state.StatusStale
	b := newBook(t, e, stale)
	r := Request{Question: "total of orders last month", Databases: []string{"shop"}, Today: map[string]string{"shop": "2026-06-17"}}
	if b.Lookup(context.Background(), r, values{}) == nil {
		t.Errorf("dated entry not used on its day")
	}
	r.Today["shop"] = "2026-07-02"
	if hit := b.Lookup(context.Background(), r, values{}); hit != nil {
		t.Errorf("dated entry used on another day: %s", hit.SQL)
	}
	r.Question = "how many orders"
	if hit := b.Lookup(context.Background(), r, values{}); hit != nil {
		t.Errorf("stale entry used: %s", hit.SQL)
	}
}

// TestReplicasSeeChanges: a second book over the same state sees the
// first's entries after its refresh.
func TestReplicasSeeChanges(t *testing.T) {
	a := newBook(t)
	b := New(a.Store(), 0, nil)
	e := teach("shop", "how many orders", `SELECT COUNT(*) FROM orders`)
	if _, err := a.Store().Add(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	r := Request{Question: "How many orders?", Databases: []string{"shop"}}
	if b.Lookup(context.Background(), r, values{}) == nil {
		t.Fatal("the other book does not see the new entry")
	}
}

func TestExamples(t *testing.T) {
	b := newBook(t,
		teach("shop", "number of orders from customers in Canada in 2025", `SELECT 1`),
		teach("shop", "top 5 customers by total", `SELECT 2`),
		teach("other", "orders from customers in Canada", `SELECT 3`),
	)
	ex := b.Examples(context.Background(), "how many orders did Canadian customers place", []string{"shop"}, 3)
	if len(ex) == 0 || ex[0].SQL != "SELECT 1" {
		t.Fatalf("examples = %+v, want the Canada question first", ex)
	}
	for _, e := range ex {
		if e.Database != "shop" {
			t.Errorf("example of database %s, want only shop", e.Database)
		}
	}
	if ex := b.Examples(context.Background(), "zzz qqq", []string{"shop"}, 3); len(ex) != 0 {
		t.Errorf("unrelated question got examples %+v", ex)
	}
}
