// Package telemetry is talk2tables' OpenTelemetry tracing: setup from the
// standard OTEL_EXPORTER_OTLP_* variables, the tracer every package starts
// its spans with, and the adapters that let mcp-go's clients and servers
// carry the W3C trace context over MCP — as HTTP headers on the HTTP
// transports and in the request's _meta on every transport (stdio
// included).
//
// Tracing is off unless an OTLP endpoint is configured: then no SDK is
// installed, the tracer is OpenTelemetry's no-op one and the MCP adapters
// are not installed at all, so it costs nothing.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"
)

// InstrumentationName names talk2tables' tracer.
const InstrumentationName = "talk2tables"

// Attribute keys shared by the packages' spans.
const (
	AttrOperationID = attribute.Key("talk2tables.operation_id")
	AttrServer      = attribute.Key("mcp.server")
	AttrMCPMethod   = attribute.Key("mcp.method")
	AttrMCPTool     = attribute.Key("mcp.tool.name")
	AttrMCPResource = attribute.Key("mcp.resource.uri")
	AttrAttempt     = attribute.Key("talk2tables.attempt")
	AttrCategory    = attribute.Key("talk2tables.error.category")
	AttrGenerator   = attribute.Key("talk2tables.generator")
	AttrRows        = attribute.Key("talk2tables.row_count")
	AttrResultCache = attribute.Key("talk2tables.result_cache")
	AttrPromptToks  = attribute.Key("gen_ai.usage.input_tokens")
	AttrOutputToks  = attribute.Key("gen_ai.usage.output_tokens")
)

// enabled is set once a tracer provider is installed.
var enabled atomic.Bool

// noopSpan is what Start returns while tracing is off.
var noopSpan = trace.SpanFromContext(context.Background())

// Enabled reports whether spans are recorded and exported.
func Enabled() bool { return enabled.Load() }

// Tracer is the tracer of every talk2tables span (the no-op tracer while
// tracing is off).
func Tracer() trace.Tracer { return otel.Tracer(InstrumentationName) }

// Configured reports whether the environment asks for traces: an OTLP
// endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), and neither OTEL_SDK_DISABLED=true
// nor OTEL_TRACES_EXPORTER=none says otherwise.
func Configured() bool {
	if strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") || os.Getenv("OTEL_TRACES_EXPORTER") == "none" {
		return false
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Setup installs an OTLP/HTTP trace exporter configured by the standard
// OTEL_EXPORTER_OTLP_* variables (endpoint, headers, timeout, certificates,
// compression) when Configured, naming the process service (unless
// OTEL_SERVICE_NAME says otherwise). The returned function flushes and stops
// it; with tracing off it does nothing.
func Setup(ctx context.Context, service string) (shutdown func(context.Context) error, err error) {
	noop := func(context.Context) error { return nil }
	if !Configured() {
		return noop, nil
	}
	proto := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if proto == "" {
		proto = os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	if proto != "" && proto != "http/protobuf" {
		return noop, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL=%s is not supported: talk2tables exports OTLP over HTTP "+
			"(http/protobuf, port 4318 on collectors and Jaeger)", proto)
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return noop, fmt.Errorf("OTLP trace exporter: %w", err)
	}
	// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, read last, win.
	res, err := resource.New(ctx, resource.WithTelemetrySDK(), resource.WithAttributes(semconv.ServiceName(service)),
		resource.WithFromEnv())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return noop, fmt.Errorf("trace resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	Install(tp)
	return tp.Shutdown, nil
}

// Install makes tp the tracer provider of the process and turns tracing on:
// spans, the W3C trace-context and baggage propagators, and the MCP
// adapters of clients and servers built afterwards. Setup calls it; tests
// call it with an in-memory exporter's provider.
func Install(tp trace.TracerProvider) {
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	enabled.Store(true)
}

// Uninstall turns tracing off again (tests).
func Uninstall() {
	enabled.Store(false)
	otel.SetTracerProvider(trace.NewNoopTracerProvider())
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator())
}

type operationKey struct{}

// WithOperationID returns ctx carrying the operation id for the spans
// started under it (ctx itself while tracing is off).
func WithOperationID(ctx context.Context, id string) context.Context {
	if !Enabled() {
		return ctx
	}
	return context.WithValue(ctx, operationKey{}, id)
}

// OperationID returns the operation id ctx carries, or "".
func OperationID(ctx context.Context) string {
	id, _ := ctx.Value(operationKey{}).(string)
	return id
}

// Start starts a span named name under ctx, with the operation id ctx
// carries as an attribute, plus attrs.
func Start(ctx context.Context, name string, kind trace.SpanKind, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	if !Enabled() {
		return ctx, noopSpan // nothing allocated
	}
	if id := OperationID(ctx); id != "" {
		attrs = append(attrs, AttrOperationID.String(id))
	}
	return Tracer().Start(ctx, name, trace.WithSpanKind(kind), trace.WithAttributes(attrs...))
}

// End records err on span (status error) and ends it.
func End(span trace.Span, err error) {
	if err != nil && span.IsRecording() {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}
