package coalesce

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// Requests made while a run is under way make exactly one more run.
func TestRequestsDuringARunMakeOneMore(t *testing.T) {
	r, runs, release := underWay()
	for range 10 {
		r.Request()
	}
	close(release)
	for r.busy() {
		runtime.Gosched()
	}
	r.Stop()
	if got := runs.Load(); got != 2 {
		t.Errorf("runs = %d, want 2 (the first, then one for the ten requests made during it)", got)
	}
}

// After Stop a request runs nothing.
func TestStopRefusesRequests(t *testing.T) {
	ran := false
	r := New(func() { ran = true })
	r.Stop()
	r.Request()
	r.Stop() // idempotent, and waits for any run
	if ran {
		t.Error("a request after Stop ran")
	}
}

// Stop waits for the run under way and drops the pending one.
func TestStopWaitsAndDropsThePending(t *testing.T) {
	r, runs, release := underWay()
	r.Request() // pending
	stopped := make(chan struct{})
	go func() { r.Stop(); close(stopped) }()
	for !r.isStopped() {
		runtime.Gosched()
	}
	select {
	case <-stopped:
		t.Fatal("Stop returned while a run was under way")
	default:
	}
	close(release)
	<-stopped
	if got := runs.Load(); got != 1 {
		t.Errorf("runs = %d, want 1 (the pending request dropped)", got)
	}
}

// underWay returns a runner whose first run is under way: it counts its
// runs, and the first one lasts until release is closed.
func underWay() (r *Runner, runs *atomic.Int32, release chan struct{}) {
	runs = new(atomic.Int32)
	started, release := make(chan struct{}), make(chan struct{})
	r = New(func() {
		if runs.Add(1) == 1 {
			close(started)
			<-release
		}
	})
	r.Request()
	<-started
	return r, runs, release
}

func (r *Runner) busy() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.running
}

func (r *Runner) isStopped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopped
}
