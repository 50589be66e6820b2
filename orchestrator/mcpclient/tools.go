package mcpclient

import (
	"context"
	"encoding/json"
	"log/slog"
	"maps"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/config"
)

// limitNames are the argument names (lower case, without "_" or "-") read
// as a row limit of a SQL tool.
var limitNames = []string{"maxrows", "limit", "rowlimit", "maxresults", "maxrecords", "rowcount", "top", "fetch"}

// limitNameNorm drops the separators of a property name before it is
// compared with limitNames (built once: LimitArgument runs per query).
var limitNameNorm = strings.NewReplacer("_", "", "-", "")

// LimitArgument is the name of tool's row-limit argument (an integer or
// number property named like max_rows, limit, row_limit …) in its input
// schema, or "".
func (c *Conn) LimitArgument(tool string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.toolDefs {
		if t.Name != tool {
			continue
		}
		props := inputProperties(t)
		for _, want := range limitNames {
			for name, p := range props {
				norm := limitNameNorm.Replace(strings.ToLower(name))
				if norm != want {
					continue
				}
				pm, _ := p.(map[string]any)
				if typ, _ := pm["type"].(string); typ == "integer" || typ == "number" {
					return name
				}
			}
		}
	}
	return ""
}

// ArgumentMaxLength is the maxLength (in characters) tool's input schema
// gives its string argument arg, or 0 when it gives none.
func (c *Conn) ArgumentMaxLength(tool, arg string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.toolDefs {
		if t.Name != tool {
			continue
		}
		p, _ := inputProperties(t)[arg].(map[string]any)
		switch n := p["maxLength"].(type) {
		case float64:
			if n >= 1 && n == float64(int(n)) {
				return int(n)
			}
		case int:
			return max(n, 0)
		case json.Number:
			if v, err := n.Int64(); err == nil && v > 0 {
				return int(v)
			}
		}
	}
	return 0
}

// inputProperties is a tool's input schema properties, from its raw JSON
// schema when the server sent one (mcp-go keeps it there), else from the
// parsed schema.
func inputProperties(t mcp.Tool) map[string]any {
	if len(t.RawInputSchema) > 0 {
		var s struct {
			Properties map[string]any `json:"properties"`
		}
		if json.Unmarshal(t.RawInputSchema, &s) == nil {
			return s.Properties
		}
	}
	return t.InputSchema.Properties
}

// SearchTool is the name of the executor's schema search tool: a tool
// whose input takes an object_type that may be "table" (DBHub's
// search_objects), or "".
func (c *Conn) SearchTool() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.toolDefs {
		props := inputProperties(t)
		p, _ := props["object_type"].(map[string]any)
		enum, _ := p["enum"].([]any)
		for _, e := range enum {
			if e == "table" {
				return t.Name
			}
		}
	}
	return ""
}

// HasResources reports whether the server advertised resources.
func (c *Conn) HasResources() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.caps.Resources != nil
}

// ID is the server's config id.
func (c *Conn) ID() string { return c.id }

// Config is the server's configuration.
func (c *Conn) Config() config.ServerConfig { return c.cfg }

// Log is the server's logger (with its id).
func (c *Conn) Log() *slog.Logger { return c.log }

// Connects returns how many times the server connected.
func (c *Conn) Connects() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.connectedAt
}

// SetResourceURIs records the URIs of the server's resources as last
// listed for gathering.
func (c *Conn) SetResourceURIs(uris []string) {
	c.mu.Lock()
	c.resources = uris
	c.mu.Unlock()
}

// Drop ends the server's current session as lost, as a broken transport
// does: it is closed and reconnected with backoff.
func (c *Conn) Drop(err error) {
	cl, _, ok := c.current()
	if ok {
		c.fail(cl, err)
	}
}

// SetSchemaSource records where the executor's schema comes from.
func (c *Conn) SetSchemaSource(s string) {
	c.mu.Lock()
	c.schemaSource = s
	c.mu.Unlock()
}

// Subscribe subscribes, when the server offers subscriptions, to the
// resources at uris not yet subscribed to in this session. A refusal is
// logged and not retried.
func (c *Conn) Subscribe(ctx context.Context, uris []string) {
	c.mu.Lock()
	canSubscribe := c.caps.Resources != nil && c.caps.Resources.Subscribe
	var todo []string
	for _, uri := range uris {
		if canSubscribe && !c.subscribed[uri] {
			c.subscribed[uri] = true
			todo = append(todo, uri)
		}
	}
	c.mu.Unlock()
	for _, uri := range todo {
		err := c.Call(ctx, "resources/subscribe", func(ctx context.Context, cl *client.Client) error {
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

// CanSubscribe reports whether the server offers resource subscriptions.
func (c *Conn) CanSubscribe() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.caps.Resources != nil && c.caps.Resources.Subscribe
}

// Subscribed lists the resource URIs subscribed to in this session, sorted.
func (c *Conn) Subscribed() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Sorted(maps.Keys(c.subscribed))
}
