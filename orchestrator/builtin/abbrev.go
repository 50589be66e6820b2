package builtin

import (
	"strings"
	"sync"

	"talk2tables/catalog"
)

// Schemas written short ("rggr_nm", "hrbr", "qty"): a question word the
// schema does not know is read as the one identifier word that writes it
// without its vowels ("riggers" → rggr, "quantity" → qty), so the phrase
// matching that follows finds "rggr nm" for "rigger name".

// shortWords collects the schema's identifier words that look written
// short: two to five letters, no vowel after the first letter.
func (m *model) shortWords() []string {
	seen := map[string]bool{}
	var out []string
	add := func(name string) {
		for _, w := range catalog.IdentifierWords(name) {
			if !seen[w] && shortIdentifier(w) {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	for _, t := range m.tables {
		add(t.bare)
		for _, c := range t.cols {
			add(c.name)
		}
	}
	return out
}

func shortIdentifier(w string) bool {
	if len(w) < 2 || len(w) > 5 || w == "id" || w == "no" || w == "nr" || isDigits(w) {
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return !strings.ContainsAny(w[1:], "aeiou")
}

// skeleton is w without the vowels after its first letter, doubled
// letters once ("rigger" → rgr, "harbour" → hrbr).
func skeleton(w string) string {
	var b strings.Builder
	var last rune
	for i, r := range w {
		if i > 0 && strings.ContainsRune("aeiou", r) || r == last {
			continue
		}
		b.WriteRune(r)
		last = r
	}
	return b.String()
}

// abbrevOf: a writes w short — the same first letter, and a is w's
// skeleton, its start (three letters at least: "rgst" of register), or
// most of its letters in order, ending on w's last consonant ("qty" of
// quantity).
func abbrevOf(a, w string) bool {
	if len(w) <= len(a) || a[0] != w[0] {
		return false
	}
	sk := skeleton(w)
	if sk == a || len(a) >= 3 && strings.HasPrefix(sk, a) {
		return true
	}
	if len(a) < 3 || len(a) < len(sk)-2 || a[len(a)-1] != sk[len(sk)-1] {
		return false // "hrs" is not headquarters
	}
	k := 0
	for i := 0; i < len(w) && k < len(a); i++ {
		if w[i] == a[k] {
			k++ // in order, through the word's own letters ("rggr" of rigger)
		}
	}
	return k == len(a)
}

// unabbreviated rewrites each question word the lexicon does not start a
// phrase with, and that is no English word of the question's grammar, as
// the one short identifier word that writes it; nil when none is.
func (m *model) unabbreviated(toks []token) []token {
	if len(m.abbrevs) == 0 || m.lex == nil {
		return nil
	}
	var out []token
	for i, t := range toks {
		if t.quoted || t.isNum || len(t.w) < 3 || stopwords[t.w] || len(m.lex.byFirst[t.s]) > 0 || grammarWords()[t.w] {
			continue
		}
		if i > 0 && startsUpper(t.orig) || pastParticiple(t.w) || strings.HasSuffix(t.w, "ing") {
			continue // a name ("Oren"), a verb ("rigged"): not written short
		}
		found := ""
		for _, a := range m.abbrevs {
			if inflected(t.w, a) {
				found = ""
				break // "ended" beside end: the word itself, inflected
			}
			if abbrevOf(a, t.s) || abbrevOf(a, t.w) {
				if found != "" && found != a {
					found = ""
					break
				}
				found = a
			}
		}
		if found == "" {
			continue
		}
		if m.verbTable(t.w) != nil || m.synonymEntry(toks, i) != nil || len(t.w) >= 5 && len(m.lex.typoHits(toks, i)) > 0 {
			continue // a verb of a table, a synonym, a typo: read as those
		}
		if out == nil {
			out = append([]token(nil), toks...)
		}
		out[i].w, out[i].s = found, found
	}
	return out
}

// inflected: w is a with an ending ("ended" of end, "hauls" of haul).
func inflected(w, a string) bool {
	rest, ok := strings.CutPrefix(w, a)
	return ok && (rest == "s" || rest == "es" || rest == "ed" || rest == "d" || rest == "ing" || rest == "er" || rest == "ers")
}

// grammarWords are the words that open a phrase of the question's own
// grammar in either reading ("percentage of", "placed"): never read as a
// short identifier.
var grammarWords = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for phrase := range clauseWords {
		out[strings.Fields(phrase)[0]] = true
	}
	for phrase := range keywords {
		out[strings.Fields(phrase)[0]] = true
	}
	for verb := range dateVerbs {
		out[strings.Fields(verb)[0]] = true
	}
	return out
})
