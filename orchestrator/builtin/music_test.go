package builtin

import (
	"database/sql"
	"path/filepath"
	"testing"

	"talk2tables/internal/testfixture"
)

// musicEnv is a snake_case music shop written by the tests
// (testdata/music): four many-to-one hops from invoice lines to record
// labels, invoices dated in unix seconds, albums dated by release year, a
// view beside the tables, and Germany in four tables' countries.
func musicEnv(tb testing.TB) *env {
	tb.Helper()
	dir := filepath.Join("testdata", "music")
	path := musicDB(tb)
	e := newEnv(tb, path, filepath.Join(dir, "catalog.json"))
	db := e.req.Servers[len(e.req.Servers)-1]
	withViews(tb, db.Resources["database://schema"].(map[string]any), path)
	return e
}

// withViews adds the database's views to a schema resource that lacks them,
// in the shape of docs/contracts.md §2 (kind "view", row count -1), as
// database-mcp lists them once views are part of its schema.
func withViews(tb testing.TB, schema map[string]any, dbPath string) {
	tb.Helper()
	tables, _ := schema["tables"].([]any)
	for _, t := range tables {
		if t.(map[string]any)["kind"] == "view" {
			return
		}
	}
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(dbPath)+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	for _, name := range testfixture.QueryRows(tb, db, "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name") {
		view := name[0].(string)
		var cols []any
		for _, c := range testfixture.QueryRows(tb, db, "SELECT name, type FROM pragma_table_info('"+view+"')") {
			cols = append(cols, map[string]any{"name": c[0], "type": c[1], "nullable": true, "primary_key": false})
		}
		tables = append(tables, map[string]any{"name": view, "kind": "view", "row_count": float64(-1), "columns": cols,
			"foreign_keys": []any{}, "indexes": []any{}})
	}
	schema["tables"] = tables
}

const (
	ilt = " FROM invoice_line il JOIN track t ON t.track_id = il.track_id"
	ili = " FROM invoice_line il JOIN invoice i ON i.invoice_id = il.invoice_id"
	rev = "il.unit_price * il.quantity"
	y25 = "i.invoiced_at >= 1735689600 AND i.invoiced_at < 1767225600"
)

func musicQuestions() []question {
	return []question{
		{name: "count", q: "how many tracks", want: "SELECT COUNT(*) FROM track"},
		{name: "count by entity", q: "tracks by genre", want: "SELECT g.genre_id, g.name, COUNT(*) FROM track t JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.genre_id"},
		{name: "average duration", q: "average track length by genre", want: "SELECT g.genre_id, g.name, AVG(t.milliseconds) FROM track t JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.genre_id"},
		{name: "longest", q: "longest track", want: "SELECT * FROM track ORDER BY milliseconds DESC, track_id LIMIT 1"},
		{name: "three hops", q: "top 5 artists by revenue", want: "SELECT ar.artist_id, ar.name, SUM(" + rev + ") AS r" + ilt + " JOIN album al ON al.album_id = t.album_id JOIN artist ar ON ar.artist_id = al.artist_id GROUP BY ar.artist_id ORDER BY r DESC, ar.artist_id LIMIT 5"},
		{name: "four hops", q: "revenue by label", want: "SELECT l.label_id, l.name, SUM(" + rev + ")" + ilt + " JOIN album al ON al.album_id = t.album_id JOIN artist ar ON ar.artist_id = al.artist_id JOIN label l ON l.label_id = ar.label_id GROUP BY l.label_id"},
		{name: "by a named artist", q: "how many albums by Kraftwerk Kids", want: "SELECT COUNT(*) FROM album WHERE artist_id = 5"},
		{name: "alias", q: "how many albums by kraftwerk", want: "SELECT COUNT(*) FROM album WHERE artist_id = 5"},
		{name: "top by count with ties", q: "top 3 genres by number of tracks", want: "SELECT g.genre_id, g.name, COUNT(*) AS n FROM track t JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.genre_id ORDER BY n DESC, g.genre_id LIMIT 3"},
		{name: "having at least", q: "customers with at least 30 invoices", want: "SELECT c.customer_id, c.first_name || ' ' || c.last_name, COUNT(*) FROM invoice i JOIN customer c ON c.customer_id = i.customer_id GROUP BY c.customer_id HAVING COUNT(*) >= 30"},
		{name: "own money column", q: "invoices over $5", want: "SELECT * FROM invoice WHERE total > 5"},
		{name: "unix seconds range", q: "revenue in 2025", want: "SELECT SUM(" + rev + ")" + ili + " WHERE " + y25},
		{name: "unix seconds grain", q: "monthly revenue this year", ordered: true, want: "SELECT strftime('%Y-%m', i.invoiced_at, 'unixepoch') AS m, SUM(" + rev + ")" + ili + " WHERE i.invoiced_at >= 1767225600 GROUP BY m ORDER BY m"},
		{name: "year column", q: "albums in 2024", want: "SELECT * FROM album WHERE release_year = 2024"},
		{name: "named table's country", q: "revenue from customers in Germany", want: "SELECT SUM(" + rev + ")" + ili + " JOIN customer c ON c.customer_id = i.customer_id WHERE c.country = 'Germany'"},
		{name: "own country", q: "number of artists from Germany", want: "SELECT COUNT(*) FROM artist WHERE country = 'Germany'"},
		{name: "billing country", q: "revenue by billing country", want: "SELECT i.billing_country, SUM(" + rev + ")" + ili + " GROUP BY i.billing_country"},
		{name: "total", q: "total revenue", want: "SELECT SUM(unit_price * quantity) FROM invoice_line"},
		{name: "last month", q: "how many invoices last month", want: "SELECT COUNT(*) FROM invoice WHERE invoiced_at >= 1790812800 AND invoiced_at < 1793491200"},
		{name: "issued verb", q: "how many invoices were issued in 2025", want: "SELECT COUNT(*) FROM invoice i WHERE " + y25},
		{name: "named artist revenue", q: "revenue for Kraftwerk Kids", want: "SELECT SUM(" + rev + ")" + ilt + " JOIN album al ON al.album_id = t.album_id WHERE al.artist_id = 5"},
		{name: "own price", q: "average unit price of tracks", want: "SELECT AVG(unit_price) FROM track"},
		{name: "two hops", q: "revenue by genre", want: "SELECT g.genre_id, g.name, SUM(" + rev + ")" + ilt + " JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.genre_id"},
		{name: "per album", q: "number of tracks per album", want: "SELECT al.album_id, al.title, COUNT(*) FROM track t JOIN album al ON al.album_id = t.album_id GROUP BY al.album_id"},
		{name: "table-prefixed country", q: "revenue by artist country", want: "SELECT ar.country, SUM(" + rev + ")" + ilt + " JOIN album al ON al.album_id = t.album_id JOIN artist ar ON ar.artist_id = al.artist_id GROUP BY ar.country"},
		{name: "count by attribute", q: "customers by country", want: "SELECT country, COUNT(*) FROM customer GROUP BY country"},
		{name: "sum of a header column per entity", q: "sum of invoice totals by customer", want: "SELECT c.customer_id, c.first_name || ' ' || c.last_name, SUM(i.total) FROM invoice i JOIN customer c ON c.customer_id = i.customer_id GROUP BY c.customer_id"},
		{name: "top customer", q: "top customer by invoice total", want: "SELECT c.customer_id, c.first_name || ' ' || c.last_name, SUM(i.total) AS s FROM invoice i JOIN customer c ON c.customer_id = i.customer_id GROUP BY c.customer_id ORDER BY s DESC, c.customer_id LIMIT 1"},
		{name: "albums per artist", q: "number of albums per artist", want: "SELECT ar.artist_id, ar.name, COUNT(*) FROM album al JOIN artist ar ON ar.artist_id = al.artist_id GROUP BY ar.artist_id"},
		{name: "synonym", q: "songs by genre", want: "SELECT g.genre_id, g.name, COUNT(*) FROM track t JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.genre_id"},
		{name: "duration comparison", q: "how many songs are longer than 300000 milliseconds", want: "SELECT COUNT(*) FROM track WHERE milliseconds > 300000"},
		{name: "quantity by genre", q: "quantity sold by genre", want: "SELECT g.genre_id, g.name, SUM(il.quantity)" + ilt + " JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.genre_id"},
		{name: "label with most artists", q: "which label has the most artists", want: "SELECT l.label_id, l.name, COUNT(*) AS n FROM artist ar JOIN label l ON l.label_id = ar.label_id GROUP BY l.label_id ORDER BY n DESC, l.label_id LIMIT 1"},
		{name: "named genre last year", q: "revenue from Rock last year", want: "SELECT SUM(" + rev + ")" + ilt + " JOIN invoice i ON i.invoice_id = il.invoice_id WHERE t.genre_id = 1 AND " + y25},
		{name: "a named view", q: "list artist sales", want: "SELECT * FROM artist_sales"},
		{name: "tables before a view", q: "sales by genre", want: "SELECT g.genre_id, g.name, SUM(" + rev + ")" + ilt + " JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.genre_id"},
		{name: "average header measure", q: "average invoice total in 2025", want: "SELECT AVG(i.total) FROM invoice i WHERE " + y25},
	}
}

func TestGenerateMusic(t *testing.T) {
	e := musicEnv(t)
	qs := musicQuestions()
	if len(qs) < 30 {
		t.Fatalf("%d music questions, want at least 30", len(qs))
	}
	e.runSet(t, New(nil), qs)
}

func TestMusicDeclines(t *testing.T) {
	e := musicEnv(t)
	g := New(nil)
	for _, q := range []string{
		"revenue from Germany",       // artist, customer, invoice and label countries
		"total track length",         // a duration is not added up
		"revenue by country",         // four countries
		"albums in March 2024",       // albums are dated by year only
		"average revenue per artist", // a per-entity average
		"label revenue",              // a table named but not used: not the total of all sales
		"total invoices in 2025",     // how many, or the sum of the column named total?
	} {
		t.Run(q, func(t *testing.T) { e.declines(t, g, q) })
	}
}

// musicDB builds the music database in a temporary directory.
func musicDB(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join("testdata", "music")
	return sqliteFile(tb, "music.db", readFile(tb, filepath.Join(dir, "schema.sql")), readFile(tb, filepath.Join(dir, "data.sql")))
}
