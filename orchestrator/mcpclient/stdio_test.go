package mcpclient

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"talk2tables/telemetry"
)

func TestBoundedLines(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":"a\"b","result":{"text":"` + strings.Repeat("x", 500) + `"}}`
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		long,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("y", 500) + `"}}`,
		`{"jsonrpc":"2.0","id":7,"result":{"ok":true}}`,
	}, "\n") + "\n"
	got, err := io.ReadAll(newBoundedLines(iotest.OneByteReader(strings.NewReader(in)), 200))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want 3 (the notification dropped):\n%s", len(lines), got)
	}
	if lines[0] != `{"jsonrpc":"2.0","id":1,"result":{}}` || lines[2] != `{"jsonrpc":"2.0","id":7,"result":{"ok":true}}` {
		t.Errorf("messages under the bound changed:\n%s", got)
	}
	var stand struct {
		ID    string `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &stand); err != nil || stand.ID != `a"b` || !strings.Contains(stand.Error.Message, tooLargeMarker) {
		t.Errorf("stand-in = %s (%v), want an error for id a\"b", lines[1], err)
	}
}

// TestTraceEnv: while tracing is on, stdio children get the OTEL_*
// variables (so talk2tables' own servers export to the same collector) but
// not the OTLP headers, which may hold the collector's credentials; while
// it is off, none.
func TestTraceEnv(t *testing.T) {
	parent := []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://c:4318", "OTEL_EXPORTER_OTLP_HEADERS=authorization=secret",
		"OTEL_EXPORTER_OTLP_TRACES_HEADERS=x=y", "OTEL_SERVICE_NAME=s", "OPENAI_API_KEY=k", "PATH=/bin"}
	if got := traceEnv(parent); got != nil {
		t.Errorf("traceEnv while off = %v, want none", got)
	}
	tp := sdktrace.NewTracerProvider()
	telemetry.Install(tp)
	t.Cleanup(func() { telemetry.Uninstall(); _ = tp.Shutdown(context.Background()) })
	got := traceEnv(parent)
	want := []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://c:4318", "OTEL_SERVICE_NAME=s"}
	if !slices.Equal(got, want) {
		t.Errorf("traceEnv = %v, want %v", got, want)
	}
}
