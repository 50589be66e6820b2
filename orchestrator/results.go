package orchestrator

import (
	"log/slog"
	"time"

	"talk2tables/config"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/resultcache"
)

// Values of QueryData.ResultCache.
const (
	ResultCacheHit   = "hit"
	ResultCacheMiss  = "miss"
	ResultCacheStale = "stale"
)

// resultEntryOverhead is added to each cached result's JSON size for the
// key and bookkeeping, so many tiny results still count.
const resultEntryOverhead = 256

// newResultCache returns the result cache the config asks for (nil when it
// is off), reporting evictions and size to m.
func newResultCache(cfg config.ResultCacheConfig, m *Metrics) *resultcache.Cache {
	if !cfg.Enabled {
		return nil
	}
	return resultcache.New(resultcache.Config{TTL: cfg.TTL, MaxBytes: cfg.MaxBytes, MaxStale: cfg.MaxStale}, nil,
		func(evicted int, bytes int64) { m.resultCacheChanged(evicted, bytes) })
}

// cachedResult returns a fresh cached result of sql on exec, marked as a
// hit, or nil (and the key to store the result under).
func (o *Orchestrator) cachedResult(log *slog.Logger, exec *mcpclient.Conn, sql string, maxRows int) (resultcache.Key, *QueryData) {
	if o.results == nil {
		return resultcache.Key{}, nil
	}
	key := resultcache.NewKey(exec.ID(), sql, maxRows)
	v, age, ok := o.results.Get(key)
	if !ok {
		o.metrics.resultCacheLookup(false)
		return key, nil
	}
	o.metrics.resultCacheLookup(true)
	d := v.(*QueryData).served(ResultCacheHit, age)
	log.Info("sql result served from the result cache", "event", "result_cache_hit", "component", "cache",
		"server", exec.ID(), "age_s", *d.AgeS, "row_count", d.RowCount)
	return key, d
}

// storeResult caches data (whose JSON was size bytes) under key and marks
// it a miss. data must not change afterwards; the caller gets a copy.
func (o *Orchestrator) storeResult(key resultcache.Key, data *QueryData, size int) *QueryData {
	if o.results == nil {
		return data
	}
	o.results.Put(key, data, size+resultEntryOverhead, data.DataVersion)
	d := *data
	d.ResultCache = ResultCacheMiss
	return &d
}

// staleResult returns a cached result of sql on server, at most max_stale
// old whatever its freshness, marked stale: for answering while the
// executor is down. nil when there is none (or stale serving is off).
func (o *Orchestrator) staleResult(log *slog.Logger, serverID, sql string, maxRows int, cause error) *QueryData {
	if o.results == nil {
		return nil
	}
	v, age, ok := o.results.GetStale(resultcache.NewKey(serverID, sql, maxRows))
	if !ok {
		return nil
	}
	o.metrics.resultCacheStaleServed()
	d := v.(*QueryData).served(ResultCacheStale, age)
	d.Stale = true
	log.Warn("executor down; serving a stale cached result", "event", "result_cache_stale", "component", "cache",
		"server", serverID, "age_s", *d.AgeS, "error", cause.Error())
	return d
}

// dataChanged makes the cached results of server id misses (its data may
// have changed: it reconnected); all does so for every server (a server said
// its resources changed: a new database or catalog).
func (o *Orchestrator) dataChanged(id string, all bool) {
	if o.results == nil {
		return
	}
	if all {
		o.results.InvalidateAll()
		return
	}
	o.results.Invalidate(id)
}

// served is a copy of a cached result marked with how it was served.
func (d *QueryData) served(how string, age time.Duration) *QueryData {
	c := *d
	c.ResultCache = how
	a := resultcache.Age(age)
	c.AgeS = &a
	return &c
}
