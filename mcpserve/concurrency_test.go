package mcpserve

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// TestStdioRunsManyToolCallsAtOnce: over stdio every tool call must reach its
// handler at once. mcp-go's stdio server runs 5 workers by default, so the
// sixth concurrent execute_query waited unseen in a queue, its statement
// timeout not yet started; behind slow queries it outlived the orchestrator's
// mcp_call_timeout, and the whole database connection was declared lost
// (found with 8 concurrent runaway WITH RECURSIVE queries via /api/sql).
func TestStdioRunsManyToolCallsAtOnce(t *testing.T) {
	const calls = 32
	var (
		mu      sync.Mutex
		arrived int
		all     = make(chan struct{})
	)
	s := server.NewMCPServer("barrier", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("wait"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		mu.Lock()
		arrived++
		if arrived == calls {
			close(all)
		}
		mu.Unlock()
		select { // every call blocks until all of them are in a handler
		case <-all:
			return mcp.NewToolResultText("ok"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = Serve(ctx, s, Options{Transport: Stdio, Stdin: inR, Stdout: outW})
		outW.Close()
	}()
	defer func() { inW.Close(); cancel(); <-done }()

	c := client.NewClient(transport.NewIO(outR, inW, io.NopCloser(strings.NewReader(""))))
	cctx, ccancel := context.WithTimeout(ctx, 10*time.Second)
	defer ccancel()
	if err := c.Start(cctx); err != nil {
		t.Fatalf("start: %v", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	if _, err := c.Initialize(cctx, init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	errs := make(chan error, calls)
	for range calls {
		go func() {
			req := mcp.CallToolRequest{}
			req.Params.Name = "wait"
			_, err := c.CallTool(cctx, req)
			errs <- err
		}()
	}
	for range calls {
		if err := <-errs; err != nil {
			mu.Lock()
			n := arrived
			mu.Unlock()
			t.Fatalf("call: %v; only %d of %d concurrent calls reached a handler", err, n, calls)
		}
	}
}
