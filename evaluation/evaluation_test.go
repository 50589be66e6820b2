package evaluation

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"talk2tables/internal/fixtures"
)

// floor is the lowest correct rate (answerable questions answered right)
// a fixture run may have. The targets are 85% on the sample database
// and 60% on each fixture with only the drafted catalog; the floors start at
// just under what the offline planner achieves (measured figures beside
// each), so a regression fails. Wrong answers are never allowed, whatever the
// floor.
type floor struct {
	untouched, edited float64
}

var floors = map[string]floor{
	fixtures.Sample:   {untouched: 0.95},               // measured 100% (47/47)
	fixtures.BikeShop: {untouched: 0.90, edited: 0.90}, // 94% / 94%
	fixtures.Parcels:  {untouched: 0.80, edited: 0.80}, // 82% / 83%
	// Fresh benchmark-style questions (branch valid): unseen until their
	// wrong answers were turned into declines or answers on 2026-11-26.
	fixtures.Rescue: {untouched: 0.36}, // 64/174 (2026-11-26)
	fixtures.Hangar: {untouched: 0.31}, // 49/158 (2026-11-26)
	// Fresh benchmark-style questions (branch fresh), written without
	// reading the planner; their wrong answers are in knownWrong.
	fixtures.Clinic: {untouched: 0.55}, // 125/224 (2026-11-26)
	fixtures.Campus: {untouched: 0.60}, // 118/195 (2026-11-26)
	// Held out from the planner's development: the "never seen" figure.
	fixtures.Hotels: {untouched: 0.60, edited: 0.65}, // 68% / 70%
	// Benchmark-style questions, at what the planner on main answers
	// (2026-11-26); the target is 40%.
	fixtures.Allotments: {untouched: 0.78}, // 101/129
	fixtures.Ferries:    {untouched: 0.78}, // 104/132
	fixtures.Orchestra:  {untouched: 0.68}, // 92/134
	fixtures.Permits:    {untouched: 0.70}, // 85/121
	fixtures.League:     {untouched: 0.58}, // held out: 78/131
}

// knownWrong lists answers the planner on main gets wrong, by fixture and
// question id, with the reason. They are reported but do not fail the test;
// an entry whose question is no longer answered wrongly fails it, so the
// list only shrinks. The planner rewrite (branch planner) emptied it; the
// benchmark-style fixtures filled it again for a day (24 at main add2041),
// main at 9113ad9 emptied it; the fresh rescue and hangar fixtures brought
// 14 more, which the every-word rules of 2026-11-26 turned into answers or
// declines. The fresh clinic and campus fixtures (2026-11-26) brought 28.
var knownWrong = map[string]string{
	"clinic/cl-last-name-count-2":    "distinct owner last names counted as the owner with the most distinct pet names",
	"clinic/cl-lightest":             "'weighs the least' read as the pet with the fewest appointments",
	"clinic/cl-neutered-cats":        "'how many cats are neutered' counts distinct neutered values (2), not the neutered cats",
	"clinic/cl-neutered-cats-2":      "'count the neutered cats' counts distinct neutered values (2), not the neutered cats",
	"clinic/cl-no-breed":             "'no recorded breed' adds neutered = 'no' to breed IS NULL",
	"clinic/cl-cats-by-weight":       "'list the cats … with their weights' lists the weights only, no cat",
	"clinic/cl-qualified-after-2010": "'which vets …, and in what year' lists the years only, no vet",
	"clinic/cl-codes-over-100-2":     "'the code, description and price' drops the code",
	"clinic/cl-preventive":           "'descriptions of the Preventive treatments' lists one row per treatment given (117), not the 4 codes",
	"clinic/cl-price-50-100":         "'which treatments are priced between 50 and 100' lists the treatment rows (95), not the 6 codes",
	"clinic/cl-no-dog-owners":        "'owners who do not have a dog' read as owners with a pet that is not a dog",
	"clinic/cl-no-dog-owners-2":      "'owners who own no dogs' read as owners with a pet that is not a dog",
	"clinic/cl-no-parrot-vets":       "'never had an appointment with a parrot' becomes 'no appointment at all and one with a parrot' (empty)",
	"campus/cp-teacher-dept":         "a teacher's department taken through Department.HeadId, not Teacher.DeptCode (heads only)",
	"campus/cp-depts-no-teachers":    "'departments with no teachers' read as departments with no head",
	"campus/cp-depts-no-teachers-2":  "'departments that do not have any teacher' read as departments with no head",
	"campus/cp-credits-over-5":       "text-typed Credits compared with 5 as text ('10' < '5')",
	"campus/cp-credits-over-5-2":     "text-typed Credits compared with 5 as text ('10' < '5')",
	"campus/cp-rooms-by-capacity":    "'from smallest to largest' ordered by RoomCode, not Capacity",
	"campus/cp-math101-offered-2":    "course code MATH101 matched against Course.Title: count 0",
	"campus/cp-crane-courses":        "'courses Benedict Crane taught' read as the courses of the department he heads",
	"campus/cp-crane-courses-2":      "'courses taught by Benedict Crane' read as the courses of the department he heads",
	"campus/cp-brandt-advisor":       "'who is the advisor' answers the AdvisorId number, not the teacher",
	"campus/cp-top-grade-students":   "'who got the highest grade' answers the grade, not who",
	"campus/cp-zielinski-grades-2":   "'what grades …, and in which courses' drops the courses",
	"campus/cp-holloway-students":    "students 'taught by' a teacher read as students she advises",
	"campus/cp-decline-3":            "a write ('give every student a grade of 100') answered as a read",
	"campus/cp-decline-17":           "'which teacher does X have' answered with the advisor; the lecturer reading is not considered",
}

// heldOutWrong is how many wrong answers each held-out fixture may have:
// the held-out fixtures' questions are never named here or in the test's
// output, so they are counted, not listed. A count above the ceiling fails
// the test, and so does one below it (lower the ceiling: it only falls).
var heldOutWrong = map[string]int{
	fixtures.Hotels: 0,
	fixtures.League: 6, // 2026-11-26 (was 7 at 7a351cd)
}

// TestFixtures runs every fixture end to end through the real MCP servers and
// the orchestrator with the built-in generator, and fails on any wrong answer
// and on a correct rate below the fixture's floor. The sample database's
// database-mcp and metadata-mcp are reached over streamable HTTP, the other
// fixtures' in-process. With -short each fixture is asked once, in-process,
// with its untouched catalog.
func TestFixtures(t *testing.T) {
	var reports []*Report
	for _, name := range fixtures.Names() {
		cat, ok := catalogOnce(name)
		if !ok {
			t.Logf("%s: not evaluated end to end: no catalog drafter on this branch yet (its gold SQL is checked by TestGold)", name)
			continue
		}
		transport := InProcess
		if name == fixtures.Sample && !testing.Short() {
			transport = StreamableHTTP
		}
		modes := []bool{false}
		if fixtures.EditsPath(name) != "" && !testing.Short() {
			modes = append(modes, true)
		}
		for _, edited := range modes {
			rep, err := Run(context.Background(), name, Options{Dir: t.TempDir(), Catalog: cat, Edited: edited, Transport: transport})
			if err != nil {
				t.Fatalf("%s (edited %v): %v", name, edited, err)
			}
			reports = append(reports, rep)
			checkReport(t, rep)
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

// catalogs memoises each fixture's catalog for the test process: a
// fixture builds to the same data every time, so its draft is the same,
// and TestFixtures and TestNo5xx need not draft it twice.
var catalogs sync.Map // fixture name → []byte

// catalogOnce is CatalogFor with its result kept for the next caller.
func catalogOnce(name string) (CatalogFunc, bool) {
	cat, ok := CatalogFor(name)
	if !ok {
		return nil, false
	}
	return func(ctx context.Context, dbPath string) ([]byte, error) {
		if b, ok := catalogs.Load(name); ok {
			return b.([]byte), nil
		}
		b, err := cat(ctx, dbPath)
		if err == nil {
			catalogs.Store(name, b)
		}
		return b, err
	}, true
}

func checkReport(t testing.TB, rep *Report) {
	t.Helper()
	label := fmt.Sprintf("%s (%s)", rep.Fixture, catalogLabel(rep))
	// No question may get a 5xx, or a 4xx that does not say what was wrong
	// (TestNo5xx asks the fuzzed ones).
	for i, res := range rep.Results {
		fault := res.Fault()
		switch {
		case fault == "":
		case fixtures.HeldOut(rep.Fixture):
			t.Errorf("%s (held out): question %d of the run (not shown): %s", label, i+1, fault)
		default:
			t.Errorf("%s: %s %q: %s", label, res.Question.ID, res.Question.Text, fault)
		}
	}
	c := rep.Counts()
	f := floors[rep.Fixture]
	min := f.untouched
	if rep.Edited {
		min = f.edited
	}
	if c.CorrectRate() < min {
		t.Errorf("%s: %d of %d answerable questions correct (%.0f%%), below the floor of %.0f%%",
			label, c.Correct, c.Answerable, 100*c.CorrectRate(), 100*min)
	}
	if fixtures.HeldOut(rep.Fixture) {
		ceiling, wrong := heldOutWrong[rep.Fixture], c.Overall().Wrong
		switch {
		case wrong > ceiling:
			t.Errorf("%s (held out): %d wrong answers, more than the %d allowed (its questions are not shown: "+
				"fix the planner's general rules, never read the held-out fixture)", label, wrong, ceiling)
		case wrong < ceiling && !rep.Edited:
			t.Errorf("%s (held out): %d wrong answers, fewer than the %d allowed: lower heldOutWrong to %d", label, wrong, ceiling, wrong)
		}
		return
	}
	for _, res := range rep.Results {
		key := rep.Fixture + "/" + res.Question.ID
		reason, known := knownWrong[key]
		switch {
		case res.Outcome == Wrong && known:
			t.Logf("%s: known wrong answer %s (%s): %s", label, res.Question.ID, reason, res.Detail)
		case res.Outcome == Wrong:
			t.Errorf("%s: WRONG answer to %s %q:\n  sql: %s\n  %s", label, res.Question.ID, res.Question.Text, oneLine(res.SQL), res.Detail)
		case known && !rep.Edited:
			t.Errorf("%s: %s is listed in knownWrong but was %s: remove it from the list", label, res.Question.ID, res.Outcome)
		}
	}
}
