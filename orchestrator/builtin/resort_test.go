package builtin

import (
	"path/filepath"
	"testing"
)

// resortEnv is an UPPER_SNAKE resort group written by the tests
// (testdata/resort) with the catalog the drafter writes for it: two dates
// on reservations (booked, check in), charges below reservations, a star
// rating, countries in two tables, guests named by first and last name.
func resortEnv(tb testing.TB) *env {
	tb.Helper()
	path := resortDB(tb)
	return newEnv(tb, path, draftCatalog(tb, path))
}

// resortDB builds the resort database (testdata/resort).
func resortDB(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join("testdata", "resort")
	return sqliteFile(tb, "resort.db", readFile(tb, filepath.Join(dir, "schema.sql")), readFile(tb, filepath.Join(dir, "data.sql")))
}

const (
	rsr = " FROM RESERVATION r JOIN ROOM m ON m.ROOM_ID = r.ROOM_ID JOIN RESORT s ON s.RESORT_ID = m.RESORT_ID"
	rg  = " FROM RESERVATION r JOIN GUEST g ON g.GUEST_ID = r.GUEST_ID"
	gn  = "g.FIRST_NAME || ' ' || g.LAST_NAME"
)

func resortQuestions() []question {
	return []question{
		{name: "count", q: "how many reservations", want: "SELECT COUNT(*) FROM RESERVATION"},
		{name: "main date", q: "reservations in 2025", want: "SELECT COUNT(*) FROM RESERVATION WHERE BOOKED_AT >= '2025-01-01' AND BOOKED_AT < '2026-01-01'"},
		{name: "count guests", q: "how many guests", want: "SELECT COUNT(*) FROM GUEST"},
		{name: "guests linked by a verb", q: "how many guests stayed at Azure Bay Resort", want: "SELECT COUNT(DISTINCT r.GUEST_ID)" + rsr + " WHERE s.RESORT_ID = 1"},
		{name: "sum by entity", q: "total price by resort", want: "SELECT s.RESORT_ID, s.RESORT_NAME, SUM(r.TOTAL_PRICE)" + rsr + " GROUP BY s.RESORT_ID"},
		{name: "top persons", q: "top 5 guests by total price", want: "SELECT g.GUEST_ID, " + gn + ", SUM(r.TOTAL_PRICE) AS p" + rg + " GROUP BY g.GUEST_ID ORDER BY p DESC, g.GUEST_ID LIMIT 5"},
		{name: "average by type", q: "average nightly rate by room type", want: "SELECT t.ROOM_TYPE_ID, t.TYPE_NAME, AVG(m.NIGHTLY_RATE) FROM ROOM m JOIN ROOM_TYPE t ON t.ROOM_TYPE_ID = m.ROOM_TYPE_ID GROUP BY t.ROOM_TYPE_ID"},
		{name: "count per entity", q: "how many rooms per resort", want: "SELECT s.RESORT_ID, s.RESORT_NAME, COUNT(*) FROM ROOM m JOIN RESORT s ON s.RESORT_ID = m.RESORT_ID GROUP BY s.RESORT_ID"},
		{name: "most rows", q: "which resort has the most rooms", want: "SELECT s.RESORT_ID, s.RESORT_NAME, COUNT(*) AS n FROM ROOM m JOIN RESORT s ON s.RESORT_ID = m.RESORT_ID GROUP BY s.RESORT_ID ORDER BY n DESC, s.RESORT_ID LIMIT 1"},
		{name: "average of a per-row count", q: "average nights", want: "SELECT AVG(NIGHTS) FROM RESERVATION"},
		{name: "table word beats another table's column", q: "guests from Germany", want: "SELECT *, FIRST_NAME || ' ' || LAST_NAME FROM GUEST WHERE COUNTRY = 'Germany'"},
		{name: "count with own value", q: "how many guests from France", want: "SELECT COUNT(*) FROM GUEST WHERE COUNTRY = 'France'"},
		{name: "by status", q: "reservations by status", want: "SELECT STATUS, COUNT(*) FROM RESERVATION GROUP BY STATUS"},
		{name: "value and month", q: "cancelled reservations last month", want: "SELECT COUNT(*) FROM RESERVATION WHERE STATUS = 'cancelled' AND BOOKED_AT >= '2026-10-01' AND BOOKED_AT < '2026-11-01'"},
		{name: "most booked", q: "most booked room type", want: "SELECT t.ROOM_TYPE_ID, t.TYPE_NAME, COUNT(*) AS n FROM RESERVATION r JOIN ROOM m ON m.ROOM_ID = r.ROOM_ID JOIN ROOM_TYPE t ON t.ROOM_TYPE_ID = m.ROOM_TYPE_ID GROUP BY t.ROOM_TYPE_ID ORDER BY n DESC, t.ROOM_TYPE_ID LIMIT 1"},
		{name: "by channel this year", q: "reservations by channel this year", want: "SELECT CHANNEL, COUNT(*) FROM RESERVATION WHERE BOOKED_AT >= '2026-01-01' GROUP BY CHANNEL"},
		{name: "value of the counted rows", q: "spa charges in 2025", want: "SELECT COUNT(*) FROM CHARGE WHERE CHARGE_TYPE = 'spa' AND CHARGED_AT >= '2025-01-01' AND CHARGED_AT < '2026-01-01'"},
		{name: "average rating", q: "average star rating", want: "SELECT AVG(STAR_RATING) FROM RESORT"},
		{name: "number equality", q: "resorts with a star rating of 5", want: "SELECT * FROM RESORT WHERE STAR_RATING = 5"},
		{name: "oldest by birth date", q: "oldest guest", want: "SELECT *, FIRST_NAME || ' ' || LAST_NAME FROM GUEST WHERE BIRTH_DATE IS NOT NULL ORDER BY BIRTH_DATE, GUEST_ID LIMIT 1"},
		{name: "without a column", q: "guests without an email", want: "SELECT *, FIRST_NAME || ' ' || LAST_NAME FROM GUEST WHERE EMAIL IS NULL"},
		{name: "no column", q: "how many guests have no email", want: "SELECT COUNT(*) FROM GUEST WHERE EMAIL IS NULL"},
		{name: "first by a verb's date", q: "which resort opened first", want: "SELECT * FROM RESORT ORDER BY OPENED_ON, RESORT_ID LIMIT 1"},
		{name: "check-in verb", q: "reservations checked in last month", want: "SELECT COUNT(*) FROM RESERVATION WHERE CHECK_IN >= '2026-10-01' AND CHECK_IN < '2026-11-01'"},
		{name: "distinct through a verb's date", q: "how many guests checked in in 2025", want: "SELECT COUNT(DISTINCT GUEST_ID) FROM RESERVATION WHERE CHECK_IN >= '2025-01-01' AND CHECK_IN < '2026-01-01'"},
		{name: "named table's value in a listing", q: "reservations from guests in Germany", want: "SELECT r.*" + rg + " WHERE g.COUNTRY = 'Germany'"},
		{name: "count by attribute", q: "guests by loyalty tier", want: "SELECT LOYALTY_TIER, COUNT(*) FROM GUEST GROUP BY LOYALTY_TIER"},
		{name: "list by value", q: "platinum guests", want: "SELECT *, FIRST_NAME || ' ' || LAST_NAME FROM GUEST WHERE LOYALTY_TIER = 'platinum'"},
		{name: "average per own row", q: "average total price per reservation", want: "SELECT AVG(TOTAL_PRICE) FROM RESERVATION"},
		{name: "amount of rows", q: "total amount of charges", want: "SELECT SUM(AMOUNT) FROM CHARGE"},
		{name: "named resort last month", q: "reservations at Azure Bay Resort last month", want: "SELECT COUNT(*)" + rsr + " WHERE s.RESORT_ID = 1 AND r.BOOKED_AT >= '2026-10-01' AND r.BOOKED_AT < '2026-11-01'"},
		{name: "row comparison", q: "rooms with a nightly rate over 300", want: "SELECT * FROM ROOM WHERE NIGHTLY_RATE > 300"},
		{name: "top by average", q: "top 3 resorts by average nightly rate", want: "SELECT s.RESORT_ID, s.RESORT_NAME, AVG(m.NIGHTLY_RATE) AS a FROM ROOM m JOIN RESORT s ON s.RESORT_ID = m.RESORT_ID GROUP BY s.RESORT_ID ORDER BY a DESC, s.RESORT_ID LIMIT 3"},
		{name: "count per person", q: "reservations per guest", want: "SELECT g.GUEST_ID, " + gn + ", COUNT(*)" + rg + " GROUP BY g.GUEST_ID"},
		{name: "having", q: "guests with more than 8 reservations", want: "SELECT g.GUEST_ID, " + gn + ", COUNT(*)" + rg + " GROUP BY g.GUEST_ID HAVING COUNT(*) > 8"},
		{name: "sum in a year", q: "total price of reservations in 2025", want: "SELECT SUM(TOTAL_PRICE) FROM RESERVATION WHERE BOOKED_AT >= '2025-01-01' AND BOOKED_AT < '2026-01-01'"},
		{name: "own country in a listing", q: "resorts in Italy", want: "SELECT * FROM RESORT WHERE COUNTRY = 'Italy'"},
		{name: "most rows by attribute", q: "which country has the most guests", want: "SELECT COUNTRY, COUNT(*) AS n FROM GUEST GROUP BY COUNTRY ORDER BY n DESC, COUNTRY LIMIT 1"},
		{name: "row comparison in a count", q: "number of reservations with more than 3 nights", want: "SELECT COUNT(*) FROM RESERVATION WHERE NIGHTS > 3"},
	}
}

func TestGenerateResort(t *testing.T) {
	e := resortEnv(t)
	qs := resortQuestions()
	if len(qs) < 30 {
		t.Fatalf("%d resort questions, want at least 30", len(qs))
	}
	g := New(nil)
	for _, c := range qs {
		t.Run(c.name, func(t *testing.T) { e.checkLoose(t, g, c) })
	}
}

func TestResortDeclines(t *testing.T) {
	e := resortEnv(t)
	g := New(nil)
	for _, q := range []string{
		"top 5 resorts",                // a booking's total or its charges?
		"total charges by charge type", // their number or their amount?
		"reservations in Italy",        // a guest's or a resort's country
		"oldest resort",                // no birth date or age
		"average price per night",
	} {
		t.Run(q, func(t *testing.T) { e.declines(t, g, q) })
	}
}
