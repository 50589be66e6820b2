package mcptasks

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/mcpserve"
)

// fixtureServer serves, through the extension, the tools the MCP
// conformance suite's tasks scenarios call (its "required server
// fixtures"), so the suite checks this package's wire behaviour end to end:
// greet (sync only), slow_compute (a task of `seconds`), failing_job (a
// task whose tool fails after a moment), protocol_error_job (a task whose
// call breaks) and required_job (only as a task).
func fixtureServer(tb testing.TB, opts Options) (url string, tasks *Tasks) {
	tb.Helper()
	s := server.NewMCPServer("tasks-fixture", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("greet", mcp.WithString("name")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf("Hello, %s!", req.GetString("name", "world"))), nil
		})
	s.AddTool(mcp.NewTool("slow_compute", mcp.WithNumber("seconds"), mcp.WithString("label")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			d := time.Duration(req.GetFloat("seconds", 0) * float64(time.Second))
			SetStatusMessage(ctx, "computing "+req.GetString("label", ""))
			select {
			case <-time.After(d):
				return mcp.NewToolResultText(fmt.Sprintf("computed %s in %s", req.GetString("label", ""), d)), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	s.AddTool(mcp.NewTool("failing_job"),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-time.After(200 * time.Millisecond):
			case <-ctx.Done():
			}
			return mcp.NewToolResultError("the job failed"), nil
		})
	s.AddTool(mcp.NewTool("protocol_error_job"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			panic("the job broke")
		})
	if opts.Tools == nil {
		opts.Tools = []string{"slow_compute", "failing_job", "protocol_error_job"}
	}
	tasks = New(s, opts)
	h, err := mcpserve.Handler(s, mcpserve.StreamableHTTP, mcpserve.WithMiddleware(tasks.Handler))
	if err != nil {
		tb.Fatal(err)
	}
	hs := httptest.NewServer(h)
	tb.Cleanup(func() {
		hs.Close()
		mcpserve.CloseSessions(h)
		tasks.Close()
	})
	return hs.URL + "/mcp", tasks
}
