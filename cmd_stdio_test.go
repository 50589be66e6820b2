package main

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/internal/testfixture"
)

// serveStdio runs `talk2tables args...` on pipes, initializes an MCP client
// over them at protocol version, lets use talk to it, then cancels the
// command, checks that it stops cleanly and returns its stderr (its logs).
func serveStdio(tb testing.TB, args []string, version string, use func(c *client.Client)) string {
	tb.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr testfixture.LogBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, stdio{inR, outW, &stderr})
		outW.Close()
	}()
	c := client.NewClient(transport.NewIO(outR, inW, io.NopCloser(strings.NewReader(""))),
		client.WithProtocolVersion(version))
	if err := c.Start(ctx); err != nil {
		tb.Fatal(err)
	}
	initCtx, initCancel := context.WithTimeout(ctx, 30*time.Second)
	defer initCancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcp.Implementation{Name: "cmd-test", Version: "1"}
	if _, err := c.Initialize(initCtx, req); err != nil {
		tb.Fatalf("initialize: %v\nlogs: %s", err, stderr.String())
	}
	use(c)
	cancel()
	c.Close()
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			tb.Errorf("%s returned %v after cancel, want nil", args[0], err)
		}
	case <-time.After(30 * time.Second): // a hang guard, not a speed check
		tb.Fatalf("%s did not stop after its context was cancelled", args[0])
	}
	return stderr.String()
}
