package catalog

import (
	"slices"
	"strings"
)

// Segmenter splits identifiers written as one run-together word
// ("donorname", "firstyear", "packedby") into the words a person says
// ("donor name", "first year", "packed by"). It only splits into words it
// knows: the words of the schema's own names (its tables, and every
// identifier that separates its words), a short list of words columns are
// made of, past participles before "by", "on" or "at", "has" and "is"
// before a flag's word, and any short prefix before the "id" of a key
// column. A word it cannot split wholly into known words is left alone, so
// "season" is never "seas on" nor "candidate" "candi date".
type Segmenter struct {
	known map[string]bool
}

// columnWords are the words identifiers are commonly made of.
var columnWords = setOf("name", "names", "type", "types", "id", "code", "date", "day", "days", "year", "years",
	"time", "size", "count", "number", "no", "num", "qty", "kg", "km", "total", "first", "last", "start", "end",
	"base", "team", "lead", "head", "home", "birth", "item", "items", "line", "lines", "level", "status", "price",
	"cost", "fee", "amount", "rate", "score", "title", "group", "class", "value", "weight", "height", "length",
	"width", "depth", "area", "age", "city", "town", "country", "phone", "email", "address", "street", "post",
	"postal", "zip", "min", "max", "avg", "unit", "units", "order", "serial", "ref", "reg", "est", "expiry",
	"open", "close", "due", "full", "short", "family", "given", "middle", "user", "label", "desc", "note", "notes",
	"flag", "out", "shelf", "main", "sub", "parent", "owner", "member", "staff", "contact", "start", "finish",
	"opening", "closing", "hire", "join", "joined", "hired", "born", "sale", "sales", "paid", "pay", "due", "tax",
	"net", "gross", "stock", "list", "category", "description", "capacity", "duration", "rating", "comment",
	"account", "manager", "supervisor", "week", "month", "hour", "hours", "minutes", "seat", "seats", "room")

func setOf(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// NewSegmenter learns the words of a schema's identifiers: the table names
// and every identifier that separates its words ("order_date" teaches
// "order" and "date").
func NewSegmenter(tables []string, columns []string) *Segmenter {
	s := &Segmenter{known: map[string]bool{}}
	for _, t := range tables {
		for _, w := range IdentifierWords(t) {
			s.learn(w)
		}
	}
	for _, c := range columns {
		if ws := IdentifierWords(c); len(ws) > 1 {
			for _, w := range ws {
				s.learn(w)
			}
		}
	}
	return s
}

func (s *Segmenter) learn(w string) {
	if len(w) >= 3 && !isNumber(w) {
		s.known[w] = true
		s.known[Singular(w)] = true
	}
}

func (s *Segmenter) knows(w string) bool { return s.known[w] || columnWords[w] }

// SegmentHint says what an identifier names, which allows some splits.
type SegmentHint int

const (
	SegmentPlain SegmentHint = iota
	// SegmentKey: a key column, so any prefix of two letters or more
	// before a final "id" is a word ("hhid" → hh id)
	SegmentKey
	// SegmentFlag: a yes/no column, so "has" or "is" opens it
	// ("hasfreezer" → has freezer)
	SegmentFlag
	// segmentName: a table's own name, split though it is a known word
	segmentName
)

// TableWords are the words of a table's name, a run-together name split
// into known words ("donationline" → donation line, when "donation" is a
// table too).
func (s *Segmenter) TableWords(ident string) []string { return s.Words(ident, segmentName) }

// Words is IdentifierWords with each run-together word split, when it
// splits wholly into known words.
func (s *Segmenter) Words(ident string, hint SegmentHint) []string {
	ws := IdentifierWords(ident)
	if s == nil {
		return ws
	}
	if len(ws) != 1 && hint != segmentName {
		hint = SegmentPlain
	}
	var out []string
	for _, w := range ws {
		out = append(out, s.split(w, hint)...)
	}
	return out
}

// Phrase is Words joined with spaces.
func (s *Segmenter) Phrase(ident string, hint SegmentHint) string {
	return strings.Join(s.Words(ident, hint), " ")
}

// split splits one word, or returns it alone.
func (s *Segmenter) split(w string, hint SegmentHint) []string {
	if pre, ok := strings.CutSuffix(w, "id"); ok && hint == SegmentKey && len(pre) >= 2 && !s.known[w] &&
		(s.knows(pre) || !strings.ContainsRune("aeiou", rune(pre[len(pre)-1]))) {
		// "hhid", "volid"; not "paid" nor "fluid"
		return append(s.split(pre, SegmentPlain), "id")
	}
	if len(w) < 5 || s.known[w] && hint != segmentName || isNumber(w) {
		return []string{w}
	}
	for _, lead := range []string{"has", "is"} {
		if rest := strings.TrimPrefix(w, lead); hint == SegmentFlag && rest != w && len(rest) >= 3 {
			return append([]string{lead}, s.split(rest, SegmentPlain)...)
		}
	}
	if best := s.pieces(w); len(best) > 1 {
		return best
	}
	return []string{w}
}

// pieces is the split of w into the fewest known words (the longest first
// word among equals), nil when there is none.
func (s *Segmenter) pieces(w string) []string {
	// best[i]: the fewest pieces covering w[:i]
	best := make([][]string, len(w)+1)
	best[0] = []string{}
	for i := 1; i <= len(w); i++ {
		for j := 0; j < i; j++ {
			if best[j] == nil || j == 0 && i == len(w) || !s.piece(w[j:i], best[j], i == len(w)) {
				continue
			}
			cand := append(slices.Clone(best[j]), w[j:i])
			if best[i] == nil || len(cand) < len(best[i]) {
				best[i] = cand
			}
		}
	}
	return best[len(w)]
}

// piece: p may follow the pieces before it.
func (s *Segmenter) piece(p string, before []string, last bool) bool {
	switch {
	case p == "by" || p == "on" || p == "at":
		// "packedby", "handedoutby": after a past participle, at the end
		return last && slices.ContainsFunc(before, func(b string) bool { return strings.HasSuffix(b, "ed") })
	case p == "id" || p == "no":
		return last && len(before) > 0
	case len(p) < 3:
		return false
	case s.knows(p):
		return true
	}
	// a past participle before a preposition or particle ("handedoutby")
	return len(p) >= 5 && strings.HasSuffix(p, "ed") && !last
}

func isNumber(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}
