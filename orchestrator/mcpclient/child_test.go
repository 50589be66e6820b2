package mcpclient

import (
	"fmt"
	"log/slog"
	"testing"
	"time"

	"talk2tables/internal/testfixture"
)

// TestChildStderr: JSON lines pass through raw, other lines become events
// with the server id, a flood is cut and counted, and the last words explain
// an exit.
func TestChildStderr(t *testing.T) {
	var raw, logs testfixture.LogBuffer
	s := newChildStderr(&raw, slog.New(slog.NewJSONHandler(&logs, nil)).With("mcp_server", "dbhub"))
	clock := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return clock }
	fmt.Fprint(s, "  ____  ____  _   _ _   _ ____\n{\"level\":\"INFO\",\"msg\":\"started\"}\npartial ")
	fmt.Fprint(s, "line\n")
	if got := raw.String(); got != "{\"level\":\"INFO\",\"msg\":\"started\"}\n" {
		t.Errorf("raw = %q, want the JSON line only", got)
	}
	ev := logs.Events(t, "mcp_server_stderr")
	if len(ev) != 2 || ev[0]["line"] != "  ____  ____  _   _ _   _ ____" || ev[1]["line"] != "partial line" ||
		ev[0]["mcp_server"] != "dbhub" {
		t.Errorf("events = %v, want the banner and the joined partial line, with the server id", ev)
	}
	for i := 0; i < 3*childLineBurst; i++ {
		fmt.Fprintf(s, "noise %d\n", i)
	}
	clock = clock.Add(time.Second / childLineRate) // the limiter refills one line
	fmt.Fprint(s, "database /x.db does not exist\n")
	// The burst covers the 3 lines before the flood and burst-3 of it; one
	// more line passes after the refill.
	if n := len(logs.Events(t, "mcp_server_stderr")); n != childLineBurst {
		t.Errorf("%d stderr events logged (JSON lines aside), want %d: the burst, then one line after a refill", n, childLineBurst)
	}
	if d := logs.Events(t, "mcp_server_stderr_dropped"); len(d) != 1 || d[0]["lines"].(float64) != 2*childLineBurst+3 {
		t.Errorf("dropped events = %v, want one counting the dropped lines", d)
	}
	if got := s.lastWords(); got != "database /x.db does not exist" {
		t.Errorf("lastWords = %q", got)
	}
}
