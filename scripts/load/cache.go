package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"talk2tables/config"
)

// configureCache turns the result cache on (the default config) or off.
func configureCache(cfg *config.Config, on bool) {
	cfg.Orchestration.ResultCache.Enabled = on
}

// questionRequest asks the question of one mix item (its SQL is then the
// same statement every time, so the result cache can answer it).
func questionRequest(item int) request {
	return func(c, n int) (string, []byte, int) {
		b, _ := json.Marshal(map[string]any{"question": mix[item].question, "max_rows": 1000})
		return "/api/query", b, item
	}
}

// cacheMode measures the same statement, and the same question, at
// -concurrency clients with the result cache off and on, and the latency of
// a single client's cache hits.
func cacheMode(ctx context.Context, o options) error {
	const item = 0 // the grouped aggregate over a 3-table join
	fmt.Printf("load: result cache, %q at %d clients, database-mcp over %s, %s runs\n\n",
		mix[item].name, o.concurrency, o.transport, o.duration)
	fmt.Printf("%-34s %12s %10s %10s %8s\n", "", "throughput", "p50", "p99", "errors")
	for _, on := range []bool{false, true} {
		st, err := startStack(ctx, o, stackOptions{transport: o.transport, cache: on})
		if err != nil {
			return err
		}
		client := newClient(o.concurrency)
		state := "off"
		if on {
			state = "on"
		}
		runs := []struct {
			what string
			req  request
			conc int
		}{
			{"POST /api/sql, cache " + state, fixedRequest(item), o.concurrency},
			{"POST /api/query, cache " + state, questionRequest(item), o.concurrency},
			{"POST /api/sql, 1 client, cache " + state, fixedRequest(item), 1},
		}
		for _, r := range runs {
			drive(client, st.base, 1, 200*time.Millisecond, r.req) // warm up (and fill the cache)
			res := drive(client, st.base, r.conc, o.duration, r.req)
			lat := res.all()
			fmt.Printf("%-34s %8.1f q/s %7.2f ms %7.2f ms %8d\n", r.what,
				float64(len(lat))/res.elapsed.Seconds(), ms(pct(lat, 50)), ms(pct(lat, 99)), res.errors)
			if res.firstErr != nil {
				fmt.Printf("  first error: %v\n", res.firstErr)
			}
		}
		client.CloseIdleConnections()
		st.stop()
	}
	return nil
}
