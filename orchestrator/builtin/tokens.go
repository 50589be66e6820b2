package builtin

import (
	"strconv"
	"strings"
	"unicode"

	"talk2tables/catalog"
)

// token is one word, number, ISO date or comparison symbol of a question.
type token struct {
	text  string // as typed (for messages)
	w     string // lower case
	s     string // singular stem of w (catalog.Singular)
	num   float64
	isNum bool
	isInt bool
	money bool   // typed with a currency sign
	iso   bool   // YYYY-MM-DD
	sym   string // ">", ">=", "<", "<=", "=" for comparison symbols
	// orig is the word as typed, with its capitals ("Riverside");
	// quoted marks a literal typed in quotes, whole in orig.
	orig   string
	quoted bool
	// pause: a comma, semicolon or colon comes right before the token
	pause bool
	// stop: a full stop, question or exclamation mark comes right before it
	stop bool
	// hyphen: a hyphen joins it to the word before ("NW-B4")
	hyphen bool
	// plus: a "+" closes the word ("7c+", "A+")
	plus bool
}

// tokenize splits text into lower-case tokens. Punctuation, underscores and
// hyphens separate words ("best-selling" → best, selling; "magic_wand" →
// magic, wand); a possessive 's is dropped; ISO dates and numbers ("$1,250.50",
// "10.5") stay whole; <, >, <=, >= and = are symbols.
func tokenize(text string) []token {
	rs := []rune(text)
	var out []token
	pause, stop, hyphen := false, false, false
	add := func(t token) {
		t.pause, pause = pause, false
		t.stop, stop = stop, false
		t.hyphen, hyphen = hyphen, false
		out = append(out, t)
	}
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case isISODate(rs, i):
			d := string(rs[i : i+10])
			add(token{text: d, w: d, s: d, iso: true})
			i += 10
		case r == '<' || r == '>' || r == '=' || r == '≥' || r == '≤':
			j := i + 1
			if (r == '<' || r == '>') && j < len(rs) && rs[j] == '=' {
				j++
			}
			sym := string(rs[i:j])
			switch sym {
			case "≥":
				sym = ">="
			case "≤":
				sym = "<="
			}
			add(token{text: sym, w: sym, s: sym, sym: sym})
			i = j
		case isCurrency(r) && i+1 < len(rs) && unicode.IsDigit(rs[i+1]):
			t, j := readNumber(rs, i+1)
			t.money, t.text = true, string(rs[i:j])
			add(t)
			i = j
		case (r == '-' || r == '−') && i+1 < len(rs) && unicode.IsDigit(rs[i+1]) && (i == 0 || unicode.IsSpace(rs[i-1]) || rs[i-1] == '('):
			// "-1", "below −5": a negative number, not a dash
			t, j := readNumber(rs, i+1)
			if j < len(rs) && unicode.IsLetter(rs[j]) {
				i++ // "-3rd": not a number
				continue
			}
			t.num, t.text, t.w, t.s = -t.num, "-"+t.text, "-"+t.w, "-"+t.s
			add(t)
			i = j
		case unicode.IsDigit(r) && (i == 0 || !isWordRune(rs[i-1])):
			t, j := readNumber(rs, i)
			if j < len(rs) && unicode.IsLetter(rs[j]) {
				// "q3", "4k", "2tb": a word, not a number
				w, k := readWord(rs, i)
				t := makeWord(w)
				t.plus = k < len(rs) && rs[k] == '+' && (k+1 == len(rs) || !isWordRune(rs[k+1]))
				add(t)
				i = k
				continue
			}
			add(t)
			i = j
		case isWordRune(r) && shorthandWith(rs, i) != "":
			// "w/", "w/o": with, without, as typed in a hurry
			w := shorthandWith(rs, i)
			t := makeWord(w)
			t.orig = w
			add(t)
			i += 2 // "w/"
			if w == "without" {
				i++ // "w/o"
			}
		case (r == '#' || r == '%') && (i == 0 || unicode.IsSpace(rs[i-1])) && i+1 < len(rs) && unicode.IsSpace(rs[i+1]):
			// "# crates over 20", "% of crates packed in May": the number of, the
			// percentage of, as typed in a hurry
			if r == '#' {
				add(makeWord("number"))
				add(makeWord("of"))
			} else {
				add(makeWord("percentage"))
			}
			i++
		case r == '&' && i > 0 && unicode.IsSpace(rs[i-1]) && i+1 < len(rs) && unicode.IsSpace(rs[i+1]):
			add(makeWord("and")) // "the branch & its hub"
			i++
		case isWordRune(r):
			w, j := readWord(rs, i)
			if w != "" {
				t := makeWord(w)
				if full, ok := hurriedWords[w]; ok && strings.ToLower(string(rs[i:j])) == w {
					t = makeWord(full) // "crates per yr", "kiosk wk"
				}
				t.orig = string(rs[i:j])
				t.plus = j < len(rs) && rs[j] == '+' && (j+1 == len(rs) || !isWordRune(rs[j+1]))
				add(t)
			}
			i = j
		case r == '.' && abbreviated(rs, i, out):
			// "No. 2", "St. Kilda": the dot is the word's, no sentence ends
			t := &out[len(out)-1]
			t.text, t.w, t.s, t.orig = t.text+".", t.w+".", t.s+".", t.orig+"."
			i++
		case r == '.' && i > 0 && isWordRune(rs[i-1]) && i+1 < len(rs) && unicode.IsLetter(rs[i+1]):
			// "heats.venue": a table's column typed as in SQL,
			// one name, not the end of a sentence
			i++
		default:
			pause = pause || r == ',' || r == ';' || r == ':'
			stop = stop || r == '.' || r == '?' || r == '!'
			hyphen = (r == '-' || r == '‐') && i > 0 && isWordRune(rs[i-1]) && i+1 < len(rs) && isWordRune(rs[i+1])
			i++
		}
	}
	return out
}

// hurriedWords are words shortened as people type them in a hurry, read
// as the words they stand for (units such as "hrs" and "mins" stay units).
var hurriedWords = map[string]string{"yr": "year", "yrs": "years",
	"mth": "month", "mths": "months", "qtr": "quarter", "qtrs": "quarters", "wk": "week", "wks": "weeks"}

// askedInHaste are shortenings read so only in a question: in a column's
// name ("guests_cnt") they name the column, not an aggregate. "during"
// says no more than "in" ("kiosks opened during 2024").
var askedInHaste = map[string]string{"cnt": "count", "tot": "total", "during": "in"}

// hasteExpanded reads the shortenings of askedInHaste in a question's
// tokens ("kiosk cnt", "tot spend").
func hasteExpanded(toks []token) []token {
	for i, t := range toks {
		if t.w == "but" && i+1 < len(toks) && butClause[toks[i+1].w] {
			// "kiosks that opened but never closed": two conditions, as
			// with "and"; not "every kiosk but the oldest"
			toks[i] = sameBreaks(makeWord("and"), t)
			continue
		}
		if full, ok := askedInHaste[t.w]; ok && !t.quoted {
			toks[i] = sameBreaks(makeWord(full), t)
		}
	}
	return toks
}

// sameBreaks is nt typed where t was: its original text and the pauses
// around it.
func sameBreaks(nt, t token) token {
	nt.orig, nt.pause, nt.stop = t.orig, t.pause, t.stop
	return nt
}

// butClause are the words that open a second condition after "but"
// ("but never", "but not in 2024", "but fewer than three").
var butClause = setOf("never", "not", "no", "none", "did", "didn't", "didnt", "does", "doesn't", "do", "don't",
	"have", "has", "had", "haven't", "hasn't", "fewer", "less", "more", "at", "only", "still", "without", "is", "are", "was", "were")

// shorthandWith reads "w/" and "w/o" at i as "with" and "without"; "" if
// neither is typed there.
func shorthandWith(rs []rune, i int) string {
	if rs[i] != 'w' && rs[i] != 'W' || i > 0 && isWordRune(rs[i-1]) || i+1 >= len(rs) || rs[i+1] != '/' {
		return ""
	}
	end := func(k int) bool { return k >= len(rs) || !isWordRune(rs[k]) && rs[k] != '/' }
	switch {
	case end(i + 2):
		return "with"
	case (rs[i+2] == 'o' || rs[i+2] == 'O') && end(i+3):
		return "without"
	}
	return ""
}

// dottedAbbrevs end with a dot inside a name: "No. 2", "Op. 9", "St. Ives".
var dottedAbbrevs = setOf("no", "nr", "op", "vol", "st", "dr", "mr", "mrs", "ms", "mt", "jr", "sr")

// abbreviated: the dot at i ends a capitalised abbreviation typed right
// before it, and a number or a capitalised word follows.
func abbreviated(rs []rune, i int, out []token) bool {
	if len(out) == 0 || i == 0 || !isWordRune(rs[i-1]) {
		return false
	}
	t := out[len(out)-1]
	if !dottedAbbrevs[t.w] || t.orig == "" || !unicode.IsUpper([]rune(t.orig)[0]) {
		return false
	}
	j := i + 1
	for j < len(rs) && rs[j] == ' ' {
		j++
	}
	return j > i+1 && j < len(rs) && (unicode.IsDigit(rs[j]) || unicode.IsUpper(rs[j]))
}

func isCurrency(r rune) bool { return r == '$' || r == '€' || r == '£' || r == '¥' }

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// readWord reads letters and digits from i, keeping an apostrophe inside a
// word ("what's" → whats) and dropping a possessive ("customer's" → customer).
func readWord(rs []rune, i int) (string, int) {
	j := i
	for j < len(rs) && (isWordRune(rs[j]) || (isApostrophe(rs[j]) && j+1 < len(rs) && unicode.IsLetter(rs[j+1]))) {
		j++
	}
	w := strings.ToLower(string(rs[i:j]))
	w = strings.ReplaceAll(w, "’", "'")
	if strings.HasSuffix(w, "'s") {
		w = w[:len(w)-2]
	}
	w = strings.ReplaceAll(w, "'", "")
	return w, j
}

func isApostrophe(r rune) bool { return r == '\'' || r == '’' }

// readNumber reads 1250, 1,250.50 or 10.5 from i.
func readNumber(rs []rune, i int) (token, int) {
	j := i
	var b strings.Builder
	for j < len(rs) {
		r := rs[j]
		switch {
		case unicode.IsDigit(r):
			b.WriteRune(r)
		case r == ',' && b.Len() > 0 && !strings.Contains(b.String(), ".") && allDigits(rs, j+1, 3) && (j+4 >= len(rs) || !unicode.IsDigit(rs[j+4])):
			// thousands separator
		case r == '.' && j+1 < len(rs) && unicode.IsDigit(rs[j+1]) && !strings.Contains(b.String(), "."):
			b.WriteRune(r)
		default:
			goto done
		}
		j++
	}
done:
	s := b.String()
	f, _ := strconv.ParseFloat(s, 64)
	return token{text: string(rs[i:j]), w: s, s: s, num: f, isNum: true, isInt: !strings.Contains(s, ".")}, j
}

func allDigits(rs []rune, i, n int) bool {
	if i+n > len(rs) {
		return false
	}
	for k := i; k < i+n; k++ {
		if !unicode.IsDigit(rs[k]) {
			return false
		}
	}
	return true
}

func makeWord(w string) token {
	t := token{text: w, w: w, s: stem(w)}
	if n, ok := numberWords[w]; ok {
		t.isNum, t.isInt, t.num = true, true, float64(n)
	}
	return t
}

// stem is the singular form used to compare words of questions and phrases.
func stem(w string) string {
	if w == "" || w[0] >= '0' && w[0] <= '9' {
		return w
	}
	return catalog.Singular(w)
}

func isISODate(rs []rune, i int) bool {
	if i+10 > len(rs) || (i > 0 && isWordRune(rs[i-1])) {
		return false
	}
	for k := 0; k < 10; k++ {
		r := rs[i+k]
		if k == 4 || k == 7 {
			if r != '-' {
				return false
			}
		} else if r < '0' || r > '9' {
			return false
		}
	}
	return i+10 == len(rs) || !isWordRune(rs[i+10])
}

// phraseStems returns the stems of a phrase as the scanner compares them.
func phraseStems(s string) []string {
	toks := tokenize(s)
	out := make([]string, 0, len(toks))
	for _, t := range toks {
		if t.sym != "" {
			continue
		}
		out = append(out, t.s)
	}
	return out
}

var numberWords = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
	"fifty": 50, "hundred": 100, "once": 1, "twice": 2, "thrice": 3,
}

// typoLimit is the number of edits tolerated in a word of n letters: none
// below 5 letters (short words are too easily another word), 1 up to 8, 2
// from 9.
func typoLimit(n int) int {
	switch {
	case n >= 9:
		return 2
	case n >= 5:
		return 1
	}
	return 0
}
