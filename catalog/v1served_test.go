package catalog_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"talk2tables/catalog"
)

// TestFromV1Resources reads the original design's product metadata as a
// third-party server serves it — each section alone, or the whole document
// — into the semantic catalog the planner reads.
func TestFromV1Resources(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "seed", "product_metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	aliases, mappings := doc["product_aliases"].(map[string]any), doc["column_mappings"].(map[string]any)
	tests := []struct {
		name string
		objs []map[string]any
	}{
		{"each section alone", []map[string]any{aliases, mappings}},
		{"the whole document", []map[string]any{doc}},
		{"each section wrapped", []map[string]any{{"product_aliases": aliases}, {"column_mappings": mappings}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, o := range tt.objs {
				if !catalog.IsV1Resource(o) {
					t.Fatalf("IsV1Resource(%v) = false", o)
				}
			}
			s := catalog.FromV1Resources(tt.objs)
			if s == nil || len(s.Entities) != 1 || len(s.Entities[0].Values) != 1 {
				t.Fatalf("entities = %+v, want one product", s)
			}
			set, e := s.Entities[0], s.Entities[0].Values[0]
			if set.Table != "products" || set.Key != "product_id" || !slices.Equal(set.Columns, []string{"product_name"}) {
				t.Errorf("set = %s.%s %v, want products.product_id named by product_name", set.Table, set.Key, set.Columns)
			}
			if e.Key != float64(123) || e.Name != "Magic Wand Pro" || !slices.Contains(e.Aliases, "abracadabra") || !slices.Contains(e.Aliases, "cadabra") {
				t.Errorf("entity = %v %q %v, want 123 Magic Wand Pro with abracadabra and cadabra", e.Key, e.Name, e.Aliases)
			}
			words := s.Tables["sales"].Columns["total_amount"].Words
			if !slices.Equal(words, []string{"sales amount", "sales", "revenue"}) {
				t.Errorf("total_amount words = %v, want sales amount, sales, revenue", words)
			}
			// "this month" means this month: no synonym needed.
			if len(s.Vocabulary.Synonyms) != 0 {
				t.Errorf("synonyms = %v, want none", s.Vocabulary.Synonyms)
			}
		})
	}
	if s := catalog.FromV1Resources([]map[string]any{{"tables": []any{}}}); s != nil {
		t.Errorf("FromV1Resources(no version-1 section) = %+v, want nil", s)
	}
	s := catalog.FromV1Resources([]map[string]any{{"user_friendly_terms": map[string]any{
		"mtd": "{date_column} >= DATE_TRUNC('month', CURRENT_DATE)", "odd": "EXTRACT(DOW FROM {date_column}) = 0"}}})
	if got := s.Vocabulary.Synonyms; len(got) != 1 || got["mtd"] != "month to date" {
		t.Errorf("synonyms = %v, want only mtd → month to date", got)
	}
}
