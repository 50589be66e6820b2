package orchestrator

import (
	"context"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"talk2tables/telemetry"
)

// otlpSpan is a span as an OTLP collector received it.
type otlpSpan struct {
	service, name, traceID, spanID, parentID string
}

// otlpReceiver is an OTLP/HTTP trace collector: it decodes what exporters
// POST to /v1/traces.
type otlpReceiver struct {
	mu    sync.Mutex
	spans []otlpSpan
}

func (r *otlpReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	var msg coltracepb.ExportTraceServiceRequest
	if err != nil || req.URL.Path != "/v1/traces" || proto.Unmarshal(body, &msg) != nil {
		http.Error(w, "bad export", http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	for _, rs := range msg.ResourceSpans {
		service := ""
		for _, kv := range rs.GetResource().GetAttributes() {
			if kv.Key == "service.name" {
				service = kv.GetValue().GetStringValue()
			}
		}
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				r.spans = append(r.spans, otlpSpan{service: service, name: s.Name, traceID: hex.EncodeToString(s.TraceId),
					spanID: hex.EncodeToString(s.SpanId), parentID: hex.EncodeToString(s.ParentSpanId)})
			}
		}
	}
	r.mu.Unlock()
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func (r *otlpReceiver) find(name, parentID string) (otlpSpan, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.spans {
		if s.name == name && s.parentID == parentID {
			return s, true
		}
	}
	return otlpSpan{}, false
}

// TestTraceCrossesStdio: database-mcp as a stdio child continues serve's
// trace from the traceparent in the request's _meta (there are no headers
// on stdio), and exports its own spans to the OTLP endpoint the standard
// variable names: its server span's parent is serve's MCP client span.
func TestTraceCrossesStdio(t *testing.T) {
	recv := &otlpReceiver{}
	collector := httptest.NewServer(recv)
	t.Cleanup(collector.Close)

	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	telemetry.Install(tp)
	t.Cleanup(func() { telemetry.Uninstall(); _ = tp.Shutdown(context.Background()) })

	f := newFixture(t)
	cfg := stdioConfig(f)
	delete(cfg.MCPServers, "product_metadata_mcp")
	sc := cfg.MCPServers["database_mcp"]
	sc.Env["OTEL_EXPORTER_OTLP_ENDPOINT"] = collector.URL
	sc.Env["OTEL_BSP_SCHEDULE_DELAY"] = "20" // ms: export at once
	cfg.MCPServers["database_mcp"] = sc
	o := newOrch(t, cfg, WithGenerator(scriptedOrFail(t)))

	exp.Reset()
	if _, err := o.ExecuteSQL(context.Background(), "SELECT 1 AS one", 10, "stdio-trace"); err != nil {
		t.Fatal(err)
	}
	var client tracetest.SpanStub
	for _, s := range exp.GetSpans() {
		if s.Name == "mcp tools/call:execute_query" {
			client = s
		}
	}
	if !client.SpanContext.IsValid() {
		t.Fatalf("no client span for execute_query among %d spans", len(exp.GetSpans()))
	}
	var server otlpSpan
	eventually(t, "database-mcp's span of the call at the collector", func() bool {
		var ok bool
		server, ok = recv.find("mcp.tools/call", client.SpanContext.SpanID().String())
		return ok
	})
	if server.traceID != client.SpanContext.TraceID().String() || server.service != "talk2tables-database-mcp" {
		t.Errorf("child span %+v, want trace %s from service talk2tables-database-mcp", server, client.SpanContext.TraceID())
	}
	if _, ok := recv.find("tool.execute_query", server.spanID); !ok {
		t.Errorf("no tool.execute_query span under the child's server span")
	}
}
