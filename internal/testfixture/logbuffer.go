package testfixture

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

// LogBuffer collects what a logger or a running command writes, safe for
// concurrent writers and the reading test. Give it to slog.NewJSONHandler (or
// as a command's stderr) and read the JSON log records back with Records or
// Events. The zero value is ready to use.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p; it never fails.
func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Contains reports whether what was written so far contains s.
func (l *LogBuffer) Contains(s string) bool {
	return strings.Contains(l.String(), s)
}

// Records decodes every non-empty line written so far as a JSON object, in
// order. A line that is not JSON fails the test: every log line must be one
// JSON record.
func (l *LogBuffer) Records(tb testing.TB) []map[string]any {
	tb.Helper()
	var out []map[string]any
	for line := range strings.SplitSeq(l.String(), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			tb.Fatalf("log line is not JSON (%v): %q", err, line)
		}
		out = append(out, rec)
	}
	return out
}

// Events returns the decoded log records whose "event" field is name, in
// order; like Records, it fails the test on a line that is not JSON.
func (l *LogBuffer) Events(tb testing.TB, name string) []map[string]any {
	tb.Helper()
	var out []map[string]any
	for _, rec := range l.Records(tb) {
		if rec["event"] == name {
			out = append(out, rec)
		}
	}
	return out
}
