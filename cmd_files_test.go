package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/catalog"
)

// TestFilesAsTables: database-mcp --db DIR serves a directory of files as
// tables (loaded into the user cache directory), answers over them, loads
// a changed file again and tells the client; catalog init --db drafts a
// catalog from the same files; a malformed file is a one-line error naming
// the file, line and column.
func TestFilesAsTables(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	dir := t.TempDir()
	writeFile := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeFile("orders.csv", "order_id,customer,order_date,amount,status\n1,Ann,2026-01-05,10.50,shipped\n2,Bo,2026-01-06,20,pending\n3,Ann,2026-02-01,5.25,shipped\n")
	writeFile("customers.jsonl", `{"customer":"Ann","region":"North"}`+"\n"+`{"customer":"Bo","region":"South"}`+"\n")

	catPath := filepath.Join(t.TempDir(), "catalog.json")
	if _, _, err := runCmd(t, "catalog", "init", "--db", dir, "--out", catPath); err != nil {
		t.Fatalf("catalog init: %v", err)
	}
	cat, err := catalog.Load(catPath)
	if err != nil {
		t.Fatal(err)
	}
	if cat.Source.Database != filepath.Base(dir) || cat.Tables["orders"] == nil || cat.Tables["customers"] == nil {
		t.Errorf("drafted catalog: source %+v, tables %d", cat.Source, len(cat.Tables))
	}

	updated := make(chan struct{}, 4)
	logs := serveStdio(t, []string{"database-mcp", "--db", dir}, mcp.LATEST_PROTOCOL_VERSION, func(c *client.Client) {
		c.OnNotification(func(n mcp.JSONRPCNotification) {
			if n.Method == string(mcp.MethodNotificationResourceUpdated) {
				updated <- struct{}{}
			}
		})
		sub := mcp.SubscribeRequest{}
		sub.Params.URI = "database://schema"
		if err := c.Subscribe(context.Background(), sub); err != nil {
			t.Fatal(err)
		}
		ask := func(q string) string {
			call := mcp.CallToolRequest{}
			call.Params.Name = "execute_query"
			call.Params.Arguments = map[string]any{"query": q}
			res, err := c.CallTool(context.Background(), call)
			if err != nil {
				t.Fatal(err)
			}
			return mcp.GetTextFromContent(res.Content[0])
		}
		got := ask("SELECT c.region, SUM(o.amount) AS total FROM orders o JOIN customers c ON c.customer = o.customer GROUP BY c.region ORDER BY c.region")
		if !strings.Contains(got, `"rows":[["North",15.75],["South",20]]`) {
			t.Errorf("join over two files = %s", got)
		}
		read := mcp.ReadResourceRequest{}
		read.Params.URI = "database://schema"
		res, err := c.ReadResource(context.Background(), read)
		if err != nil {
			t.Fatal(err)
		}
		schema := res.Contents[0].(mcp.TextResourceContents).Text
		if !strings.Contains(schema, `"database":"`+filepath.Base(dir)+`"`) || !strings.Contains(schema, `"name":"order_date","type":"DATE"`) {
			t.Errorf("schema = %s", schema)
		}
		writeFile("orders.csv", "order_id,customer,order_date,amount,status\n1,Ann,2026-01-05,10.50,shipped\n4,Bo,2026-03-01,1,pending\n")
		select {
		case <-updated:
		case <-time.After(30 * time.Second):
			t.Fatal("no resources/updated within 30 s of a changed file")
		}
		if got := ask("SELECT COUNT(*) FROM orders"); !strings.Contains(got, `"rows":[[2]]`) {
			t.Errorf("count after the change = %s", got)
		}
	})
	for _, want := range []string{`"event":"files_loaded"`, `"event":"files_reloaded"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %s:\n%s", want, logs)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(cache, "talk2tables", "files")); len(entries) == 0 {
		t.Error("nothing in the user cache directory")
	}

	writeFile("orders.csv", "order_id,customer\n1,Ann\n2\n")
	_, _, err = runCmd(t, "database-mcp", "--db", filepath.Join(dir, "orders.csv"))
	if err == nil || !strings.Contains(err.Error(), `orders.csv: line 3, column 2: column "customer" is missing`) {
		t.Errorf("malformed file: %v", err)
	}
}
