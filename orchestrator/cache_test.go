package orchestrator

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/internal/llmtest"
	"talk2tables/orchestrator/resources"
)

// cacheRig is an orchestrator whose metadata server counts its reads.
func cacheRig(t testing.TB, failFast bool) (*Orchestrator, *resourceServer) {
	t.Helper()
	f := newFixture(t)
	cfg := inprocConfig()
	cfg.Orchestration.FailFast = &failFast
	meta := newResourceServer("meta", map[string]string{
		"metadata://a": `{"x":1}`,
		"metadata://b": `not json`,
	}, nil)
	o := newOrch(t, cfg, WithGenerator(llmGen(t, llmtest.New(t))),
		WithInProcessServer("database_mcp", f.dbServer(t)), WithInProcessServer("product_metadata_mcp", meta.s))
	return o, meta
}

func TestCacheHitExpiryInvalidation(t *testing.T) {
	o, meta := cacheRig(t, false)
	ctx := context.Background()

	g, err := o.cache.Gather(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if got := g.CacheStatus(); got != "miss" {
		t.Errorf("first gather cache = %s, want miss", got)
	}
	if got := meta.reads.Load(); got != 2 {
		t.Errorf("reads = %d, want 2", got)
	}
	if v := g.Snaps[0].Resources["metadata://b"]; v != "not json" {
		t.Errorf("text resource = %#v, want the raw string", v)
	}

	g, _ = o.cache.Gather(ctx, "t")
	if got := g.CacheStatus(); got != "hit" || meta.reads.Load() != 2 {
		t.Errorf("second gather cache = %s, reads = %d; want hit, 2", got, meta.reads.Load())
	}

	// Expiry: a short TTL, then a refetch.
	o.cache.SetTTL(20 * time.Millisecond)
	o.cache.Invalidate("product_metadata_mcp")
	o.cache.Invalidate("database_mcp")
	if _, err := o.cache.Gather(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	before := meta.reads.Load()
	eventually(t, "expiry", func() bool {
		// Both entries: the two servers were fetched a moment apart.
		_, metaExpired := o.cache.Lookup("product_metadata_mcp", time.Now())
		_, dbExpired := o.cache.Lookup("database_mcp", time.Now())
		return metaExpired && dbExpired
	})
	g, _ = o.cache.Gather(ctx, "t")
	if got := meta.reads.Load(); got != before+2 || g.CacheStatus() != "miss" {
		t.Errorf("after expiry reads = %d (want %d), cache = %s", got, before+2, g.CacheStatus())
	}

	// An error from the server invalidates its entry: no stale data later.
	o.cache.SetTTL(time.Hour)
	meta.fail.Store(true)
	o.cache.Invalidate("product_metadata_mcp")
	g, err = o.cache.Gather(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Missing) != 1 || g.Missing[0] != "product_metadata_mcp" {
		t.Errorf("missing = %v, want product_metadata_mcp", g.Missing)
	}
	if s, _ := o.cache.Lookup("product_metadata_mcp", time.Now()); s != nil {
		t.Errorf("failed fetch was cached")
	}
	meta.fail.Store(false)
	if g, _ = o.cache.Gather(ctx, "t"); len(g.Missing) != 0 {
		t.Errorf("missing after recovery = %v", g.Missing)
	}
}

func TestCacheFailFastResourceError(t *testing.T) {
	o, meta := cacheRig(t, true)
	meta.fail.Store(true)
	_, err := o.Process(context.Background(), Query{Question: "q"})
	var re *resources.ResourceFetchError
	if !errors.As(err, &re) || re.Server != "product_metadata_mcp" || re.Phase != resources.PhaseData {
		t.Fatalf("Process = %v, want ResourceFetchError(data) naming product_metadata_mcp", err)
	}
}

func TestCacheSingleflight(t *testing.T) {
	o, meta := cacheRig(t, false)
	meta.delay.Store(int64(50 * time.Millisecond))
	o.cache.Invalidate("product_metadata_mcp")
	before := meta.reads.Load()
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if _, err := o.cache.Gather(context.Background(), "t"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := meta.reads.Load() - before; got != 2 {
		t.Errorf("reads for 10 concurrent cold gathers = %d, want 2 (one fetch)", got)
	}
}

func TestCacheInvalidatedByNotification(t *testing.T) {
	o, meta := cacheRig(t, false)
	if _, err := o.cache.Gather(context.Background(), "t"); err != nil {
		t.Fatal(err)
	}
	if s, _ := o.cache.Lookup("product_metadata_mcp", time.Now()); s == nil {
		t.Fatal("not cached")
	}
	meta.s.SendNotificationToAllClients(string(mcp.MethodNotificationResourceUpdated), map[string]any{"uri": "metadata://a"})
	eventually(t, "invalidation", func() bool {
		s, _ := o.cache.Lookup("product_metadata_mcp", time.Now())
		return s == nil
	})
}
