package orchestrator

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"talk2tables/orchestrator/sqlgen"
	"talk2tables/sqlerr"
)

// Recovery outcomes counted by Metrics.
const (
	OutcomeRecovered         = "recovered"
	OutcomeFailed            = "failed"
	OutcomeStoppedPermission = "stopped_permission"
	OutcomeStoppedRepeat     = "stopped_repeat"
)

// Metrics are the orchestrator's Prometheus collectors. All methods are safe
// on a nil *Metrics, which records nothing.
type Metrics struct {
	llmDuration      prometheus.Histogram
	llmTokens        *prometheus.CounterVec
	mcpDuration      *prometheus.HistogramVec
	cacheHits        *prometheus.CounterVec
	cacheMisses      *prometheus.CounterVec
	sqlErrors        *prometheus.CounterVec
	recoveryAttempts *prometheus.CounterVec
	recoveryOutcomes *prometheus.CounterVec
	inFlight         prometheus.Gauge
	queries          *prometheus.CounterVec
	fallbacks        *prometheus.CounterVec
	circuitOpen      prometheus.Gauge
	resultCache      *prometheus.CounterVec // by event: hit, miss, stale, eviction
	resultCacheBytes prometheus.Gauge
	promptTokens     prometheus.Histogram // estimated tokens of each LLM prompt
}

// NewMetrics creates the collectors and registers them with reg (nil reg:
// created but not registered).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		llmDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "talk2tables_llm_request_duration_seconds", Help: "SQL generation latency per generator call.",
			Buckets: []float64{.01, .05, .1, .25, .5, 1, 2, 5, 10, 30},
		}),
		llmTokens: counterVec("talk2tables_llm_tokens_total", "LLM tokens used, by kind (prompt, completion).", "kind"),
		mcpDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "talk2tables_mcp_call_duration_seconds", Help: "MCP call latency by server and method.",
			Buckets: []float64{.0005, .001, .005, .01, .05, .1, .25, .5, 1, 5, 15},
		}, []string{"server", "method"}),
		cacheHits:        counterVec("talk2tables_resource_cache_hits_total", "Resource cache hits by server.", "server"),
		cacheMisses:      counterVec("talk2tables_resource_cache_misses_total", "Resource cache misses (cold or expired) by server.", "server"),
		sqlErrors:        counterVec("talk2tables_sql_errors_total", "Failed SQL attempts by error category.", "category"),
		recoveryAttempts: counterVec("talk2tables_recovery_attempts_total", "Repair attempts by the category being repaired.", "category"),
		recoveryOutcomes: counterVec("talk2tables_recovery_outcomes_total", "How error recovery ended.", "outcome"),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "talk2tables_queries_in_flight", Help: "Questions being processed.",
		}),
		queries: counterVec("talk2tables_queries_total", "Questions processed by outcome (success, error).", "outcome"),
		fallbacks: counterVec("talk2tables_llm_fallbacks_total",
			"Questions answered by the fallback generator, by cause (llm_failed, circuit_open, not_configured).", "cause"),
		circuitOpen: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "talk2tables_llm_circuit_open", Help: "1 while the LLM circuit breaker skips the LLM (open or half-open), else 0.",
		}),
		resultCache: counterVec("talk2tables_result_cache_total",
			"Result cache events: hit, miss, stale (served while the executor was down), eviction.", "event"),
		resultCacheBytes: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "talk2tables_result_cache_bytes", Help: "Size of the cached SQL results (their JSON).",
		}),
		promptTokens: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "talk2tables_llm_prompt_tokens", Help: "Estimated tokens (characters / 4) of each LLM prompt, first tries and repairs.",
			Buckets: []float64{500, 1000, 2000, 4000, 6000, 8000, 12000, 16000, 32000, 64000, 128000},
		}),
	}
	if reg != nil {
		reg.MustRegister(m.llmDuration, m.llmTokens, m.mcpDuration, m.cacheHits, m.cacheMisses,
			m.sqlErrors, m.recoveryAttempts, m.recoveryOutcomes, m.inFlight, m.queries, m.fallbacks, m.circuitOpen,
			m.resultCache, m.resultCacheBytes, m.promptTokens)
	}
	return m
}

// counterVec is a counter with one label.
func counterVec(name, help, label string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{label})
}

func (m *Metrics) observeLLM(d time.Duration, prompt, completion int) {
	if m == nil {
		return
	}
	m.llmDuration.Observe(d.Seconds())
	if prompt > 0 {
		m.llmTokens.WithLabelValues("prompt").Add(float64(prompt))
	}
	if completion > 0 {
		m.llmTokens.WithLabelValues("completion").Add(float64(completion))
	}
}

func (m *Metrics) observePrompt(tokens int) {
	if m != nil {
		m.promptTokens.Observe(float64(tokens))
	}
}

// ObserveMCP records how long one MCP call to server took.
func (m *Metrics) ObserveMCP(server, method string, d time.Duration) {
	if m == nil {
		return
	}
	m.mcpDuration.WithLabelValues(server, method).Observe(d.Seconds())
}

// CacheHit counts a resource cache hit of server.
func (m *Metrics) CacheHit(server string) {
	if m != nil {
		m.cacheHits.WithLabelValues(server).Inc()
	}
}

// CacheMiss counts a resource cache miss (cold or expired) of server.
func (m *Metrics) CacheMiss(server string) {
	if m != nil {
		m.cacheMisses.WithLabelValues(server).Inc()
	}
}

// ResultCacheLookup counts a result cache hit or miss.
func (m *Metrics) ResultCacheLookup(hit bool) {
	if m == nil {
		return
	}
	if hit {
		m.resultCache.WithLabelValues("hit").Inc()
	} else {
		m.resultCache.WithLabelValues("miss").Inc()
	}
}

// ResultCacheStaleServed counts a stale result served while its executor was down.
func (m *Metrics) ResultCacheStaleServed() {
	if m != nil {
		m.resultCache.WithLabelValues("stale").Inc()
	}
}

// ResultCacheChanged records evictions and the result cache's size.
func (m *Metrics) ResultCacheChanged(evicted int, bytes int64) {
	if m == nil {
		return
	}
	if evicted > 0 {
		m.resultCache.WithLabelValues("eviction").Add(float64(evicted))
	}
	m.resultCacheBytes.Set(float64(bytes))
}

func (m *Metrics) sqlError(c sqlerr.Category) {
	if m != nil {
		m.sqlErrors.WithLabelValues(string(c)).Inc()
	}
}

func (m *Metrics) recoveryAttempt(c sqlerr.Category) {
	if m != nil {
		m.recoveryAttempts.WithLabelValues(string(c)).Inc()
	}
}

func (m *Metrics) recoveryOutcome(outcome string) {
	if m != nil {
		m.recoveryOutcomes.WithLabelValues(outcome).Inc()
	}
}

func (m *Metrics) fallback(cause string) {
	if m != nil && cause != "" {
		m.fallbacks.WithLabelValues(cause).Inc()
	}
}

func (m *Metrics) circuitState(state string) {
	if m == nil {
		return
	}
	if state == sqlgen.CircuitClosed {
		m.circuitOpen.Set(0)
	} else {
		m.circuitOpen.Set(1)
	}
}

func (m *Metrics) queryStarted() {
	if m != nil {
		m.inFlight.Inc()
	}
}

func (m *Metrics) queryFinished(ok bool) {
	if m == nil {
		return
	}
	m.inFlight.Dec()
	outcome := "success"
	if !ok {
		outcome = "error"
	}
	m.queries.WithLabelValues(outcome).Inc()
}
