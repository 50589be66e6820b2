package verified

import (
	"slices"
	"strings"

	"talk2tables/state"
)

// maxHoleWords bounds the words a value or entity slot may take in a
// question ("Harbor Coffee Roasters" is 3).
const maxHoleWords = 8

// maxAssignments bounds the ways one question may fill a template's
// holes (adjacent value slots can split a run of words several ways).
const maxAssignments = 16

// index holds the usable entries of one revision: by database and
// normalized question, and as templates whose slots are holes, found
// through an inverted index of their other words.
type index struct {
	revision  int64
	entries   []*state.Entry
	exact     map[string]map[string]*state.Entry // database → normalized → entry
	templates []*template
	postings  map[string][]int32 // word → the templates whose rarest word it is
	sim       similar            // for Examples, built on first use
}

// template is an entry's normalized question with its slots as holes.
type template struct {
	entry *state.Entry
	parts []part
	words int // distinct words outside the holes
}

// part is a word, or a hole (slot index >= 0).
type part struct {
	word string
	slot int
}

// buildIndex indexes entries (all of them: stale ones are kept out of
// the lookups, but not out of the list).
func buildIndex(entries []state.Entry, revision int64) *index {
	ix := &index{revision: revision, exact: map[string]map[string]*state.Entry{}, postings: map[string][]int32{}}
	for i := range entries {
		e := &entries[i]
		ix.entries = append(ix.entries, e)
		if e.Status != state.StatusVerified {
			continue
		}
		m := ix.exact[e.Database]
		if m == nil {
			m = map[string]*state.Entry{}
			ix.exact[e.Database] = m
		}
		m[e.Normalized] = e
		if t := newTemplate(e); t != nil {
			ix.templates = append(ix.templates, t)
		}
	}
	// Each template is filed under its rarest word outside the holes: a
	// question can match it only if it has that word, and rare words
	// keep the lists short.
	freq := map[string]int{}
	for _, t := range ix.templates {
		for _, w := range t.distinct() {
			freq[w]++
		}
	}
	for id, t := range ix.templates {
		ws := t.distinct()
		t.words = len(ws)
		rare := ws[0]
		for _, w := range ws[1:] {
			if freq[w] < freq[rare] || (freq[w] == freq[rare] && w < rare) {
				rare = w
			}
		}
		ix.postings[rare] = append(ix.postings[rare], int32(id))
	}
	return ix
}

// newTemplate makes e's template; nil when it has no slot, when a slot's
// phrase is not found once in its question, or when nothing but holes
// would be left.
func newTemplate(e *state.Entry) *template {
	if len(e.Slots) == 0 {
		return nil
	}
	qs := wordTexts(e.Question)
	hole := make([]int, len(qs))
	for i := range hole {
		hole[i] = -1
	}
	for si, s := range e.Slots {
		ws := wordTexts(s.Phrase)
		at, once := findWords(qs, ws)
		if !once {
			return nil
		}
		for j := at; j < at+len(ws); j++ {
			if hole[j] >= 0 {
				return nil
			}
			hole[j] = si
		}
	}
	t := &template{entry: e}
	literal := 0
	for i, w := range qs {
		switch {
		case hole[i] < 0:
			t.parts = append(t.parts, part{word: w, slot: -1})
			literal++
		case i == 0 || hole[i-1] != hole[i]:
			t.parts = append(t.parts, part{slot: hole[i]})
		}
	}
	if literal == 0 {
		return nil
	}
	return t
}

// findWords is find over plain words.
func findWords(qs, ws []string) (int, bool) {
	if len(ws) == 0 {
		return 0, false
	}
	at, n := -1, 0
	for i := 0; i+len(ws) <= len(qs); i++ {
		if slices.Equal(qs[i:i+len(ws)], ws) {
			at = i
			n++
		}
	}
	return at, n == 1
}

// distinct returns t's words outside the holes, each once.
func (t *template) distinct() []string {
	var out []string
	for _, p := range t.parts {
		if p.slot < 0 && !slices.Contains(out, p.word) {
			out = append(out, p.word)
		}
	}
	return out
}

// candidates returns the templates of the allowed databases filed under a
// word of the question, the most specific (most words outside the holes)
// first. Each still has to match (template.match).
func (ix *index) candidates(qs []string, allowed func(db string) bool) []*template {
	var out []*template
	for i, w := range qs {
		if slices.Contains(qs[:i], w) {
			continue
		}
		for _, id := range ix.postings[w] {
			if t := ix.templates[id]; allowed(t.entry.Database) {
				out = append(out, t)
			}
		}
	}
	slices.SortFunc(out, func(a, b *template) int {
		if a.words != b.words {
			return b.words - a.words
		}
		return int(a.entry.ID - b.entry.ID)
	})
	return out
}

// holes are the question words [from, to) each slot takes.
type holes [][2]int

// match returns the ways qs fills t's holes: every word outside the holes
// equal and in order, each number, year and date hole one word of its
// shape, each value or entity hole 1..maxHoleWords words.
func (t *template) match(qs []string) []holes {
	var out []holes
	cur := make(holes, len(t.entry.Slots))
	var walk func(p, i int)
	walk = func(p, i int) {
		if len(out) >= maxAssignments {
			return
		}
		if p == len(t.parts) {
			if i == len(qs) {
				out = append(out, slices.Clone(cur))
			}
			return
		}
		pt := t.parts[p]
		if pt.slot < 0 {
			if i < len(qs) && qs[i] == pt.word {
				walk(p+1, i+1)
			}
			return
		}
		kind := t.entry.Slots[pt.slot].Kind
		for n := 1; n <= maxHoleWords && i+n <= len(qs); n++ {
			if !fits(kind, qs[i:i+n]) {
				if n == 1 && singleWord(kind) {
					return
				}
				continue
			}
			cur[pt.slot] = [2]int{i, i + n}
			walk(p+1, i+n)
			if singleWord(kind) {
				return
			}
		}
	}
	walk(0, 0)
	return out
}

// singleWord reports the slot kinds a question says in one word.
func singleWord(kind string) bool { return kind == KindNumber || kind == KindYear || kind == KindDate }

// fits reports whether words may fill a slot of kind.
func fits(kind string, ws []string) bool {
	switch kind {
	case KindNumber:
		return len(ws) == 1 && isNumberText(ws[0])
	case KindYear:
		return len(ws) == 1 && isYearText(ws[0])
	case KindDate:
		return len(ws) == 1 && isDateText(ws[0])
	}
	// A value is not a lone number, year or date (those are other slots).
	return !(len(ws) == 1 && (isNumberText(ws[0]) || isDateText(ws[0])))
}

// normalizedWords returns the normalized words of q (the exact key joins
// them with spaces).
func normalizedWords(q string) []string { return strings.Fields(Normalize(q)) }
