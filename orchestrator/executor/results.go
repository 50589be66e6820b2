package executor

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
func newResultCache(cfg config.ResultCacheConfig, m Metrics) *resultcache.Cache {
	if !cfg.Enabled {
		return nil
	}
	return resultcache.New(resultcache.Config{TTL: cfg.TTL, MaxBytes: cfg.MaxBytes, MaxStale: cfg.MaxStale}, nil,
		func(evicted int, bytes int64) { m.ResultCacheChanged(evicted, bytes) })
}

// cachedResult returns a fresh cached result of sql on exec, marked as a
// hit, or nil (and the key to store the result under).
func (ex *Executor) cachedResult(log *slog.Logger, exec *mcpclient.Conn, sql string, maxRows int) (resultcache.Key, *QueryData) {
	if ex.results == nil {
		return resultcache.Key{}, nil
	}
	key := resultcache.NewKey(exec.ID(), sql, maxRows)
	v, age, ok := ex.results.Get(key)
	if !ok {
		ex.metrics.ResultCacheLookup(false)
		return key, nil
	}
	ex.metrics.ResultCacheLookup(true)
	d := v.(*QueryData).served(ResultCacheHit, age)
	log.Info("sql result served from the result cache", "event", "result_cache_hit", "component", "cache",
		"server", exec.ID(), "age_s", *d.AgeS, "row_count", d.RowCount)
	return key, d
}

// storeResult caches data (whose JSON was size bytes) under key and marks
// it a miss. data must not change afterwards; the caller gets a copy.
func (ex *Executor) storeResult(key resultcache.Key, data *QueryData, size int) *QueryData {
	if ex.results == nil {
		return data
	}
	ex.results.Put(key, data, size+resultEntryOverhead, data.DataVersion)
	d := *data
	d.ResultCache = ResultCacheMiss
	return &d
}

// Stale returns a cached result of sql on server, at most max_stale
// old whatever its freshness, marked stale: for answering while the
// executor is down. nil when there is none (or stale serving is off).
func (ex *Executor) Stale(log *slog.Logger, serverID, sql string, maxRows int, cause error) *QueryData {
	if ex.results == nil {
		return nil
	}
	v, age, ok := ex.results.GetStale(resultcache.NewKey(serverID, sql, maxRows))
	if !ok {
		return nil
	}
	ex.metrics.ResultCacheStaleServed()
	d := v.(*QueryData).served(ResultCacheStale, age)
	d.Stale = true
	log.Warn("executor down; serving a stale cached result", "event", "result_cache_stale", "component", "cache",
		"server", serverID, "age_s", *d.AgeS, "error", cause.Error())
	return d
}

// DataChanged makes the cached results of server id misses (its data may
// have changed: it reconnected); all does so for every server (a server said
// its resources changed: a new database or catalog).
func (ex *Executor) DataChanged(id string, all bool) {
	if ex.results == nil {
		return
	}
	if all {
		ex.results.InvalidateAll()
		return
	}
	ex.results.Invalidate(id)
}

// served is a copy of a cached result marked with how it was served.
func (d *QueryData) served(how string, age time.Duration) *QueryData {
	c := *d
	c.ResultCache = how
	a := resultcache.Age(age)
	c.AgeS = &a
	return &c
}
