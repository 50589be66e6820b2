package mcpclient

import (
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// Which resources are subscribed to, and how their change notifications
// reach the cache. A third-party server may list many resources that have
// nothing to do with SQL and report them updated all the time (the reference
// server-everything: 100 resources, updates every few seconds). So:
//
//   - a resource is subscribed to only once it has been read and found to
//     feed the prompt — a schema, a semantic model, an entity list or a
//     version-1 catalog, recognised by shape (docs/contracts.md §1–2);
//   - change notifications (updates of the subscribed resources, list
//     changes, and updates a server sends unasked) are coalesced per server: the first one
//     invalidates at once, the rest within ChangeCoalesce make one more
//     invalidation at its end, logged at DEBUG with their count.

// ChangeCoalesce is the window over which a server's resource change
// notifications are coalesced.
const ChangeCoalesce = time.Second

// changeWindow counts one server's change notifications in the open window.
type changeWindow struct {
	open    bool
	count   int
	methods map[string]int
}

// resourceUpdated handles notifications/resources/updated for uri: every
// resource read is in the cache, so any update invalidates (coalesced).
func (c *Conn) resourceUpdated(string) {
	c.resourcesChanged(string(mcp.MethodNotificationResourceUpdated))
}

// resourcesChanged invalidates the server's cached resources and the cached
// SQL results, coalescing bursts (see ChangeCoalesce).
func (c *Conn) resourcesChanged(method string) {
	c.mu.Lock()
	c.changes.count++
	if c.changes.methods == nil {
		c.changes.methods = map[string]int{}
	}
	c.changes.methods[method]++
	if c.changes.open {
		c.mu.Unlock()
		return
	}
	c.changes.open = true
	c.mu.Unlock()
	c.invalidateResources()
	time.AfterFunc(ChangeCoalesce, func() {
		c.mu.Lock()
		w := c.changes
		c.changes = changeWindow{}
		c.mu.Unlock()
		if c.p.closed() {
			return
		}
		if w.count > 1 {
			c.invalidateResources()
		}
		c.log.Debug("resources changed on server", "event", "resource_cache_invalidated", "component", "cache",
			"notifications", w.count, "by_method", w.methods, "window_ms", ChangeCoalesce.Milliseconds())
	})
}

// invalidateResources tells the layers above that the server's resources
// changed (a new database or catalog may be behind the change); an
// executor whose database was broken is re-tried at once.
func (c *Conn) invalidateResources() {
	c.p.hooks.ResourcesChanged(c)
	if c.FaultySQL() != "" && !c.p.closed() {
		c.p.wg.Go(func() {
			ctx, stop := c.p.background()
			defer stop()
			c.p.probeDatabase(ctx, c)
		})
	}
}
