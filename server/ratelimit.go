package server

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Bounds of the per-client limiter map.
const (
	maxClients    = 10000
	clientIdleTTL = 5 * time.Minute
	sweepEvery    = time.Minute
)

// clientLimiter is a token bucket per client in a bounded map: idle entries
// are swept on the request path (no background goroutine), and when the map
// is full the least recently seen client is dropped.
type clientLimiter struct {
	limit rate.Limit
	burst int

	mu        sync.Mutex
	clients   map[string]*clientBucket
	lastSweep time.Time
}

type clientBucket struct {
	lim      *rate.Limiter
	lastSeen time.Time
}

func newClientLimiter(perSecond float64, burst int) *clientLimiter {
	return &clientLimiter{limit: rate.Limit(perSecond), burst: burst, clients: map[string]*clientBucket{}}
}

// allow takes a token for client at now. When none is left it returns false
// and how long until one will be.
func (l *clientLimiter) allow(client string, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) >= sweepEvery {
		l.sweep(now)
	}
	b, ok := l.clients[client]
	if !ok {
		if len(l.clients) >= maxClients {
			l.sweep(now)
			if len(l.clients) >= maxClients {
				l.evictOldest()
			}
		}
		b = &clientBucket{lim: rate.NewLimiter(l.limit, l.burst)}
		l.clients[client] = b
	}
	b.lastSeen = now
	r := b.lim.ReserveN(now, 1)
	if !r.OK() {
		return time.Second, false
	}
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d, false
	}
	return 0, true
}

// sweep drops clients idle for longer than clientIdleTTL.
func (l *clientLimiter) sweep(now time.Time) {
	l.lastSweep = now
	for k, b := range l.clients {
		if now.Sub(b.lastSeen) > clientIdleTTL {
			delete(l.clients, k)
		}
	}
}

// evictOldest drops the least recently seen client.
func (l *clientLimiter) evictOldest() {
	var oldest string
	var t time.Time
	for k, b := range l.clients {
		if oldest == "" || b.lastSeen.Before(t) {
			oldest, t = k, b.lastSeen
		}
	}
	delete(l.clients, oldest)
}

// size reports how many clients are tracked.
func (l *clientLimiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.clients)
}
