package telemetry

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

func TestConfigured(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want bool
	}{
		{name: "nothing set", want: false},
		{name: "endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://localhost:4318"}, want: true},
		{name: "traces endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"}, want: true},
		{name: "sdk disabled", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://x", "OTEL_SDK_DISABLED": "true"}},
		{name: "exporter none", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://x", "OTEL_TRACES_EXPORTER": "none"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER"} {
				t.Setenv(k, tt.env[k])
			}
			if got := Configured(); got != tt.want {
				t.Errorf("Configured() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSetup(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	shutdown, err := Setup(t.Context(), "test")
	if err != nil || Enabled() {
		t.Fatalf("Setup without an endpoint: err %v, enabled %v; want off", err, Enabled())
	}
	_ = shutdown(t.Context())

	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
	if _, err := Setup(t.Context(), "test"); err == nil || !strings.Contains(err.Error(), "http/protobuf") {
		t.Errorf("Setup with grpc = %v, want an error naming http/protobuf", err)
	}
	if Enabled() {
		t.Error("a failed Setup turned tracing on")
	}

	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	shutdown, err = Setup(t.Context(), "test")
	if err != nil || !Enabled() {
		t.Fatalf("Setup with an endpoint: err %v, enabled %v; want on", err, Enabled())
	}
	t.Cleanup(Uninstall)
	ctx, cancel := context.WithTimeout(t.Context(), 0)
	defer cancel()
	_ = shutdown(ctx) // nothing was recorded; the unreachable collector is not waited for
}

func TestMetaPropagation(t *testing.T) {
	tp := sdktrace.NewTracerProvider()
	Install(tp)
	t.Cleanup(Uninstall)
	ctx, span := Start(WithOperationID(t.Context(), "op-1"), "client", trace.SpanKindClient)
	defer span.End()
	meta := metaPropagator{}.InjectMeta(ctx, &mcp.Meta{AdditionalFields: map[string]any{"progressToken": 1}})
	if _, ok := meta.AdditionalFields["traceparent"].(string); !ok || meta.AdditionalFields["progressToken"] != 1 {
		t.Fatalf("meta = %+v, want traceparent added beside the existing fields", meta.AdditionalFields)
	}
	got := trace.SpanContextFromContext(metaPropagator{}.ExtractMeta(context.Background(), meta))
	if got.TraceID() != span.SpanContext().TraceID() || got.SpanID() != span.SpanContext().SpanID() || !got.IsRemote() {
		t.Errorf("extracted %v, want the remote span %v", got, span.SpanContext())
	}
	if m := (metaPropagator{}).InjectMeta(context.Background(), nil); m != nil {
		t.Errorf("InjectMeta without a span = %+v, want nil", m)
	}
	if h := HeaderFunc(ctx); !strings.HasPrefix(h["traceparent"], "00-"+span.SpanContext().TraceID().String()) {
		t.Errorf("HeaderFunc = %v, want the traceparent of the span", h)
	}
}
