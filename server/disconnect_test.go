package server

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"talk2tables/internal/llmtest"
)

// TestStreamClientGoneIsLogged499: a client that leaves an SSE question
// mid-stream is recorded as 499 in the access log (the 200 header had long
// been sent), and the orchestrator logs the cancelled question at INFO, not
// as a failure of the system.
func TestStreamClientGoneIsLogged499(t *testing.T) {
	asked := make(chan struct{})
	var once sync.Once
	st := newStack(t, stackOptions{respond: func(llmtest.Request) llmtest.Step {
		once.Do(func() { close(asked) })
		return llmtest.Step{Content: goodPlan, Delay: time.Minute} // ends when the request is cancelled
	}})

	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, st.URL+"/api/query",
		strings.NewReader(`{"question":"total revenue by region"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("X-Request-ID", "leaving-client")
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			buf := make([]byte, 512)
			for {
				if _, err := resp.Body.Read(buf); err != nil {
					break
				}
			}
			resp.Body.Close()
		}
	}()
	<-asked
	cancel()

	var access map[string]any
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && access == nil; { // a hang guard
		for _, rec := range st.logs.Events(t, "http_request") {
			if rec["request_id"] == "leaving-client" {
				access = rec
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if access == nil {
		t.Fatalf("no access log line for the abandoned stream; logs:\n%s", st.logs.String())
	}
	if got := access["status"]; got != float64(499) {
		t.Errorf("access log status = %v, want 499", got)
	}
	for _, rec := range st.logs.Records(t) {
		if rec["operation_id"] == "leaving-client" && rec["level"] == "ERROR" {
			t.Errorf("a cancelled question was logged at ERROR: %v", rec)
		}
	}
}
