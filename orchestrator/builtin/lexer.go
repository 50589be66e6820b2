package builtin

import (
	"strconv"
	"strings"
	"unicode"
)

// token is one word of the question.
type token struct {
	norm  string // lower case
	stem  string // crude singular
	isNum bool
	num   int
	iso   bool // YYYY-MM-DD
}

// tokenize splits a question into lower-case words. ISO dates stay whole;
// other punctuation separates words; a possessive 's is dropped.
func tokenize(s string) []token {
	s = strings.ToLower(s)
	var out []token
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		if isISODate(rs, i) {
			out = append(out, token{norm: string(rs[i : i+10]), stem: string(rs[i : i+10]), iso: true})
			i += 10
			continue
		}
		if !isWordRune(r) {
			i++
			continue
		}
		j := i
		for j < len(rs) && (isWordRune(rs[j]) || (rs[j] == '\'' && j+1 < len(rs) && unicode.IsLetter(rs[j+1]))) {
			j++
		}
		w := string(rs[i:j])
		w = strings.TrimSuffix(w, "'s")
		w = strings.ReplaceAll(w, "'", "")
		i = j
		if w == "" {
			continue
		}
		out = append(out, makeToken(w))
	}
	return out
}

func makeToken(w string) token {
	t := token{norm: w, stem: stem(w)}
	if n, err := strconv.Atoi(w); err == nil {
		t.isNum, t.num = true, n
	} else if n, ok := numberWords[w]; ok {
		t.isNum, t.num = true, n
	}
	return t
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

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

// stem is a crude singularizer applied equally to questions and phrases.
func stem(w string) string {
	n := len(w)
	if n <= 3 || w[0] >= '0' && w[0] <= '9' {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"):
		return w[:n-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:n-1]
	}
	return w
}

// phraseTokens returns the stems of a metadata phrase.
func phraseTokens(s string) []string {
	toks := tokenize(s)
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.stem
	}
	return out
}

var numberWords = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "fifty": 50,
	"hundred": 100,
}

// kw is a generic English keyword the planner understands.
type kw int

const (
	kwNone kw = iota
	kwGroup
	kwGrain
	kwTrend
	kwRankDesc
	kwRankAsc
	kwSell
	kwList
	kwWhich
	kwRecentDesc
	kwRecentAsc
	kwCompare
	kwNeg
	kwHowMuch
	kwWrite
	kwLast
)

// keywords maps stemmed phrases to generic keywords; multi-word phrases are
// space-joined stems.
var keywords = map[string]kw{
	"by": kwGroup, "per": kwGroup, "each": kwGroup, "for each": kwGroup, "across": kwGroup,
	"every": kwGroup, "wise": kwGroup,
	"day": kwGrain, "daily": kwGrain, "week": kwGrain, "weekly": kwGrain, "month": kwGrain,
	"monthly": kwGrain, "quarter": kwGrain, "quarterly": kwGrain, "year": kwGrain, "yearly": kwGrain,
	"annual": kwGrain, "annually": kwGrain,
	"trend": kwTrend, "over time": kwTrend, "evolution": kwTrend,
	"top": kwRankDesc, "best": kwRankDesc, "highest": kwRankDesc, "most": kwRankDesc,
	"biggest": kwRankDesc, "largest": kwRankDesc, "greatest": kwRankDesc, "leading": kwRankDesc,
	"bottom": kwRankAsc, "worst": kwRankAsc, "lowest": kwRankAsc, "least": kwRankAsc,
	"smallest": kwRankAsc, "fewest": kwRankAsc,
	"selling": kwSell, "sold": kwSell, "sell": kwSell, "seller": kwSell,
	"list": kwList, "show": kwList, "display": kwList, "give": kwList, "get": kwList,
	"find": kwList, "fetch": kwList, "name": kwList,
	"which": kwWhich, "what": kwWhich, "whats": kwWhich,
	"most recent": kwRecentDesc, "latest": kwRecentDesc, "newest": kwRecentDesc,
	"recent": kwRecentDesc, "oldest": kwRecentAsc, "earliest": kwRecentAsc, "last": kwLast,
	"compare": kwCompare, "comparison": kwCompare, "comparing": kwCompare, "vs": kwCompare,
	"versu": kwCompare, "against": kwCompare,
	"excluding": kwNeg, "exclude": kwNeg, "except": kwNeg, "without": kwNeg, "not": kwNeg,
	"non": kwNeg, "excl": kwNeg, "other than": kwNeg, "but not": kwNeg, "excluded": kwNeg,
	"how much": kwHowMuch,
	"delete":   kwWrite, "drop": kwWrite, "update": kwWrite, "insert": kwWrite, "truncate": kwWrite,
	"alter": kwWrite, "remove": kwWrite, "create": kwWrite, "modify": kwWrite, "replace": kwWrite,
	"grant": kwWrite, "attach": kwWrite, "erase": kwWrite, "wipe": kwWrite, "add": kwWrite,
	"change": kwWrite, "set": kwWrite, "rename": kwWrite,
}

// leading verbs that are commands, never product aliases.
var commandVerbs = map[string]bool{"list": true, "show": true, "display": true, "give": true,
	"get": true, "find": true, "fetch": true, "tell": true, "compare": true}

// stopwords carry no meaning for the planner.
var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "for": true, "in": true, "on": true, "at": true,
	"to": true, "from": true, "with": true, "and": true, "or": true, "is": true, "are": true,
	"was": true, "were": true, "be": true, "been": true, "being": true, "do": true, "does": true,
	"did": true, "done": true, "i": true, "we": true, "our": true, "us": true, "me": true,
	"my": true, "you": true, "your": true, "it": true, "its": true, "they": true, "them": true,
	"their": true, "there": true, "here": true, "this": true, "that": true, "these": true,
	"those": true, "please": true, "can": true, "could": true, "would": true, "all": true,
	"any": true, "overall": true, "during": true, "within": true, "as": true, "just": true,
	"only": true, "also": true, "tell": true, "see": true, "want": true, "need": true,
	"know": true, "made": true, "make": true, "generated": true, "generate": true, "had": true,
	"have": true, "has": true, "got": true, "placed": true, "bought": true, "buy": true,
	"purchased": true, "ordered": true, "happened": true, "whole": true, "entire": true,
	"so": true, "far": true, "up": true, "down": true, "broken": true, "split": true,
	"grouped": true, "breakdown": true, "figures": true, "numbers": true, "data": true,
	"who": true, "where": true, "recorded": true, "currently": true, "ever": true,
	"over": true, "into": true, "out": true, "some": true,
	"s": true, "respectively": true, "both": true, "come": true, "came": true, "brought": true,
	"altogether": true, "combined": true, "report": true, "summary": true,
	"belong": true, "belonging": true, "under": true, "listed": true, "available": true,
}

// dlDistance is the optimal-string-alignment Damerau-Levenshtein distance,
// capped: it returns max+1 as soon as the distance must exceed max.
func dlDistance(a, b string, max int) int {
	la, lb := len(a), len(b)
	if d := la - lb; d > max || -d > max {
		return max + 1
	}
	var buf [3][40]int
	if lb+1 > len(buf[0]) {
		return max + 1
	}
	prev2, prev, cur := buf[0][:lb+1], buf[1][:lb+1], buf[2][:lb+1]
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

// fuzzyLimit is the typo tolerance for a word of this length.
func fuzzyLimit(n int) int {
	switch {
	case n >= 9:
		return 2
	case n >= 5:
		return 1
	}
	return 0
}
