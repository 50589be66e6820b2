package builtin

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// breweryDB is a small brewery of our own making, for the every-word
// rules: abbreviated identifiers (BrewQty, est_cost), a numeric surrogate
// key referenced twice (the brewer and the taster of a batch), an event
// date named by its participle (started_on), a yes/no stored as a number,
// a founding year beside real dates, a quantity on a link table.
func breweryDB(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "brewery.db")
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path))
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	exec := func(q string, args ...any) {
		tb.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			tb.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE brewer (brewer_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, founded_year INTEGER,
		hired_on DATE NOT NULL, mentor_id INTEGER REFERENCES brewer(brewer_id))`)
	exec(`CREATE TABLE batch (batch_id INTEGER PRIMARY KEY, style TEXT NOT NULL,
		brewer_id INTEGER NOT NULL REFERENCES brewer(brewer_id), taster_id INTEGER REFERENCES brewer(brewer_id),
		BrewQty INTEGER NOT NULL, est_cost REAL, started_on DATE NOT NULL, filtered INTEGER NOT NULL)`)
	exec(`CREATE TABLE hop (hop_id INTEGER PRIMARY KEY, hop_name TEXT NOT NULL)`)
	exec(`CREATE TABLE batch_hop (batch_id INTEGER NOT NULL REFERENCES batch(batch_id),
		hop_id INTEGER NOT NULL REFERENCES hop(hop_id), grams INTEGER NOT NULL)`)
	names := []string{"Ada Brook", "Ben Carver", "Cleo Dunn", "Dev Ennis", "Eve Frost"}
	for i, n := range names {
		var mentor any
		if i%2 == 1 {
			mentor = 1
		}
		exec(`INSERT INTO brewer VALUES (?,?,?,?,?)`, i+1, n, 1990+3*i, fmt.Sprintf("20%02d-0%d-15", 10+i, 1+i), mentor)
	}
	styles := []string{"Stout", "Porter", "Saison", "Pilsner", "Bitter"}
	for i := 1; i <= 24; i++ {
		var taster any
		if i%3 != 0 {
			taster = 1 + (i+2)%5
		}
		var cost any
		if i%5 != 0 {
			cost = float64(100 + 17*i)
		}
		exec(`INSERT INTO batch VALUES (?,?,?,?,?,?,?,?)`, i, styles[i%5], 1+i%5, taster, 20+i*3, cost,
			fmt.Sprintf("2025-%02d-%02d", 1+i%12, 1+i%27), i%2)
	}
	for i, h := range []string{"Cascade", "Fuggle", "Saaz", "Galena"} {
		exec(`INSERT INTO hop VALUES (?,?)`, i+1, h)
	}
	for i := 1; i <= 24; i++ {
		exec(`INSERT INTO batch_hop VALUES (?,?,?)`, i, 1+i%4, 50+i)
		exec(`INSERT INTO batch_hop VALUES (?,?,?)`, i, 1+(i+1)%4, 30+i)
	}
	return path
}

// TestEveryWordRules: each construct the every-word rules read is answered
// right, on the schema alone and with the drafted catalog, and each word the
// plan could not use makes a decline, never a silent drop.
func TestEveryWordRules(t *testing.T) {
	path := breweryDB(t)
	answered := breweryRules()
	declined := []string{
		"What is the average number of grams per batch?",                                                        // one figure, or one per batch?
		"Which batches used more than 100 hops in total?",                                                       // rows, or the grams?
		"Who tasted batch 7?",                                                                                   // a person, through which key?
		"List the brewers whose founded year is 1996 please and their batches",                                  // two tables
		"How many batches were started in each year of founding?",                                               // which year?
		"Give every brewer a mentor.",                                                                           // a write
		"Which brewers brewed more than 500 in batches?",                                                        // an amount in batches, not 500 of them
		"What percentage of batches from 2025 had a taster?",                                                    // which condition is the part, which the whole?
		"Which batches have the second most hops in total?",                                                     // rows, or the grams?
		"How many batches can Ada Brook brew?",                                                                  // a capacity, not a count
		"What is the estimated cost for each brewer?",                                                           // several batches per brewer, no sum asked
		"Which Stout batches have the highest brew quantity?",                                                   // every one at the top among the Stouts
		"Which brewers were founded in year 7?",                                                                 // 7 is no year: another column's number
		"Which hops were used by Ada Brook?",                                                                    // a person linked through batches: brewer or taster?
		"List every stout along with the name of the brewer who made it.",                                       // stouts are batches; not a list of brewers
		"List the batch hops of batch 7.",                                                                       // pairs of keys: the hops are in another table
		"Which brewer is paid the least?",                                                                       // an amount the schema lacks, not a count of batches
		"What is the total brew quantity of the covered batches?",                                               // a state of the batches, not a link
		"Which hops are used in a covered batch?",                                                               // the same, before the linked table
		"Give the name of batch 7.",                                                                             // a batch has no name; its hops' names are not its own
		"List the brewers whose lead is Ada Brook.",                                                             // no lead column; not the link of a verb
		"For every brewer with a mentor, give the brewer's name, the mentor's name and the mentor's hire date.", // a column beyond the names
		"How many brewers with their mentor?",                                                                   // a count beside the pairs
	}
	for _, mode := range []string{"schema only", "drafted catalog"} {
		t.Run(mode, func(t *testing.T) {
			cat := ""
			if mode == "drafted catalog" {
				cat = draftCatalog(t, path)
			}
			e := newEnv(t, path, cat)
			g := New(nil)
			checkAnswered(t, e, g, answered)
			qs := declined
			if cat == "" {
				qs = append(qs, "Which batches are filtered?") // a yes/no the schema alone can't read
			} else {
				// the catalog says it is one
				checkAnswered(t, e, g, []ruleCase{{"Which batches are filtered?", `SELECT batch_id FROM batch WHERE filtered = 1`, false}})
			}
			checkDeclined(t, e, g, mode, qs)
		})
	}
}

// breweryRules are the constructs the every-word rules answer, with the
// rows each must give.
func breweryRules() []ruleCase {
	return []ruleCase{
		{"List the batches with their style.", `SELECT batch_id, style FROM batch`, false},
		{"What is the total brew quantity?", `SELECT SUM(BrewQty) FROM batch`, false},
		{"What is the highest estimated cost of a batch?", `SELECT MAX(est_cost) FROM batch`, false},
		{"What was the style of batch 7?", `SELECT style FROM batch WHERE batch_id = 7`, false},
		{"How many batches had a taster?", `SELECT COUNT(*) FROM batch WHERE taster_id IS NOT NULL`, false},
		{"Which brewer has the earliest hire date?", `SELECT full_name FROM brewer ORDER BY hired_on LIMIT 1`, false},
		{"List the styles and brew quantities of all batches in descending order of brew quantity.",
			`SELECT style, BrewQty FROM batch ORDER BY BrewQty DESC`, true},
		{"How many brewers have a mentor?", `SELECT COUNT(*) FROM brewer WHERE mentor_id IS NOT NULL`, false},
		{"Which brewers were hired in 2012 or later?", `SELECT full_name FROM brewer WHERE hired_on >= '2012-01-01'`, false},
		{"When was Cleo Dunn hired?", `SELECT hired_on FROM brewer WHERE full_name = 'Cleo Dunn'`, false},
		{"Who are the two earliest hired brewers, and when were they hired?",
			`SELECT full_name, hired_on FROM brewer ORDER BY hired_on LIMIT 2`, false},
		{"Name the brewer who was hired first.", `SELECT full_name FROM brewer ORDER BY hired_on LIMIT 1`, false},
		{"On average, how many grams does a batch hop have?", `SELECT AVG(grams) FROM batch_hop`, false},
		{"In 2025, how many batches were started?",
			`SELECT COUNT(*) FROM batch WHERE started_on >= '2025-01-01' AND started_on < '2026-01-01'`, false},
		{"Which brewers were hired in the 2010s?",
			`SELECT full_name FROM brewer WHERE hired_on >= '2010-01-01' AND hired_on < '2020-01-01'`, false},
		{"Which brewers were hired after 2012, and when were they hired?",
			`SELECT full_name, hired_on FROM brewer WHERE hired_on >= '2013-01-01'`, false},
		{"What is the second highest brew quantity?", `SELECT BrewQty FROM batch ORDER BY BrewQty DESC LIMIT 1 OFFSET 1`, false},
		{"Which batch is the second largest by brew quantity?", `SELECT batch_id FROM batch ORDER BY BrewQty DESC LIMIT 1 OFFSET 1`, false},
		{"What percentage of batches had a taster?",
			`SELECT 100.0 * SUM(CASE WHEN taster_id IS NOT NULL THEN 1 ELSE 0 END) / COUNT(*) FROM batch`, false},
		{"Share of batches with the style Stout, as a percentage.",
			`SELECT 100.0 * SUM(CASE WHEN style = 'Stout' THEN 1 ELSE 0 END) / COUNT(*) FROM batch`, false},
		{"Which batches have the highest brew quantity?", `SELECT batch_id FROM batch WHERE BrewQty = (SELECT MAX(BrewQty) FROM batch)`, false},
		{"List the batches whose style is not Stout.", `SELECT batch_id FROM batch WHERE style <> 'Stout'`, false},
		{"Which hops were used in more than 10 batches?",
			`SELECT h.hop_name FROM hop h JOIN batch_hop bh ON bh.hop_id = h.hop_id GROUP BY h.hop_id, h.hop_name HAVING COUNT(DISTINCT bh.batch_id) > 10`, false},
		{"List the styles and brew quantities of the batches, sorted by style and then brew quantity descending.",
			`SELECT style, BrewQty FROM batch ORDER BY style, BrewQty DESC`, true},
		{"names of brewers hired before 2012", `SELECT full_name FROM brewer WHERE hired_on < '2012-01-01'`, false},
		{"styles of the batches with a taster", `SELECT style FROM batch WHERE taster_id IS NOT NULL`, false},
		{"What was the first batch, and when was it started?", `SELECT batch_id, started_on FROM batch ORDER BY started_on LIMIT 1`, false},
		{"brewer names sorted A to Z", `SELECT full_name FROM brewer ORDER BY full_name`, true},
		{"batch styles ordered by brew quantity, descending.", `SELECT style FROM batch ORDER BY BrewQty DESC`, true},
		{"List the brewers' names and founding years, ordered by founding year, then name.",
			`SELECT full_name, founded_year FROM brewer ORDER BY founded_year, full_name`, true},
		{"List each brewer together with the name of their mentor.",
			`SELECT b.full_name, m.full_name FROM brewer b JOIN brewer m ON m.brewer_id = b.mentor_id`, false},
		{"Which brewers do not mentor anyone?",
			`SELECT full_name FROM brewer WHERE brewer_id NOT IN (SELECT mentor_id FROM brewer WHERE mentor_id IS NOT NULL)`, false},
		{"Which brewers are the mentor of someone?",
			`SELECT full_name FROM brewer WHERE brewer_id IN (SELECT mentor_id FROM brewer)`, false},
		{"For each mentor, how many brewers do they mentor?",
			`SELECT m.full_name, COUNT(*) FROM brewer b JOIN brewer m ON m.brewer_id = b.mentor_id GROUP BY m.brewer_id, m.full_name`, false},
	}
}

// breweryEnv is the brewery on the schema alone, for the dialect tests.
func breweryEnv(t *testing.T) *env { return newEnv(t, breweryDB(t), "") }

// breweryQuestions are the every-word rules' answered questions, for the
// dialect tests: the same answer on PostgreSQL and MariaDB as on SQLite.
func breweryQuestions() []question {
	var qs []question
	for _, c := range breweryRules() {
		qs = append(qs, question{name: c.q, q: c.q, want: c.want, ordered: c.ordered})
	}
	return qs
}

// TestNamePartWords: the parts of a person's name go by their other names
// ("surname" for a last-name column, "given name" for a first-name one),
// and a bare "and" after a sort key is a second key where the question ends.
func TestNamePartWords(t *testing.T) {
	path := sqliteDB(t, "rowing",
		`CREATE TABLE rower (rower_id INTEGER PRIMARY KEY, first_nm TEXT NOT NULL, LastName TEXT NOT NULL, seat INTEGER NOT NULL)`,
		`CREATE TABLE cox (cox_id INTEGER PRIMARY KEY, FirstName TEXT NOT NULL, Surname TEXT NOT NULL, weight_kg INTEGER NOT NULL)`,
		`INSERT INTO cox VALUES (1,'Mo','Tull',55),(2,'Nia','Abt',52),(3,'Mo','Vance',58)`,
		`INSERT INTO rower VALUES (1,'Ines','Moll',3),(2,'Jory','Abt',1),(3,'Kai','Moll',2),(4,'Lou','Abt',4)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"What different surnames do the rowers have?", `SELECT DISTINCT LastName FROM rower`, false},
		{"Give the name and weight of the lightest cox.", `SELECT FirstName, Surname, weight_kg FROM cox ORDER BY weight_kg LIMIT 1`, false},
		{"List the rowers' family names and given names.", `SELECT LastName, first_nm FROM rower`, false},
		{"List the rowers' surnames and forenames, sorted by surname and forename.",
			`SELECT LastName, first_nm FROM rower ORDER BY LastName, first_nm`, true},
	})
}

// TestLegacyNaming: a schema in legacy (Hungarian) naming — type prefixes
// on every column, tbl on every table, a codes table described by a
// description column — and a word in -ing before a noun that is not the
// rows of the table the word is made from.
func TestLegacyNaming(t *testing.T) {
	path := sqliteDB(t, "kiosks",
		`CREATE TABLE tblKioskType (strTypeCode TEXT PRIMARY KEY, strDescription TEXT NOT NULL)`,
		`CREATE TABLE tblKiosk (intKioskID INTEGER PRIMARY KEY, strName TEXT NOT NULL,
			strTypeCode TEXT NOT NULL REFERENCES tblKioskType(strTypeCode), intFloorArea INTEGER NOT NULL)`,
		`CREATE TABLE tblTimer (intTimerID INTEGER PRIMARY KEY, strName TEXT NOT NULL)`,
		`CREATE TABLE tblShift (intShiftID INTEGER PRIMARY KEY, intKioskID INTEGER NOT NULL REFERENCES tblKiosk(intKioskID),
			intTimerID INTEGER NOT NULL REFERENCES tblTimer(intTimerID), dtDay TEXT NOT NULL)`,
		`CREATE TABLE tblAppt (intApptID INTEGER PRIMARY KEY, intKioskID INTEGER NOT NULL REFERENCES tblKiosk(intKioskID), strFnm TEXT NOT NULL, strLnm TEXT NOT NULL)`,
		`INSERT INTO tblAppt VALUES (1,1,'Ada','Moss'),(2,1,'Bo','Lind'),(3,2,'Cy','Moss')`,
		`INSERT INTO tblKioskType VALUES ('FD','Food'),('NW','News'),('FL','Flowers')`,
		`INSERT INTO tblKiosk VALUES (1,'Pier End','FD',12),(2,'Station','NW',8),(3,'Market','FD',15),(4,'Gate','NW',6)`,
		`INSERT INTO tblTimer VALUES (1,'Ola Brandt'),(2,'Per Lund')`,
		`INSERT INTO tblShift VALUES (1,1,1,'2025-01-03'),(2,1,2,'2025-01-04'),(3,2,1,'2025-02-01'),(4,3,1,'2025-02-02'),(5,3,2,'2025-03-09')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	g := New(nil)
	checkAnswered(t, e, g, []ruleCase{
		{"What is the floor area of the kiosk named Station?", `SELECT intFloorArea FROM tblKiosk WHERE strName = 'Station'`, false},
		{"How many kiosks are there of each kiosk type?",
			`SELECT ty.strDescription, COUNT(*) FROM tblKiosk k JOIN tblKioskType ty ON ty.strTypeCode = k.strTypeCode GROUP BY ty.strTypeCode`, false},
		{"List the kiosks in descending order of floor area.", `SELECT strName FROM tblKiosk ORDER BY intFloorArea DESC`, true},
		{"How many appointments are there?", `SELECT COUNT(*) FROM tblAppt`, false},
		{"What are the last names of the appointments at Pier End?", `SELECT a.strLnm FROM tblAppt a JOIN tblKiosk k ON k.intKioskID = a.intKioskID WHERE k.strName = 'Pier End'`, false},
	})
	checkDeclined(t, e, g, "drafted catalog", []string{
		"How many timing shifts are there?",            // a kind of shift, not the timers
		"Number of timing days in 2025.",               // the same before a column's noun
		"How many shifts take place at shaded kiosks?", // a state of the kiosks, after a verb and a preposition
	})
}

// TestVerboseNaming: identifiers written out in words ("name_of_site",
// "first_name_of_staff"), tables named by a phrase or a noun and its
// participle ("kiosk_inspection_visits", "site_repairs_logged"), and the
// readings that must decline there: a column word two tables share, a noun
// two tables' names hold, two keys to the same table on a closer bridge.
func TestVerboseNaming(t *testing.T) {
	path := sqliteDB(t, "verbose",
		`CREATE TABLE kiosk_sites (identifier_of_site INTEGER PRIMARY KEY, name_of_site TEXT NOT NULL, category_of_site TEXT NOT NULL, floor_m2 TEXT NOT NULL)`,
		`CREATE TABLE kiosk_list (identifier_of_entry INTEGER PRIMARY KEY, note_text TEXT)`,
		`CREATE TABLE repair_kinds (repair_code TEXT PRIMARY KEY, description_of_repair TEXT NOT NULL, category_of_repair TEXT NOT NULL)`,
		`CREATE TABLE site_repairs_logged (identifier_of_log INTEGER PRIMARY KEY, identifier_of_site INTEGER NOT NULL REFERENCES kiosk_sites(identifier_of_site),
			repair_code TEXT NOT NULL REFERENCES repair_kinds(repair_code), cost_of_repair REAL NOT NULL)`,
		`CREATE TABLE kiosk_staff (identifier_of_staff INTEGER PRIMARY KEY, first_name_of_staff TEXT NOT NULL, last_name_of_staff TEXT NOT NULL)`,
		`CREATE TABLE kiosk_inspection_visits (identifier_of_visit INTEGER PRIMARY KEY, identifier_of_site INTEGER NOT NULL REFERENCES kiosk_sites(identifier_of_site),
			identifier_of_inspector INTEGER NOT NULL REFERENCES kiosk_staff(identifier_of_staff),
			identifier_of_second_inspector INTEGER REFERENCES kiosk_staff(identifier_of_staff))`,
		`CREATE TABLE visit_reviews (identifier_of_review INTEGER PRIMARY KEY, identifier_of_visit INTEGER NOT NULL REFERENCES kiosk_inspection_visits(identifier_of_visit),
			identifier_of_reviewer INTEGER NOT NULL REFERENCES kiosk_staff(identifier_of_staff))`,
		`INSERT INTO kiosk_sites VALUES (1,'Quay','harbour','9.5'),(2,'Mill','town','30'),(3,'Dune','harbour','12')`,
		`INSERT INTO repair_kinds VALUES ('RF','roof','structure'),('LK','lock','security'),('GL','glass','structure')`,
		`INSERT INTO site_repairs_logged VALUES (1,1,'RF',120),(2,1,'LK',40),(3,2,'GL',75)`,
		`INSERT INTO kiosk_staff VALUES (1,'Ada','Moss'),(2,'Bo','Lind'),(3,'Cy','Park')`,
		`INSERT INTO kiosk_inspection_visits VALUES (1,1,1,2),(2,2,2,NULL),(3,3,1,3)`,
		`INSERT INTO visit_reviews VALUES (1,1,3),(2,3,2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	g := New(nil)
	checkAnswered(t, e, g, []ruleCase{
		{"How many inspection visits are there?", `SELECT COUNT(*) FROM kiosk_inspection_visits`, false},
		{"What is the category of the site named Mill?", `SELECT category_of_site FROM kiosk_sites WHERE name_of_site = 'Mill'`, false},
		{"List the staff's first names.", `SELECT first_name_of_staff FROM kiosk_staff`, false},
		{"Find sites with a floor above 10 m2.", `SELECT name_of_site FROM kiosk_sites WHERE CAST(floor_m2 AS REAL) > 10`, false},
		{"List kiosk sites whose category is not town.", `SELECT name_of_site FROM kiosk_sites WHERE category_of_site <> 'town'`, false},
		{"How many staff members are there?", `SELECT COUNT(*) FROM kiosk_staff`, false},
		{"List the staff members' last names in alphabetical order.", `SELECT last_name_of_staff FROM kiosk_staff ORDER BY last_name_of_staff`, true},
	})
	checkDeclined(t, e, g, "drafted catalog", []string{
		"Which categories have at least two repair codes?",          // the sites' categories or the repairs'?
		"List the numbers of the kiosk sites.",                      // their numbers, not how many
		"List the names of the sites Bo Lind inspected.",            // inspector, second inspector, or reviewer?
		"List every lock along with the name of the site it is at.", // locks are repair kinds, not sites
		"List each kiosk site with the repair whose code is RF.",    // shown beside each site, or only sites that have one?
	})
}

// sqliteDB writes a SQLite database of the statements, for a rule test.
func sqliteDB(t *testing.T, name string, stmts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".db")
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return path
}

// TestSecondQuestionWords: a second question's wh-word ("…, and in what
// role?") asks for its own column, which does not answer the first "who".
func TestSecondQuestionWords(t *testing.T) {
	path := sqliteDB(t, "murals",
		`CREATE TABLE painter (painter_id INTEGER PRIMARY KEY, painter_name TEXT NOT NULL)`,
		`CREATE TABLE mural (mural_id INTEGER PRIMARY KEY, mural_title TEXT NOT NULL, wall TEXT NOT NULL)`,
		`CREATE TABLE mural_credit (mural_id INTEGER NOT NULL REFERENCES mural(mural_id),
			painter_id INTEGER NOT NULL REFERENCES painter(painter_id), credit_role TEXT NOT NULL)`,
		`INSERT INTO painter VALUES (1,'Ada Moss'),(2,'Bo Lind'),(3,'Cy Park')`,
		`INSERT INTO mural VALUES (1,'Harbour Dawn','north'),(2,'Kite Day','south')`,
		`INSERT INTO mural_credit VALUES (1,1,'lead'),(1,2,'assistant'),(2,3,'lead'),(2,1,'sketches')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	g := New(nil)
	checkDeclined(t, e, g, "drafted catalog", []string{
		"Who worked on Harbour Dawn, and in what role?", // the roles alone are no one's name
	})
}

// TestNeverVerbTable: a verb that is a table's name ("hired" of
// kite_hire). In "never <verb> a U", U is reached through that table and
// goes inside the negation (this once panicked when U's table sorted after
// the verb's). "Hired N times" counts the hires themselves, not the rows
// linking to them.
func TestNeverVerbTable(t *testing.T) {
	path := sqliteDB(t, "kites",
		`CREATE TABLE flyer (flyer_id INTEGER PRIMARY KEY, flyer_name TEXT NOT NULL)`,
		`CREATE TABLE sky_kite (kite_id INTEGER PRIMARY KEY, colour TEXT NOT NULL)`,
		`CREATE TABLE kite_hire (hire_id INTEGER PRIMARY KEY, flyer_id INTEGER NOT NULL REFERENCES flyer(flyer_id),
			kite_id INTEGER NOT NULL REFERENCES sky_kite(kite_id), hire_day TEXT NOT NULL, launch_site TEXT NOT NULL)`,
		`CREATE TABLE hire_note (note_id INTEGER PRIMARY KEY, hire_id INTEGER NOT NULL REFERENCES kite_hire(hire_id), note TEXT NOT NULL)`,
		`INSERT INTO flyer VALUES (1,'Ada Moss'),(2,'Bo Lind'),(3,'Cy Park')`,
		`INSERT INTO sky_kite VALUES (1,'red'),(2,'blue')`,
		`INSERT INTO kite_hire VALUES (1,1,1,'2025-05-01','dune'),(2,1,2,'2025-05-02','pier'),(3,3,2,'2025-06-01','dune')`,
		`INSERT INTO hire_note VALUES (1,2,'windy'),(2,2,'late'),(3,1,'calm')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	g := New(nil)
	checkAnswered(t, e, g, []ruleCase{
		{"Which flyers have never hired a kite?", `SELECT flyer_name FROM flyer WHERE flyer_id NOT IN (SELECT flyer_id FROM kite_hire)`, false},
	})
	checkDeclined(t, e, g, "drafted catalog", []string{
		"Which launch sites have been hired at least twice?", // each hire is one of the times, not the notes linking to it
	})
}

// TestGenericNaming: a schema whose tables all use the same few column
// names (id, name, type, status, created, notes), where a word must be read
// on the table it speaks of, and a verb or a purpose the columns do not
// hold is declined.
func TestGenericNaming(t *testing.T) {
	path := sqliteDB(t, "generic",
		`CREATE TABLE depots (id INTEGER PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, created TEXT NOT NULL)`,
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, depot_id INTEGER NOT NULL REFERENCES depots(id),
			status TEXT NOT NULL, created TEXT NOT NULL, notes TEXT)`,
		`CREATE TABLE visits (id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id), created TEXT NOT NULL, amount REAL NOT NULL, notes TEXT)`,
		`INSERT INTO depots VALUES (1,'North','open','2001-03-01'),(2,'South','closed','2004-06-01')`,
		`INSERT INTO kiosks VALUES (1,'Quay','food',1,'active','2010-01-05','near the steps'),(2,'Mill','news',1,'active','2012-02-01',NULL),
			(3,'Dune','food',2,'retired','2015-07-09','roof leaks'),(4,'Gate','news',2,'active','2019-04-04',NULL)`,
		`INSERT INTO visits VALUES (1,1,'2025-01-02',12.5,NULL),(2,1,'2025-02-03',8,'late'),(3,3,'2025-02-10',20,NULL),(4,2,'2025-03-01',5.5,'locked'),(5,1,'2025-03-09',7,NULL)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	g := New(nil)
	checkAnswered(t, e, g, []ruleCase{
		{"Show the kiosks that have notes, with the notes.", `SELECT name, notes FROM kiosks WHERE notes IS NOT NULL`, false},
		{"Show the visits that have a note, with the note.", `SELECT id, notes FROM visits WHERE notes IS NOT NULL`, false},
	})
	checkDeclined(t, e, g, "drafted catalog", []string{
		"What is the Quay kiosk for?",    // a purpose no column holds
		"Which kiosk holds the most?",    // an amount, not a count of visits
		"Which depot carries the least?", // the same
		"When was kiosk 3 last used?",    // a ranking of events over the one row named
		"Number of open visits.",         // open is a depot status, two links from the visits
	})
}

// TestLongQuestionEnds: a long question of plain words is read in time
// that grows with its length, not exponentially (this one, of 30 words,
// once took 45 s; a few words more and it would not end).
func TestLongQuestionEnds(t *testing.T) {
	e := newEnv(t, breweryDB(t), "")
	checkDeclined(t, e, New(nil), "schema only", []string{"For kites 1 to 10, show the kite id, the name of the crew member who " +
		"packed it and the name of the one who checked it in (kites with both recorded)."})
}

// TestListedColumns: a word that names a table and a column of it is the
// column in a list of that table's columns ("the pamphlet and author"); a
// list of values after "other than" is not split into conditions; a
// superlative does not rank a key (the copies' PamphletID); a plural value of several words names
// rows that a later "with the C" shows C beside.
func TestListedColumns(t *testing.T) {
	path := sqliteDB(t, "pamphlets",
		`CREATE TABLE Pamphlets (PamphletID INTEGER PRIMARY KEY, Pamphlet TEXT NOT NULL, Author TEXT NOT NULL, Topic TEXT NOT NULL,
			Kind TEXT NOT NULL, PageCount TEXT NOT NULL)`,
		`CREATE TABLE Copies (CopyID INTEGER PRIMARY KEY, PamphletID INTEGER NOT NULL REFERENCES Pamphlets(PamphletID), Shelf TEXT NOT NULL)`,
		`INSERT INTO Copies VALUES (1,1,'A'),(2,1,'B'),(3,4,'A'),(4,6,'C')`,
		`INSERT INTO Pamphlets VALUES (1,'Low Tide','Ada Moss','Tides','Walk Guide','12'),(2,'Reed Beds','Bo Lind','Birds','Walk Guide','8'),
			(3,'Seed Swaps','Cy Park','Garden','Leaflet','4'),(4,'Salt Marsh','Ada Moss','Birds','Walk Guide','20'),
			(5,'Compost','Di Roe','Garden','Leaflet','6'),(6,'Storm Surge','Bo Lind','Tides','Report','36'),
			(7,'Seal Pups','Di Roe','Sea Life','Leaflet','5'),(8,'Drove Ways','Cy Park','Old Roads','Leaflet','9')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	g := New(nil)
	checkAnswered(t, e, g, []ruleCase{
		{"Show the pamphlet and author of every pamphlet in the Garden topic.", `SELECT Pamphlet, Author FROM Pamphlets WHERE Topic = 'Garden'`, false},
		{"Give the pamphlet and author of each leaflet.", `SELECT Pamphlet, Author FROM Pamphlets WHERE Kind = 'Leaflet'`, false},
		{"List the three longest pamphlets with their page counts.",
			`SELECT Pamphlet, PageCount FROM Pamphlets ORDER BY CAST(PageCount AS INTEGER) DESC LIMIT 3`, true},
		{"List the walk guides by page count, highest first, with the page count.",
			`SELECT Pamphlet, PageCount FROM Pamphlets WHERE Kind = 'Walk Guide' ORDER BY CAST(PageCount AS INTEGER) DESC`, true},
	})
	checkDeclined(t, e, g, "drafted catalog", []string{
		"Which leaflets have a topic other than Garden, Sea Life, Birds or Tides?", // not "<> Garden AND = Sea Life AND …"
	})
}

// TestColumnNamedLikeItsTable: with the schema alone, a text column called
// by its table's noun ("Workshop" in Workshops), or a run-together name
// ("tutorname"), names the rows.
func TestColumnNamedLikeItsTable(t *testing.T) {
	path := sqliteDB(t, "workshops",
		`CREATE TABLE Workshops (WorkshopID INTEGER PRIMARY KEY, Workshop TEXT NOT NULL, Room TEXT NOT NULL)`,
		`CREATE TABLE Sessions (SessionID INTEGER PRIMARY KEY, WorkshopID INTEGER NOT NULL REFERENCES Workshops(WorkshopID), Seats INTEGER NOT NULL)`,
		`INSERT INTO Workshops VALUES (1,'Pottery','A'),(2,'Weaving','B'),(3,'Printing','A')`,
		`CREATE TABLE tutor (tutorid INTEGER PRIMARY KEY, tutorname TEXT NOT NULL, tutorroom TEXT NOT NULL)`,
		`INSERT INTO tutor VALUES (1,'Ada Moss','A'),(2,'Bo Lind','B'),(3,'Cy Park','A')`,
		`CREATE TABLE lesson (lessonid INTEGER PRIMARY KEY, tutorid INTEGER NOT NULL REFERENCES tutor(tutorid), minutes INTEGER NOT NULL)`,
		`INSERT INTO lesson VALUES (1,1,30),(2,1,45),(3,2,60),(4,3,30),(5,3,30),(6,3,20)`,
		`INSERT INTO Sessions VALUES (1,1,8),(2,1,10),(3,2,6),(4,3,12),(5,1,8)`,
	)
	checkAnswered(t, newEnv(t, path, ""), New(nil), []ruleCase{
		{"How many sessions are there for each workshop?",
			`SELECT w.Workshop, COUNT(*) FROM Sessions s JOIN Workshops w ON w.WorkshopID = s.WorkshopID GROUP BY w.WorkshopID, w.Workshop`, false},
		{"How many lessons are there for each tutor?",
			`SELECT t.tutorname, COUNT(*) FROM lesson l JOIN tutor t ON t.tutorid = l.tutorid GROUP BY t.tutorid, t.tutorname`, false},
	})
}

// TestFlagsAndSigns: a negative number keeps its sign; a yes/no column is
// never shown alone for rows nothing names, nor compared with a number
// other than 0 or 1; "recorded no C" of a number is a zero recorded, not
// an empty column.
func TestFlagsAndSigns(t *testing.T) {
	path := sqliteDB(t, "masts",
		`CREATE TABLE masts (code TEXT PRIMARY KEY, name TEXT NOT NULL, region TEXT NOT NULL, lon REAL NOT NULL,
			is_lit INTEGER NOT NULL CHECK (is_lit IN (0,1)))`,
		`CREATE TABLE checks (id INTEGER PRIMARY KEY, mast_code TEXT NOT NULL REFERENCES masts(code), day TEXT NOT NULL,
			frost INTEGER NOT NULL CHECK (frost IN (0,1)), rain_mm REAL)`,
		`INSERT INTO masts VALUES ('A','Hill','North',-2.5,1),('B','Fen','South',-0.4,0),('C','Moor','North',1.2,1),('D','Spit','South',-1.1,0)`,
		`INSERT INTO checks VALUES (1,'A','2025-01-01',1,0),(2,'A','2025-01-02',0,3.5),(3,'B','2025-01-01',1,NULL),(4,'C','2025-01-03',0,6),(5,'D','2025-01-02',1,0)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	g := New(nil)
	checkAnswered(t, e, g, []ruleCase{
		{"Which masts have a longitude greater than -1?", `SELECT name FROM masts WHERE lon > -1`, false},
		{"Which North masts have recorded frost?", // not the frost column alone
			`SELECT name FROM masts WHERE region = 'North' AND code IN (SELECT mast_code FROM checks WHERE frost = 1)`, false},
	})
	checkDeclined(t, e, g, "drafted catalog", []string{
		"Which North masts have recorded iced?",        // the yes/no shown alone: a condition missed
		"Find the masts with over thirty iced checks.", // a 0/1 column against 30
		"How many checks recorded no rain at all?",     // zero, or not recorded?
	})
}

// TestQuantityWords: a number before a quantity column on linked rows
// ("bought more than 20 tickets") is a total, never each row's; "spent"
// asks for money; two figures' words after "by" ("by ticket takings") leave the
// ranking open; "the number of C" of a quantity, and "per C", are not
// counts or groups of its values.
func TestQuantityWords(t *testing.T) {
	path := sqliteDB(t, "stalls",
		`CREATE TABLE stall (stall_id INTEGER PRIMARY KEY, stall_name TEXT NOT NULL, pitches INTEGER NOT NULL)`,
		`CREATE TABLE buyer (buyer_id INTEGER PRIMARY KEY, buyer_name TEXT NOT NULL)`,
		`CREATE TABLE purchase (purchase_id INTEGER PRIMARY KEY, buyer_id INTEGER NOT NULL REFERENCES buyer(buyer_id),
			stall_id INTEGER NOT NULL REFERENCES stall(stall_id), tickets INTEGER NOT NULL, takings REAL NOT NULL)`,
		`INSERT INTO stall VALUES (1,'Kettle',2),(2,'Brew Barn',3),(3,'Steam',1)`,
		`INSERT INTO buyer VALUES (1,'Ada Moss'),(2,'Bo Lind'),(3,'Cy Park')`,
		`INSERT INTO purchase VALUES (1,1,1,12,30),(2,1,2,15,45),(3,2,1,4,10),(4,3,3,9,20.5),(5,2,2,18,50),(6,1,3,2,6)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	g := New(nil)
	checkAnswered(t, e, g, []ruleCase{
		{"Which buyers bought more than 20 tickets?",
			`SELECT b.buyer_name FROM buyer b JOIN purchase p ON p.buyer_id = b.buyer_id GROUP BY b.buyer_id, b.buyer_name HAVING SUM(p.tickets) > 20`, false},
	})
	checkDeclined(t, e, g, "drafted catalog", []string{
		"How much has each buyer spent on tickets?",                      // tickets are no money
		"List the top two stalls by ticket takings, with their takings.", // tickets or takings?
		"Which stall has the second-highest number of pitches?",          // their total, or how many different?
		"What is the average takings per ticket?",                        // a ratio, not a group per ticket count
		"How many of each stall were bought?",                            // rows or tickets?
		"What was the ticket takings in each stall?",                     // two figures side by side
	})

	// kiosks: snack sales with units, a yes/no check
	path = sqliteDB(t, "kiosks",
		`CREATE TABLE kiosk (kiosk_id INTEGER PRIMARY KEY, kiosk_name TEXT NOT NULL, town TEXT NOT NULL)`,
		`CREATE TABLE snack_sales (snack_sale_id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosk(kiosk_id),
			item TEXT NOT NULL, units INTEGER NOT NULL, amount REAL NOT NULL)`,
		`CREATE TABLE kiosk_checks (check_id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosk(kiosk_id),
			checked_on TEXT NOT NULL, iced INTEGER NOT NULL CHECK (iced IN (0,1)))`,
		`INSERT INTO kiosk VALUES (1,'Pier','Hove'),(2,'Dune','Rye'),(3,'Quay','Deal')`,
		`INSERT INTO snack_sales VALUES (1,1,'bun',3,4.5),(2,1,'tart',1,9),(3,2,'bun',2,3),(4,2,'pie',1,10),(5,3,'tart',1,8),(6,3,'pie',1,7),(7,1,'pie',1,6)`,
		`INSERT INTO kiosk_checks VALUES (1,1,'2025-01-01',1),(2,1,'2025-01-02',0),(3,2,'2025-01-01',1),(4,3,'2025-01-03',1)`,
	)
	e, g = newEnv(t, path, draftCatalog(t, path)), New(nil) // a new model per database
	checkAnswered(t, e, g, []ruleCase{
		// the units, not how many rows of the table after them
		{"Which item sold the most units in snack sales?",
			`SELECT item, SUM(units) FROM snack_sales GROUP BY item ORDER BY SUM(units) DESC LIMIT 1`, true},
	})
	checkDeclined(t, e, g, "drafted catalog", []string{
		"How many of each snack sale were sold?",  // rows, or units?
		"How many of each kiosk item were sold?",  // rows, or units?
		"Find the kiosks with over thirty iceds.", // a 0/1 column against 30
	})

	// cruises: the tickets and the revenue of each sale, side by side
	path = sqliteDB(t, "cruises",
		`CREATE TABLE cruise (cruise_id INTEGER PRIMARY KEY, cruise_name TEXT NOT NULL)`,
		`CREATE TABLE ticket_sales (sale_id INTEGER PRIMARY KEY, cruise_id INTEGER NOT NULL REFERENCES cruise(cruise_id),
			sold_on TEXT NOT NULL, tickets INTEGER NOT NULL, revenue REAL NOT NULL)`,
		`INSERT INTO cruise VALUES (1,'Dawn'),(2,'Dusk'),(3,'Noon')`,
		`INSERT INTO ticket_sales VALUES (1,1,'2025-01-03',10,50),(2,2,'2025-01-05',2,90),(3,3,'2025-02-07',6,30),(4,1,'2025-02-09',1,8),(5,2,'2025-03-01',9,12)`,
	)
	e, g = newEnv(t, path, draftCatalog(t, path)), New(nil)
	checkDeclined(t, e, g, "drafted catalog", []string{
		"List the top two cruises by ticket revenue, with their revenue.", // rank by tickets or revenue?
		"What was the ticket revenue in each month?",                      // one figure, or both?
		"Show the monthly ticket revenue.",                                // one figure, or both?
		"What is the average revenue per ticket?",                         // a ratio, not a group per ticket count
	})
}

// TestNumberLists: numbers joined by "or" / "and" after a numeric column
// are one of them ("on floor 2 or 3"); this panicked when the first number
// was read as a comparison.
func TestNumberLists(t *testing.T) {
	path := sqliteDB(t, "rooms",
		`CREATE TABLE room (room_id INTEGER PRIMARY KEY, room_name TEXT NOT NULL, floor INTEGER NOT NULL, beds INTEGER NOT NULL)`,
		`INSERT INTO room VALUES (1,'Elm',1,2),(2,'Oak',2,1),(3,'Ash',3,4),(4,'Yew',2,2),(5,'Fir',4,1)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which rooms are on floor 2 or 3?", `SELECT room_name FROM room WHERE floor IN (2, 3)`, false},
		{"List the rooms on floors 2 and 3.", `SELECT room_name FROM room WHERE floor IN (2, 3)`, false},
		{"List the rooms (floors 2 and 3).", `SELECT room_name FROM room WHERE floor IN (2, 3)`, false},
	})
}

// TestSecondAsks: "which T …, and at what C?" shows T's name beside C; a
// name ends with its sentence; "the largest U" of another table's rows is
// not how many U they have.
func TestSecondAsks(t *testing.T) {
	path := sqliteDB(t, "keepers",
		`CREATE TABLE crate_type (type_code TEXT PRIMARY KEY, title TEXT NOT NULL, grade TEXT NOT NULL)`,
		`CREATE TABLE kiosk (kiosk_id INTEGER PRIMARY KEY, kiosk_name TEXT NOT NULL, city TEXT NOT NULL)`,
		`CREATE TABLE keeper (keeper_id INTEGER PRIMARY KEY, fname TEXT NOT NULL, lname TEXT NOT NULL, city TEXT NOT NULL, born_on TEXT NOT NULL)`,
		`CREATE TABLE delivery (delivery_id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosk(kiosk_id),
			type_code TEXT NOT NULL REFERENCES crate_type(type_code), amount REAL NOT NULL)`,
		`INSERT INTO crate_type VALUES ('CT-1','Pallet','Heavy'),('CT-2','Tray','Light'),('CT-3','Box','Light'),('CT-9','Drum','Heavy')`,
		`INSERT INTO kiosk VALUES (1,'Pier','Hove'),(2,'Dune','Rye'),(3,'Quay','Deal')`,
		`INSERT INTO keeper VALUES (1,'Ann','Lee','Rye','1990-01-02'),(2,'Ann','Lee','Deal','1985-05-06'),(3,'Bo','Park','Rye','1979-03-04')`,
		`INSERT INTO delivery VALUES (1,1,'CT-1',40),(2,1,'CT-2',12),(3,2,'CT-3',75),(4,3,'CT-1',9),(5,2,'CT-2',30)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	g := New(nil)
	checkAnswered(t, e, g, []ruleCase{
		{"Which crate type has the code CT-2, and at what grade?", `SELECT title, grade FROM crate_type WHERE type_code = 'CT-2'`, false},
		{"Which keeper lives in Deal, and when were they born?", `SELECT fname, lname, born_on FROM keeper WHERE city = 'Deal'`, false},
		{"Which keepers are called Ann Lee? Give their cities.", `SELECT city FROM keeper WHERE fname = 'Ann' AND lname = 'Lee'`, false},
	})
	checkDeclined(t, e, g, "drafted catalog", []string{
		"Which kiosk received the largest delivery?", // by its amount, not how many
		"Which kiosk had the smallest delivery?",
	})
}

// TestStatesAndValues: words a plan would drop decline — "on show" (a
// list verb after "on"), "without a recorded S" where S is also a value,
// "the distinct Vs" of rows named by a value, "each V" of a value, "open
// on" a date beside start and end dates, "currently" over rows with an
// open end.
func TestStatesAndValues(t *testing.T) {
	path := sqliteDB(t, "crates",
		`CREATE TABLE person (id INTEGER PRIMARY KEY, givenName TEXT NOT NULL, familyName TEXT NOT NULL, role TEXT NOT NULL)`,
		`CREATE TABLE crate (id INTEGER PRIMARY KEY, label TEXT NOT NULL, senderId INTEGER REFERENCES person(id), isOnDisplay INTEGER NOT NULL)`,
		`CREATE TABLE crateProperty (id INTEGER PRIMARY KEY, crateId INTEGER NOT NULL REFERENCES crate(id), propertyName TEXT NOT NULL, propertyValue TEXT NOT NULL)`,
		`CREATE TABLE fair (id INTEGER PRIMARY KEY, title TEXT NOT NULL, openDate TEXT NOT NULL, closeDate TEXT NOT NULL)`,
		`CREATE TABLE loan (id INTEGER PRIMARY KEY, crateId INTEGER NOT NULL REFERENCES crate(id), outDate TEXT NOT NULL, returnedDate TEXT)`,
		`INSERT INTO person VALUES (1,'Ada','Moss','sender'),(2,'Bo','Lind','keeper'),(3,'Cy','Park','sender')`,
		`INSERT INTO crate VALUES (1,'North',1,1),(2,'South',NULL,0),(3,'East',3,1),(4,'West',NULL,0),(5,'Mid',2,1)`,
		`INSERT INTO crateProperty VALUES (1,1,'colour','red'),(2,1,'maker','Kim'),(3,2,'colour','blue'),(4,3,'colour','red'),(5,3,'maker','Lou'),(6,4,'maker','Kim'),(7,5,'colour','green')`,
		`INSERT INTO fair VALUES (1,'Spring','2024-03-01','2024-07-01'),(2,'Summer','2024-06-01','2024-09-01'),(3,'Winter','2023-11-01','2024-02-01')`,
		`INSERT INTO loan VALUES (1,1,'2024-01-01','2024-02-01'),(2,2,'2024-03-01',NULL),(3,3,'2024-04-01',NULL),(4,1,'2024-05-01','2024-06-01')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	g := New(nil)
	checkAnswered(t, e, g, []ruleCase{
		{"Count the crates without a sender.", `SELECT COUNT(*) FROM crate WHERE senderId IS NULL`, false},
		{"Which fairs opened in 2024?", `SELECT title FROM fair WHERE openDate LIKE '2024%'`, false},
	})
	checkDeclined(t, e, g, "drafted catalog", []string{
		"List the crates that are on show.",
		"Count the crates without a recorded sender.",
		"List the distinct colours.",
		"How many crates has each maker made?",
		"What fairs were open on 2024-06-15?",
		"List the crates currently on loan.",
	})
}

// TestCostVerbs: "cost more than N" compares the rows' one money column;
// with two, it is declined.
func TestCostVerbs(t *testing.T) {
	path := sqliteDB(t, "vets",
		`CREATE TABLE vet (vet_no INTEGER PRIMARY KEY, vet_name TEXT NOT NULL, qualified_year INTEGER NOT NULL, town TEXT NOT NULL)`,
		`CREATE TABLE visit (visit_ref INTEGER PRIMARY KEY, vet_no INTEGER NOT NULL REFERENCES vet(vet_no), visit_date TEXT NOT NULL, fee REAL NOT NULL)`,
		`INSERT INTO vet VALUES (1,'Ann Lee',2005,'Rye'),(2,'Bo Park',2012,'Deal'),(3,'Cy Holt',2019,'Rye')`,
		`INSERT INTO visit VALUES (10,1,'2025-01-02',40),(11,2,'2025-02-03',55),(12,3,'2025-03-04',70),(13,1,'2025-04-05',20)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which visits cost more than 50? Give their ids.", `SELECT visit_ref FROM visit WHERE fee > 50`, false},
		{"How many visits cost over 50?", `SELECT COUNT(*) FROM visit WHERE fee > 50`, false},
	})
	path = sqliteDB(t, "deposits",
		`CREATE TABLE visit (visit_ref INTEGER PRIMARY KEY, visit_date TEXT NOT NULL, fee REAL NOT NULL, deposit_amount REAL NOT NULL)`,
		`INSERT INTO visit VALUES (10,'2025-01-02',40,5),(11,'2025-02-03',55,10)`,
	)
	e = newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{"Which visits cost more than 50?"})
}

// TestKindsAndPeople: values of one column ANDed are declined; "£40" is
// never compared with pence; "which V <verb>" shows the rows the value
// names; "who has …" shows a person, not the rows they have; "made" and
// "built" date by the make; "the oldest by year of X" is the earliest.
func TestKindsAndPeople(t *testing.T) {
	path := sqliteDB(t, "rowing",
		`CREATE TABLE people (id INTEGER PRIMARY KEY, given TEXT NOT NULL, family TEXT NOT NULL, email TEXT, kind TEXT NOT NULL)`,
		`CREATE TABLE boats (id INTEGER PRIMARY KEY, name TEXT NOT NULL, manufacture_year INTEGER NOT NULL, bought_on TEXT NOT NULL, requires_licence INTEGER NOT NULL)`,
		`CREATE TABLE trailers (id INTEGER PRIMARY KEY, label TEXT NOT NULL, YearBuilt INTEGER NOT NULL, axles INTEGER NOT NULL)`,
		`CREATE TABLE bookings (id INTEGER PRIMARY KEY, person_id INTEGER NOT NULL REFERENCES people(id), boat_id INTEGER NOT NULL REFERENCES boats(id), day TEXT NOT NULL)`,
		`CREATE TABLE repairs (id INTEGER PRIMARY KEY, person_id INTEGER NOT NULL REFERENCES people(id), title TEXT NOT NULL, status TEXT NOT NULL)`,
		`CREATE TABLE fees (id INTEGER PRIMARY KEY, person_id INTEGER NOT NULL REFERENCES people(id), amount_pence INTEGER NOT NULL, paid_on TEXT NOT NULL)`,
		`INSERT INTO people VALUES (1,'Ann','Lee','a@x.org','Rower'),(2,'Bo','Park',NULL,'Coach'),(3,'Cy','Holt','c@x.org','Rower'),(4,'Di','Moss',NULL,'Cox'),(5,'Ed','Wren','e@x.org','Crew')`,
		`INSERT INTO boats VALUES (1,'Swift',2012,'2015-03-01',1),(2,'Heron',2008,'2019-06-01',0),(3,'Otter',2020,'2021-01-01',1)`,
		`INSERT INTO trailers VALUES (1,'T1',2001,2),(2,'T2',2017,1),(3,'T3',2011,2)`,
		`INSERT INTO bookings VALUES (1,1,1,'2025-01-02'),(2,3,1,'2025-01-03'),(3,2,2,'2025-01-04'),(4,4,3,'2025-01-05'),(5,1,1,'2025-01-06')`,
		`INSERT INTO repairs VALUES (1,1,'Seat','open'),(2,2,'Rigger','done'),(3,3,'Hull','open')`,
		`INSERT INTO fees VALUES (1,1,2500,'2025-01-01'),(2,2,6000,'2025-02-01'),(3,3,4100,'2025-03-01'),(4,1,3000,'2025-04-01')`,
		`CREATE TABLE notes (id INTEGER PRIMARY KEY, boat_id INTEGER NOT NULL REFERENCES boats(id), body TEXT NOT NULL)`,
		`INSERT INTO notes VALUES (1,1,'Rudder loose'),(2,3,'Seat sticks')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	g := New(nil)
	checkAnswered(t, e, g, []ruleCase{
		{"Which boats were made before 2016?", `SELECT name FROM boats WHERE manufacture_year < 2016`, false},
		{"List the crew with their email addresses.", `SELECT given, family, email FROM people WHERE kind = 'Crew'`, false},
		{"Which boat is the oldest by year of manufacture?", `SELECT name FROM boats ORDER BY manufacture_year LIMIT 1`, true},
		{"What trailer was built most recently?", `SELECT label FROM trailers ORDER BY YearBuilt DESC LIMIT 1`, true},
	})
	checkDeclined(t, e, g, "drafted catalog", []string{
		"Count the people of each kind: rowers, coaches, coxes.",      // kind = A AND kind = B
		"Count fees larger than £40.",                                 // pounds against pence
		"Which rowers booked the boat Swift?",                         // the rowers, not their bookings
		"Who had the most recent licence, and on which boat?",         // "most recent" of a yes/no column
		"Which boat is the note 'Rudder loose' about?",                // a note's text, not a boat's name
		"Who has an open repair?",                                     // a person, not the repair
		"What is the total in pence paid by people without an email?", // who paid, not one total each
	})
}

// TestKindNamedRows: the plural of a codes table's description ("seaside
// stands" for a kind 'Seaside stand') names the rows of that kind, never
// the codes row; unread, it is declined.
func TestKindNamedRows(t *testing.T) {
	path := sqliteDB(t, "stands",
		`CREATE TABLE KTYP (TYPCDE TEXT PRIMARY KEY, TYPDSC TEXT NOT NULL)`,
		`CREATE TABLE KSKMST (KSKNO INTEGER PRIMARY KEY, KSKNAM TEXT NOT NULL, KSKTWN TEXT NOT NULL, KSKTYP TEXT NOT NULL REFERENCES KTYP(TYPCDE))`,
		`INSERT INTO KTYP VALUES ('SEA','Seaside stand'),('PRK','Park hut'),('STN','Station booth')`,
		`INSERT INTO KSKMST VALUES (1,'Pier','Hove','SEA'),(2,'Dune','Rye','SEA'),(3,'Glen','Deal','PRK'),(4,'Quay','Rye','SEA'),(5,'Halt','Deal','STN')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"How many seaside stands are there?", // not the one codes row
		"Which seaside stands are in Rye?",
	})
}

// TestCodesGroups: grouped by a codes table (a code and its description),
// each group shows what its code stands for.
func TestCodesGroups(t *testing.T) {
	path := sqliteDB(t, "crates",
		`CREATE TABLE crateKind (code TEXT PRIMARY KEY, description TEXT NOT NULL)`,
		`CREATE TABLE crate (id INTEGER PRIMARY KEY, kindCode TEXT NOT NULL REFERENCES crateKind(code), weightKg REAL NOT NULL)`,
		`INSERT INTO crateKind VALUES ('BX','Wooden box'),('TR','Plastic tray'),('DR','Steel drum')`,
		`INSERT INTO crate VALUES (1,'BX',12.5),(2,'BX',10),(3,'TR',2.5),(4,'DR',30),(5,'TR',3)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Average crate weight by crate kind.",
			`SELECT k.description, AVG(c.weightKg) FROM crate c JOIN crateKind k ON k.code = c.kindCode GROUP BY k.code, k.description`, false},
	})
}

// TestWhenNamedRow: "when did <a named row> join?" — the row's table has
// the date, though no table is named.
func TestWhenNamedRow(t *testing.T) {
	path := sqliteDB(t, "readers",
		`CREATE TABLE branch (branch_id INTEGER PRIMARY KEY, branch_name TEXT NOT NULL, opened_year INTEGER NOT NULL, town TEXT NOT NULL)`,
		`CREATE TABLE reader (reader_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, joined_on TEXT NOT NULL, branch_id INTEGER NOT NULL REFERENCES branch(branch_id))`,
		`INSERT INTO branch VALUES (1,'Eastgate Library',1998,'Rye'),(2,'Westmoor Library',2004,'Deal')`,
		`INSERT INTO reader VALUES (1,'Ines Vale','2021-03-04',1),(2,'Tom Brook','2019-07-08',2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"When did Ines Vale join?", `SELECT joined_on FROM reader WHERE full_name = 'Ines Vale'`, false},
	})
}

// TestStableOrder: a list sorted by columns that may tie ends its ORDER BY
// with the rows' own key, so every engine gives one order.
func TestStableOrder(t *testing.T) {
	path := sqliteDB(t, "stable",
		`CREATE TABLE walker (walker_id INTEGER PRIMARY KEY, last_name TEXT NOT NULL, first_name TEXT NOT NULL, joined_on TEXT NOT NULL)`,
		`INSERT INTO walker VALUES (1,'Lee','Ann','2021-01-02'),(2,'Lee','Ann','2019-05-06'),(3,'Moss','Bo','2020-03-04')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	req := e.req
	req.Question = "List every walker's last name, first name and join date, sorted by last name and then first name."
	plan, err := New(nil).Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(plan.SQL, ", walker_id") {
		t.Errorf("the order does not end with the key: %s", plan.SQL)
	}
}

// TestRoleVerbs: a verb made of a key's name ("rigged" of rigger_id,
// "painted" of painted_by, "set" of a setter key, "instructed" of an
// instructor key) is the link it names, with or without "never", where the
// tables are joined by several keys; two keys of the same doer with other
// words each stay declined.
func TestRoleVerbs(t *testing.T) {
	path := sqliteDB(t, "masts",
		`CREATE TABLE crew (crew_id INTEGER PRIMARY KEY, crew_name TEXT NOT NULL, team TEXT NOT NULL)`,
		`CREATE TABLE mast (mast_id INTEGER PRIMARY KEY, mast_name TEXT NOT NULL, height INTEGER NOT NULL, rigger_id INTEGER REFERENCES crew(crew_id), painted_by INTEGER REFERENCES crew(crew_id))`,
		`CREATE TABLE paint (paint_code TEXT PRIMARY KEY, paint_name TEXT NOT NULL)`,
		`CREATE TABLE lesson (lesson_id INTEGER PRIMARY KEY, topic TEXT NOT NULL, instructor_id INTEGER NOT NULL REFERENCES crew(crew_id), setter_id INTEGER REFERENCES crew(crew_id))`,
		`INSERT INTO crew VALUES (1,'Ann Lee','A'),(2,'Bo Dahl','B'),(3,'Cy Moss','A'),(4,'Di Wren','B')`,
		`INSERT INTO mast VALUES (1,'Tall One',30,1,2),(2,'Short One',10,1,NULL),(3,'Mid',20,3,2)`,
		`INSERT INTO paint VALUES ('RD','Red'),('BL','Blue')`,
		`INSERT INTO lesson VALUES (1,'Knots',4,NULL),(2,'Sails',2,3)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which crew have never rigged a mast?", `SELECT crew_name FROM crew WHERE crew_id NOT IN (SELECT rigger_id FROM mast)`, false},
		{"Which crew rigged a mast?", `SELECT crew_name FROM crew WHERE crew_id IN (SELECT rigger_id FROM mast)`, false},
		{"Which crew have never painted a mast?", `SELECT crew_name FROM crew WHERE crew_id NOT IN (SELECT painted_by FROM mast WHERE painted_by IS NOT NULL)`, false},
		{"How many crew have never rigged a mast?", `SELECT COUNT(*) FROM crew WHERE crew_id NOT IN (SELECT rigger_id FROM mast)`, false},
		{"Which crew rigged the mast Tall One?", `SELECT crew_name FROM crew WHERE crew_id = 1`, false},
		{"Which crew have never instructed a lesson?", `SELECT crew_name FROM crew WHERE crew_id NOT IN (SELECT instructor_id FROM lesson)`, false},
		{"Which crew have never set a lesson?", `SELECT crew_name FROM crew WHERE crew_id NOT IN (SELECT setter_id FROM lesson WHERE setter_id IS NOT NULL)`, false},
	})
	path = sqliteDB(t, "twomasts",
		`CREATE TABLE crew (crew_id INTEGER PRIMARY KEY, crew_name TEXT NOT NULL)`,
		`CREATE TABLE mast (mast_id INTEGER PRIMARY KEY, mast_name TEXT NOT NULL, first_rigger_id INTEGER REFERENCES crew(crew_id), second_rigger_id INTEGER REFERENCES crew(crew_id))`,
		`INSERT INTO crew VALUES (1,'Ann Lee'),(2,'Bo Dahl'),(3,'Cy Moss')`,
		`INSERT INTO mast VALUES (1,'Tall One',1,2),(2,'Mid',3,NULL)`,
	)
	e = newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "two riggers", []string{"Which crew have never rigged a mast?"})
}

// TestVerbsOfTheRows: "umpires who never umpired a race" is the key named
// by the rows' own noun; "races" are the Boat_Race rows, not the entries
// of Race_Entry (a record table named after them); "never had an
// incident" keeps the rows with no report flagged so; "which helpers are
// marshals" is a value, not a verb.
func TestVerbsOfTheRows(t *testing.T) {
	path := sqliteDB(t, "regatta",
		`CREATE TABLE Umpire (Umpire_ID INTEGER PRIMARY KEY, Name TEXT NOT NULL, Town TEXT NOT NULL)`,
		`CREATE TABLE Boat_Race (Race_ID INTEGER PRIMARY KEY, Name TEXT NOT NULL, Race_Date TEXT NOT NULL, Umpire_ID INTEGER NOT NULL REFERENCES Umpire(Umpire_ID))`,
		`CREATE TABLE Race_Entry (Entry_ID INTEGER PRIMARY KEY, Race_ID INTEGER NOT NULL REFERENCES Boat_Race(Race_ID), Boat TEXT NOT NULL, Place INTEGER)`,
		`CREATE TABLE Report (Report_ID INTEGER PRIMARY KEY, Race_ID INTEGER NOT NULL REFERENCES Boat_Race(Race_ID), Is_Incident TEXT NOT NULL)`,
		`CREATE TABLE Helper (Helper_ID INTEGER PRIMARY KEY, Name TEXT NOT NULL, Job TEXT NOT NULL)`,
		`CREATE TABLE Shift (Shift_ID INTEGER PRIMARY KEY, Helper_ID INTEGER NOT NULL REFERENCES Helper(Helper_ID), Hours INTEGER NOT NULL)`,
		`CREATE TABLE Buoy (Buoy_ID INTEGER PRIMARY KEY, Colour TEXT NOT NULL, Marshal_ID INTEGER REFERENCES Helper(Helper_ID))`,
		`INSERT INTO Umpire VALUES (1,'Ann Lee','Rye'),(2,'Bo Dahl','Deal'),(3,'Cy Moss','Rye')`,
		`INSERT INTO Boat_Race VALUES (1,'Spring Cup','2025-04-01',1),(2,'Summer Cup','2025-07-01',1),(3,'Autumn Cup','2025-10-01',2)`,
		`INSERT INTO Race_Entry VALUES (1,1,'Swift',1),(2,1,'Heron',2),(3,2,'Swift',1),(4,3,'Otter',NULL),(5,3,'Heron',1),(6,3,'Swift',2)`,
		`INSERT INTO Report VALUES (1,1,'true'),(2,3,'false'),(3,3,'false')`,
		`INSERT INTO Helper VALUES (1,'Di Wren','marshal'),(2,'Ed Holt','cook'),(3,'Fay Park','marshal')`,
		`INSERT INTO Shift VALUES (1,1,4),(2,2,3)`,
		`INSERT INTO Buoy VALUES (1,'red',2),(2,'blue',NULL)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which umpires have not umpired any race?", `SELECT Name FROM Umpire WHERE Umpire_ID NOT IN (SELECT Umpire_ID FROM Boat_Race)`, false},
		{"How many races has each umpire umpired?", `SELECT u.Name, COUNT(*) FROM Boat_Race r JOIN Umpire u ON u.Umpire_ID = r.Umpire_ID GROUP BY u.Umpire_ID, u.Name`, false},
		{"How many races are there?", `SELECT COUNT(*) FROM Boat_Race`, false},
		{"Which races have never had an incident?", `SELECT Name FROM Boat_Race WHERE Race_ID NOT IN (SELECT Race_ID FROM Report WHERE Is_Incident = 'true')`, false},
		{"Which helpers are marshals?", `SELECT Name FROM Helper WHERE Job = 'marshal'`, false},
		{"How many helpers are not marshals?", `SELECT COUNT(*) FROM Helper WHERE Job <> 'marshal'`, false},
	})
	path = sqliteDB(t, "tworaces",
		`CREATE TABLE Umpire (Umpire_ID INTEGER PRIMARY KEY, Name TEXT NOT NULL)`,
		`CREATE TABLE Boat_Race (Race_ID INTEGER PRIMARY KEY, Name TEXT NOT NULL, Official_ID INTEGER NOT NULL REFERENCES Umpire(Umpire_ID))`,
		`INSERT INTO Umpire VALUES (1,'Ann Lee'),(2,'Bo Dahl'),(3,'Cy Moss')`,
		`INSERT INTO Boat_Race VALUES (1,'Spring Cup',1),(2,'Summer Cup',1)`,
	)
	e = newEnv(t, path, draftCatalog(t, path))
	// the negation is never dropped with the rows' own noun repeated as a verb
	checkDeclined(t, e, New(nil), "an official key", []string{"Which umpires have not umpired any race?"})
}

// TestListedAndLinked: a date column listed among those asked for is shown
// as well as dated; "the highest C of the T" is the value; a key is never
// compared with a number; "ordered" with nothing to order by is no sort;
// a part of a "min_…" column is not the column; numbers stored as text
// order as numbers; "T <verb>ed by <a row of T>" is not that row; "T
// <verb>ed by <a row of P>" is the key the verb names; a comma ends a
// column's name.
func TestListedAndLinked(t *testing.T) {
	path := sqliteDB(t, "harbour",
		`CREATE TABLE Skipper (Skipper_ID INTEGER PRIMARY KEY, Name TEXT NOT NULL, Town TEXT NOT NULL, Trainer_ID INTEGER REFERENCES Skipper(Skipper_ID))`,
		`CREATE TABLE Vessel (Vessel_ID INTEGER PRIMARY KEY, Name TEXT NOT NULL, Owner_ID INTEGER NOT NULL REFERENCES Skipper(Skipper_ID), Pilot_ID INTEGER REFERENCES Skipper(Skipper_ID), Length_M TEXT NOT NULL, Insured TEXT NOT NULL, Registered_On TEXT NOT NULL)`,
		`CREATE TABLE Voyage (Voyage_ID INTEGER PRIMARY KEY, Vessel_ID INTEGER NOT NULL REFERENCES Vessel(Vessel_ID), Name TEXT NOT NULL, Voyage_Date TEXT NOT NULL)`,
		`CREATE TABLE Zone (zone_id INTEGER PRIMARY KEY, zone_name TEXT NOT NULL, min_order_quantity TEXT NOT NULL)`,
		`CREATE TABLE Supply_Order (order_id INTEGER PRIMARY KEY, vessel_id INTEGER NOT NULL REFERENCES Vessel(Vessel_ID), zone_id INTEGER NOT NULL REFERENCES Zone(zone_id), placed_on TEXT NOT NULL, quantity INTEGER NOT NULL)`,
		`INSERT INTO Skipper VALUES (1,'Ann Lee','Rye',NULL),(2,'Bo Dahl','Deal',1),(3,'Cy Moss','Rye',1),(4,'Di Wren','Hove',2)`,
		`INSERT INTO Vessel VALUES (1,'Swift',1,2,'9.5','Y','2025-05-03'),(2,'Heron',1,NULL,'12.0','N','2024-02-01'),(3,'Otter',3,2,'30.25','Y','2025-05-20'),(4,'Wren',4,4,'8.0','N','2023-01-09'),(5,'Tern',2,NULL,'30.25','N','2025-01-02')`,
		`INSERT INTO Voyage VALUES (1,1,'Dawn Run','2025-03-02'),(2,1,'Long Haul','2024-06-03'),(3,3,'Cape Loop','2025-07-04'),(4,2,'Bay Trip','2025-05-05')`,
		`INSERT INTO Zone VALUES (1,'North','9.5'),(2,'South','12'),(3,'East','30')`,
		`INSERT INTO Supply_Order VALUES (1,1,1,'2025-05-02',4),(2,1,2,'2025-05-20',10),(3,3,2,'2025-04-01',7),(4,4,3,'2025-05-09',2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"List the name and date of voyages in 2025.", `SELECT Name, Voyage_Date FROM Voyage WHERE Voyage_Date LIKE '2025%'`, false},
		{"What is the highest length of the vessels?", `SELECT MAX(CAST(Length_M AS REAL)) FROM Vessel`, false},
		{"Show each zone with its minimum order quantity, highest first.", `SELECT zone_name, min_order_quantity FROM Zone ORDER BY CAST(min_order_quantity AS REAL) DESC`, true},
		{"Which vessels are owned by Ann Lee?", `SELECT Name FROM Vessel WHERE Owner_ID = 1`, false},
		{"List the vessels piloted by Bo Dahl.", `SELECT Name FROM Vessel WHERE Pilot_ID = 2`, false},
		{"How many vessels are not owned by Ann Lee?", `SELECT COUNT(*) FROM Vessel WHERE Owner_ID <> 1`, false},
		{"List the skippers trained by Ann Lee.", `SELECT Name FROM Skipper WHERE Trainer_ID = 1`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"which owners have at least one insured vessel",            // the owners' key is no number to compare
		"How many different vessels ordered in May 2025?",          // no sort: a verb of the orders
		"What are the minimum, maximum and mean order quantities?", // not the zones' minimum order
		"List the skippers employed by Ann Lee.",                   // the skippers she employs, not Ann Lee
	})
	m := compile(gather(e.req.Servers))
	toks := clauseTokenize("voyage, date")
	if got := m.lex.longest(toks, 0); got != nil && len(got.toks) > 1 {
		t.Errorf("%q read across the comma as %q", "voyage, date", got.text)
	}
}

// TestKindsRolesAndDates: "hold a C" keeps rows with C filled in; a verb
// names a key only by its own word ("won" is not an organiser key; "donated"
// is a donor key); "the date of the latest T" is T's own date; "the most
// recent C" of a non-date C, "each T's lowest U" and "which <one of the
// things a count column counts>" are declined; "which <value> T …, and
// when" shows the rows beside their date; "P <verb>ed by X" where the verb
// names another table's key, and the kinds of a column with no related
// rows, are declined.
func TestKindsRolesAndDates(t *testing.T) {
	path := sqliteDB(t, "recitals",
		`CREATE TABLE Musician (Id INTEGER PRIMARY KEY, FirstName TEXT NOT NULL, LastName TEXT NOT NULL, Award TEXT, Section TEXT NOT NULL)`,
		`CREATE TABLE Contest (Id INTEGER PRIMARY KEY, Name TEXT NOT NULL, StartDate TEXT NOT NULL, OrganiserId INTEGER NOT NULL REFERENCES Musician(Id))`,
		`CREATE TABLE Entry (Id INTEGER PRIMARY KEY, ContestId INTEGER NOT NULL REFERENCES Contest(Id), MusicianId INTEGER NOT NULL REFERENCES Musician(Id), Place INTEGER)`,
		`CREATE TABLE Hall (Id INTEGER PRIMARY KEY, Name TEXT NOT NULL, Pianos INTEGER NOT NULL, KeeperId INTEGER NOT NULL REFERENCES Musician(Id))`,
		`CREATE TABLE Recital (Id INTEGER PRIMARY KEY, MusicianId INTEGER NOT NULL REFERENCES Musician(Id), ContestId INTEGER REFERENCES Contest(Id), HallId INTEGER NOT NULL REFERENCES Hall(Id), Played TEXT NOT NULL)`,
		`CREATE TABLE Score (Id INTEGER PRIMARY KEY, MusicianId INTEGER NOT NULL REFERENCES Musician(Id), Month TEXT NOT NULL, Points INTEGER NOT NULL)`,
		`CREATE TABLE Concert (Id INTEGER PRIMARY KEY, Name TEXT NOT NULL, Kind TEXT NOT NULL, HeldOn TEXT NOT NULL)`,
		`CREATE TABLE Gift (Id INTEGER PRIMARY KEY, DonorId INTEGER NOT NULL REFERENCES Musician(Id), HallId INTEGER NOT NULL REFERENCES Hall(Id))`,
		`INSERT INTO Musician VALUES (1,'Ann','Lee','Gold Baton','brass'),(2,'Bo','Dahl',NULL,'strings'),(3,'Cy','Moss',NULL,'brass'),(4,'Di','Wren','Silver Bow','strings'),(5,'Ed','Holt',NULL,'percussion')`,
		`INSERT INTO Contest VALUES (1,'Spring Cup','2025-03-01',1),(2,'Autumn Cup','2025-09-01',4)`,
		`INSERT INTO Entry VALUES (1,1,2,1),(2,1,3,2),(3,2,2,2),(4,2,3,1)`,
		`INSERT INTO Hall VALUES (1,'Mill Hall',2,1),(2,'Quay Hall',1,3)`,
		`INSERT INTO Recital VALUES (1,2,1,1,'2025-03-02'),(2,3,NULL,2,'2025-11-20'),(3,1,NULL,1,'2024-01-05'),(4,4,2,2,'2025-09-02')`,
		`INSERT INTO Score VALUES (1,1,'2025-01',70),(2,1,'2025-02',90),(3,1,'2025-03',80),(4,2,'2025-01',60),(5,2,'2025-02',65)`,
		`INSERT INTO Concert VALUES (1,'New Year Gala','gala','2025-01-01'),(2,'Tea Dance','matinee','2025-02-02'),(3,'Summer Gala','gala','2025-07-07'),(4,'Old Gala','gala','2024-07-07')`,
		`INSERT INTO Gift VALUES (1,2,1),(2,2,2),(3,4,1)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	e.req.Today = "2025-12-01"
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which musicians hold an award, and what is the award?", `SELECT FirstName, LastName, Award FROM Musician WHERE Award IS NOT NULL`, false},
		{"What is the date of the latest recital?", `SELECT MAX(Played) FROM Recital`, false},
		{"Which gala concerts were there in 2025, and when?", `SELECT Name, HeldOn FROM Concert WHERE Kind = 'gala' AND HeldOn LIKE '2025%'`, false},
		{"List the distinct sections of musicians who have donated gifts.", `SELECT DISTINCT Section FROM Musician WHERE Id IN (SELECT DonorId FROM Gift)`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Which musicians have won a contest?",        // the organiser key, or the entries?
		"Give me the most recent points of Ann Lee.", // the points of the latest month, never the highest
		"show each musician's lowest score",          // one per musician, not the one lowest
		"Which piano was used at recital 3?",         // the pianos column counts pianos
		"Number of halls donated by Bo Dahl.",        // donated names Gift.DonorId, not the halls' keeper
		"Which sections have never had an entry?",    // per section, or per musician?
	})
}

// TestEventsAndParties: "the number of T <participle>" counts T's rows;
// "T N of <a named row>" beside a number column counted within it is
// declined; "no <modifier> <head>" negates the head's rows with the
// modifier inside; "earned the most" is never a count; a capitalised name
// ends at a lower-case word; "trainees" is no misspelling of "trainer";
// "the T with the second highest C" shows the rows; a date column listed
// among those asked is shown; a table named after the rows ranked, in the
// next sentence, is declined.
func TestEventsAndParties(t *testing.T) {
	path := sqliteDB(t, "quizzes",
		`CREATE TABLE Show (id INTEGER PRIMARY KEY, title TEXT NOT NULL, launched TEXT NOT NULL)`,
		`CREATE TABLE Round (id INTEGER PRIMARY KEY, show_id INTEGER NOT NULL REFERENCES Show(id), num INTEGER NOT NULL, title TEXT NOT NULL, aired TEXT NOT NULL, score INTEGER NOT NULL)`,
		`CREATE TABLE Sponsor (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE Deal (id INTEGER PRIMARY KEY, show_id INTEGER NOT NULL REFERENCES Show(id), sponsor_id INTEGER NOT NULL REFERENCES Sponsor(id), started TEXT NOT NULL, amount REAL NOT NULL)`,
		`CREATE TABLE Host (id INTEGER PRIMARY KEY, name TEXT NOT NULL, hire_date TEXT NOT NULL, trainer_id INTEGER REFERENCES Host(id))`,
		`CREATE TABLE Complaint (id INTEGER PRIMARY KEY, show_id INTEGER NOT NULL REFERENCES Show(id), host_id INTEGER NOT NULL REFERENCES Host(id), reported TEXT NOT NULL, kind TEXT NOT NULL)`,
		`INSERT INTO Show VALUES (1,'Night Quiz','2019-05-01'),(2,'Brain Race','2021-03-01'),(3,'Word Duel','2021-03-01')`,
		`INSERT INTO Round VALUES (1,1,1,'Opener','2024-01-05',40),(2,1,2,'Finale','2024-01-05',90),(3,2,1,'Warm Up','2025-02-01',70),(4,2,2,'Sprint','2025-03-01',85),(5,3,1,'Start','2025-03-01',60)`,
		`INSERT INTO Sponsor VALUES (1,'Acme Pens'),(2,'Blue Tea')`,
		`INSERT INTO Deal VALUES (1,1,1,'2024-01-01',500),(2,2,2,'2024-01-01',300),(3,2,1,'2024-06-01',300),(4,1,2,'2025-02-01',100)`,
		`INSERT INTO Host VALUES (1,'Ann Lee','2015-04-01',NULL),(2,'Bo Dahl','2018-09-01',1),(3,'Cy Moss','2021-01-10',1),(4,'Ann Lee','2022-06-01',2)`,
		`INSERT INTO Complaint VALUES (1,1,2,'2025-01-02','noise'),(2,2,3,'2025-03-04','spoiler')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"how many deals started in 2024", `SELECT COUNT(*) FROM Deal WHERE started LIKE '2024%'`, false},
		{"number of rounds aired each year", `SELECT substr(aired, 1, 4), COUNT(*) FROM Round GROUP BY substr(aired, 1, 4)`, false},
		{"Which shows have no sponsor deal?", `SELECT title FROM Show WHERE id NOT IN (SELECT show_id FROM Deal)`, false},
		{"When were the hosts named Ann Lee hired?", `SELECT hire_date FROM Host WHERE name = 'Ann Lee'`, false},
		{"find the round with the second highest score", `SELECT title FROM Round WHERE score = 85`, false},
		{"Show the name and hire date of hosts hired before 2020.", `SELECT name, hire_date FROM Host WHERE hire_date < '2020-01-01'`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"what is the title of round 2 of Night Quiz", // the key 2, or the show's round number 2?
		"which show earned the most from deals",      // money, not the number of deals
		"list the trainees of Ann Lee",               // the trainees are not the trainer
	})
	path = sqliteDB(t, "defects",
		`CREATE TABLE Vehicle (VehicleID INTEGER PRIMARY KEY, Name TEXT NOT NULL)`,
		`CREATE TABLE Defect (DefectID INTEGER PRIMARY KEY, VehicleID INTEGER NOT NULL REFERENCES Vehicle(VehicleID), Kind TEXT NOT NULL, Reported TEXT NOT NULL)`,
		`INSERT INTO Vehicle VALUES (1,'Alpha'),(2,'Bravo')`,
		`INSERT INTO Defect VALUES (10,1,'brakes','2025-01-02'),(11,2,'doors','2025-03-04'),(12,1,'lights','2025-02-01')`,
	)
	e = newEnv(t, path, draftCatalog(t, path))
	// the defect's vehicle, or the vehicles asked about?
	checkDeclined(t, e, New(nil), "drafted catalog", []string{"What was the most recently reported defect? Show its id, vehicle and kind."})
}

// TestUnitsAndBounds: "teams with more than two riders" counts the riders
// table, not a max_riders column; "per rider" after a number is the unit
// of a fee_per_rider column, and a grouping elsewhere; "T and C" shows T
// beside C; "best"/"worst" of a time, a flag of other rows before a table
// and "the <value>s and their T" are declined.
func TestUnitsAndBounds(t *testing.T) {
	path := sqliteDB(t, "rides",
		`CREATE TABLE Team (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE Grade (code TEXT PRIMARY KEY, title TEXT NOT NULL)`,
		`CREATE TABLE Ride (id INTEGER PRIMARY KEY, name TEXT NOT NULL, max_riders INTEGER NOT NULL, fee_per_team TEXT NOT NULL, opened_year INTEGER NOT NULL)`,
		`CREATE TABLE Rider (id INTEGER PRIMARY KEY, team_id INTEGER NOT NULL REFERENCES Team(id), grade_code TEXT NOT NULL REFERENCES Grade(code), name TEXT NOT NULL, birth_year INTEGER NOT NULL)`,
		`CREATE TABLE Booking (id INTEGER PRIMARY KEY, ride_id INTEGER NOT NULL REFERENCES Ride(id), team_id INTEGER NOT NULL REFERENCES Team(id), wait_secs INTEGER NOT NULL)`,
		`CREATE TABLE Drill (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE RiderDrill (id INTEGER PRIMARY KEY, rider_id INTEGER NOT NULL REFERENCES Rider(id), drill_id INTEGER NOT NULL REFERENCES Drill(id), attended TEXT NOT NULL)`,
		`CREATE TABLE Race (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE RiderRace (id INTEGER PRIMARY KEY, rider_id INTEGER NOT NULL REFERENCES Rider(id), race_id INTEGER NOT NULL REFERENCES Race(id))`,
		`INSERT INTO Team VALUES (1,'Spokes'),(2,'Chains'),(3,'Gears')`,
		`INSERT INTO Grade VALUES ('CAP','Captain'),('MEM','Member')`,
		`INSERT INTO Ride VALUES (1,'Coast Loop',8,'9.5',2011),(2,'Hill Climb',4,'12',2008),(3,'Night Ride',12,'30',2015)`,
		`INSERT INTO Rider VALUES (1,1,'CAP','Ann Lee',1990),(2,1,'MEM','Bo Dahl',1985),(3,1,'MEM','Cy Moss',2001),(4,2,'CAP','Di Wren',1979),(5,2,'MEM','Ed Holt',1995),(6,3,'CAP','Fay Park',1988)`,
		`INSERT INTO Booking VALUES (1,1,1,30),(2,2,1,90),(3,3,2,45),(4,1,3,20)`,
		`INSERT INTO Drill VALUES (1,'Cornering'),(2,'Braking')`,
		`INSERT INTO RiderDrill VALUES (1,1,1,'Y'),(2,2,1,'N'),(3,4,2,'Y')`,
		`INSERT INTO Race VALUES (1,'Spring Classic'),(2,'Autumn Dash')`,
		`INSERT INTO RiderRace VALUES (1,1,1),(2,5,2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which teams have more than two riders?", `SELECT name FROM Team WHERE id IN (SELECT team_id FROM Rider GROUP BY team_id HAVING COUNT(*) > 2)`, false},
		{"Which rides cost more than 10 per team?", `SELECT name FROM Ride WHERE CAST(fee_per_team AS REAL) > 10`, false},
		{"Number of bookings per team.", `SELECT t.name, COUNT(*) FROM Booking b JOIN Team t ON t.id = b.team_id GROUP BY t.id, t.name`, false},
		{"Show rides and opened year, sorted by opened year ascending.", `SELECT name, opened_year FROM Ride ORDER BY opened_year`, true},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"ride with the worst average wait",         // a longer wait is the worse one
		"Which riders have never attended a race?", // attended is a drill's flag, not said of races
		"List the captains and their teams.",       // the captains, with their teams beside them
	})
	path = sqliteDB(t, "escapes",
		`CREATE TABLE rooms (id INTEGER PRIMARY KEY, name TEXT NOT NULL, max_players INTEGER NOT NULL)`,
		`CREATE TABLE teams (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE players (id INTEGER PRIMARY KEY, team_id INTEGER NOT NULL REFERENCES teams(id), name TEXT NOT NULL)`,
		`CREATE TABLE bookings (id INTEGER PRIMARY KEY, room_id INTEGER NOT NULL REFERENCES rooms(id), team_id INTEGER NOT NULL REFERENCES teams(id))`,
		`INSERT INTO rooms VALUES (1,'Vault',6),(2,'Attic',4)`,
		`INSERT INTO teams VALUES (1,'Owls'),(2,'Foxes')`,
		`INSERT INTO players VALUES (1,1,'Ann'),(2,1,'Bo'),(3,1,'Cy'),(4,2,'Di')`,
		`INSERT INTO bookings VALUES (1,1,1),(2,2,2),(3,1,2)`,
	)
	e = newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which teams have more than two players?", `SELECT name FROM teams WHERE id IN (SELECT team_id FROM players GROUP BY team_id HAVING COUNT(*) > 2)`, false},
	})
}

// TestSelfCounts: rows that each hold how many of their things there were
// (a "total" column) are not counted as the things: "how many visits" and
// "the most visits" are declined; "visit records" are the rows.
func TestSelfCounts(t *testing.T) {
	path := sqliteDB(t, "pages",
		`CREATE TABLE page (id INTEGER PRIMARY KEY, title TEXT NOT NULL)`,
		`CREATE TABLE visit (id INTEGER PRIMARY KEY, page_id INTEGER NOT NULL REFERENCES page(id), month TEXT NOT NULL, total INTEGER NOT NULL)`,
		`INSERT INTO page VALUES (1,'Home'),(2,'About')`,
		`INSERT INTO visit VALUES (1,1,'2025-01',500),(2,1,'2025-02',700),(3,2,'2025-01',90)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many visit records are there?", `SELECT COUNT(*) FROM visit`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"How many visits are there?",      // the rows, or their totals added up?
		"Which page has the most visits?", // by rows or by total?
		"Which pages have more than 2 visits?",
	})
}

// TestBirthYearsAndKinds: a "year born" column ages the other way ("the
// oldest" was born first); "what are the categories of fairs" over a
// column of kinds is declined (each fair's, or the different ones?).
func TestBirthYearsAndKinds(t *testing.T) {
	path := sqliteDB(t, "fairs",
		`CREATE TABLE "stall holder" (id INTEGER PRIMARY KEY, forename TEXT NOT NULL, surname TEXT NOT NULL, "year born" INTEGER NOT NULL)`,
		`CREATE TABLE fair (id INTEGER PRIMARY KEY, title TEXT NOT NULL, category TEXT NOT NULL, "holder id" INTEGER NOT NULL REFERENCES "stall holder"(id))`,
		`INSERT INTO "stall holder" VALUES (1,'Ann','Lee',1950),(2,'Bo','Dahl',1981),(3,'Cy','Moss',1999)`,
		`INSERT INTO fair VALUES (1,'Spring Fair','craft',1),(2,'Summer Fair','food',2),(3,'Autumn Fair','craft',3),(4,'Winter Fair','food',1),(5,'Book Fair','books',2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Who is the oldest stall holder?", `SELECT forename, surname FROM "stall holder" WHERE id = 1`, false},
		{"Who is the youngest stall holder?", `SELECT forename, surname FROM "stall holder" WHERE id = 3`, false},
		{"List the different categories of fairs.", `SELECT DISTINCT category FROM fair`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{"What are the categories of fairs?"})
}

// TestQuotedPartsAndAmounts: a quoted word "in the name" is contained in
// it, even where one row is called exactly that; "how much has X taken"
// answered with X's row is declined; rows that each hold how many things
// were spilled are not counted as spills.
func TestQuotedPartsAndAmounts(t *testing.T) {
	path := sqliteDB(t, "stalls",
		`CREATE TABLE Stall (id INTEGER PRIMARY KEY, name TEXT NOT NULL, pitch INTEGER NOT NULL)`,
		`CREATE TABLE Spill (id INTEGER PRIMARY KEY, stall_id INTEGER NOT NULL REFERENCES Stall(id), day TEXT NOT NULL, units_spilled INTEGER NOT NULL)`,
		`INSERT INTO Stall VALUES (1,'Pie',3),(2,'Pie Hut',7),(3,'Tea Cart',9)`,
		`INSERT INTO Spill VALUES (1,1,'2025-01-02',4),(2,2,'2025-01-03',10),(3,1,'2025-02-01',1)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which stalls have 'pie' in the name?", `SELECT name FROM Stall WHERE name LIKE '%pie%'`, false},
		{"How many spill records are there?", `SELECT COUNT(*) FROM Spill`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"How much has the Tea Cart stall taken?", // an amount, and none is in the stall's row
		"spills by stall",                        // the spill rows, or the units spilled?
	})
}

// TestSharedNames: a name several rows share means all of them, and rows
// whose names repeat are shown with their date; one figure for a name said
// as if of one row is declined.
func TestSharedNames(t *testing.T) {
	path := sqliteDB(t, "regattas",
		`CREATE TABLE Regatta (id INTEGER PRIMARY KEY, name TEXT NOT NULL, held_on TEXT NOT NULL, venue TEXT NOT NULL)`,
		`CREATE TABLE Entry (id INTEGER PRIMARY KEY, regatta_id INTEGER NOT NULL REFERENCES Regatta(id), boat TEXT NOT NULL, place INTEGER)`,
		`INSERT INTO Regatta VALUES (1,'Harbour Cup','2024-06-01','Quay'),(2,'Harbour Cup','2025-06-07','Quay'),(3,'Lake Sprint','2025-07-12','Mere'),(4,'Estuary Dash','2025-08-02','Ford')`,
		`INSERT INTO Entry VALUES (1,1,'Kestrel',1),(2,1,'Tern',2),(3,2,'Kestrel',2),(4,2,'Puffin',1),(5,2,'Gull',3),(6,3,'Tern',1),(7,4,'Gull',1)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many entries did each regatta have?", `SELECT r.id, r.name, r.held_on, COUNT(*) FROM Regatta r JOIN Entry e ON e.regatta_id = r.id GROUP BY r.id`, false},
		{"How many entries did the regattas called Harbour Cup have?", `SELECT COUNT(*) FROM Entry WHERE regatta_id IN (1, 2)`, false},
		{"Which boats raced in the Harbour Cup?", `SELECT DISTINCT boat FROM Entry WHERE regatta_id IN (1, 2)`, false},
		{"What are the regatta ids for Harbour Cup, with their venues?", `SELECT id, venue FROM Regatta WHERE name = 'Harbour Cup'`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"How many entries did the Harbour Cup have?", // two regattas' entries added up under one name
		"How many entries did Harbour Cup have?",
	})
}

// TestPrefixesAndAbbreviations: a module prefix every table shares is not
// part of a table's name; "No. 2" is one name, not a negation and a
// sentence's end; a word one letter longer than a table's is another word.
func TestPrefixesAndAbbreviations(t *testing.T) {
	path := sqliteDB(t, "depot",
		`CREATE TABLE app_maker (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE app_crate (id INTEGER PRIMARY KEY, title TEXT NOT NULL, maker_id INTEGER NOT NULL REFERENCES app_maker(id), weight_kg INTEGER NOT NULL)`,
		`CREATE TABLE app_ship (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE app_ballad (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE app_ship_crates (id INTEGER PRIMARY KEY, ship_id INTEGER NOT NULL REFERENCES app_ship(id), crate_id INTEGER NOT NULL REFERENCES app_crate(id))`,
		`INSERT INTO app_maker VALUES (1,'Holt'),(2,'Varga')`,
		`INSERT INTO app_crate VALUES (1,'Lot No. 2',1,40),(2,'Lot No. 2',2,55),(3,'Spares',1,12),(4,'Rope',2,9)`,
		`INSERT INTO app_ship VALUES (1,'Tern'),(2,'Gull')`,
		`INSERT INTO app_ballad VALUES (1,'Low Tide'),(2,'High Tide')`,
		`INSERT INTO app_ship_crates VALUES (1,1,1),(2,1,3),(3,2,1)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many crates are there?", `SELECT COUNT(*) FROM app_crate`, false},
		{"How many crates are called Lot No. 2?", `SELECT COUNT(*) FROM app_crate WHERE title = 'Lot No. 2'`, false},
		{"What is the heaviest crate?", `SELECT title, weight_kg FROM app_crate ORDER BY weight_kg DESC LIMIT 1`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Show the name of every ballade.", // not the ballads
	})
}

// TestCodeLabels: a table others refer to, with no name, is named by a
// unique number or code column ("berth code"), whose listed names are its
// values, and a table of codes by
// what each code stands for (its description).
func TestCodeLabels(t *testing.T) {
	path := sqliteDB(t, "berths",
		`CREATE TABLE bay_kind (id INTEGER PRIMARY KEY, code TEXT NOT NULL, description TEXT NOT NULL)`,
		`CREATE TABLE berth (id INTEGER PRIMARY KEY, berth_code TEXT NOT NULL, kind_id INTEGER NOT NULL REFERENCES bay_kind(id), length_m INTEGER NOT NULL)`,
		`CREATE TABLE mooring (id INTEGER PRIMARY KEY, berth_id INTEGER NOT NULL REFERENCES berth(id), arrived TEXT NOT NULL, nights INTEGER NOT NULL)`,
		`INSERT INTO bay_kind VALUES (1,'PT','Pontoon'),(2,'SW','Sea wall'),(3,'SB','Swing buoy')`,
		`INSERT INTO berth VALUES (1,'A1',1,12),(2,'A2',1,14),(3,'B7',2,20),(4,'C3',3,9)`,
		`WITH RECURSIVE n(i) AS (SELECT 5 UNION ALL SELECT i + 1 FROM n WHERE i < 60) INSERT INTO berth SELECT i, 'D' || i, 1, 10 FROM n`,
		`INSERT INTO mooring VALUES (1,1,'2025-03-01',2),(2,1,'2025-03-09',1),(3,3,'2025-04-02',5),(4,1,'2025-05-11',3),(5,4,'2025-05-20',1)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many moorings has each berth had?", `SELECT b.berth_code, COUNT(*) FROM berth b JOIN mooring m ON m.berth_id = b.id GROUP BY b.id`, false},
		{"Which berth had the most moorings?", `SELECT 'A1'`, false},
		{"Which berths have bay kind code SW?", `SELECT b.berth_code FROM berth b JOIN bay_kind k ON k.id = b.kind_id WHERE k.code = 'SW'`, false},
		{"How many berths are there for each bay kind?", `SELECT k.description, COUNT(*) FROM bay_kind k JOIN berth b ON b.kind_id = k.id GROUP BY k.id`, false},
	})
}

// TestRefNames: a text key pointing at a named row is shown with that
// row's name, through that very key (two keys to one table stay apart).
func TestRefNames(t *testing.T) {
	path := sqliteDB(t, "masts",
		`CREATE TABLE mast (mast_code TEXT PRIMARY KEY, mast_name TEXT NOT NULL, height_m INTEGER NOT NULL)`,
		`CREATE TABLE crossing (crossing_code TEXT PRIMARY KEY, start_mast TEXT NOT NULL REFERENCES mast(mast_code), end_mast TEXT NOT NULL REFERENCES mast(mast_code), length_km REAL NOT NULL)`,
		`CREATE TABLE rower (rower_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, home_mast TEXT NOT NULL REFERENCES mast(mast_code))`,
		`INSERT INTO mast VALUES ('KRL','Kirral Point',30),('ASK','Askerwick',22),('TOB','Tobermain',41)`,
		`INSERT INTO crossing VALUES ('X1','KRL','ASK',4.5),('X2','ASK','TOB',7.0),('X3','KRL','TOB',9.5)`,
		`INSERT INTO rower VALUES (1,'Ann Lee','KRL'),(2,'Bo Ruiz','TOB'),(3,'Cy Holt','KRL')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"What is the end mast of crossing X2?", `SELECT 'Tobermain'`, false},
		{"Count crossings by start mast.", `SELECT m.mast_name, COUNT(*) FROM crossing c JOIN mast m ON m.mast_code = c.start_mast GROUP BY m.mast_code`, false},
		{"Show each rower's full name and home mast.", `SELECT r.full_name, m.mast_name FROM rower r JOIN mast m ON m.mast_code = r.home_mast`, false},
	})
}

// TestBestPlaces: the best of a finishing place or a rank is its lowest
// number.
func TestBestPlaces(t *testing.T) {
	path := sqliteDB(t, "heats",
		`CREATE TABLE rower (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE heat_result (id INTEGER PRIMARY KEY, rower_id INTEGER NOT NULL REFERENCES rower(id), placement INTEGER NOT NULL, raced_on TEXT NOT NULL)`,
		`INSERT INTO rower VALUES (1,'Ann Lee'),(2,'Bo Ruiz'),(3,'Cy Holt')`,
		`INSERT INTO heat_result VALUES (1,1,3,'2025-05-01'),(2,1,1,'2025-05-08'),(3,2,2,'2025-05-01'),(4,2,2,'2025-05-08'),(5,3,4,'2025-05-01'),(6,3,5,'2025-05-08')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"What is Ann Lee's best placement?", `SELECT 1`, false},
		{"Which rower has the best average placement?", `SELECT 'Ann Lee'`, false},
		{"Which rower has the worst average placement?", `SELECT 'Cy Holt'`, false},
	})
}

// TestLikeVerbAndUnitNames: "like" before a plain lowercase word is a verb,
// not a text pattern; a unit-suffixed column named after its table
// (knot_secs in knot) does not take the table's noun.
func TestLikeVerbAndUnitNames(t *testing.T) {
	path := sqliteDB(t, "knots",
		`CREATE TABLE rigger (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE knot (id INTEGER PRIMARY KEY, rigger_id INTEGER NOT NULL REFERENCES rigger(id), knot_secs INTEGER NOT NULL, fans INTEGER NOT NULL)`,
		`INSERT INTO rigger VALUES (1,'Ann Lee'),(2,'Bo Ruiz'),(3,'Cy Holt')`,
		`INSERT INTO knot VALUES (1,1,12,3),(2,1,40,9),(3,1,8,1),(4,2,15,4),(5,3,2,0),(6,3,5,2),(7,3,7,7)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which riggers have three or more knots?", `SELECT name FROM rigger WHERE id IN (1, 3)`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Which knots do fans like best?", // not fans LIKE '%best%'
	})
}

// TestFirmAndRegistrationLabels: a table of clients with only a bare
// "company" column is named by it (two may share it), and vehicles by
// their registration.
func TestFirmAndRegistrationLabels(t *testing.T) {
	path := sqliteDB(t, "hauls",
		`CREATE TABLE client (id INTEGER PRIMARY KEY, company TEXT NOT NULL, town TEXT NOT NULL)`,
		`CREATE TABLE lorry (id INTEGER PRIMARY KEY, registration TEXT NOT NULL, axles INTEGER NOT NULL)`,
		`CREATE TABLE haul (id INTEGER PRIMARY KEY, client_id INTEGER NOT NULL REFERENCES client(id), lorry_id INTEGER NOT NULL REFERENCES lorry(id), hauled_on TEXT NOT NULL)`,
		`INSERT INTO client VALUES (1,'Tideway Ltd','Hull'),(2,'Marsh & Co','Leeds'),(3,'Quayside plc','York'),(4,'Fenby Ltd','Hull'),(5,'Orwell Ltd','Ely'),(6,'Dunmore Ltd','Bath'),(7,'Keel plc','Hull'),(8,'Brigg & Sons','York'),(9,'Saltash Ltd','Ely'),(10,'Tideway Ltd','York')`,
		`INSERT INTO lorry VALUES (1,'KX21 BVA',3),(2,'LM70 TRE',2),(3,'PO19 ZZA',4)`,
		`INSERT INTO haul VALUES (1,1,1,'2025-01-02'),(2,1,2,'2025-01-09'),(3,2,1,'2025-02-01'),(4,3,3,'2025-02-11'),(5,1,1,'2025-03-01'),(6,4,2,'2025-03-05')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which client has the most hauls?", `SELECT 'Tideway Ltd'`, false},
		{"How many hauls has each lorry done?", `SELECT l.registration, COUNT(*) FROM lorry l JOIN haul h ON h.lorry_id = l.id GROUP BY l.id`, false},
	})
}

// TestOneRowCountsAndValues: a count of rows for each of the rows' own
// keys (every count 1) and a "value" read as a count are declined.
func TestOneRowCountsAndValues(t *testing.T) {
	path := sqliteDB(t, "presses",
		`CREATE TABLE pressing (id INTEGER PRIMARY KEY, pressed_on TEXT NOT NULL, litres INTEGER NOT NULL)`,
		`CREATE TABLE crate_order (id INTEGER PRIMARY KEY, pressing_id INTEGER NOT NULL REFERENCES pressing(id), crates INTEGER NOT NULL, price_per_crate REAL NOT NULL)`,
		`INSERT INTO pressing VALUES (1,'2025-09-01',400),(2,'2025-09-08',650),(3,'2025-09-15',300)`,
		`INSERT INTO crate_order VALUES (1,1,4,12.5),(2,2,2,12.5),(3,2,6,11.0)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many crate orders are there?", `SELECT COUNT(*) FROM crate_order`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Which pressing had the most pressings?",       // not the pressing with the most pressing rows
		"What is the total value of all crate orders?", // not the number of orders
	})
}

// TestSaidUnits: "how many hours" of a column held in minutes is the sum
// divided by 60; the unit the column holds needs no scaling.
func TestSaidUnits(t *testing.T) {
	path := sqliteDB(t, "drills",
		`CREATE TABLE rigger (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE drill (id INTEGER PRIMARY KEY, rigger_id INTEGER NOT NULL REFERENCES rigger(id), drilled_on TEXT NOT NULL, minutes INTEGER NOT NULL)`,
		`INSERT INTO rigger VALUES (1,'Ann Lee'),(2,'Bo Ruiz')`,
		`INSERT INTO drill VALUES (1,1,'2025-01-02',90),(2,1,'2025-01-09',30),(3,2,'2025-02-01',45)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many hours of drills has each rigger had?", `SELECT r.name, SUM(d.minutes) / 60.0 FROM rigger r JOIN drill d ON d.rigger_id = r.id GROUP BY r.id`, false},
		{"How many minutes of drills has each rigger had?", `SELECT r.name, SUM(d.minutes) FROM rigger r JOIN drill d ON d.rigger_id = r.id GROUP BY r.id`, false},
	})
}

// TestTypeSuffixes: "name_txt" is a name, "hoisted_flg" a yes/no of the
// rows, and a number column ending in nm (nautical miles) never a name.
func TestTypeSuffixes(t *testing.T) {
	path := sqliteDB(t, "masts",
		`CREATE TABLE mast (mast_id INTEGER PRIMARY KEY, name_txt TEXT NOT NULL, reach_nm INTEGER NOT NULL, hoisted_flg TEXT NOT NULL)`,
		`CREATE TABLE hoist (hoist_id INTEGER PRIMARY KEY, mast_id INTEGER NOT NULL REFERENCES mast(mast_id), hoist_dt TEXT NOT NULL)`,
		`INSERT INTO mast VALUES (1,'Fore',12,'Y'),(2,'Main',20,'N'),(3,'Mizzen',8,'Y')`,
		`INSERT INTO hoist VALUES (1,1,'2025-01-02'),(2,1,'2025-01-09'),(3,2,'2025-02-01')`,
		`CREATE TABLE leg (leg_id INTEGER PRIMARY KEY, run_nm INTEGER NOT NULL, sailed_dt TEXT NOT NULL)`,
		`INSERT INTO leg VALUES (1,40,'2025-03-01'),(2,12,'2025-03-02')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"List the names of the masts.", `SELECT name_txt FROM mast`, false},
		{"How many hoists has each mast had?", `SELECT m.name_txt, COUNT(*) FROM mast m JOIN hoist h ON h.mast_id = m.mast_id GROUP BY m.mast_id`, false},
	})
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Give the mast names.", `SELECT name_txt FROM mast`, false},
	})
}

// TestWinsAndDottedNames: "won" where the entries record a placement is
// declined (not any entry); "heats.venue" typed as in SQL is one column;
// "the heats held at X with their dates" shows each heat beside its date.
func TestWinsAndDottedNames(t *testing.T) {
	path := sqliteDB(t, "regatta",
		`CREATE TABLE rowers (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE heats (id INTEGER PRIMARY KEY, name TEXT NOT NULL, venue TEXT NOT NULL, heat_date TEXT NOT NULL)`,
		`CREATE TABLE entries (id INTEGER PRIMARY KEY, rower_id INTEGER NOT NULL REFERENCES rowers(id), heat_id INTEGER NOT NULL REFERENCES heats(id), placement INTEGER)`,
		`INSERT INTO rowers VALUES (1,'Ann Lee'),(2,'Bo Ruiz'),(3,'Cy Holt'),(4,'Di Wren')`,
		`INSERT INTO heats VALUES (1,'Harbour Cup','Tall Ship Quay','2025-05-01'),(2,'Estuary Plate','Mill Reach','2025-06-01'),(3,'Tideway Sprint','Tall Ship Quay','2025-07-01')`,
		`INSERT INTO entries VALUES (1,1,1,1),(2,2,1,2),(3,3,2,1),(4,1,2,2),(5,2,3,3),(6,4,3,1),(7,3,3,2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"count entries by heats.venue", `SELECT h.venue, COUNT(*) FROM entries e JOIN heats h ON h.id = e.heat_id GROUP BY h.venue`, false},
		{"List the heats held at Tall Ship Quay with their dates.", `SELECT name, heat_date FROM heats WHERE venue = 'Tall Ship Quay'`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Which rowers have won a heat?", // placement = 1, not any entry
	})
}

// TestReferencedCodesAndModifiers: a group of rows other tables refer to
// by a code shows the code; "<word> <table>" where the word opens one of
// the table's own column names ("craft guild" beside craft_order) is the
// table; a referenced table with a measure and no date is named by its
// one unique name.
func TestReferencedCodesAndModifiers(t *testing.T) {
	path := sqliteDB(t, "kites",
		`CREATE TABLE grade (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, label TEXT NOT NULL)`,
		`CREATE TABLE guild (id INTEGER PRIMARY KEY, name TEXT NOT NULL, craft_order TEXT NOT NULL)`,
		`CREATE TABLE maker (id INTEGER PRIMARY KEY, name TEXT NOT NULL, guild_fk INTEGER NOT NULL REFERENCES guild(id), grade_code TEXT NOT NULL REFERENCES grade(code))`,
		`CREATE TABLE kite (id INTEGER PRIMARY KEY, maker_fk INTEGER NOT NULL REFERENCES maker(id), sail_name TEXT NOT NULL, area_sqm INTEGER NOT NULL)`,
		`CREATE TABLE flight (id INTEGER PRIMARY KEY, kite_fk INTEGER NOT NULL REFERENCES kite(id), flown_on TEXT NOT NULL)`,
		`INSERT INTO grade VALUES (1,'G1','Novice'),(2,'G2','Skilled'),(3,'G3','Master')`,
		`INSERT INTO guild VALUES (1,'Windward','Sailcloth'),(2,'Leeward','Sailcloth'),(3,'Updraft','Paper')`,
		`INSERT INTO maker VALUES (1,'Ann Lee',1,'G1'),(2,'Bo Ruiz',1,'G2'),(3,'Cy Holt',2,'G2'),(4,'Di Wren',3,'G3')`,
		`INSERT INTO kite VALUES (1,1,'Red Tern',4),(2,1,'Blue Gull',6),(3,2,'Grey Skua',3),(4,3,'Gold Kestrel',5),(5,4,'White Heron',8)`,
		`INSERT INTO flight VALUES (1,1,'2025-01-02'),(2,1,'2025-01-09'),(3,2,'2025-02-01'),(4,3,'2025-02-11'),(5,4,'2025-03-01'),(6,5,'2025-03-05'),(7,5,'2025-03-06')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many makers are in each grade?", `SELECT grade_code, COUNT(*) FROM maker GROUP BY grade_code`, false},
		{"average area_sqm of kites for each grade", `SELECT m.grade_code, AVG(k.area_sqm) FROM kite k JOIN maker m ON m.id = k.maker_fk GROUP BY m.grade_code`, false},
		{"How many kites does each craft guild have?", `SELECT g.name, COUNT(*) FROM kite k JOIN maker m ON m.id = k.maker_fk JOIN guild g ON g.id = m.guild_fk GROUP BY g.id`, false},
		{"How many flights has each kite had?", `SELECT k.sail_name, COUNT(*) FROM kite k JOIN flight f ON f.kite_fk = k.id GROUP BY k.id`, false},
	})
}

// TestLegacyAbbreviations: "orders" and "order lines" of CRATE_ORD and
// CRATE_ORD_LINE (ORD spelled out); a crate named by CRATE_DESC (a
// description named after its table, two may share it); conditions on a
// line and on its order hold of the same line.
func TestLegacyAbbreviations(t *testing.T) {
	path := sqliteDB(t, "crateyard",
		`CREATE TABLE CRATE (CRATE_NO INTEGER PRIMARY KEY, CRATE_DESC TEXT NOT NULL, LIST_PR REAL NOT NULL, DEPOT_NO INTEGER NOT NULL REFERENCES DEPOT(DEPOT_NO))`,
		`CREATE TABLE DEPOT (DEPOT_NO INTEGER PRIMARY KEY, DEPOT_NM TEXT NOT NULL)`,
		`CREATE TABLE CRATE_ORD (ORD_NO INTEGER PRIMARY KEY, CUST_NM TEXT NOT NULL, ORD_DT TEXT NOT NULL)`,
		`CREATE TABLE CRATE_ORD_LINE (ORD_NO INTEGER NOT NULL REFERENCES CRATE_ORD(ORD_NO), LINE_NO INTEGER NOT NULL, CRATE_NO INTEGER NOT NULL REFERENCES CRATE(CRATE_NO), QTY INTEGER NOT NULL, PRIMARY KEY (ORD_NO, LINE_NO))`,
		`INSERT INTO DEPOT VALUES (1,'Quay'),(2,'Mill')`,
		`INSERT INTO CRATE VALUES (1,'Pine crate 40x60',12.5,1),(2,'Oak crate 50x80',30,1),(3,'Pine crate 40x60',14,2),(4,'Ash tray 20x30',6,2),(5,'Birch box 30x30',9,1),(6,'Elm chest 60x90',45,2),(7,'Larch bin 50x50',11,1),(8,'Cedar case 35x35',19,2),(9,'Beech crate 45x45',16,1),(10,'Yew casket 25x40',60,2)`,
		`INSERT INTO CRATE_ORD VALUES (100,'Ann Lee','2025-01-02'),(101,'Bo Ruiz','2025-02-03'),(102,'Ann Lee','2025-03-04')`,
		`INSERT INTO CRATE_ORD_LINE VALUES (100,1,1,5),(100,2,2,1),(101,1,2,3),(101,2,1,2),(102,1,4,7),(102,2,5,2)`,
		`CREATE TABLE CRATE_DELIV (DELIV_NO INTEGER PRIMARY KEY, CRATE_NO INTEGER NOT NULL REFERENCES CRATE(CRATE_NO), DELIV_DT TEXT NOT NULL)`,
		`INSERT INTO CRATE_DELIV VALUES (1,1,'2025-01-05'),(2,2,'2025-01-06'),(3,1,'2025-02-07')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many orders are there?", `SELECT COUNT(*) FROM CRATE_ORD`, false},
		{"How many order lines are there?", `SELECT COUNT(*) FROM CRATE_ORD_LINE`, false},
		{"How many deliveries are there?", `SELECT COUNT(*) FROM CRATE_DELIV`, false},
		{"Which crate is on line number 2 of order 100?", `SELECT CRATE_DESC FROM CRATE WHERE CRATE_NO = 2`, false},
		{"quantity sold per crate", `SELECT c.CRATE_DESC, SUM(l.QTY) FROM CRATE_ORD_LINE l JOIN CRATE c ON c.CRATE_NO = l.CRATE_NO GROUP BY c.CRATE_NO`, false},
	})
}

// TestStarSchemaSales: "net sales" of net_amount in fact_sales is the sum
// (by store, kept by HAVING); "by quarter" within one year is the date
// table's own quarter number; "across all <rows added up>" is one figure,
// "across all <other rows>" declined.
func TestStarSchemaSales(t *testing.T) {
	path := sqliteDB(t, "kiosksales",
		`CREATE TABLE dim_date (date_key INTEGER PRIMARY KEY, full_date TEXT NOT NULL, year INTEGER NOT NULL, quarter INTEGER NOT NULL)`,
		`CREATE TABLE dim_kiosk (kiosk_key INTEGER PRIMARY KEY, kiosk_name TEXT NOT NULL, town TEXT NOT NULL)`,
		`CREATE TABLE fact_sales (sale_key INTEGER PRIMARY KEY, date_key INTEGER NOT NULL REFERENCES dim_date(date_key), kiosk_key INTEGER NOT NULL REFERENCES dim_kiosk(kiosk_key), quantity INTEGER NOT NULL, net_amount REAL NOT NULL)`,
		`INSERT INTO dim_date VALUES (20250110,'2025-01-10',2025,1),(20250420,'2025-04-20',2025,2),(20250815,'2025-08-15',2025,3),(20241120,'2024-11-20',2024,4)`,
		`INSERT INTO dim_kiosk VALUES (1,'Pier Kiosk','Hull'),(2,'Quay Kiosk','Ely'),(3,'Mast Kiosk','Hull')`,
		`INSERT INTO fact_sales VALUES (1,20250110,1,2,10.0),(2,20250420,1,1,30.0),(3,20250815,2,5,50.0),(4,20241120,3,1,7.5),(5,20250110,2,3,12.0),(6,20250420,3,4,40.0)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"What are total net sales?", `SELECT SUM(net_amount) FROM fact_sales`, false},
		{"Which kiosks have net sales over 45?", `SELECT k.kiosk_name FROM dim_kiosk k JOIN fact_sales f ON f.kiosk_key = k.kiosk_key GROUP BY k.kiosk_key HAVING SUM(f.net_amount) > 45`, false},
		{"Net sales by quarter in 2025.", `SELECT d.quarter, SUM(f.net_amount) FROM fact_sales f JOIN dim_date d ON d.date_key = f.date_key WHERE d.year = 2025 GROUP BY d.quarter`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Total net sales across all kiosks.", // one total, not one per kiosk
	})
}

// TestDaysPluralValuesAndBareNegations: a table of days with no name is
// shown by its date; "the hot foods and their prices" where the category
// value is itself plural lists those stalls with their prices; a bare
// "<rows> with no <related rows>" is a list of them.
func TestDaysPluralValuesAndBareNegations(t *testing.T) {
	path := sqliteDB(t, "fairs",
		`CREATE TABLE fair_days (id INTEGER PRIMARY KEY, fair_date TEXT NOT NULL, footfall INTEGER NOT NULL)`,
		`CREATE TABLE stalls (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, price REAL NOT NULL)`,
		`CREATE TABLE stall_bookings (id INTEGER PRIMARY KEY, stall_id INTEGER NOT NULL REFERENCES stalls(id), fair_day_id INTEGER NOT NULL REFERENCES fair_days(id))`,
		`INSERT INTO fair_days VALUES (1,'2025-05-03',300),(2,'2025-05-10',420),(3,'2025-05-17',380)`,
		`INSERT INTO stalls VALUES (1,'Crepe Cart','Hot Foods',4.5),(2,'Pie Hut','Hot Foods',3.0),(3,'Jam Table','Preserves',2.5),(4,'Honey Stand','Preserves',6.0),(5,'Soap Barrow','Crafts',5.0)`,
		`INSERT INTO stall_bookings VALUES (1,1,1),(2,2,1),(3,3,1),(4,1,2),(5,3,2),(6,1,3)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many bookings were there on each fair day?", `SELECT d.fair_date, COUNT(*) FROM stall_bookings b JOIN fair_days d ON d.id = b.fair_day_id GROUP BY d.id`, false},
		{"List the hot foods and their prices.", `SELECT name, price FROM stalls WHERE category = 'Hot Foods'`, false},
		{"stalls with no bookings", `SELECT name FROM stalls WHERE id NOT IN (SELECT stall_id FROM stall_bookings)`, false},
		{"stall bookings per fair day", `SELECT d.fair_date, COUNT(*) FROM stall_bookings b JOIN fair_days d ON d.id = b.fair_day_id GROUP BY d.id`, false},
	})
}

// TestPartsOfPeriodsAndOpenRows: "the last quarter of 2024" is October to
// December 2024 (not the quarter before today); "started" dates the rows
// by starts_at, not when they were created; "currently" over rows with a
// start and an end date, and "how much" answered with whole rows, are
// declined; a log's main date is the one named for its rows (job_date of
// job_log, not paid_date).
func TestPartsOfPeriodsAndOpenRows(t *testing.T) {
	path := sqliteDB(t, "barges",
		`CREATE TABLE barge (barge_id INTEGER PRIMARY KEY, barge_name TEXT NOT NULL)`,
		`CREATE TABLE charter (charter_id INTEGER PRIMARY KEY, barge_id INTEGER NOT NULL REFERENCES barge(barge_id), created_at TEXT NOT NULL, starts_at TEXT NOT NULL, ends_at TEXT NOT NULL, price REAL NOT NULL)`,
		`CREATE TABLE job_log (id INTEGER PRIMARY KEY, paid_date TEXT, job_date TEXT NOT NULL, fee REAL NOT NULL)`,
		`INSERT INTO barge VALUES (1,'Tall Ship'),(2,'Oren Vale')`,
		`INSERT INTO charter VALUES (1,1,'2024-09-01','2024-10-05','2024-10-09',300),(2,1,'2024-11-20','2025-01-03','2025-01-07',280),(3,2,'2024-06-01','2024-07-01','2024-07-08',500),(4,2,'2025-09-01','2025-11-28','2025-12-02',450)`,
		`INSERT INTO job_log VALUES (1,'2025-01-10','2024-12-30',40),(2,'2025-02-01','2025-01-20',55),(3,NULL,'2025-02-14',60),(4,NULL,'2025-03-01',70)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	e.req.Today = "2025-11-30"
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many charters started in the last quarter of 2024?", `SELECT COUNT(*) FROM charter WHERE starts_at >= '2024-10-01' AND starts_at < '2025-01-01'`, false},
		{"How many charters started in the first half of 2025?", `SELECT COUNT(*) FROM charter WHERE starts_at >= '2025-01-01' AND starts_at < '2025-07-01'`, false},
		{"How many jobs were done in 2025?", `SELECT COUNT(*) FROM job_log WHERE job_date LIKE '2025%'`, false},
		{"Which charter has the highest price, and how much is it?", `SELECT charter_id, price FROM charter WHERE charter_id = 3`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"List the barges currently on charter.",        // start and end around today, not every charter
		"How much has Tall Ship earned from charters?", // an amount, not the charter rows
	})
}

// TestRelativeRowsAndOneMeasure: "riggers whose fee is above 40, with
// their fee" shows each rigger beside the fee; "the average review" where
// reviews hold one number is the average of it, but "the average review
// length" (a word after the table) is not.
func TestRelativeRowsAndOneMeasure(t *testing.T) {
	path := sqliteDB(t, "reviews",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL, daily_fee REAL NOT NULL, line_length INTEGER NOT NULL)`,
		`CREATE TABLE reviews (id INTEGER PRIMARY KEY, rigger_id INTEGER NOT NULL REFERENCES riggers(id), stars INTEGER NOT NULL, written_on TEXT NOT NULL)`,
		`INSERT INTO riggers VALUES (1,'Ann','Lee',35,3),(2,'Bo','Ruiz',48,4),(3,'Cy','Holt',52,5)`,
		`INSERT INTO reviews VALUES (1,1,4,'2025-01-02'),(2,1,5,'2025-02-03'),(3,2,2,'2025-03-04'),(4,3,3,'2025-04-05')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Show riggers whose daily fee is above 40 along with the fee.", `SELECT first_name, last_name, daily_fee FROM riggers WHERE daily_fee > 40`, false},
		{"What is the average review for each rigger?", `SELECT g.first_name, g.last_name, AVG(r.stars) FROM riggers g JOIN reviews r ON r.rigger_id = g.id GROUP BY g.id`, false},
		{"average review", `SELECT AVG(stars) FROM reviews`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"What is the average review length for each rigger?", // not the stars beside each rigger's line length
	})
}

// TestYearsOfOwnDates: "drops each year" is the year of the drops' own
// date, not the opening year of the huts they reach (even beside a view
// with a "year" column); "the wardens in 2025" is not the wardens born in
// 2025.
func TestYearsOfOwnDates(t *testing.T) {
	path := sqliteDB(t, "huts",
		`CREATE TABLE huts (hut_id INTEGER PRIMARY KEY, name TEXT NOT NULL, opened_year INTEGER NOT NULL)`,
		`CREATE TABLE wardens (warden_id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL, birth_year INTEGER NOT NULL)`,
		`CREATE TABLE drops (drop_id INTEGER PRIMARY KEY, hut_id INTEGER NOT NULL REFERENCES huts(hut_id), drop_date TEXT NOT NULL, weight_kg INTEGER NOT NULL)`,
		`CREATE VIEW v_drop_summary AS SELECT substr(drop_date, 1, 4) AS year, COUNT(*) AS drops FROM drops GROUP BY 1`,
		`INSERT INTO huts VALUES (1,'Tall Ship Hut',1961),(2,'Oren Vale Hut',1978)`,
		`INSERT INTO wardens VALUES (1,'Ann','Lee',1980),(2,'Bo','Ruiz',2025)`,
		`INSERT INTO drops VALUES (1,1,'2024-06-01',300),(2,1,'2025-06-02',250),(3,2,'2025-07-01',400)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many drops were there each year?", `SELECT substr(drop_date, 1, 4), COUNT(*) FROM drops GROUP BY 1`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Who were the wardens in 2025?", // not born in 2025
	})
}

// TestChatContext: an opening that names nothing of the database ("Hi,
// I'm doing the board slides —", "Quick one:") and closing thanks are set
// aside; an opening that names something ("For each kite:") is kept, and
// so is the rest's decline when it has one.
func TestChatContext(t *testing.T) {
	path := sqliteDB(t, "kiteclub",
		`CREATE TABLE kites (id INTEGER PRIMARY KEY, name TEXT NOT NULL, span_cm INTEGER NOT NULL)`,
		`CREATE TABLE flights (id INTEGER PRIMARY KEY, kite_id INTEGER NOT NULL REFERENCES kites(id), flown_on TEXT NOT NULL)`,
		`INSERT INTO kites VALUES (1,'Red Tern',120),(2,'Blue Gull',90),(3,'Grey Skua',150)`,
		`INSERT INTO flights VALUES (1,1,'2025-01-02'),(2,1,'2025-02-03'),(3,2,'2025-03-04')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Hi, I'm doing the board slides — could you tell me how many kites we have?", `SELECT COUNT(*) FROM kites`, false},
		{"Quick one: how many flights are there?", `SELECT COUNT(*) FROM flights`, false},
		{"How many kites are there? Thanks!", `SELECT COUNT(*) FROM kites`, false},
		{"For each kite: how many flights?", `SELECT k.name, COUNT(*) FROM kites k JOIN flights f ON f.kite_id = k.id GROUP BY k.id`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Hi, for the newsletter: why did flights drop?", // the rest is still a "why"
	})
}

// TestShownBesideRows: "riggers who joined in 2025, with their join
// dates" shows each rigger beside the date (a verb and a time range
// between them); "the drills with the rigger and the date" is declined
// (shown beside, or only the drills that have a rigger?).
func TestShownBesideRows(t *testing.T) {
	path := sqliteDB(t, "rigging",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL, joined_on TEXT NOT NULL)`,
		`CREATE TABLE drills (id INTEGER PRIMARY KEY, rigger_id INTEGER REFERENCES riggers(id), drilled_on TEXT NOT NULL, kind TEXT NOT NULL)`,
		`INSERT INTO riggers VALUES (1,'Ann','Lee','2024-03-01'),(2,'Bo','Ruiz','2025-02-01'),(3,'Cy','Holt','2025-06-01')`,
		`INSERT INTO drills VALUES (1,1,'2025-01-02','repair'),(2,NULL,'2025-02-03','repair'),(3,2,'2025-03-04','survey')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"List riggers who joined in 2025, with their join dates.", `SELECT first_name, last_name, joined_on FROM riggers WHERE joined_on LIKE '2025%'`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"List the drills with the rigger and the kind.", // not only the drills that have a rigger
	})
}

// TestTimesListed: "which years have we paid dues for" lists the
// different years, "list each dues year" one per row.
func TestTimesListed(t *testing.T) {
	path := sqliteDB(t, "dues",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE dues_payments (id INTEGER PRIMARY KEY, rigger_id INTEGER NOT NULL REFERENCES riggers(id), dues_year INTEGER NOT NULL, amount REAL NOT NULL)`,
		`INSERT INTO riggers VALUES (1,'Ann Lee'),(2,'Bo Ruiz')`,
		`INSERT INTO dues_payments VALUES (1,1,2023,10),(2,2,2023,10),(3,1,2024,12),(4,2,2024,12),(5,1,2025,12)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which years have we paid dues for?", `SELECT DISTINCT dues_year FROM dues_payments`, false},
		{"List the dues years on record.", `SELECT DISTINCT dues_year FROM dues_payments`, false},
	})
}

func TestWhenPlainVerb(t *testing.T) {
	path := sqliteDB(t, "kiosks",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, opened_year INTEGER NOT NULL, closed_on TEXT)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head',1998,NULL),(2,'Tall Ship',2004,'2024-06-30'),(3,'Oren Vale',1987,NULL)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"When did Tall Ship open?", `SELECT opened_year FROM kiosks WHERE name = 'Tall Ship'`, false},
		{"Which kiosk is the oldest, and when did it open?", `SELECT name, opened_year FROM kiosks ORDER BY opened_year LIMIT 1`, false},
		{"When did Tall Ship close?", `SELECT closed_on FROM kiosks WHERE name = 'Tall Ship'`, false},
	})
}

func TestPercentOfAll(t *testing.T) {
	path := sqliteDB(t, "crates",
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, label TEXT NOT NULL, status TEXT NOT NULL, fragile INTEGER NOT NULL)`,
		`INSERT INTO crates VALUES (1,'A1','late',1),(2,'A2','on time',0),(3,'B1','late',0),(4,'B2','on time',0),(5,'C1','on time',1)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Late crates as a percentage of all crates.", `SELECT 100.0 * SUM(CASE WHEN status = 'late' THEN 1 ELSE 0 END) / COUNT(*) FROM crates`, false},
		{"Show fragile crates as a percentage of all crates", `SELECT 100.0 * SUM(fragile) / COUNT(*) FROM crates`, false},
	})
}

func TestEmptyGroupsLeftOut(t *testing.T) {
	path := sqliteDB(t, "kiosks",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, town TEXT, rent REAL)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head','Oren Vale',90),(2,'Tall Ship','Oren Vale',80),(3,'Dune',NULL,70),(4,'Cove',NULL,60),(5,'Quay',NULL,50),(6,'Mast','Harbour',75)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many kiosks are there in each town?", `SELECT town, COUNT(*) FROM kiosks WHERE town IS NOT NULL GROUP BY town`, false},
		{"Which town has the most kiosks?", `SELECT town FROM kiosks WHERE town IS NOT NULL GROUP BY town ORDER BY COUNT(*) DESC LIMIT 1`, false},
		{"What is the average rent in each town?", `SELECT town, AVG(rent) FROM kiosks WHERE town IS NOT NULL GROUP BY town`, false},
	})
}

func TestHurriedShorthand(t *testing.T) {
	path := sqliteDB(t, "crates",
		`CREATE TABLE packers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, town TEXT)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, packer_id INTEGER REFERENCES packers(id), packed_on TEXT NOT NULL, weight REAL NOT NULL, fragile TEXT NOT NULL)`,
		`INSERT INTO packers VALUES (1,'Ann Lee','Oren Vale'),(2,'Bo Ruiz','Harbour'),(3,'Cy Dunn',NULL)`,
		`INSERT INTO crates VALUES (1,1,'2024-03-02',12,'yes'),(2,1,'2025-01-09',30,'no'),(3,2,'2025-02-11',55,'yes'),(4,2,'2025-06-01',8,'no'),(2024,1,'2025-07-01',9,'no')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"# fragile crates", `SELECT COUNT(*) FROM crates WHERE fragile = 'yes'`, false},
		{"no. of fragile crates", `SELECT COUNT(*) FROM crates WHERE fragile = 'yes'`, false},
		{"# crates w/ weight over 20", `SELECT COUNT(*) FROM crates WHERE weight > 20`, false},
		{"% of crates packed in 2025", `SELECT 100.0 * SUM(CASE WHEN packed_on LIKE '2025%' THEN 1 ELSE 0 END) / COUNT(*) FROM crates`, false},
		{"packers w/o crates", `SELECT name FROM packers WHERE id NOT IN (SELECT packer_id FROM crates WHERE packer_id IS NOT NULL)`, false},
		{"packers w/ more than one crate", `SELECT name FROM packers WHERE id IN (SELECT packer_id FROM crates GROUP BY packer_id HAVING COUNT(*) > 1)`, false},
		{"list all packers w/ town", `SELECT name, town FROM packers`, false},
		{"list packers & their towns", `SELECT name, town FROM packers`, false},
		{"packer cnt", `SELECT COUNT(*) FROM packers`, false},
		{"tot number of crates", `SELECT COUNT(*) FROM crates`, false},
		{"crates per yr", `SELECT substr(packed_on, 1, 4), COUNT(*) FROM crates GROUP BY 1`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"no. of crates 2024", // a year after rows in the plural, not crate 2024
	})
}

func TestFlagWithItsDate(t *testing.T) {
	path := sqliteDB(t, "crates",
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, label TEXT NOT NULL, packed_on TEXT NOT NULL, sealed TEXT NOT NULL, sealed_on TEXT)`,
		`INSERT INTO crates VALUES (1,'A1','2025-04-20','yes','2025-05-02'),(2,'A2','2025-05-03','yes','2025-06-11'),(3,'B1','2025-05-09','no',NULL),(4,'B2','2025-03-01','yes','2025-05-30')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which crates were sealed in May 2025?", `SELECT label FROM crates WHERE sealed_on BETWEEN '2025-05-01' AND '2025-05-31'`, false},
		{"How many crates were sealed in May 2025?", `SELECT COUNT(*) FROM crates WHERE sealed_on BETWEEN '2025-05-01' AND '2025-05-31'`, false},
	})
}

func TestSecondName(t *testing.T) {
	path := sqliteDB(t, "herbs",
		`CREATE TABLE herbs (id INTEGER PRIMARY KEY, formal_name TEXT NOT NULL, common_name TEXT NOT NULL, potted TEXT NOT NULL)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, herb_id INTEGER NOT NULL REFERENCES herbs(id), packed_on TEXT NOT NULL, weight REAL NOT NULL)`,
		`INSERT INTO herbs VALUES (1,'Mentha spicata','Spearmint','yes'),(2,'Salvia rosmarinus','Rosemary','no'),(3,'Thymus vulgaris','Thyme','yes')`,
		`INSERT INTO crates VALUES (1,1,'2025-01-02',3),(2,1,'2025-01-05',4),(3,2,'2025-02-01',5),(4,3,'2025-02-03',2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many crates does each herb have?", `SELECT h.common_name, COUNT(*) FROM crates c JOIN herbs h ON h.id = c.herb_id GROUP BY h.id, h.common_name`, false},
		{"Average crate weight per herb.", `SELECT h.common_name, AVG(c.weight) FROM crates c JOIN herbs h ON h.id = c.herb_id GROUP BY h.id, h.common_name`, false},
	})
}

func TestUnitsConverted(t *testing.T) {
	path := sqliteDB(t, "crates",
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, label TEXT NOT NULL, weight_kg REAL NOT NULL, haul_m INTEGER NOT NULL, secs TEXT NOT NULL)`,
		`INSERT INTO crates VALUES (1,'A1',800,900,'300'),(2,'A2',2500,1800,'700'),(3,'B1',12000,2600,'1250'),(4,'B2',30000,400,'90')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many crates weigh more than 2 tonnes?", `SELECT COUNT(*) FROM crates WHERE weight_kg > 2000`, false},
		{"Count crates between 1 and 15 tonnes.", `SELECT COUNT(*) FROM crates WHERE weight_kg BETWEEN 1000 AND 15000`, false},
		{"Which crates have a haul longer than 1.5 km?", `SELECT label FROM crates WHERE haul_m > 1500`, false},
		{"How many crates have secs over ten minutes?", `SELECT COUNT(*) FROM crates WHERE CAST(secs AS REAL) > 600`, false},
	})
	packed := sqliteDB(t, "packers",
		`CREATE TABLE packers (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, packer_id INTEGER NOT NULL REFERENCES packers(id), weight_kg REAL NOT NULL)`,
		`INSERT INTO packers VALUES (1,'Ann Lee'),(2,'Bo Ruiz')`,
		`INSERT INTO crates VALUES (1,1,800),(2,1,2500),(3,2,900)`,
	)
	e = newEnv(t, packed, draftCatalog(t, packed))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which packers have a total crate weight over 3 tonnes?", `SELECT p.name FROM crates c JOIN packers p ON p.id = c.packer_id GROUP BY p.id HAVING SUM(c.weight_kg) > 3000`, false},
	})
}

func TestOwnCodeShown(t *testing.T) {
	path := sqliteDB(t, "kiosks",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, kiosk_code TEXT NOT NULL, name TEXT NOT NULL, town TEXT NOT NULL)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id), weight REAL NOT NULL)`,
		`INSERT INTO kiosks VALUES (1,'K01','Pier Head','Oren Vale'),(2,'K02','Mill Lane','Oren Vale'),(3,'K03','Mill Lane','Harbour')`,
		`INSERT INTO crates VALUES (1,1,3),(2,2,4),(3,2,5),(4,3,2),(5,3,1),(6,3,6)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many crates does each kiosk have?", `SELECT k.kiosk_code, COUNT(*) FROM crates c JOIN kiosks k ON k.id = c.kiosk_id GROUP BY k.id, k.kiosk_code`, false},
		{"Which kiosk has the most crates?", `SELECT k.kiosk_code FROM crates c JOIN kiosks k ON k.id = c.kiosk_id GROUP BY k.id ORDER BY COUNT(*) DESC LIMIT 1`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Which towns have the most kiosks?", // every town tied at the top, which LIMIT 1 would cut
	})
	tagged := sqliteDB(t, "masts",
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, asset_tag TEXT NOT NULL, height REAL NOT NULL)`,
		`CREATE TABLE icings (id INTEGER PRIMARY KEY, mast_id INTEGER NOT NULL REFERENCES masts(id), logged_on TEXT NOT NULL)`,
		`INSERT INTO masts VALUES (1,'MS-0007',30),(2,'MS-0012',42),(3,'MS-0031',25)`,
		`INSERT INTO icings VALUES (1,2,'2025-01-02'),(2,2,'2025-01-09'),(3,1,'2025-02-01'),(4,2,'2025-02-11')`,
	)
	e = newEnv(t, tagged, draftCatalog(t, tagged))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which mast has the most icings?", `SELECT m.asset_tag FROM icings i JOIN masts m ON m.id = i.mast_id GROUP BY m.id ORDER BY COUNT(*) DESC LIMIT 1`, false},
	})
}

func TestBothWaysAndNounLinks(t *testing.T) {
	path := sqliteDB(t, "kiosks",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, shaded TEXT NOT NULL)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id), weight REAL NOT NULL, sheets_used INTEGER NOT NULL)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head','yes'),(2,'Tall Ship','no'),(3,'Oren Vale','yes')`,
		`INSERT INTO crates VALUES (1,1,3,2),(2,2,4,1),(3,2,5,6)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many kiosks are shaded?", `SELECT COUNT(*) FROM kiosks WHERE shaded = 'yes'`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"How many kiosks are and are not shaded?",                // two counts, not the one after "not"
		"How many crates went to kiosks with and without shade?", // two counts, not the one after "without"
		"What lead came was used for the Tall Ship?",             // a noun the schema lacks, not two link verbs
	})
}

func TestKnownByAddress(t *testing.T) {
	path := sqliteDB(t, "lets",
		`CREATE TABLE cottages (id INTEGER PRIMARY KEY, address_line TEXT NOT NULL, rooms INTEGER NOT NULL, built_year INTEGER NOT NULL)`,
		`CREATE TABLE stays (id INTEGER PRIMARY KEY, cottage_id INTEGER NOT NULL REFERENCES cottages(id), nights INTEGER NOT NULL, arrived_on TEXT NOT NULL)`,
		`INSERT INTO cottages VALUES (1,'2 Pier Head',3,1890),(2,'7 Oren Vale',2,1932),(3,'1 Tall Ship Lane',4,2001)`,
		`INSERT INTO stays VALUES (1,1,3,'2025-01-02'),(2,1,2,'2025-02-09'),(3,2,7,'2025-03-01'),(4,3,1,'2025-03-11')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many stays has each cottage had?", `SELECT c.address_line, COUNT(*) FROM stays s JOIN cottages c ON c.id = s.cottage_id GROUP BY c.id, c.address_line`, false},
		{"How many rooms does 7 Oren Vale have?", `SELECT rooms FROM cottages WHERE address_line = '7 Oren Vale'`, false},
	})
}

func TestStateWordAsVerb(t *testing.T) {
	path := sqliteDB(t, "benches",
		`CREATE TABLE benches (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, bench_id INTEGER NOT NULL REFERENCES benches(id), label TEXT NOT NULL, items INTEGER NOT NULL, state TEXT NOT NULL)`,
		`INSERT INTO benches VALUES (1,'Pier Head'),(2,'Mill Lane'),(3,'Harbour')`,
		`INSERT INTO crates VALUES (1,1,'A1',40,'packed'),(2,1,'A2',70,'shipped'),(3,2,'B1',30,'shipped'),(4,2,'B2',20,'queued'),(5,3,'C1',90,'packed'),(6,1,'A3',15,'queued')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which bench packed crate 2?", `SELECT b.name FROM crates c JOIN benches b ON b.id = c.bench_id WHERE c.id = 2`, false},
		{"How many crates were packed on bench 1?", `SELECT COUNT(*) FROM crates WHERE bench_id = 1`, false},
		// the state itself, where no other rows are named beside it
		{"How many crates were packed?", `SELECT COUNT(*) FROM crates WHERE state = 'packed'`, false},
		{"Which crates have been shipped?", `SELECT label FROM crates WHERE state = 'shipped'`, false},
	})
}

func TestPerPeriodOfItsColumn(t *testing.T) {
	path := sqliteDB(t, "stalls",
		`CREATE TABLE stalls (id INTEGER PRIMARY KEY, name TEXT NOT NULL, opened_on TEXT NOT NULL, monthly_levy TEXT NOT NULL)`,
		`INSERT INTO stalls VALUES (1,'Pier Head','2025-01-04','950.00'),(2,'Mill Lane','2025-01-20','1200.00'),(3,'Harbour','2025-02-11','700.00'),(4,'Oren Vale','2025-03-02','1100.00')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Average levy per month.", `SELECT AVG(CAST(monthly_levy AS REAL)) FROM stalls`, false},
		{"What is the highest levy per month?", `SELECT MAX(CAST(monthly_levy AS REAL)) FROM stalls`, false},
		{"List stalls with a levy per month above 1000.", `SELECT name FROM stalls WHERE CAST(monthly_levy AS REAL) > 1000`, false},
		// a count per month still groups by the month
		{"How many stalls opened per month?", `SELECT substr(opened_on, 1, 7), COUNT(*) FROM stalls GROUP BY substr(opened_on, 1, 7)`, false},
	})
}

func TestRowsBehindTheKeys(t *testing.T) {
	path := sqliteDB(t, "riggers",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born INTEGER NOT NULL, mentor_id INTEGER REFERENCES riggers(id))`,
		`CREATE TABLE rallies (id INTEGER PRIMARY KEY, name TEXT NOT NULL, host_rigger_id INTEGER NOT NULL REFERENCES riggers(id))`,
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, label TEXT NOT NULL, rigger_id INTEGER NOT NULL REFERENCES riggers(id), tallier_id INTEGER NOT NULL REFERENCES riggers(id))`,
		`CREATE TABLE climbs (id INTEGER PRIMARY KEY, rally_id INTEGER NOT NULL REFERENCES rallies(id), mast_id INTEGER NOT NULL REFERENCES masts(id), place INTEGER)`,
		`INSERT INTO riggers VALUES (1,'Ann Lee',1980,NULL),(2,'Bo Ruiz',1995,1),(3,'Cy Hale',1970,2),(4,'Di Moss',1999,NULL)`,
		`INSERT INTO rallies VALUES (1,'Pier Head',1),(2,'Harbour',1),(3,'Mill Lane',2)`,
		`INSERT INTO masts VALUES (1,'A1',3,1),(2,'A2',2,4),(3,'B1',4,3)`,
		`INSERT INTO climbs VALUES (1,1,1,1),(2,1,2,2),(3,2,3,1),(4,3,3,1),(5,3,1,2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		// the placing is on the climbs, not on the rally's host
		"Which rigger has won the most rallies?",
		// the letters are a word taken for English
		"Which riggers have names that end with the letters an?",
	})
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Find riggers whose names begin with the letter B.", `SELECT name FROM riggers WHERE name LIKE 'B%'`, false},
		{"Which riggers have a mentor?", `SELECT name FROM riggers WHERE mentor_id IS NOT NULL`, false},
	})
	roles := sqliteDB(t, "riggers",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, birth_year INTEGER NOT NULL)`,
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, label TEXT NOT NULL, fitter_id INTEGER NOT NULL REFERENCES riggers(id), tallier_id INTEGER NOT NULL REFERENCES riggers(id))`,
		`INSERT INTO riggers VALUES (1,'Ann Lee',1980),(2,'Bo Ruiz',1995),(3,'Cy Hale',1970),(4,'Di Moss',1999)`,
		`INSERT INTO masts VALUES (1,'A1',3,1),(2,'A2',2,4),(3,'B1',4,3)`,
	)
	e = newEnv(t, roles, draftCatalog(t, roles))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		// two keys compared as numbers say nothing of the fitters
		"In how many masts was the fitter born earlier than the checker?",
	})
	dated := sqliteDB(t, "riggers",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, joined_on TEXT NOT NULL)`,
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, label TEXT NOT NULL, raised_on TEXT NOT NULL, fitter_id INTEGER REFERENCES riggers(id))`,
		`INSERT INTO riggers VALUES (1,'Ann Lee','2015-03-01'),(2,'Bo Ruiz','2019-05-02'),(3,'Cy Hale','2012-01-09'),(4,'Di Moss','2021-07-07')`,
		`INSERT INTO masts VALUES (1,'A1','2016-01-01',3),(2,'A2','2020-02-02',2),(3,'B1','2022-03-03',4),(4,'B2','2014-04-04',NULL)`,
	)
	e = newEnv(t, dated, draftCatalog(t, dated))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		// a condition on the fitter's row, not the mast's own date
		"Which masts have a fitter who joined before 2018?",
	})
	typed := sqliteDB(t, "crates",
		`CREATE TABLE crate_sizes (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, label TEXT NOT NULL, size_id INTEGER NOT NULL REFERENCES crate_sizes(id))`,
		`INSERT INTO crate_sizes VALUES (1,'Two'),(2,'Four'),(3,'Nine'),(4,'Six'),(9,'Twelve')`,
		`INSERT INTO crates VALUES (1,'A1',3),(2,'A2',1),(3,'B1',3),(4,'B2',9)`,
	)
	e = newEnv(t, typed, draftCatalog(t, typed))
	checkAnswered(t, e, New(nil), []ruleCase{
		// "Nine" is a size's name, not the size with key 9
		{"List the labels of crates of size Nine.", `SELECT label FROM crates WHERE size_id = 3`, false},
	})
}

func TestLegacyShortNames(t *testing.T) {
	path := sqliteDB(t, "legacy",
		`CREATE TABLE usr (usr_id INTEGER PRIMARY KEY, usr_nm TEXT NOT NULL, cnty TEXT NOT NULL)`,
		`CREATE TABLE itm (itm_id INTEGER PRIMARY KEY, itm_no TEXT NOT NULL, itm_desc TEXT NOT NULL, wt_kg REAL, intro_yr INTEGER NOT NULL)`,
		`CREATE TABLE pkg_hdr (pkg_id INTEGER PRIMARY KEY, usr_id INTEGER NOT NULL REFERENCES usr(usr_id), itm_id INTEGER NOT NULL REFERENCES itm(itm_id), ord_dt TEXT NOT NULL, dsp_dt TEXT, acct_yn TEXT NOT NULL)`,
		`INSERT INTO usr VALUES (1,'Ann Lee','Oren Vale'),(2,'Bo Ruiz','Harbour'),(3,'Cy Hale','Oren Vale')`,
		`INSERT INTO itm VALUES (1,'MS-100','Mast step',12.5,2019),(2,'RG-220','Rigging block',3.25,2021),(3,'SL-310','Sail batten',0.8,2020)`,
		`INSERT INTO pkg_hdr VALUES (1,1,1,'2024-03-02','2024-03-09','y'),(2,2,2,'2024-12-28','2025-01-04','n'),(3,3,1,'2025-02-11','2025-02-12','y'),(4,1,3,'2025-05-01',NULL,'n'),(5,2,2,'2023-11-30','2024-01-02','y')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		// pkg_hdr: the packages; dsp_dt: the dispatch date
		{"How many packages were dispatched in 2024?", `SELECT COUNT(*) FROM pkg_hdr WHERE dsp_dt LIKE '2024%'`, false},
		// wt_kg: a weight the verb names
		{"Which item weighs the most?", `SELECT itm_desc FROM itm ORDER BY wt_kg DESC LIMIT 1`, false},
		// the user's county, not each user
		{"Count packages by the user's county.", `SELECT u.cnty, COUNT(*) FROM pkg_hdr p JOIN usr u ON u.usr_id = p.usr_id GROUP BY u.cnty`, false},
		// a code typed after the noun: the item number, not its description
		{"What is item RG-220?", `SELECT itm_desc FROM itm WHERE itm_no = 'RG-220'`, false},
		// each item shown by what it is
		{"How many packages does each item have?", `SELECT i.itm_desc, COUNT(*) FROM pkg_hdr p JOIN itm i ON i.itm_id = p.itm_id GROUP BY i.itm_id`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		// the packages' dispatch date, not the item's own year
		"When was the Mast step dispatched?",
		// "ordered" after "was": the verb, not a sort
		"When was the Mast step ordered?",
	})
	// too many items for the catalog to list their codes or names
	many := sqliteDB(t, "legacy",
		`CREATE TABLE itm (itm_id INTEGER PRIMARY KEY, itm_no TEXT NOT NULL, itm_desc TEXT NOT NULL)`,
		`CREATE TABLE pkg_hdr (pkg_id INTEGER PRIMARY KEY, itm_id INTEGER NOT NULL REFERENCES itm(itm_id), ord_dt DATE NOT NULL, dsp_dt DATE)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 300) INSERT INTO itm SELECT i, 'RG-'||(1000+i), 'Block '||(i*7) FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 400) INSERT INTO pkg_hdr SELECT i, 1+i%300, date('2023-06-01', '+'||(i*2)||' days'), date('2023-06-01', '+'||(i*2+5)||' days') FROM n`,
	)
	e = newEnv(t, many, draftCatalog(t, many))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"What is item RG-1220?", `SELECT itm_desc FROM itm WHERE itm_no = 'RG-1220'`, false},
	})
	e = newEnv(t, many, "")
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many packages were dispatched in 2024?", `SELECT COUNT(*) FROM pkg_hdr WHERE dsp_dt LIKE '2024%'`, false},
	})
	// with the schema alone, no catalog words or values to lean on
	e = newEnv(t, path, "")
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which item weighs the most?", `SELECT itm_no FROM itm ORDER BY wt_kg DESC LIMIT 1`, false},
		{"What is item RG-220?", `SELECT itm_no FROM itm WHERE itm_no = 'RG-220'`, false},
	})
}

func TestFiguresNotRead(t *testing.T) {
	path := sqliteDB(t, "kiosks",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, area_m2 REAL NOT NULL, town TEXT NOT NULL)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id), packed_on TEXT NOT NULL, price REAL NOT NULL, max_items INTEGER NOT NULL)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head',12.5,'Oren Vale'),(2,'Mill Lane',30,'Harbour'),(3,'Tall Ship',8,'Harbour')`,
		`INSERT INTO crates VALUES (1,1,'2024-03-02',40,10),(2,2,'2024-12-28',15,45),(3,2,'2025-02-11',90,20),(4,3,'2025-05-01',12,60),(5,1,'2025-06-30',18,35)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		// a place asked beside the date, with no column said to hold it
		"When and where was the first crate packed?",
		// a multiple of a figure over the rows
		"Which crates had a price more than twice the average price?",
		"List crates priced above double the average.",
		// a multiple of another figure of the same row, not the number
		"Which crates sold for at least twice their max items?",
		"Which crates sold for more than 3 times their max items?",
		// a rate for each of a noun, not the number against that column
		"Which crates sold below 9.50 a max item?",
	})
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which crates had a price above the average?", `SELECT id FROM crates WHERE price > (SELECT AVG(price) FROM crates)`, false},
		{"Which crates have more than 30 max items?", `SELECT id FROM crates WHERE max_items > 30`, false},
		{"When was the first crate packed?", `SELECT MIN(packed_on) FROM crates`, false},
	})
	houses := sqliteDB(t, "boathouses",
		`CREATE TABLE boathouses (id INTEGER PRIMARY KEY, name TEXT NOT NULL, area_m2 REAL NOT NULL)`,
		`CREATE TABLE moorings (id INTEGER PRIMARY KEY, house_id INTEGER NOT NULL REFERENCES boathouses(id), moored_on TEXT NOT NULL, price REAL NOT NULL)`,
		`INSERT INTO boathouses VALUES (1,'Pier Head',120),(2,'Mill Lane',300),(3,'Tall Ship',80)`,
		`INSERT INTO moorings VALUES (1,1,'2024-03-02',40),(2,2,'2025-01-04',15),(3,3,'2025-02-11',90),(4,3,'2025-05-01',12)`,
	)
	e = newEnv(t, houses, draftCatalog(t, houses))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		// the moorings' key to their house is no size of the houses
		"Which houses are bigger than the average house?",
		// the number of dated moorings with a price each, or their money?
		"What were total moorings in 2025?",
	})
}

func TestOwnFlagAndCapacity(t *testing.T) {
	path := sqliteDB(t, "riggers",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born_on TEXT NOT NULL, climber INTEGER NOT NULL)`,
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, label TEXT NOT NULL, berths INTEGER NOT NULL)`,
		`CREATE TABLE climbs (id INTEGER PRIMARY KEY, mast_id INTEGER NOT NULL REFERENCES masts(id), rigger_id INTEGER NOT NULL REFERENCES riggers(id), climbed_on TEXT NOT NULL, role TEXT)`,
		`INSERT INTO riggers VALUES (1,'Ann Lee','1980-02-01',1),(2,'Bo Ruiz','1995-06-12',0),(3,'Cy Hale','1970-11-30',1),(4,'Di Moss','2001-01-09',0)`,
		`INSERT INTO masts VALUES (1,'A1',2),(2,'A2',4),(3,'B1',1)`,
		`INSERT INTO climbs VALUES (1,1,1,'2024-03-02','climber'),(2,2,2,'2024-12-28','climber'),(3,2,2,'2025-02-11','spotter'),(4,3,4,'2025-05-01','spotter'),(5,1,3,'2025-06-30',NULL)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		// the riggers' own flag, not the climbs' role value
		{"Which riggers are climbers?", `SELECT name FROM riggers WHERE climber = 1`, false},
		{"How many riggers are not climbers?", `SELECT COUNT(*) FROM riggers WHERE climber = 0`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		// what a mast could take, not the riggers linked to it
		"Which masts can hold more than 1 rigger?",
		// a verb of the riggers' that names no date: their birth date is not it
		"When did the riggers travel?",
	})
}

func TestKindsOfRows(t *testing.T) {
	path := sqliteDB(t, "crates",
		`CREATE TABLE crate_kinds (code TEXT PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, label TEXT NOT NULL, kind_code TEXT NOT NULL REFERENCES crate_kinds(code))`,
		`INSERT INTO crate_kinds VALUES ('SL','Slatted'),('SO','Solid'),('MS','Mesh'),('TB','Tub')`,
		`INSERT INTO crates VALUES (1,'A1','SL'),(2,'A2','SL'),(3,'B1','SO'),(4,'B2','SL'),(5,'C1','SO'),(6,'C2','SL')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		// every kind, used or not
		{"What kinds of crate are there?", `SELECT name FROM crate_kinds`, false},
		{"Count the kinds of crate.", `SELECT COUNT(*) FROM crate_kinds`, false},
		// with more said of the crates, the kinds that have them
		{"Which kinds of crate have more than 2 crates?", `SELECT k.name FROM crates c JOIN crate_kinds k ON k.code = c.kind_code GROUP BY k.code HAVING COUNT(*) > 2`, false},
	})
}

func TestEverydayWords(t *testing.T) {
	path := sqliteDB(t, "lets",
		`CREATE TABLE clients (id INTEGER PRIMARY KEY, name TEXT NOT NULL, town TEXT NOT NULL)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, client_id INTEGER NOT NULL REFERENCES clients(id), sent_on TEXT NOT NULL, qty_out INTEGER NOT NULL, made_year INTEGER NOT NULL)`,
		`CREATE TABLE damages (id INTEGER PRIMARY KEY, crate_id INTEGER NOT NULL REFERENCES crates(id), reported_on TEXT NOT NULL, cost REAL NOT NULL)`,
		`INSERT INTO clients VALUES (1,'Pier Head Teas','Oren Vale'),(2,'Tall Ship Bakes','Harbour'),(3,'Mill Lane Deli','Harbour')`,
		`INSERT INTO crates VALUES (1,1,'2025-05-02',4,2019),(2,2,'2025-05-20',2,2021),(3,2,'2025-06-11',6,2019),(4,3,'2024-11-30',1,2022)`,
		`INSERT INTO damages VALUES (1,1,'2024-12-01',40),(2,2,'2025-06-01',15),(3,3,'2025-07-09',25)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		// an everyday word for the clients
		{"How many customers are there?", `SELECT COUNT(*) FROM clients`, false},
		{"Which customers are in Harbour?", `SELECT name FROM clients WHERE town = 'Harbour'`, false},
		// a cost in each year: the total of the damages reported that year,
		// not each damage beside its crate's year
		{"What did the breakages cost in each year?", `SELECT substr(reported_on, 1, 4), SUM(cost) FROM damages GROUP BY 1`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		// "went out" is the verb's particle, not the qty_out column
		"List the crates that went out in May 2025.",
		"When did Pier Head Teas' crates go out?",
	})
}

// TestEventDateWords: a date column named by its event's participle
// (shipped_on) is "the shipped date" too, and "T that have a <date>" keeps
// the rows whose date is filled in — the last words of the question, so not
// a range that follows.
func TestEventDateWords(t *testing.T) {
	path := sqliteDB(t, "evd",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, opened_on TEXT NOT NULL, closed_on TEXT)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head','2021-03-01',NULL),(2,'Tall Ship','2022-07-15','2024-01-31'),(3,'Harbour','2023-05-09',NULL)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"What is the opened date of Tall Ship?", `SELECT opened_on FROM kiosks WHERE name = 'Tall Ship'`, false},
		{"Which kiosks have an opened date in 2022?", `SELECT name FROM kiosks WHERE opened_on LIKE '2022%'`, false},
		{"List the kiosks that have a closed date.", `SELECT name FROM kiosks WHERE closed_on IS NOT NULL`, false},
		{"How many kiosks have no closed date?", `SELECT COUNT(*) FROM kiosks WHERE closed_on IS NULL`, false},
	})
}

// TestFromYearOnAndWithTheir: "from <year> on/onwards" opens the year's
// range to the end, and "list the T with their C" names each row beside
// the column asked for.
func TestFromYearOnAndWithTheir(t *testing.T) {
	path := sqliteDB(t, "fyo",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL, hired_date TEXT NOT NULL)`,
		`INSERT INTO riggers VALUES (1,'Oren','Vale','2019-04-01'),(2,'Tam','Hale','2021-02-11'),(3,'Ida','Pier','2023-09-30')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"List the riggers hired from 2021 onwards.", `SELECT first_name, last_name FROM riggers WHERE hired_date >= '2021-01-01'`, false},
		{"How many riggers were hired from the year 2020 on?", `SELECT COUNT(*) FROM riggers WHERE hired_date >= '2020-01-01'`, false},
		// "hire" a verb, "date" the column's head noun: still each rigger
		{"List the riggers with their hire date.", `SELECT first_name, last_name, hired_date FROM riggers`, false},
		{"List the riggers with their hire date, newest first.", `SELECT first_name, last_name, hired_date FROM riggers ORDER BY hired_date DESC`, true},
	})
}

// TestLinksByName: a database that declares no foreign keys links by its
// column names ("kiosk_id" to kiosks, "hauled_by_rigger_no" to the riggers
// keyed by rigger_no); a column that names a link no table matches
// ("tallied_by_id") may link its rows anywhere, so its table is related only
// to tables it or they have a key to.
func TestLinksByName(t *testing.T) {
	path := sqliteDB(t, "nokeys",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, town TEXT NOT NULL)`,
		`CREATE TABLE riggers (rigger_no INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL, price REAL NOT NULL, tallier_id INTEGER)`,
		`CREATE TABLE hauls (id INTEGER PRIMARY KEY, crate_id INTEGER NOT NULL, hauled_by_rigger_no INTEGER NOT NULL, hauled_on TEXT NOT NULL)`,
		`CREATE TABLE grades (id INTEGER PRIMARY KEY, code TEXT NOT NULL, description TEXT NOT NULL)`,
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, label TEXT NOT NULL, grade_id INTEGER NOT NULL)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head','Oren Vale'),(2,'Tall Ship','Harbour')`,
		`INSERT INTO riggers VALUES (7,'Ida Pier'),(8,'Tam Hale')`,
		`INSERT INTO crates VALUES (1,1,40,7),(2,1,60,8),(3,2,75,NULL)`,
		`INSERT INTO hauls VALUES (1,1,7,'2025-01-02'),(2,2,7,'2025-01-03'),(3,3,8,'2025-02-01')`,
		`INSERT INTO grades VALUES (1,'A','Sound'),(2,'B','Worn'),(3,'C','Unused')`,
		`INSERT INTO masts VALUES (1,'North',1),(2,'South',1),(3,'East',2)`,
	)
	e := newEnv(t, path, "")
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many crates does each kiosk have?", `SELECT kiosks.name, COUNT(*) FROM crates JOIN kiosks ON kiosks.id = crates.kiosk_id GROUP BY kiosks.id`, false},
		{"How many hauls did each rigger make?", `SELECT riggers.name, COUNT(*) FROM hauls JOIN riggers ON riggers.rigger_no = hauls.hauled_by_rigger_no GROUP BY riggers.rigger_no`, false},
		// a numbered table of codes: the code and what it stands for
		{"How many masts are there in each grade?", `SELECT grades.code, grades.description, COUNT(*) FROM masts JOIN grades ON grades.id = masts.grade_id GROUP BY grades.id`, false},
	})
	checkDeclined(t, e, New(nil), "no catalog", []string{
		// the crates' tallier_id may be a rigger: through the hauls, or not?
		"Which riggers have hauls of crates priced over 50?",
	})
}

// TestFlagVerbAndOneBridge: a verb that is a yes/no of the rows between
// ("riggers who passed a drill" beside a passed flag of the sign-ups)
// is declined, not read as any sign-up; and conditions on the bridge and
// on the far table hold for one bridge row ("passed an advanced drill":
// one sign-up, passed, to an advanced drill).
func TestFlagVerbAndOneBridge(t *testing.T) {
	path := sqliteDB(t, "drills",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE drills (id INTEGER PRIMARY KEY, title TEXT NOT NULL, level TEXT NOT NULL)`,
		`CREATE TABLE signups (id INTEGER PRIMARY KEY, rigger_id INTEGER NOT NULL REFERENCES riggers(id), drill_id INTEGER NOT NULL REFERENCES drills(id), passed TEXT NOT NULL)`,
		`INSERT INTO riggers VALUES (1,'Oren Vale'),(2,'Tam Hale'),(3,'Ida Pier')`,
		`INSERT INTO drills VALUES (1,'Knots','Basic'),(2,'Masts','Advanced')`,
		`INSERT INTO signups VALUES (1,1,1,'yes'),(2,1,2,'no'),(3,2,2,'yes'),(4,3,1,'no')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which riggers passed an advanced drill?", `SELECT name FROM riggers WHERE id IN (SELECT s.rigger_id FROM signups s JOIN drills d ON d.id = s.drill_id WHERE s.passed = 'yes' AND d.level = 'Advanced')`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"List the riggers who passed a drill.",
	})
}

// TestNotThroughABridge ("titled X" of rows with a job title compares that
// title): "never hauled a tall mast" puts the "not" on the
// hauls and "tall" on the masts reached through them; the two are not
// read as some haul-free rigger with a tall mast elsewhere (declined); and
// "the riggers who have a nickname, with their nicknames" keeps the riggers
// that have one, each named.
func TestNotThroughABridge(t *testing.T) {
	path := sqliteDB(t, "hauls",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL, nickname TEXT, job_title TEXT NOT NULL)`,
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, label TEXT NOT NULL, tall TEXT NOT NULL)`,
		`CREATE TABLE haul (haulid INTEGER PRIMARY KEY, riggerid INTEGER NOT NULL REFERENCES riggers(id), mastid INTEGER NOT NULL REFERENCES masts(id), hauled_on TEXT NOT NULL)`,
		`INSERT INTO riggers VALUES (1,'Oren','Vale','Ory','Mast Captain'),(2,'Tam','Hale',NULL,'Deck Hand'),(3,'Ida','Pier','Pip','Mast Captain')`,
		`INSERT INTO masts VALUES (1,'North','yes'),(2,'South','no')`,
		`INSERT INTO haul VALUES (1,1,1,'2025-01-01'),(2,2,2,'2025-01-02'),(3,3,2,'2025-02-01')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"List the riggers who have a nickname, with their nicknames.", `SELECT first_name, last_name, nickname FROM riggers WHERE nickname IS NOT NULL`, false},
		// "titled" of a job title beside a two-part name: the title
		{"Give the nicknames of riggers titled Mast Captain.", `SELECT nickname FROM riggers WHERE job_title = 'Mast Captain'`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Which riggers have never hauled a tall mast?",
		"Which riggers with hauls have never hauled a tall mast?",
	})
}

// TestShortTableNoun: "ksk_nm" in kiosks names the kiosks ("ksk" is kiosk
// with letters dropped), so each kiosk is shown by it.
func TestShortTableNoun(t *testing.T) {
	path := sqliteDB(t, "short",
		`CREATE TABLE towns (twn_id INTEGER PRIMARY KEY, twn_nm TEXT NOT NULL)`,
		`CREATE TABLE kiosks (ksk_id INTEGER PRIMARY KEY, ksk_nm TEXT NOT NULL, twn_id INTEGER NOT NULL REFERENCES towns(twn_id), area_m2 REAL NOT NULL, opened_dt TEXT NOT NULL)`,
		`CREATE TABLE crates (crt_id INTEGER PRIMARY KEY, ksk_id INTEGER NOT NULL REFERENCES kiosks(ksk_id), wt_kg REAL NOT NULL, packed_dt TEXT NOT NULL)`,
		`INSERT INTO towns VALUES (1,'Oren Vale'),(2,'Harbour')`,
		`INSERT INTO kiosks VALUES (1,'Pier Head',1,12.5,'2020-01-01'),(2,'Tall Ship',2,8,'2021-05-01'),(3,'Mill Lane',2,30,'2022-03-09')`,
		`INSERT INTO crates VALUES (1,1,4,'2025-01-02'),(2,1,6,'2025-01-03'),(3,2,9,'2025-02-01')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many crates does each kiosk have?", `SELECT k.ksk_nm, COUNT(*) FROM crates c JOIN kiosks k ON k.ksk_id = c.ksk_id GROUP BY k.ksk_id`, false},
	})
}

// TestPlaceVerbs: "opened a night" where the rows between record a
// position is a place in the order (first), not any slot — declined.
func TestPlaceVerbs(t *testing.T) {
	path := sqliteDB(t, "bill",
		`CREATE TABLE acts (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE nights (id INTEGER PRIMARY KEY, held_on TEXT NOT NULL)`,
		`CREATE TABLE slots (id INTEGER PRIMARY KEY, night_id INTEGER NOT NULL REFERENCES nights(id), act_id INTEGER NOT NULL REFERENCES acts(id), position INTEGER NOT NULL)`,
		`INSERT INTO acts VALUES (1,'Oren Vale'),(2,'Tall Ship'),(3,'Pier Head')`,
		`INSERT INTO nights VALUES (1,'2025-01-02'),(2,'2025-01-09')`,
		`INSERT INTO slots VALUES (1,1,1,1),(2,1,2,2),(3,2,2,1),(4,2,3,2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Which acts have opened a night?",
		"Which acts closed a night?",
	})
}

// TestLongestAgo: "longest" ranked by a date or a year is the longest ago
// (the earliest), "shortest" the latest.
func TestLongestAgo(t *testing.T) {
	path := sqliteDB(t, "ago",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, hired_on TEXT NOT NULL, qualified_year INTEGER NOT NULL)`,
		`INSERT INTO riggers VALUES (1,'Oren Vale','2019-04-01',2010),(2,'Tam Hale','2015-02-11',2012),(3,'Ida Pier','2023-09-30',2005)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Who is the longest-qualified rigger?", `SELECT name FROM riggers WHERE id = 3`, false},
		{"Which rigger has been hired the longest?", `SELECT name FROM riggers WHERE id = 2`, false},
		{"Who is the shortest-qualified rigger?", `SELECT name FROM riggers WHERE id = 2`, false},
	})
	// a time in minutes is a duration, not a date, even read without a
	// catalog: the longest is the largest
	drills := sqliteDB(t, "drills",
		`CREATE TABLE drills (id INTEGER PRIMARY KEY, name TEXT NOT NULL, time_limit_min INTEGER NOT NULL)`,
		`INSERT INTO drills VALUES (1,'Knots',30),(2,'Masts',90),(3,'Sails',45)`,
	)
	checkAnswered(t, newEnv(t, drills, ""), New(nil), []ruleCase{
		{"Which drill has the longest time limit?", `SELECT name, time_limit_min FROM drills WHERE id = 2`, false},
	})
}

// TestVerbDatesElsewhere: "kiosks sold in 2025" where the kiosks have a
// date of their own but the sales hold the sold date is not read on the
// kiosks' date — declined; a verb with no event of its own ("made") still
// dates the rows asked about.
func TestVerbDatesElsewhere(t *testing.T) {
	path := sqliteDB(t, "soldon",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, received_date TEXT NOT NULL, sale_price REAL)`,
		`CREATE TABLE sale (id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id), buyer TEXT NOT NULL, sold_date TEXT NOT NULL)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head','2024-03-01',120),(2,'Tall Ship','2025-02-11',90),(3,'Mill Lane','2025-06-01',NULL)`,
		`INSERT INTO sale VALUES (1,1,'Oren Vale','2025-01-15'),(2,2,'Ida Pier','2025-03-01')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"How many kiosks were sold in 2025?",
	})
}

// TestDuringButStill: "during 2024" is "in 2024"; "but never", "but not"
// join a second condition as "and" does ("every kiosk but the oldest" is
// not read so); "still" adds nothing to the state after it.
func TestDuringButStill(t *testing.T) {
	path := sqliteDB(t, "masts",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, joined_on TEXT NOT NULL)`,
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL)`,
		`CREATE TABLE hauls (id INTEGER PRIMARY KEY, mast_id INTEGER NOT NULL REFERENCES masts(id), rigger_id INTEGER NOT NULL REFERENCES riggers(id), hauled_on TEXT NOT NULL)`,
		`INSERT INTO riggers VALUES (1,'Oren Vale','2023-03-01'),(2,'Tam Hale','2024-06-11'),(3,'Ida Pier','2024-09-30'),(4,'Bo Reed','2025-01-05')`,
		`INSERT INTO masts VALUES (1,'Fore','open'),(2,'Main','closed'),(3,'Mizzen','open')`,
		`INSERT INTO hauls VALUES (1,1,1,'2024-02-01'),(2,2,1,'2025-03-01'),(3,3,2,'2024-05-05'),(4,1,3,'2025-07-07')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"List the riggers who joined during 2024.", `SELECT name FROM riggers WHERE joined_on LIKE '2024%'`, false},
		{"How many hauls were made during 2025?", `SELECT COUNT(*) FROM hauls WHERE hauled_on LIKE '2025%'`, false},
		{"Which masts have hauls but are not open?", `SELECT name FROM masts WHERE id IN (SELECT mast_id FROM hauls) AND status <> 'open'`, false},
		{"Which masts are still open?", `SELECT name FROM masts WHERE status = 'open'`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Show every mast but the oldest.",
	})
}

// TestKeyNumberWord: "haul number 3" is the haul of key 3, unless a
// column numbers the rows another way ("seq_no").
func TestKeyNumberWord(t *testing.T) {
	path := sqliteDB(t, "kiosks",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id), weight_kg REAL NOT NULL)`,
		`CREATE TABLE drills (id INTEGER PRIMARY KEY, seq_no INTEGER NOT NULL, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id))`,
		`INSERT INTO kiosks VALUES (1,'Pier Head'),(2,'Harbour')`,
		`INSERT INTO crates VALUES (1,1,12.5),(2,2,40),(3,2,7)`,
		`INSERT INTO drills VALUES (1,3,1),(2,1,2),(3,2,2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"What is the weight of crate number 2?", `SELECT weight_kg FROM crates WHERE id = 2`, false},
		{"Which kiosk has crate no 3?", `SELECT name FROM kiosks WHERE id = 2`, false},
	})
	// drills are numbered by seq_no: "drill number 3" is not the key
	g := New(nil)
	req := e.req
	req.Question = "Which kiosk ran drill number 3?"
	if plan, err := g.Generate(context.Background(), req); err == nil && strings.Contains(plan.SQL, "drills.id = 3") {
		t.Errorf("drill number 3 read as the key: %s", plan.SQL)
	}
}

// TestTwoVerbLinks: "drove and never led a callout" keeps both keys'
// conditions; "hauls but no Fore haul" declines rather than reading "no"
// as a haul of another mast.
func TestTwoVerbLinks(t *testing.T) {
	path := sqliteDB(t, "crew",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE sailings (id INTEGER PRIMARY KEY, lead_id INTEGER NOT NULL REFERENCES riggers(id), driver_id INTEGER REFERENCES riggers(id), sailed_on TEXT NOT NULL)`,
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE hauls (id INTEGER PRIMARY KEY, mast_id INTEGER NOT NULL REFERENCES masts(id), rigger_id INTEGER NOT NULL REFERENCES riggers(id))`,
		`INSERT INTO riggers VALUES (1,'Oren Vale'),(2,'Tam Hale'),(3,'Ida Pier'),(4,'Bo Reed')`,
		`INSERT INTO sailings VALUES (1,1,2,'2024-01-01'),(2,1,3,'2024-02-01'),(3,3,NULL,'2024-03-01')`,
		`INSERT INTO masts VALUES (1,'Fore'),(2,'Main')`,
		`INSERT INTO hauls VALUES (1,1,1),(2,2,1),(3,2,2),(4,1,3)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which riggers have driven and never led a sailing?", `SELECT name FROM riggers WHERE id IN (SELECT driver_id FROM sailings WHERE driver_id IS NOT NULL) AND id NOT IN (SELECT lead_id FROM sailings)`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Which riggers have hauls but no Fore?",
		"Which riggers have hauls and never Fore?",
	})
}

// TestUnnamedRowsShown: rows with no name, code or date to be known by
// are shown by their own columns beside the key, not by a bare number.
func TestUnnamedRowsShown(t *testing.T) {
	path := sqliteDB(t, "rigs",
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, maker TEXT NOT NULL, model TEXT NOT NULL, fitted_year INTEGER NOT NULL)`,
		`CREATE TABLE hauls (id INTEGER PRIMARY KEY, mast_id INTEGER NOT NULL REFERENCES masts(id), weight_kg REAL NOT NULL)`,
		`INSERT INTO masts VALUES (1,'Oren','Fore 2',1990),(2,'Vale','Main 1',2001),(3,'Oren','Mizzen',2010)`,
		`INSERT INTO hauls VALUES (1,1,10),(2,1,12),(3,2,30),(4,3,5),(5,1,8)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which masts have more than two hauls?", `SELECT maker, model FROM masts WHERE id = 1`, false},
		{"List the two masts with the highest fitted year, with their fitted year.", `SELECT maker, model, fitted_year FROM masts ORDER BY fitted_year DESC LIMIT 2`, true},
	})
}

// TestFillerVerbEndsQuestion: a verb that is filler elsewhere ("orders
// placed in 2024") is what is asked when it ends the question and names a
// column ("placed" of a placing): declined, not dropped.
func TestFillerVerbEndsQuestion(t *testing.T) {
	path := sqliteDB(t, "regatta",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, town TEXT NOT NULL)`,
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id))`,
		`CREATE TABLE races (id INTEGER PRIMARY KEY, raced_on TEXT NOT NULL)`,
		`CREATE TABLE starts (id INTEGER PRIMARY KEY, mast_id INTEGER NOT NULL REFERENCES masts(id), race_id INTEGER NOT NULL REFERENCES races(id), placing INTEGER)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head','Harbour'),(2,'Oren','Vale')`,
		`INSERT INTO masts VALUES (1,'Fore',1),(2,'Main',1),(3,'Mizzen',2)`,
		`INSERT INTO races VALUES (1,'2024-05-01'),(2,'2024-06-01')`,
		`INSERT INTO starts VALUES (1,1,1,1),(2,2,1,NULL),(3,3,2,2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Which masts with kiosks in Harbour have been placed?",
	})
}

// TestCountThroughBridge: "kiosks with masts of more than one maker"
// counts the distinct makers the kiosk's masts point at, not its masts.
func TestCountThroughBridge(t *testing.T) {
	path := sqliteDB(t, "makers",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE makers (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id), maker_id INTEGER NOT NULL REFERENCES makers(id))`,
		`INSERT INTO kiosks VALUES (1,'Pier Head'),(2,'Harbour'),(3,'Oren Vale')`,
		`INSERT INTO makers VALUES (1,'Tall Ship'),(2,'Vale Spars')`,
		`INSERT INTO masts VALUES (1,'Fore',1,1),(2,'Main',1,1),(3,'Mizzen',2,1),(4,'Jigger',2,2),(5,'Spanker',3,2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which kiosks have masts of more than one maker?", `SELECT name FROM kiosks WHERE id = 2`, false},
	})
}

// TestOwnMoneyBeside: "kiosks that cost more than 100" over the unit cost
// of the masts they used, beside the kiosks' own charge, is declined.
func TestOwnMoneyBeside(t *testing.T) {
	path := sqliteDB(t, "uses",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, charge REAL NOT NULL)`,
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, unit_cost REAL NOT NULL)`,
		`CREATE TABLE masts_used (id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id), mast_id INTEGER NOT NULL REFERENCES masts(id), qty INTEGER NOT NULL)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head',50),(2,'Harbour',150),(3,'Oren Vale',20)`,
		`INSERT INTO masts VALUES (1,'Fore',120),(2,'Main',30)`,
		`INSERT INTO masts_used VALUES (1,1,1,2),(2,2,2,1)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"How many kiosks cost more than 100 pounds?",
	})
}

// TestShortNameLabel: "ksk_name" in kiosks names the kiosks though two
// share a name (the rows are then shown with their own columns), and rows
// the analyst reading groups by with no name at all are shown by their
// own columns too.
func TestShortNameLabel(t *testing.T) {
	path := sqliteDB(t, "kiosks",
		`CREATE TABLE kiosks (ksk_id INTEGER PRIMARY KEY, ksk_name TEXT NOT NULL, town TEXT NOT NULL, opened_on TEXT NOT NULL, seats INTEGER NOT NULL)`,
		`CREATE TABLE sales (sale_id INTEGER PRIMARY KEY, ksk_id INTEGER NOT NULL REFERENCES kiosks(ksk_id), sale_date TEXT NOT NULL, amount REAL NOT NULL)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head','Harbour','2019-04-01',10),(2,'Tall Ship','Oren','2020-05-01',12),(3,'Pier Head','Vale','2021-06-01',8),(4,'Mast Yard','Harbour','2022-07-01',20),(5,'Rigger Row','Oren','2023-08-01',6)`,
		`INSERT INTO sales VALUES (1,1,'2024-01-01',5),(2,1,'2024-01-02',6),(3,2,'2024-01-03',7),(4,3,'2024-01-04',8),(5,4,'2024-01-05',9),(6,5,'2024-01-06',2),(7,3,'2024-01-07',4)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many sales has each kiosk made?", `SELECT k.ksk_name, k.town, COUNT(*) FROM sales s JOIN kiosks k ON k.ksk_id = s.ksk_id GROUP BY k.ksk_id`, false},
		{"Which kiosk is in Vale?", `SELECT ksk_name FROM kiosks WHERE town = 'Vale'`, false},
		{"How many sales has Tall Ship made?", `SELECT COUNT(*) FROM sales WHERE ksk_id = 2`, false},
		{"What is the total sales amount of each kiosk?", `SELECT k.ksk_name, k.town, SUM(s.amount) FROM sales s JOIN kiosks k ON k.ksk_id = s.ksk_id GROUP BY k.ksk_id`, false},
	})
}

// TestAcrossOwnRows: "total seats across masts" of the masts' own seats is
// one figure over them, as "across all masts" (a total per mast would be
// each mast's own value).
func TestAcrossOwnRows(t *testing.T) {
	path := sqliteDB(t, "seats",
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, seats INTEGER NOT NULL)`,
		`INSERT INTO masts VALUES (1,'Fore',4),(2,'Main',6),(3,'Mizzen',2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Total seats across masts.", `SELECT SUM(seats) FROM masts`, false},
	})
}

// TestDayMonthYear: "7 July 2024" and "July 7, 2024" are one day, not a
// number beside a month; "…, and where is it?" asks for a place and is
// declined rather than read as filler.
func TestDayMonthYear(t *testing.T) {
	path := sqliteDB(t, "days",
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, town TEXT NOT NULL, fitted_on TEXT NOT NULL)`,
		`CREATE TABLE hauls (id INTEGER PRIMARY KEY, mast_id INTEGER NOT NULL REFERENCES masts(id), hauled_on TEXT NOT NULL, weight REAL NOT NULL)`,
		`INSERT INTO masts VALUES (1,'Fore','Harbour','2019-04-01'),(2,'Main','Oren','2020-05-01')`,
		`INSERT INTO hauls VALUES (1,1,'2024-07-07',7),(2,2,'2024-07-07',3),(3,1,'2024-07-08',7),(4,2,'2024-07-21',9)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many hauls were made on 7 July 2024?", `SELECT COUNT(*) FROM hauls WHERE hauled_on = '2024-07-07'`, false},
		{"How many hauls were made on July 7, 2024?", `SELECT COUNT(*) FROM hauls WHERE hauled_on = '2024-07-07'`, false},
		{"Which hauls were made between 1 July 2024 and 10 July 2024?", `SELECT id FROM hauls WHERE hauled_on BETWEEN '2024-07-01' AND '2024-07-10'`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"When was Fore fitted, and where is it?",
	})
}

// TestGiveRowsAColumn: "give every kiosk in Harbour a licence" is a write,
// with the rows' condition between the rows and what they are given.
func TestGiveRowsAColumn(t *testing.T) {
	path := sqliteDB(t, "licences",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, town TEXT NOT NULL, licence TEXT NOT NULL)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head','Harbour','yes'),(2,'Tall Ship','Oren','no')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Give every kiosk in Harbour a licence.",
	})
}

// TestCountColumnValueRows: "how many grade A masts" counts masts of that
// grade, never the distinct grades (declined where it was read so).
func TestCountColumnValueRows(t *testing.T) {
	path := sqliteDB(t, "grades",
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, grade TEXT NOT NULL)`,
		`INSERT INTO masts VALUES (1,'Fore','A'),(2,'Main','B'),(3,'Mizzen','A'),(4,'Jigger','C')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"How many grade A masts are there?",
	})
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many masts have grade A?", `SELECT COUNT(*) FROM masts WHERE grade = 'A'`, false},
	})
}

// TestRankedByHalfNamed: "the kiosk that sold the most crates" where the
// kiosks' own column only half names it (crate_rate) and the sales, which
// link to the kiosks, have crates: declined, not ranked by the rate.
func TestRankedByHalfNamed(t *testing.T) {
	path := sqliteDB(t, "crates",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, crate_rate REAL NOT NULL)`,
		`CREATE TABLE sales (id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id), sold_on TEXT NOT NULL, crates INTEGER NOT NULL)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head',2.5),(2,'Harbour',3.0)`,
		`INSERT INTO sales VALUES (1,1,'2024-01-01',9),(2,1,'2024-01-02',4),(3,2,'2024-01-03',2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Which kiosk has sold the most crates?",
	})
}

// TestHappenedByFlagOrDate: "have been inspected", "not yet inspected",
// "uninspected" read a yes/no named by the verb; "have been shipped" or
// "not shipped" beside a shipped_on that stays empty until then read the
// date filled or empty, and ", and when?" shows it; a status value of the
// same word is a second reading, declined.
func TestHappenedByFlagOrDate(t *testing.T) {
	path := sqliteDB(t, "happened",
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, label TEXT NOT NULL, packed_on TEXT NOT NULL, inspected INTEGER NOT NULL, shipped_on TEXT)`,
		`INSERT INTO crates VALUES (1,'Fore','2024-01-01',1,'2024-03-01'),(2,'Main','2024-01-02',0,NULL),(3,'Mizzen','2024-01-03',1,NULL),(4,'Jigger','2024-01-04',0,'2024-05-02')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many crates have been inspected?", `SELECT COUNT(*) FROM crates WHERE inspected = 1`, false},
		{"Which crates haven't been inspected?", `SELECT label FROM crates WHERE inspected = 0`, false},
		{"Number of crates not yet inspected.", `SELECT COUNT(*) FROM crates WHERE inspected = 0`, false},
		{"How many crates are uninspected?", `SELECT COUNT(*) FROM crates WHERE inspected = 0`, false},
		{"How many crates have been shipped?", `SELECT COUNT(*) FROM crates WHERE shipped_on IS NOT NULL`, false},
		{"List the crates that have not been shipped.", `SELECT label FROM crates WHERE shipped_on IS NULL`, false},
		{"What percentage of crates have been shipped?", `SELECT 50.0`, false},
		{"Which crates have been shipped, and when?", `SELECT label, shipped_on FROM crates WHERE shipped_on IS NOT NULL`, false},
	})
	both := sqliteDB(t, "happened2",
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, label TEXT NOT NULL, status TEXT NOT NULL, shipped_on TEXT)`,
		`INSERT INTO crates VALUES (1,'Fore','shipped','2024-03-01'),(2,'Main','packed',NULL),(3,'Mizzen','lost','2024-04-01')`,
	)
	e = newEnv(t, both, draftCatalog(t, both))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"How many crates were shipped?",
	})
}

// TestValueNounCount: "how many Harbour kiosk crates" counts the crates,
// the value of the kiosk they link to says which — not the kiosks.
func TestValueNounCount(t *testing.T) {
	path := sqliteDB(t, "kioskcrates",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, town TEXT NOT NULL)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, label TEXT NOT NULL, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id))`,
		`INSERT INTO kiosks VALUES (1,'Pier Head','Harbour'),(2,'Tall Ship','Oren Vale')`,
		`INSERT INTO crates VALUES (1,'Fore',1),(2,'Main',1),(3,'Mizzen',2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many Harbour kiosk crates are there?", `SELECT COUNT(*) FROM crates WHERE kiosk_id = 1`, false},
	})
}

// TestNoRowsOrOwnFlag: "kiosks that need no licence" beside a licences
// table and the kiosks' own requires_licence: the rows with no licence rows,
// or those whose own column says no — declined with the schema alone,
// where it was read as the first.
func TestNoRowsOrOwnFlag(t *testing.T) {
	path := sqliteDB(t, "needs",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, requires_licence INTEGER NOT NULL)`,
		`CREATE TABLE licences (id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id), issued_on TEXT NOT NULL)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head',1),(2,'Tall Ship',0),(3,'Harbour',1)`,
		`INSERT INTO licences VALUES (1,1,'2024-01-01')`,
	)
	e := newEnv(t, path, "")
	checkDeclined(t, e, New(nil), "schema alone", []string{
		"List the kiosks that need no licence.",
	})
	checkAnswered(t, e, New(nil), []ruleCase{
		{"List the kiosks without licences.", `SELECT name FROM kiosks WHERE id NOT IN (SELECT kiosk_id FROM licences)`, false},
	})
}

// TestTableOwnAttribute: "for each kiosk town" groups by the town, a
// column of the kiosks, not by each kiosk; "the most recent crate start"
// ranks by the crate's start, which "when" then asks; "the crate with the
// most starts" beside a start date is a count or the latest: declined.
func TestTableOwnAttribute(t *testing.T) {
	path := sqliteDB(t, "ownattr",
		`CREATE TABLE kiosk_info (id INTEGER PRIMARY KEY, name TEXT NOT NULL, town TEXT NOT NULL)`,
		`CREATE TABLE crate_log (id INTEGER PRIMARY KEY, label TEXT NOT NULL, kiosk_id INTEGER NOT NULL REFERENCES kiosk_info(id), start_date TEXT NOT NULL, end_date TEXT, size INTEGER NOT NULL)`,
		`INSERT INTO kiosk_info VALUES (1,'Pier Head','Harbour'),(2,'Tall Ship','Harbour'),(3,'Oren Vale','Upland')`,
		`INSERT INTO crate_log VALUES (1,'Fore',1,'2024-01-01','2024-01-09',3),(2,'Main',2,'2024-02-01',NULL,4),(3,'Mizzen',3,'2024-03-01',NULL,5),(4,'Jigger',1,'2024-04-01',NULL,6)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many crates are there for each kiosk town?", `SELECT k.town, COUNT(*) FROM crate_log c JOIN kiosk_info k ON k.id = c.kiosk_id GROUP BY k.town`, false},
		{"When did Pier Head's most recent crate start?", `SELECT '2024-04-01'`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Which crate has the most starts?",
	})
}

// TestVerbOfUnjoinedTable: "which masts were recorded in 2024" beside a
// recordings table (and "performed" beside performances): the verb names
// rows neither reading joins; it was dropped as filler and the masts' own
// date taken.
func TestVerbOfUnjoinedTable(t *testing.T) {
	path := sqliteDB(t, "recordings",
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, raised_on TEXT NOT NULL)`,
		`CREATE TABLE recordings (id INTEGER PRIMARY KEY, mast_id INTEGER NOT NULL REFERENCES masts(id), made_on TEXT NOT NULL, place TEXT NOT NULL)`,
		`CREATE TABLE performances (id INTEGER PRIMARY KEY, mast_id INTEGER NOT NULL REFERENCES masts(id), held_on TEXT NOT NULL)`,
		`INSERT INTO masts VALUES (1,'Fore','2024-01-05'),(2,'Main','2023-02-01')`,
		`INSERT INTO recordings VALUES (1,2,'2024-03-01','Harbour'),(2,1,'2023-04-01','Pier Head')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Which masts were recorded in 2024?",
		"Which masts were performed in 2024?",
	})
}

// TestPluralKindNameAsked: "the names of the schooners" where Schooner is
// the name of one row of a kinds table: the name of that kind is the word
// itself — the vessels of that kind were meant; declined, not the kind's
// row shown.
func TestPluralKindNameAsked(t *testing.T) {
	path := sqliteDB(t, "kinds",
		`CREATE TABLE vessel_kind (code TEXT PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE vessels (id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind_code TEXT NOT NULL REFERENCES vessel_kind(code))`,
		`INSERT INTO vessel_kind VALUES ('SCH','Schooner'),('KET','Ketch'),('YWL','Yawl')`,
		`INSERT INTO vessels VALUES (1,'Tall Ship','SCH'),(2,'Oren Vale','SCH'),(3,'Pier Head','KET')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"List the names of the schooners.",
	})
	checkAnswered(t, e, New(nil), []ruleCase{
		{"What are the names of all schooner vessels?", `SELECT name FROM vessels WHERE kind_code = 'SCH'`, false},
	})
}

// TestShortIdentifiers: a schema written short ("rggr", "rggr_nm", "hl",
// "wght") is read from the words it shortens ("riggers", "rigger names",
// "weight"); a name, a verb, a word the schema or the grammar knows is
// never rewritten, nor a word two short identifiers could write.
func TestShortIdentifiers(t *testing.T) {
	path := sqliteDB(t, "short",
		`CREATE TABLE rggr (rggr_id INTEGER PRIMARY KEY, rggr_nm TEXT NOT NULL, hcp TEXT NOT NULL, jnd_yr INTEGER NOT NULL)`,
		`CREATE TABLE hl (hl_id INTEGER PRIMARY KEY, rggr_id INTEGER NOT NULL REFERENCES rggr(rggr_id), hl_dt TEXT NOT NULL, wght INTEGER NOT NULL, mrgn INTEGER NOT NULL)`,
		`INSERT INTO rggr VALUES (1,'Oren Vale','12',2019),(2,'Tall Ship','8',2021),(3,'Pier Head','15',2019)`,
		`INSERT INTO hl VALUES (1,1,'2024-01-02',40,3),(2,1,'2024-02-03',25,4),(3,2,'2024-03-04',30,5)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many riggers are there?", `SELECT COUNT(*) FROM rggr`, false},
		{"List the rigger names.", `SELECT rggr_nm FROM rggr`, false},
		{"What is the total weight of all hauls?", `SELECT SUM(wght) FROM hl`, false},
		{"What is the handicap of Oren Vale?", `SELECT hcp FROM rggr WHERE rggr_id = 1`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"How many hauls did Rodger Hale make?",
		"Show the hauls of Morgan.",
	})
	if !abbrevOf("qty", "quantity") || !abbrevOf("hrbr", "harbour") || !abbrevOf("rgst", "register") || abbrevOf("hrs", "headquarters") || abbrevOf("nm", "number") {
		t.Errorf("abbrevOf: quantity, harbour, register written short; headquarters and number not")
	}
}

// TestSelfLinkByKey: "riggers coached by rigger 2" beside the riggers'
// coach key: one rigger linked to others, declined — it was rigger 2
// itself.
func TestSelfLinkByKey(t *testing.T) {
	path := sqliteDB(t, "coaches",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, coach_id INTEGER REFERENCES riggers(id))`,
		`INSERT INTO riggers VALUES (1,'Oren Vale',NULL),(2,'Tall Ship',1),(3,'Pier Head',2),(4,'Harbour',2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Which riggers are coached by rigger 2?",
	})
}

// TestUnitWordSuffix: "the total weight of all hauls" beside weight_grams,
// "the length of each mast" beside length_metres: the column named without
// the unit its name ends with; "sort the masts from tallest to shortest
// height" sorts by the column after the direction, not by the masts.
func TestUnitWordSuffix(t *testing.T) {
	path := sqliteDB(t, "units",
		`CREATE TABLE masts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, length_metres REAL NOT NULL)`,
		`CREATE TABLE hauls (id INTEGER PRIMARY KEY, mast_id INTEGER NOT NULL REFERENCES masts(id), weight_grams INTEGER NOT NULL)`,
		`INSERT INTO masts VALUES (1,'Fore',12.5),(2,'Main',20.0),(3,'Mizzen',9.0)`,
		`INSERT INTO hauls VALUES (1,1,400),(2,1,250),(3,2,300)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"What is the total weight of all hauls?", `SELECT SUM(weight_grams) FROM hauls`, false},
		{"What is the length of each mast?", `SELECT name, length_metres FROM masts`, false},
		{"Sort the masts from largest to smallest length and show their names.", `SELECT name FROM masts ORDER BY length_metres DESC`, true},
	})
}

// TestClauseEnds: "the rise in metres" beside rise_metres is a unit, not a
// column to show; "the kiosk that has been used had the fewest crates"
// (a verb ending its clause with nothing it is done to), "how many kiosk
// zones" (the zones, of the kiosks?) and "crates of kiosks with no
// licence" (read as the crates' key filled and empty) are declined; with
// the schema alone, "which kiosks are listed" beside is_listed is the
// column's word, not filler.
func TestClauseEnds(t *testing.T) {
	path := sqliteDB(t, "clauseends",
		`CREATE TABLE zones (code TEXT PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE licences (id INTEGER PRIMARY KEY, issued_on TEXT NOT NULL)`,
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, zone_code TEXT REFERENCES zones(code), licence_id INTEGER REFERENCES licences(id), is_listed TEXT NOT NULL, rise_metres TEXT NOT NULL)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, kiosk_id INTEGER REFERENCES kiosks(id), packed_on TEXT NOT NULL)`,
		`INSERT INTO zones VALUES ('A','Stall'),('B','Cart'),('C','Booth')`,
		`INSERT INTO licences VALUES (1,'2024-01-01')`,
		`INSERT INTO kiosks VALUES (1,'Pier Head','A',1,'Y','12'),(2,'Tall Ship','B',NULL,'N','9'),(3,'Harbour','A',NULL,'Y','15'),(4,'Oren Vale','B',NULL,'N','3')`,
		`INSERT INTO crates VALUES (1,1,'2024-01-01'),(2,1,'2024-01-02'),(3,2,'2024-01-03'),(4,3,'2024-02-01')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Name the kiosk with the second-largest rise in metres.", `SELECT name FROM kiosks WHERE id = 1`, false},
	})
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Which kiosk that has been used had the fewest crates?",
		"How many kiosk zones are there?",
		"How many crates belong to kiosks with no licence?",
	})
	bare := newEnv(t, path, "")
	checkDeclined(t, bare, New(nil), "schema alone", []string{
		"Which kiosks are listed?",
	})
}

// TestWonEachHeat: "who won each heat?" where only the heats are named and
// the results referring to them hold the placing: declined — it listed
// the heats.
func TestWonEachHeat(t *testing.T) {
	path := sqliteDB(t, "heats",
		`CREATE TABLE riggers (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE heats (id INTEGER PRIMARY KEY, name TEXT NOT NULL, held_on TEXT NOT NULL)`,
		`CREATE TABLE results (id INTEGER PRIMARY KEY, heat_id INTEGER NOT NULL REFERENCES heats(id), rigger_id INTEGER NOT NULL REFERENCES riggers(id), placing INTEGER NOT NULL)`,
		`INSERT INTO riggers VALUES (1,'Oren Vale'),(2,'Tall Ship')`,
		`INSERT INTO heats VALUES (1,'Pier Head','2024-01-01'),(2,'Harbour','2024-02-01')`,
		`INSERT INTO results VALUES (1,1,1,1),(2,1,2,2),(3,2,2,1),(4,2,1,2)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkDeclined(t, e, New(nil), "drafted catalog", []string{
		"Who won each heat?",
	})
}

// TestOldestByYearBuilt: "the oldest kiosk" beside a year_kiosk_built
// column is the one built first — it was the one built last.
func TestOldestByYearBuilt(t *testing.T) {
	path := sqliteDB(t, "oldest",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, kiosk_name TEXT NOT NULL, year_kiosk_built INTEGER NOT NULL)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head',1990),(2,'Tall Ship',1852),(3,'Harbour',2019)`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Which kiosk is the oldest?", `SELECT kiosk_name FROM kiosks WHERE id = 2`, false},
	})
}

// TestCompoundLastNoun: "how many shaded kiosk crates have been sold?"
// counts the crates (the last noun), the kiosks' yes/no saying which, two
// links away; "kiosks without any visit in the log" beside a visit_log
// table is the kiosks with none (where "log" reads as a second, positive
// mention of the table, the question is declined: held by a fixture).
func TestCompoundLastNoun(t *testing.T) {
	path := sqliteDB(t, "compound",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, shaded TEXT NOT NULL)`,
		`CREATE TABLE loads (id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id), loaded_on TEXT NOT NULL)`,
		`CREATE TABLE crates (id INTEGER PRIMARY KEY, load_id INTEGER NOT NULL REFERENCES loads(id), sold TEXT NOT NULL)`,
		`CREATE TABLE crate_log (id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id), logged_on TEXT NOT NULL)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head','yes'),(2,'Tall Ship','no'),(3,'Harbour','yes')`,
		`INSERT INTO loads VALUES (1,1,'2024-01-01'),(2,2,'2024-01-02'),(3,3,'2024-01-03')`,
		`INSERT INTO crates VALUES (1,1,'yes'),(2,1,'no'),(3,2,'yes'),(4,3,'yes'),(5,3,'yes')`,
		`INSERT INTO crate_log VALUES (1,1,'2024-02-01'),(2,2,'2024-02-02')`,
	)
	e := newEnv(t, path, draftCatalog(t, path))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"How many shaded kiosk crates have been sold?", `SELECT 3`, false},
	})
	logged := sqliteDB(t, "visitlog",
		`CREATE TABLE kiosks (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE visit_log (id INTEGER PRIMARY KEY, kiosk_id INTEGER NOT NULL REFERENCES kiosks(id), visited_on TEXT NOT NULL)`,
		`INSERT INTO kiosks VALUES (1,'Pier Head'),(2,'Tall Ship'),(3,'Harbour')`,
		`INSERT INTO visit_log VALUES (1,1,'2024-02-01'),(2,2,'2024-02-02')`,
	)
	e = newEnv(t, logged, draftCatalog(t, logged))
	checkAnswered(t, e, New(nil), []ruleCase{
		{"Find kiosks without any visit in the log.", `SELECT name FROM kiosks WHERE id = 3`, false},
	})
}
