package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"talk2tables/config"
	"talk2tables/internal/testfixture"
	"talk2tables/orchestrator/mcpclient"
)

// healthOf reads GET /health.
func healthOf(t testing.TB, st *stack) (int, healthBody) {
	t.Helper()
	resp, b := st.call(t, http.MethodGet, "/health", "", nil)
	var h healthBody
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatalf("health body %s: %v", b, err)
	}
	return resp.StatusCode, h
}

// serverOf reads one server of GET /api/servers.
func serverOf(t testing.TB, st *stack, id string) serverJSON {
	t.Helper()
	_, b := st.call(t, http.MethodGet, "/api/servers", "", nil)
	var body serversBody
	if err := json.Unmarshal(b, &body); err != nil {
		t.Fatalf("servers body %s: %v", b, err)
	}
	for _, s := range body.Servers {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("no server %s in %s", id, b)
	return serverJSON{}
}

// TestDamagedDatabaseShowsInHealth (issue 14 §4): the database file
// truncated in place while serving makes /api/sql a 503 DATABASE_ERROR
// naming the file (not a 422 UNKNOWN_ERROR), /health a 503 with the
// executor "database_error" and /api/servers the error; once the file is
// restored /health is 200 again by itself (the ping loop re-tries the
// failed statement) and statements work; another database moved over the
// file with mv is served from then on.
func TestDamagedDatabaseShowsInHealth(t *testing.T) {
	st := newStack(t, stackOptions{orch: func(c *config.Config) { c.Orchestration.PingInterval = 100 * time.Millisecond }})
	good, err := os.ReadFile(st.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	body := `{"sql":"SELECT region, COUNT(*) AS n FROM sales GROUP BY region"}`
	if resp, b := st.call(t, http.MethodPost, "/api/sql", body, nil); resp.StatusCode != 200 {
		t.Fatalf("before: %d %s", resp.StatusCode, b)
	}
	if err := os.Truncate(st.dbPath, int64(len(good)/3)); err != nil {
		t.Fatal(err)
	}
	// Another statement: the one above is in the result cache.
	resp, b := st.call(t, http.MethodPost, "/api/sql", `{"sql":"SELECT COUNT(*) AS n FROM sales"}`, nil)
	e := errorOf(t, b)
	if resp.StatusCode != http.StatusServiceUnavailable || e.Error.Category != "DATABASE_ERROR" ||
		!strings.Contains(e.Error.Message, filepath.Base(st.dbPath)) || resp.Header.Get("Retry-After") == "" {
		t.Errorf("damaged: %d %s (Retry-After %q), want 503 DATABASE_ERROR naming the file", resp.StatusCode, b, resp.Header.Get("Retry-After"))
	}
	code, h := healthOf(t, st)
	if code != http.StatusServiceUnavailable || h.Servers["database_mcp"] != mcpclient.HealthDatabaseError {
		t.Errorf("health = %d %+v, want 503 with database_mcp database_error", code, h)
	}
	if s := serverOf(t, st, "database_mcp"); !strings.Contains(s.DatabaseError, filepath.Base(st.dbPath)) || s.DatabaseErrorSince == nil {
		t.Errorf("/api/servers database_mcp = %+v, want its database_error", s)
	}

	if err := os.WriteFile(st.dbPath, good, 0o644); err != nil {
		t.Fatal(err)
	}
	// The ping loop re-tries the failed statement: healthy again with no
	// question asked.
	deadline := time.Now().Add(15 * time.Second)
	for {
		code, h := healthOf(t, st)
		if code == 200 && h.Status == "healthy" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("health after the restore = %d %+v, want 200 healthy", code, h)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if resp, b := st.call(t, http.MethodPost, "/api/sql", `{"sql":"SELECT COUNT(*) AS n FROM sales"}`, nil); resp.StatusCode != 200 {
		t.Fatalf("restored: %d %s", resp.StatusCode, b)
	}

	// Another database moved over the file (`mv`, a new inode): served
	// from the next statements on, with no restart.
	other := testfixture.SalesDB(t, 2000)
	moved := st.dbPath + ".new"
	if b, err := os.ReadFile(other); err != nil || os.WriteFile(moved, b, 0o644) != nil {
		t.Fatalf("copy %s: %v", other, err)
	}
	if err := os.Rename(moved, st.dbPath); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		_, b := st.call(t, http.MethodPost, "/api/sql", fmt.Sprintf(`{"sql":"SELECT COUNT(*) AS n, %d AS probe FROM sales"}`, i), nil)
		var res struct {
			Rows [][]any `json:"rows"`
		}
		if json.Unmarshal(b, &res) == nil && len(res.Rows) == 1 && fmt.Sprint(res.Rows[0][0]) == "2000" {
			break
		}
		if time.Now().After(deadline.Add(15 * time.Second)) {
			t.Fatalf("after mv: %s, want the 2000 sales of the new file", b)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code, h := healthOf(t, st); code != 200 {
		t.Errorf("health after mv = %d %+v, want 200", code, h)
	}
}

// TestUnresponsiveExecutorAnswers503: an HTTP executor that stops
// answering is "unresponsive" in /health (503) and /api/servers, and
// /api/sql answers 503 mcp_unresponsive with a Retry-After at once.
func TestUnresponsiveExecutorAnswers503(t *testing.T) {
	var hang atomic.Bool
	release := make(chan struct{})
	st := newStack(t, stackOptions{dbOverNet: true, orch: func(c *config.Config) {
		c.Orchestration.PingInterval = 100 * time.Millisecond
		c.Orchestration.PingTimeout = 200 * time.Millisecond
	}, dbWrap: func(inner http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if hang.Load() { // stopped: answer nothing until the client gives up
				select {
				case <-r.Context().Done():
				case <-release:
				}
				return
			}
			inner.ServeHTTP(w, r)
		})
	}})
	t.Cleanup(func() { close(release) }) // before the servers close
	hang.Store(true)
	deadline := time.Now().Add(15 * time.Second)
	for {
		code, h := healthOf(t, st)
		if code == http.StatusServiceUnavailable && h.Servers["database_mcp"] == mcpclient.StateUnresponsive {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("health = %d %+v, want 503 with database_mcp unresponsive", code, h)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if s := serverOf(t, st, "database_mcp"); s.State != mcpclient.StateUnresponsive || s.UnresponsiveSince == nil {
		t.Errorf("/api/servers database_mcp = %+v, want unresponsive with unresponsive_since", s)
	}
	resp, b := st.call(t, http.MethodPost, "/api/sql", `{"sql":"SELECT 1 AS one"}`, nil)
	if e := errorOf(t, b); resp.StatusCode != http.StatusServiceUnavailable || e.Error.Code != "mcp_unresponsive" ||
		resp.Header.Get("Retry-After") == "" {
		t.Errorf("/api/sql = %d %s (Retry-After %q), want 503 mcp_unresponsive with Retry-After", resp.StatusCode, b, resp.Header.Get("Retry-After"))
	}
}
