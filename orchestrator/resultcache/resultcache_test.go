package resultcache

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// clock is a manual clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newCache(cfg Config) (*Cache, *clock) {
	clk := &clock{t: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)}
	return New(cfg, clk.now, nil), clk
}

func TestNormalize(t *testing.T) {
	same := []string{
		"SELECT region, SUM(x) FROM sales GROUP BY region",
		"  SELECT region,\n\tSUM(x)   FROM sales -- by region\n GROUP BY region ;",
		"SELECT /* c */ region, SUM(x) FROM sales GROUP BY region;;",
	}
	want := Normalize(same[0])
	for _, s := range same[1:] {
		if got := Normalize(s); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", s, got, want)
		}
	}
	different := []string{
		"SELECT Region, SUM(x) FROM sales GROUP BY region", // column label differs
		"SELECT region, SUM(x) FROM sales WHERE region = 'a  b' GROUP BY region",
		"SELECT region, SUM(x) FROM sales WHERE region = 'a b' GROUP BY region",
		`SELECT "region  x" FROM sales`,
		// Dialects read these differently, so they are kept apart: MySQL's
		// --1 is two minus signs, its backslash escapes a quote.
		"SELECT 1--1",
		"SELECT 1--2",
		`SELECT 'a\'  b' FROM sales`,
		`SELECT 'a\' b' FROM sales`,
	}
	seen := map[string]string{want: same[0]}
	for _, s := range different {
		n := Normalize(s)
		if prev, ok := seen[n]; ok {
			t.Errorf("Normalize(%q) = Normalize(%q) = %q, want them apart", s, prev, n)
		}
		seen[n] = s
	}
}

func TestHitMissAndTTL(t *testing.T) {
	c, clk := newCache(Config{TTL: time.Minute, MaxBytes: 1000})
	k := NewKey("db", "SELECT 1", 10)
	if _, _, ok := c.Get(k); ok {
		t.Fatal("hit on an empty cache")
	}
	c.Put(k, "one", 10, "v1")
	clk.add(12 * time.Second)
	v, age, ok := c.Get(NewKey("db", "SELECT 1 ;", 10))
	if !ok || v != "one" || age != 12*time.Second {
		t.Fatalf("Get = %v, %v, %v; want one, 12s, true", v, age, ok)
	}
	for _, other := range []Key{NewKey("db", "SELECT 1", 11), NewKey("db2", "SELECT 1", 10), NewKey("db", "SELECT 2", 10)} {
		if _, _, ok := c.Get(other); ok {
			t.Errorf("Get(%+v) hit an entry of another key", other)
		}
	}
	clk.add(time.Minute)
	if _, _, ok := c.Get(k); ok {
		t.Error("hit after the TTL")
	}
	if st := c.Stats(); st.Hits != 1 || st.Misses != 5 || st.Entries != 0 || st.Bytes != 0 {
		t.Errorf("stats = %+v, want 1 hit, 5 misses, the expired entry dropped", st)
	}
}

func TestDataVersionAndInvalidate(t *testing.T) {
	c, _ := newCache(Config{TTL: time.Hour, MaxBytes: 1000})
	a, b := NewKey("db", "SELECT a", 0), NewKey("db", "SELECT b", 0)
	c.Put(a, "a1", 10, "v1")
	c.Put(b, "b1", 10, "v1")
	if _, _, ok := c.Get(a); !ok {
		t.Fatal("miss right after Put")
	}
	// A result of new data (another version) makes the older entries misses.
	c.Put(b, "b2", 10, "v2")
	if _, _, ok := c.Get(a); ok {
		t.Error("hit on an entry of an older data version")
	}
	if v, _, ok := c.Get(b); !ok || v != "b2" {
		t.Errorf("Get(b) = %v, %v; want the new version's b2", v, ok)
	}
	// The server says its data changed.
	c.Invalidate("db")
	if _, _, ok := c.Get(b); ok {
		t.Error("hit after Invalidate")
	}
	c.Put(a, "a3", 10, "v2")
	c.InvalidateAll()
	if _, _, ok := c.Get(a); ok {
		t.Error("hit after InvalidateAll")
	}
	// A third-party executor reports no version: TTL only.
	k := NewKey("other", "SELECT 1", 0)
	c.Put(k, "x", 10, "")
	if _, _, ok := c.Get(k); !ok {
		t.Error("miss on a versionless entry within its TTL")
	}
}

func TestLRUByBytes(t *testing.T) {
	var evicted int
	var held int64
	clk := &clock{t: time.Now()}
	c := New(Config{TTL: time.Hour, MaxBytes: 100}, clk.now, func(n int, bytes int64) { evicted += n; held = bytes })
	for i := range 4 {
		c.Put(NewKey("db", fmt.Sprint("SELECT ", i), 0), i, 25, "v")
	}
	c.Get(NewKey("db", "SELECT 0", 0)) // 0 becomes the most recently used
	c.Put(NewKey("db", "SELECT 4", 0), 4, 25, "v")
	if _, _, ok := c.Get(NewKey("db", "SELECT 1", 0)); ok {
		t.Error("the least recently used entry (1) was not evicted")
	}
	for _, i := range []int{0, 2, 3, 4} {
		if _, _, ok := c.Get(NewKey("db", fmt.Sprint("SELECT ", i), 0)); !ok {
			t.Errorf("entry %d was evicted", i)
		}
	}
	if st := c.Stats(); st.Bytes != 100 || st.Entries != 4 || st.Evictions != 1 || evicted != 1 || held != 100 {
		t.Errorf("stats = %+v, callback saw %d evicted, %d bytes; want 100 bytes in 4 entries, 1 eviction", st, evicted, held)
	}
	c.Put(NewKey("db", "SELECT big", 0), "big", 26, "v") // over MaxBytes/4: not stored
	if _, _, ok := c.Get(NewKey("db", "SELECT big", 0)); ok {
		t.Error("a result over a quarter of MaxBytes was stored")
	}
}

func TestStale(t *testing.T) {
	c, clk := newCache(Config{TTL: time.Minute, MaxBytes: 1000, MaxStale: time.Hour})
	k := NewKey("db", "SELECT 1", 0)
	c.Put(k, "one", 10, "v1")
	c.Invalidate("db")
	clk.add(2 * time.Minute)
	if _, _, ok := c.Get(k); ok {
		t.Fatal("fresh hit after invalidation and TTL")
	}
	v, age, ok := c.GetStale(k)
	if !ok || v != "one" || age != 2*time.Minute {
		t.Fatalf("GetStale = %v, %v, %v; want one, 2m, true", v, age, ok)
	}
	clk.add(time.Hour)
	if _, _, ok := c.GetStale(k); ok {
		t.Error("stale hit older than MaxStale")
	}
	off, _ := newCache(Config{TTL: time.Minute, MaxBytes: 1000})
	off.Put(k, "one", 10, "v1")
	if _, _, ok := off.GetStale(k); ok {
		t.Error("stale hit with MaxStale 0")
	}
	if st := c.Stats(); st.Stale != 1 {
		t.Errorf("stale served = %d, want 1", st.Stale)
	}
}

func TestConcurrentUse(t *testing.T) {
	c, _ := newCache(Config{TTL: time.Hour, MaxBytes: 500, MaxStale: time.Hour})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				k := NewKey("db", fmt.Sprint("SELECT ", (g*7+i)%40), 0)
				if _, _, ok := c.Get(k); !ok {
					c.Put(k, i, 20, fmt.Sprint("v", i%3))
				}
				c.GetStale(k)
				if i%100 == 0 {
					c.Invalidate("db")
				}
			}
		})
	}
	wg.Wait()
	if st := c.Stats(); st.Bytes > 500 || st.Bytes != int64(st.Entries)*20 {
		t.Errorf("stats after concurrent use = %+v, want at most 500 bytes matching the entries", st)
	}
}

func BenchmarkHit(b *testing.B) {
	c, _ := newCache(Config{TTL: time.Hour, MaxBytes: 1 << 20})
	sql := `SELECT c.region, ROUND(SUM(s.total_amount), 2) AS revenue, COUNT(*) AS sales
FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id
GROUP BY c.region ORDER BY revenue DESC`
	c.Put(NewKey("db", sql, 500), "rows", 100, "v")
	for b.Loop() {
		if _, _, ok := c.Get(NewKey("db", sql, 500)); !ok {
			b.Fatal("miss")
		}
	}
}
