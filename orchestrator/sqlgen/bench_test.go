package sqlgen

import (
	"testing"

	"talk2tables/internal/llmtest"
)

// BenchmarkLocalWork measures the generator's own CPU work per question:
// prompt building, response parsing and the static checks (no HTTP).
func BenchmarkLocalWork(b *testing.B) {
	req := sampleRequest()
	answer := "Sure:\n" + llmtest.Plan(goodSQL, map[string]map[string]string{"abracadabra": {"products.product_id": "123"}}, "x")
	const agg = "SELECT p.product_name, strftime('%Y-%m', s.sale_date) AS month, SUM(s.total_amount) FROM sales s " +
		"JOIN products p ON p.product_id = s.product_id WHERE s.sale_date >= date('now', '-30 days') GROUP BY p.product_name, month"
	b.ReportAllocs()
	for b.Loop() {
		BuildPrompt(req)
		if _, err := ParseResponse(answer); err != nil {
			b.Fatal(err)
		}
		if err := CheckAggregation(agg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildPrompt compares building a prompt from scratch with reusing
// the servers' rendering of an unchanged resource snapshot.
func BenchmarkBuildPrompt(b *testing.B) {
	b.Run("fresh", func(b *testing.B) {
		req := sampleRequest()
		b.ReportAllocs()
		for b.Loop() {
			BuildPrompt(req)
		}
	})
	b.Run("rendered", func(b *testing.B) {
		req := sampleRequest()
		req.Rendered = RenderServers(req.Servers)
		b.ReportAllocs()
		for b.Loop() {
			BuildPrompt(req)
		}
	})
}
