package builtin

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
)

// clubDB is a small sports club of our own making, for the rules on which
// link a word takes: players have a tutor (a role key to coach) and play
// in teams that a coach runs (through roster), so a player and a coach
// are linked two ways; a coach has a full name beside a title (Mr, Ms);
// a player's weight is a number stored as text ('9.5' sorts after '10.2'
// as text); a team's coach key is named after its table; a coach's rank
// holds 'Coach' beside the table's own name; trainings are of teams; a
// coach may have a mentor, another coach; a team plays in a league whose
// text key is a code.
func clubDB(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "club.db")
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
	exec(`CREATE TABLE coach (coach_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, title TEXT NOT NULL, rank TEXT NOT NULL,
		mentor_id INTEGER REFERENCES coach(coach_id))`)
	exec(`CREATE TABLE league_code (league_cd TEXT PRIMARY KEY, league_nm TEXT NOT NULL)`)
	exec(`INSERT INTO league_code VALUES ('UPR', 'Upper league'), ('LWR', 'Lower league')`)
	exec(`CREATE TABLE team (team_id INTEGER PRIMARY KEY, team_name TEXT NOT NULL,
		coach_id INTEGER NOT NULL REFERENCES coach(coach_id), division TEXT NOT NULL,
		league_cd TEXT NOT NULL REFERENCES league_code(league_cd))`)
	exec(`CREATE TABLE player (player_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL,
		tutor_id INTEGER REFERENCES coach(coach_id), weight_kg TEXT NOT NULL, height_cm INTEGER NOT NULL,
		insured TEXT NOT NULL)`)
	exec(`CREATE TABLE training (training_id INTEGER PRIMARY KEY, team_id INTEGER NOT NULL REFERENCES team(team_id),
		held_on TEXT NOT NULL)`)
	exec(`CREATE TABLE roster (player_id INTEGER NOT NULL REFERENCES player(player_id),
		team_id INTEGER NOT NULL REFERENCES team(team_id))`)
	coaches := []string{"Ann Vale", "Cal Dorn", "Eda Fenn", "Gus Holt", "Bo-Kim Lee"}
	titles := []string{"Ms", "Mr", "Ms", "Mr", "Ms"}
	for i, n := range coaches {
		exec(`INSERT INTO coach VALUES (?,?,?,?,?)`, i+1, n, titles[i], []string{"Coach", "Assistant"}[i%2], []any{nil, 1, 1, 2, 3}[i])
	}
	// coach 1 runs teams 1 and 5, coach 4 runs none
	for i, n := range []string{"Otters", "Herons", "Lynxes", "Falcons", "Badgers"} {
		exec(`INSERT INTO team VALUES (?,?,?,?,?)`, i+1, n, []int{1, 2, 3, 2, 1}[i], []string{"Upper", "Lower", "Middle", "Upper", "Middle"}[i],
			[]string{"UPR", "LWR", "UPR", "UPR", "LWR"}[i])
		exec(`INSERT INTO training VALUES (?,?,?)`, i+1, 1+i%3, fmt.Sprintf("2025-03-%02d", 1+i))
	}
	players := []string{"Bo Reed", "Di Lund", "Fay Moss", "Hal Pike", "Ivo Quin", "Jo Roth",
		"Kit Sand", "Lu Tamm", "Mo Ueda", "Ned Voss", "Oli Wren", "Pam Yule"}
	for i, n := range players {
		var tutor any
		if i%6 != 5 {
			tutor = 1 + i/3 // coach 1 tutors players 1-3
		}
		weight := fmt.Sprintf("%.1f", 8.5+float64(i*i)*1.3) // 8.5 … 165.8: one and three digits
		exec(`INSERT INTO player VALUES (?,?,?,?,?,?)`, i+1, n, tutor, weight, 150+4*i, []string{"Y", "N", "N"}[i%3])
	}
	for p := 1; p <= 12; p++ {
		exec(`INSERT INTO roster VALUES (?,?)`, p, 1+p%5)
		if p%4 == 0 {
			exec(`INSERT INTO roster VALUES (?,?)`, p, 1+(p+2)%5)
		}
	}
	return path
}

// TestLinkRules: a comparison binds to the table named before it, a value
// after related rows describes those rows, a person's full name is their
// name (not a title), a text-typed number is ordered as a number, and a
// question whose words leave two links open is declined.
func TestLinkRules(t *testing.T) {
	path := clubDB(t)
	answered := []ruleCase{
		{"Which teams have players taller than 190 centimetres?",
			`SELECT team_name FROM team WHERE team_id IN (SELECT r.team_id FROM roster r JOIN player p ON p.player_id = r.player_id WHERE p.height_cm > 190)`, false},
		{"List the teams in the Upper or Lower divisions.", `SELECT team_name FROM team WHERE division IN ('Upper', 'Lower')`, false},
		{"Show the full name of coaches.", `SELECT full_name FROM coach`, false},
		{"Who is the mentor of Cal Dorn?", `SELECT full_name FROM coach WHERE coach_id = 1`, false},
		{"Who mentors Gus Holt?", `SELECT full_name FROM coach WHERE coach_id = 2`, false},
		{"Which coaches have Ann Vale as their mentor?", `SELECT full_name FROM coach WHERE mentor_id = 1`, false},
		{"How many coaches does Ann Vale mentor?", `SELECT COUNT(*) FROM coach WHERE mentor_id = 1`, false},
		{"Who is the mentor of Bo-Kim Lee?", `SELECT full_name FROM coach WHERE coach_id = 3`, false},
		{"List the players from highest to lowest height.", `SELECT full_name FROM player ORDER BY height_cm DESC`, true},
		{"Which coaches have no mentor?", `SELECT full_name FROM coach WHERE mentor_id IS NULL`, false},
		{"For each coach, the number of teams they coach.",
			`SELECT c.full_name, COUNT(*) FROM team t JOIN coach c ON c.coach_id = t.coach_id GROUP BY c.coach_id, c.full_name`, false},
		{"For each mentor, how many coaches do they mentor?", // one row per mentor: the table joined to itself
			`SELECT m.full_name, COUNT(*) FROM coach c JOIN coach m ON m.coach_id = c.mentor_id GROUP BY m.coach_id, m.full_name`, false},
	}
	teamOfAnn := `SELECT COUNT(DISTINCT r.player_id) FROM roster r JOIN team t ON t.team_id = r.team_id JOIN coach c ON c.coach_id = t.coach_id WHERE c.full_name = 'Ann Vale'`
	catalogOnly := []ruleCase{
		{"name of the player with the smallest weight", `SELECT full_name FROM player ORDER BY CAST(weight_kg AS REAL) LIMIT 1`, false},
		{"How many different players have played in a team coached by Ann Vale?", teamOfAnn, false},
		{"How many players are on teams coached by Ann Vale?", teamOfAnn, false},
		{"Which insured players are taller than 180 centimetres?", `SELECT full_name FROM player WHERE insured = 'Y' AND height_cm > 180`, false},
	}
	declined := []string{
		"How many teams are in league code UPR?",      // the league's code, or the teams' copy of it (the readings don't tell)
		"Which rank is Zed Quor from?",                // Zed Quor's rank, or a rank called Zed Quor?
		"Which league codes are upper leagues?",       // the plural of one league's name
		"Which coach does Bo Reed have?",              // the tutor, or the coaches of Bo's teams?
		"Count the team coaches.",                     // every coach, or those running a team?
		"Which coaches have not trained any team?",    // the verb names trainings, which the teams' coach key never reaches
		"List the teams in the Upper or Middle rank.", // the values are divisions, "rank" a coach's column
	}
	for _, mode := range []string{"schema only", "drafted catalog"} {
		t.Run(mode, func(t *testing.T) {
			cat := ""
			if mode == "drafted catalog" {
				cat = draftCatalog(t, path)
			}
			e := newEnv(t, path, cat)
			g := New(nil)
			qs := answered
			if cat != "" {
				// the catalog knows the coaches' names and that the weights
				// are numbers
				qs = append(qs, catalogOnly...)
			}
			checkAnswered(t, e, g, qs)
			checkDeclined(t, e, g, mode, declined)
		})
	}
}
