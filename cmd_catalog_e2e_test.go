package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"talk2tables/config"
	"talk2tables/internal/testfixture"
)

// libraryDB is a database nobody wrote a catalog for.
func libraryDB(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "library.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stmts := []string{
		`CREATE TABLE members (member_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, city TEXT, joined_on TEXT)`,
		`CREATE TABLE books (book_id INTEGER PRIMARY KEY, title TEXT NOT NULL, genre TEXT, list_price NUMERIC(8,2))`,
		`CREATE TABLE loans (loan_id INTEGER PRIMARY KEY, member_id INTEGER NOT NULL REFERENCES members(member_id),
		   book_id INTEGER NOT NULL REFERENCES books(book_id), loaned_at TEXT NOT NULL, late_fee NUMERIC(6,2) NOT NULL)`,
	}
	cities := []string{"Lisbon", "Porto", "Braga"}
	genres := []string{"Fantasy", "History", "Poetry", "Science"}
	for i := 1; i <= 30; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO members VALUES (%d, 'Member %02d', '%s', '2025-%02d-01')`, i, i, cities[i%3], 1+i%12))
	}
	for i := 1; i <= 40; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO books VALUES (%d, 'Book %02d', '%s', %d.50)`, i, i, genres[i%4], 5+i))
	}
	for i := 1; i <= 200; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO loans VALUES (%d, %d, %d, '2026-%02d-%02d 10:%02d:00', %d.25)`,
			i, 1+i%30, 1+i%40, 1+i%10, 1+i%28, i%60, i%4))
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return path
}

// TestYourOwnDatabase follows the README: `catalog init` on a database, then
// `serve` with examples/your-database.yaml (its children the test binary
// itself, over stdio), and offline answers that match the data.
func TestYourOwnDatabase(t *testing.T) {
	if _, err := config.LoadConfig(filepath.Join("examples", "your-database.yaml")); err != nil {
		t.Fatalf("the example config does not load: %v", err)
	}
	dir := t.TempDir()
	dbPath := libraryDB(t)
	catPath := filepath.Join(dir, "my_catalog.json")
	if _, _, err := runCmd(t, "catalog", "init", "--db", dbPath, "--out", catPath); err != nil {
		t.Fatalf("catalog init: %v", err)
	}

	example, err := os.ReadFile(filepath.Join("examples", "your-database.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg := strings.NewReplacer(
		"command: ./bin/talk2tables", fmt.Sprintf("command: %q\n    env: {%s: \"1\"}", exe, runMainEnv),
		"my.db", dbPath, "my_catalog.json", catPath, `addr: ":8001"`, `addr: "127.0.0.1:0"`,
	).Replace(string(example))
	cfgPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &testfixture.LogBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--config", cfgPath, "--log-level", "warn"}, stdio{strings.NewReader(""), io.Discard, stderr})
	}()
	base := waitForURL(t, stderr, done)
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()

	direct, err := sql.Open("sqlite", "file:"+dbPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	for _, tt := range []struct{ question, want string }{
		{"how many loans", "SELECT COUNT(*) FROM loans"},
		{"how many members", "SELECT COUNT(*) FROM members"},
		{"total late fee", "SELECT SUM(late_fee) FROM loans"},
	} {
		t.Run(tt.question, func(t *testing.T) {
			var want float64
			if err := direct.QueryRow(tt.want).Scan(&want); err != nil {
				t.Fatal(err)
			}
			resp, err := http.Post(base+"api/query", "application/json", strings.NewReader(`{"question":"`+tt.question+`"}`))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var res struct {
				Success bool   `json:"success"`
				SQL     string `json:"sql"`
				Result  struct {
					Rows [][]any `json:"rows"`
				} `json:"result"`
				Metadata struct {
					Generator string `json:"generator"`
				} `json:"metadata"`
			}
			body, _ := io.ReadAll(resp.Body)
			if err := json.Unmarshal(body, &res); err != nil || resp.StatusCode != 200 || !res.Success {
				t.Fatalf("%q = %d %s", tt.question, resp.StatusCode, body)
			}
			if len(res.Result.Rows) != 1 || len(res.Result.Rows[0]) != 1 || res.Result.Rows[0][0] != want || res.Metadata.Generator != "builtin" {
				t.Errorf("%q answered %v with %s (%s), want %v", tt.question, res.Result.Rows, res.SQL, res.Metadata.Generator, want)
			}
		})
	}
}
