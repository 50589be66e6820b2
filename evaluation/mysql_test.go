package evaluation

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"talk2tables/internal/fixtures"
	"talk2tables/internal/mariadbtest"
)

// sameStyleOnSQLite are fixtures whose naming style another fixture brings
// to MariaDB already (PascalCase plurals as bikeshop, lowercase names as
// ferries, Title_Snake as dig, snake_case plurals as clinic, PascalCase
// singulars as campus, snake_case singulars as apiary): asked on SQLite by TestFixtures, left out here to
// keep the race run of this package within its time budget.
var sameStyleOnSQLite = map[string]bool{fixtures.Waterworks: true, fixtures.Foodbank: true, fixtures.Elections: true,
	fixtures.Pharmacy: true, fixtures.BusDepot: true, fixtures.School: true}

// raceMariaDB are the fixtures TestFixturesMariaDB asks under the race
// detector: the sample (its edits too), a snake_case and a camelCase one.
// The race run looks for data races in the MySQL engine's path, which the
// three take as much as all; make test asks every fixture without -race.
var raceMariaDB = map[string]bool{fixtures.Sample: true, fixtures.Parcels: true, fixtures.League: true}

// TestFixturesMariaDB asks every fixture's questions (untouched and after
// edits) of a MariaDB copy of each, served by database-mcp's MySQL engine,
// with the fixture's catalog and, for the fixtures with a drafter, with the
// catalog drafted from MariaDB, and checks every answer against the gold SQL
// run on SQLite: no wrong answer, no error, and each question answered on
// MariaDB exactly when it is answered on SQLite.
func TestFixturesMariaDB(t *testing.T) {
	t.Logf("fixtures asked on SQLite only (their naming style is asked here through another): %v", slices.Sorted(maps.Keys(sameStyleOnSQLite)))
	var reports []*Report
	for _, name := range fixtures.Names() {
		cat, ok := CatalogFor(name)
		if !ok || sameStyleOnSQLite[name] || raceDetector && !raceMariaDB[name] {
			continue // under -race, a few (make test asks the rest without it)
		}
		modes := []bool{false}
		if fixtures.EditsPath(name) != "" {
			modes = append(modes, true)
		}
		for _, edited := range modes {
			lite, err := Run(context.Background(), name, Options{Dir: t.TempDir(), Catalog: cat, Edited: edited})
			if err != nil {
				t.Fatalf("%s (edited %v) on SQLite: %v", name, edited, err)
			}
			rep, err := Run(context.Background(), name, Options{Dir: t.TempDir(), Catalog: cat, Edited: edited,
				MySQL: mariadbtest.NewDBNamed(t, name).Config(), DraftFromMySQL: name != fixtures.Sample})
			if err != nil {
				t.Fatalf("%s (edited %v) on MariaDB: %v", name, edited, err)
			}
			reports = append(reports, lite, rep)
			checkSameOutcomes(t, lite, rep)
		}
	}
	var table, details strings.Builder
	if err := WriteTable(&table, reports); err != nil {
		t.Fatal(err)
	}
	if err := WriteDetails(&details, reports); err != nil {
		t.Fatal(err)
	}
	t.Logf("evaluation report:\n%s\n%s", table.String(), details.String())
}
