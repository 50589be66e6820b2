// Package server is the HTTP face of talk2tables: a Gin API over the
// orchestrator (/api/query with JSON or SSE, /api/sql, /api/servers,
// /api/resources), /health, Prometheus /metrics, an OpenAI-compatible
// chat-completions endpoint and the embedded web UI.
//
// Every endpoint shares the same middleware: a request id (X-Request-ID,
// used as the orchestrator's operation_id), a structured access log, HTTP
// metrics, panic recovery, CORS, a body-size limit, optional bearer API keys
// and per-client rate limiting. Every error goes through one funnel
// (errors.go) that maps it to a status and a safe JSON body.
package server

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"talk2tables/config"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
)

// Orchestrator is what the server needs from the orchestrator; the real one
// is *orchestrator.Orchestrator.
type Orchestrator interface {
	Process(ctx context.Context, q orchestrator.Query) (*orchestrator.QueryResult, error)
	ExecuteSQLOn(ctx context.Context, server, sql string, maxRows int, operationID string) (*executor.QueryData, error)
	Servers() []mcpclient.ServerStatus
	Resources(ctx context.Context) ([]orchestrator.ResourceSnapshot, error)
	Health() mcpclient.Health
	GeneratorName() string
}

// ModelName is the model id talk2tables answers to on the OpenAI-compatible
// endpoints.
const ModelName = "talk2tables"

// Limits applied when the configuration leaves a field at zero.
const (
	defaultMaxBodyBytes      = 64 << 10
	defaultMaxQuestionLength = 2000
	defaultMaxRows           = 500
	defaultMaxRowsLimit      = 10000
	defaultRateBurst         = 40
)

// api holds the handlers' shared state.
type api struct {
	orch    Orchestrator
	cfg     config.HTTPConfig
	logger  *slog.Logger
	keys    [][]byte // API keys; empty means no auth
	viewers int      // keys[:viewers] may ask; keys[viewers:] are the editors', who may also teach
	editors []string // the editors' names, by place
	limiter *clientLimiter
	metrics *httpMetrics
	started time.Time
}

// New returns the HTTP handler for the whole service. cfg supplies limits,
// CORS origins, rate limits and the name of the environment variable holding
// API keys (read once, here). ui is the web UI, served at / (nil serves no
// UI). The HTTP metrics are registered on reg, which /metrics exposes (nil
// uses a fresh registry). Options add optional parts (WithMCP).
func New(orch Orchestrator, cfg config.HTTPConfig, ui fs.FS, logger *slog.Logger, reg *prometheus.Registry, opts ...Option) http.Handler {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	cfg = withDefaults(cfg)
	a := &api{
		orch:    orch,
		cfg:     cfg,
		logger:  logger,
		keys:    parseKeys(os.Getenv(cfg.APIKeysEnv), cfg.APIKeysEnv),
		metrics: newHTTPMetrics(reg),
		started: time.Now(),
	}
	// Editor keys are API keys too, after the viewers' (auth tells them
	// apart by place).
	a.viewers = len(a.keys)
	var editorKeys [][]byte
	a.editors, editorKeys = parseEditorKeys(os.Getenv(cfg.EditorKeysEnv), cfg.EditorKeysEnv)
	a.keys = append(a.keys, editorKeys...)
	if cfg.RateLimit > 0 {
		a.limiter = newClientLimiter(cfg.RateLimit, cfg.RateBurst)
	}

	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	// The client address is the TCP peer: trusting X-Forwarded-For from
	// anyone would let a client pick its own rate-limit bucket.
	_ = r.SetTrustedProxies(nil)
	r.HandleMethodNotAllowed = true
	r.Use(a.requestID, a.traceRequest, a.accessLog, a.recovery, a.cors(cfg.CORSOrigins), a.limitBody)

	guarded := []gin.HandlerFunc{a.auth, a.rateLimit}
	apiGroup := r.Group("/api", guarded...)
	apiGroup.POST("/query", a.handleQuery)
	apiGroup.POST("/sql", a.handleSQL)
	apiGroup.GET("/servers", a.handleServers)
	apiGroup.GET("/resources", a.handleResources)
	if o.verified != nil {
		a.mountVerified(apiGroup, o.verified)
	}

	chat := append([]gin.HandlerFunc{openAIShape}, guarded...)
	v1 := r.Group("/v1", chat...)
	v1.POST("/chat/completions", a.handleChatCompletions)
	v1.GET("/models", a.handleModels)
	r.Group("/chat", chat...).POST("/completions", a.handleChatCompletions)

	a.mountMCP(r, o, guarded)

	r.GET("/health", a.handleHealth)
	switch {
	case cfg.MetricsAddr != "":
		// Served on its own listener (MetricsHandler); not here.
	case cfg.MetricsAuth:
		r.GET("/metrics", a.auth, gin.WrapH(MetricsHandler(reg)))
	default:
		r.GET("/metrics", gin.WrapH(MetricsHandler(reg)))
	}

	r.NoRoute(a.notFound(ui))
	r.NoMethod(func(c *gin.Context) {
		a.fail(c, badRequest(http.StatusMethodNotAllowed, "method_not_allowed",
			c.Request.Method+" is not supported on "+c.Request.URL.Path+"; see the API documentation for the allowed methods", ""), nil)
	})
	return r
}

// MetricsHandler serves the Prometheus metrics of reg, for the API's own
// /metrics or a separate http.metrics_addr listener.
func MetricsHandler(reg *prometheus.Registry) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
}

// KeysConfigured reports whether cfg names an API-keys (or editor-keys)
// variable that holds at least one key, so that the API requires one.
func KeysConfigured(cfg config.HTTPConfig) bool {
	_, editors := parseEditorKeys(os.Getenv(cfg.EditorKeysEnv), cfg.EditorKeysEnv)
	return len(parseKeys(os.Getenv(cfg.APIKeysEnv), cfg.APIKeysEnv)) > 0 || len(editors) > 0
}

// withDefaults fills zero limits with the documented defaults.
func withDefaults(cfg config.HTTPConfig) config.HTTPConfig {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = defaultMaxBodyBytes
	}
	if cfg.MaxQuestionLength <= 0 {
		cfg.MaxQuestionLength = defaultMaxQuestionLength
	}
	if cfg.MaxRowsLimit <= 0 {
		cfg.MaxRowsLimit = defaultMaxRowsLimit
	}
	if cfg.DefaultMaxRows <= 0 {
		cfg.DefaultMaxRows = defaultMaxRows
	}
	if cfg.DefaultMaxRows > cfg.MaxRowsLimit {
		cfg.DefaultMaxRows = cfg.MaxRowsLimit
	}
	if cfg.RateLimit > 0 && cfg.RateBurst <= 0 {
		cfg.RateBurst = max(defaultRateBurst, int(cfg.RateLimit))
	}
	return cfg
}

// parseKeys splits a comma-separated key list, dropping blanks.
func parseKeys(v, envName string) [][]byte {
	if envName == "" {
		return nil
	}
	var keys [][]byte
	for _, k := range strings.Split(v, ",") {
		if k = strings.TrimSpace(k); k != "" {
			keys = append(keys, []byte(k))
		}
	}
	return keys
}

// notFound serves the web UI for GET/HEAD outside the API prefixes and a
// JSON 404 otherwise.
func (a *api) notFound(ui fs.FS) gin.HandlerFunc {
	var files http.Handler
	if ui != nil {
		files = http.FileServer(http.FS(ui))
	}
	return func(c *gin.Context) {
		p := c.Request.URL.Path
		apiPath := strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/v1/") || strings.HasPrefix(p, "/chat/")
		if files != nil && !apiPath && (c.Request.Method == http.MethodGet || c.Request.Method == http.MethodHead) {
			c.Set(routeKey, "ui")
			files.ServeHTTP(c.Writer, c.Request)
			return
		}
		a.fail(c, badRequest(http.StatusNotFound, "not_found",
			"no endpoint at "+c.Request.Method+" "+p+"; the API lives under /api, /v1, /health and /metrics", ""), nil)
	}
}
