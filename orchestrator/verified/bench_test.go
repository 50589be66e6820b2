package verified

import (
	"context"
	"fmt"
	"testing"

	"talk2tables/state"
)

// benchBook is a book of n entries made up from a vocabulary, a quarter
// with a year slot, a quarter with a value slot, a quarter with a number.
func benchBook(n int) *Book {
	measures := []string{"revenue", "orders", "units", "refunds", "visits", "signups", "returns", "margin", "tickets", "calls"}
	groups := []string{"region", "product", "channel", "store", "segment", "month", "team", "country", "brand", "category"}
	kinds := []string{"total", "average", "number of", "count of", "sum of"}
	var entries []state.Entry
	for i := 0; len(entries) < n; i++ {
		m, g, k := measures[i%len(measures)], groups[(i/len(measures))%len(groups)], kinds[(i/100)%len(kinds)]
		var q, sql string
		switch i % 4 {
		case 0:
			q = fmt.Sprintf("%s %s by %s in 2025 variant %d", k, m, g, i)
			sql = fmt.Sprintf("SELECT %s, SUM(x) FROM t%d WHERE d >= '2025-01-01' AND d < '2026-01-01' GROUP BY %s", g, i, g)
		case 1:
			q = fmt.Sprintf("%s %s for Canada per %s variant %d", k, m, g, i)
			sql = fmt.Sprintf("SELECT SUM(x) FROM t%d WHERE country = 'Canada'", i)
		case 2:
			q = fmt.Sprintf("top 5 %s by %s %s variant %d", g, k, m, i)
			sql = fmt.Sprintf("SELECT %s FROM t%d ORDER BY 2 DESC LIMIT 5", g, i)
		default:
			q = fmt.Sprintf("%s %s by %s variant %d", k, m, g, i)
			sql = fmt.Sprintf("SELECT %s, SUM(x) FROM t%d GROUP BY %s", g, i, g)
		}
		x := Extract(q, sql, Knowledge{Dialect: "sqlite"})
		entries = append(entries, state.Entry{ID: int64(i + 1), Database: "db", Question: q, Normalized: Normalize(q), SQL: sql,
			Slots: x.Slots, Status: state.StatusVerified})
	}
	b := New(nil, 0, nil)
	b.loaded(entries)
	return b
}

// BenchmarkLookup measures a lookup among 10,000 verified questions: the
// same question, a slot variant (another year, another N), and a question
// no entry answers — against the floor of normalizing the question alone.
func BenchmarkLookup(b *testing.B) {
	book := benchBook(10000)
	ctx := context.Background()
	res := values{}
	for _, bc := range []struct{ name, question string }{
		{"floor_normalize", ""},
		{"exact", "Total revenue by region in 2025, variant 0"},
		{"year_variant", "total revenue by region in 2023 variant 0"},
		{"top_n_variant", "top 20 region by total units variant 2"},
		{"miss", "which suppliers shipped late last winter"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			q := bc.question
			if q == "" {
				for b.Loop() {
					_ = Normalize("total revenue by region in 2023 variant 0")
				}
				return
			}
			req := Request{Question: q, Databases: []string{"db"}, Dialects: map[string]string{"db": "sqlite"}}
			hit := book.Lookup(ctx, req, res)
			if (hit == nil) != (bc.name == "miss") {
				b.Fatalf("%s: hit = %v", bc.name, hit)
			}
			for b.Loop() {
				book.Lookup(ctx, req, res)
			}
		})
	}
}
