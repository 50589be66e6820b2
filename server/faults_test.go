package server

import (
	"net/http"
	"strings"
	"testing"

	"talk2tables/internal/llmtest"
	"talk2tables/orchestrator/executor"
	"talk2tables/sqlerr"
)

// TestLongGeneratedSQLBounded (issue 24): a 2 MB SELECT from the LLM is
// refused before it is sent to the executor, as RESOURCE_LIMIT (the tool's
// maxLength says the executor would refuse it), and it is echoed cut, with
// its length, in the response and in the logs: it was a 4 MB error body
// and a 2 MB log line per question.
func TestLongGeneratedSQLBounded(t *testing.T) {
	long := "SELECT " + strings.Repeat("1 + ", 500_000) + "1 AS n"
	st := newStack(t, stackOptions{respond: func(llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: llmtest.Plan(long, nil, "a long sum")}
	}})
	resp, body := st.call(t, "POST", "/api/query", `{"question":"add it all up"}`, nil)
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status = %d, want 422; body %.300s", resp.StatusCode, body)
	}
	e := errorOf(t, body)
	if e.Error.Category != sqlerr.ResourceLimit || !strings.Contains(e.Error.Message, "accepts at most") {
		t.Errorf("error = %.300s, want RESOURCE_LIMIT from the executor's length limit, found before the round trip", e.Error.Message)
	}
	t.Logf("2 MB SELECT: %d %s, error body %d bytes, %d LLM requests", resp.StatusCode, e.Error.Category, len(body), len(st.llm.Requests()))
	if len(body) > 256<<10 {
		t.Errorf("error body is %d bytes, want the SQL cut (at most %d bytes per echo)", len(body), executor.MaxEchoSQL)
	}
	if e.Result == nil || len(e.Result.Attempts) == 0 {
		t.Fatalf("result = %+v, want the attempts", e.Result)
	}
	for _, a := range e.Result.Attempts {
		if len(a.SQL) > executor.MaxEchoSQL+64 || !strings.Contains(a.SQL, "[SQL cut: 2000013 bytes in all]") {
			t.Errorf("attempt SQL is %d bytes, ending %q; want it cut with its length stated", len(a.SQL), a.SQL[max(0, len(a.SQL)-60):])
		}
	}
	for _, line := range strings.Split(st.logs.String(), "\n") {
		if len(line) > 128<<10 {
			t.Errorf("a log line of %d bytes: %.200s", len(line), line)
		}
	}
	// The repair prompts carry the cut SQL, not 2 MB each.
	for i, r := range st.llm.Requests() {
		if n := len(r.User()); n > 512<<10 {
			t.Errorf("prompt %d is %d bytes, want the failed SQL cut", i, n)
		}
	}
}
