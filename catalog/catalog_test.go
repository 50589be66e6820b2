package catalog_test

import (
	"os"
	"testing"

	"talk2tables/catalog"
)

const sampleCatalog = "../testdata/sales_catalog.json"

// TestLoadSampleCatalog loads the repository's sample catalog strictly.
func TestLoadSampleCatalog(t *testing.T) {
	s, err := catalog.Load(sampleCatalog)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(s.Tables) != 4 || len(s.Entities) == 0 {
		t.Fatalf("sample catalog: %d tables, %d entity sets", len(s.Tables), len(s.Entities))
	}
	data, err := os.ReadFile(sampleCatalog)
	if err != nil {
		t.Fatal(err)
	}
	if catalog.IsVersion1(data) {
		t.Error("the sample catalog is version 1")
	}
	// It is written the way catalog init writes catalogs, so an edit by the
	// tools shows only what changed.
	if out, _ := catalog.Marshal(s); string(out) != string(data) {
		t.Error("the sample catalog is not in catalog.Marshal's form")
	}
}
