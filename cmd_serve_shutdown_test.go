package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServeShutdownStopsLongQuestions: questions still running when the
// shutdown grace period ends are stopped and answered — 503 with
// Retry-After for JSON, an "error" event for SSE — instead of being cut off,
// and serve returns.
func TestServeShutdownStopsLongQuestions(t *testing.T) {
	// The LLM would answer after a minute; the grace period is 300 ms.
	base, inFlight, stop, done := serveStack(t, time.Minute, 300*time.Millisecond)

	type answer struct {
		code       int
		retryAfter string
		body       string
		err        error
	}
	ask := func(accept string) <-chan answer {
		ch := make(chan answer, 1)
		go func() {
			req, _ := http.NewRequest(http.MethodPost, base+"api/query", strings.NewReader(`{"question":"how many products"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", accept)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				ch <- answer{err: err}
				return
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			ch <- answer{code: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), body: string(b), err: err}
		}()
		return ch
	}
	jsonAnswer := ask("application/json")
	<-inFlight
	sseAnswer := ask("text/event-stream")
	time.Sleep(100 * time.Millisecond) // let the SSE request reach the LLM too (it only widens the test)
	stop()                             // SIGINT

	j := <-jsonAnswer
	if j.err != nil || j.code != http.StatusServiceUnavailable || !strings.Contains(j.body, `"code":"shutting_down"`) || j.retryAfter == "" {
		t.Errorf("JSON question at shutdown = %d (Retry-After %q) %v %.300s; want 503 shutting_down with Retry-After",
			j.code, j.retryAfter, j.err, j.body)
	}
	s := <-sseAnswer
	if s.err != nil || !strings.Contains(s.body, "event: error") || !strings.Contains(s.body, `"code":"shutting_down"`) {
		t.Errorf("SSE question at shutdown = %d %v %.500s; want an error event with shutting_down", s.code, s.err, s.body)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve returned %v, want nil", err)
		}
	case <-time.After(30 * time.Second): // a hang guard, not a speed check
		t.Fatal("serve did not return after the grace period")
	}
}
