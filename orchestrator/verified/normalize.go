// Package verified answers questions analysts have verified: a question
// whose normalized words equal a verified one's is answered by its SQL, and
// one that differs from it only in slot values — a number, a year, a date,
// another value of the same column — by its SQL with those values put in.
// It also finds the verified questions most like a new one, for the LLM
// prompt's examples.
//
// A Book holds every entry of the state database in memory, indexed for
// lookups in microseconds, and reloads them when the state's revision moves
// (another replica, or this one, changed something).
package verified

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one word of a question.
type token struct {
	text       string // lower case, as compared
	start, end int    // byte offsets in the question
	stop       bool   // a stop word: left out of the normalized question
}

// stopWords carry no meaning in a question about data: articles, pronouns,
// politeness, copulas, auxiliaries and lead-ins ("show me", "what is").
// Words that change a question's meaning (how, many, who, when, where, not,
// no, prepositions) are never stop words.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true,
	"please": true, "kindly": true, "thanks": true, "thank": true,
	"i": true, "me": true, "my": true, "we": true, "us": true, "our": true, "you": true, "your": true,
	"is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "s": true,
	"do": true, "does": true, "did": true, "can": true, "could": true, "would": true,
	"what": true, "which": true, "there": true,
	"show": true, "tell": true, "give": true, "get": true, "find": true, "display": true, "list": true,
	"fetch": true, "let": true, "know": true,
}

// numberWords are the numbers a question may spell out, read as their
// digits: "the five newest" is "the 5 newest" (the same question, and a
// number slot another number fills). "one" is left alone: it is as often
// a pronoun ("which one").
var numberWords = map[string]string{
	"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
	"ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14", "fifteen": "15",
	"sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19", "twenty": "20",
}

// tokenize splits a question into words: runs of letters and digits, lower
// case. A number keeps its decimal point and digit-group commas (1,000.5
// is one token, 1000.5), a spelled-out number is its digits (numberWords),
// and an ISO date (2026-03-05) stays one token.
func tokenize(q string) []token {
	var out []token
	i := 0
	for i < len(q) {
		r, w := utf8.DecodeRuneInString(q[i:])
		if !isWordRune(r) {
			i += w
			continue
		}
		start := i
		if d := isoDateAt(q, i); d > 0 {
			out = append(out, token{text: q[i : i+d], start: i, end: i + d})
			i += d
			continue
		}
		for i < len(q) {
			r, w := utf8.DecodeRuneInString(q[i:])
			if isWordRune(r) {
				i += w
				continue
			}
			// 1,000 and 1.5: punctuation inside a number stays in it.
			if i > start && allDigits(q[start:i]) && i+1 < len(q) && isDigit(q[i+1]) &&
				((r == '.' && !strings.Contains(q[start:i], ".")) || (r == ',' && groupOfThree(q, i+1))) {
				i += w
				continue
			}
			break
		}
		text := strings.ToLower(q[start:i])
		if isNumberText(text) {
			text = strings.ReplaceAll(text, ",", "")
		} else if d, ok := numberWords[text]; ok {
			text = d
		}
		out = append(out, token{text: text, start: start, end: i, stop: stopWords[text]})
	}
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) && s[i] != ',' && s[i] != '.' {
			return false
		}
	}
	return s != ""
}

// groupOfThree reports whether exactly three digits start at i (a digit
// group after a comma).
func groupOfThree(q string, i int) bool {
	if i+3 > len(q) {
		return false
	}
	for j := i; j < i+3; j++ {
		if !isDigit(q[j]) {
			return false
		}
	}
	return i+3 == len(q) || !isDigit(q[i+3])
}

// isoDateAt returns the length of a YYYY-MM-DD date at q[i:] that is a
// whole word, or 0.
func isoDateAt(q string, i int) int {
	const n = len("2006-01-02")
	if i+n > len(q) {
		return 0
	}
	s := q[i : i+n]
	for j := 0; j < n; j++ {
		switch j {
		case 4, 7:
			if s[j] != '-' {
				return 0
			}
		default:
			if !isDigit(s[j]) {
				return 0
			}
		}
	}
	if i+n < len(q) {
		if r, _ := utf8.DecodeRuneInString(q[i+n:]); isWordRune(r) {
			return 0
		}
	}
	return n
}

// isNumberText reports whether a token is a number (digits, maybe with a
// decimal point or digit-group commas).
func isNumberText(s string) bool {
	if s == "" || !isDigit(s[0]) {
		return false
	}
	dot := false
	for i := 0; i < len(s); i++ {
		switch {
		case isDigit(s[i]), s[i] == ',':
		case s[i] == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return true
}

// isYearText reports whether a token is a year: four digits, 1900..2199.
func isYearText(s string) bool {
	if len(s) != 4 || !allDigitsOnly(s) {
		return false
	}
	return s >= "1900" && s <= "2199"
}

func allDigitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// isDateText reports whether a token is an ISO date.
func isDateText(s string) bool { return len(s) == 10 && isoDateAt(s, 0) == 10 }

// words returns the tokens of q that are not stop words.
func words(q string) []token {
	all := tokenize(q)
	out := all[:0:0]
	for _, t := range all {
		if !t.stop {
			out = append(out, t)
		}
	}
	return out
}

// Normalize returns a question as it is matched: its words in lower case,
// without punctuation or stop words, joined by single spaces. Two questions
// with the same normalized form are the same question.
func Normalize(q string) string {
	ws := words(q)
	parts := make([]string, len(ws))
	for i, t := range ws {
		parts[i] = t.text
	}
	return strings.Join(parts, " ")
}

// relativeUnits are the periods a relative time phrase counts in.
var relativeUnits = map[string]bool{"day": true, "days": true, "week": true, "weeks": true, "month": true,
	"months": true, "quarter": true, "quarters": true, "year": true, "years": true}

// relativeTime reports whether a question names a period relative to
// today ("last month", "this year", "the past 7 days", "yesterday", "ytd").
func relativeTime(q string) bool {
	ts := tokenize(q)
	for i, t := range ts {
		switch t.text {
		case "today", "yesterday", "tomorrow", "ytd", "mtd", "qtd", "ago", "recent", "recently", "tonight":
			return true
		case "this", "last", "next", "past", "previous", "current", "coming":
			for j := i + 1; j < len(ts) && j <= i+2; j++ {
				if relativeUnits[ts[j].text] {
					return true
				}
				if !isNumberText(ts[j].text) {
					break
				}
			}
		case "so":
			if i+1 < len(ts) && ts[i+1].text == "far" {
				return true
			}
		case "to":
			if i+1 < len(ts) && ts[i+1].text == "date" {
				return true
			}
		}
	}
	return false
}
