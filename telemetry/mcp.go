package telemetry

import (
	"context"
	"net/http"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mark3labs/mcp-go/tracing"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// MCPServerOptions are the mcp-go server options that continue a client's
// trace — from the traceparent HTTP header on the HTTP transports and from
// the request's _meta on every transport — and record a span per message
// ("mcp.tools/call", server kind) and per tool call ("tool.<name>"). With
// tracing off there are none.
func MCPServerOptions() []server.ServerOption {
	if !Enabled() {
		return nil
	}
	return []server.ServerOption{
		server.WithTracer(mcpTracer{}),
		server.WithPropagator(headerPropagator{}),
		server.WithMetaPropagator(metaPropagator{}),
	}
}

// MCPClientOptions are the mcp-go client options that put the caller's
// trace context into the _meta of every tools/call, resources/read and
// prompts/get request (the only way over stdio). The caller's own span is
// the client span: mcp-go's is not added. With tracing off there are none.
func MCPClientOptions() []client.ClientOption {
	if !Enabled() {
		return nil
	}
	return []client.ClientOption{client.WithMetaPropagator(metaPropagator{})}
}

// HeaderFunc returns the trace context headers (traceparent, tracestate,
// baggage) of ctx, for the HTTP transports' header functions; nil when
// tracing is off or ctx has no span.
func HeaderFunc(ctx context.Context) map[string]string {
	if !Enabled() {
		return nil
	}
	c := propagation.MapCarrier{}
	otel.GetTextMapPropagator().Inject(ctx, c)
	if len(c) == 0 {
		return nil
	}
	return c
}

// mcpTracer adapts OpenTelemetry to mcp-go's tracing.Tracer.
type mcpTracer struct{}

func (mcpTracer) Start(ctx context.Context, name string, kind tracing.SpanKind, attrs ...tracing.Attribute) (context.Context, tracing.Span) {
	kv := make([]attribute.KeyValue, len(attrs))
	for i, a := range attrs {
		kv[i] = attribute.String(a.Key, a.Value)
	}
	ctx, s := Tracer().Start(ctx, name, trace.WithSpanKind(spanKind(kind)), trace.WithAttributes(kv...))
	sp := mcpSpan{s}
	return tracing.ContextWithSpan(ctx, sp), sp
}

func spanKind(k tracing.SpanKind) trace.SpanKind {
	switch k {
	case tracing.SpanKindServer:
		return trace.SpanKindServer
	case tracing.SpanKindClient:
		return trace.SpanKindClient
	case tracing.SpanKindInternal:
		return trace.SpanKindInternal
	}
	return trace.SpanKindUnspecified
}

type mcpSpan struct{ s trace.Span }

func (m mcpSpan) SetAttributes(attrs ...tracing.Attribute) {
	for _, a := range attrs {
		m.s.SetAttributes(attribute.String(a.Key, a.Value))
	}
}
func (m mcpSpan) RecordError(err error) { m.s.RecordError(err) }
func (m mcpSpan) SetStatus(code tracing.StatusCode, description string) {
	switch code {
	case tracing.StatusError:
		m.s.SetStatus(codes.Error, description)
	case tracing.StatusOK:
		m.s.SetStatus(codes.Ok, description)
	}
}
func (m mcpSpan) End() { m.s.End() }

// headerPropagator adapts the global propagator to mcp-go's HTTP headers.
type headerPropagator struct{}

func (headerPropagator) Inject(ctx context.Context, h http.Header) {
	otel.GetTextMapPropagator().Inject(ctx, propagation.HeaderCarrier(h))
}

func (headerPropagator) Extract(ctx context.Context, h http.Header) context.Context {
	if h == nil {
		return ctx
	}
	return otel.GetTextMapPropagator().Extract(ctx, propagation.HeaderCarrier(h))
}

// metaPropagator carries the trace context in a request's _meta
// (traceparent, tracestate, baggage as string fields).
type metaPropagator struct{}

func (metaPropagator) InjectMeta(ctx context.Context, meta *mcp.Meta) *mcp.Meta {
	c := propagation.MapCarrier{}
	otel.GetTextMapPropagator().Inject(ctx, c)
	if len(c) == 0 {
		return meta
	}
	if meta == nil {
		meta = &mcp.Meta{}
	}
	if meta.AdditionalFields == nil {
		meta.AdditionalFields = map[string]any{}
	}
	for k, v := range c {
		meta.AdditionalFields[k] = v
	}
	return meta
}

func (metaPropagator) ExtractMeta(ctx context.Context, meta *mcp.Meta) context.Context {
	if meta == nil || len(meta.AdditionalFields) == 0 {
		return ctx
	}
	c := propagation.MapCarrier{}
	for _, k := range otel.GetTextMapPropagator().Fields() {
		if v, ok := meta.AdditionalFields[k].(string); ok {
			c[k] = v
		}
	}
	if len(c) == 0 {
		return ctx
	}
	return otel.GetTextMapPropagator().Extract(ctx, c)
}
