package server

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
)

// Context keys set by the middleware.
const (
	requestIDKey = "talk2tables.request_id"
	routeKey     = "talk2tables.route"
	clientKey    = "talk2tables.client"
	openAIKey    = "talk2tables.openai"
)

// maxRequestIDLength bounds an accepted X-Request-ID.
const maxRequestIDLength = 128

// requestID accepts a sane X-Request-ID or generates one, echoes it and
// stores it for the handlers (it becomes the operation_id).
func (a *api) requestID(c *gin.Context) {
	id := c.GetHeader("X-Request-ID")
	if !validRequestID(id) {
		id = newRequestID()
	}
	c.Set(requestIDKey, id)
	c.Header("X-Request-ID", id)
	c.Next()
}

// validRequestID reports whether id is 1..128 characters of [A-Za-z0-9._-].
func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		ch := id[i]
		switch {
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9',
			ch == '.', ch == '_', ch == '-':
		default:
			return false
		}
	}
	return true
}

// newRequestID returns 16 random bytes in hex.
func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b[:])
}

// requestIDOf returns the request id set by the requestID middleware.
func requestIDOf(c *gin.Context) string { return c.GetString(requestIDKey) }

// routeOf names the matched route for logs and metrics (bounded
// cardinality: unmatched paths are "unmatched").
func routeOf(c *gin.Context) string {
	if r := c.GetString(routeKey); r != "" {
		return r
	}
	if r := c.FullPath(); r != "" {
		return r
	}
	return "unmatched"
}

// clientOf names the caller for logs and rate limiting: the index of its
// API key ("key:0") when one was given, else its IP address. Never the key.
func clientOf(c *gin.Context) string {
	if id := c.GetString(clientKey); id != "" {
		return id
	}
	return c.ClientIP()
}

// accessLog logs one "http_request" event per request and records the HTTP
// metrics. It never logs bodies or the Authorization header.
// statusClientClosed is the gin context key a streaming handler sets when
// its client disconnected after the response had started; the access log
// then records statusClientClosedRequest instead of the 200 already sent.
const (
	statusClientClosed        = "talk2tables.client_closed"
	statusClientClosedRequest = 499
)

func (a *api) accessLog(c *gin.Context) {
	start := time.Now()
	a.metrics.inFlight.Inc()
	defer a.metrics.inFlight.Dec()
	c.Next()
	d := time.Since(start)
	route, status := routeOf(c), c.Writer.Status()
	if c.GetBool(statusClientClosed) {
		status = statusClientClosedRequest
	}
	a.metrics.duration.WithLabelValues(route, c.Request.Method, strconv.Itoa(status)).Observe(d.Seconds())
	level := levelFor(status)
	if status == http.StatusServiceUnavailable && (c.Writer.Header().Get("Retry-After") != "" || route == "/health") {
		// A known state with its own log line (a database that cannot
		// serve: event database_error once; a server down; shutting
		// down), which /health reports: not one WARN per request or
		// health probe while it lasts.
		level = slog.LevelInfo
	}
	a.logger.LogAttrs(c.Request.Context(), level, "http request",
		slog.String("event", "http_request"),
		slog.String("method", c.Request.Method),
		slog.String("route", route),
		slog.String("path", c.Request.URL.Path),
		slog.Int("status", status),
		slog.Float64("duration_ms", float64(d.Microseconds())/1000),
		slog.String("request_id", requestIDOf(c)),
		slog.String("client", clientOf(c)),
		slog.Int("bytes", c.Writer.Size()),
	)
}

// recovery turns a panic into the JSON 500 of the error funnel; the panic
// value and stack go to the log only.
func (a *api) recovery(c *gin.Context) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		if v == http.ErrAbortHandler { //nolint:errorlint // sentinel compared as net/http does
			panic(v)
		}
		a.fail(c, fmt.Errorf("panic: %v\n%s", v, debug.Stack()), nil)
	}()
	c.Next()
}

// cors answers preflight requests and sets the CORS headers for the
// configured origins ("*" allows any).
func (a *api) cors(origins []string) gin.HandlerFunc {
	anyOrigin := slices.Contains(origins, "*")
	allowed := func(o string) bool { return anyOrigin || slices.Contains(origins, o) }
	return func(c *gin.Context) {
		origin := c.GetHeader("Origin")
		preflight := c.Request.Method == http.MethodOptions && c.GetHeader("Access-Control-Request-Method") != ""
		if origin == "" || len(origins) == 0 {
			if preflight {
				c.Set(routeKey, "preflight")
				a.fail(c, badRequest(http.StatusForbidden, "cors_not_allowed",
					"cross-origin requests are not enabled; add the origin to http.cors_origins", ""), nil)
				return
			}
			c.Next()
			return
		}
		c.Header("Vary", "Origin")
		if !allowed(origin) {
			if preflight {
				c.Set(routeKey, "preflight")
				a.fail(c, badRequest(http.StatusForbidden, "cors_not_allowed",
					"origin "+origin+" is not allowed; add it to http.cors_origins", ""), nil)
				return
			}
			c.Next() // the browser blocks the response: no CORS headers
			return
		}
		c.Header("Access-Control-Allow-Origin", origin)
		c.Header("Access-Control-Expose-Headers", "X-Request-ID, Retry-After")
		if preflight {
			c.Set(routeKey, "preflight")
			c.Header("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE, OPTIONS")
			c.Header("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, X-Request-ID, X-Talk2tables-Client")
			c.Header("Access-Control-Max-Age", "600")
			c.AbortWithStatus(http.StatusNoContent)
			return
		}
		c.Next()
	}
}

// limitBody caps the request body at cfg.MaxBodyBytes; a declared length
// over the cap is refused at once.
func (a *api) limitBody(c *gin.Context) {
	if c.Request.ContentLength > a.cfg.MaxBodyBytes {
		a.fail(c, &http.MaxBytesError{Limit: a.cfg.MaxBodyBytes}, nil)
		return
	}
	if c.Request.Body != nil {
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, a.cfg.MaxBodyBytes)
	}
	c.Next()
}

// auth requires "Authorization: Bearer <key>" when API keys are configured.
func (a *api) auth(c *gin.Context) {
	if len(a.keys) == 0 {
		c.Next()
		return
	}
	const prefix = "bearer "
	h := c.GetHeader("Authorization")
	if len(h) <= len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		c.Header("WWW-Authenticate", `Bearer realm="talk2tables"`)
		a.fail(c, badRequest(http.StatusUnauthorized, "unauthorized",
			"an API key is required: send the header Authorization: Bearer <key>", ""), nil)
		return
	}
	given := []byte(strings.TrimSpace(h[len(prefix):]))
	match := -1
	for i, k := range a.keys { // compare with every key: timing reveals nothing
		if subtle.ConstantTimeCompare(given, k) == 1 && match < 0 {
			match = i
		}
	}
	if match < 0 {
		c.Header("WWW-Authenticate", `Bearer realm="talk2tables", error="invalid_token"`)
		a.fail(c, badRequest(http.StatusUnauthorized, "unauthorized",
			"the API key is not valid; check the key in the Authorization header", ""), nil)
		return
	}
	if match >= a.viewers {
		name := a.editors[match-a.viewers]
		c.Set(editorKey, name)
		c.Set(clientKey, "editor:"+name)
	} else {
		c.Set(clientKey, "key:"+strconv.Itoa(match))
	}
	c.Next()
}

// rateLimit applies the per-client token bucket.
func (a *api) rateLimit(c *gin.Context) {
	if a.limiter == nil {
		c.Next()
		return
	}
	wait, ok := a.limiter.allow(clientOf(c), time.Now())
	if !ok {
		secs := max(1, int((wait+time.Second-1)/time.Second))
		a.fail(c, &apiError{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message:    fmt.Sprintf("too many requests; retry after %d s", secs),
			RetryAfter: secs}, nil)
		return
	}
	c.Next()
}

// openAIShape marks the OpenAI-compatible routes so the error funnel writes
// OpenAI-style error bodies there.
func openAIShape(c *gin.Context) {
	c.Set(openAIKey, true)
	c.Next()
}

func wantsOpenAIShape(c *gin.Context) bool { return c.GetBool(openAIKey) }

// httpMetrics are the server's own Prometheus metrics.
type httpMetrics struct {
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge
}

// newHTTPMetrics registers the HTTP metrics on reg, reusing collectors that
// an earlier New already registered there.
func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "talk2tables_http_request_duration_seconds",
			Help:    "HTTP request latency by route, method and status.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route", "method", "status"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "talk2tables_http_requests_in_flight",
			Help: "HTTP requests being served.",
		}),
	}
	m.duration = register(reg, m.duration)
	m.inFlight = register(reg, m.inFlight)
	return m
}

// register registers c, or returns the collector already registered.
func register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
	if err := reg.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			if existing, ok := are.ExistingCollector.(C); ok {
				return existing
			}
		}
		panic(fmt.Sprintf("register metric: %v", err)) // a programming error
	}
	return c
}

// levelFor is the access-log level of a status: server failures stand out.
func levelFor(status int) slog.Level {
	if status >= 500 {
		return slog.LevelWarn
	}
	return slog.LevelInfo
}
