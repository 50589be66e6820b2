package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/databasemcp"
	"talk2tables/internal/testfixture"
	"talk2tables/mcpserve"
	"talk2tables/metadatamcp"
)

// seedAsOf is the last day of the sample data and the day the database
// server reports as today: "this month" is its month.
const seedAsOf = "2026-11-21"

// seedMetadataServer is a product-metadata MCP server as someone would write
// it from the original design alone (docs/seed.md), not talk2tables'
// metadata-mcp: mcp-go over SSE, serving exactly the seed's three resources
// with the seed's JSON (testdata/seed/product_metadata.json, as written).
func seedMetadataServer(tb testing.TB) *httptest.Server {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "seed", "product_metadata.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var doc struct {
		LastUpdated    string          `json:"last_updated"`
		ProductAliases json.RawMessage `json:"product_aliases"`
		ColumnMappings json.RawMessage `json:"column_mappings"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		tb.Fatal(err)
	}
	summary, err := json.Marshal(map[string]any{"last_updated": doc.LastUpdated,
		"resources": []string{"product_aliases", "column_mappings", "metadata_summary"}})
	if err != nil {
		tb.Fatal(err)
	}
	s := server.NewMCPServer("product-metadata", "1.0.0", server.WithResourceCapabilities(false, false))
	for name, text := range map[string]string{
		"product_aliases":  string(doc.ProductAliases),
		"column_mappings":  string(doc.ColumnMappings),
		"metadata_summary": string(summary),
	} {
		uri := "metadata://" + name
		s.AddResource(mcp.NewResource(uri, name, mcp.WithMIMEType("application/json")),
			func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: text}}, nil
			})
	}
	hs := httptest.NewServer(server.NewSSEServer(s))
	tb.Cleanup(hs.Close)
	return hs
}

// talk2tablesSeedMetadata is talk2tables' own metadata-mcp serving the
// seed's product-metadata JSON as written, over SSE as the seed does.
func talk2tablesSeedMetadata(tb testing.TB) *httptest.Server {
	tb.Helper()
	meta, err := metadatamcp.New(filepath.Join("testdata", "seed", "product_metadata.json"), slog.New(slog.DiscardHandler))
	if err != nil {
		tb.Fatal(err)
	}
	h, err := mcpserve.Handler(meta.MCPServer(), mcpserve.SSE)
	if err != nil {
		tb.Fatal(err)
	}
	hs := httptest.NewServer(h)
	tb.Cleanup(func() { mcpserve.CloseSessions(h); hs.Close() })
	return hs
}

// TestSeedWalkthrough asks the seed's own walkthrough question, offline,
// of a stack built as the seed describes it: its mcp_config.yaml as written
// (only the two URLs point at this test's servers), talk2tables'
// database-mcp over SSE on the sample database, and a product metadata
// server serving the seed's JSON — a third-party one serving only the
// seed's three resources, or talk2tables' metadata-mcp. The seed answers
// "sales for abracadabra this month" with SUM(total_amount) of product 123
// in the current month; so must we, and the number must be the data's.
func TestSeedWalkthrough(t *testing.T) {
	for _, tt := range []struct {
		name string
		meta func(testing.TB) *httptest.Server
	}{
		{"third-party metadata server", seedMetadataServer},
		{"talk2tables metadata-mcp", talk2tablesSeedMetadata},
	} {
		t.Run(tt.name, func(t *testing.T) { seedWalkthrough(t, tt.meta(t)) })
	}
}

func seedWalkthrough(t testing.TB, metaSrv *httptest.Server) {
	t.Helper()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "sales.db")
	if _, stderr, err := runGenDataCmd(t, "--db", dbPath, "--rows", "20000", "--as-of", seedAsOf); err != nil {
		t.Fatalf("gen-data: %v\n%s", err, stderr)
	}
	db, err := databasemcp.Open(context.Background(), dbPath, databasemcp.Options{Today: seedAsOf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	dbHandler, err := mcpserve.Handler(databasemcp.NewServer(db, slog.New(slog.DiscardHandler)), mcpserve.SSE)
	if err != nil {
		t.Fatal(err)
	}
	dbSrv := httptest.NewServer(dbHandler)
	t.Cleanup(dbSrv.Close)
	t.Cleanup(func() { mcpserve.CloseSessions(dbHandler) })

	seedCfg, err := os.ReadFile(filepath.Join("testdata", "seed", "mcp_config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := strings.NewReplacer("http://localhost:8000", dbSrv.URL, "http://localhost:8002", metaSrv.URL).Replace(string(seedCfg))
	if cfg == string(seedCfg) {
		t.Fatal("the seed's config no longer names http://localhost:8000 and :8002")
	}
	cfgPath := filepath.Join(dir, "mcp_config.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &testfixture.LogBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--config", cfgPath, "--addr", "127.0.0.1:0"}, stdio{strings.NewReader(""), io.Discard, stderr})
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	base := waitForURL(t, stderr, done)

	resp, err := http.Post(base+"api/query", "application/json", strings.NewReader(`{"question":"sales for abracadabra this month"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var res struct {
		Success bool   `json:"success"`
		SQL     string `json:"sql"`
		Result  struct {
			Rows [][]any `json:"rows"`
		} `json:"result"`
		Metadata struct {
			MCPServersUsed []string `json:"mcp_servers_used"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(body, &res); err != nil || resp.StatusCode != 200 || !res.Success {
		t.Fatalf("POST /api/query = %d %s, want a successful answer", resp.StatusCode, body)
	}
	if !strings.Contains(res.SQL, "SUM(") || !strings.Contains(res.SQL, "total_amount") {
		t.Errorf("sql = %s, want SUM(total_amount) as in the seed's walkthrough", res.SQL)
	}
	if got := strings.Join(res.Metadata.MCPServersUsed, ","); !strings.Contains(got, "product_metadata_mcp") {
		t.Errorf("mcp_servers_used = %s, want the metadata server among them", got)
	}

	direct, err := sql.Open("sqlite", "file:"+dbPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	var want float64
	if err := direct.QueryRow(`SELECT SUM(total_amount) FROM sales WHERE product_id = 123
		AND sale_date >= '2026-11-01' AND sale_date < '2026-12-01'`).Scan(&want); err != nil {
		t.Fatalf("the expected total: %v", err)
	}
	if want <= 0 {
		t.Fatalf("product 123 sold nothing in %s's month: the sample cannot check the answer", seedAsOf)
	}
	if len(res.Result.Rows) != 1 || len(res.Result.Rows[0]) != 1 {
		t.Fatalf("rows = %v, want one total", res.Result.Rows)
	}
	got, ok := res.Result.Rows[0][0].(float64)
	if !ok || math.Abs(got-want) > 0.005 {
		t.Errorf("total = %v, want %.2f (SUM of total_amount of product 123 in November 2026)\nsql: %s", res.Result.Rows[0][0], want, res.SQL)
	}
}
