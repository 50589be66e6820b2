package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"

	"talk2tables/config"
	"talk2tables/orchestrator"
	talkserver "talk2tables/server"
)

const benchQuestion = "how many orders by status"

// BenchmarkAsk compares one question answered by the orchestrator
// directly, by ask over MCP (in process and over streamable HTTP) and by
// POST /api/query: the differences are the MCP and HTTP overheads.
//
//	go test -run '^$' -bench Ask -benchtime=300x ./gateway/
func BenchmarkAsk(b *testing.B) {
	st := newStack(b, "")
	ctx := context.Background()
	b.Run("orchestrator.Process", func(b *testing.B) {
		for b.Loop() {
			if _, err := st.orch.Process(ctx, orchestrator.Query{Question: benchQuestion}); err != nil {
				b.Fatal(err)
			}
		}
	})
	askMCP := func(b *testing.B, c *client.Client) {
		req := mcp.CallToolRequest{}
		req.Params.Name = ToolAsk
		req.Params.Arguments = map[string]any{"question": benchQuestion}
		for b.Loop() {
			res, err := c.CallTool(ctx, req)
			if err != nil || res.IsError {
				b.Fatalf("ask: %v %v", err, res)
			}
		}
	}
	b.Run("mcp in-process", func(b *testing.B) {
		c, _ := inProcess(b, st, clientOptions{legacy: true})
		askMCP(b, c)
	})
	b.Run("mcp streamable HTTP", func(b *testing.B) {
		c, _ := overHTTP(b, st, clientOptions{legacy: true})
		askMCP(b, c)
	})
	b.Run("POST /api/query", func(b *testing.B) {
		h := st.cfg.HTTP
		h.RateLimit = 0 // the per-client limit would refuse a benchmark loop
		srv := httptest.NewServer(talkserver.New(st.orch, h, nil, slog.New(slog.DiscardHandler), nil))
		b.Cleanup(srv.Close)
		body := `{"question":"` + benchQuestion + `"}`
		for b.Loop() {
			resp, err := http.Post(srv.URL+"/api/query", "application/json", strings.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			var out struct{ Success bool }
			_ = json.NewDecoder(resp.Body).Decode(&out)
			resp.Body.Close()
			if !out.Success {
				b.Fatal("query failed")
			}
		}
	})
}

// syntheticServer is a downstream server with four tools of typical size
// (a description of two sentences, three parameters).
func syntheticServer(n int) *server.MCPServer {
	s := server.NewMCPServer(fmt.Sprintf("synthetic-%d", n), "1", server.WithToolCapabilities(false))
	for _, verb := range []string{"list", "get", "search", "summarize"} {
		s.AddTool(mcp.NewTool(fmt.Sprintf("%s_records_%d", verb, n),
			mcp.WithDescription(fmt.Sprintf("%s the records of system %d. Results are paginated; pass the cursor of the previous page to continue.", verb, n)),
			mcp.WithString("query", mcp.Description("free-text filter on the record titles")),
			mcp.WithNumber("limit", mcp.Description("maximum records to return (1-100)")),
			mcp.WithString("cursor", mcp.Description("opaque cursor from a previous page")),
			mcp.WithReadOnlyHintAnnotation(true)),
			func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("[]"), nil
			})
	}
	return s
}

// BenchmarkToolsListTokens measures the tools/list a client puts in its
// model's context, in tokens (cl100k_base), with expose all and
// search_only, for 3 and 30 downstream servers of four tools each (plus
// the database server's two).
//
//	go test -run '^$' -bench ToolsListTokens -benchtime=1x ./gateway/
func BenchmarkToolsListTokens(b *testing.B) {
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding("cl100k_base")
	if err != nil {
		b.Fatal(err)
	}
	for _, servers := range []int{3, 30} {
		for _, expose := range []string{config.ExposeAll, config.ExposeSearchOnly} {
			b.Run(fmt.Sprintf("%d servers %s", servers, expose), func(b *testing.B) {
				var extra []extraServer
				for i := range servers {
					extra = append(extra, extraServer{id: fmt.Sprintf("sys%d", i), srv: syntheticServer(i),
						cfg: config.ServerConfig{Name: "synthetic", Transport: config.TransportInProcess, Priority: 100 + i}})
				}
				st := newStack(b, "gateway: {expose: "+expose+"}", extra...)
				c, _ := inProcess(b, st, clientOptions{legacy: true})
				var tokens, tools int
				for b.Loop() {
					res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
					if err != nil {
						b.Fatal(err)
					}
					raw, _ := json.Marshal(res.Tools)
					tokens, tools = len(enc.Encode(string(raw), nil, nil)), len(res.Tools)
				}
				b.ReportMetric(float64(tokens), "tokens")
				b.ReportMetric(float64(tools), "tools")
			})
		}
	}
}
