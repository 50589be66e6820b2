package builtin

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"talk2tables/internal/testfixture"
)

// bookstoreEnv builds the second-domain fixture (testdata/bookstore) in a
// temporary directory: same generator, different tables, columns and words.
func bookstoreEnv(tb testing.TB) *env {
	tb.Helper()
	dir := filepath.Join(testfixture.RepoRoot(tb), "testdata", "bookstore")
	path := filepath.Join(tb.TempDir(), "bookstore.db")
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path))
	if err != nil {
		tb.Fatalf("create %s: %v", path, err)
	}
	for _, f := range []string{"schema.sql", "data.sql"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			tb.Fatalf("read %s: %v", f, err)
		}
		if _, err := db.Exec(string(b)); err != nil {
			tb.Fatalf("run %s: %v", f, err)
		}
	}
	if err := db.Close(); err != nil {
		tb.Fatalf("close: %v", err)
	}
	return newEnv(tb, path, filepath.Join(dir, "catalog.json"))
}

func bookstoreQuestions() []question {
	const items = "purchase_items"
	return []question{
		{name: "total revenue", q: "total revenue", want: "SELECT SUM(amount) FROM " + items},
		{name: "copies sold", q: "how many copies sold", want: "SELECT SUM(copies) FROM " + items},
		{name: "book alias", q: "takings for dune", want: "SELECT SUM(amount) FROM purchase_items WHERE book_id = 1"},
		{name: "alias typo", q: "copies of fondation sold this year", want: "SELECT SUM(copies) FROM purchase_items WHERE book_id = 2 AND purchased_on >= date('now','start of year')"},
		{name: "author alias", q: "revenue from asimov last 30 days", mayBeEmpty: true, want: "SELECT SUM(amount) FROM purchase_items WHERE book_id = 2 AND purchased_on >= date('now','-30 days')"},
		{name: "by genre", q: "revenue by genre", want: "SELECT b.genre, SUM(i.amount) FROM purchase_items i JOIN books b ON b.book_id = i.book_id GROUP BY b.genre"},
		{name: "genre filter", q: "copies sold in fantasy", want: "SELECT SUM(i.copies) FROM purchase_items i JOIN books b ON b.book_id = i.book_id WHERE b.genre = 'Fantasy'"},
		{name: "city prefers measure table", q: "sales in Paris", want: "SELECT SUM(amount) FROM purchase_items WHERE city = 'Paris'"},
		{name: "member city", q: "sales for members in Paris", want: "SELECT SUM(i.amount) FROM purchase_items i JOIN purchases p ON p.purchase_id = i.purchase_id JOIN members m ON m.member_id = p.member_id WHERE m.city = 'Paris'"},
		{name: "count members by tier", q: "number of readers by tier", want: "SELECT tier, COUNT(*) FROM members GROUP BY tier"},
		{name: "count purchases by channel", q: "how many purchases per channel", want: "SELECT channel, COUNT(*) FROM purchases GROUP BY channel"},
		{name: "gold members revenue", q: "revenue from gold members this year", want: "SELECT SUM(i.amount) FROM purchase_items i JOIN purchases p ON p.purchase_id = i.purchase_id JOIN members m ON m.member_id = p.member_id WHERE m.tier = 'gold' AND i.purchased_on >= date('now','start of year')"},
		{name: "best selling book", q: "best selling book", want: "SELECT b.title, SUM(i.copies) AS c FROM purchase_items i JOIN books b ON b.book_id = i.book_id GROUP BY b.title ORDER BY c DESC LIMIT 1"},
		{name: "top 3 titles", q: "top 3 titles by revenue", want: "SELECT b.title, SUM(i.amount) AS r FROM purchase_items i JOIN books b ON b.book_id = i.book_id GROUP BY b.title ORDER BY r DESC LIMIT 3"},
		{name: "bottom genres default measure", q: "bottom 2 genres", want: "SELECT b.genre, SUM(i.amount) AS r FROM purchase_items i JOIN books b ON b.book_id = i.book_id GROUP BY b.genre ORDER BY r ASC LIMIT 2"},
		{name: "compare books", q: "compare dune and the hobbit copies sold last year", want: "SELECT b.title, SUM(i.copies) FROM purchase_items i JOIN books b ON b.book_id = i.book_id WHERE i.book_id IN (1, 3) AND i.purchased_on BETWEEN date('now','start of year','-1 year') AND date('now','start of year','-1 day') GROUP BY b.title"},
		{name: "monthly", q: "monthly revenue trend this year", ordered: true, want: "SELECT substr(purchased_on,1,7) AS m, SUM(amount) FROM purchase_items WHERE purchased_on >= date('now','start of year') GROUP BY m ORDER BY m"},
		{name: "recent purchases", q: "show the 5 most recent purchases for marlowe", want: "SELECT DISTINCT p.purchase_id, p.member_id, p.purchased_on, p.channel FROM purchases p JOIN purchase_items i ON i.purchase_id = p.purchase_id WHERE i.book_id = 6 ORDER BY p.purchased_on DESC, p.purchase_id DESC LIMIT 5"},
		{name: "list books in genre", q: "list novels in Mystery", want: "SELECT book_id, title, genre, price FROM books WHERE genre = 'Mystery' ORDER BY book_id LIMIT 100"},
		{name: "average cover price", q: "average cover price by genre", want: "SELECT genre, AVG(price) FROM books GROUP BY genre"},
		{name: "per book", q: "copies sold for each book", want: "SELECT b.title, SUM(i.copies) FROM purchase_items i JOIN books b ON b.book_id = i.book_id GROUP BY b.title"},
		{name: "online excluded", q: "revenue excluding online purchases", want: "SELECT SUM(i.amount) FROM purchase_items i JOIN purchases p ON p.purchase_id = i.purchase_id WHERE p.channel <> 'online'"},
		{name: "members joined", q: "how many members joined last month", mayBeEmpty: true, want: "SELECT COUNT(*) FROM members WHERE joined_on >= date('now','start of month','-1 month') AND joined_on < date('now','start of month')"},
		{name: "readers who bought", q: "how many readers bought dune", want: "SELECT COUNT(DISTINCT p.member_id) FROM purchases p JOIN purchase_items i ON i.purchase_id = p.purchase_id WHERE i.book_id = 1"},
	}
}

func TestGenerateBookstore(t *testing.T) {
	e := bookstoreEnv(t)
	g := New(nil)
	qs := bookstoreQuestions()
	if len(qs) < 15 {
		t.Fatalf("%d bookstore questions, want at least 15", len(qs))
	}
	for _, c := range qs {
		t.Run(c.name, func(t *testing.T) { e.check(t, g, c) })
	}
}

func TestBookstoreDeclines(t *testing.T) {
	e := bookstoreEnv(t)
	g := New(nil)
	for _, q := range []string{
		"revenue for abracadabra", // a product of the other catalog
		"revenue by region",       // a term of the other catalog
		"delete all members",
		"which genre will sell best next year",
		"copies sold for the silmarillion",
	} {
		t.Run(q, func(t *testing.T) { e.declines(t, g, q) })
	}
}
