package catalog

import (
	"strings"
	"unicode"
)

// IdentifierWords splits a database identifier into lowercase words:
// CamelCase and camelCase ("InvoiceLine" → invoice, line; "customerID" →
// customer, id; "HTTPServer" → http, server), snake_case and kebab-case,
// spaces ("Order Details"), and the quoting of any dialect ("[Order
// Details]", `"order details"`, "`x`"). Digits form their own words
// ("address2" → address, 2). A schema prefix ("sales.orders") is dropped,
// and so is a legacy type prefix in lower camelCase ("strLabel" → label,
// "intLaneID" → lane, id, "tblKiosk" → kiosk; also "tbl_kiosk") or a type
// suffix ("mast_txt" → mast, "hoisted_flg" → hoisted, "sealed_yn" →
// sealed) or a header table's ("crate_hdr" → crate).
func IdentifierWords(ident string) []string {
	words := identifierWords(ident)
	if n := len(words); n > 1 && typeSuffixes[words[n-1]] {
		// "mast_txt", "hoisted_flg": the type, not a word of the name
		words = words[:n-1]
	}
	if len(words) < 2 || !typePrefixes[words[0]] {
		return words
	}
	r := []rune(strings.TrimLeft(ident, "[\"`' "))
	if i := strings.LastIndexByte(ident, '.'); i >= 0 && !strings.ContainsAny(ident, `["`+"`") {
		r = []rune(ident[i+1:])
	}
	n := len(words[0])
	if len(r) > n && unicode.IsLower(r[0]) && (unicode.IsUpper(r[n]) || words[0] == "tbl" && r[n] == '_') {
		return words[1:]
	}
	return words
}

// typePrefixes are the lower-case prefixes of legacy (Hungarian) naming:
// the type of a column or the kind of object, not a word of its name.
var typePrefixes = map[string]bool{
	"str": true, "int": true, "lng": true, "dt": true, "dtm": true, "bit": true, "bln": true, "ysn": true,
	"flt": true, "dbl": true, "dec": true, "cur": true, "mny": true, "txt": true, "sng": true, "byt": true,
	"chr": true, "tbl": true, "vw": true,
}

// typeSuffixes end a column's name with the type of its values.
var typeSuffixes = map[string]bool{"txt": true, "flg": true, "yn": true, "hdr": true}

func identifierWords(ident string) []string {
	if i := strings.LastIndexByte(ident, '.'); i >= 0 && !strings.ContainsAny(ident, `["`+"`") {
		ident = ident[i+1:]
	}
	ident = strings.Trim(ident, "[]\"`' ")
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(ident)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case len(cur) == 0:
		case unicode.IsDigit(r) != unicode.IsDigit(cur[len(cur)-1]):
			flush()
		case unicode.IsUpper(r):
			prev := cur[len(cur)-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			// "invoiceLine": a capital after a lowercase starts a word;
			// "HTTPServer": the last capital of a run starts the next word.
			if unicode.IsLower(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// IdentifierPhrase is IdentifierWords joined with spaces: "InvoiceLine" →
// "invoice line".
func IdentifierPhrase(ident string) string { return strings.Join(IdentifierWords(ident), " ") }

// irregular plurals, plural → singular.
var irregular = map[string]string{
	"people": "person", "children": "child", "men": "man", "women": "woman", "feet": "foot",
	"teeth": "tooth", "mice": "mouse", "geese": "goose", "indices": "index", "matrices": "matrix",
	"vertices": "vertex", "analyses": "analysis", "bases": "basis", "crises": "crisis", "theses": "thesis",
	"ids": "id", "criteria": "criterion", "phenomena": "phenomenon", "quizzes": "quiz", "leaves": "leaf",
	"halves": "half", "lives": "life", "wives": "wife", "knives": "knife", "shelves": "shelf",
}

// invariant words have no distinct plural.
var invariant = map[string]bool{
	"data": true, "media": true, "series": true, "species": true, "news": true, "sheep": true,
	"fish": true, "deer": true, "info": true, "information": true, "equipment": true, "staff": true,
	"personnel": true, "metadata": true, "feedback": true, "software": true, "hardware": true,
	"status": true, "analytics": true, "gas": true, "bus": true,
	"canvas": true, "alias": true, "atlas": true, "bonus": true, "campus": true, "census": true,
	"chassis": true, "corpus": true, "genus": true, "virus": true, "focus": true, "plus": true,
	"previous": true, "various": true, "always": true, "has": true, "was": true, "is": true,
	"this": true, "its": true, "us": true, "yes": true, "less": true, "unless": true, "across": true,
}

// ieWords end in "ie" in the singular ("movies" → "movie", not "movy").
var ieWords = map[string]bool{
	"movies": true, "cookies": true, "pies": true, "ties": true, "lies": true, "calories": true,
	"selfies": true, "zombies": true, "rookies": true, "hippies": true, "goalies": true, "aunties": true,
	"newbies": true, "freebies": true, "smoothies": true, "brownies": true, "sorties": true,
}

// Singular returns the singular of a lowercase English noun, leaving words
// it does not recognise as plural unchanged: "categories" → "category",
// "boxes" → "box", "addresses" → "address", "statuses" → "status", "movies"
// → "movie", "people" → "person", "status" → "status".
func Singular(w string) string {
	if s, ok := irregular[w]; ok {
		return s
	}
	n := len(w)
	if n <= 3 || invariant[w] || w[0] >= '0' && w[0] <= '9' {
		return w
	}
	switch {
	case ieWords[w]:
		return w[:n-1]
	case strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "uses") && n > 5: // statuses, buses, campuses
		return w[:n-2]
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zzes"),
		strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:n-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"),
		strings.HasSuffix(w, "ous"), strings.HasSuffix(w, "ics"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:n-1]
	}
	return w
}

// Plural returns the plural of a lowercase English noun: "category" →
// "categories", "box" → "boxes", "status" → "statuses", "person" → "people".
// A word already plural (by Singular) is returned unchanged.
func Plural(w string) string {
	for p, s := range irregular {
		if s == w {
			return p
		}
	}
	if _, ok := irregular[w]; ok || invariant[w] && !strings.HasSuffix(w, "us") || w == "" {
		return w
	}
	if w[0] >= '0' && w[0] <= '9' {
		return w
	}
	if Singular(w) != w {
		return w
	}
	n := len(w)
	switch {
	case strings.HasSuffix(w, "y") && n > 1 && !strings.ContainsRune("aeiou", rune(w[n-2])):
		return w[:n-1] + "ies"
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "x"), strings.HasSuffix(w, "z"),
		strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "sh"):
		return w + "es"
	}
	return w + "s"
}

// EditDistance is the optimal-string-alignment (Damerau-Levenshtein)
// distance of two ASCII words, byte by byte — insertions, deletions,
// substitutions and swaps of two neighbours each cost one — capped: it
// returns max+1 as soon as the distance must exceed max. How far a typed
// word, key or keyword is from a known one.
func EditDistance(a, b string, max int) int {
	la, lb := len(a), len(b)
	if d := la - lb; d > max || -d > max {
		return max + 1
	}
	var buf [3][48]int // the rows of short words, without allocating
	var prev2, prev, cur []int
	if lb+1 <= len(buf[0]) {
		prev2, prev, cur = buf[0][:lb+1], buf[1][:lb+1], buf[2][:lb+1]
	} else {
		prev2, prev, cur = make([]int, lb+1), make([]int, lb+1), make([]int, lb+1)
	}
	for j := 0; j <= lb; j++ {
		prev[j] = j
	}
	for i := 1; i <= la; i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= lb; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[lb]
}
