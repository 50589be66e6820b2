package server

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"talk2tables/config"
)

// Option configures New.
type Option func(*options)

type options struct {
	mcpStreamable, mcpSSE http.Handler
	verified              Verifier
}

// WithMCP mounts talk2tables' MCP server (package gateway): streamable
// HTTP at /mcp and legacy SSE at /sse + /message, behind the same API keys,
// rate limit, request ids and access log as /api. Each request's id is
// passed on in its X-Request-ID header (the MCP call's operation_id).
func WithMCP(streamable, sse http.Handler) Option {
	return func(o *options) { o.mcpStreamable, o.mcpSSE = streamable, sse }
}

// mountMCP registers the MCP routes.
func (a *api) mountMCP(r *gin.Engine, o options, guarded []gin.HandlerFunc) {
	if o.mcpStreamable != nil {
		h := a.mcpHandler(o.mcpStreamable)
		g := r.Group("/mcp", guarded...)
		g.POST("", h)
		g.GET("", h)
		g.DELETE("", h)
	}
	if o.mcpSSE != nil {
		h := a.mcpHandler(o.mcpSSE)
		r.GET("/sse", append(guarded, h)...)
		r.POST("/message", append(guarded, h)...)
	}
}

// mcpHandler passes the request (with its request id and the caller's
// role) to an MCP transport.
// A GET opens a long-lived event stream: the server's write timeout (meant
// for one answer) must not cut it, so its write deadline is lifted; the
// transports send heartbeats and end it at shutdown.
func (a *api) mcpHandler(h http.Handler) gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Request.Header.Set("X-Request-ID", requestIDOf(c))
		// Who the caller is, as auth found: the gateway's verify tool lets
		// editors (or anyone, without API keys) teach.
		c.Request.Header.Del(config.HeaderEditor)
		switch {
		case len(a.keys) == 0:
			c.Request.Header.Set(config.HeaderRole, config.RoleOpen)
		case c.GetString(editorKey) != "":
			c.Request.Header.Set(config.HeaderRole, config.RoleEditor)
			c.Request.Header.Set(config.HeaderEditor, c.GetString(editorKey))
		default:
			c.Request.Header.Set(config.HeaderRole, config.RoleViewer)
		}
		if c.Request.Method == http.MethodGet {
			_ = http.NewResponseController(c.Writer).SetWriteDeadline(time.Time{})
		}
		h.ServeHTTP(c.Writer, c.Request)
	}
}
