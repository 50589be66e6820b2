package builtin

import (
	"slices"
	"strings"

	"talk2tables/catalog"
)

// What identifiers suggest when the catalog is silent. These are English
// words about kinds of data, not names of any particular database.
var (
	idWords       = setOf("id", "code", "key", "uuid", "guid", "sku", "ean", "isbn", "upc", "zip", "postcode", "postal")
	flagPrefixes  = setOf("is", "has", "can", "should", "was", "allow", "allows", "enabled", "active")
	dateWords     = setOf("date", "time", "timestamp", "datetime", "birthday", "dob")
	dateSuffixes  = setOf("at", "on")
	labelWords    = setOf("name", "title", "label", "forename", "surname", "fname", "lname", "fnm", "lnm", "nm", "lbl")
	textWords     = setOf("email", "mail", "phone", "fax", "address", "street", "url", "website", "web", "description", "comment", "comments", "note", "notes", "remark", "remarks", "text", "body", "message", "password", "hash", "image", "photo", "picture", "path", "file", "line", "lines", "bio", "summary", "content", "html", "json", "xml")
	nonAdditive   = setOf("price", "rate", "ratio", "percent", "percentage", "pct", "discount", "avg", "average", "mean", "age", "score", "rating", "latitude", "longitude", "lat", "lng", "lon", "temperature", "temp", "margin", "milliseconds", "millis", "ms", "seconds", "minutes", "hours", "duration", "length", "runtime", "balance", "level", "weight", "height", "width", "depth", "size", "bytes", "rank", "position", "sequence", "seq", "version", "stars", "grade")
	moneyWords    = setOf("price", "cost", "amount", "total", "revenue", "sales", "salary", "fee", "fees", "charge", "charges", "freight", "balance", "paid", "payment", "payments", "spend", "income", "profit", "tax", "subtotal", "wage", "wages", "budget", "credit", "debit", "turnover")
	quantityWords = setOf("quantity", "qty", "units", "count", "stock", "pieces", "items")
	durationWords = setOf("milliseconds", "millis", "seconds", "minutes", "hours", "duration", "length", "runtime")
	sizeWords     = setOf("bytes", "size", "kb", "mb", "gb")
	weightWords   = setOf("weight", "kg", "grams", "lbs", "pounds")
	ageWords      = setOf("birth", "birthdate", "birthday", "dob")
)

func anyIn(words []string, set map[string]bool) bool {
	for _, w := range words {
		if set[w] {
			return true
		}
	}
	return false
}

// inferColumns gives every column the catalog did not describe a kind
// (and measure type, unit, date format) from its name and type.
func (m *model) inferColumns() {
	for _, t := range m.tables {
		for _, c := range t.cols {
			if c.kind == "" {
				c.inferred = true
				c.inferKind()
			}
			if c.unit == "" && (c.kind == catalog.KindMeasure || c.kind == catalog.KindDate) {
				c.unit = inferUnit(catalog.IdentifierWords(c.name), c.kind)
			}
			if c.kind == catalog.KindDate && c.dateFmt == "" && !c.numeric {
				c.dateFmt = catalog.DateTimeISO
				if strings.Contains(c.typ, "DATE") && !strings.Contains(c.typ, "TIME") {
					c.dateFmt = catalog.DateISO
				}
			}
		}
	}
}

func (c *column) inferKind() {
	ws := catalog.IdentifierWords(c.name)
	if c.typ == "" && c.t.view && (anyIn(ws, moneyWords) || anyIn(ws, quantityWords) || anyIn(ws, setOf("sum", "avg", "average", "total", "count", "number", "num"))) {
		c.numeric = true // a view's computed column: no declared type
	}
	last := ""
	if len(ws) > 0 {
		last = ws[len(ws)-1]
	}
	textual := !c.numeric && !c.boolean && !c.dateType
	switch {
	case c.pk || c.fk != nil || idWords[last]:
		c.kind = catalog.KindIdentifier
	case c.boolean || len(ws) > 1 && flagPrefixes[ws[0]] || textual && yesNoValues(c.values):
		c.kind = catalog.KindFlag
	case c.dateType || textual && (anyIn(ws, dateWords) || len(ws) > 1 && dateSuffixes[last]):
		c.kind = catalog.KindDate
	case c.numeric && (anyIn(ws, dateWords) || len(ws) > 1 && dateSuffixes[last]):
		// a number that is a date (unix seconds or milliseconds?): its
		// format is unknown until a catalog says, so it is never summed
		// and never compared with dates
		c.kind = catalog.KindDate
	case c.numeric && len(ws) > 0 && (last == "year" || last == "month"):
		c.kind = catalog.KindAttribute
	case c.numeric:
		c.kind = catalog.KindMeasure
		c.measure = catalog.MeasureAdditive
		if anyIn(ws, nonAdditive) {
			c.measure = catalog.MeasureNonAdditive
		}
	case anyIn(ws, labelWords) && !anyIn(ws, textWords), textual && c.namesItsTable(ws),
		textual && len(ws) == 1 && len(ws[0]) > 6 && strings.HasSuffix(ws[0], "name") && !surnameWords[ws[0]]:
		// "donorname" run together: a name
		c.kind = catalog.KindLabel
	case len(c.values) > 0:
		c.kind = catalog.KindAttribute
	case anyIn(ws, textWords):
		c.kind = catalog.KindText
	default:
		c.kind = catalog.KindAttribute
	}
}

// surnameWords end in "name" and are one part of a person's name.
var surnameWords = setOf("surname", "lastname", "firstname", "forename", "nickname", "username", "filename", "hostname")

// namesItsTable: the column is called by its table's noun ("Activity" in
// Activities, "kiosk" in kiosk): its values name the rows.
func (c *column) namesItsTable(ws []string) bool {
	tw := catalog.IdentifierWords(c.t.singular())
	return len(ws) > 0 && slices.Equal(ws, tw)
}

func inferUnit(ws []string, kind string) string {
	switch {
	case kind == catalog.KindDate:
		if anyIn(ws, ageWords) {
			return unitAge
		}
		return ""
	case anyIn(ws, durationWords):
		return unitDuration
	case anyIn(ws, sizeWords):
		return unitSize
	case anyIn(ws, weightWords):
		return unitWeight
	case anyIn(ws, moneyWords):
		return unitMoney
	case anyIn(ws, quantityWords):
		return unitQuantity
	}
	return ""
}

// inferTables fills each table's key, label, date column and role where
// the catalog left them out.
func (m *model) inferTables() {
	for _, t := range m.tables {
		if t.key == nil {
			t.key = soleKey(t)
		}
		if len(t.label) > 0 && t.described {
			// a catalog label that is not what the names suggest (a
			// person's job "Title" rather than Forename Surname): show
			// both, so the row is recognisable either way
			if guess := inferLabelFrom(t); len(guess) > 0 && !slices.Equal(guess, t.label) {
				t.nameCols = guess
			}
		}
		if len(t.label) == 0 && !t.described {
			t.label = inferLabel(t)
			// other name-like columns are attributes ("Title" of a person)
			for _, c := range t.cols {
				if c.inferred && c.kind == catalog.KindLabel && !containsCol(t.label, c) {
					c.kind = catalog.KindAttribute
				}
			}
		}
		if len(t.nameCols) == 0 && len(t.label) == 1 {
			t.alsoNamed = secondName(t)
		}
		if t.date == nil && !(t.described && m.catalog) {
			t.date = inferDate(t)
		}
		if t.role == "" {
			t.role = inferRole(t)
		}
		if t.view {
			t.role = catalog.RoleView
		}
	}
}

// secondName is the one other "<word> name" column of a table labelled by
// a "<word> name" (a formal and a common name): both name each row, and
// a reader may know it by either. Not a person's parts of a name, and
// not a name many rows share (an attribute).
func secondName(t *table) *column {
	qualified := func(c *column) bool {
		ws := catalog.IdentifierWords(c.name)
		return len(ws) == 2 && ws[1] == "name" && !personNameParts[ws[0]]
	}
	l := t.label[0]
	if !qualified(l) || slices.Contains(catalog.IdentifierWords(t.singular()), catalog.IdentifierWords(l.name)[0]) {
		return nil // "party_name" of parties is the name; a leader_name beside it is another's
	}
	var found *column
	for _, c := range t.cols {
		if c == l || c.numeric || c.isKey() || !qualified(c) || c.kind == catalog.KindAttribute {
			continue
		}
		if found != nil {
			return nil
		}
		found = c
	}
	if found == nil || !nameKinds[catalog.IdentifierWords(l.name)[0]] && !nameKinds[catalog.IdentifierWords(found.name)[0]] {
		return nil // a company name beside a contact name: someone else's
	}
	return found
}

// nameKinds say which of a thing's several names a column holds.
var nameKinds = setOf("common", "latin", "scientific", "botanical", "formal", "official", "local", "english", "vernacular",
	"trade", "legal", "popular", "alternative", "alt", "native", "short", "long", "registered", "brand", "generic")

var personNameParts = setOf("first", "last", "given", "family", "middle", "full", "display", "user", "file", "sur", "fore", "maiden", "nick")

func inferLabel(t *table) []*column {
	var labels []*column
	for _, c := range t.cols {
		if c.kind == catalog.KindLabel {
			labels = append(labels, c)
		}
	}
	return pickLabel(t, labels)
}

// inferLabelFrom guesses a label from the text columns' names alone,
// whatever their catalog kind.
func inferLabelFrom(t *table) []*column {
	var labels []*column
	for _, c := range t.cols {
		ws := catalog.IdentifierWords(c.name)
		if !c.numeric && !c.boolean && !c.dateType && !c.isKey() && anyIn(ws, labelWords) && !anyIn(ws, textWords) {
			labels = append(labels, c)
		}
	}
	if len(labels) <= 1 {
		return nil // a lone name-like column: the catalog's label is as good
	}
	return pickLabel(t, labels)
}

// ofHead is the words before an "of" that says whose they are
// ("first_name_of_guest" → first, name).
func ofHead(ws []string) []string {
	if i := slices.Index(ws, "of"); i > 0 && i < len(ws)-1 {
		return ws[:i]
	}
	return ws
}

func pickLabel(t *table, labels []*column) []*column {
	if len(labels) <= 1 {
		return labels
	}
	tw := catalog.IdentifierWords(t.singular())
	var first, lastName *column
	for _, c := range labels {
		ws := ofHead(catalog.IdentifierWords(c.name))
		switch strings.Join(ws, " ") {
		case "first name", "given name", "forename", "fname", "fnm", "first", "first nm":
			first = c
		case "last name", "family name", "surname", "lname", "lnm", "last", "last nm":
			lastName = c
		}
	}
	if first != nil && lastName != nil {
		// a person: Forename Surname (a "Title" here is a job title)
		return []*column{first, lastName}
	}
	for _, c := range labels {
		if ws := ofHead(catalog.IdentifierWords(c.name)); len(ws) == 2 && ws[1] == "name" && (ws[0] == "full" || ws[0] == "display") {
			// a person's whole name (a "Title" beside it is Dr or Mr)
			return []*column{c}
		}
	}
	for _, c := range labels {
		ws := ofHead(catalog.IdentifierWords(c.name))
		head := ws[len(ws)-1]
		switch {
		case len(ws) == 1 && (head == "name" || head == "title"):
			return []*column{c}
		case (head == "name" || head == "title") && isSuffix(ws[:len(ws)-1], tw):
			// "GenreName" in [Book Genre], "cellar_name" in cellars
			return []*column{c}
		}
	}
	for _, c := range labels {
		ws := catalog.IdentifierWords(c.name)
		if len(ws) == 2 && ws[1] == "name" && ws[0] == "company" {
			return []*column{c}
		}
	}
	return nil
}

// isPrefixOf reports whether the word(s) a start a word of b: "ship"
// in [shipment].
func isPrefixOf(a, b []string) bool {
	if len(a) != 1 || len(b) == 0 {
		return false
	}
	return len(a[0]) >= 3 && strings.HasPrefix(b[len(b)-1], a[0])
}

// isSuffix reports whether a (non-empty) ends b: [category] ends
// [product, category].
func isSuffix(a, b []string) bool {
	if len(a) == 0 || len(a) > len(b) {
		return false
	}
	return slices.Equal(a, b[len(b)-len(a):])
}

func inferDate(t *table) *column {
	var dates []*column
	for _, c := range t.cols {
		if c.kind == catalog.KindDate && c.unit != unitAge && (!c.numeric || numericDate(c.dateFmt)) {
			dates = append(dates, c)
		}
	}
	if len(dates) == 1 {
		return dates[0]
	}
	tw := catalog.IdentifierWords(t.singular())
	for _, c := range dates {
		ws := catalog.IdentifierWords(c.name)
		// "date", "LoanDate" in LibraryLoan, "tasting_date" in tastings
		if len(ws) == 1 && ws[0] == "date" || ws[len(ws)-1] == "date" && (isSuffix(ws[:len(ws)-1], tw) || isPrefixOf(ws[:len(ws)-1], tw)) {
			return c
		}
	}
	return nil
}

func inferRole(t *table) string {
	if t.view {
		return catalog.RoleView
	}
	var measures, others int
	for _, c := range t.cols {
		switch {
		case c.kind == catalog.KindMeasure:
			measures++
		case c.isKey():
		default:
			others++
		}
	}
	switch {
	case len(t.out) >= 2 && measures == 0 && others == 0:
		return catalog.RoleBridge
	case len(t.out) > 0 && (measures > 0 || t.date != nil):
		return catalog.RoleFact
	}
	return catalog.RoleDimension
}
