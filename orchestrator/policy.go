package orchestrator

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/catalog"
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
//     invalidates at once, the rest within changeCoalesce make one more
//     invalidation at its end, logged at DEBUG with their count.

// changeCoalesce is the window over which a server's resource change
// notifications are coalesced.
const changeCoalesce = time.Second

// changeWindow counts one server's change notifications in the open window.
type changeWindow struct {
	open    bool
	count   int
	methods map[string]int
}

// feedsPrompt reports whether a resource's parsed value is one the SQL
// generators read, by shape: a schema ("tables" array of objects with
// "columns"), a semantic model ("version" 2 and a "tables" object), an entity
// list ("entities" array) or a version-1 product catalog.
func feedsPrompt(v any) bool {
	obj, ok := v.(map[string]any)
	if !ok {
		return false
	}
	if catalog.IsSchemaResource(obj) || catalog.IsSemanticResource(obj) || catalog.IsEntityListResource(obj) ||
		catalog.IsV1Mappings(obj) || catalog.IsV1Products(obj) {
		return true
	}
	// the other version-1 top-level keys
	_, mappings := obj["column_mappings"]
	_, aliases := obj["product_aliases"]
	return mappings || aliases
}

// subscribeRead subscribes (when the server offers subscriptions) to the
// resources just read that feed the prompt and are not yet subscribed to in
// this session. A refusal is logged and not retried.
func (c *conn) subscribeRead(ctx context.Context, values map[string]any) {
	c.mu.Lock()
	canSubscribe := c.caps.Resources != nil && c.caps.Resources.Subscribe
	var todo []string
	for uri, v := range values {
		if !feedsPrompt(v) {
			continue
		}
		if canSubscribe && !c.subscribed[uri] {
			c.subscribed[uri] = true
			todo = append(todo, uri)
		}
	}
	c.mu.Unlock()
	for _, uri := range todo {
		err := c.call(ctx, "resources/subscribe", func(ctx context.Context, cl *client.Client) error {
			req := mcp.SubscribeRequest{}
			req.Params.URI = uri
			return cl.Subscribe(ctx, req)
		})
		if err != nil {
			c.log.Debug("resource subscribe refused", "event", "resource_subscribe_failed", "component", "mcp_client",
				"uri", uri, "error", err.Error())
			continue
		}
		c.log.Debug("resource subscribed", "event", "resource_subscribed", "component", "mcp_client", "uri", uri)
	}
}

// resourceUpdated handles notifications/resources/updated for uri: every
// resource read is in the cache, so any update invalidates (coalesced).
func (c *conn) resourceUpdated(string) {
	c.resourcesChanged(string(mcp.MethodNotificationResourceUpdated))
}

// resourcesChanged invalidates the server's cached resources and the cached
// SQL results, coalescing bursts (see changeCoalesce).
func (c *conn) resourcesChanged(method string) {
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
	time.AfterFunc(changeCoalesce, func() {
		c.mu.Lock()
		w := c.changes
		c.changes = changeWindow{}
		c.mu.Unlock()
		if c.o.closed() {
			return
		}
		if w.count > 1 {
			c.invalidateResources()
		}
		c.log.Debug("resources changed on server", "event", "resource_cache_invalidated", "component", "cache",
			"notifications", w.count, "by_method", w.methods, "window_ms", changeCoalesce.Milliseconds())
	})
}

// invalidateResources drops the server's cached resources and, since a new
// database or catalog may be behind the change, every cached SQL result;
// an executor whose database was broken is re-tried at once.
func (c *conn) invalidateResources() {
	c.o.cache.invalidate(c.id)
	c.o.dataChanged(c.id, true)
	if c.faultySQL() != "" && !c.o.closed() {
		c.o.wg.Go(func() { c.o.probeFault(c) })
	}
}
