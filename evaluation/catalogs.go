package evaluation

import (
	"context"
	"path/filepath"
	"time"

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

// draftTimeout bounds each sampling statement of the harness's drafts.
const draftTimeout = 2 * time.Minute

// Drafted is the CatalogFunc of `talk2tables catalog init`: it opens the
// database read-only and drafts its catalog with catalog/draft.
func Drafted(ctx context.Context, dbPath string) ([]byte, error) {
	db, err := databasemcp.Open(ctx, dbPath, databasemcp.Options{QueryTimeout: draftTimeout})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	// The drafter gives up on a sampling statement after its timeout (5 s
	// by default) and drafts that table from names alone; on a machine
	// busy with a race-detector build that can happen to a small fixture,
	// and the measure would then depend on the load. The harness drafts as
	// on an idle machine.
	s, err := draft.Draft(ctx, db, draft.Options{Database: filepath.Base(dbPath), QueryTimeout: draftTimeout})
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
