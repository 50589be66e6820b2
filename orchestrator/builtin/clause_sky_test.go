package builtin

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"talk2tables/orchestrator/sqlgen"
)

// skyDB builds a small database of an observatory network (our own
// domain, CamelCase singular names): sites, telescopes, astronomers,
// observing sessions and the sky objects each session targets (a link
// table between sessions and objects).
func skyDB(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "sky.db")
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
	exec(`CREATE TABLE Site (SiteId INTEGER PRIMARY KEY, SiteName TEXT NOT NULL, Country TEXT NOT NULL, AltitudeM INTEGER)`)
	exec(`CREATE TABLE Telescope (TelescopeId INTEGER PRIMARY KEY, TelescopeName TEXT NOT NULL, ApertureCm REAL,
		SiteId INTEGER REFERENCES Site(SiteId), CommissionYear INTEGER)`)
	exec(`CREATE TABLE Astronomer (AstronomerId INTEGER PRIMARY KEY, FullName TEXT NOT NULL, Nationality TEXT, BirthYear INTEGER, Specialty TEXT)`)
	exec(`CREATE TABLE ObservingSession (SessionId INTEGER PRIMARY KEY, TelescopeId INTEGER REFERENCES Telescope(TelescopeId),
		AstronomerId INTEGER REFERENCES Astronomer(AstronomerId), SessionDate TEXT, HoursObserved REAL, Seeing TEXT)`)
	exec(`CREATE TABLE SkyObject (ObjectId INTEGER PRIMARY KEY, ObjectName TEXT NOT NULL, ObjectType TEXT, Magnitude REAL, Constellation TEXT)`)
	exec(`CREATE TABLE SessionTarget (SessionId INTEGER REFERENCES ObservingSession(SessionId), ObjectId INTEGER REFERENCES SkyObject(ObjectId),
		PRIMARY KEY (SessionId, ObjectId))`)
	rng := rand.New(rand.NewPCG(3, 5))
	sites := []struct {
		name, country string
		alt           int
	}{{"Cerro Alto", "Chile", 2400}, {"Mauna Ridge", "USA", 4100}, {"Roque Point", "Spain", 2390}, {"Siding Hill", "Australia", 1160}, {"Karoo Flats", "South Africa", 1800}, {"Paranal East", "Chile", 2635}}
	for i, s := range sites {
		exec(`INSERT INTO Site VALUES (?,?,?,?)`, i+1, s.name, s.country, s.alt)
	}
	for i := 1; i <= 14; i++ {
		exec(`INSERT INTO Telescope VALUES (?,?,?,?,?)`, i, fmt.Sprintf("Scope %c%d", 'A'+rune(i%5), i), float64(40+rng.IntN(400)), 1+rng.IntN(6), 1970+rng.IntN(50))
	}
	names := []string{"Vera Ortiz", "Lars Holm", "Amina Diallo", "Kenji Mori", "Sofia Marin", "Tomas Weber", "Priya Nair", "Hugo Lenoir", "Ines Castro", "Yusuf Demir"}
	nats := []string{"Chilean", "Swedish", "Senegalese", "Japanese", "Spanish", "German", "Indian", "French", "Chilean", "Turkish"}
	specs := []string{"galaxies", "exoplanets", "stellar evolution", "cosmology"}
	for i, n := range names {
		exec(`INSERT INTO Astronomer VALUES (?,?,?,?,?)`, i+1, n, nats[i], 1950+rng.IntN(50), specs[rng.IntN(4)])
	}
	objs := []struct{ name, typ, con string }{{"Andromeda Galaxy", "galaxy", "Andromeda"}, {"Orion Nebula", "nebula", "Orion"}, {"Pleiades", "star cluster", "Taurus"},
		{"Crab Nebula", "nebula", "Taurus"}, {"Whirlpool Galaxy", "galaxy", "Canes Venatici"}, {"Jupiter", "planet", "Sagittarius"},
		{"Horsehead Nebula", "nebula", "Orion"}, {"Omega Centauri", "star cluster", "Centaurus"}, {"Sombrero Galaxy", "galaxy", "Virgo"}, {"Vega", "star", "Lyra"}}
	for i, o := range objs {
		exec(`INSERT INTO SkyObject VALUES (?,?,?,?,?)`, i+1, o.name, o.typ, float64(rng.IntN(120))/10-1, o.con)
	}
	for i := 1; i <= 60; i++ {
		exec(`INSERT INTO ObservingSession VALUES (?,?,?,?,?,?)`, i, 1+rng.IntN(14), 1+rng.IntN(8),
			fmt.Sprintf("%d-%02d-%02d", 2024+rng.IntN(3), 1+rng.IntN(12), 1+rng.IntN(28)), float64(1+rng.IntN(90))/10, []string{"good", "fair", "poor"}[rng.IntN(3)])
		seen := map[int]bool{}
		for k := 0; k < 1+rng.IntN(3); k++ {
			o := 1 + rng.IntN(9)
			if !seen[o] {
				seen[o] = true
				exec(`INSERT INTO SessionTarget VALUES (?,?)`, i, o)
			}
		}
	}
	return path
}

func skyQuestions() []question {
	const st = " FROM SessionTarget t JOIN ObservingSession s ON s.SessionId = t.SessionId"
	return []question{
		{name: "count", q: "How many telescopes are there?", want: "SELECT count(*) FROM Telescope"},
		{name: "cmp", q: "List the names of telescopes with an aperture larger than 200.", want: "SELECT TelescopeName FROM Telescope WHERE ApertureCm > 200"},
		{name: "two cols", q: "What is the name and country of each site?", want: "SELECT SiteName, Country FROM Site"},
		{name: "highest", q: "Which site has the highest altitude?", want: "SELECT SiteName FROM Site ORDER BY AltitudeM DESC LIMIT 1"},
		{name: "count per", q: "How many telescopes does each site have?", want: "SELECT s.SiteName, count(*) FROM Telescope t JOIN Site s ON s.SiteId = t.SiteId GROUP BY s.SiteId"},
		{name: "born after", q: "Show the names of astronomers born after 1970.", want: "SELECT FullName FROM Astronomer WHERE BirthYear > 1970"},
		{name: "distinct", q: "What are the distinct nationalities of astronomers?", want: "SELECT DISTINCT Nationality FROM Astronomer"},
		{name: "never", q: "Which astronomers have never had an observing session?", want: "SELECT FullName FROM Astronomer WHERE AstronomerId NOT IN (SELECT AstronomerId FROM ObservingSession)"},
		{name: "value count", q: "How many sessions had good seeing?", want: "SELECT count(*) FROM ObservingSession WHERE Seeing = 'good'"},
		{name: "plural value", q: "List the names of the galaxies.", want: "SELECT ObjectName FROM SkyObject WHERE ObjectType = 'galaxy'"},
		{name: "join projection", q: "Show the telescope name and the site name for each telescope.", want: "SELECT t.TelescopeName, s.SiteName FROM Telescope t JOIN Site s ON s.SiteId = t.SiteId"},
		{name: "through link", q: "Find the names of astronomers who observed the Andromeda Galaxy.",
			want: "SELECT FullName FROM Astronomer WHERE AstronomerId IN (SELECT s.AstronomerId" + st + " WHERE t.ObjectId = 1)"},
		{name: "sum per", q: "What is the total hours observed by each astronomer?",
			want: "SELECT a.FullName, sum(s.HoursObserved) FROM ObservingSession s JOIN Astronomer a ON a.AstronomerId = s.AstronomerId GROUP BY a.AstronomerId"},
		{name: "value of parent", q: "List the names of telescopes at sites in Chile.",
			want: "SELECT t.TelescopeName FROM Telescope t JOIN Site s ON s.SiteId = t.SiteId WHERE s.Country = 'Chile'"},
		{name: "most linked", q: "Which object was observed the most?",
			want: "SELECT o.ObjectName FROM SessionTarget t JOIN SkyObject o ON o.ObjectId = t.ObjectId GROUP BY o.ObjectId ORDER BY count(*) DESC LIMIT 1"},
		{name: "value count 2", q: "How many objects are in the constellation Orion?", want: "SELECT count(*) FROM SkyObject WHERE Constellation = 'Orion'"},
		{name: "largest", q: "What is the name of the telescope with the largest aperture?", want: "SELECT TelescopeName FROM Telescope ORDER BY ApertureCm DESC LIMIT 1"},
		{name: "sorted", q: "Show the names of sites sorted by altitude in descending order.", ordered: true, want: "SELECT SiteName FROM Site ORDER BY AltitudeM DESC"},
		{name: "year", q: "How many sessions were there in 2025?", want: "SELECT count(*) FROM ObservingSession WHERE SessionDate LIKE '2025%'"},
		{name: "avg group", q: "What is the average magnitude of objects of each type?", want: "SELECT ObjectType, avg(Magnitude) FROM SkyObject GROUP BY ObjectType"},
		{name: "count value", q: "How many astronomers are Chilean?", want: "SELECT count(*) FROM Astronomer WHERE Nationality = 'Chilean'"},
		{name: "min max", q: "What are the minimum and maximum aperture of telescopes?", want: "SELECT min(ApertureCm), max(ApertureCm) FROM Telescope"},
		{name: "two values", q: "List the names of objects in Orion or Taurus.", want: "SELECT ObjectName FROM SkyObject WHERE Constellation IN ('Orion', 'Taurus')"},
		{name: "having link", q: "Which telescopes were used in more than 5 sessions?",
			want: "SELECT t.TelescopeName FROM ObservingSession s JOIN Telescope t ON t.TelescopeId = s.TelescopeId GROUP BY t.TelescopeId HAVING count(*) > 5"},
		{name: "order two", q: "List the name and birth year of every astronomer, ordered by birth year.", ordered: true,
			want: "SELECT FullName, BirthYear FROM Astronomer ORDER BY BirthYear"},
		{name: "count distinct", q: "How many different countries have sites?", want: "SELECT count(DISTINCT Country) FROM Site"},
		{name: "top n", q: "What are the names of the 3 telescopes with the largest apertures?", ordered: true,
			want: "SELECT TelescopeName FROM Telescope ORDER BY ApertureCm DESC LIMIT 3"},
		{name: "parent value agg", q: "What is the average aperture of telescopes in Chile?",
			want: "SELECT avg(t.ApertureCm) FROM Telescope t JOIN Site s ON s.SiteId = t.SiteId WHERE s.Country = 'Chile'"},
		{name: "specialty", q: "Which astronomers specialise in cosmology?", want: "SELECT FullName FROM Astronomer WHERE Specialty = 'cosmology'"},
		{name: "sessions per seeing", q: "Show each seeing value and the number of sessions with it.", want: "SELECT Seeing, count(*) FROM ObservingSession GROUP BY Seeing"},
	}
}

// TestClauseSky asks the observatory questions with a drafted catalog:
// each is answered right or declined, never wrong.
func TestClauseSky(t *testing.T) {
	path := skyDB(t)
	for _, mode := range []string{"schema only", "drafted catalog"} {
		t.Run(mode, func(t *testing.T) {
			cat := ""
			if mode == "drafted catalog" {
				cat = draftCatalog(t, path)
			}
			e := newEnv(t, path, cat)
			g := New(nil)
			correct := 0
			for _, c := range skyQuestions() {
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
			t.Logf("sky, %s: %d of %d correct", mode, correct, len(skyQuestions()))
		})
	}
}
