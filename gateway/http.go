package gateway

import (
	"net/http"

	"talk2tables/mcpserve"
	"talk2tables/mcptasks"
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
// bodies limited, idle sessions dropped, heartbeats on open streams). On
// streamable HTTP, ask and run_sql become tasks for clients that declare
// the tasks extension (package mcptasks); call it once, before serving.
func (g *Gateway) HTTPHandlers() (*Handlers, error) {
	g.tasks = mcptasks.New(g.srv, mcptasks.Options{Tools: []string{ToolAsk, ToolRunSQL}, ContextFunc: httpContext,
		Logger: g.log})
	streamable, err := mcpserve.Handler(g.srv, mcpserve.StreamableHTTP, mcpserve.WithContextFunc(httpContext),
		mcpserve.WithMiddleware(g.tasks.Handler))
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
