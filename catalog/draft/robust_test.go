package draft

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"os"
	"path/filepath"
	"talk2tables/catalog"
	"talk2tables/metadatamcp"
)

// TestDraftWhenEveryQueryTimesOut: sampling statements that all fail (here:
// a statement timeout nothing can meet) cost only what they would have told.
func TestDraftWhenEveryQueryTimesOut(t *testing.T) {
	s := draftOf(t, tradingDB(t), Options{QueryTimeout: time.Nanosecond})
	if err := s.Validate(); err != nil {
		t.Fatalf("draft without samples does not validate: %v", err)
	}
	notes := strings.Join(s.Source.Notes, "\n")
	for _, want := range []string{"Orders could not be sampled", "drafted from its names and types only", "Products: its named rows could not be read"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if len(s.Entities) != 0 {
		t.Errorf("entities = %d sets, want none (nothing could be read)", len(s.Entities))
	}
	// The schema alone still gives keys, references, declared dates and names.
	o := s.Tables["Orders"]
	if o.Key != "OrderID" || o.Columns["CustomerID"].References != "Customers.CustomerID" || o.Columns["OrderDate"].Kind != catalog.KindDate {
		t.Errorf("Orders = %+v", o)
	}
}

func TestDraftCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Draft(ctx, openSource(t, tradingDB(t)), Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Draft(cancelled) = %v, want context.Canceled", err)
	}
}

func TestDraftEmptyDatabase(t *testing.T) {
	path := buildDB(t, "CREATE TABLE t (x INTEGER); DROP TABLE t;", nil)
	_, err := Draft(context.Background(), openSource(t, path), Options{})
	if err == nil || !strings.Contains(err.Error(), "no tables or views") {
		t.Errorf("Draft(empty) = %v, want an error saying there is nothing to describe", err)
	}
}

func TestDraftBadOptions(t *testing.T) {
	_, err := Draft(context.Background(), openSource(t, tradingDB(t)), Options{MaxEntities: -1})
	if err == nil || !strings.Contains(err.Error(), "must not be negative") {
		t.Errorf("Draft(negative) = %v", err)
	}
}

// TestDraftSampleBounded: with a small sample the statistics say how many
// rows they saw.
func TestDraftSampleBounded(t *testing.T) {
	s := draftOf(t, retailDB(t), Options{SampleRows: 100})
	why := s.Tables["customers"].Columns["loyalty_tier"].Why
	if !strings.Contains(why, "in the first 100 rows") {
		t.Errorf("loyalty_tier why = %q, want it to say the sample size", why)
	}
}

// TestDraftServedUnchanged: metadata-mcp serves a draft exactly as written
// (read through an in-process MCP client).
func TestDraftServedUnchanged(t *testing.T) {
	s := draftOf(t, tradingDB(t), Options{})
	data, err := catalog.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv, err := metadatamcp.New(path, nil)
	if err != nil {
		t.Fatalf("metadata-mcp refuses the draft: %v", err)
	}
	c, err := client.NewInProcessClient(srv.MCPServer())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ClientInfo: mcp.Implementation{Name: "draft-test", Version: "1"}}}); err != nil {
		t.Fatal(err)
	}
	read := func(uri string) map[string]any {
		res, err := c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: uri}})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(res.Contents[0].(mcp.TextResourceContents).Text), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	model := read(metadatamcp.URISemanticModel)
	model["entities"] = read(metadatamcp.URIEntities)["entities"]
	joined, _ := json.Marshal(model)
	served, err := catalog.Parse("served", joined)
	if err != nil {
		t.Fatalf("served resources do not load: %v", err)
	}
	again, _ := catalog.Marshal(served)
	if string(again) != string(data) {
		t.Errorf("metadata-mcp changed the draft:\n%s", firstDiff(again, data))
	}
	sum := read(metadatamcp.URIMetadataSummary)
	if sum["tables"] != float64(len(s.Tables)) || sum["entity_sets"] != float64(len(s.Entities)) {
		t.Errorf("summary = %v", sum)
	}
}

// TestDraftOddNames: names SQLite allows and the catalog must survive —
// surrounding spaces, an empty column name, quotes, brackets, non-ASCII,
// digits, a reserved word, a table with a schema-like dot.
func TestDraftOddNames(t *testing.T) {
	path := buildDB(t, `
CREATE TABLE " Odd Table " (id INTEGER PRIMARY KEY, "" TEXT, "say ""hi""" TEXT, [weird name] TEXT, "odd]col" TEXT, "Größe" REAL, "2nd" INTEGER);
CREATE TABLE "select" ("from" INTEGER PRIMARY KEY, "order" TEXT, odd_id INTEGER REFERENCES " Odd Table "(id));
CREATE TABLE "a.b" (x INTEGER);`, func(ins func(string, ...any)) {
		for i := 1; i <= 5; i++ {
			ins(`" Odd Table "`, i, "e", `"q"`, "[w]", "]", 1.5*float64(i), i)
			ins(`"select"`, i, "o", i)
			ins(`"a.b"`, i)
		}
	})
	s := draftOf(t, path, Options{})
	if _, ok := s.Tables[" Odd Table "]; !ok {
		t.Fatalf("tables = %v, want the name as the database spells it", s.Tables)
	}
	if c := s.Tables["select"].Columns["odd_id"]; c.References != " Odd Table .id" {
		t.Errorf("odd_id references %q", c.References)
	}
	if _, ok := s.Tables[" Odd Table "].Columns[""]; ok {
		t.Error("the nameless column is in the catalog")
	}
	if !strings.Contains(strings.Join(s.Source.Notes, "\n"), "has a column without a name") {
		t.Errorf("notes = %v, want one about the nameless column", s.Source.Notes)
	}
	problems, err := Check(context.Background(), s, openSource(t, path))
	if err != nil || len(problems) != 0 {
		t.Errorf("Check = %v, %v", problems, err)
	}
}
