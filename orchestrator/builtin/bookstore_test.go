package builtin

import (
	"path/filepath"
	"testing"

	"talk2tables/internal/testfixture"
)

// bookstoreEnv builds the second-domain fixture (testdata/bookstore) in a
// temporary directory: same generator, different tables, columns and words.
func bookstoreEnv(tb testing.TB) *env {
	tb.Helper()
	dir := filepath.Join(testfixture.RepoRoot(tb), "testdata", "bookstore")
	return newEnv(tb, bookstoreDB(tb), filepath.Join(dir, "catalog.json"))
}

// bookstoreDB builds the bookstore database in a temporary directory.
func bookstoreDB(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join(testfixture.RepoRoot(tb), "testdata", "bookstore")
	return sqliteFile(tb, "bookstore.db", readFile(tb, filepath.Join(dir, "schema.sql")), readFile(tb, filepath.Join(dir, "data.sql")))
}

const (
	ib  = " FROM purchase_items i JOIN books b ON b.book_id = i.book_id"
	ipm = " FROM purchase_items i JOIN purchases p ON p.purchase_id = i.purchase_id JOIN members m ON m.member_id = p.member_id"
)

func bookstoreQuestions() []question {
	return []question{
		{name: "total revenue", q: "total revenue", want: "SELECT SUM(amount) FROM purchase_items"},
		{name: "copies sold", q: "how many copies sold", want: "SELECT SUM(copies) FROM purchase_items"},
		{name: "book alias", q: "takings for dune", want: "SELECT SUM(amount) FROM purchase_items WHERE book_id = 1"},
		{name: "alias typo", q: "copies of fondation sold this year", want: "SELECT SUM(copies) FROM purchase_items WHERE book_id = 2 AND purchased_on >= '2026-01-01'"},
		{name: "author alias", q: "revenue from asimov last 30 days", want: "SELECT SUM(amount) FROM purchase_items WHERE book_id = 2 AND purchased_on >= '2026-10-23'"},
		{name: "by genre", q: "revenue by genre", want: "SELECT b.genre, SUM(i.amount)" + ib + " GROUP BY b.genre"},
		{name: "genre filter", q: "copies sold in fantasy", want: "SELECT SUM(i.copies)" + ib + " WHERE b.genre = 'Fantasy'"},
		{name: "city prefers the measure table", q: "sales in Paris", want: "SELECT SUM(amount) FROM purchase_items WHERE city = 'Paris'"},
		{name: "member city", q: "sales for members in Paris", want: "SELECT SUM(i.amount)" + ipm + " WHERE m.city = 'Paris'"},
		{name: "count members by tier", q: "number of readers by tier", want: "SELECT tier, COUNT(*) FROM members GROUP BY tier"},
		{name: "count purchases by channel", q: "how many purchases per channel", want: "SELECT channel, COUNT(*) FROM purchases GROUP BY channel"},
		{name: "gold members revenue", q: "revenue from gold members this year", want: "SELECT SUM(i.amount)" + ipm + " WHERE m.tier = 'gold' AND i.purchased_on >= '2026-01-01'"},
		{name: "best selling book", q: "best selling book", want: "SELECT b.book_id, b.title, SUM(i.copies) AS c" + ib + " GROUP BY b.book_id ORDER BY c DESC LIMIT 1"},
		{name: "top 3 titles", q: "top 3 titles by revenue", want: "SELECT b.book_id, b.title, SUM(i.amount) AS r" + ib + " GROUP BY b.book_id ORDER BY r DESC LIMIT 3"},
		{name: "bottom genres default measure", q: "bottom 2 genres", want: "SELECT b.genre, SUM(i.amount) AS r" + ib + " GROUP BY b.genre ORDER BY r ASC LIMIT 2"},
		{name: "compare books", q: "compare dune and the hobbit copies sold last year", want: "SELECT b.book_id, b.title, SUM(i.copies)" + ib + " WHERE i.book_id IN (1, 3) AND i.purchased_on LIKE '2025-%' GROUP BY b.book_id"},
		{name: "monthly", q: "monthly revenue trend this year", ordered: true, want: "SELECT substr(purchased_on,1,7) AS m, SUM(amount) FROM purchase_items WHERE purchased_on >= '2026-01-01' GROUP BY m ORDER BY m"},
		{name: "recent purchases", q: "show the 5 most recent purchases for marlowe", want: "SELECT * FROM purchases WHERE purchase_id IN (SELECT purchase_id FROM purchase_items WHERE book_id = 6) ORDER BY purchased_on DESC, purchase_id DESC LIMIT 5"},
		{name: "list books in genre", q: "list novels in Mystery", want: "SELECT * FROM books WHERE genre = 'Mystery'"},
		{name: "average cover price", q: "average cover price by genre", want: "SELECT genre, AVG(price) FROM books GROUP BY genre"},
		{name: "per book", q: "copies sold for each book", want: "SELECT b.book_id, b.title, SUM(i.copies)" + ib + " GROUP BY b.book_id"},
		{name: "online excluded", q: "revenue excluding online purchases", want: "SELECT SUM(i.amount) FROM purchase_items i JOIN purchases p ON p.purchase_id = i.purchase_id WHERE p.channel <> 'online'"},
		{name: "members joined", q: "how many members joined last year", want: "SELECT COUNT(*) FROM members WHERE joined_on LIKE '2025-%'"},
		{name: "readers who bought", q: "how many readers bought dune", want: "SELECT COUNT(DISTINCT p.member_id) FROM purchases p JOIN purchase_items i ON i.purchase_id = p.purchase_id WHERE i.book_id = 1"},
		{name: "cover price of a book", q: "cover price of the hobbit", want: "SELECT price FROM books WHERE book_id = 3"},
		{name: "most expensive book", q: "most expensive book", want: "SELECT * FROM books ORDER BY price DESC, book_id LIMIT 1"},
		{name: "members with more than n purchases", q: "members with more than 13 purchases", want: "SELECT m.member_id, m.name, COUNT(*) FROM purchases p JOIN members m ON m.member_id = p.member_id GROUP BY m.member_id HAVING COUNT(*) > 13"},
		{name: "top members by spend", q: "top 3 customers by amount spent", want: "SELECT m.member_id, m.name, SUM(i.amount) AS r" + ipm + " GROUP BY m.member_id ORDER BY r DESC, m.member_id LIMIT 3"},
		{name: "revenue by member city", q: "revenue by member city", want: "SELECT m.city, SUM(i.amount)" + ipm + " GROUP BY m.city"},
		{name: "revenue by store city", q: "revenue by city", want: "SELECT city, SUM(amount) FROM purchase_items GROUP BY city"},
	}
}

func TestGenerateBookstore(t *testing.T) {
	e := bookstoreEnv(t)
	qs := bookstoreQuestions()
	if len(qs) < 24 {
		t.Fatalf("%d bookstore questions, want at least 24", len(qs))
	}
	e.runSet(t, New(nil), qs)
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
		"total cover price",           // a price is not added up
		"how many purchases in paris", // Paris is a member city and a store city
		"average revenue per member",  // per-entity average: ambiguous
	} {
		t.Run(q, func(t *testing.T) { e.declines(t, g, q) })
	}
}
