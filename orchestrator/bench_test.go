package orchestrator

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"talk2tables/config"
	"talk2tables/internal/llmtest"
)

// reportPercentiles reports p50/p95/p99 of per-iteration timings.
func reportPercentiles(b *testing.B, d []time.Duration, unit string) {
	b.Helper()
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	p := func(q float64) float64 {
		return float64(d[min(len(d)-1, int(q*float64(len(d))))].Nanoseconds()) / 1e3
	}
	b.ReportMetric(p(0.50), "p50-"+unit)
	b.ReportMetric(p(0.95), "p95-"+unit)
	b.ReportMetric(p(0.99), "p99-"+unit)
}

// BenchmarkProcessOverhead measures one question end to end (warm cache,
// in-process servers, zero-latency scripted LLM over real HTTP) minus the
// SQL's own execution time as the database reports it.
func BenchmarkProcessOverhead(b *testing.B) {
	f := newFixture(b)
	plan := llmtest.Plan("SELECT product_id, product_name FROM products WHERE product_id = 123", abraEntities, "x")
	llm := llmtest.NewResponder(b, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: plan} })
	cfg := inprocConfig()
	cfg.Orchestration.ResultCache.Enabled = false // every question validates and executes its SQL
	o := newOrch(b, cfg, WithGenerator(llmGen(b, llm)),
		WithInProcessServer("database_mcp", f.dbServer(b)),
		WithInProcessServer("product_metadata_mcp", f.metaServer(b)))
	ctx := context.Background()
	if _, err := o.Process(ctx, Query{Question: "warm"}); err != nil {
		b.Fatal(err)
	}
	timings := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		res, err := o.Process(ctx, Query{Question: "sales for abracadabra"})
		d := time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		d -= time.Duration(res.Result.ElapsedMS * float64(time.Millisecond))
		timings = append(timings, d)
	}
	reportPercentiles(b, timings, "µs")
}

// BenchmarkGatherCached measures gathering when every server is cached.
func BenchmarkGatherCached(b *testing.B) {
	f := newFixture(b)
	o := newOrch(b, inprocConfig(), WithGenerator(llmGen(b, llmtest.New(b))),
		WithInProcessServer("database_mcp", f.dbServer(b)),
		WithInProcessServer("product_metadata_mcp", f.metaServer(b)))
	ctx := context.Background()
	if _, err := o.cache.Gather(ctx, "bench"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		g, err := o.cache.Gather(ctx, "bench")
		if err != nil || g.CacheStatus() != "hit" {
			b.Fatalf("gather = %v, cache %s", err, g.CacheStatus())
		}
	}
}

// BenchmarkGatherCold measures a cold gather from three servers whose
// resource reads take 100, 200 and 300 ms: the total should be the slowest
// server's time, not the sum.
func BenchmarkGatherCold(b *testing.B) {
	f := newFixture(b)
	cfg := inprocConfig()
	opts := []Option{WithGenerator(llmGen(b, llmtest.New(b))), WithInProcessServer("database_mcp", f.dbServer(b))}
	delete(cfg.MCPServers, "product_metadata_mcp")
	var ids []string
	for i, d := range []time.Duration{100, 200, 300} {
		id := fmt.Sprintf("slow_%d", i)
		ids = append(ids, id)
		rs := newResourceServer(id, map[string]string{
			"slow://a": `{"a":1}`, "slow://b": `{"b":2}`, "slow://c": `{"c":3}`,
		}, nil)
		rs.delay.Store(int64(d * time.Millisecond))
		cfg.MCPServers[id] = config.ServerConfig{Transport: config.TransportInProcess, Priority: i + 1, Capabilities: []string{config.CapListResources}}
		opts = append(opts, WithInProcessServer(id, rs.s))
	}
	o := newOrch(b, cfg, opts...)
	ctx := context.Background()
	if _, err := o.cache.Gather(ctx, "bench"); err != nil { // warm the database entry
		b.Fatal(err)
	}
	timings := make([]time.Duration, 0, b.N)
	for b.Loop() {
		for _, id := range ids {
			o.cache.Invalidate(id)
		}
		t0 := time.Now()
		g, err := o.cache.Gather(ctx, "bench")
		timings = append(timings, time.Since(t0))
		if err != nil || len(g.Snaps) != 4 {
			b.Fatalf("gather = %v", err)
		}
	}
	reportPercentiles(b, timings, "µs")
}
