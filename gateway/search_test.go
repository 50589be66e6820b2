package gateway

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/config"
	"talk2tables/internal/testfixture"
)

// semanticServer serves testdata/sales_catalog.json the way metadata-mcp
// serves a version-2 catalog (docs/contracts.md): the model without its
// entities, and the entities.
func semanticServer(tb testing.TB) extraServer {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(testfixture.RepoRoot(tb), "testdata", "sales_catalog.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		tb.Fatal(err)
	}
	entities, _ := json.Marshal(map[string]any{"version": 2, "entities": doc["entities"]})
	delete(doc, "entities")
	model, _ := json.Marshal(doc)
	s := server.NewMCPServer("semantic-test", "1", server.WithResourceCapabilities(false, false))
	for uri, body := range map[string][]byte{"metadata://semantic_model": model, "metadata://entities": entities} {
		s.AddResource(mcp.NewResource(uri, uri, mcp.WithMIMEType("application/json")),
			func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: string(body)}}, nil
			})
	}
	return extraServer{id: "semantic", srv: s, cfg: config.ServerConfig{Name: "Semantic catalog",
		Transport: config.TransportInProcess, Priority: 5, Capabilities: []string{config.CapListResources}}}
}

func TestSearchRanking(t *testing.T) {
	st := newStack(t, "", semanticServer(t))
	c, _ := inProcess(t, st, clientOptions{})
	tests := []struct {
		name     string
		keywords []string
		kind     string // of the best hit
		best     string
	}{
		{"tool by its words", []string{"execute", "query"}, KindTool, "database_mcp__execute_query"},
		{"stemming", []string{"validating", "queries"}, KindTool, "database_mcp__validate_query"},
		{"column synonym", []string{"turnover"}, KindColumn, "sales.total_amount"},
		{"typo", []string{"custmer", "segmnt"}, KindColumn, "customers.segment"},
		{"entity alias", []string{"qpu"}, KindEntity, "Quantum Processor"},
		{"measure", []string{"average", "order", "value"}, KindMeasure, "average order value"},
		{"schema table", []string{"signup", "date"}, KindColumn, "customers.signup_date"},
		{"resource", []string{"schema"}, KindResource, "t2t://database_mcp/database://schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kws := make([]any, len(tt.keywords))
			for i, k := range tt.keywords {
				kws[i] = k
			}
			res := call(t, c, "search", map[string]any{"keywords": kws}, nil)
			if res.IsError {
				t.Fatalf("search: %s", text(res))
			}
			var sr searchResult
			structured(t, res, &sr)
			if len(sr.Hits) == 0 {
				t.Fatalf("search %v: no hits", tt.keywords)
			}
			if best := sr.Hits[0]; best.Kind != tt.kind || best.Name != tt.best {
				t.Errorf("search %v best = %s %q, want %s %q; hits %v", tt.keywords, best.Kind, best.Name, tt.kind, tt.best, sr.Hits)
			}
		})
	}
	res := call(t, c, "search", map[string]any{"keywords": []any{}}, nil)
	if !res.IsError {
		t.Errorf("search with no keywords = %s, want an error", text(res))
	}
	// A found tool runs through execute.
	res = call(t, c, "execute", map[string]any{"name": "database_mcp__execute_query",
		"arguments": map[string]any{"query": "SELECT COUNT(*) AS n FROM sales"}}, nil)
	if res.IsError {
		t.Errorf("execute found tool: %s", text(res))
	}
}
