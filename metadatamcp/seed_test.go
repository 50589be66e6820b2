package metadatamcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/catalog"
	"talk2tables/internal/testfixture"
)

// TestSeedProductMetadata: the original design's product-metadata JSON, as
// written there, is served as the design serves it: product_aliases and
// column_mappings exactly as the file has them, and metadata_summary.
func TestSeedProductMetadata(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testfixture.RepoRoot(t), "testdata", "seed", "product_metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "product_metadata.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	mustUnmarshal(t, string(data), &file)
	h := start(t, "http", true, path)
	for uri, section := range map[string]string{URIProductAliases: "product_aliases", URIColumnMappings: "column_mappings"} {
		var got any
		mustUnmarshal(t, h.read(t, uri), &got)
		if !reflect.DeepEqual(got, file[section]) {
			t.Errorf("%s = %v\nwant the file's %s: %v", uri, got, section, file[section])
		}
	}
	var sum Summary
	mustUnmarshal(t, h.read(t, URIMetadataSummary), &sum)
	if sum.Products != 1 || sum.Aliases != 3 || sum.UserFriendlyTerms != 2 || !slices.Equal(sum.Categories, []string{"entertainment", "magic"}) ||
		sum.LastUpdated != "2024-01-15T10:00:00Z" || !slices.Contains(sum.Resources, URIProductAliases) {
		t.Errorf("summary = %+v, want 1 product, 3 aliases, 2 column mappings, its categories, last_updated and resources", sum)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := h.client.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range list.Resources {
		got = append(got, r.URI)
	}
	slices.Sort(got)
	if want := slices.Sorted(slices.Values(v1URIs())); !slices.Equal(got, want) {
		t.Errorf("resources = %v, want the design's %v", got, want)
	}
	if sum.Version != 1 {
		t.Errorf("summary version = %d, want 1", sum.Version)
	}
}

// TestReloadSwitchesVersion: a catalog file rewritten from version 2 to the
// original design's version 1 is served the new way: the resource list
// changes with it.
func TestReloadSwitchesVersion(t *testing.T) {
	path := copyCatalog(t)
	h := start(t, "inprocess", false, path)
	seed, err := os.ReadFile(filepath.Join(testfixture.RepoRoot(t), "testdata", "seed", "product_metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, seed, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	h.logs.waitCount(t, `"event":"catalog_reloaded"`, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := h.client.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Resources) != len(v1URIs()) {
		t.Errorf("resources after the switch = %d, want the design's %d", len(list.Resources), len(v1URIs()))
	}
	var aliases map[string]any
	mustUnmarshal(t, h.read(t, URIProductAliases), &aliases)
	if _, ok := aliases["abracadabra"]; !ok {
		t.Errorf("product_aliases after the switch = %v, want the file's", aliases)
	}
}

// TestSeedResourcesOfVersion2: a version-2 catalog is served in the
// original design's shape too, and that view is itself a valid version-1
// catalog naming the same products and columns.
func TestSeedResourcesOfVersion2(t *testing.T) {
	h := start(t, "inprocess", false, copyCatalog(t))
	var aliases map[string]catalog.V1Product
	mustUnmarshal(t, h.read(t, URIProductAliases), &aliases)
	var mappings catalog.V1Mappings
	mustUnmarshal(t, h.read(t, URIColumnMappings), &mappings)
	p, ok := aliases["magic wand pro"]
	if !ok || p.CanonicalID != "123" || !slices.Contains(p.Aliases, "abracadabra") || string(p.DatabaseReferences["products.product_id"]) != "123" ||
		string(p.DatabaseReferences["products.product_name"]) != `"Magic Wand Pro"` || len(p.Categories) == 0 {
		t.Errorf("product_aliases[magic wand pro] = %+v, want canonical id 123, alias abracadabra, its references and categories", p)
	}
	for _, c := range []struct{ name, got, want string }{
		{"user_friendly_terms[sales amount]", mappings.UserFriendlyTerms["sales amount"], "sales.total_amount"},
		{"date_columns[sales]", mappings.DateColumns["sales"], "sale_date"},
		{"aggregation_terms[total]", mappings.AggregationTerms["total"], "SUM"},
	} {
		if c.got != c.want {
			t.Errorf("column_mappings.%s = %q, want %q", c.name, c.got, c.want)
		}
	}
	if !slices.Contains(mappings.TableAliases["sales"], "sales") {
		t.Errorf("table_aliases[sales] = %v, want the table's words", mappings.TableAliases["sales"])
	}
	doc, err := json.Marshal(map[string]any{"product_aliases": aliases, "column_mappings": mappings})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.ParseV1("served", doc); err != nil {
		t.Errorf("the served version-1 view is not a valid version-1 catalog: %v", err)
	}
}
