package telemetry

import (
	"net/http"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/trace"
)

// HTTPTransport wraps base so that each request is a client span named
// "<what> <METHOD>" carrying the operation id of its context, and sends the
// trace context along (traceparent). With tracing off it returns base.
func HTTPTransport(base http.RoundTripper, what string) http.RoundTripper {
	if !Enabled() {
		return base
	}
	return otelhttp.NewTransport(&operationTransport{base: base},
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return what + " " + r.Method }))
}

// operationTransport adds the context's operation id to the request's
// span (the one otelhttp started around it).
type operationTransport struct{ base http.RoundTripper }

func (t *operationTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if id := OperationID(r.Context()); id != "" {
		trace.SpanFromContext(r.Context()).SetAttributes(AttrOperationID.String(id))
	}
	return t.base.RoundTrip(r)
}
