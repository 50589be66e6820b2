// Package executor runs SQL on an executor MCP server: the static checks
// the database does not do itself, the result cache, validation and
// execution through the server's SQL tool, the result shapes of any
// executor (database-mcp's and third-party ones), the bounds on what is
// accepted, and the database faults an executor reports.
package executor

import (
	"time"

	"talk2tables/config"
	"talk2tables/orchestrator/resultcache"
)

// Stages Run reports to its stage callback.
const (
	StageValidating = "validating"
	StageExecuting  = "executing"
)

// Executor runs SQL on the executors of a configuration. It is safe for
// concurrent use.
type Executor struct {
	cfg     *config.Config
	metrics Metrics
	results *resultcache.Cache // nil when orchestration.result_cache is off
}

// Metrics records what the executor observes; the orchestrator's
// Prometheus collectors implement it.
type Metrics interface {
	ResultCacheLookup(hit bool)
	ResultCacheStaleServed()
	ResultCacheChanged(evicted int, bytes int64)
}

type noMetrics struct{}

func (noMetrics) ResultCacheLookup(bool)        {}
func (noMetrics) ResultCacheStaleServed()       {}
func (noMetrics) ResultCacheChanged(int, int64) {}

// New returns the executor of cfg, with the result cache its
// orchestration.result_cache asks for; m may be nil.
func New(cfg *config.Config, m Metrics) *Executor {
	if m == nil {
		m = noMetrics{}
	}
	return &Executor{cfg: cfg, metrics: m, results: newResultCache(cfg.Orchestration.ResultCache, m)}
}

// ms converts a duration to fractional milliseconds for logs.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
