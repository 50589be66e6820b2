// Package coalesce runs background work on demand without piling it up:
// the requests that come while a run is under way make one more run after
// it, never one each. The MCP client re-lists a server's tools and
// resources with it when the server says they changed, and the gateway
// rebuilds the tools it re-exposes.
package coalesce

import "sync"

// Runner coalesces the requests for one job. Stop it when its owner closes.
type Runner struct {
	job     func()
	mu      sync.Mutex
	dirty   bool // a request came since the running run started
	running bool
	stopped bool
	wg      sync.WaitGroup
}

// New returns a runner of job.
func New(job func()) *Runner { return &Runner{job: job} }

// Request asks for a run of the job in the background and returns at once (the
// caller is often a transport's reader, which must not wait). When no run
// is under way one starts; otherwise the one under way is followed by one
// more, whatever the number of requests meanwhile. After Stop it does
// nothing.
func (r *Runner) Request() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	r.dirty = true
	if r.running {
		return
	}
	r.running = true
	r.wg.Go(func() {
		for {
			r.mu.Lock()
			if !r.dirty || r.stopped {
				r.running = false
				r.mu.Unlock()
				return
			}
			r.dirty = false
			r.mu.Unlock()
			r.job()
		}
	})
}

// Stop refuses further requests, drops the one pending and waits for the
// run under way, if any, to end. It is idempotent.
func (r *Runner) Stop() {
	r.mu.Lock()
	r.stopped = true
	r.mu.Unlock()
	r.wg.Wait()
}
