package evaluation

import (
	"context"
	"strings"
	"testing"

	"talk2tables/internal/fixtures"
)

// variants are, for every question the planner declines today, questions
// differing from it only in slot values (another value of the same column,
// another year, another N) and how their gold SQL differs; none for a
// question that names no value, year or number to vary. A question the
// planner starts declining needs an entry here (the test says which).
var variants = map[string][]Variant{
	// bikeshop
	"bs-canada-customer-orders-2025": {
		{Text: "number of orders from customers in Germany in 2024",
			Replace: []string{"'Canada'", "'Germany'", "'2025-01-01'", "'2024-01-01'", "'2026-01-01'", "'2025-01-01'"}},
		{Text: "number of orders from customers in France in 2025", Replace: []string{"'Canada'", "'France'"}},
		{Text: "number of orders from customers in the United Kingdom in 2026",
			Replace: []string{"'Canada'", "'United Kingdom'", "'2025-01-01'", "'2026-01-01'", "'2026-01-01'", "'2027-01-01'"}},
	},
	"bs-reports-to": {{Text: "list the employees who report to Diego Costa", Replace: []string{"'Jonas'", "'Diego'", "'Quinlan'", "'Costa'"}}},
	"bs-employee-email": {{Text: "what is the email of Kofi Zielinski", Replace: []string{"'Olga'", "'Kofi'", "'Lindqvist'", "'Zielinski'"}},
		{Text: "what is the email of Ines Ibarra", Replace: []string{"'Olga'", "'Ines'", "'Lindqvist'", "'Ibarra'"}}},
	// parcels
	"pc-late-2025":      {{Text: "how many shipments were late in 2024", Replace: []string{"'2025-01-01'", "'2024-01-01'", "'2026-01-01'", "'2025-01-01'"}}},
	"pc-weight-q3-2025": {{Text: "total weight shipped in Q3 2024", Replace: []string{"'2025-07-01'", "'2024-07-01'", "'2025-10-01'", "'2024-10-01'"}}},
	"pc-depot-opened": {{Text: "when did Port Selby Hub open", Replace: []string{"'Kinross Depot'", "'Port Selby Hub'"}},
		{Text: "when did Ashby Hub open", Replace: []string{"'Kinross Depot'", "'Ashby Hub'"}}},
	"pc-region-manager": {{Text: "who manages the Highlands region", Replace: []string{"'Coastal'", "'Highlands'"}},
		{Text: "who manages the Northern region", Replace: []string{"'Coastal'", "'Northern'"}}},
	"pc-declared-by-category": nil,
	"pc-fees-weight-by-depot-june": {{Text: "total fees and total weight by depot in June 2025",
		Replace: []string{"'2026-06'", "'2025-06'", "'2026-06-01'", "'2025-06-01'", "'2026-07-01'", "'2025-07-01'"}}},
	"pc-delivered-view-courier": nil,
	"pc-delivered-transit-customer": {{Text: "average delivery time of delivered shipments for Green Leaf Market in Millbrook",
		Replace: []string{"'Harbor Coffee Roasters'", "'Green Leaf Market'", "'Northgate'", "'Millbrook'"}}},
	"pc-delivered-at-max": nil,
}

// measuredForVerified reports whether TestVerifiedFixtures measures a
// fixture: the sample and the analyst fixtures (those with catalog
// edits). Held-out fixtures are left out — their questions are never
// quoted, so no variant can be written for them — and so are the plain
// benchmark-style fixtures, for which no variants are written yet.
func measuredForVerified(name string) bool {
	return !fixtures.HeldOut(name) && (name == fixtures.Sample || fixtures.EditsPath(name) != "")
}

// TestVerifiedFixtures measures verified questions on the fixtures: the
// gold SQL of a fifth of the questions the planner declines is verified
// (share 5), and — for a fuller figure — of all of them (share 1); each is
// asked as verified, as a paraphrase and as a slot variant. Targets: as
// verified and paraphrased 100% right, variants at least 90%, no wrong
// answer anywhere, and no other question's outcome moves.
func TestVerifiedFixtures(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end evaluation")
	}
	for _, share := range []int{5, 1} {
		var reps []*VerifiedReport
		for _, name := range fixtures.Names() {
			cat, ok := CatalogFor(name)
			if !ok || !measuredForVerified(name) {
				continue
			}
			modes := []bool{false}
			if fixtures.EditsPath(name) != "" {
				modes = append(modes, true)
			}
			for _, edited := range modes {
				rep, err := RunVerified(context.Background(), name, Options{Dir: t.TempDir(), Catalog: cat, Edited: edited}, share, variants)
				if err != nil {
					t.Fatalf("share 1/%d: %v", share, err)
				}
				reps = append(reps, rep)
			}
		}
		var b strings.Builder
		WriteVerifiedTable(&b, reps)
		t.Logf("verified questions, 1/%d of the declined questions verified:\n%s", share, b.String())
		var exact, para, vari VerifiedGroup
		for _, r := range reps {
			for _, g := range []struct{ sum, add *VerifiedGroup }{{&exact, &r.Exact}, {&para, &r.Paraphrase}, {&vari, &r.Variant}} {
				g.sum.Asked += g.add.Asked
				g.sum.Right += g.add.Right
				g.sum.Wrong += g.add.Wrong + g.add.Error
			}
			if len(r.Moved) > 0 {
				t.Errorf("%s: outcomes moved with verified questions in place: %v", r.Fixture, r.Moved)
			}
		}
		if exact.Right != exact.Asked || para.Right != para.Asked {
			t.Errorf("share 1/%d: as verified %d/%d, paraphrased %d/%d right; want all", share, exact.Right, exact.Asked, para.Right, para.Asked)
		}
		if vari.Asked > 0 && float64(vari.Right) < 0.9*float64(vari.Asked) {
			t.Errorf("share 1/%d: slot variants %d/%d right, below 90%%", share, vari.Right, vari.Asked)
		}
		if n := exact.Wrong + para.Wrong + vari.Wrong; n > 0 {
			t.Errorf("share 1/%d: %d wrong answers", share, n)
		}
	}
}
