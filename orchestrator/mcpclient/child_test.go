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
	if d := logs.Events(t, "mcp_server_stderr_dropped"); len(d) != 0 {
		t.Errorf("dropped events = %v, want none before %s has passed", d, childDropSummary)
	}
	if got := s.lastWords(); got != "database /x.db does not exist" {
		t.Errorf("lastWords = %q", got)
	}
	// A flood that goes on: one summary line per interval, counting every
	// line dropped in it (it was up to childLineRate WARN lines a second:
	// one before each line the limiter let through).
	for sec := 0; sec < 25; sec++ {
		clock = clock.Add(time.Second)
		for i := 0; i < 2*childLineRate; i++ {
			fmt.Fprintf(s, "noise %d.%d\n", sec, i)
		}
	}
	d := logs.Events(t, "mcp_server_stderr_dropped")
	if len(d) != 2 || d[0]["lines"].(float64) != 2*childLineBurst+3+9*childLineRate {
		t.Fatalf("dropped events = %v, want 2 in 25 s (one per %s), the first counting %d lines", d, childDropSummary,
			2*childLineBurst+3+9*childLineRate)
	}
	s.flush() // the child exits: the rest is summed up
	if d := logs.Events(t, "mcp_server_stderr_dropped"); len(d) != 3 {
		t.Errorf("dropped events after exit = %d, want 3", len(d))
	}
}
