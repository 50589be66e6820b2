package builtin

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"talk2tables/orchestrator/sqlgen"
)

// gardenDB builds a small database of community gardens (our own domain,
// for the clause reader's questions): gardens, gardeners (with a mentor),
// crops, plots and harvests, seeded so it is the same on every run.
func gardenDB(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "garden.db")
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
	exec(`CREATE TABLE garden (garden_id INTEGER PRIMARY KEY, name TEXT NOT NULL, district TEXT NOT NULL,
		opened_year INTEGER, area_sqm REAL, has_greenhouse INTEGER NOT NULL)`)
	exec(`CREATE TABLE gardener (gardener_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, age INTEGER,
		city TEXT, joined_date TEXT, garden_id INTEGER REFERENCES garden(garden_id),
		mentor_id INTEGER REFERENCES gardener(gardener_id))`)
	exec(`CREATE TABLE crop (crop_id INTEGER PRIMARY KEY, crop_name TEXT, family TEXT, days_to_harvest INTEGER,
		perennial INTEGER NOT NULL)`)
	exec(`CREATE TABLE plot (plot_id INTEGER PRIMARY KEY, garden_id INTEGER REFERENCES garden(garden_id),
		gardener_id INTEGER REFERENCES gardener(gardener_id), size_sqm REAL, soil_type TEXT)`)
	exec(`CREATE TABLE harvest (harvest_id INTEGER PRIMARY KEY, plot_id INTEGER REFERENCES plot(plot_id),
		crop_id INTEGER REFERENCES crop(crop_id), harvest_date TEXT, weight_kg REAL, quality TEXT)`)
	rng := rand.New(rand.NewPCG(7, 11))
	gardens := []string{"Willow Bank", "Hilltop Commons", "Riverside Patch", "Old Mill", "Sunny Acre", "Cedar Row", "Northgate", "Station Yard"}
	districts := []string{"North", "South", "East", "West", "Central"}
	for i, g := range gardens {
		exec(`INSERT INTO garden VALUES (?,?,?,?,?,?)`, i+1, g, districts[i%5], 1985+rng.IntN(36), float64(200+rng.IntN(2800)), i%3)
	}
	exec(`UPDATE garden SET has_greenhouse = 1 WHERE has_greenhouse = 2`)
	firsts := []string{"Ana", "Ben", "Chloe", "Dev", "Emil", "Fatima", "Greg", "Hana", "Ivo", "Jade", "Kofi", "Lena", "Marta", "Nils", "Omar"}
	lasts := []string{"Lopez", "Okafor", "Berg", "Singh", "Novak", "Kim", "Rossi", "Dubois"}
	cities := []string{"Riverton", "Lakeside", "Brookfield", "Ashford"}
	for i := 1; i <= 30; i++ {
		var mentor any
		if i > 4 && i%3 != 0 {
			mentor = 1 + rng.IntN(4)
		}
		exec(`INSERT INTO gardener VALUES (?,?,?,?,?,?,?,?)`, i, firsts[rng.IntN(len(firsts))], lasts[rng.IntN(len(lasts))],
			18+rng.IntN(63), cities[rng.IntN(4)], fmt.Sprintf("%d-%02d-%02d", 2015+rng.IntN(11), 1+rng.IntN(12), 1+rng.IntN(28)),
			1+rng.IntN(8), mentor)
	}
	crops := []struct {
		name, family string
		perennial    int
	}{{"Tomato", "Nightshade", 0}, {"Potato", "Nightshade", 0}, {"Carrot", "Umbellifer", 0}, {"Lettuce", "Aster", 0},
		{"Bean", "Legume", 0}, {"Pea", "Legume", 0}, {"Squash", "Gourd", 0}, {"Onion", "Allium", 0},
		{"Garlic", "Allium", 0}, {"Rhubarb", "Knotweed", 1}, {"Strawberry", "Rose", 1}, {"Kale", "Brassica", 0},
		{"Pepper", "Nightshade", 0}}
	for i, c := range crops {
		exec(`INSERT INTO crop VALUES (?,?,?,?,?)`, i+1, c.name, c.family, 40+rng.IntN(100), c.perennial)
	}
	soils := []string{"clay", "loam", "sand", "silt"}
	for i := 1; i <= 40; i++ {
		var who any
		if i%7 != 0 {
			who = 1 + rng.IntN(24)
		}
		exec(`INSERT INTO plot VALUES (?,?,?,?,?)`, i, 1+rng.IntN(8), who, float64(5+rng.IntN(36)), soils[rng.IntN(4)])
	}
	for i := 1; i <= 150; i++ {
		exec(`INSERT INTO harvest VALUES (?,?,?,?,?,?)`, i, 1+rng.IntN(40), 1+rng.IntN(9),
			fmt.Sprintf("%d-%02d-%02d", 2024+rng.IntN(3), 1+rng.IntN(12), 1+rng.IntN(28)),
			float64(1+rng.IntN(400))/10, []string{"A", "B", "C"}[rng.IntN(3)])
	}
	return path
}

// gardenQuestions are plain questions about the garden schema, each with
// the SQL whose rows answer it (columns as asked, in order).
func gardenQuestions() []question {
	return []question{
		{name: "count gardens", q: "How many gardens are there?", want: "SELECT count(*) FROM garden"},
		{name: "count gardeners", q: "Count the number of gardeners.", want: "SELECT count(*) FROM gardener"},
		{name: "garden names", q: "What are the names of all gardens?", want: "SELECT name FROM garden"},
		{name: "names ordered by age", q: "List the first name and last name of gardeners ordered by age.", ordered: true,
			want: "SELECT first_name, last_name FROM gardener ORDER BY age"},
		{name: "three columns", q: "Show the name, district and opened year of each garden.", want: "SELECT name, district, opened_year FROM garden"},
		{name: "avg min max", q: "What is the average, minimum and maximum age of gardeners?", want: "SELECT avg(age), min(age), max(age) FROM gardener"},
		{name: "avg with value", q: "What is the average age of gardeners from Riverton?", want: "SELECT avg(age) FROM gardener WHERE city = 'Riverton'"},
		{name: "which gardens in district", q: "Which gardens are in the North district?", want: "SELECT name FROM garden WHERE district = 'North'"},
		{name: "older than", q: "How many gardeners are older than 40?", want: "SELECT count(*) FROM gardener WHERE age > 40"},
		{name: "above age", q: "List the first names of gardeners above age 50.", want: "SELECT first_name FROM gardener WHERE age > 50"},
		{name: "distinct cities", q: "Find the distinct cities of gardeners.", want: "SELECT DISTINCT city FROM gardener"},
		{name: "count distinct", q: "How many different crop families are there?", want: "SELECT count(DISTINCT family) FROM crop"},
		{name: "group count", q: "Show each district and the number of gardens in it.", want: "SELECT district, count(*) FROM garden GROUP BY district"},
		{name: "count per group", q: "How many gardens are in each district?", want: "SELECT district, count(*) FROM garden GROUP BY district"},
		{name: "oldest", q: "What is the first name of the oldest gardener?", want: "SELECT first_name FROM gardener ORDER BY age DESC LIMIT 1"},
		{name: "largest garden", q: "What is the name of the garden with the largest area?", want: "SELECT name FROM garden ORDER BY area_sqm DESC LIMIT 1"},
		{name: "most plots", q: "Which garden has the most harvests?", want: "SELECT g.name FROM harvest h JOIN plot p ON p.plot_id = h.plot_id JOIN garden g ON g.garden_id = p.garden_id GROUP BY g.garden_id ORDER BY count(*) DESC LIMIT 1"},
		{name: "count per garden", q: "Show the name of each garden and the number of plots in it.",
			want: "SELECT g.name, count(*) FROM plot p JOIN garden g ON g.garden_id = p.garden_id GROUP BY g.garden_id"},
		{name: "having", q: "List the names of gardens with more than 5 plots.",
			want: "SELECT name FROM garden WHERE garden_id IN (SELECT garden_id FROM plot GROUP BY garden_id HAVING count(*) > 5)"},
		{name: "anti join", q: "Which crops have never been harvested?", want: "SELECT crop_name FROM crop WHERE crop_id NOT IN (SELECT crop_id FROM harvest)"},
		{name: "no plots", q: "What are the first names of gardeners who have no plots?",
			want: "SELECT first_name FROM gardener WHERE gardener_id NOT IN (SELECT gardener_id FROM plot WHERE gardener_id IS NOT NULL)"},
		{name: "value through join", q: "What is the total weight of harvests of Tomato?",
			want: "SELECT sum(h.weight_kg) FROM harvest h JOIN crop c ON c.crop_id = h.crop_id WHERE c.crop_name = 'Tomato'"},
		{name: "alphabetical", q: "List the crop names in alphabetical order.", ordered: true, want: "SELECT crop_name FROM crop ORDER BY crop_name"},
		{name: "top three", q: "What are the names of the 3 largest gardens by area?", ordered: true,
			want: "SELECT name FROM garden ORDER BY area_sqm DESC LIMIT 3"},
		{name: "between", q: "Find the names of gardens opened between 2000 and 2010.", want: "SELECT name FROM garden WHERE opened_year BETWEEN 2000 AND 2010"},
		{name: "or years", q: "How many harvests were there in 2024 or 2025?", want: "SELECT count(*) FROM harvest WHERE harvest_date >= '2024-01-01' AND harvest_date < '2026-01-01'"},
		{name: "or values", q: "Which gardeners live in Riverton or Lakeside? Give their first and last names.",
			want: "SELECT first_name, last_name FROM gardener WHERE city IN ('Riverton', 'Lakeside')"},
		{name: "not value", q: "How many gardeners are not from Riverton?", want: "SELECT count(*) FROM gardener WHERE city <> 'Riverton'"},
		{name: "cmp size", q: "What are the soil types of plots larger than 20 square meters?", want: "SELECT soil_type FROM plot WHERE size_sqm > 20"},
		{name: "join projection", q: "Show the first name of each gardener and the name of their garden.",
			want: "SELECT p.first_name, g.name FROM gardener p JOIN garden g ON g.garden_id = p.garden_id"},
		{name: "flag", q: "List the names of gardens with a greenhouse.", want: "SELECT name FROM garden WHERE has_greenhouse = 1"},
		{name: "avg per group", q: "What is the average plot size for each soil type?", want: "SELECT soil_type, avg(size_sqm) FROM plot GROUP BY soil_type"},
		{name: "flag adjective", q: "What is the average days to harvest of perennial crops?", want: "SELECT avg(days_to_harvest) FROM crop WHERE perennial = 1"},
		{name: "most common", q: "What is the most common crop family?", want: "SELECT family FROM crop GROUP BY family ORDER BY count(*) DESC LIMIT 1"},
		{name: "order desc", q: "Show the crop names and their families sorted by days to harvest in descending order.", ordered: true,
			want: "SELECT crop_name, family FROM crop ORDER BY days_to_harvest DESC"},
		{name: "sum per garden", q: "What is the total harvest weight for each garden?",
			want: "SELECT g.name, sum(h.weight_kg) FROM harvest h JOIN plot p ON p.plot_id = h.plot_id JOIN garden g ON g.garden_id = p.garden_id GROUP BY g.garden_id"},
		{name: "youngest", q: "Find the first and last name of the youngest gardener.", want: "SELECT first_name, last_name FROM gardener ORDER BY age LIMIT 1"},
		{name: "named quoted", q: "What is the area of the garden named 'Old Mill'?", want: "SELECT area_sqm FROM garden WHERE name = 'Old Mill'"},
		{name: "named unquoted", q: "In which district is the garden called Cedar Row?", want: "SELECT district FROM garden WHERE name = 'Cedar Row'"},
		{name: "like", q: "Find the names of gardens whose name contains 'Row'.", want: "SELECT name FROM garden WHERE name LIKE '%Row%'"},
		{name: "at least", q: "How many plots have a size of at least 30?", want: "SELECT count(*) FROM plot WHERE size_sqm >= 30"},
		{name: "avg subquery", q: "List the first names of gardeners older than the average age.", want: "SELECT first_name FROM gardener WHERE age > (SELECT avg(age) FROM gardener)"},
		{name: "all info", q: "Show all information about crops in the Legume family.", want: "SELECT * FROM crop WHERE family = 'Legume'"},
		{name: "count with value join", q: "How many harvests of quality A came from plots with loam soil?",
			want: "SELECT count(*) FROM harvest h JOIN plot p ON p.plot_id = h.plot_id WHERE h.quality = 'A' AND p.soil_type = 'loam'"},
		{name: "having avg on own column", q: "List the soil types whose average plot size is more than 20.",
			want: "SELECT soil_type FROM plot GROUP BY soil_type HAVING avg(size_sqm) > 20"},
		{name: "having sum of linked", q: "Show the names of gardens whose total harvest weight is over 300.",
			want: "SELECT g.name FROM harvest h JOIN plot p ON p.plot_id = h.plot_id JOIN garden g ON g.garden_id = p.garden_id GROUP BY g.garden_id HAVING sum(h.weight_kg) > 300"},
		{name: "different from", q: "Which gardeners live in a city different from Riverton? Give their first names.",
			want: "SELECT first_name FROM gardener WHERE city <> 'Riverton'"},
		{name: "order count", q: "List each soil type and the number of plots, ordered by the number of plots.", ordered: true,
			want: "SELECT soil_type, count(*) FROM plot GROUP BY soil_type ORDER BY count(*), soil_type"},
	}
}

// gardenDeclines must be declined: a word the plan would not use.
func gardenDeclines() []string {
	return []string{
		"Delete all gardens in the North district.",
		"Why did the harvest weight drop?",
		"How many gardens will open next year?",
		"List the gardens with the tastiest crops.",
		"How many gardeners are older than their mentor?",
		"Which gardeners grow both tomatoes and kale?",
		"How many gardeners are sort of old?",
	}
}

// TestClauseGarden asks the garden questions with the schema alone and
// with a drafted catalog: each is answered right or declined, never wrong,
// and the must-decline questions are declined.
func TestClauseGarden(t *testing.T) {
	path := gardenDB(t)
	for _, mode := range []string{"schema only", "drafted catalog"} {
		t.Run(mode, func(t *testing.T) {
			cat := ""
			if mode == "drafted catalog" {
				cat = draftCatalog(t, path)
			}
			e := newEnv(t, path, cat)
			g := New(nil)
			correct := 0
			for _, c := range gardenQuestions() {
				req := e.req
				req.Question = c.q
				plan, err := g.Generate(context.Background(), req)
				var ge *sqlgen.SQLGenerationError
				if errors.As(err, &ge) {
					t.Logf("declined %q: %s", c.q, ge.Message)
					continue
				}
				if err != nil {
					t.Fatalf("%q: %v", c.q, err)
				}
				got, want := e.rows(t, plan.SQL), e.rows(t, c.want)
				if empty(want) {
					t.Fatalf("gold of %q returns no data: %s", c.q, c.want)
				}
				ordered := c.ordered || strings.Contains(strings.ToUpper(c.want), " LIMIT ")
				if err := sameRowsLoose(got, want, ordered); err != nil {
					t.Errorf("WRONG %q:\n  sql:  %s\n  want: %s\n  %v", c.q, plan.SQL, c.want, err)
					continue
				}
				correct++
			}
			for _, q := range gardenDeclines() {
				req := e.req
				req.Question = q
				if plan, err := g.Generate(context.Background(), req); err == nil {
					t.Errorf("answered %q (must decline): %s", q, plan.SQL)
				}
			}
			t.Logf("garden, %s: %d of %d correct", mode, correct, len(gardenQuestions()))
		})
	}
}

// TestClauseDebug prints the clause reading of each garden question
// (CLAUSE_DEBUG=1): its SQL and how the words were read, or why it declines.
func TestClauseDebug(t *testing.T) {
	if os.Getenv("CLAUSE_DEBUG") == "" {
		t.Skip("set CLAUSE_DEBUG=1 to print the clause readings")
	}
	path := gardenDB(t)
	cat := ""
	if os.Getenv("CLAUSE_DEBUG") == "drafted" {
		cat = draftCatalog(t, path)
	}
	e := newEnv(t, path, cat)
	m := compile(gather(e.req.Servers))
	today := m.pickToday(asOf)
	for _, c := range gardenQuestions() {
		plan, _, err := m.clauseAnswer(c.q, today, "sqlite")
		if err != nil {
			t.Logf("%q\n   DECLINE %v", c.q, err)
			continue
		}
		t.Logf("%q\n   %s\n   %s", c.q, plan.SQL, strings.Join(plan.Assumptions, " | "))
	}
}

// TestClauseAsk prints both readings of questions on one test database
// (CLAUSE_DB=sales|bookstore|store|music|resort|garden, CLAUSE_Q="q1|q2",
// CLAUSE_DRAFT=1 for a drafted catalog).
func TestClauseAsk(t *testing.T) {
	name, qs := os.Getenv("CLAUSE_DB"), os.Getenv("CLAUSE_Q")
	if name == "" || qs == "" {
		t.Skip("set CLAUSE_DB and CLAUSE_Q")
	}
	var e *env
	dbs := map[string]func(testing.TB) string{"sales": func(tb testing.TB) string { return pinnedSalesDB(tb, 5000) },
		"bookstore": bookstoreDB, "store": storeDB, "music": musicDB, "resort": resortDB, "garden": gardenDB, "sky": skyDB}
	if fixturePath := os.Getenv("CLAUSE_FIXTURE"); fixturePath != "" {
		dbs[name] = func(testing.TB) string { return fixturePath }
	}
	switch {
	case os.Getenv("CLAUSE_FIXTURE") != "" && os.Getenv("CLAUSE_DRAFT") == "":
		e = newEnv(t, os.Getenv("CLAUSE_FIXTURE"), "")
	case os.Getenv("CLAUSE_DRAFT") != "":
		path := dbs[name](t)
		e = newEnv(t, path, draftCatalog(t, path))
	case name == "sales":
		e = salesEnv(t)
	case name == "bookstore":
		e = bookstoreEnv(t)
	case name == "store":
		e = storeEnv(t)
	case name == "music":
		e = musicEnv(t)
	case name == "resort":
		e = resortEnv(t)
	case name == "sky":
		e = newEnv(t, skyDB(t), "")
	default:
		e = newEnv(t, gardenDB(t), "")
	}
	m := compile(gather(e.req.Servers))
	today := m.pickToday(asOf)
	g := New(nil)
	for _, q := range strings.Split(qs, "|") {
		plan, complete, err := m.clauseAnswer(q, today, "sqlite")
		t.Logf("%q\n  clause (complete %v): %s %v\n  %s", q, complete, plan.SQL, err, strings.Join(plan.Assumptions, " | "))
		r := g.analystAnswer(m, q, "sqlite", asOf)
		t.Logf("  analyst: %s %v", r.plan.SQL, r.err)
	}
}
