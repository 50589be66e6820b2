package orchestrator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/config"
	"talk2tables/mcpserve"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/sqlerr"
)

// Liveness tests stop a real server (SIGSTOP on a stdio child, an HTTP
// server that stops answering). They assert states; the durations they log
// are the measured figures quoted in the README (no timing is asserted:
// the hang guards are generous).

// hungRig is the stdio database child as the only required executor, with
// fast liveness settings.
func hungRig(t testing.TB, callTimeout time.Duration) (*Orchestrator, *mcpclient.Conn, *fixture) {
	t.Helper()
	f := newFixture(t)
	cfg := stdioConfig(f)
	delete(cfg.MCPServers, "product_metadata_mcp")
	cfg.Orchestration.PingInterval = 200 * time.Millisecond
	cfg.Orchestration.PingTimeout = 300 * time.Millisecond
	cfg.Orchestration.MCPCallTimeout = callTimeout
	o := newOrch(t, cfg, withBackoff(20*time.Millisecond, 200*time.Millisecond))
	return o, o.clients.Conn("database_mcp"), f
}

// stopChild SIGSTOPs pid and makes sure it is continued (or gone) at the
// end of the test.
func stopChild(t testing.TB, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatalf("SIGSTOP %d: %v", pid, err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
	// the signal is delivered asynchronously: on a busy machine the child
	// could still answer one more request; wait until the kernel says it
	// is stopped
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return // no /proc here: the signal alone
		}
		// "pid (comm) S …": the state follows the last ')'
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && (b[i+2] == 'T' || b[i+2] == 't') {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("child %d did not stop within 10s of SIGSTOP", pid)
}

// TestHungStdioExecutor: a SIGSTOPped database-mcp child is unresponsive
// within ping interval + ping timeout, the call in flight ends at once
// (not at its 1-minute call timeout), new calls fail fast with
// PhaseUnresponsive and a Retry-After, Health is degraded; after SIGCONT it
// is connected again, the same child.
func TestHungStdioExecutor(t *testing.T) {
	o, c, _ := hungRig(t, time.Minute)
	ctx := context.Background()
	if _, err := o.ExecuteSQL(ctx, "SELECT 1 AS one", 1, "warm"); err != nil {
		t.Fatal(err)
	}
	pid := c.PID()

	inflight := make(chan error, 1)
	stopChild(t, pid)
	stopped := time.Now()
	go func() {
		_, err := o.ExecuteSQL(ctx, "SELECT 2 AS two", 1, "inflight")
		inflight <- err
	}()
	eventually(t, "unresponsive", func() bool { return c.State() == mcpclient.StateUnresponsive })
	detected := time.Since(stopped)
	select {
	case err := <-inflight:
		var ce *mcpclient.MCPConnectionError
		if !errors.As(err, &ce) || ce.Phase != mcpclient.PhaseUnresponsive {
			t.Errorf("call in flight = %v, want an unresponsive MCPConnectionError", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call in flight still waits for its call timeout")
	}
	if h := o.Health(); h.Status != "degraded" || h.Servers["database_mcp"] != mcpclient.StateUnresponsive {
		t.Errorf("health = %+v, want degraded with database_mcp unresponsive", h)
	}
	st := c.Status()
	if st.UnresponsiveSince.IsZero() {
		t.Errorf("status = %+v, want unresponsive_since", st)
	}
	var worst time.Duration
	for range 20 {
		t0 := time.Now()
		_, err := o.ExecuteSQL(ctx, "SELECT 3 AS three", 1, "after")
		worst = max(worst, time.Since(t0))
		var ce *mcpclient.MCPConnectionError
		if !errors.As(err, &ce) || ce.Phase != mcpclient.PhaseUnresponsive || ce.RetryAfter < time.Second {
			t.Fatalf("call after detection = %v, want unresponsive with a Retry-After", err)
		}
	}
	t.Logf("measured: hung child detected %v after SIGSTOP (ping_interval 200ms, ping_timeout 300ms); "+
		"calls after detection answered in at most %v", detected.Round(time.Millisecond), worst)

	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	eventually(t, "connected again", func() bool { return c.State() == mcpclient.StateConnected })
	if c.PID() != pid {
		t.Errorf("pid = %d, want the same child %d (it answered again before its restart)", c.PID(), pid)
	}
	if _, err := o.ExecuteSQL(ctx, "SELECT 4 AS four", 1, "back"); err != nil {
		t.Errorf("after SIGCONT: %v", err)
	}
}

// TestHungStdioExecutorRestarted: a child that stays stopped longer than
// its call timeout is killed and a new one answers.
func TestHungStdioExecutorRestarted(t *testing.T) {
	o, c, _ := hungRig(t, 2*time.Second)
	ctx := context.Background()
	pid := c.PID()
	stopChild(t, pid)
	eventually(t, "unresponsive", func() bool { return c.State() == mcpclient.StateUnresponsive })
	eventually(t, "a new child", func() bool { return c.State() == mcpclient.StateConnected && c.PID() != pid })
	if err := syscall.Kill(pid, 0); err == nil {
		// Reaped children are gone; a zombie still answers signal 0 briefly.
		eventually(t, "the stopped child gone", func() bool { return syscall.Kill(pid, 0) != nil })
	}
	if _, err := o.ExecuteSQL(ctx, "SELECT 1 AS one", 1, "new"); err != nil {
		t.Errorf("on the new child: %v", err)
	}
}

// TestSlowStatementIsRepairableTimeout: a statement slower than the call
// timeout on a server that still answers pings is cancelled and a
// repairable TIMEOUT; the server stays connected (not lost, not restarted).
func TestSlowStatementIsRepairableTimeout(t *testing.T) {
	o, c, _ := hungRig(t, 2*time.Second) // connecting a -race child takes a while
	pid := c.PID()
	slow := "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r"
	_, err := o.ExecuteSQL(context.Background(), slow, 1, "slow")
	var qe *executor.QueryExecutionError
	if !errors.As(err, &qe) || qe.Category != "TIMEOUT" || !qe.Category.Repairable() {
		t.Fatalf("err = %v, want a repairable TIMEOUT", err)
	}
	if st := c.State(); st != mcpclient.StateConnected || c.PID() != pid {
		t.Errorf("state = %s, pid %d (was %d); want the same child, connected", st, c.PID(), pid)
	}
	if _, err := o.ExecuteSQL(context.Background(), "SELECT 1 AS one", 1, "next"); err != nil {
		t.Errorf("next call: %v", err)
	}
}

// hangingHandler serves h until hang is set; then every request waits
// until the client goes away or release is closed.
type hangingHandler struct {
	h       http.Handler
	hang    atomic.Bool
	mu      sync.Mutex
	release chan struct{}
}

func (hh *hangingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if hh.hang.Load() {
		hh.mu.Lock()
		rel := hh.release
		hh.mu.Unlock()
		select {
		case <-r.Context().Done():
		case <-rel:
		}
		return
	}
	hh.h.ServeHTTP(w, r)
}

// TestHungHTTPServer: a streamable HTTP executor that stops answering is
// unresponsive at once, fails calls fast, and is reconnected with backoff
// once it answers again.
func TestHungHTTPServer(t *testing.T) {
	f := newFixture(t)
	h, err := mcpserve.Handler(f.dbServer(t), mcpserve.StreamableHTTP)
	if err != nil {
		t.Fatal(err)
	}
	hh := &hangingHandler{h: h, release: make(chan struct{})}
	hs := httptest.NewServer(hh)
	t.Cleanup(func() {
		hh.hang.Store(false)
		hh.mu.Lock()
		close(hh.release)
		hh.mu.Unlock()
		mcpserve.CloseSessions(h)
		hs.CloseClientConnections()
		hs.Close()
	})
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 200 * time.Millisecond
	cfg.Orchestration.PingTimeout = 300 * time.Millisecond
	cfg.Orchestration.MCPCallTimeout = time.Second
	cfg.MCPServers["database_mcp"] = config.ServerConfig{Name: "DB", Transport: config.TransportStreamableHTTP, URL: hs.URL + "/mcp",
		Priority: 10, Capabilities: []string{config.CapExecuteQuery, config.CapValidateQuery, config.CapListResources}}
	o := newOrch(t, cfg, withBackoff(20*time.Millisecond, 200*time.Millisecond))
	c := o.clients.Conn("database_mcp")
	ctx := context.Background()

	hh.hang.Store(true)
	eventually(t, "unresponsive", func() bool { return c.State() == mcpclient.StateUnresponsive })
	_, err = o.ExecuteSQL(ctx, "SELECT 1 AS one", 1, "hung")
	var ce *mcpclient.MCPConnectionError
	if !errors.As(err, &ce) || (ce.Phase != mcpclient.PhaseUnresponsive && ce.Phase != mcpclient.PhaseLost) {
		t.Errorf("call to the hung server = %v, want it refused at once", err)
	}
	// Past its call timeout it is dropped and reconnected with backoff,
	// which keeps failing while it hangs.
	eventually(t, "reconnecting", func() bool { return c.State() == mcpclient.StateFailed })

	hh.hang.Store(false)
	eventually(t, "connected again", func() bool { return c.State() == mcpclient.StateConnected })
	if _, err := o.ExecuteSQL(ctx, "SELECT 1 AS one", 1, "back"); err != nil {
		t.Errorf("after it answers again: %v", err)
	}
}

// TestTimedOutCallIsCancelled: a tool call past its call timeout is
// cancelled on the server (mcp-go sends notifications/cancelled; the
// server ends the handler's context), answered as a repairable TIMEOUT,
// and the server, which still answers pings, stays connected.
func TestTimedOutCallIsCancelled(t *testing.T) {
	cancelled := make(chan struct{}, 1)
	slow := newResourceServer("slow", nil, map[string]server.ToolHandlerFunc{
		"execute_query": func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-ctx.Done():
				cancelled <- struct{}{}
				return nil, ctx.Err()
			case <-time.After(30 * time.Second):
				return mcp.NewToolResultText(`{"columns":["x"],"rows":[[1]]}`), nil
			}
		},
	})
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 0
	cfg.Orchestration.MCPCallTimeout = 300 * time.Millisecond
	cfg.MCPServers["slow"] = config.ServerConfig{Transport: config.TransportInProcess, Priority: 1, Capabilities: []string{config.CapExecuteQuery},
		SchemaDiscovery: config.DiscoveryOff}
	o := newOrch(t, cfg, WithInProcessServer("slow", slow.s))
	_, err := o.ExecuteSQL(context.Background(), "SELECT x FROM t", 1, "t")
	var qe *executor.QueryExecutionError
	if !errors.As(err, &qe) || qe.Category != sqlerr.Timeout || !strings.Contains(qe.Message, "mcp_call_timeout") {
		t.Fatalf("err = %v, want a TIMEOUT naming mcp_call_timeout", err)
	}
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the server's handler was never cancelled")
	}
	if st := o.clients.Conn("slow").State(); st != mcpclient.StateConnected {
		t.Errorf("state = %s, want connected (it answers pings)", st)
	}
}
