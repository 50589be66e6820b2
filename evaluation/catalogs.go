package evaluation

import (
	"context"
	"path/filepath"

	"talk2tables/catalog"
	"talk2tables/catalog/draft"
	"talk2tables/databasemcp"
	"talk2tables/internal/fixtures"
)

// drafter is the CatalogFunc TestFixtures drafts the fixtures' catalogs
// with: `talk2tables catalog init`'s, so the fixtures are answered with only
// what a new user gets from one command (and, for the edited runs, that
// draft plus the fixture's edits.json).
func drafter() CatalogFunc { return Drafted }

// Drafted is the CatalogFunc of `talk2tables catalog init`: it opens the
// database read-only and drafts its catalog with catalog/draft.
func Drafted(ctx context.Context, dbPath string) ([]byte, error) {
	db, err := databasemcp.Open(dbPath, databasemcp.Options{})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	s, err := draft.Draft(ctx, db, draft.Options{Database: filepath.Base(dbPath)})
	if err != nil {
		return nil, err
	}
	return catalog.Marshal(s)
}

// CatalogFor returns how the named fixture's catalog is produced, or false
// when it cannot be yet (no drafter).
//
// The sample database uses its hand-maintained catalog,
// testdata/sales_catalog.json (version 2, fixtures.SampleCatalogPath).
func CatalogFor(name string) (CatalogFunc, bool) {
	if name == fixtures.Sample {
		return CatalogFile(fixtures.SampleCatalogPath()), true
	}
	d := drafter()
	return d, d != nil
}
