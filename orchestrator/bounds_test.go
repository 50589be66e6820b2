package orchestrator

import (
	"bufio"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/config"
	"talk2tables/databasemcp"
	"talk2tables/internal/testfixture"
	"talk2tables/mcpserve"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/sqlerr"
)

// TestHugeQueriesKeepTheExecutorUp is issue 14's report, end to end over
// stdio: database-mcp runs as a child process; the queries that hung it
// (a gigabyte value, 200 one-megabyte values, a 20 MB value) each answer
// within the statement timeout plus a second — refused with RESOURCE_LIMIT
// or cut with truncated and a note — while cheap queries beside them keep
// answering, the child is never restarted and health stays healthy. The
// child's peak memory is logged.
func TestHugeQueriesKeepTheExecutorUp(t *testing.T) {
	f := newFixture(t)
	cfg := stdioConfig(f)
	delete(cfg.MCPServers, "product_metadata_mcp")
	// A 2 MiB result bound instead of 16: under the race detector, encoding
	// and decoding 16 MiB of escaped zero bytes alone takes longer than the
	// statement timeout (without it, the defaults answer in 2.4 s in all).
	sc := cfg.MCPServers["database_mcp"]
	sc.Env[envDBMaxResult] = strconv.Itoa(2 << 20)
	cfg.MCPServers["database_mcp"] = sc
	cfg.Orchestration.ResultCache.Enabled = false
	o := newOrch(t, cfg, WithGenerator(scriptedOrFail(t)))
	exec := o.clients.Conn("database_mcp")
	pid := exec.PID()
	if pid == 0 {
		t.Fatal("no child process")
	}
	ctx := context.Background()

	stop := make(chan struct{})
	var cheap sync.WaitGroup
	var cheapRuns int
	cheap.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
			d, err := o.ExecuteSQL(ctx, "SELECT 1 AS one", 10, "")
			cheapRuns++
			if err != nil || d.RowCount != 1 {
				t.Errorf("cheap query beside the huge ones: %+v, %v", d, err)
			}
			if h := o.Health(); h.Status != "healthy" {
				t.Errorf("health = %+v, want healthy", h)
			}
		}
	})
	// The bound: the statement timeout plus a second. The race
	// detector makes the child's SQLite and both sides' JSON ~10x slower, so
	// there the bound only catches a hang.
	bound := databasemcp.DefaultQueryTimeout + time.Second
	if testfixture.Race {
		bound *= 3
	}
	for _, tt := range []struct {
		sql      string
		category sqlerr.Category // "" means a truncated result
	}{
		{"SELECT randomblob(1000000000)", sqlerr.ResourceLimit},
		{"SELECT zeroblob(1000000) FROM sales LIMIT 200", ""},
		{"SELECT randomblob(20000000)", sqlerr.ResourceLimit},
	} {
		start := time.Now()
		d, err := o.ExecuteSQL(ctx, tt.sql, 500, "")
		if el := time.Since(start); el > bound {
			t.Errorf("%s answered after %s, want at most %s", tt.sql, el, bound)
		} else {
			t.Logf("%s answered in %s", tt.sql, el.Round(time.Millisecond))
		}
		switch {
		case tt.category != "":
			if got := sqlerr.CategoryOf(err); got != tt.category {
				t.Errorf("%s: err = %v, want %s", tt.sql, err, tt.category)
			}
		case sqlerr.CategoryOf(err) == sqlerr.Timeout:
			t.Logf("%s: interrupted by the statement timeout (slow machine): %v", tt.sql, err)
		case err != nil:
			t.Errorf("%s: err = %v, want a truncated result", tt.sql, err)
		case !d.Truncated || !strings.Contains(d.Note, "cut"):
			t.Errorf("%s: truncated = %v, note %q; want it cut, saying so", tt.sql, d.Truncated, d.Note)
		}
	}
	close(stop)
	cheap.Wait()
	if cheapRuns == 0 {
		t.Error("no cheap query ran beside the huge ones")
	}
	st := exec.Status()
	if st.State != mcpclient.StateConnected || exec.PID() != pid || exec.Connects() != 1 {
		t.Errorf("executor after the huge queries: state %s, pid %d (was %d), connected %d times; want the same child, connected once",
			st.State, exec.PID(), pid, exec.Connects())
	}
	t.Logf("database-mcp child peak RSS: %s", peakRSS(pid))
}

// peakRSS reads a process's peak resident set size from /proc.
func peakRSS(pid int) string {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// hugeExecutor is a third-party SQL server that answers with a result of
// the given size, in one long text value per row.
func hugeExecutor(rows, cellBytes int) *server.MCPServer {
	s := server.NewMCPServer("huge-sql", "1.0.0", server.WithToolCapabilities(false))
	cell := strings.Repeat("x", cellBytes)
	s.AddTool(mcp.NewTool("execute_query", mcp.WithString("query")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var b strings.Builder
			b.WriteString(`{"columns":["n","text"],"rows":[`)
			for i := range rows {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `[%d,"%s"]`, i, cell)
			}
			b.WriteString(`]}`)
			return mcp.NewToolResultText(b.String()), nil
		})
	return s
}

// TestServeBoundsWhatItReads: serve applies the result bounds to any
// executor's answer — long values cut, rows past the byte bound left out,
// with truncated and a note — and refuses an HTTP server's message far over
// the bound while reading it, as RESOURCE_LIMIT, keeping the server
// connected.
func TestServeBoundsWhatItReads(t *testing.T) {
	t.Run("cut to the bounds", func(t *testing.T) {
		cfg := executorConfig(config.TransportInProcess)
		cfg.Orchestration.MaxCellBytes = 1000
		cfg.Orchestration.MaxResultBytes = 20000
		o := newOrch(t, cfg, WithInProcessServer("sql_mcp", hugeExecutor(100, 5000)), WithGenerator(scriptedOrFail(t)))
		d, err := o.ExecuteSQL(context.Background(), "SELECT * FROM huge", 1000, "")
		if err != nil {
			t.Fatal(err)
		}
		if !d.Truncated || d.RowCount == 0 || d.RowCount >= 100 || !strings.Contains(d.Note, "cells were longer than 1000 bytes") ||
			!strings.Contains(d.Note, "cut after") {
			t.Errorf("rows %d, truncated %v, note %q; want some rows, cut cells and rows, both noted", d.RowCount, d.Truncated, d.Note)
		}
		if s := d.Rows[0][1].(string); len(s) > 1000 || !strings.HasSuffix(s, "…") {
			t.Errorf("first cell is %d bytes, want at most 1000 ending in …", len(s))
		}
	})
	t.Run("refused while read over HTTP", func(t *testing.T) {
		h, err := mcpserve.Handler(hugeExecutor(3000, 1000), mcpserve.StreamableHTTP)
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(h)
		t.Cleanup(func() { mcpserve.CloseSessions(h); hs.CloseClientConnections(); hs.Close() })
		cfg := executorConfig(config.TransportStreamableHTTP)
		sc := cfg.MCPServers["sql_mcp"]
		sc.URL = hs.URL + "/mcp"
		cfg.MCPServers["sql_mcp"] = sc
		cfg.Orchestration.MaxResultBytes = 1024 // messages over 3 KiB + 1 MiB are refused; this one is ~3 MB
		o := newOrch(t, cfg, WithGenerator(scriptedOrFail(t)))
		_, err = o.ExecuteSQL(context.Background(), "SELECT * FROM huge", 1000, "")
		if got := sqlerr.CategoryOf(err); got != sqlerr.ResourceLimit || !strings.Contains(err.Error(), "max_result_bytes") {
			t.Errorf("err = %v, want RESOURCE_LIMIT naming max_result_bytes", err)
		}
		if st := o.clients.Conn("sql_mcp").Status(); st.State != mcpclient.StateConnected {
			t.Errorf("state after a refused answer = %s (%s), want connected", st.State, st.LastError)
		}
	})
}

// TestStdioMessageBound: a third-party stdio server answering with a
// message far over the bound gets RESOURCE_LIMIT for that call — the
// message is dropped while read, never held whole — and stays connected:
// the same child answers the next call.
func TestStdioMessageBound(t *testing.T) {
	cfg := config.DefaultConfig()
	cfg.Orchestration.PingInterval = 0
	cfg.Orchestration.ResultCache.Enabled = false
	cfg.Orchestration.MaxResultBytes = 1024 // messages over 1 MiB + 3 KiB are refused; the answer is ~3 MB
	cfg.MCPServers["sql_mcp"] = config.ServerConfig{Name: "Huge SQL", Transport: config.TransportStdio, Command: os.Args[0],
		Env: map[string]string{envChild: "huge"}, Priority: 1, Capabilities: []string{config.CapExecuteQuery}}
	o := newOrch(t, cfg, WithGenerator(scriptedOrFail(t)))
	c := o.clients.Conn("sql_mcp")
	pid := c.PID()
	for i := range 2 {
		_, err := o.ExecuteSQL(context.Background(), "SELECT * FROM huge", 10, "")
		if got := sqlerr.CategoryOf(err); got != sqlerr.ResourceLimit || !strings.Contains(err.Error(), "max_result_bytes") {
			t.Fatalf("call %d: err = %v, want RESOURCE_LIMIT naming max_result_bytes", i+1, err)
		}
	}
	if st := c.Status(); st.State != mcpclient.StateConnected || c.PID() != pid || c.Connects() != 1 {
		t.Errorf("after refused answers: state %s (%s), pid %d (was %d), connected %d times; want the same child, up",
			st.State, st.LastError, c.PID(), pid, c.Connects())
	}
}
