package metadatamcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/catalog"
	"talk2tables/internal/testfixture"
	"talk2tables/mcpserve"
)

// serveEnv makes the test binary act as the stdio server (TestMain re-exec trick).
const serveEnv = "METADATAMCP_TEST_SERVE_CATALOG"

func TestMain(m *testing.M) {
	if path := os.Getenv(serveEnv); path != "" {
		os.Exit(serveStdio(path))
	}
	os.Exit(m.Run())
}

func serveStdio(path string) int {
	logger := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	s, err := New(path, logger)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Watch(ctx)
	if err := mcpserve.Serve(ctx, s.MCPServer(), mcpserve.Options{Transport: mcpserve.Stdio, Stdin: os.Stdin, Stdout: os.Stdout, Logger: logger}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// logWatch is an io.Writer that remembers log output and lets a test wait for a line.
type logWatch struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{}
}

func newLogWatch() *logWatch { return &logWatch{changed: make(chan struct{}, 1)} }

func (w *logWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.buf.Write(p)
	w.mu.Unlock()
	select {
	case w.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

// waitCount waits until substr occurs at least n times.
func (w *logWatch) waitCount(tb testing.TB, substr string, n int) {
	tb.Helper()
	deadline := time.After(15 * time.Second)
	for {
		w.mu.Lock()
		got := strings.Count(w.buf.String(), substr)
		all := w.buf.String()
		w.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-w.changed:
		case <-deadline:
			tb.Fatalf("log never showed %q %d times; log:\n%s", substr, n, all)
		}
	}
}

// copyCatalog puts a private copy of the repository catalog in a temp dir.
func copyCatalog(tb testing.TB) string {
	tb.Helper()
	data, err := os.ReadFile(testfixture.CatalogPath(tb))
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), "catalog.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// replaceFile saves like many editors do: write a new file, rename it over the old.
func replaceFile(tb testing.TB, path string, data []byte) {
	tb.Helper()
	tmp := path + ".swp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		tb.Fatal(err)
	}
}

type harness struct {
	client *client.Client
	logs   *logWatch
	notes  chan mcp.JSONRPCNotification
	modern bool
}

// start runs a metadata server for the catalog at path over the named
// transport and connects a real mcp-go client to it.
func start(t testing.TB, kind string, legacy bool, path string) *harness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	h := &harness{logs: newLogWatch(), notes: make(chan mcp.JSONRPCNotification, 64)}
	var opts []client.ClientOption
	if legacy {
		opts = append(opts, client.WithLegacyProtocolOnly())
	}
	if kind != "stdio" {
		s, err := New(path, slog.New(slog.NewJSONHandler(h.logs, nil)))
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		done := make(chan struct{})
		go func() { defer close(done); s.Watch(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
		switch kind {
		case "inprocess":
			c, err := client.NewInProcessClientWithOptions(s.MCPServer(), opts...)
			if err != nil {
				t.Fatal(err)
			}
			h.client = c
		case "sse", "http":
			handler, err := mcpserve.Handler(s.MCPServer(), kind)
			if err != nil {
				t.Fatal(err)
			}
			hs := httptest.NewServer(handler)
			t.Cleanup(hs.Close)
			var tr transport.Interface
			if kind == "sse" {
				tr, err = transport.NewSSE(hs.URL + "/sse")
			} else {
				tr, err = transport.NewStreamableHTTP(hs.URL+"/mcp", transport.WithContinuousListening())
			}
			if err != nil {
				t.Fatal(err)
			}
			h.client = client.NewClient(tr, opts...)
		}
	} else {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		tr := transport.NewStdioWithOptions(exe, append(os.Environ(), serveEnv+"="+path), nil,
			transport.WithCommandStderrWriter(h.logs))
		h.client = client.NewClient(tr, opts...)
	}
	c := h.client
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		select {
		case h.notes <- n:
		default:
		}
	})
	if err := c.Start(ctx); err != nil {
		t.Fatalf("start client: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	initCtx, initCancel := context.WithTimeout(ctx, 20*time.Second)
	defer initCancel()
	res, err := c.Initialize(initCtx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "metadatamcp-test", Version: "1"},
	}})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if res.ServerInfo.Name != Name {
		t.Errorf("server name = %q, want %q", res.ServerInfo.Name, Name)
	}
	if res.Capabilities.Resources == nil || !res.Capabilities.Resources.Subscribe || !res.Capabilities.Resources.ListChanged {
		t.Errorf("resource capabilities = %+v, want subscribe and listChanged", res.Capabilities.Resources)
	}
	h.modern = mcp.IsModernProtocol(res.ProtocolVersion)
	if legacy && h.modern {
		t.Fatalf("legacy client negotiated %s", res.ProtocolVersion)
	}
	h.logs.waitCount(t, "catalog_watch_started", 1)
	return h
}

func (h *harness) read(t testing.TB, uri string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := h.client.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: uri}})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	if len(res.Contents) != 1 {
		t.Fatalf("read %s: %d contents, want 1", uri, len(res.Contents))
	}
	text, ok := res.Contents[0].(mcp.TextResourceContents)
	if !ok {
		t.Fatalf("read %s: contents %T, want text", uri, res.Contents[0])
	}
	if text.MIMEType != "application/json" || text.URI != uri {
		t.Errorf("read %s: uri %q mime %q, want %q application/json", uri, text.URI, text.MIMEType, uri)
	}
	if !json.Valid([]byte(text.Text)) {
		t.Errorf("read %s: not JSON: %.200s", uri, text.Text)
	}
	return text.Text
}

// subscribe asks for updates of every resource and for list changes, in the
// way the negotiated protocol version offers.
func (h *harness) subscribe(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, uri := range URIs() {
		if err := h.client.Subscribe(ctx, mcp.SubscribeRequest{Params: mcp.SubscribeParams{URI: uri}}); err != nil {
			t.Fatalf("subscribe %s: %v", uri, err)
		}
	}
	if !h.modern {
		return
	}
	filter := h.client.PendingSubscriptionFilter()
	filter.ResourcesListChanged = true
	stop, err := h.client.ListenAsync(context.Background(), filter, func(err error) { t.Errorf("listen: %v", err) })
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	t.Cleanup(stop)
	h.waitNote(t, func(n mcp.JSONRPCNotification) bool {
		return n.Method == mcp.MethodNotificationSubscriptionsAcknowledged
	}, "subscriptions acknowledged")
}

func (h *harness) waitNote(t testing.TB, match func(mcp.JSONRPCNotification) bool, what string) {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		select {
		case n := <-h.notes:
			if match(n) {
				return
			}
		case <-deadline:
			t.Fatalf("no %s notification", what)
		}
	}
}

var transports = []struct {
	name   string
	kind   string
	legacy bool
}{
	{"inprocess", "inprocess", false},
	{"inprocess legacy", "inprocess", true},
	{"stdio", "stdio", false},
	{"stdio legacy", "stdio", true},
	{"sse", "sse", true}, // SSE exists only on legacy protocol versions
	{"streamable http legacy", "http", true},
}

func TestResources(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			h := start(t, tr.kind, tr.legacy, copyCatalog(t))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			list, err := h.client.ListResources(ctx, mcp.ListResourcesRequest{})
			if err != nil {
				t.Fatalf("list resources: %v", err)
			}
			var got []string
			for _, r := range list.Resources {
				got = append(got, r.URI)
				if r.MIMEType != "application/json" || r.Description == "" {
					t.Errorf("%s: mime %q description %q, want application/json and a description", r.URI, r.MIMEType, r.Description)
				}
			}
			want := slices.Sorted(slices.Values(URIs()))
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("resources = %v, want %v", got, want)
			}
			checkServedUnchanged(t, h, testfixture.CatalogPath(t))
		})
	}
}

// checkServedUnchanged reads every resource and checks the semantic model
// plus the entities are exactly the catalog file, and the summary counts it.
func checkServedUnchanged(t testing.TB, h *harness, path string) {
	t.Helper()
	want, err := catalog.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var model map[string]any
	mustUnmarshal(t, h.read(t, URISemanticModel), &model)
	if _, has := model["entities"]; has {
		t.Errorf("semantic_model carries entities; they are a resource of their own")
	}
	if model["version"] != float64(2) {
		t.Errorf("semantic_model version = %v, want 2", model["version"])
	}
	var ents map[string]any
	mustUnmarshal(t, h.read(t, URIEntities), &ents)
	if ents["version"] != float64(2) {
		t.Errorf("entities version = %v, want 2", ents["version"])
	}
	model["entities"] = ents["entities"]
	if len(want.Entities) == 0 {
		delete(model, "entities")
	}
	joined, err := json.Marshal(model)
	if err != nil {
		t.Fatal(err)
	}
	got, err := catalog.Parse("served", joined)
	if err != nil {
		t.Fatalf("the served resources do not form a valid catalog: %v", err)
	}
	gotJSON, _ := catalog.Marshal(got)
	wantJSON, _ := catalog.Marshal(want)
	if string(gotJSON) != string(wantJSON) {
		t.Errorf("served catalog differs from the file:\n%.400s\n---\n%.400s", gotJSON, wantJSON)
	}
	var sum Summary
	mustUnmarshal(t, h.read(t, URIMetadataSummary), &sum)
	cols, values := 0, 0
	for _, tb := range want.Tables {
		cols += len(tb.Columns)
	}
	for _, set := range want.Entities {
		values += len(set.Values)
	}
	if sum.Version != 2 || sum.Tables != len(want.Tables) || sum.Columns != cols || sum.Measures != len(want.Measures) ||
		sum.EntitySets != len(want.Entities) || sum.Entities != values || sum.LastUpdated != want.LastUpdated {
		t.Errorf("summary = %+v, want %d tables, %d columns, %d measures, %d sets, %d entities, last_updated %s",
			sum, len(want.Tables), cols, len(want.Measures), len(want.Entities), values, want.LastUpdated)
	}
}

// editCatalog loads data, lets edit change it and renders it again (without
// validating: an edit may make it invalid on purpose).
func editCatalog(tb testing.TB, data []byte, edit func(*catalog.Semantic)) []byte {
	tb.Helper()
	s, err := catalog.Parse("catalog.json", data)
	if err != nil {
		tb.Fatal(err)
	}
	edit(s)
	out, err := catalog.Marshal(s)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// entity finds the entity named name in the catalog's entity sets.
func entity(tb testing.TB, s *catalog.Semantic, name string) *catalog.Entity {
	tb.Helper()
	for _, set := range s.Entities {
		for _, e := range set.Values {
			if e.Name == name {
				return e
			}
		}
	}
	tb.Fatalf("no entity %q", name)
	return nil
}

func mustUnmarshal(t testing.TB, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("unmarshal %.100s: %v", s, err)
	}
}

func TestReload(t *testing.T) {
	all := append(transports[:len(transports):len(transports)],
		struct {
			name   string
			kind   string
			legacy bool
		}{"streamable http", "http", false})
	for _, tr := range all {
		t.Run(tr.name, func(t *testing.T) {
			path := copyCatalog(t)
			h := start(t, tr.kind, tr.legacy, path)
			before := h.read(t, URIEntities)
			h.subscribe(t)

			// An invalid save: the server logs why and keeps the last good catalog.
			good, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			bad := editCatalog(t, good, func(s *catalog.Semantic) {
				e := entity(t, s, "Magic Wand Pro")
				e.Aliases = append(e.Aliases, "quantum")
			})
			replaceFile(t, path, bad)
			h.logs.waitCount(t, "catalog_reload_failed", 1)
			h.logs.waitCount(t, `\"quantum\" also names`, 1)
			if got := h.read(t, URIEntities); got != before {
				t.Errorf("after an invalid save the entities changed")
			}

			// A valid save: subscribers hear about every resource, then read the new content.
			changed := editCatalog(t, good, func(s *catalog.Semantic) {
				e := entity(t, s, "Magic Wand Pro")
				e.Aliases = append(e.Aliases, "hocus pocus")
				s.LastUpdated = "2026-11-20T08:00:00Z"
			})
			replaceFile(t, path, changed)
			seen := map[string]bool{}
			h.waitNote(t, func(n mcp.JSONRPCNotification) bool {
				if n.Method == mcp.MethodNotificationResourceUpdated {
					if uri, _ := n.Params.AdditionalFields["uri"].(string); uri != "" {
						seen[uri] = true
					}
				}
				return len(seen) == len(URIs())
			}, "resources/updated for every URI")
			if got := h.read(t, URIEntities); !strings.Contains(got, `"hocus pocus"`) {
				t.Errorf("after a valid save the entities lack the new alias: %.200s", got)
			}
			var sum Summary
			mustUnmarshal(t, h.read(t, URIMetadataSummary), &sum)
			if sum.LastUpdated != "2026-11-20T08:00:00Z" {
				t.Errorf("summary last_updated = %q, want the new 2026-11-20T08:00:00Z", sum.LastUpdated)
			}
			h.logs.waitCount(t, "catalog_reloaded", 1)
		})
	}
}

func TestNewBadCatalog(t *testing.T) {
	tests := []struct {
		name string
		data string
		want string
	}{
		{"not json", "{", "catalog.json: $: invalid JSON"},
		{"missing sections", "{}", "catalog.json: version: missing"},
		{"missing tables", `{"version": 2}`, "catalog.json: tables: missing"},
		{"version 1 naming no table", `{"product_aliases": {}, "column_mappings": {}}`, "catalog.json: $: names no table"},
		{"version 1 with a real mistake", `{"product_aliases": {"w": {"canonical_id": "PROD_1", "canonical_name": "W", "database_references": {"products.product_name": "W"}}}}`,
			"catalog.json: product_aliases.w.database_references.products.product_id: missing: add the product's row key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "catalog.json")
			os.WriteFile(path, []byte(tt.data), 0o644)
			_, err := New(path, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	if _, err := New(filepath.Join(t.TempDir(), "missing.json"), nil); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("New(missing) error = %v, want one naming the file", err)
	}
}
