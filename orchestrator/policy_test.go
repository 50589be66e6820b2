package orchestrator

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/config"
	"talk2tables/internal/testfixture"
)

// TestNotificationStormCoalesced: 100 resource update notifications in a
// burst invalidate the server's cache at most twice and are logged once, at
// DEBUG, with their count; no INFO line per notification.
func TestNotificationStormCoalesced(t *testing.T) {
	f := newFixture(t)
	cfg := inprocConfig()
	meta := newResourceServer("meta", map[string]string{
		"metadata://schema": `{"tables":[{"name":"t","columns":[{"name":"c","type":"TEXT"}]}]}`,
	}, nil)
	var logs testfixture.LogBuffer
	o, err := New(context.Background(), cfg, slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		WithInProcessServer("database_mcp", f.dbServer(t)), WithInProcessServer("product_metadata_mcp", meta.s))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	if _, err := o.cache.Gather(context.Background(), "t"); err != nil {
		t.Fatal(err)
	}
	reads := meta.reads.Load()
	for range 100 {
		meta.s.SendNotificationToAllClients(string(mcp.MethodNotificationResourceUpdated), map[string]any{"uri": "metadata://schema"})
	}
	// Each coalescing window ends with one line counting its
	// notifications: wait until every notification is counted.
	var events []map[string]any
	total := 0.0
	eventually(t, "the coalesced log lines to count the 100 notifications", func() bool {
		events = logs.Events(t, "resource_cache_invalidated")
		total = 0
		for _, e := range events {
			n, _ := e["notifications"].(float64)
			total += n
		}
		return total >= 100
	})
	for _, e := range events {
		if e["level"] != "DEBUG" {
			t.Errorf("invalidation logged at %v, want DEBUG: %v", e["level"], e)
		}
	}
	if len(events) > 2 || total != 100 {
		t.Errorf("invalidation log lines = %d counting %v notifications, want 1 or 2 lines counting 100", len(events), total)
	}
	if _, err := o.cache.Gather(context.Background(), "t"); err != nil {
		t.Fatal(err)
	}
	if got := meta.reads.Load() - reads; got > 2 {
		t.Errorf("resource reads after the storm = %d, want at most 2 (one refetch)", got)
	}
}

// TestServerEverythingNotSubscribed: the reference server-everything (npm,
// pinned) as an auxiliary server: its documents do not feed the prompt, so
// none is subscribed to and its simulated update notifications never come;
// the schema resource of the database server is subscribed to.
func TestServerEverythingNotSubscribed(t *testing.T) {
	node, entry := nodePackage(t, "@modelcontextprotocol/server-everything", "dist/index.js")
	f := newFixture(t)
	cfg := inprocConfig()
	cfg.MCPServers["everything"] = config.ServerConfig{Name: "Everything", Transport: config.TransportStdio, Command: node,
		Args: []string{entry, "stdio"}, Priority: 50, Capabilities: []string{config.CapListResources}}
	var logs testfixture.LogBuffer
	o, err := New(context.Background(), cfg, slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		WithInProcessServer("database_mcp", f.dbServer(t)), WithInProcessServer("product_metadata_mcp", f.metaServer(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	g, err := o.cache.Gather(context.Background(), "t")
	if err != nil {
		t.Fatal(err)
	}
	ev := o.clients.Conn("everything")
	n := 0
	for _, s := range g.Snaps {
		if s.ServerID == "everything" {
			n = len(s.Resources)
		}
	}
	if n == 0 {
		t.Fatal("server-everything's resources were not read")
	}
	subscribed := len(ev.Subscribed())
	if subscribed != 0 {
		t.Errorf("subscribed to %d of server-everything's resources, want none (they do not feed the prompt)", subscribed)
	}
	db := o.clients.Conn("database_mcp")
	dbSubs := slices.Contains(db.Subscribed(), "database://schema")
	canSub := db.CanSubscribe()
	if canSub && !dbSubs {
		t.Error("database://schema not subscribed to, want it (it feeds the prompt)")
	}
	// Ask it for its simulated updates: it sends one to each subscribed
	// resource at once, before its reply, then every 5 s. The stdio client
	// handles notifications in order on its reading goroutine, so when the
	// reply is back any update sent with it has invalidated the cache: the
	// cached snapshot still being there means none came.
	toggle := func() {
		t.Helper()
		err := ev.Call(context.Background(), "tools/call", func(ctx context.Context, cl *client.Client) error {
			req := mcp.CallToolRequest{}
			req.Params.Name = "toggle-subscriber-updates"
			_, err := cl.CallTool(ctx, req)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	toggle()
	if snap, expired := o.cache.Lookup("everything", time.Now()); snap == nil && !expired {
		t.Error("server-everything invalidated the cache: it sent an update for a resource, want none subscribed")
	}
	// The control: once one of its resources is subscribed to (by hand, as
	// the orchestrator would not), restarting the updates invalidates it.
	var uri string
	for _, s := range g.Snaps {
		if s.ServerID == "everything" {
			for u := range s.Resources {
				uri = u
				break
			}
		}
	}
	err = ev.Call(context.Background(), "resources/subscribe", func(ctx context.Context, cl *client.Client) error {
		req := mcp.SubscribeRequest{}
		req.Params.URI = uri
		return cl.Subscribe(ctx, req)
	})
	if err != nil {
		t.Fatal(err)
	}
	toggle() // off
	toggle() // on: an update for uri at once
	if snap, _ := o.cache.Lookup("everything", time.Now()); snap != nil {
		t.Errorf("the cache still holds server-everything's resources after an update of subscribed %s: the control failed", uri)
	}
}
