package resources

import (
	"log/slog"

	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/sqlgen"
)

// The gathering filter: which resources of a server are read at all, for
// any generator (the LLM and the offline planner alike). What reaches the
// LLM prompt among the Gathered resources is then sqlgen's choice (token
// budget and relevance).

// gathers reports whether the server's resources are Gathered: it offers
// resources, its configuration does not say prompt: none, and its declared
// capabilities include list_resources.
func Gathers(c *mcpclient.Conn) bool { return c.HasResources() && c.Config().Gathers() }

// wanted keeps the listed resources the server's prompt patterns match.
func wanted(c *mcpclient.Conn, list []mcp.Resource) []mcp.Resource {
	out := list[:0:0]
	for _, r := range list {
		if c.Config().Wants(r.URI) {
			out = append(out, r)
		}
	}
	return out
}

// admit parses a resource read and reports whether it is kept: a resource
// over the server's size cap is left out with a WARN naming it, unless it
// is a database schema or a catalog.
func admit(c *mcpclient.Conn, log *slog.Logger, uri string, cs []mcp.ResourceContents) (any, bool) {
	v := parseContents(cs)
	size, limit := contentsSize(cs), c.Config().ResourceCap()
	if size <= limit || sqlgen.Structural(v) {
		return v, true
	}
	log.Warn("resource left out: over the size cap", "event", "resource_oversize", "uri", uri,
		"bytes", size, "max_resource_bytes", limit,
		"hint", "raise mcp_servers.<id>.max_resource_bytes to gather it, or leave it out with prompt patterns")
	return nil, false
}

// contentsSize is the length of a resource's text and base64 blobs.
func contentsSize(cs []mcp.ResourceContents) int {
	n := 0
	for _, c := range cs {
		switch v := c.(type) {
		case mcp.TextResourceContents:
			n += len(v.Text)
		case *mcp.TextResourceContents:
			n += len(v.Text)
		case mcp.BlobResourceContents:
			n += len(v.Blob)
		case *mcp.BlobResourceContents:
			n += len(v.Blob)
		}
	}
	return n
}
