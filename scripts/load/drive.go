package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// runResult is what one run of clients measured.
type runResult struct {
	latencies [][]time.Duration // successful requests, per mix item
	errors    int64
	firstErr  error
	elapsed   time.Duration
}

// count is the number of successful requests.
func (r *runResult) count() int {
	n := 0
	for _, l := range r.latencies {
		n += len(l)
	}
	return n
}

// all returns every latency, sorted.
func (r *runResult) all() []time.Duration {
	var out []time.Duration
	for _, l := range r.latencies {
		out = append(out, l...)
	}
	slices.Sort(out)
	return out
}

// request builds the HTTP request of client c's n-th query.
type request func(c, n int) (path string, body []byte, item int)

// sqlRequest is POST /api/sql with the mix's SQL.
func sqlRequest(c, n int) (string, []byte, int) {
	i := (c + n) % len(mix)
	b, _ := json.Marshal(map[string]any{"sql": sqlFor(i, n), "max_rows": 1000})
	return "/api/sql", b, i
}

// queryRequest is POST /api/query with the mix's question.
func queryRequest(c, n int) (string, []byte, int) {
	i := (c + n) % len(mix)
	b, _ := json.Marshal(map[string]any{"question": mix[i].question, "max_rows": 1000})
	return "/api/query", b, i
}

// fixedRequest always asks the same SQL (the result-cache figures).
func fixedRequest(item int) request {
	return func(c, n int) (string, []byte, int) {
		b, _ := json.Marshal(map[string]any{"sql": sqlFor(item, 0), "max_rows": 1000})
		return "/api/sql", b, item
	}
}

// drive runs conc clients against base for d.
func drive(client *http.Client, base string, conc int, d time.Duration, req request) *runResult {
	var (
		mu       sync.Mutex
		res      = &runResult{latencies: make([][]time.Duration, len(mix))}
		errs     atomic.Int64
		firstErr error
		wg       sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(d)
	for c := range conc {
		wg.Go(func() {
			local := make([][]time.Duration, len(mix))
			for n := 0; time.Now().Before(deadline); n++ {
				path, body, item := req(c, n)
				lat, err := post(client, base+path, body)
				if err != nil {
					errs.Add(1)
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					continue
				}
				local[item] = append(local[item], lat)
			}
			mu.Lock()
			for i := range local {
				res.latencies[i] = append(res.latencies[i], local[i]...)
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	res.errors, res.firstErr = errs.Load(), firstErr
	return res
}

// post sends one request and checks the answer is a result.
func post(client *http.Client, url string, body []byte) (time.Duration, error) {
	start := time.Now()
	resp, err := client.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	d := time.Since(start)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("status %d: %.300s", resp.StatusCode, b)
	}
	if !bytes.Contains(b, []byte(`"columns"`)) {
		return 0, fmt.Errorf("answer without a result: %.300s", b)
	}
	return d, nil
}

// pct is the p-th percentile of sorted latencies (0 when empty).
func pct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	if i > 0 {
		i--
	}
	return sorted[i]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
func mib(b uint64) float64       { return float64(b) / (1 << 20) }
