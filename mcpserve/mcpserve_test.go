package mcpserve

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func newEchoServer() *server.MCPServer {
	s := server.NewMCPServer("echo", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(req.GetString("text", "")), nil
		})
	return s
}

func callEcho(tb testing.TB, c *client.Client) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		tb.Fatalf("start: %v", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		tb.Fatalf("initialize: %v", err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "echo"
	req.Params.Arguments = map[string]any{"text": "hello"}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		tb.Fatalf("call: %v", err)
	}
	if res.IsError || len(res.Content) == 0 {
		tb.Fatalf("call result = %+v, want text", res)
	}
	text, _ := mcp.AsTextContent(res.Content[0])
	return text.Text
}

func TestServeHTTPTransports(t *testing.T) {
	tests := []struct {
		name      string
		transport string
		path      string
		newClient func(url string) (*client.Client, error)
	}{
		{"sse", SSE, "/sse", func(u string) (*client.Client, error) { return client.NewSSEMCPClient(u) }},
		{"streamable http", StreamableHTTP, "/mcp", func(u string) (*client.Client, error) { return client.NewStreamableHttpClient(u) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			addrc := make(chan net.Addr, 1)
			errc := make(chan error, 1)
			go func() {
				errc <- Serve(ctx, newEchoServer(), Options{Transport: tt.transport, Addr: "127.0.0.1:0",
					Ready: func(a net.Addr) { addrc <- a }})
			}()
			var addr net.Addr
			select {
			case addr = <-addrc:
			case err := <-errc:
				t.Fatalf("Serve returned early: %v", err)
			}
			c, err := tt.newClient("http://" + addr.String() + tt.path)
			if err != nil {
				t.Fatalf("client: %v", err)
			}
			if got := callEcho(t, c); got != "hello" {
				t.Errorf("echo = %q, want hello", got)
			}
			c.Close()
			cancel()
			select {
			case err := <-errc:
				if err != nil {
					t.Errorf("Serve after cancel = %v, want nil", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Serve did not return after cancel")
			}
		})
	}
}

func TestServeStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		errc <- Serve(ctx, newEchoServer(), Options{Transport: Stdio, Stdin: inR, Stdout: outW})
		outW.Close()
	}()
	c := client.NewClient(transport.NewIO(outR, inW, io.NopCloser(strings.NewReader(""))))
	if got := callEcho(t, c); got != "hello" {
		t.Errorf("echo = %q, want hello", got)
	}
	inW.Close() // EOF on stdin ends the session cleanly
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("Serve after stdin EOF = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after stdin EOF")
	}
}

func TestServeErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"unknown transport", Options{Transport: "carrier-pigeon"}, `unknown transport "carrier-pigeon"`},
		{"address in use", Options{Transport: SSE, Addr: ln.Addr().String()}, "listen on " + ln.Addr().String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Serve(context.Background(), newEchoServer(), tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Serve = %v, want error containing %q", err, tt.want)
			}
		})
	}
	if _, err := Handler(newEchoServer(), Stdio); err == nil {
		t.Error("Handler(stdio) = nil error, want an error (stdio is not an HTTP transport)")
	}
}
