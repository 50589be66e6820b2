package evaluation

import (
	"strconv"

	"talk2tables/sqlscan"
)

// GoldDecimals reads, for each result column of a gold query, the number of
// decimals it is rounded to: n for a column written ROUND(x, n) (0 for
// ROUND(x)), -1 for any other. Only the outermost SELECT's list is read
// (the first one of a compound query, after any WITH); nil when the list
// cannot be read (SELECT *).
func GoldDecimals(gold string) []int {
	toks, err := sqlscan.Tokenize(gold)
	if err != nil {
		return nil
	}
	start, end := selectList(toks)
	if start < 0 {
		return nil
	}
	var out []int
	for _, item := range splitTopLevel(toks[start:end]) {
		if len(item) == 1 && item[0].IsPunct("*") {
			return nil
		}
		out = append(out, roundedTo(withoutAlias(item)))
	}
	return out
}

// selectList returns the token range of the outermost SELECT's result
// columns: after SELECT (and DISTINCT or ALL) up to its FROM, or to the
// end of the statement when it has none.
func selectList(toks []sqlscan.Token) (start, end int) {
	depth := 0
	start = -1
	for i, t := range toks {
		switch {
		case t.IsPunct("("):
			depth++
		case t.IsPunct(")"):
			depth--
		case depth != 0:
		case start < 0 && t.IsWord("SELECT"):
			start = i + 1
			if start < len(toks) && (toks[start].IsWord("DISTINCT") || toks[start].IsWord("ALL")) {
				start++
			}
		case start >= 0 && (t.IsWord("FROM") || t.IsWord("UNION") || t.IsWord("INTERSECT") || t.IsWord("EXCEPT") ||
			t.IsWord("WHERE") || t.IsWord("ORDER") || t.IsWord("LIMIT") || t.IsPunct(";")):
			return start, i
		}
	}
	if start < 0 {
		return -1, -1
	}
	return start, len(toks)
}

// splitTopLevel splits tokens at commas outside parentheses.
func splitTopLevel(toks []sqlscan.Token) [][]sqlscan.Token {
	var out [][]sqlscan.Token
	depth, from := 0, 0
	for i, t := range toks {
		switch {
		case t.IsPunct("("):
			depth++
		case t.IsPunct(")"):
			depth--
		case depth == 0 && t.IsPunct(","):
			out = append(out, toks[from:i])
			from = i + 1
		}
	}
	return append(out, toks[from:])
}

// withoutAlias drops a trailing "AS name" or bare alias after a closing
// parenthesis.
func withoutAlias(item []sqlscan.Token) []sqlscan.Token {
	n := len(item)
	switch {
	case n >= 3 && item[n-2].IsWord("AS"):
		return item[:n-2]
	case n >= 2 && item[n-1].IsIdent() && item[n-2].IsPunct(")"):
		return item[:n-1]
	}
	return item
}

// roundedTo returns n when expr is exactly ROUND(x, n) or ROUND(x) (n = 0),
// else -1.
func roundedTo(expr []sqlscan.Token) int {
	if len(expr) < 4 || !expr[0].IsWord("ROUND") || !expr[1].IsPunct("(") || !expr[len(expr)-1].IsPunct(")") {
		return -1
	}
	// The parenthesis after ROUND must close at the end of expr.
	depth := 0
	for i, t := range expr[1:] {
		switch {
		case t.IsPunct("("):
			depth++
		case t.IsPunct(")"):
			depth--
			if depth == 0 && i+2 != len(expr) {
				return -1
			}
		}
	}
	args := splitTopLevel(expr[2 : len(expr)-1])
	switch len(args) {
	case 1:
		return 0
	case 2:
		if len(args[1]) == 1 && args[1][0].Kind == sqlscan.Number {
			if n, err := strconv.Atoi(args[1][0].Text); err == nil && n >= 0 {
				return n
			}
		}
	}
	return -1
}
