package server

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"

	"talk2tables/telemetry"
)

// traceRequest makes each request a server span ("POST /api/query"),
// continuing the caller's trace when it sends a W3C traceparent header, with
// the request id as the operation id. It does nothing while tracing is off.
func (a *api) traceRequest(c *gin.Context) {
	if !telemetry.Enabled() {
		c.Next()
		return
	}
	r := c.Request
	ctx := otel.GetTextMapPropagator().Extract(r.Context(), propagation.HeaderCarrier(r.Header))
	ctx = telemetry.WithOperationID(ctx, requestIDOf(c))
	route := c.FullPath()
	if route == "" {
		route = "unmatched"
	}
	ctx, span := telemetry.Start(ctx, r.Method+" "+route, trace.SpanKindServer,
		semconv.HTTPRequestMethodKey.String(r.Method), semconv.HTTPRoute(route), semconv.URLPath(r.URL.Path))
	defer span.End()
	c.Request = r.WithContext(ctx)
	c.Next()
	status := c.Writer.Status()
	span.SetAttributes(semconv.HTTPResponseStatusCode(status))
	if status >= http.StatusInternalServerError {
		span.SetStatus(codes.Error, http.StatusText(status))
	}
}
