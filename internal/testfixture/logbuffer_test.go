package testfixture_test

import (
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"

	"talk2tables/internal/testfixture"
)

func TestLogBufferEvents(t *testing.T) {
	var buf testfixture.LogBuffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() { logger.Info("step", "event", "step_done", "n", i) })
	}
	wg.Wait()
	logger.Info("end", "event", "all_done")

	if got := len(buf.Records(t)); got != 9 {
		t.Errorf("Records = %d, want 9", got)
	}
	steps := buf.Events(t, "step_done")
	if len(steps) != 8 {
		t.Fatalf("Events(step_done) = %d, want 8", len(steps))
	}
	seen := map[float64]bool{}
	for _, e := range steps {
		seen[e["n"].(float64)] = true
	}
	if len(seen) != 8 {
		t.Errorf("step numbers = %v, want 8 distinct", seen)
	}
	if got := buf.Events(t, "all_done"); len(got) != 1 || got[0]["msg"] != "end" {
		t.Errorf("Events(all_done) = %v, want the one end record", got)
	}
	if got := buf.Events(t, "never"); len(got) != 0 {
		t.Errorf("Events(never) = %v, want none", got)
	}
	if !buf.Contains(`"event":"all_done"`) || buf.Contains("hunter2") {
		t.Errorf("Contains disagrees with the text: %s", buf.String())
	}
}

// fatalTB records Fatalf instead of failing the real test.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestLogBufferRejectsNonJSON(t *testing.T) {
	tests := []struct {
		name string
		read func(*testfixture.LogBuffer, testing.TB)
	}{
		{name: "Records", read: func(b *testfixture.LogBuffer, tb testing.TB) { b.Records(tb) }},
		{name: "Events", read: func(b *testfixture.LogBuffer, tb testing.TB) { b.Events(tb, "x") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf testfixture.LogBuffer
			fmt.Fprintf(&buf, "{\"event\":\"x\"}\npanic: not a record\n")
			tb := &fatalTB{TB: t}
			done := make(chan struct{})
			go func() {
				defer close(done)
				tt.read(&buf, tb)
			}()
			<-done
			if !strings.Contains(tb.msg, "panic: not a record") {
				t.Errorf("%s on a non-JSON line: Fatalf message %q, want one naming the line", tt.name, tb.msg)
			}
		})
	}
}
