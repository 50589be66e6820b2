package builtin_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"talk2tables/databasemcp"
	"talk2tables/evaluation"
	"talk2tables/internal/fixtures"
	"talk2tables/orchestrator/builtin"
	"talk2tables/orchestrator/sqlgen"
)

// TestFixturesWithoutCatalog asks every question of our own fixture
// databases (never the held-out one) with the schema alone — no catalog,
// words read from the identifiers — and requires no wrong answer: what the
// planner cannot be sure of it must decline. The correct count is logged.
func TestFixturesWithoutCatalog(t *testing.T) {
	for _, name := range fixtures.Own() {
		if name == fixtures.Sample || fixtures.HeldOut(name) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			path, err := fixtures.Build(ctx, name, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			today := fixtures.AsOf(name).Format("2006-01-02")
			req := schemaOnlyRequest(t, path, today)
			db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?mode=ro")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			qs, err := fixtures.Questions(name)
			if err != nil {
				t.Fatal(err)
			}
			g := builtin.New(nil)
			stillWrong := map[string]bool{}
			for _, q := range qs {
				if _, ok := noCatalogWrong[q.ID]; ok {
					stillWrong[q.ID] = true
				}
			}
			var correct, declined, answerable int
			for _, q := range qs {
				if len(q.Edits) > 0 {
					continue
				}
				req.Question = q.Text
				plan, err := g.Generate(ctx, req)
				var ge *sqlgen.SQLGenerationError
				if err != nil && !errors.As(err, &ge) {
					t.Fatalf("%s: %v", q.ID, err)
				}
				if q.Decline {
					if why, ok := noCatalogWrong[q.ID]; ok && err == nil {
						t.Logf("%s must be declined, known answered without a catalog (%s): %s", q.ID, why, plan.SQL)
						delete(stillWrong, q.ID)
					} else if err == nil {
						t.Errorf("%s %q must be declined, got %s", q.ID, q.Text, plan.SQL)
					}
					continue
				}
				answerable++
				if err != nil {
					declined++
					t.Logf("%s declined %q: %s", q.ID, q.Text, ge.Message)
					continue
				}
				want := table(t, db, q.Gold)
				got := table(t, db, plan.SQL)
				if err := evaluation.Compare(got, want, q.Ordered); err != nil {
					if why, ok := noCatalogWrong[q.ID]; ok {
						t.Logf("%s known wrong without a catalog (%s): %v", q.ID, why, err)
						delete(stillWrong, q.ID)
						continue
					}
					t.Errorf("%s WRONG %q:\n  sql:  %s\n  gold: %s\n  %v", q.ID, q.Text, plan.SQL, strings.Join(strings.Fields(q.Gold), " "), err)
					continue
				}
				correct++
			}
			t.Logf("%s without a catalog: %d of %d answerable correct, %d declined", name, correct, answerable, declined)
			for id := range stillWrong {
				t.Errorf("%s is no longer answered wrongly without a catalog: remove it from noCatalogWrong", id)
			}
			if floor, ok := noCatalogFloor[name]; ok && correct < floor {
				t.Errorf("%s without a catalog: %d correct, below the floor %d", name, correct, floor)
			}
		})
	}
}

// noCatalogWrong are the wrong answers the schema alone still gives on the
// benchmark-style fixtures, with why; the list only shrinks (an entry
// answered right or declined fails the test). With the drafted catalog
// every one of them is answered right or declined, except the marina and
// apiary ones (fresh, first asked 2026-11-26), which are in knownWrong there
// too (but for ap-top3-harvests-2, right with the catalog).
var noCatalogWrong = map[string]string{
	// found when day dates were first read (11th session), the same two as with the catalog
	"ds-tst-under-18":       "'tests taken by learners born after 1 January 2007' groups by learner (in knownWrong too)",
	"ps-booking-after-asof": "'bookings that start after 1 October 2025' starts from 2 October over a timestamp (arguable; in knownWrong too)",
	// salvageyard (fresh110, first asked at 495ecb2): 9 wrong and 2 must-decline answered with the schema alone
	"sy-veh-before-2008":       "'registered before 2008' compares arrived_on, not reg_year (in knownWrong too)",
	"sy-veh-year-between":      "'registered between 2010 and 2015' counts by arrived_on, not reg_year (in knownWrong too)",
	"sy-veh-2024-per-month":    "'in each month of 2024' shows the month as 'YYYY-MM', gold '01'..'12' (in knownWrong too, arguable)",
	"sy-part-2025-per-month":   "'in each month of 2025' shows the month as 'YYYY-MM' (in knownWrong too, arguable)",
	"sy-part-2025-per-month-2": "'monthly count for 2025' shows the month as 'YYYY-MM' (in knownWrong too, arguable)",
	"sy-sale-avg-by-part":      "'average sale price of each part' groups by pulled part (185 rows), not part name (in knownWrong too)",
	"sy-sale-avg-by-part-2":    "'average price by part name' groups by part_no and part_name (185 rows), not part name alone",
	"sy-decline-10":            "'who is linked to part 17' (role left open) lists the part row instead of declining",
	"sy-decline-14":            "'who bought the most parts, by name' (no buyer name in the schema) answers with the part of the greatest part_name",
	// puppetry (fresh111, first asked at 30d6666): 7 wrong with the schema alone, the same 7 as with the catalog
	// later, once weight_grams was named by "weight":
	"pup-by-weight-2":     "'sorted by weight' orders the text-typed Weight_Grams as text: with the schema alone nothing says it holds numbers",
	"pc-pi-heaviest":      "'the heaviest piece' keeps one of two pieces tied (LIMIT 1) (in knownWrong too)",
	"pup-type-list-2":     "'what types of puppet are recorded' lists only the 5 types some puppet has, not all 8 (in knownWrong too)",
	"pup-type-most":       "'the puppet type with the most puppets' keeps one of two tied types (LIMIT 1) (in knownWrong too)",
	"pup-type-most-2":     "'the type the largest number of puppets belong to' keeps one of two tied types (LIMIT 1) (in knownWrong too)",
	"pup-top-maker":       "'the maker who built the most puppets' keeps one of three tied makers (LIMIT 1) (in knownWrong too)",
	"pup-venue-town-most": "'the town with the most venues' keeps one of three tied towns (LIMIT 1) (in knownWrong too)",
	// foraging (fresh112, first asked at 30d6666): 4 wrong with the schema alone
	"fg-fi-top5":         "'the five heaviest finds with their species' ranks species by typical_weight_grams, not finds by weight_grams",
	"fg-fi-deadly-count": "'finds of deadly species' counts deadly species (2), not their finds (8)",
	"fg-fi-per-ed":       "'finds for each edibility label' counts distinct labels per label over edibility_info, not finds",
	"fg-fi-rainy":        "'finds made on forays with heavy rain' counts the forays (3), not their finds (39)",
	// signalbox (fresh118, first asked at a1a5dc6): 38 of 234 answerable right with the schema alone, 196 declined, 0 wrong: nothing to list
	// marathon (fresh115, first asked at 7430d04): 90 of 226 answerable right with the schema alone, 129 declined, 7 wrong
	"mrt-res-per-race-2":   "'number of results per race' gives race id and name, not the race_date the gold shows beside the name (arguable)",
	"mrt-res-dnf-per-race": "'DNFs in each race' gives race id and name, not the race_date the gold shows beside the name (arguable)",
	"mrt-res-per-year":     "'results in each year' groups by the first four characters of finish_time 'hh:mm:ss', not the race's year",
	"mrt-vol-per-race":     "'volunteer rows each race has' gives race id and name, not the race_date the gold shows beside the name (arguable)",
	// bowlsclub (fresh113, first asked at 30d6666): 6 of 228 answerable right with the schema alone, 222 declined, 0 wrong: nothing to list
	// later, once short identifiers were read:
	"bwc-team-biggest": "'which team has the most members' keeps one of three teams tied (LIMIT 1) (in knownWrong too)",
	// lockkeeping (fresh114, first asked at 7430d04): 105 of 262 answerable right with the schema alone, 148 declined, 9 wrong
	"lk-boat-kettle-locks-2": "'the distinct locks used by Brass Kettle' lists 12 lock rows, the gold 11 distinct names (arguable) (in knownWrong too)",
	"lk-pass-per-month-2025": "'passages in each month of 2025' groups by '2025-01' text, the gold by '01' (arguable) (in knownWrong too)",
	// vintagecars (fresh116, first asked at 7430d04): 105 of 266 answerable right with the schema alone, 159 declined, 2 wrong
	"vc-mq-top":         "'which marque has the most cars' keeps one of the two marques tied at four (LIMIT 1) (in knownWrong too)",
	"vc-mem-top-region": "'which region has the most members' keeps one of the four regions tied at five (LIMIT 1) (in knownWrong too)",
	// theatreschool (fresh109, first asked at 971e091): 3 wrong and one must-decline answered with the schema alone
	"tsc-disc-most-classes-2": "'the discipline with the largest number of classes' keeps one of two tied disciplines (LIMIT 1) (in knownWrong too)",
	"tsc-class-biggest":       "'the class with the most enrolments' keeps one of four tied classes (LIMIT 1) (in knownWrong too)",
	"tsc-show-2025-tickets":   "'showcase tickets sold in 2025' counts showcases WHERE TicketsSold = 2025 instead of summing TicketsSold for ShowDate in 2025",
	// choirfest (fresh106, first asked at 74fb748; entries written by the lead at de7203d from the schema-alone run): 6 wrong with the schema alone
	"cfz-vt-code-male-2":   "'the type code for male voice choirs' returns the code once per male voice choir (in knownWrong too)",
	"cfz-si-brenton-mvc-2": "'who sings in the Brenton Male Voice Choir' reads the choir's name as town = Brenton and voice type = Male voice, listing the choir, not its singers",
	"cfz-si-common-last":   "'most common last name' keeps one of three tied surnames (LIMIT 1) (in knownWrong too)",
	"cfz-pr-per-round":     "'performances in each round' shows round id and name but not festivalYear (in knownWrong too)",
	"cfz-pr-per-round-2":   "'per round, with the festival year' drops roundName (in knownWrong too)",
	"cfz-pr-round-best":    "'top score in each round' shows round id and name but not festivalYear (in knownWrong too)",
	// found when "during" and "still" were first read (11th session): the schema-alone reading's own faults, laid bare
	"er-gm-hired-2022-2":     "'game masters hired during 2022', a bare phrase with a time, is counted by the analyst reading, not listed",
	"tx-mix-tip-no-driver":   "'bookings with a fare under 8 still got a tip' puts 'under 8' on tip, not on the text-typed fare",
	"ys-mem-old-unlimited-2": "'members ... still active and joined before 2022' sums active instead of keeping active = 1",
	// veterinarygroup (fresh93, first asked at 6be6f34; entries written by the lead from the helper's run): 1 wrong with the schema alone, as with the catalog
	// bandtour (fresh94, first asked at 6be6f34): 2 wrong with the schema alone, the same 2 as with the catalog
	// sailingschool (fresh90, first asked at b5f97d5; entries written by the lead from the helper's run): 5 wrong with the schema alone
	"ss-student-passed-any-2":  "'list the students who passed a course' drops passed = 1 (in knownWrong too)",
	"ss-course-enrol-count-2":  "'number of enrolments per course' shows id and title, not the start date that tells the two courses of one title apart (the catalog says names repeat)",
	"ss-course-enrol-6plus":    "'courses with six or more students enrolled' shows id and title without the start date the catalog asks for when names repeat",
	"ss-course-enrol-6plus-2":  "'courses with at least 6 enrolments' shows id and title without the start date the catalog asks for when names repeat",
	"ss-course-avg-score":      "'the average score on each course' shows id and title without the start date the catalog asks for when names repeat",
	"mr-born-before-1960":      "a table's noun with a time range counts its rows (the analyst reading of 'orders last month'), here on the only date column",
	"hg-hired-after-2020":      "a table's noun with a time range counts its rows (the analyst reading of 'orders last month')",
	"ma-sailboats-by-length-2": "'in descending order of length' orders the text-typed length as text ('9.8' before '12.2')",
	// waterworks (fresh, first asked at main c231ad8): in knownWrong too.

	// foodbank (fresh, first asked at main 834c6f1): its schema-only wrong answers (a run-together "donorname" not read as a name) are now right.
	// dig (fresh, first asked at main 834c6f1): in knownWrong too but for dg-deepest-context-2.
	"dg-deepest-context-2": "'the number of the context with the greatest depth' counts contexts per depth",
	// skiresort (fresh, first asked at main d2588d8): the rest were in knownWrong too, and fixed.
	"sr-booked-jan": "'bookings made in January' filtered on LESSON_DATE, not BOOKED_DT",
	// climbing (fresh, first asked at d2588d8; these at 0c3138a): all but cg-hardest-route-2 are in knownWrong too.
	"cg-hardest-route-2": "'the name and grade of the route …' drops the Grade column it was asked to show",
	// pharmacy (fresh, first asked at main f9b4e35): right with the catalog.
	"ph-disp-2025":            "'dispensings in 2025' filtered on the prescriptions' issued_on, not dispensed_on",
	"ph-disp-per-month-2025":  "'dispensings in each month of 2025' grouped and filtered on the prescriptions' issued_on, not dispensed_on",
	"ph-disp-per-branch-2025": "'dispensings each branch made in 2025' filtered on the prescriptions' issued_on, not dispensed_on",
	// busdepot (fresh, first asked at main f9b4e35): none wrong with the schema alone (128 right, 239 declined).
	// recordlabel (fresh, first asked at main 4c238f8): all but rl-tidewater-manager, rl-over-400-2, rl-streams-per-month-2 and rl-statements-per-month are in knownWrong too.
	"rl-tidewater-manager":    "'who manages Tidewater' reads the Mentor ID self-reference and looks Tidewater up among the scouts (0 rows)",
	"rl-streams-per-month-2":  "'stream count per month' groups by the albums' Release Date month, not the Statement Month",
	"rl-statements-per-month": "'statements for each month' groups by the albums' Release Date month, not the Statement Month",
	// observatory (fresh, first asked at main 4159b8a; 9 wrong then): in knownWrong too.
	// motcentre (fresh, first asked at main 05029af; 11 wrong then).
	"mc-makes-alpha": "the schema alone does not know the makes are a few kinds: every vehicle's make, not the 13 makes",
	// wildlife (fresh, first asked at main 05029af; 6 wrong then): these show the species by key with the schema alone.
	// leisure (fresh, first asked at main bf76682).
	// vineyard (fresh, first asked at main 19f2d20; vy-labels-3, wrong then with the catalog too, is now declined).
	"vy-bottled-2025":  "'which bottlings were bottled in 2025' sums btl_bottles instead of listing the bottlings",
	"vy-ruth-scores-2": "'label, vintage and score for each of Ruth Kessler's tastings' drops the score it was asked to show",
	// recycling (fresh, first asked at main 867ac3d): its wrong answers without a catalog are now right or declined.
	// library (fresh, first asked at main 4570b93).
	"lb-loans-per-month": "'loans made in each month' groups by the copies' AcquiredDate instead of the loans' CheckoutDate",
	// weather (fresh, first asked at main 703114a): wx-cv-thunder-fog is right with the catalog now.
	"wx-cv-thunder-fog":        "'Central Vale stations that have recorded fog' shows the fog flag of every Central Vale row",
	"wx-ec-stations-elev":      "'the stations in the East Coast with their elevations' sums the elevations instead of listing each station",
	"wx-uncalibrated-stations": "'stations with an instrument never calibrated' keeps the stations with no calibrated instrument (NOT IN … IS NOT NULL): 1 row, want 6",
	// cinema (fresh, first asked at main 703114a): its schema-only wrong answers are now right or declined.
	// tutoring (fresh, first asked at main ad8bea0): three more were wrong (in knownWrong too) and tu-sixth-form-2 panicked; fixed the same day.
	"tu-top-invoiced-guardian": "'the guardian invoiced the most in total' ranks by invoice count, not the summed amount",
	// museum (fresh, first asked at main ad8bea0): 17 wrong with the schema alone, 9 of them in knownWrong too; 13 declined by general rules the same day.
	"mu-earliest-2":     "'which object was acquired first' orders the withdrawn objects by deletedAt",
	"mu-val-desc":       "'in descending order of valuation' orders the text-typed valuationGbp as text ('950' before '9400')",
	"mu-loans-2024-2":   "'loans that started in 2024' filtered on the objects' deletedAt, not the loans' outDate",
	"mu-property-names": "'what properties are recorded' lists all 136 property rows (in knownWrong too)",
	// wholesale (fresh, first asked at main 1921369): 0 right, 326 declined, ws-cash-count wrong; declined since the same day.
	// hangar: declined until "hold a C" was read (2026-11-27, fifth session); in knownWrong too.
	"hg-licence-per-trade": "'for each trade, how many staff hold a licence' filters before grouping, so trades with none have no row (arguable; in knownWrong too)",
	// makerspace (fresh, first asked at fb59d13): 10 wrong with the schema alone, 8 of them in knownWrong too.
	"ms-top-cat":      "'which category has the most tools' keeps one of the two tied at four (in knownWrong too)",
	"ms-top-cat-2":    "'the largest category by number of tools' keeps one of the two tied (in knownWrong too)",
	"ms-tool-prusa-2": "'the ids of the tools called Prusa Printer along with when they were bought' shows manufacture_year, not purchased_on",
	// kennel (fresh, first asked at main b4e3543): 20 wrong with the schema alone; all but kn-show-over-25 are in knownWrong too, four of them wrong differently there.
	"kn-top-breed":             "'which breed has the most dogs' keeps one of the three tied at four (in knownWrong too)",
	"kn-top-breed-2":           "'the breed with the largest number of dogs' keeps one of the three tied (in knownWrong too)",
	"kn-dogs-untitled-count-2": "'dogs that have no title' reads Show_Award.Title IS NULL, not Titled = 'N' (in knownWrong too)",
	"kn-pct-titled-2":          "'percent of dogs with a title' counts dogs with an award, not Titled = 'Y' (arguable; in knownWrong too)",
	"kn-never-sponsored-2":     "'members who are not the sponsor of any member' returns those with no sponsor (in knownWrong too)",
	"kn-show-2025-2":           "'shows in 2025 with their dates' counts the shows instead of listing them (in knownWrong too, counting entries there)",
	"kn-show-entries":          "'how many entries did each show have' gives Show_ID and name but not the date that tells repeated show names apart (arguable; in knownWrong too, grouped by Entry_ID there)",
	"kn-show-biggest":          "'which show had the most entries' gives Show_ID and name, not the date (arguable; in knownWrong too, grouped by Entry_ID there)",
	"kn-show-over-25":          "'shows that had more than 25 entries' gives Show_ID and name, not the date (arguable)",
	"kn-show-smallest":         "'what show had the fewest entries' gives Show_ID and name, not the date (arguable; in knownWrong too, grouped by Entry_ID there)",
	"kn-dog-most-entries-2":    "'the dog with the highest number of entries' keeps one of the two tied at 15 (in knownWrong too)",
	// couriers (fresh, first asked at b4e3543): 10 wrong with the schema alone, 6 of them in knownWrong too.
	"cr-cust-complained-2":  "'customers who complained at least once' counts orders per customer, the complaint dropped (in knownWrong too)",
	"cr-order-2025-2":       "'the orders from 2025' dates orders by the customer's signed_up_at, not placed_at",
	"cr-order-march-2025-2": "'orders in March 2025' dates orders by the customer's signed_up_at, not placed_at",
	"cr-order-per-month-2":  "'orders per month' groups by the customer's signed_up_at month, not placed_at",
	"cr-order-per-year-2":   "'orders by year' groups by the customer's signed_up_at year, not placed_at",
	// chessclub (fresh31, first asked at 1619fc0): 5 wrong with the schema alone, 4 of them in knownWrong too.
	"cc-g-most-games": "'who has played the most games overall' groups games by their Played date, not by player",
	// livestock (fresh, first asked at 1619fc0): 6 wrong + 1 must-decline answered with the schema alone, 5 of them (and the must-decline) in knownWrong too.
	"lv-max-reserve-2":         "'largest reserve price on any lot' sums bids per text reserve_price and keeps the top group, not MAX(CAST(reserve_price))",
	"lv-animals-per-species-2": "'head count by species' sums lots.head_count instead of counting animals (arguable; in knownWrong too)",
	// podcasts (fresh, first asked at 9f6fde2): 13 wrong with the schema alone, 10 of them in knownWrong too (a download row is an episode's monthly total).
	"pc-ep-explicit-per-pod":   "'for each podcast, count its explicit episodes' sums explicit over every podcast's episodes: 12 rows with zeros, not the 8 with an explicit episode (arguable)",
	"pc-ep-explicit-per-pod-2": "'how many explicit episodes each podcast has' sums explicit for every podcast: 12 rows with zeros, not 8 (arguable)",
	"pc-dl-best-month-2":       "'month with the highest total downloads' returns the single largest row, not the month with the largest SUM(total) (in knownWrong too)",
	// trams (fresh34, first asked at 9f6fde2): 6 wrong with the schema alone, all in knownWrong too.
	"tm-journey-per-month-2025":   "'for each month of 2025, how many journeys' shows the month as '2025-01', the gold as '01' (arguable; in knownWrong too)",
	"tm-journey-per-month-2025-2": "'journeys per month in 2025' shows the month as '2025-01', the gold as '01' (arguable; in knownWrong too)",
	// escaperooms (fresh35, first asked at 68efad9): 1 wrong with the schema alone, not wrong with the drafted catalog.
	"er-room-by-price-2": "'room names and price per team sorted by price ascending' orders by the text price_per_team ('105.00' before '60.00'), not CAST(price_per_team AS REAL)",
	// firebrigade (fresh36, first asked at 68efad9): 5 wrong with the schema alone, 4 in knownWrong too.
	// bakery (fresh38, first asked at 3b51901): 6 wrong with the schema alone, 2 in knownWrong too.
	"bak-prod-by-price-2":      "'vegan products and price in ascending order of price' orders by the text Price ('10.00' before '2.90'), not CAST(Price AS REAL)",
	"bak-takings-this-month-2": "'what have the shops taken in October 2025' lists shops opened in October 2025 (none), not SUM(Takings) (in knownWrong too)",
	"bak-waste-shops-over-600": "'shops that have wasted more than 600 units' filters single records on UnitsWasted > 600 (none), not SUM(UnitsWasted) per shop",
	"bak-staff-started-2025-2": "'staff with a start date in 2025' counts them (1 row), not lists them",
	// almanac (fresh37, first asked at 3b51901): 9 wrong with the schema alone, all in knownWrong too.
	"al-village-most-residents":   "'which village has the most residents' keeps one of the two villages tied at 7 (LIMIT 1) (in knownWrong too)",
	"al-village-most-residents-2": "'village with the largest number of residents' keeps one of the two tied villages (LIMIT 1) (in knownWrong too)",
	"al-wx-dry-days-2":            "'weather notes with zero rain' filters \"rain mm\" IS NULL, not 0 (in knownWrong too)",
	// coastferry (fresh39, first asked at cce38a0): 12 wrong with the schema alone, 10 in knownWrong too.
	"fy-vessel-most-cars-2":   "'give the capacity' dropped by the analyst reading beside the ranked car capacity (in knownWrong too)",
	"fy-port-by-opened":       "'ports with a known opening year, oldest first' shows only opened_year and keeps the unknown years (in knownWrong too)",
	"fy-sail-per-month-2025":  "'sailings in each month of 2025' labels months '2025-01', the gold '01' (arguable; in knownWrong too)",
	"fy-crew-home-name-2":     "'every crew member's name and home port name' shows the home_port code without joining port (in knownWrong too)",
	"fy-bk-per-sailing-max":   "'which sailing had the most passengers booked' keeps one of the four sailings tied at 22 (LIMIT 1)",
	"fy-bk-per-sailing-max-2": "'the sailing number with the largest total of booked passengers' keeps one of the four tied sailings (LIMIT 1)",
	// symphony (fresh40, first asked at cce38a0): 14 wrong with the schema alone, 12 in knownWrong too; "pieces" read as orch_concert_pieces.
	"oc-per-family":           "'musicians in each instrument family' groups by instrument id too: 13 rows, not 5 (in knownWrong too)",
	"oc-principal-per-family": "'principals in each instrument family' counts distinct families per instrument, not principals per family (in knownWrong too)",
	"oc-principal-recent":     "'which principals joined after 2015' drops is_principal = 1: every musician who joined from 2016 (18 rows, want 4)",
	"oc-prog-holloway":        "'which pieces have been performed at Holloway Hall' lists 7 pieces, the gold 6 distinct titles (arguable; in knownWrong too)",
	"oc-comp-nat-pieces":      "'pieces by composers of each nationality' groups per composer and counts performed pieces (in knownWrong too)",
	"oc-ts-over-250":          "'concerts that sold more than 250 tickets' filters single band rows on tickets_sold > 250 (none), not SUM(tickets_sold) per concert",
	// plotholders (fresh41, first asked at cce38a0): 14 wrong with the schema alone, all in knownWrong too.
	"ag-plot-largest-2":  "'plot number of largest plot by size' keeps one of the two 300 m² plots (LIMIT 1) (in knownWrong too)",
	"ag-hv-month-2025":   "'harvests per month in 2025' labels months '2025-06', the gold '06' (arguable; in knownWrong too)",
	"ag-hv-month-2025-2": "'how many harvest in each month of 2025' labels months '2025-06', the gold '06' (arguable; in knownWrong too)",
	"ag-in-dates":        "'on which dates inspections happen' lists all 112 inspected_on without DISTINCT (in knownWrong too)",
	"ag-rent-max-2":      "'tenant of the biggest single rent payment' ranks tenants by COUNT of payments, not MAX(amount) (in knownWrong too)",
	// cyclehire (fresh42, first asked at 33610f5): 4 wrong with the schema alone, three in knownWrong too.
	"ch-pl-student-2": "'who has a Student plan' lists the plan row, not the six members on it (in knownWrong too)",
	"ch-mb-hollis":    "'when did each Hollis Brandt join, and when were they born' shows birth_year twice and no joined_on (right with the catalog)",
	"ch-tr-over-free": "'trips longer than the plan's free minutes' compares plan.free_minutes > plan.free_minutes and groups by member (in knownWrong too)",
	// opticians (fresh43, first asked at 33610f5): none wrong with the schema alone (25 right, 275 declined).
	// brewhouse (fresh44, first asked at 33610f5): 4 wrong with the schema alone, three in knownWrong too.
	"bw-beer-lager-abv-2": "'what ABV does each of our lagers have' lists the DISTINCT ABVs alone, without the lagers' names (in knownWrong too)",
	"bw-del-beer-rev-2":   "'what has each beer earned from keg deliveries' lists Beer rows with deliveries, no SUM(Kegs * PricePerKeg) (in knownWrong too)",
	// radiostation (fresh45, first asked at 98d24a3): 4 wrong + 2 must-declines answered with the schema alone, three (and one must-decline) in knownWrong too.
	"rs-ar-explicit":  "'which artists have explicit tracks' lists 8 artists, the gold 7 distinct names (arguable; in knownWrong too)",
	"rs-decline-10":   "must-decline 'who presents Dub Station' (host or co-host left open) answered with first_name || ' ' || last_name = 'Dub Station'",
	"rs-show-weekday": "'which shows air on Sunday' sums calls.on_air ('air') over Sunday shows instead of listing their titles",
	"rs-pl-genre":     "'how many tracks were played by genre of show' gives one COUNT, no GROUP BY genre (in knownWrong too)",
	"rs-ad-2025":      "'what were advert fees in 2025' reads 2025 as fee = 2025, not the air year, no SUM (in knownWrong too)",
	// conference (fresh46, first asked at 98d24a3): 1 wrong with the schema alone, in knownWrong too.
	"cf-room-cap-between": "'show the rooms with a capacity between 100 and 200, with their capacity' returns the capacity alone, without the room names (in knownWrong too)",
	// icerink (fresh47, first asked at 98d24a3): 15 wrong with the schema alone, ten in knownWrong too.
	"ir-level-few":            "'which levels have fewer than 6 skaters' keeps Junior and Senior, which have none (arguable; in knownWrong too)",
	"ir-les-coach-distinct-2": "'distinct skaters taught by each coach' counts skaters by skaters.coach_id, not DISTINCT lessons.skater_id (in knownWrong too)",
	"ir-tk-top-session-2":     "'the session with the highest total of tickets sold' shows sessions.id and title, not sess_date (arguable: titles repeat; right with the catalog)",
	"ir-tk-half-full-2":       "'tickets sold over 50% of the capacity' becomes tickets.sold > 50 on single rows (in knownWrong too)",
	"ir-tk-no-senior":         "'session titles with no senior tickets' becomes age_band <> 'senior', not an anti-join (in knownWrong too)",
	"ir-tk-avg-per-title-2":   "'average tickets sold per session, for each session title' groups by session, not title (in knownWrong too)",
	"ir-rn-sizes-sorted":      "'distinct boot sizes from smallest to largest' orders the text boot_size ('10' before '2'), no CAST (right with the catalog)",
	"ir-rn-sizes-sorted-2":    "'rented boot sizes in ascending order of size' orders the text boot_size, no CAST (right with the catalog)",
	"ir-cp-entries-2":         "'number of results per competition' shows competitions.id, not comp_date (arguable: names repeat across years; right with the catalog)",
	"ir-cp-most-entries-2":    "'competition with the largest number of results' shows id, not comp_date (arguable; in knownWrong too)",
	"ir-rs-per-level":         "'competition results for each level' counts DISTINCT competitions, not results (in knownWrong too)",
	"ir-rs-avg-j1-comp":       "'average judge 1 score at each competition' shows competitions.id, not comp_date (arguable; right with the catalog)",
	// helpdesk (fresh48, first asked at 9eff0f1): 6 wrong with the schema alone, all in knownWrong too.
	// drivingschool (fresh49, first asked at 9eff0f1): 7 wrong with the schema alone, six in knownWrong too.
	"ds-les-observed-2":  "'count the observed lessons' counts DISTINCT observerId, not lessons with an observer (in knownWrong too)",
	"ds-ctr-town-passes": "'passes each town's centres recorded' counts DISTINCT centres, not passes (in knownWrong too)",
	// cidermill (fresh50, first asked at 9eff0f1): 5 wrong with the schema alone, all five in knownWrong too.
	"cm-so-last-2": "'date of the most recent order' shows pressing_date, not ordered_on (in knownWrong too)",
	// lighthouses (fresh51, first asked at fc3af74): 10 wrong with the schema alone, nine in knownWrong too.
	"lh-lh-by-height-2": "'every lighthouse with its height, sorted by height ascending' orders the text height_num as text ('9.5' after '41.0'), not CAST (right with the catalog)",
	"lh-wt-lh-keepers":  "'how many different keepers have kept watch at each lighthouse' counts keepers posted there, not DISTINCT keepers of its watches (in knownWrong too)",
	"lh-ss-tankers":     "'how many tankers have been sighted' counts sightings, not SUM(ship_cnt) (arguable; in knownWrong too)",
	// swimclub (fresh52, first asked at fc3af74): 16 wrong with the schema alone, 15 in knownWrong too (not sw-ge-isolde, declined here: the names are not known without a catalog); one more, sw-sw-joined-2025-2.
	"sw-sw-u10-or-u12-2":  "'age_group_code in ('U10', 'U12')' ANDs code = 'U10' with age_group_code = 'U12': 0, want 10 (in knownWrong too)",
	"sw-sw-joined-2025-2": "'swimmers where joined_on in 2025' counts them (1 row: 2), not the two swimmers' names (right with the catalog)",
	"sw-buddy-counts":     "'count swimmers per buddy_id' shows the buddy's name, not buddy_id (arguable; in knownWrong too)",
	"sw-la-sessions-2":    "'count training_sessions per pool_lane_id' shows pool_lanes.id, the gold pool and lane_no (arguable; in knownWrong too)",
	"sw-ga-latest-2":      "'gala with the latest gala_date' shows only gala_date, not the name (in knownWrong too)",
	// herbarium (fresh53, first asked at fc3af74): 12 wrong with the schema alone, eleven in knownWrong too.
	"hb-col-second-2":   "'second highest number of specimens' keeps one of two collectors tied at 44 (arguable; in knownWrong too)",
	"hb-loan-borrowers": "'institutions that borrowed specimens' lists collector.institution, not loan.borrower (in knownWrong too)",
	"hb-loan-per-year":  "'how many loans were made each year' groups loans by the specimen's collected_on year, not out_on (declined with the catalog)",
	// sawmill (fresh54, first asked at f835308): 2 wrong with the schema alone, one in knownWrong too.
	"sm-prod-hard-beams": "'beams in hard or very hard species' lists the species' columns, not the beams' PROD_DESC (declined with the catalog)",
	// sawmill, 2026-11-27 (seventh session): spelling out SUPP, DELIV, ORD as words answers more, and labels PRODUCT by PROD_DESC with the catalog only.
	"sm-line-big-qty":         "'order lines quantity 70 or more' lists the lines, the gold counts them (in knownWrong too; arguable)",
	"sm-line-rare-products-2": "'products on fewer than fifteen order lines' keeps the product never ordered (in knownWrong too; arguable)",
	// gardencentre (fresh55, first asked at f835308): 2 wrong with the schema alone, both in knownWrong too.
	"gc-prod-over-300-units": "'products that have sold more than 300 units' reads units as units_on_hand > 300, not SUM(quantity) (in knownWrong too)",
	// farmersmarket (fresh56, first asked at f835308): 7 wrong with the schema alone, four in knownWrong too.
	"fm-pt-fees": "'total fee paid by traders of each produce type' groups by trader too: 23 rows, want 8 (in knownWrong too)",
	// shearing (fresh57, first asked at ea02943): 4 wrong + 1 must-decline answered with the schema alone, one (and the must-decline) in knownWrong too.
	"sh-leader-base-same":  "'crews with a leader living in the crew's base town' lists base_town, never comparing the leader's home_town (in knownWrong too)",
	"sh-exp-total":         "'the total of all expenses' counts the expenses, not SUM(amount) (declined with the catalog)",
	"sh-x-veterans-2025":   "'shearers who started before 2010 did jobs in 2025' reads 2025 as start_year = 2025 too: 0 rows (declined with the catalog)",
	"sh-x-veterans-2025-2": "'2025 shearers with a start year earlier than 2010' reads 2025 as start_year = 2025 too: 0 rows (declined with the catalog)",
	"sh-decline-9":         "must-decline 'home town of the shearer listed on the Elan crew' (leader or deputy left open) answered with all Elan members' home towns (in knownWrong too)",
	// petsitting (fresh58, first asked at ea02943): 7 wrong with the schema alone, four in knownWrong too.
	"ps-booking-created-2025-01": "'bookings made in January 2025' filters pets.created_at, not bookings.created_at (right with the catalog)",
	"ps-payout-per-year":         "'total payout amount in each year' groups by sitters.created_at, not paid_on (right with the catalog)",
	"ps-payout-june-2025":        "'payouts made in June 2025' filters sitters.created_at, not paid_on (right with the catalog)",
	// canalboats (fresh59, first asked at ea02943): 7 wrong with the schema alone, all in knownWrong too.
	"cb-hire-per-month-2024":   "'hires in each month of 2024' labels the month '2024-01', the gold '01' (in knownWrong too; arguable)",
	"cb-boat-most-hired":       "'which boat has been hired the most' takes LIMIT 1 where three boats tie (in knownWrong too)",
	"cb-hirer-distinct-2025-2": "'count distinct hirers this year' counts first_hire_year = 2025, not hirers of 2025 hires (in knownWrong too)",
	"cb-repair-per-month-2025": "'repairs in each month of 2025' labels the month '2025-01', the gold '01' (in knownWrong too; arguable)",
	// energycoop (fresh60, first asked at 69ddb4d): 9 wrong with the schema alone, eight in knownWrong too.
	"ec-sp-repeat-buyers": "'members who have bought shares more than once' tests share_count > 1, not two purchases (in knownWrong too)",
	"ec-div-count-2023-2": "'count of 2023 dividend payments' filters members.joined_on in 2023, not dividend_year (right with the catalog)",
	"ec-div-never-count":  "'members who have had no dividend at all' counts dividends with dividend_year IS NULL (in knownWrong too)",
	"ec-sv-latest":        "'when was the most recent site visit, and where' shows visit_date alone, no site name (in knownWrong too)",
	// mountainhuts (fresh61, first asked at 69ddb4d): 8 wrong with the schema alone, 7 of them in knownWrong too.
	"mh-season-most-seasons":  "'which warden has worked the most seasons' takes LIMIT 1 where two wardens tie (in knownWrong too)",
	"mh-season-young-wardens": "'wardens working in 2025 born in 1985 or later' reads 2025 as birth_year too (in knownWrong too)",
	"mh-bk-per-month-2024":    "'bookings arrived in each month of 2024' labels the month '2024-06', the gold '06' (in knownWrong too; arguable)",
	"mh-bk-solo-2":            "'count the single-person bookings' sums people over all bookings, not COUNT where people = 1 (right with the catalog)",
	// poetrymag (fresh62, first asked at 69ddb4d): 6 wrong with the schema alone, five in knownWrong too.
	"pm-poet-never-published-count": "'poets who never had a poem in an issue' counts published poets with no poem: a contradiction, 0 (in knownWrong too)",
	"pm-issue-autumn-2":             "'which issues are autumn issues, and from what year' shows Year alone, no IssueNumber (in knownWrong too)",
	"pm-sub-per-month-2025":         "'submissions in each month of 2025' labels the month '2025-01', the gold '01' (in knownWrong too; arguable)",
	"pm-sub-fee-free":               "'submissions that paid no reading fee' reads no fee as ReadingFee IS NULL (0), not a fee of '0.00' (27)",
	// tileworks (fresh63, first asked at aaaa9aa): 4 wrong with the schema alone, all in knownWrong too.
	"tw-potter-trained-by-morwenna-2": "'list the potters trained by Morwenna Tregear' shows Morwenna's own trained_by, the self-reference read backwards (in knownWrong too)",
	"tw-comm-top-city":                "'which city has placed the most commissions' answers the NULL city with LIMIT 1, not the two tied cities (in knownWrong too)",
	// tyrebay (fresh65, first asked at aaaa9aa): 9 wrong with the schema alone, seven in knownWrong too.
	"tb-br-marlford-fitters":   "'fitters at the marlford branch' lists the Marlford branch rows whose fitters are at the level called Fitter, not the fitters (in knownWrong too)",
	"tb-br-marlford-fitters-2": "'who works at the branch in marlford' lists the branch row, not its fitters (in knownWrong too)",
	"tb-job-no-parts":          "'jobs w/o parts' lists the jobs with no parts, the gold counts them (in knownWrong too; arguable)",
	"tb-job-count":             "'tot jobs' lists the jobs' total column: 'total' beside a column called total, read as the column with the schema alone (right with the catalog; 'total jobs' reads the same)",
	"tb-job-biggest-date":      "'date of the biggest job' gives the day with the most jobs, not the date of the highest total (in knownWrong too; arguable)",
	// seedvault (fresh64, first asked at aaaa9aa): 23 wrong with the schema alone, 18 of them in knownWrong too.
	"sv-acc-soil-list": "'what soil types are recorded' lists all 420 accession rows, not the 6 distinct soil types (in knownWrong too)",
	"sv-packets-max":   "'which accessions in Cold Room 1 have the maximum packet count' returns MAX(packet_count), not the accessions (in knownWrong too)",
	// orienteering (fresh66, first asked at 6d3e381): 15 wrong with the schema alone, 8 of them in knownWrong too.
	"or-co-climb-total-event": "'total climb of all courses at each event' shows id and name but not the event_date the gold adds (arguable; right with the catalog)",
	"or-res-per-year":         "'how many results in each year' groups by the runner's joined_on year, not the event's date (right with the catalog)",
	"or-co-no-black-2":        "'events without a Black course' lists every non-Black course row (in knownWrong too)",
	"or-co-events-8-2":        "'events with exactly 8 courses, with their dates' leaves out the event name (in knownWrong too)",
	"or-res-not-ok":           "'results that do not have status ok' counts status IS NULL (in knownWrong too)",
	"or-res-most-runs-2":      "'runner with the most results' takes LIMIT 1 where four runners tie (in knownWrong too)",
	// vegbox (fresh67, first asked at 6d3e381): 7 wrong with the schema alone, 5 of them in knownWrong too.
	"vb-del-last-week":       "'what is the last week which has deliveries' lists the deliveries of the week 2025-10-20, not MAX(week_date) (in knownWrong too)",
	"vb-dc-grams-per-cat":    "'how many grams were delivered of each category' sums only delivered = 'yes' (in knownWrong too; arguable)",
	"vb-dc-grams-per-farm-2": "'sum of grams delivered by farm' sums only delivered = 'yes' (right or declined with the catalog; arguable)",
	"vb-dc-month-grams":      "'how many grams were delivered in each month' sums only delivered = 'yes' (right or declined with the catalog; arguable)",
	"vb-dc-delivery-50-2":    "'the produce names and grams of the delivery with id 50' shows the box size's name, not the produce items' names (in knownWrong too)",
	// quarry (fresh68, first asked at 6d3e381): 10 wrong with the schema alone, five in knownWrong too.
	"qy-sale-over-250":   "'sales above £250' filters paid > 250 (the 0/1 paid flag), not price_pence > 25000 (declined with the catalog)",
	"qy-sale-over-250-2": "'sales priced over 250 pounds' filters paid > 250, not price_pence > 25000 (declined with the catalog)",
	"qy-sale-200-300":    "'sales between £200 and £300' filters paid BETWEEN 200 AND 300, not price_pence (declined with the catalog)",
	// printshop (fresh69, first asked at 05bf553): 6 wrong with the schema alone, all in knownWrong too.
	"ps-stock-unused-2": "'stocks no job was printed on' anti-joins only status = 'printed' jobs (in knownWrong too)",
	"ps-job-items":      "'what different items have been printed' keeps only status = 'printed' jobs (in knownWrong too)",
	"ps-inv-paid-2025":  "'how much was paid in 2025' sums invoices of jobs ordered in 2025, not paid_on in 2025 (in knownWrong too)",
	// toolhire (fresh70, first asked at 05bf553): 21 wrong with the schema alone, 14 in knownWrong too.
	"th-depot-supplied-by-d01": "'depots supplied by D01' lists D01 itself, not the depots whose supply_depot_id is D01 (in knownWrong too)",
	"th-depot-no-supply":       "'depot with no supply depot' shows depot_name, not depot_code (in knownWrong too)",
	"th-depot-no-supply-2":     "'depots without a supply depot' shows depot_name, not depot_code (in knownWrong too)",
	"th-depot-tool-count-2":    "'number of tools per depot' shows id and depot_name, not depot_code (in knownWrong too)",
	"th-depot-most-tools":      "'depot with the most tools' shows id and depot_name, not depot_code (in knownWrong too)",
	"th-depot-most-tools-2":    "'depot holding the largest number of tools' shows id and depot_name, not depot_code (in knownWrong too)",
	"th-depot-staff-count":     "'staff at each depot' shows id and depot_name, not depot_code (in knownWrong too)",
	"th-depot-d05-staff":       "'who works at depot D05' lists the depot row, not its staff (in knownWrong too)",
	"th-depot-many-tools":      "'depots with at least eight tools' shows id and depot_name, not depot_code (in knownWrong too)",
	"th-depot-many-tools-2":    "'depots holding eight or more tools' shows id and depot_name, not depot_code (in knownWrong too)",
	"th-depot-unserviceable":   "'depots with a tool not serviceable' shows id and depot_name, not depot_code (in knownWrong too)",
	"th-cat-most-types":        "'category with the most tool types' takes LIMIT 1 where three tie (in knownWrong too)",
	"th-type-by-rate-2":        "'sort tool types by day rate, ascending' orders the text day_rate uncast ('9.50' after '36.00') and shows every column (right with the catalog)",
	"th-hire-2024-2":           "'number of hires in 2024' counts hires of tools bought in 2024, not hires out in 2024 (right with the catalog)",
	"th-hire-per-year":         "'hires each year' groups by the tool's bought_on year, not out_date (right with the catalog)",
	"th-hire-per-year-2":       "'hires per year' groups by the tool's bought_on year, not out_date (right with the catalog)",
	"th-hire-year-trade":       "'hires by year and customer trade' groups by the tool's bought_on year, not out_date (declined with the catalog)",
	// stainedglass (fresh71, first asked at 05bf553): 5 wrong with the schema alone, all in knownWrong too.
	"sg-ws-months-2025":    "'work sessions in each month of 2025' labels the month '2025-01', the gold '01' (in knownWrong too; arguable)",
	"sg-gs-colours":        "'list the colours of glass' reads glass_sheets through window_glass: 94 rows, not 13 (in knownWrong too)",
	"sg-gs-country-stock":  "'sheets in stock from each country' counts rows, not SUM(sheets_in_stock) (in knownWrong too)",
	"sg-wg-ruby-windows-2": "'windows containing Ruby Red' filters windows.title LIKE '%Ruby Red%', not the glass used (in knownWrong too)",
	// taxirank (fresh72, first asked at ba7ccba): 6 wrong with the schema alone, none in knownWrong (right with the catalog, which names statuses by code and cabs by plate).
	"tx-status-list":  "'booking statuses with their labels' shows id and label, not the code that names a status (right with the catalog)",
	"tx-status-per":   "'bookings with each status' groups by status id and label, not code (right with the catalog)",
	"tx-status-per-2": "'count bookings by status' groups by status id and label, not code (right with the catalog)",
	// lettings (fresh73, first asked at ba7ccba): 9 wrong with the schema alone, all in knownWrong too.
	"lt-types-most": "'property type with the most properties' takes LIMIT 1 where two types tie (in knownWrong too)",
	// yogastudio (fresh74, first asked at ba7ccba): 7 wrong with the schema alone, 6 in knownWrong too.
	"ys-room-bookings-2025":        "'attended bookings for its classes in 2025' takes the year of booked_on, not classes.starts_at (in knownWrong too; arguable)",
	"ys-cls-advanced-titles":       "'the titles of the advanced classes' lists one title per class: 100 rows, not 2 (in knownWrong too)",
	"ys-cls-advanced-titles-2":     "'which classes are at advanced level' lists every advanced class row, not the 2 distinct titles (in knownWrong too)",
	"ys-cls-months-2025-2":         "'monthly class count for 2025' reads 'monthly' as plans.billing = 'monthly', one count, no month grouping (in knownWrong too)",
	"ys-cls-studio-b-2":            "'list the class titles that run in Studio B' lists one title per class: 150 rows, not the 3 distinct titles",
	"ys-bk-members-per-title-2025": "'different members attending each title in 2025' takes the year of booked_on, not the class's starts_at (in knownWrong too; arguable)",
	"ys-x-dec-2024":                "'beginner classes in December 2024' filters booked_on, not classes.starts_at (in knownWrong too)",
	// rowingclub (fresh75, first asked at 3fe4fd9): 10 wrong with the schema alone, 8 in knownWrong too.
	"rc-rower-captains-2":    "'the names of the club captains' lists every rower with Club.Name and Captain, no Captain = 'yes' filter (in knownWrong too)",
	"rc-reg-total-dist":      "'total distance raced at each regatta' shows ID and Name, not the Date that tells the two same-named regattas apart (arguable)",
	"rc-entries-per-regatta": "'how many entries at each regatta' shows ID and Name, not the Date that tells the two same-named regattas apart (arguable)",
	// rescueteam (fresh76, first asked at 3fe4fd9): 3 wrong with the schema alone, 2 in knownWrong too.
	"mr-base-most-vols":     "'which base has the most volunteers' keeps one of the two bases tied at six (LIMIT 1; in knownWrong too)",
	"mr-co-area-high-never": "'grid areas that have never had a high severity callout' filters severity <> 'high' row by row, not NOT IN (in knownWrong too)",
	// modelrail (fresh77, first asked at 3fe4fd9): 8 wrong with the schema alone, none in knownWrong (its one wrong answer there is declined here).
	"mo-scale-loco-count":     "'locomotives in each scale' shows scales.id and name, not the code that names a scale (right with the catalog)",
	"mo-scale-top":            "'scale with the most locomotives' shows scales.id and name, not the code (right with the catalog)",
	"mo-scale-layout-count":   "'layouts built in each scale' shows scales.id and name, not the code (right with the catalog)",
	"mo-lay-scale-length-sum": "'total layout length for each scale' shows scales.id and name, not the code (right with the catalog)",
	"mo-sh-scale-shows":       "'showings per scale of layout' shows scales.id and name, not the code (right with the catalog)",
	"mo-mem-committee":        "'which members are on the committee' gives SUM(committee), one row, not the members with committee = 1 (right with the catalog)",
	"mo-mem-committee-towns":  "'committee members in each town' sums committee over every town (6 rows with zeros), not a count of committee = 1 members (right with the catalog)",
	"mo-loco-price-order-2":   "'sorted by price from highest to lowest' orders the text price_paid as text, not CAST AS REAL (right with the catalog)",
	// glasshouse (fresh79, first asked at 6078cb0): 9 wrong with the schema alone, 8 in knownWrong too.
	"gh-type-unused":  "'crop types with no varieties' looks for variety IS NULL, not types with no crop (in knownWrong too)",
	"gh-crop-count-2": "'count the crop varieties' counts DISTINCT variety, not the 12 crops (in knownWrong too)",
	"gh-crop-trays-2": "'total trays per variety' groups by variety, merging the two crops called Emerald (declined with the catalog)",
	// bellringers (fresh80, first asked at 6078cb0): 7 wrong with the schema alone, all in knownWrong too (the same SQL with the catalog).
	// spareparts (fresh78, first asked at 6078cb0): none wrong with the schema alone (14 of 330 right, 316 declined);
	// after the legacy short names were read as words (2026-11-28), seven:
	"sp-cat-most":   "'which category has the most parts' keeps one of the tied categories (LIMIT 1; in knownWrong too)",
	"sp-cat-most-2": "'the largest category by number of parts' keeps one of the tied categories (LIMIT 1; in knownWrong too)",
	// ferrytickets (fresh81, first asked at 9c04bf3): 13 wrong with the schema alone (64 of 312 right, 235 declined).
	"ft-ves-big-cap":          "'vessels that carry more than 100 passengers' counts distinct ticket holders, not capacity (in knownWrong too)",
	"ft-pax-islanders":        "'passengers who are islanders' reads the islander concession on tickets, not passengers.islander (in knownWrong too)",
	"ft-pax-not-islanders":    "'passengers who are not islanders' reads the islander concession on tickets (in knownWrong too)",
	"ft-pax-not-islanders-2":  "'which passengers are not islanders' reads the islander concession on tickets (in knownWrong too)",
	"ft-pax-islander-pct":     "'percentage of passengers who are islanders' reads the islander concession on tickets (in knownWrong too)",
	"ft-tk-conc-pct":          "'percentage of tickets with a concession' is judged different from the gold's ROUND(…, 2) here (right with the catalog)",
	"ft-tk-bought-month-2025": "the months labelled '2025-01', the gold '01' (arguable; in knownWrong too)",
	// cateringhire (fresh83, first asked at 9c04bf3): none wrong with the schema alone (5 of 302 right, 297 declined): nothing to list.
	// potteryclass (fresh82, first asked at 9c04bf3): 4 wrong with the schema alone, all in knownWrong too (the same SQL with the catalog).
	"pc-buddy-of-2":        "'the buddy of Yuki Tanbe' matches the misspelled name literally, no rows (in knownWrong too)",
	"pc-en-per-course-2":   "'enrolements per course, with the term' shows the term but not the course title (in knownWrong too)",
	"pc-en-per-student":    "'how many courses has each student enrolled on' groups by students.enrolled_on, not by student (in knownWrong too)",
	"pc-pi-fullest-firing": "'which firing had the most pieces' keeps one of three tied firings (LIMIT 1; in knownWrong too)",
	// blooddrive (fresh86, first asked at 5e82b27): four wrong with the schema alone (140 of 294 right, 150 declined).
	"bd-session-per-month-2025": "months shown as 'YYYY-MM' where the gold has 'MM' (arguable; in knownWrong too)",
	"bd-don-per-month-2024":     "months shown as 'YYYY-MM' where the gold has 'MM' (arguable; in knownWrong too)",
	// groomingsalon (fresh85, first asked at 5e82b27): 6 wrong with the schema alone, 3 in knownWrong too; 3 newsletter questions right with the catalog.
	"gs-ow-top-town":      "'which town has the most owners' keeps one of two towns tied at six (LIMIT 1; in knownWrong too)",
	"gs-ow-top-town-2":    "'what town are most owners from' keeps one of two towns tied at six (LIMIT 1; in knownWrong too)",
	"gs-ow-newsletter":    "'which owners get the newsletter' sums the 0/1 newsletter column instead of listing owners with newsletter = 1 (right with the catalog)",
	"gs-ow-falmouth-news": "'which owners in Falmouth get the newsletter' sums the 0/1 newsletter column instead of listing owners (right with the catalog)",
	"gs-dg-newsletter":    "'dogs whose owners get the newsletter' shows newsletter beside every dog instead of filtering newsletter = 1 (right with the catalog)",
	"gs-ap-avg-bill":      "'the average total charged per appointment' groups by appointment, not one average of totals (in knownWrong too)",
	// boardgames (fresh84, first asked at 5e82b27): 9 wrong with the schema alone, 5 of them only without the catalog (a loan's date read as the member's JoinedDate).
	"bg-pub-top":             "'which publisher has published the most games' keeps one of two publishers tied at four (LIMIT 1)",
	"bg-pub-top-2":           "'the publisher with the largest number of games' keeps one of two tied publishers (LIMIT 1; in knownWrong too)",
	"bg-loan-2024":           "'loans made in 2024' filters Member.JoinedDate, not Loan.LentDate (right with the catalog)",
	"bg-loan-per-year":       "'loans each year' groups by the member's JoinedDate year, not LentDate (right with the catalog)",
	"bg-loan-per-year-2":     "'loans per year' groups by the member's JoinedDate year, not LentDate (right with the catalog)",
	"bg-loan-per-month-2025": "'loans in each month of 2025' groups and filters on Member.JoinedDate, not LentDate (right with the catalog)",
	"bg-loan-march-2025":     "'loans made in March 2025' filters Member.JoinedDate, not LentDate (right with the catalog)",
	"bg-loan-across-years":   "'lent in 2024 and returned in 2025' puts both years on LentDate (in knownWrong too)",
	// kartingtrack (fresh87, first asked at 0f81e3c): 13 wrong with the schema alone, 3 of them only without the catalog.
	"kt-class-most":          "'which class has the most karts' keeps one of two classes tied at five (LIMIT 1; in knownWrong too)",
	"kt-class-most-2":        "'the largest kart class by number of karts' keeps one of two tied classes (LIMIT 1; in knownWrong too)",
	"kt-kart-38-drivers":     "'kart 38' read as Kart_ID = 38, not Kart_No (in knownWrong too)",
	"kt-kart-no-wins":        "'karts that have never won a heat' drops the win, lists karts that never raced (in knownWrong too)",
	"kt-staff-no-heat-2":     "'staff who were never marshal or starter' filters Job_Title instead of anti-joining Heat.Marshal_ID and Heat.Starter_ID (right with the catalog: declined)",
	"kt-ev-laps":             "'events that had heats of more than ten laps' sums laps per event (HAVING SUM > 10) instead of filtering Heat.Laps > 10 (right with the catalog: declined)",
	"kt-heat-no-1-starters":  "'who has started heat number 1' lists the events with a heat 1, not the Starter_ID staff (right with the catalog: declined)",
	"kt-ev-heats":            "'how many heats did each event have' labels events by id and name, no date (the names repeat; in knownWrong too)",
	"kt-x-kart-colour-38":    "'what colour is kart 38' reads Kart_ID = 38, not Kart_No (in knownWrong too)",
	"kt-x-ev-laps-per-event": "'total number of laps at each event' labels events by id and name, no date (in knownWrong too)",
	// stampauction (fresh88, first asked at 0f81e3c): 1 wrong with the schema alone, the same as with the catalog (sa-lot-double-reserve, declined since).
	// since the links read from column names (10th session): 44 more right with the schema alone, these 6 wrong
	"sa-cond-unused":      "'conditions not used by any stamp' reads 'used' as the description value 'Used' beside the link: description <> 'Used' AND used (4 rows, want 3)",
	"sa-cond-top":         "'which condition do the most stamps have' keeps one of the two conditions tied (LIMIT 1; in knownWrong too)",
	"sa-cond-top-2":       "'the most common stamp condition' keeps one of the two conditions tied (LIMIT 1; in knownWrong too)",
	"sa-st-face-high-2":   "'what stamp has the largest face value, and what is it?' ranks face values by SUM(bids.amount): 'what is it' not read as the value asked",
	"sa-au-sold-per":      "'how many lots were sold at each auction' counts every lot, not those with a buyer (in knownWrong too)",
	"sa-au-winter-stamps": "'which stamps were offered at the Winter Classics auction' lists each stamp once, the gold one row per lot (arguable; in knownWrong too)",
	// coffeeroastery (fresh89, first asked at 0f81e3c): 10 wrong with the schema alone, 5 of them only without the catalog ("bags" read as order_line.pricePerBag, counted distinct).
	"cfr-bean-variety":       "'what variety is Gatomboya' filters variety = 'Gatomboya' instead of name (right with the catalog)",
	"cfr-line-bags-total-2":  "'total number of bags sold' counts distinct pricePerBag instead of SUM(bags) (right with the catalog)",
	"cfr-line-bags-per-cafe": "'bags each cafe ordered' counts distinct pricePerBag instead of SUM(bags) (right with the catalog)",
	"cfr-line-bean-bags":     "'bags of each bean sold' counts distinct pricePerBag instead of SUM(bags) (right with the catalog)",
	"cfr-line-level-bags":    "'bags sold of each roast level' counts distinct pricePerBag instead of SUM(bags) (right with the catalog)",
	"cfr-line-leeds-bags":    "'bags cafes in Leeds ordered' counts distinct pricePerBag instead of SUM(bags) (right with the catalog)",
	// printingpress (fresh91, first asked at 3449329): 3 wrong with the schema alone, 2 of them only without the catalog.
	"pp-edn-run-total-2": "'sum the print runs of every edition' groups by Edition_ID (55 rows) instead of one total (right with the catalog)",
	"pp-edn-per-year":    "'editions released each year' groups by the book's Published_Date year, not Edition.Release_Year (right with the catalog)",
	// communitygarden (fresh92, first asked at 3449329): 2 wrong with the schema alone, 1 of them only without the catalog.
	"cgd-vol-coordinators-2": "'list the garden coordinators' shows garden.coordinatorid alone, not the volunteers' names (right with the catalog)",
	// citybikes (fresh97, first asked at 33dfec2): 5 wrong with the schema alone, the same 5 as with the catalog.
	"cb2-bike-top-colour":   "'the most common bike colour' keeps one of the two colours tied at 30 (LIMIT 1)",
	"cb2-bike-top-colour-2": "'which colour do the most bikes have' keeps one of the two colours tied at 30 (LIMIT 1)",
	"cb2-sale-latest":       "'the bike sold most recently, and to whom' orders bikes by Received_Date and never reaches sale",
	// quizleague (fresh98, first asked at 33dfec2): 5 wrong with the schema alone, 2 of them only without the catalog.
	"ql-team-2010s-2":         "'teams whose founding year is from 2010 to 2019' filters the captain's JoinedDate and shows FoundedYear (right with the catalog)",
	"ql-fix-per-month-2025":   "'fixtures in each month of 2025' groups by year-month '2025-01', gold by month '01' (arguable)",
	"ql-fix-per-month-2025-2": "'number of fixtures per month in 2025' groups by year-month '2025-01', gold by month '01' (arguable)",
	"ql-fix-march-2025":       "'list the id and date of fixtures in March 2025' drops the asked date column",
	"ql-res-per-month-2024-2": "'sum of points per month in 2024' groups by year-month '2024-01', gold by month '01' (arguable; declined with the catalog)",
	// climbinggym (fresh96, first asked at 33dfec2): 5 wrong with the schema alone, the same 5 as with the catalog.
	"cgy-wa-prow-count-2":    "'count the problems set on The Prow' counts DISTINCT problems.set_on, not the problems",
	"cgy-pr-most-climbed":    "'which problem has the most ascents' keeps one of the two problems tied at 17 (LIMIT 1)",
	"cgy-as-never-flashed-2": "'members without a single flash' lists members with a flash = 'no' ascent, not members with no flash = 'yes' ascent",
	"cgy-as-students-2":      "'count ascents by student members' groups by is_student instead of counting the students' ascents (arguable)",
	// dogshow (fresh99, first asked at adbf0f9): 5 wrong with the schema alone, the same 5 as with the catalog.
	"dsh-breed-entries":       "'how many show entries has each breed had' counts DISTINCT shows per breed, not the entries",
	"dsh-own-most-dogs":       "'which owner has the most dogs' keeps one of the three owners tied at three dogs (LIMIT 1)",
	"dsh-show-fewest-entries": "'which show had the fewest entries' keeps one of the three shows tied at 22 entries (LIMIT 1)",
	// tailoring (fresh100, first asked at adbf0f9): 2 wrong with the schema alone, the same 2 as with the catalog.
	"tl-client-chest-order": "'list patrons and chest sizes from largest to smallest chest' shows chest_size twice and no patron name",
	"tl-fit-order-dates-2":  "'when were the fittings for order 10' shows the dates without the fitting numbers the gold lists (arguable)",
	// pianotuning (fresh101, first asked at adbf0f9): 7 wrong with the schema alone, all also wrong with the catalog.
	"pt-tech-earliest-2":      "'who has been a technician the longest, by start year' orders tech_start_year DESC and returns every column",
	"pt-piano-yamaha":         "'what models of Yamaha piano are there' answers DISTINCT models (6), gold one per piano (7) (arguable)",
	"pt-visit-per-month-2025": "'visits in each month of 2025' groups by year-month '2025-01', gold by month '01' (arguable)",
	// icecream (fresh102, first asked at 40dd521): 6 wrong with the schema alone, 4 also wrong with the catalog.
	"ic-stf-per-parlour":   "'how many staff work at each parlour' shows plr_id and plr_name, not the town the gold adds (arguable)",
	"ic-stf-per-parlour-2": "'number of staff per parlour, with the town' shows town and count but no parlour name (arguable)",
	"ic-sale-per-parlour":  "'total sales amount of each parlour' shows plr_id and plr_name, not the town the gold adds (arguable)",
	"ic-sale-top-parlour":  "'which parlour has the highest sales' ranks by COUNT(*) and shows no town (the gold ranks by SUM(amount))",
	// bookbinding (fresh103, first asked at 40dd521): 5 wrong with the schema alone, the same 5 as with the catalog.
	"bb-bind-by-rate-2": "'show each binder's hourly rate, sorted descending' shows HourlyRate alone, without the binders' names",
	"bb-pat-top-city":   "'which city has the most patrons' keeps one of the four cities tied at three (LIMIT 1)",
	"bb-pat-top":        "'which patron has placed the most commissions' keeps one of the three patrons tied at 17 (LIMIT 1)",
	"bb-pat-top-2":      "'the patron with the largest number of commissions' keeps one of the three patrons tied at 17 (LIMIT 1)",
	"bb-cm-qty-avg-mat": "'average quantity used per commission for each material' groups by commission and material, not by material",
	// ferriswheel (fresh104, first asked at 40dd521): 7 wrong with the schema alone, 4 also wrong with the catalog.
	"fw-ride-by-minheight":     "'rides and their minimum height from highest to lowest' orders the text minheight ('90' above '140'), no CAST",
	"fw-site-most-visits-2":    "'the site with the most visits' keeps one of the four sites tied at three visits (LIMIT 1)",
	"fw-role-inspector-of-2":   "'give the inspector of ride day 40' answers the bare inspectorid, not the operator's name",
	"fw-role-top-inspector":    "'which inspector has inspected the most ride days' answers the bare inspectorid, not the operator's name",
	"fw-tk-top-ride-takings-2": "'the ride with the highest ticket takings' ranks rides by COUNT(*) of ticket rows, not SUM(sold * bandprice)",
	"fw-tk-family-sold-2025":   "'family tickets sold in 2025' reads 2025 as sold = 2025 and counts rows, not SUM(sold) over daydate in 2025",
	// lifeboats (fresh105, first asked at 74fb748): 1 wrong with the schema alone, the same 1 as with the catalog.
	"lb2-cls-top": "'which class has the most boats' keeps one of the two classes tied at four boats (LIMIT 1)",
	// honeyfarm (fresh107, first asked at 74fb748): 10 wrong with the schema alone, 4 also wrong with the catalog.
	"hf-hive-queen-old":     "'hives with a queen older than 2023' reads older as queen_year > 2023, not < 2023",
	"hf-shop-town-most":     "'which town has the most shops' keeps one of the two towns tied at three shops (LIMIT 1)",
	"hf-del-per-year":       "'how many jars were delivered each year' counts DISTINCT price_per_jar, not SUM(jars)",
	"hf-del-per-shop":       "'deliveries each shop received' shows shop_id and shop_name but not the town the gold adds for the two Bee Corners (arguable)",
	"hf-del-per-shop-2":     "'number of deliveries per shop, with the town' shows the count and town without the shop's name",
	"hf-del-jars-per-shop":  "'how many jars did each shop receive' counts DISTINCT price_per_jar, not SUM(jars)",
	"hf-del-top-shop":       "'which shop has received the most jars' shows shop_id and shop_name but not the town the gold adds (arguable)",
	"hf-del-top-shop-2":     "'the shop with the largest total of jars delivered' shows shop_id and shop_name but not the town the gold adds (arguable)",
	"hf-del-shop-over-20":   "'shops with more than 30 deliveries' shows shop_id and shop_name but not the town the gold adds (arguable)",
	"hf-del-jars-2023-shop": "'how many jars did each shop receive in 2023' counts DISTINCT price_per_jar, not SUM(jars), and leaves out the town",
	// watchrepair (fresh108, first asked at 495ecb2): 1 wrong with the schema alone, none with the catalog.
	"wr-part-min": "'the cheapest part and its cost' ranks parts by SUM(unit_cost) DESC, giving the dearest part (Tourbillon Cage), not the cheapest",
	// later: answered once "has not been collected" read the empty collected_on
	"wr-job-uncollected-owners": "lists each owner (11 rows); the gold's DISTINCT first and last name merges the two owners who share a name (10)",
	// cheesemakers (fresh117, first asked at a1a5dc6): 111 of 209 answerable right with the schema alone, 93 declined, 5 wrong
	"chz-milk-goat":    "'which cheeses are made from goat milk' lists batches.milk_litres of goat cheese batches, not the cheese names",
	"chz-milk-oldbeck": "'what milk is Old Beck made from' lists the litres of its batches, not the milk type",
	"chz-batch-few":    "'cheeses with fewer than ten batches' also counts Quarry Smoked, never made (arguable)",
	"chz-batch-few-2":  "'cheeses made fewer than 10 times' also counts Quarry Smoked, never made (arguable)",
}

// noCatalogFloor is the fewest questions each fixture must answer right
// with the schema alone: what the planner achieves (raise it when it does
// better; it may never fall, but for a decline traded for safety: ferries
// 89 → 88 on 2026-11-27, when a bridge as close by one of two keys made a
// join ambiguous; cinema 151 → 149 on 2026-11-27, third session, when two
// figures' words side by side, "ticket revenue", became a decline).
var noCatalogFloor = map[string]int{"bikeshop": 41, "parcels": 37, "allotments": 99, "ferries": 88, "orchestra": 82, "permits": 80, "rescue": 53, "hangar": 42, "clinic": 127, "campus": 126, "marina": 139, "apiary": 114, "waterworks": 73, "foodbank": 110, "dig": 103, "skiresort": 112, "climbing": 166, "elections": 145, "theatre": 166, "pharmacy": 167, "busdepot": 131, "recordlabel": 142, "school": 130, "festival": 90, "observatory": 138, "motcentre": 112, "wildlife": 136, "leisure": 150, "vineyard": 103, "recycling": 111, "library": 145, "weather": 103, "cinema": 149, "tutoring": 73, "museum": 98, "wholesale": 0, "makerspace": 82, "kennel": 126, "couriers": 157, "chessclub": 100, "livestock": 121, "podcasts": 95, "trams": 153, "escaperooms": 140, "firebrigade": 82, "bakery": 125, "almanac": 136, "coastferry": 146, "symphony": 96, "plotholders": 78, "cyclehire": 97, "opticians": 25, "brewhouse": 94, "radiostation": 135, "conference": 120, "icerink": 96, "helpdesk": 102, "drivingschool": 115, "cidermill": 115, "lighthouses": 85, "swimclub": 138, "herbarium": 145, "sawmill": 92, "gardencentre": 94, "farmersmarket": 92, "shearing": 24, "petsitting": 138, "canalboats": 107, "energycoop": 75, "mountainhuts": 167, "poetrymag": 119, "tileworks": 110, "tyrebay": 107, "seedvault": 119, "orienteering": 99, "vegbox": 97, "quarry": 91, "printshop": 126, "toolhire": 102, "stainedglass": 121, "taxirank": 76, "lettings": 138, "yogastudio": 96, "rowingclub": 135, "rescueteam": 79, "modelrail": 88, "glasshouse": 93, "bellringers": 73, "spareparts": 75, "ferrytickets": 63, "cateringhire": 31, "potteryclass": 136, "groomingsalon": 132, "boardgames": 118, "kartingtrack": 108, "stampauction": 112, "coffeeroastery": 157, "printingpress": 143, "communitygarden": 64, "sailingschool": 137, "bandtour": 117, "veterinarygroup": 97, "harbourmaster": 68, "citybikes": 128, "quizleague": 120, "climbinggym": 117, "dogshow": 109, "tailoring": 135, "pianotuning": 145, "icecream": 92, "bookbinding": 110, "ferriswheel": 72, "lifeboats": 119, "honeyfarm": 132, "choirfest": 132, "watchrepair": 147, "salvageyard": 139, "theatreschool": 149, "puppetry": 146, "foraging": 112, "bowlsclub": 47, "lockkeeping": 104, "vintagecars": 104, "marathon": 89, "almshouses": 69, "cheesemakers": 110, "signalbox": 37}

func schemaOnlyRequest(tb testing.TB, path, today string) sqlgen.Request {
	tb.Helper()
	db, err := databasemcp.Open(context.Background(), path, databasemcp.Options{Today: today})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	s, err := db.Schema(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	b, _ := json.Marshal(s)
	var res map[string]any
	if err := json.Unmarshal(b, &res); err != nil {
		tb.Fatal(err)
	}
	return sqlgen.Request{Dialect: "sqlite", Today: today, Servers: []sqlgen.ServerContext{
		{ID: "database_mcp", Priority: 10, Version: "1", Resources: map[string]any{"database://schema": res}}}}
}

// table runs a query the way execute_query returns results: JSON values.
func table(tb testing.TB, db *sql.DB, query string) *evaluation.Table {
	tb.Helper()
	rs, err := db.Query(query)
	if err != nil {
		tb.Fatalf("query %s: %v", query, err)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	out := &evaluation.Table{Columns: cols}
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			tb.Fatal(err)
		}
		row := make([]any, len(cols))
		for i, v := range vals {
			switch x := v.(type) {
			case int64:
				row[i] = float64(x)
			case []byte:
				row[i] = string(x)
			default:
				row[i] = x
			}
		}
		out.Rows = append(out.Rows, row)
	}
	if err := rs.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}
