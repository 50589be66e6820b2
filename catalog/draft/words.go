package draft

import (
	"slices"
	"strings"

	"talk2tables/catalog"
)

// genericHeads are last words too vague to stand for a column alone.
var genericHeads = map[string]bool{"id": true, "key": true, "code": true, "date": true, "time": true, "timestamp": true,
	"at": true, "on": true, "name": true, "number": true, "no": true, "num": true, "nr": true, "value": true, "flag": true,
	"type": true, "by": true, "to": true, "from": true, "of": true, "is": true, "has": true, "text": true, "info": true,
	"data": true, "field": true, "col": true, "ts": true, "dt": true, "yn": true, "count": true, "cnt": true}

// relationWords make a last word a denominator or an object ("quantity per
// unit", "number of seats"), not the column's head noun.
var relationWords = map[string]bool{"per": true, "of": true, "by": true, "to": true, "from": true, "in": true, "for": true}

// viewPrefixes are naming conventions of views, not words ("v_sales").
var viewPrefixes = map[string]bool{"v": true, "vw": true, "view": true}

// words names every table and column: the identifier's words, the table in
// plural and singular, a primary key after its table ("customer id"), a
// label also after its table ("artist name"), and a column's head noun
// when it is meaningful and unique in its table ("billing country" →
// "country"). Foreign keys get no words: they are named by their target.
func (d *drafter) words() {
	for _, t := range d.tables {
		name := t.key
		if ws := catalog.IdentifierWords(name); t.view() && len(ws) > 1 && viewPrefixes[ws[0]] {
			name = strings.Join(ws[1:], "_")
		}
		t.out.Words = tableWords(name)
		if ws := d.seg.TableWords(name); len(ws) > len(catalog.IdentifierWords(name)) {
			// "donationline": what people call donation lines
			for _, w := range tableWords(strings.Join(ws, "_")) {
				if !slices.Contains(t.out.Words, w) {
					t.out.Words = append(t.out.Words, w)
				}
			}
		}
		if ws := catalog.IdentifierWords(name); len(ws) > 1 && (recordHeads[catalog.Singular(ws[len(ws)-1])] || soldOneEach(t, ws)) &&
			!d.tableNamed(strings.Join(ws[:len(ws)-1], "_")) {
			// "CrashReports", "visit_log": what people call the crashes
			t.out.Words = append(t.out.Words, tableWords(strings.Join(ws[:len(ws)-1], "_"))...)
		}
		used := map[string]bool{}
		heads := map[string]int{}
		for _, c := range t.cols {
			if len(c.toks) > 1 {
				heads[c.toks[len(c.toks)-1]]++
			}
		}
		add := func(c *colDraft, w string) {
			w = strings.Join(strings.Fields(w), " ")
			if w == "" || used[w] {
				return
			}
			used[w] = true
			c.out.Words = append(c.out.Words, w)
		}
		// Full phrases first, so no head noun takes a word another column is named by.
		for _, c := range t.cols {
			c.out.Words = []string{}
			switch {
			case c.out.References != "" && c.out.Kind == catalog.KindIdentifier && !c.src.PrimaryKey:
			case c.out.Kind == catalog.KindIdentifier && len(c.toks) == 1 && (c.toks[0] == "id" || c.toks[0] == "key"):
				add(c, t.singular()+" "+c.toks[0])
			default:
				add(c, strings.Join(c.toks, " "))
			}
		}
		for _, c := range t.cols {
			phrase := strings.Join(c.toks, " ")
			if c.out.Kind == catalog.KindLabel && len(t.out.Label) == 1 && (phrase == "name" || phrase == "title") {
				add(c, t.singular()+" "+phrase)
			}
			if n := unitSuffix(c.toks); n > 0 && c.out.Kind == catalog.KindMeasure {
				// "AreaM2", "span_mm": the area, the span
				add(c, strings.Join(c.toks[:len(c.toks)-n], " "))
			}
			if len(c.toks) > 1 && c.out.Kind != catalog.KindIdentifier && !anyToken(c.toks, relationWords) {
				head := c.toks[len(c.toks)-1]
				if boundWords[c.toks[0]] && d.tableNamed(head) {
					// not for "max_riders" beside a riders table: "riders"
					// are its rows, the most allowed is no rider
					continue
				}
				if !genericHeads[head] && heads[head] == 1 && len(head) > 2 && !isDigits(head) {
					add(c, head)
				}
			}
		}
		// A measure named by its unit ("Milliseconds", "Bytes") is what people
		// call its length or size, when it is the table's only one.
		units := map[string]int{}
		for _, c := range t.cols {
			if c.out.Kind == catalog.KindMeasure {
				units[c.out.Unit]++
			}
		}
		for _, c := range t.cols {
			if c.out.Kind != catalog.KindMeasure || units[c.out.Unit] != 1 {
				continue
			}
			for _, w := range unitWords[c.out.Unit] {
				add(c, w)
				add(c, t.singular()+" "+w)
			}
		}
	}
}

// boundWords open a column's name that is a bound or a summary of what its
// head names ("min_stay_nights", "max_riders", "avg_wait").
var boundWords = map[string]bool{"min": true, "max": true, "minimum": true, "maximum": true, "avg": true, "average": true, "mean": true}

// recordHeads are last words of a table's name that say its rows record
// something ("fault reports", "inspection log"): the something names them too.
var recordHeads = map[string]bool{"report": true, "record": true, "entry": true, "log": true}

// soldOneEach: a table of sales of one thing each ("ticket_sales" with no
// quantity column): each row is one of the things sold, so "tickets" names
// the rows; with a quantity, "how many tickets" would be its total.
func soldOneEach(t *tableDraft, ws []string) bool {
	if catalog.Singular(ws[len(ws)-1]) != "sale" {
		return false
	}
	for _, c := range t.cols {
		if c.out.Kind == catalog.KindMeasure && c.out.Unit == "quantity" {
			return false
		}
	}
	return true
}

// tableNamed reports whether a table is called name (any case, singular
// or plural), or ends with it ("kiosk_visit" is what "visits" name, not
// the "visit_log" beside it).
func (d *drafter) tableNamed(name string) bool {
	want := catalog.Singular(strings.Join(catalog.IdentifierWords(name), " "))
	for _, t := range d.tables {
		ws := catalog.IdentifierWords(t.key)
		if catalog.Singular(strings.Join(ws, " ")) == want || len(ws) > 1 && !strings.Contains(want, " ") && catalog.Singular(ws[len(ws)-1]) == want {
			return true
		}
	}
	return false
}

// unitSuffixes are units written after a measure's name ("span_mm",
// "AreaM2" → area m 2).
var unitSuffixes = [][]string{{"m", "3"}, {"m3"}, {"m", "2"}, {"m2"}, {"kg"}, {"g"}, {"km"}, {"cm"}, {"mm"}, {"m"},
	{"pct"}, {"usd"}, {"eur"}, {"gbp"}, {"l"}, {"ml"}, {"hrs"}, {"mins"}, {"kwh"}, {"sqm"}, {"ft"}, {"lbs"}}

// unitSuffix is how many of toks' last words are a unit, leaving at least
// one word before it.
func unitSuffix(toks []string) int {
	for _, u := range unitSuffixes {
		if len(toks) > len(u) && slices.Equal(toks[len(toks)-len(u):], u) {
			return len(u)
		}
	}
	return 0
}

// unitWords are what people call a table's one measure of a unit.
var unitWords = map[string][]string{
	"duration": {"duration", "length"},
	"size":     {"size"},
}

// tableWords are a table's words in plural and singular: "InvoiceLine" →
// "invoice lines", "invoice line".
func tableWords(name string) []string {
	ws := catalog.IdentifierWords(name)
	if len(ws) == 0 {
		return []string{}
	}
	stem := strings.Join(ws[:len(ws)-1], " ")
	head := ws[len(ws)-1]
	form := func(w string) string { return strings.TrimSpace(stem + " " + w) }
	out := []string{form(catalog.Plural(catalog.Singular(head)))}
	if s := form(catalog.Singular(head)); !slices.Contains(out, s) {
		out = append(out, s)
	}
	return out
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
