package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/orchestrator/builtin"
	"talk2tables/orchestrator/sqlgen"
)

// versionRecorder is the builtin generator, recording the resource
// versions of every request it gets.
type versionRecorder struct {
	*builtin.Generator
	mu       sync.Mutex
	versions []map[string]string
}

var _ sqlgen.Generator = (*versionRecorder)(nil)

func (v *versionRecorder) Generate(ctx context.Context, req sqlgen.Request) (sqlgen.Plan, error) {
	m := map[string]string{}
	for _, s := range req.Servers {
		m[s.ID] = s.Version
	}
	v.mu.Lock()
	v.versions = append(v.versions, m)
	v.mu.Unlock()
	return v.Generator.Generate(ctx, req)
}

func (v *versionRecorder) last() map[string]string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.versions[len(v.versions)-1]
}

// catalogServer serves a semantic model and an entity list whose content a
// test can change.
func catalogServer(t testing.TB, entities *atomic.Value) *server.MCPServer {
	t.Helper()
	s := server.NewMCPServer("catalog", "1.0.0", server.WithResourceCapabilities(true, true))
	model := `{"version":2,"tables":{"sales":{"words":["sales"],"role":"fact","columns":{
		"total_amount":{"words":["revenue"],"kind":"measure","measure":"additive","unit":"money"}}}}}`
	s.AddResource(mcp.NewResource("metadata://semantic_model", "model", mcp.WithMIMEType("application/json")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "application/json", Text: model}}, nil
		})
	s.AddResource(mcp.NewResource("metadata://entities", "entities", mcp.WithMIMEType("application/json")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			b, _ := json.Marshal(map[string]any{"version": 2, "entities": entities.Load()})
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "application/json", Text: string(b)}}, nil
		})
	return s
}

// TestRefetchChangesVersionAndBuiltinRecompiles: the orchestrator hands the
// generator a version per server snapshot; a refetch (here after a
// resources/updated notification) changes it, and the builtin planner
// compiles a new model that knows the new alias, while an unchanged
// snapshot is reused without compiling.
func TestRefetchChangesVersionAndBuiltinRecompiles(t *testing.T) {
	f := newFixture(t)
	var entities atomic.Value
	entities.Store([]any{})
	meta := catalogServer(t, &entities)
	gen := &versionRecorder{Generator: builtin.New(nil)}
	o := newOrch(t, inprocConfig(), WithGenerator(gen),
		WithInProcessServer("database_mcp", f.dbServer(t)), WithInProcessServer("product_metadata_mcp", meta))
	ctx := context.Background()

	_, err := o.Process(ctx, Query{Question: "revenue for wizzbang"})
	var ge *SQLGenerationError
	if !errors.As(err, &ge) || ge.Reason != sqlgen.ReasonDeclined {
		t.Fatalf("before the alias: err = %v, want declined", err)
	}
	first := gen.last()
	if first["product_metadata_mcp"] == "" || first["database_mcp"] == "" {
		t.Fatalf("versions = %v, want one per server", first)
	}
	if _, err := o.Process(ctx, Query{Question: "total revenue"}); err != nil {
		t.Fatal(err)
	}
	if got := gen.last(); got["product_metadata_mcp"] != first["product_metadata_mcp"] {
		t.Errorf("cached snapshot changed version: %v then %v", first, got)
	}
	if n := gen.Compiles(); n != 1 {
		t.Errorf("compiles after two questions on one snapshot = %d, want 1", n)
	}

	entities.Store([]any{map[string]any{"table": "products", "key": "product_id", "columns": []any{"product_name"},
		"values": []any{map[string]any{"name": "Magic Wand Pro", "key": 123, "aliases": []any{"wizzbang"}}}}})
	meta.SendNotificationToAllClients(string(mcp.MethodNotificationResourceUpdated), map[string]any{"uri": "metadata://entities"})
	eventually(t, "invalidation", func() bool {
		s, _ := o.cache.Lookup("product_metadata_mcp", time.Now())
		return s == nil
	})

	res, err := o.Process(ctx, Query{Question: "revenue for wizzbang"})
	if err != nil {
		t.Fatalf("after the alias: %v", err)
	}
	second := gen.last()
	if second["product_metadata_mcp"] == first["product_metadata_mcp"] {
		t.Errorf("refetch kept version %q", second["product_metadata_mcp"])
	}
	if second["database_mcp"] != first["database_mcp"] {
		t.Errorf("database version changed without a refetch: %v then %v", first, second)
	}
	if n := gen.Compiles(); n != 2 {
		t.Errorf("compiles = %d, want 2 (one per version set)", n)
	}
	want := f.direct(t, "SELECT SUM(total_amount) FROM sales WHERE product_id = 123")
	if len(res.Result.Rows) != 1 || len(want) != 1 {
		t.Fatalf("rows = %v, want %v", res.Result.Rows, want)
	}
	if got, _ := res.Result.Rows[0][0].(float64); math.Abs(got-want[0][0].(float64)) > 1e-6 {
		t.Errorf("revenue for wizzbang = %v, want %v", res.Result.Rows[0][0], want[0][0])
	}
}
