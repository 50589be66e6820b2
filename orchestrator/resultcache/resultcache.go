// Package resultcache keeps the results of read-only SQL in memory so that
// the same statement, asked again while the data has not changed, is
// answered without running it.
//
// An entry is keyed by the executor server, the statement (normalised:
// comments dropped, whitespace collapsed, a trailing semicolon removed;
// letters keep their case, since column labels follow the query's spelling)
// and the row cap. It is a hit while it is younger than the TTL and was
// stored under the executor's current data version and epoch: the version is
// what the executor reports with each result (database-mcp: the file's
// identity, size and modification time), so a result of new data moves it
// on; the epoch moves on when the executor says its data changed
// (Invalidate). An executor that reports no version is cached by TTL only.
//
// The cache is bounded by bytes (the size of each result's JSON) and evicts
// the least recently used entries. Entries no longer fresh are kept while
// they may still be served stale (Config.MaxStale): when the executor is
// down, a result of the same statement may be better than an error.
package resultcache

import (
	"container/list"
	"math"
	"strings"
	"sync"
	"time"

	"talk2tables/sqlscan"
)

// Config bounds the cache.
type Config struct {
	TTL      time.Duration // how long an entry is fresh
	MaxBytes int64         // total size of the cached results
	// MaxStale is how old an entry may be and still be served, marked
	// stale, when its executor is down; 0 never serves stale results.
	MaxStale time.Duration
}

// Key identifies a cached result.
type Key struct {
	Server  string
	SQL     string // normalised
	MaxRows int
}

// NewKey returns the key of sql run on server with a row cap.
func NewKey(server, sql string, maxRows int) Key {
	return Key{Server: server, SQL: Normalize(sql), MaxRows: maxRows}
}

// Normalize returns sql without comments, with every run of whitespace
// between tokens made one space and trailing semicolons removed. Tokens
// themselves (strings, quoted identifiers, the case of words) are kept: two
// statements with the same normal form return the same result. Where
// comments, strings and whitespace end depends on the dialect (MySQL's
// "--1" is two minus signs, its 'a\'  b' one string), and the key does not
// know the executor's: sql is normalised only when every dialect's lexer
// gives the same normal form, and kept as written (trimmed) otherwise.
func Normalize(sql string) string {
	var out string
	for i, d := range []sqlscan.Dialect{sqlscan.SQLite, sqlscan.Postgres, sqlscan.MySQL} {
		n := normalizeIn(d, sql)
		if i > 0 && n != out {
			return strings.TrimSpace(sql)
		}
		out = n
	}
	return out
}

// normalizeIn is Normalize with one dialect's lexer.
func normalizeIn(d sqlscan.Dialect, sql string) string {
	var b strings.Builder
	b.Grow(len(sql))
	for _, t := range d.Scan(sql) {
		switch t.Kind {
		case sqlscan.Space, sqlscan.Comment:
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
	}
	s := b.String()
	for strings.HasSuffix(s, ";") {
		s = strings.TrimRight(strings.TrimSuffix(s, ";"), " ")
	}
	return s
}

// Stats are the cache's counters since New.
type Stats struct {
	Hits, Misses, Stale, Evictions uint64
	Entries                        int
	Bytes                          int64
}

type entry struct {
	key     Key
	value   any
	size    int64
	stored  time.Time
	version string
	epoch   uint64
}

// server is what the cache knows of one executor's data.
type server struct {
	version string // last data version reported
	epoch   uint64 // bumped by Invalidate
}

// Cache is a byte-bounded LRU cache of results. It is safe for concurrent
// use.
type Cache struct {
	cfg Config
	now func() time.Time

	mu      sync.Mutex
	ll      *list.List // front: most recently used
	items   map[Key]*list.Element
	servers map[string]*server
	stats   Stats
	// onChange, when set, is told how many entries an operation evicted and
	// the bytes now held (called with mu held: it must not call back).
	onChange func(evicted int, bytes int64)
}

// New returns an empty cache. now is the clock (nil: time.Now); onChange,
// when set, is told after each store or eviction how many entries were
// evicted and how many bytes the cache holds (for metrics; it must not call
// the cache).
func New(cfg Config, now func() time.Time, onChange func(evicted int, bytes int64)) *Cache {
	if now == nil {
		now = time.Now
	}
	return &Cache{cfg: cfg, now: now, ll: list.New(), items: map[Key]*list.Element{},
		servers: map[string]*server{}, onChange: onChange}
}

// Config returns the cache's configuration.
func (c *Cache) Config() Config { return c.cfg }

func (c *Cache) server(id string) *server {
	s := c.servers[id]
	if s == nil {
		s = &server{}
		c.servers[id] = s
	}
	return s
}

// Get returns a fresh result for k and its age.
func (c *Cache) Get(k Key) (value any, age time.Duration, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.items[k]
	if el == nil {
		c.stats.Misses++
		return nil, 0, false
	}
	e := el.Value.(*entry)
	age = c.now().Sub(e.stored)
	s := c.server(k.Server)
	if age >= c.cfg.TTL || e.version != s.version || e.epoch != s.epoch {
		c.stats.Misses++
		if c.cfg.MaxStale <= 0 || age > c.cfg.MaxStale {
			c.remove(el)
			c.changed(0)
		}
		return nil, 0, false
	}
	c.ll.MoveToFront(el)
	c.stats.Hits++
	return e.value, age, true
}

// GetStale returns the result stored for k, whatever its freshness, when it
// is at most MaxStale old: for serving while the executor is down.
func (c *Cache) GetStale(k Key) (value any, age time.Duration, ok bool) {
	if c.cfg.MaxStale <= 0 {
		return nil, 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.items[k]
	if el == nil {
		return nil, 0, false
	}
	e := el.Value.(*entry)
	age = c.now().Sub(e.stored)
	if age > c.cfg.MaxStale {
		return nil, 0, false
	}
	c.ll.MoveToFront(el)
	c.stats.Stale++
	return e.value, age, true
}

// Put stores value (of size bytes) for k, produced from data of the given
// version ("" when the executor reports none). A version different from the
// last one reported makes the server's older entries misses. A value larger
// than a quarter of MaxBytes is not stored: it would push out many others.
// The value must not be changed afterwards.
func (c *Cache) Put(k Key, value any, size int, version string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.server(k.Server)
	s.version = version
	if int64(size) > c.cfg.MaxBytes/4 {
		return
	}
	if el := c.items[k]; el != nil {
		c.remove(el)
	}
	e := &entry{key: k, value: value, size: int64(size), stored: c.now(), version: version, epoch: s.epoch}
	c.items[k] = c.ll.PushFront(e)
	c.stats.Bytes += e.size
	c.stats.Entries++
	evicted := 0
	for c.stats.Bytes > c.cfg.MaxBytes {
		c.remove(c.ll.Back())
		c.stats.Evictions++
		evicted++
	}
	c.changed(evicted)
}

// Invalidate makes every entry of server a miss (its data changed). The
// entries stay, to be served stale while the server is down.
func (c *Cache) Invalidate(serverID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.server(serverID).epoch++
}

// InvalidateAll makes every entry a miss.
func (c *Cache) InvalidateAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.servers {
		s.epoch++
	}
}

// Stats returns the counters.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

func (c *Cache) remove(el *list.Element) {
	e := c.ll.Remove(el).(*entry)
	delete(c.items, e.key)
	c.stats.Bytes -= e.size
	c.stats.Entries--
}

func (c *Cache) changed(evicted int) {
	if c.onChange != nil {
		c.onChange(evicted, c.stats.Bytes)
	}
}

// Age is an age in seconds, to the millisecond, as results report it.
func Age(d time.Duration) float64 { return math.Round(d.Seconds()*1000) / 1000 }
