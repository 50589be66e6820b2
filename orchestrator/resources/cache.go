package resources

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/singleflight"

	"talk2tables/config"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/schema"
)

// maxParallelReads bounds concurrent resources/read calls to one server.
const maxParallelReads = 8

// Snapshot is an immutable view of one server's resources. Nothing
// may modify it after it is stored in the cache.
type Snapshot struct {
	ServerID  string
	Resources map[string]any // URI → parsed JSON value, or text
	// Schema is the server's schema resource (or the one discovered),
	// parsed once here for every reader; nil when it has none.
	Schema    *schema.Schema
	FetchedAt time.Time
	// Version is unique to this fetch (a counter bumped on every fetch of
	// any server), so generators may cache what they derive from Resources
	// by server id and version; 0 is the empty snapshot of a server with
	// no resources.
	Version uint64
}

type cacheEntry struct {
	snap    *Snapshot
	expires time.Time
}

// Cache is a TTL cache of resources keyed per server, with one
// fetch at a time per server (singleflight) and invalidation by generation.
// An executor without a schema resource gets one discovered through its
// SQL (discover.go), cached with its resources.
type Cache struct {
	pool    *mcpclient.Pool
	exec    *executor.Executor
	cfg     *config.Config
	log     *slog.Logger
	metrics Metrics
	ttl     time.Duration

	mu      sync.RWMutex
	entries map[string]cacheEntry
	gens    map[string]uint64
	sf      singleflight.Group
	fetches atomic.Uint64 // versions of snapshots
	// noResources are the (shared, immutable) snapshots of the servers
	// that advertise no resources, so their identity is stable across
	// questions.
	noResources map[string]*Snapshot
}

// Metrics records what the cache observes; the orchestrator's Prometheus
// collectors implement it.
type Metrics interface {
	CacheHit(server string)
	CacheMiss(server string)
}

type noMetrics struct{}

func (noMetrics) CacheHit(string)  {}
func (noMetrics) CacheMiss(string) {}

// New returns the cache of the pool's servers, with the TTL of
// orchestration.resource_cache_ttl; exec runs schema discovery. m may be
// nil.
func New(pool *mcpclient.Pool, exec *executor.Executor, cfg *config.Config, logger *slog.Logger, m Metrics) *Cache {
	if m == nil {
		m = noMetrics{}
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	rc := &Cache{pool: pool, exec: exec, cfg: cfg, log: logger, metrics: m, ttl: cfg.Orchestration.CacheTTL(),
		entries: map[string]cacheEntry{}, gens: map[string]uint64{}, noResources: map[string]*Snapshot{}}
	for _, c := range rc.pool.Conns() {
		rc.noResources[c.ID()] = &Snapshot{ServerID: c.ID()}
	}
	return rc
}

// Cached returns the server's snapshot as last stored, fresh or expired,
// without fetching.
func (rc *Cache) Cached(id string) (*Snapshot, bool) {
	rc.mu.RLock()
	defer rc.mu.RUnlock()
	e, ok := rc.entries[id]
	return e.snap, ok
}

// SetTTL changes how long a fetch stays fresh, for the fetches that follow.
func (rc *Cache) SetTTL(ttl time.Duration) {
	rc.mu.Lock()
	rc.ttl = ttl
	rc.mu.Unlock()
}

// Expire makes the server's entry expired now (the next Get refetches).
func (rc *Cache) Expire(id string) {
	rc.mu.Lock()
	if e, ok := rc.entries[id]; ok {
		e.expires = time.Now().Add(-time.Second)
		rc.entries[id] = e
	}
	rc.mu.Unlock()
}

// Invalidate drops a server's entry; a fetch already in flight for it will
// not be stored.
func (rc *Cache) Invalidate(id string) {
	rc.mu.Lock()
	delete(rc.entries, id)
	rc.gens[id]++
	rc.mu.Unlock()
}

// Lookup returns a fresh entry, and whether an expired one was there.
func (rc *Cache) Lookup(id string, now time.Time) (snap *Snapshot, expired bool) {
	rc.mu.RLock()
	e, ok := rc.entries[id]
	rc.mu.RUnlock()
	if !ok {
		return nil, false
	}
	if now.Before(e.expires) {
		return e.snap, false
	}
	return nil, true
}

// Get returns the server's resources from the cache or fetches them (one
// fetch per server however many callers wait).
func (rc *Cache) Get(ctx context.Context, c *mcpclient.Conn, opID string) (*Snapshot, bool, error) {
	if snap, expired := rc.Lookup(c.ID(), time.Now()); snap != nil {
		rc.metrics.CacheHit(c.ID())
		rc.log.Debug("resource cache hit", "event", "resource_cache_hit", "component", "cache",
			"operation_id", opID, "server", c.ID())
		return snap, true, nil
	} else if expired {
		rc.log.Info("resource cache expired", "event", "resource_cache_expired", "component", "cache",
			"operation_id", opID, "server", c.ID())
	} else {
		rc.log.Info("resource cache miss", "event", "resource_cache_miss", "component", "cache",
			"operation_id", opID, "server", c.ID())
	}
	rc.metrics.CacheMiss(c.ID())
	// The fetch outlives any single waiter: a caller that gives up must not
	// fail the others. Each MCP call still has its own timeout.
	ch := rc.sf.DoChan(c.ID(), func() (any, error) {
		return rc.fetch(context.WithoutCancel(ctx), c, opID)
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, false, r.Err
		}
		return r.Val.(*Snapshot), false, nil
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
}

// fetch lists and reads every resource of a server, in parallel, and stores
// the result unless the entry was invalidated meanwhile.
func (rc *Cache) fetch(ctx context.Context, c *mcpclient.Conn, opID string) (*Snapshot, error) {
	rc.mu.RLock()
	gen := rc.gens[c.ID()]
	rc.mu.RUnlock()
	log := rc.log.With("component", "cache", "operation_id", opID, "server", c.ID())

	list, err := rc.list(ctx, c, log)
	if err != nil {
		return nil, err
	}

	values := make([]any, len(list))
	kept := make([]bool, len(list))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(maxParallelReads)
	for i, r := range list {
		g.Go(func() error {
			t0 := time.Now()
			log.Info("resource fetch requested", "event", "resource_fetch_requested", "uri", r.URI)
			var res *mcp.ReadResourceResult
			err := c.Call(gctx, "resources/read", func(ctx context.Context, cl *client.Client) error {
				req := mcp.ReadResourceRequest{}
				req.Params.URI = r.URI
				var err error
				res, err = cl.ReadResource(ctx, req)
				return err
			})
			if err != nil {
				return fetchErr(c.ID(), r.URI, PhaseData, err)
			}
			values[i], kept[i] = admit(c, log, r.URI, res.Contents)
			log.Info("resource fetch completed", "event", "resource_fetch_completed", "uri", r.URI,
				"duration_ms", ms(time.Since(t0)))
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		rc.Invalidate(c.ID())
		return nil, err
	}
	res := make(map[string]any, len(list))
	for i, r := range list {
		if kept[i] {
			res[r.URI] = values[i]
		}
	}
	subscribeRead(ctx, c, res)
	typed := rc.addSchema(ctx, c, res)
	snap := &Snapshot{ServerID: c.ID(), Resources: res, Schema: typed, FetchedAt: time.Now(), Version: rc.fetches.Add(1)}
	rc.mu.Lock()
	if rc.ttl > 0 && rc.gens[c.ID()] == gen {
		rc.entries[c.ID()] = cacheEntry{snap: snap, expires: snap.FetchedAt.Add(rc.ttl)}
	}
	rc.mu.Unlock()
	return snap, nil
}

// list lists the server's resources (none when it offers no resources: an
// executor fetched only for its discovered schema).
func (rc *Cache) list(ctx context.Context, c *mcpclient.Conn, log *slog.Logger) ([]mcp.Resource, error) {
	if !Gathers(c) {
		return nil, nil
	}
	start := time.Now()
	log.Info("resource list requested", "event", "resource_list_requested")
	list, err := c.ListResources(ctx)
	if err != nil {
		rc.Invalidate(c.ID())
		return nil, fetchErr(c.ID(), "", PhaseList, err)
	}
	list = wanted(c, list)
	uris := make([]string, len(list))
	for i, r := range list {
		uris[i] = r.URI
	}
	c.SetResourceURIs(uris)
	log.Info("resource list received", "event", "resource_list_received", "count", len(list),
		"duration_ms", ms(time.Since(start)))
	return list, nil
}

// fetchErr keeps connection errors as they are (the caller branches on
// them) and wraps everything else in a ResourceFetchError.
func fetchErr(server, uri, phase string, err error) error {
	var ce *mcpclient.MCPConnectionError
	if errors.As(err, &ce) {
		return err
	}
	return &ResourceFetchError{Server: server, URI: uri, Phase: phase, Err: err}
}

// parseContents turns a resource's contents into a value: JSON text is
// parsed, other text kept as a string, blobs described. Several contents
// become a list.
func parseContents(cs []mcp.ResourceContents) any {
	one := func(c mcp.ResourceContents) any {
		switch v := c.(type) {
		case mcp.TextResourceContents:
			return parseText(v.Text)
		case *mcp.TextResourceContents:
			return parseText(v.Text)
		case mcp.BlobResourceContents:
			return fmt.Sprintf("<binary %s, %d base64 bytes>", v.MIMEType, len(v.Blob))
		case *mcp.BlobResourceContents:
			return fmt.Sprintf("<binary %s, %d base64 bytes>", v.MIMEType, len(v.Blob))
		}
		return nil
	}
	switch len(cs) {
	case 0:
		return nil
	case 1:
		return one(cs[0])
	}
	out := make([]any, len(cs))
	for i, c := range cs {
		out[i] = one(c)
	}
	return out
}

func parseText(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err == nil {
		return v
	}
	return s
}

// Gathered is the outcome of gathering resources from every server.
type Gathered struct {
	Snaps   []*Snapshot       // of the servers that answered, by priority
	Conns   []*mcpclient.Conn // parallel to Snaps
	Missing []string          // servers down or failing that are not required
	hits    int
	misses  int
}

// CacheStatus is "hit", "miss" or "partial".
func (g *Gathered) CacheStatus() string {
	switch {
	case g.misses == 0:
		return "hit"
	case g.hits == 0:
		return "miss"
	}
	return "partial"
}

// gather collects the resources of every server through the cache, in
// parallel. A required server down or failing is an error; any other is
// listed in missing.
func (rc *Cache) Gather(ctx context.Context, opID string) (*Gathered, error) {
	n := len(rc.pool.Conns())
	g := &Gathered{}
	snaps := make([]*Snapshot, n)
	errs := make([]error, n)
	var cold []int
	now := time.Now()
	for i, c := range rc.pool.Conns() {
		if c.State() != mcpclient.StateConnected {
			errs[i] = c.DownError()
			continue
		}
		if !Gathers(c) && !discovers(c) {
			snaps[i] = rc.noResources[c.ID()]
			g.hits++
			continue
		}
		if s, _ := rc.Lookup(c.ID(), now); s != nil {
			rc.metrics.CacheHit(c.ID())
			rc.log.Debug("resource cache hit", "event", "resource_cache_hit", "component", "cache",
				"operation_id", opID, "server", c.ID())
			snaps[i] = s
			g.hits++
			continue
		}
		cold = append(cold, i)
	}
	if len(cold) > 0 {
		var wg sync.WaitGroup
		for _, i := range cold {
			wg.Go(func() {
				snaps[i], _, errs[i] = rc.Get(ctx, rc.pool.Conns()[i], opID)
			})
		}
		wg.Wait()
		g.misses = len(cold)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, c := range rc.pool.Conns() {
		if errs[i] != nil {
			if rc.cfg.Required(c.ID()) {
				return nil, errs[i]
			}
			rc.log.Warn("mcp server skipped", "event", "error_occurred", "component", "orchestrator",
				"operation_id", opID, "server", c.ID(), "error", errs[i].Error())
			g.Missing = append(g.Missing, c.ID())
			continue
		}
		g.Snaps = append(g.Snaps, snaps[i])
		g.Conns = append(g.Conns, c)
	}
	return g, nil
}

// ms converts a duration to fractional milliseconds for logs.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
