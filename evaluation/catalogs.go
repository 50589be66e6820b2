package evaluation

import (
	"talk2tables/internal/fixtures"
)

// drafter drafts a catalog from a database: catalog/draft.Draft, the engine
// of `talk2tables catalog init`. It is nil until that package is on main;
// until then the fixtures of our own making are checked only for their gold
// SQL (TestGold), never with a hand-made catalog.
func drafter() CatalogFunc { return nil }

// CatalogFor returns how the named fixture's catalog is produced, or false
// when it cannot be yet (no drafter).
//
// The sample database uses its hand-maintained catalog. metadata-mcp on main
// still reads only the version-1 format, so that is
// testdata/product_metadata.json; testdata/sales_catalog.json (version 2,
// fixtures.SampleCatalogPath) replaces it when the catalog v2 loader lands.
func CatalogFor(name string) (CatalogFunc, bool) {
	if name == fixtures.Sample {
		return CatalogFile(fixtures.SampleCatalogV1Path()), true
	}
	d := drafter()
	return d, d != nil
}
