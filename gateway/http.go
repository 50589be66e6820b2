package gateway

import (
	"net/http"

	"talk2tables/mcpserve"
)

// Handlers are the gateway's HTTP transports: streamable HTTP (serve it at
// /mcp) and legacy SSE (/sse and /message). Each MCP message sees its HTTP
// request's Authorization header and X-Request-ID. Call Close when done:
// it ends open streams.
type Handlers struct {
	Streamable http.Handler
	SSE        http.Handler
}

// HTTPHandlers returns the gateway's HTTP transports (mcpserve: request
// bodies limited, idle sessions dropped, heartbeats on open streams).
func (g *Gateway) HTTPHandlers() (*Handlers, error) {
	streamable, err := mcpserve.Handler(g.srv, mcpserve.StreamableHTTP, mcpserve.WithContextFunc(httpContext))
	if err != nil {
		return nil, err
	}
	sse, err := mcpserve.Handler(g.srv, mcpserve.SSE, mcpserve.WithContextFunc(httpContext))
	if err != nil {
		return nil, err
	}
	return &Handlers{Streamable: streamable, SSE: sse}, nil
}

// Close ends the sessions and open streams of both transports.
func (h *Handlers) Close() {
	mcpserve.CloseSessions(h.Streamable)
	mcpserve.CloseSessions(h.SSE)
}
