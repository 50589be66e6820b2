package databasemcp

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/internal/testfixture"
)

// replaceFile renames a copy of src over dst, the way gen-data publishes a
// new database.
func replaceFile(tb testing.TB, src, dst string) {
	tb.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	tmp := dst + ".new"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		tb.Fatal(err)
	}
}

func countSales(tb testing.TB, db *DB) int64 {
	tb.Helper()
	res, err := db.Query(context.Background(), "SELECT count(*) FROM sales", 0)
	if err != nil {
		tb.Fatal(err)
	}
	return res.Rows[0][0].(int64)
}

// TestReplacedFileIsServed: a new database renamed over the served path is
// what the next queries read (connections on the old file are dropped), the
// data version changes with it, and the schema's row counts follow.
func TestReplacedFileIsServed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sales.db")
	replaceFile(t, testfixture.SalesDB(t, 100), path)
	db := openDB(t, path, Options{Connections: 3})
	ctx := context.Background()
	// Use every connection of the pool on the old file.
	for range 6 {
		if n := countSales(t, db); n != 100 {
			t.Fatalf("count = %d, want 100", n)
		}
	}
	before := db.DataVersion()
	res, err := db.Query(ctx, "SELECT 1", 0)
	if err != nil || res.DataVersion != before {
		t.Fatalf("result data_version = %q (%v), want %q", res.DataVersion, err, before)
	}
	if s, err := db.Schema(ctx); err != nil || s.Tables[len(s.Tables)-1].RowCount != 100 {
		t.Fatalf("schema before: %+v, %v", s, err)
	}

	// A connection busy while the file is replaced goes back to the pool
	// afterwards, still reading the old file.
	busy, err := db.sql.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := busy.ExecContext(ctx, "SELECT count(*) FROM sales"); err != nil {
		t.Fatal(err)
	}
	replaceFile(t, testfixture.SalesDB(t, 300), path)
	if n := countSales(t, db); n != 300 {
		t.Fatalf("count after the file was replaced = %d, want 300", n)
	}
	busy.Close()
	for range 6 {
		if n := countSales(t, db); n != 300 {
			t.Fatalf("count after the file was replaced = %d, want 300", n)
		}
	}
	if after := db.DataVersion(); after == before {
		t.Errorf("data version %q did not change when the file was replaced", after)
	}
	s, err := db.Schema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range s.Tables {
		if tb.Name == "sales" && tb.RowCount != 300 {
			t.Errorf("schema row count of sales = %d, want 300", tb.RowCount)
		}
	}
}

// TestDataChangeNotifiesClients: NotifyDataChanges tells a connected client
// that database://schema was updated when the file is replaced.
func TestDataChangeNotifiesClients(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sales.db")
	replaceFile(t, testfixture.SalesDB(t, 100), path)
	db := openDB(t, path, Options{})
	srv := NewServer(db, nil)
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	got := make(chan string, 4)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationResourceUpdated) {
			uri, _ := n.Params.AdditionalFields["uri"].(string)
			got <- uri
		}
	})
	initialize(t, c)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { NotifyDataChanges(ctx, db, srv, nil); close(done) }()
	t.Cleanup(func() { cancel(); <-done })

	replaceFile(t, testfixture.SalesDB(t, 300), path)
	select {
	case uri := <-got:
		if uri != SchemaURI {
			t.Errorf("updated uri = %q, want %q", uri, SchemaURI)
		}
	case <-time.After(10 * DataWatchInterval):
		t.Fatal("no resources/updated notification after the database file was replaced")
	}
}
