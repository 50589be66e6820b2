package orchestrator

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/config"
	"talk2tables/internal/llmtest"
)

// notesServer is an in-process MCP server with one JSON resource whose
// content the test changes.
type notesServer struct {
	s    *server.MCPServer
	text atomic.Value // string
}

func newNotesServer(version string) *notesServer {
	ns := &notesServer{s: server.NewMCPServer("notes", "1.0.0", server.WithResourceCapabilities(true, true))}
	ns.set(version)
	ns.s.AddResource(mcp.NewResource("notes://current", "current", mcp.WithMIMEType("application/json")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: "notes://current",
				MIMEType: "application/json", Text: ns.text.Load().(string)}}, nil
		})
	return ns
}

func (ns *notesServer) set(version string) { ns.text.Store(`{"note":"` + version + `"}`) }

// promptRig is an orchestrator over the real database server and a notes
// server, answering with a scripted LLM that records every prompt.
func promptRig(t testing.TB, ttlSeconds int) (*Orchestrator, *notesServer, *llmtest.Server) {
	t.Helper()
	f := newFixture(t)
	cfg := inprocConfig()
	delete(cfg.MCPServers, "product_metadata_mcp")
	// Its resource is neither a schema nor a catalog: prompt: all puts it
	// in every prompt.
	cfg.MCPServers["notes_mcp"] = config.ServerConfig{Name: "Notes", Transport: config.TransportInProcess, Priority: 1,
		Capabilities: []string{config.CapListResources}, Prompt: config.PromptResources{Mode: config.PromptAll}}
	cfg.Orchestration.ResourceCacheTTL = ttlSeconds
	plan := llmtest.Plan("SELECT product_id FROM products WHERE product_id = 123", nil, "x")
	llm := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: plan} })
	ns := newNotesServer("version-1")
	o := newOrch(t, cfg, WithGenerator(llmGen(t, llm)),
		WithInProcessServer("database_mcp", f.dbServer(t)), WithInProcessServer("notes_mcp", ns.s))
	return o, ns, llm
}

// lastPrompt runs one question and returns the user prompt the LLM got.
func lastPrompt(t testing.TB, o *Orchestrator, llm *llmtest.Server) string {
	t.Helper()
	if _, err := o.Process(context.Background(), Query{Question: "product 123"}); err != nil {
		t.Fatalf("Process: %v", err)
	}
	reqs := llm.Requests()
	if len(reqs) == 0 {
		t.Fatal("the LLM got no request")
	}
	return reqs[len(reqs)-1].User()
}

func currentBase(o *Orchestrator) *requestBase {
	o.baseMu.Lock()
	defer o.baseMu.Unlock()
	return o.base
}

func TestPromptFollowsResourceChanges(t *testing.T) {
	tests := []struct {
		name string
		ttl  int // resource_cache_ttl seconds
		// change makes the orchestrator see new resources after the
		// server's content changed.
		change func(t *testing.T, o *Orchestrator, ns *notesServer)
	}{
		{name: "resource updated notification", ttl: 300, change: func(t *testing.T, o *Orchestrator, ns *notesServer) {
			ns.s.SendNotificationToAllClients(string(mcp.MethodNotificationResourceUpdated),
				map[string]any{"uri": "notes://current"})
			eventually(t, "cache invalidation", func() bool {
				s, _ := o.cache.Lookup("notes_mcp", time.Now())
				return s == nil
			})
		}},
		{name: "resource list changed notification", ttl: 300, change: func(t *testing.T, o *Orchestrator, ns *notesServer) {
			ns.s.SendNotificationToAllClients(string(mcp.MethodNotificationResourcesListChanged), nil)
			eventually(t, "cache invalidation", func() bool {
				s, _ := o.cache.Lookup("notes_mcp", time.Now())
				return s == nil
			})
		}},
		{name: "ttl expiry", ttl: 300, change: func(t *testing.T, o *Orchestrator, _ *notesServer) {
			o.cache.Expire("notes_mcp")
		}},
		{name: "caching disabled", ttl: 0, change: func(*testing.T, *Orchestrator, *notesServer) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, ns, llm := promptRig(t, tt.ttl)
			first := lastPrompt(t, o, llm)
			if !strings.Contains(first, `"note":"version-1"`) {
				t.Fatalf("first prompt lacks version-1:\n%s", first)
			}
			if tt.ttl > 0 {
				// Unchanged snapshot: the same prompt base is reused and the
				// prompt is identical.
				b1 := currentBase(o)
				again := lastPrompt(t, o, llm)
				if currentBase(o) != b1 {
					t.Error("the prompt base was rebuilt although the resources did not change")
				}
				if again != first {
					t.Errorf("prompt changed without a resource change:\ngot:\n%s\nwant:\n%s", again, first)
				}
			}
			ns.set("version-2")
			tt.change(t, o, ns)
			got := lastPrompt(t, o, llm)
			if !strings.Contains(got, `"note":"version-2"`) || strings.Contains(got, "version-1") {
				t.Errorf("prompt after the change should carry version-2 only:\n%s", got)
			}
			if want := strings.Replace(first, "version-1", "version-2", 1); got != want {
				t.Errorf("prompt after the change:\ngot:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
