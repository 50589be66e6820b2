// Package names reads the meaning a database identifier's words suggest:
// whether a column is named like a key, a name, free text, a date, a flag or
// a measure, and for measures whether sums are meaningful. The rules are
// English business vocabulary, never the names of any particular database.
// Callers pass the lowercase words of an identifier (catalog.IdentifierWords).
package names

import (
	"slices"
	"strings"
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

func last(toks []string) string {
	if len(toks) == 0 {
		return ""
	}
	return toks[len(toks)-1]
}

func hasAny(toks []string, words map[string]bool) string {
	for _, t := range toks {
		if words[t] {
			return t
		}
	}
	return ""
}

// Join reads glued words too: "firstname", "lastname", "postcode".
func joined(toks []string) string { return strings.Join(toks, "") }

// Head is the words before an "of" that names whose they are
// ("first_name_of_guest" → first, name): what the identifier is.
func Head(toks []string) []string {
	if i := slices.Index(toks, "of"); i > 0 && i < len(toks)-1 {
		return toks[:i]
	}
	return toks
}

var (
	idSuffix = set("id", "key", "code", "uuid", "guid", "sku", "isbn", "ean", "upc", "gtin", "iban", "pk", "fk", "ref")
	// numberSuffix marks "invoice no", "order number": identifiers when the
	// values are many distinct integers (the caller checks the data).
	numberSuffix = set("no", "number", "num", "nr", "nbr")
	postal       = set("zip", "zipcode", "postal", "postcode", "postalcode", "phone", "fax", "mobile", "telephone", "tel", "cell")
)

// Identifier reports whether the words name a key or a code ("CustomerId",
// "country_code", "sku", "postal code"), with the reason.
func Identifier(toks []string) (bool, string) {
	switch l := last(toks); {
	case l == "id" || l == "key" || l == "uuid" || l == "guid" || l == "pk" || l == "fk":
		return true, "named like a key"
	case idSuffix[l]:
		return true, "named like a code"
	case hasAny(toks, postal) != "":
		return true, "a " + hasAny(toks, postal) + " number or code: digits, not a quantity"
	}
	return false, ""
}

// NumberLike reports whether the words end in no/number/num ("InvoiceNo",
// "order_number"): an identifier when its values are many distinct integers.
func NumberLike(toks []string) bool {
	return numberSuffix[last(toks)] && len(toks) > 1 && !slices.Contains(toks, "of")
}

// Phone reports a phone or fax number.
func Phone(toks []string) bool {
	return hasAny(toks, set("phone", "fax", "mobile", "telephone", "tel", "cell")) != ""
}

var labelWords = set("name", "nm", "lbl", "serial", "title", "label", "caption", "headline", "fullname", "displayname", "username", "nickname")

// Label reports whether the words name a row in words ("Name", "product_name",
// "Title", "full name"), not a first or last name on its own.
func Label(toks []string) bool {
	toks = Head(toks)
	if GivenName(toks) || FamilyName(toks) {
		return false
	}
	l := last(toks)
	if l == "name" && len(toks) >= 2 && set("file", "path", "host", "table", "column", "schema", "domain", "server", "user")[toks[len(toks)-2]] {
		return false
	}
	return labelWords[l] || strings.HasSuffix(l, "name") && len(l) > 4 && !set("surname", "firstname", "lastname")[l]
}

// GivenName reports "Forename", "given_name", "patron_first_name", "fname".
func GivenName(toks []string) bool {
	toks = Head(toks)
	j := joined(toks)
	return strings.HasSuffix(j, "firstname") || strings.HasSuffix(j, "givenname") || strings.HasSuffix(j, "forename") ||
		strings.HasSuffix(j, "firstnm") || last(toks) == "fname" || last(toks) == "fnm" // abbreviated: "nm" for name, "fname", "fnm"
}

// FamilyName reports "Surname", "family_name", "patron_last_name", "lname".
func FamilyName(toks []string) bool {
	toks = Head(toks)
	j := joined(toks)
	return strings.HasSuffix(j, "lastname") || strings.HasSuffix(j, "surname") || strings.HasSuffix(j, "familyname") ||
		strings.HasSuffix(j, "lastnm") || last(toks) == "lname" || last(toks) == "lnm"
}

var textWords = set("email", "mail", "url", "uri", "website", "web", "link", "homepage", "address", "street", "description", "desc",
	"comment", "comments", "note", "notes", "remark", "remarks", "body", "content", "text", "message", "summary", "bio",
	"biography", "path", "image", "photo", "picture", "avatar", "html", "xml", "json", "hash", "password", "token", "signature",
	"instructions", "details", "memo", "abstract", "feedback", "review", "answer", "question")

// Text reports free text by name: emails, URLs, addresses, descriptions,
// notes. Phone numbers stored as text are text too.
func Text(toks []string) (bool, string) {
	if w := hasAny(toks, textWords); w != "" {
		if w == "address" && last(toks) != "address" && len(toks) > 1 && numberSuffix[last(toks)] {
			return false, ""
		}
		return true, "named like free text (" + w + ")"
	}
	if Phone(toks) {
		return true, "a phone number: text, not a quantity"
	}
	return false, ""
}

var dateWords = set("date", "time", "timestamp", "datetime", "day", "dt", "ts", "when", "birthday", "dob", "epoch")

// DateLike reports words that name a date or time ("InvoiceDate",
// "created_at", "updated_on", "ts").
func DateLike(toks []string) bool {
	l := last(toks)
	switch {
	case dateWords[l]:
		return true
	case (l == "at" || l == "on") && len(toks) > 1:
		return true
	case strings.HasSuffix(l, "date") || strings.HasSuffix(l, "time") && !strings.HasSuffix(l, "lifetime") && l != "overtime":
		return true
	}
	return false
}

// Year reports a year column ("year", "release_year", "fiscal yr").
func Year(toks []string) bool {
	l := last(toks)
	return l == "year" || l == "yr" || l == "yyyy"
}

// secondaryDates are dates of other events than a row's own: a table's main
// date is not one of them unless it has no other.
var secondaryDates = set("ship", "shipped", "shipping", "required", "birth", "birthday", "dob", "hire", "hired", "due",
	"delivery", "delivered", "expiry", "expiration", "expires", "modified", "updated", "update", "changed", "deleted",
	"last", "end", "closed", "cancelled", "canceled", "valid", "until", "termination", "terminated", "login", "seen")

// SecondaryDate reports a date of another event than the row's own (ship,
// required, birth, hire, due, modified ...).
func SecondaryDate(toks []string) bool { return hasAny(toks, secondaryDates) != "" }

// primaryDates name the event a row records.
var primaryDates = set("order", "ordered", "invoice", "invoiced", "created", "creation", "transaction", "purchase",
	"purchased", "payment", "paid", "sale", "sold", "booking", "booked", "event", "posted", "placed", "issue", "issued",
	"start", "started", "registration", "registered", "signup", "joined", "opened", "recorded", "entry")

// PrimaryDate reports a date named for the event a row records (order,
// invoice, created, transaction ...).
func PrimaryDate(toks []string) bool { return hasAny(toks, primaryDates) != "" }

var flagWords = set("is", "has", "can", "should", "was", "active", "enabled", "disabled", "deleted", "flag", "discontinued",
	"archived", "visible", "hidden", "verified", "valid", "approved", "paid", "completed", "published", "blocked")

// FlagLike reports words that name a yes/no fact ("is_overdue", "Discontinued").
func FlagLike(toks []string) bool {
	return len(toks) > 0 && (flagWords[toks[0]] || flagWords[last(toks)])
}

// Measure is what a numeric column's words say about aggregating it.
type Measure struct {
	Type  string // "additive" or "non_additive"
	Unit  string // money, quantity, count, rate, percent, duration, age, score, size, coordinate, ...
	Why   string
	Known bool // false: nothing in the words decided it (Type is non_additive)
}

var (
	moneyWords = set("price", "cost", "amount", "amt", "total", "revenue", "sales", "fee", "fees", "tax", "freight", "salary",
		"balance", "payment", "payments", "charge", "charges", "subtotal", "income", "profit", "spend", "spent", "budget",
		"wage", "wages", "paid", "refund", "commission", "earnings", "turnover", "discount", "shipping", "value", "msrp",
		"premium", "bonus", "debit", "credit", "tip", "tips", "gross", "net", "pay")
	averageWords = set("avg", "average", "mean", "median", "per")
	rateWords    = set("rate", "ratio", "pct", "percent", "percentage", "share", "margin", "probability", "likelihood", "factor")
	scoreWords   = set("score", "rating", "rank", "stars", "grade", "level", "priority", "popularity")
	coordWords   = set("latitude", "longitude", "lat", "lon", "lng", "long", "altitude", "elevation", "x", "y", "z")
	physWords    = set("temperature", "temp", "weight", "height", "width", "length", "depth", "speed", "pressure",
		"humidity", "bpm", "tempo", "capacity", "version", "sequence", "seq", "position", "order", "sort", "index")
	durationWords = set("duration", "milliseconds", "millis", "ms", "seconds", "secs", "sec", "minutes", "mins", "hours", "hrs",
		"runtime", "elapsed", "latency", "length")
	totalWords    = set("total", "subtotal", "sum", "gross", "net", "cumulative", "extended")
	additiveMoney = set("amount", "amt", "revenue", "sales", "fee", "fees", "tax", "freight", "payment", "payments",
		"charge", "charges", "subtotal", "income", "profit", "spend", "spent", "refund", "commission", "earnings",
		"turnover", "shipping", "debit", "credit", "tip", "tips", "premium", "bonus", "wage", "wages", "salary", "pay")
	quantityWords = set("quantity", "qty", "units", "count", "cnt", "items", "pieces", "pcs", "volume", "clicks", "views",
		"visits", "downloads", "impressions", "sessions", "orders", "bytes", "size", "kb", "mb", "gb", "plays",
		"installs", "stock", "inventory", "seats", "tickets", "copies", "hits", "calls", "attendees", "guests")
)

// totalUnit is the unit of a total: what else the words name ("total
// weight kg" → weight, "total fees" → money, "total items" → quantity), and
// money for a bare total ("Total", "grand total").
func totalUnit(toks []string) string {
	var rest []string
	for _, t := range toks {
		if !totalWords[t] && t != "grand" {
			rest = append(rest, t)
		}
	}
	switch {
	case len(rest) == 0:
		return "money"
	case hasAny(rest, quantityWords) != "":
		return "quantity"
	case Money(rest):
		return "money"
	case hasAny(rest, durationWords) != "":
		return "duration"
	case hasAny(rest, physWords) != "":
		return hasAny(rest, physWords)
	}
	return ""
}

// Money reports whether the words name money (price, cost, amount, total,
// revenue, sales, fee, tax, freight, salary, balance, payment ...).
func Money(toks []string) bool { return hasAny(toks, moneyWords) != "" }

// NamedMeasure reads a numeric column's words: whether sums are meaningful
// and the unit. fact says whether the column's table records events (where a
// bare "cost" is a line's cost, not a unit cost). Discounts are rates here;
// a caller with data changes that when the values are not 0..1 fractions.
func NamedMeasure(toks []string, fact bool) Measure {
	money := Money(toks)
	unit := func(u string) string {
		if money {
			return "money"
		}
		return u
	}
	switch {
	case hasAny(toks, averageWords) != "":
		return Measure{"non_additive", unit(""), "an average or per-unit figure: averaged, never summed", true}
	case hasAny(toks, rateWords) != "":
		u := "rate"
		if w := hasAny(toks, set("pct", "percent", "percentage")); w != "" {
			u = "percent"
		}
		return Measure{"non_additive", u, "a " + u + ": averaged, never summed", true}
	case slices.Contains(toks, "unit") && money:
		return Measure{"non_additive", "money", "a price per unit: averaged, never summed", true}
	case hasAny(toks, totalWords) != "":
		return Measure{"additive", totalUnit(toks), "a total: sums are meaningful", true}
	case slices.Contains(toks, "discount"):
		return Measure{"non_additive", "rate", "a discount rate: averaged, never summed", true}
	case hasAny(toks, set("price", "msrp")) != "":
		return Measure{"non_additive", "money", "a price: averaged, never summed", true}
	case slices.Contains(toks, "cost") && fact:
		return Measure{"additive", "money", "a cost recorded per event: sums are meaningful", true}
	case slices.Contains(toks, "cost"):
		return Measure{"non_additive", "money", "a cost per item: averaged, never summed (switch to additive if sums mean something)", true}
	case slices.Contains(toks, "balance"):
		return Measure{"non_additive", "money", "a balance is a snapshot: summing it over time double counts (switch to additive to total balances at one time)", true}
	case hasAny(toks, additiveMoney) != "":
		return Measure{"additive", "money", "an amount of money: sums are meaningful", true}
	case hasAny(toks, quantityWords) != "":
		u := "quantity"
		if hasAny(toks, set("bytes", "size", "kb", "mb", "gb")) != "" {
			u = "size"
		} else if hasAny(toks, set("count", "cnt", "clicks", "views", "visits", "downloads", "impressions", "plays", "hits", "calls")) != "" {
			u = "count"
		}
		return Measure{"additive", u, "a " + u + ": sums are meaningful", true}
	case hasAny(toks, durationWords) != "":
		return Measure{"non_additive", "duration", "a duration: averaged, never summed (switch to additive if total time is meaningful)", true}
	case slices.Contains(toks, "age"):
		return Measure{"non_additive", "age", "an age: averaged, never summed", true}
	case hasAny(toks, scoreWords) != "":
		return Measure{"non_additive", "score", "a score or rating: averaged, never summed", true}
	case hasAny(toks, coordWords) != "":
		return Measure{"non_additive", "coordinate", "a coordinate: never summed", true}
	case hasAny(toks, physWords) != "":
		return Measure{"non_additive", hasAny(toks, physWords), "a physical or ordinal reading: averaged, never summed", true}
	case Year(toks):
		return Measure{"non_additive", "year", "a year: never summed", true}
	case money:
		return Measure{"non_additive", "money", "money, but not named like an amount or a total: averaged (switch to additive if sums are meaningful)", true}
	}
	return Measure{Type: "non_additive", Why: "not named like an amount, total or quantity: averaged only; switch to additive if sums are meaningful"}
}

// SalesWords are the business words that, alone, mean the one amount of
// money sold ("sales this month" sums it): the catalog drafter gives them to
// the one measure that clearly is a sales amount, and a version-1 catalog's
// conversion to the one column its terms call a sales or revenue amount.
func SalesWords() []string { return []string{"sales", "revenue"} }
