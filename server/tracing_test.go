package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"talk2tables/config"
	"talk2tables/internal/llmtest"
	"talk2tables/telemetry"
)

// tracing installs an in-memory exporter as the process's tracer provider
// for the test.
func tracing(t testing.TB) *tracetest.InMemoryExporter {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	telemetry.Install(tp)
	t.Cleanup(func() {
		telemetry.Uninstall()
		_ = tp.Shutdown(t.Context())
	})
	return exp
}

// spanTree indexes finished spans for assertions.
type spanTree struct {
	t     *testing.T
	spans tracetest.SpanStubs
}

// one returns the only span named name under parent (any parent when
// parent is nil), failing otherwise.
func (st spanTree) one(name string, parent *tracetest.SpanStub) tracetest.SpanStub {
	st.t.Helper()
	var found []tracetest.SpanStub
	for _, s := range st.spans {
		if s.Name == name && (parent == nil || s.Parent.SpanID() == parent.SpanContext.SpanID()) {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		st.t.Fatalf("%d spans named %q under %s, want 1; spans:\n%s", len(found), name, nameOf(parent), st)
	}
	return found[0]
}

func nameOf(s *tracetest.SpanStub) string {
	if s == nil {
		return "any parent"
	}
	return fmt.Sprintf("%q", s.Name)
}

func (st spanTree) String() string {
	var b strings.Builder
	byID := map[trace.SpanID]string{}
	for _, s := range st.spans {
		byID[s.SpanContext.SpanID()] = s.Name
	}
	for _, s := range st.spans {
		fmt.Fprintf(&b, "  %-40s parent %q\n", s.Name, byID[s.Parent.SpanID()])
	}
	return b.String()
}

func attr(s tracetest.SpanStub, key string) string {
	for _, kv := range s.Attributes {
		if string(kv.Key) == key {
			return kv.Value.Emit()
		}
	}
	return ""
}

// TestTraceOfOneQuestion: one question over HTTP, with database-mcp over
// streamable HTTP, is one trace continuing the caller's traceparent: the
// HTTP request → question → gather → attempt (generate with its token
// counts and LLM call, validate, execute) → repair with its category →
// each MCP call → the database server's own spans, linked across the MCP
// hop by the propagated context; every talk2tables span carries the
// operation id.
func TestTraceOfOneQuestion(t *testing.T) {
	exp := tracing(t)
	bad := llmtest.Plan("SELECT region, SUM(total_amount) FROM sale GROUP BY region", nil, "typo")
	st := newStack(t, stackOptions{dbOverNet: true, steps: []llmtest.Step{{Content: bad}, {Content: goodPlan}},
		orch: func(c *config.Config) { c.Orchestration.ResultCache.Enabled = false }})
	exp.Reset() // connecting and listing are not part of the question

	const caller = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	resp, body := st.call(t, "POST", "/api/query", `{"question":"revenue by region"}`,
		map[string]string{"traceparent": caller, "X-Request-ID": "trace-test-1"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /api/query = %d %s", resp.StatusCode, body)
	}
	tree := spanTree{t: t, spans: exp.GetSpans()}
	t.Logf("spans:\n%s", tree)

	httpSpan := tree.one("POST /api/query", nil)
	if got := httpSpan.SpanContext.TraceID().String(); got != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("trace id = %s, want the caller's", got)
	}
	if got := httpSpan.Parent.SpanID().String(); got != "00f067aa0ba902b7" || httpSpan.SpanKind != trace.SpanKindServer {
		t.Errorf("HTTP span parent %s kind %v, want the caller's span and server kind", got, httpSpan.SpanKind)
	}
	if got := attr(httpSpan, "http.response.status_code"); got != "200" {
		t.Errorf("http.response.status_code = %q", got)
	}
	question := tree.one("question", &httpSpan)
	tree.one("gather", &question)
	first := tree.one("attempt", &question)
	gen := tree.one("generate", &first)
	if attr(gen, "gen_ai.usage.input_tokens") == "" || attr(gen, "gen_ai.usage.input_tokens") == "0" {
		t.Errorf("generate span lacks the prompt token count: %v", gen.Attributes)
	}
	tree.one("llm POST", &gen)
	validate := tree.one("validate", &first)
	call := tree.one("mcp tools/call:validate_query", &validate)
	if attr(call, "mcp.server") != "database_mcp" || attr(call, "mcp.tool.name") != "validate_query" ||
		call.SpanKind != trace.SpanKindClient {
		t.Errorf("MCP call span attributes %v kind %v", call.Attributes, call.SpanKind)
	}
	// Across the MCP hop: database-mcp's own span is the client span's child.
	remote := tree.one("mcp.tools/call", &call)
	tree.one("tool.validate_query", &remote)

	repair := tree.one("repair", &question)
	if got := attr(repair, "talk2tables.error.category"); got != "MISSING_TABLE" {
		t.Errorf("repair category = %q, want MISSING_TABLE", got)
	}
	tree.one("generate", &repair)
	exec := tree.one("execute", &repair)
	execCall := tree.one("mcp tools/call:execute_query", &exec)
	tree.one("tool.execute_query", ptr(tree.one("mcp.tools/call", &execCall)))

	for _, s := range []tracetest.SpanStub{question, first, gen, validate, call, repair, exec, execCall} {
		if got := attr(s, "talk2tables.operation_id"); got != "trace-test-1" {
			t.Errorf("span %q operation_id = %q, want the request id", s.Name, got)
		}
	}
	for _, s := range tree.spans {
		if s.SpanContext.TraceID() != httpSpan.SpanContext.TraceID() {
			t.Errorf("span %q is in another trace", s.Name)
		}
	}
}

func ptr(s tracetest.SpanStub) *tracetest.SpanStub { return &s }

// TestNoSpansWhenOff: with no provider installed nothing is recorded and
// the MCP adapters are not installed.
func TestNoSpansWhenOff(t *testing.T) {
	if telemetry.Enabled() {
		t.Fatal("tracing is on without a provider")
	}
	if opts := telemetry.MCPServerOptions(); opts != nil {
		t.Errorf("MCP server options while off = %d, want none", len(opts))
	}
	if h := telemetry.HeaderFunc(t.Context()); h != nil {
		t.Errorf("trace headers while off = %v", h)
	}
	st := newStack(t, stackOptions{})
	resp, _ := st.call(t, "POST", "/api/query", `{"question":"revenue by region"}`, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status = %d", resp.StatusCode)
	}
}
