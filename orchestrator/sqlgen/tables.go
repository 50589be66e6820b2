package sqlgen

import (
	"slices"

	"talk2tables/sqlscan"
)

// TablesRead lists the tables a statement reads, as written ("t",
// "schema.t"; quoted names unquoted), in order of appearance: the names
// after FROM and JOIN (and in FROM's comma list), leaving out common table
// expressions, subqueries, table functions and the FROM inside EXTRACT,
// SUBSTRING and the like. SQL that does not tokenize gives nil. It is meant
// for checks that refuse SQL naming a known table of another database, not
// as a parser: what it cannot read it leaves out. An empty dialect reads
// sql with each dialect's rules and lists the tables of every reading.
func TablesRead(dialect, sql string) []string {
	dialects, err := checkDialects(dialect)
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range dialects {
		for _, t := range tablesRead(d, sql) {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// tablesRead is TablesRead in one dialect.
func tablesRead(d sqlscan.Dialect, sql string) []string {
	toks, err := d.Tokenize(sql)
	if err != nil {
		return nil
	}
	ctes := cteNames(toks)
	var out []string
	var openers []sqlscan.Token // the token before each open '('
	for i, t := range toks {
		switch {
		case t.IsPunct("("):
			var before sqlscan.Token
			if i > 0 {
				before = toks[i-1]
			}
			openers = append(openers, before)
		case t.IsPunct(")"):
			if len(openers) > 0 {
				openers = openers[:len(openers)-1]
			}
		case t.IsWord("FROM") || t.IsWord("JOIN"):
			if len(openers) > 0 && inFunctionCall(openers[len(openers)-1]) {
				continue // EXTRACT(YEAR FROM col), SUBSTRING(s FROM 2)
			}
			for _, name := range tableRefs(toks, i+1, t.IsWord("FROM")) {
				if !ctes[lowerASCII(name)] && !slices.Contains(out, name) {
					out = append(out, name)
				}
			}
		}
	}
	return out
}

// tableRefs reads the table references starting at toks[j]: one, or a comma
// list after FROM.
func tableRefs(toks []sqlscan.Token, j int, list bool) []string {
	var out []string
	for j < len(toks) && toks[j].IsIdent() && !toks[j].IsWord("LATERAL") {
		name := identName(toks[j])
		j++
		for j+1 < len(toks) && toks[j].IsPunct(".") && toks[j+1].IsIdent() {
			name += "." + identName(toks[j+1])
			j += 2
		}
		if j < len(toks) && toks[j].IsPunct("(") {
			return out // a table function: generate_series(...), json_each(...)
		}
		out = append(out, name)
		switch {
		case j+1 < len(toks) && toks[j].IsWord("AS") && toks[j+1].IsIdent():
			j += 2
		case j < len(toks) && toks[j].IsIdent() && !clauseWords[toks[j].Upper]:
			j++ // an alias
		}
		if !list || j >= len(toks) || !toks[j].IsPunct(",") {
			return out
		}
		j++
	}
	return out
}

// cteNames are the lower-case names a WITH clause defines.
func cteNames(toks []sqlscan.Token) map[string]bool {
	out := map[string]bool{}
	for i := 1; i+1 < len(toks); i++ {
		prev := toks[i-1]
		if !toks[i].IsIdent() || !(prev.IsWord("WITH") || prev.IsWord("RECURSIVE") || prev.IsPunct(",")) {
			continue
		}
		j := i + 1
		if toks[j].IsPunct("(") { // name (col, ...) AS (
			for j < len(toks) && !toks[j].IsPunct(")") {
				j++
			}
			j++
		}
		if j+1 < len(toks) && toks[j].IsWord("AS") && (toks[j+1].IsPunct("(") || toks[j+1].IsWord("MATERIALIZED") || toks[j+1].IsWord("NOT")) {
			out[lowerASCII(identName(toks[i]))] = true
		}
	}
	return out
}

// inFunctionCall reports whether a '(' opened after tok starts a function's
// arguments (EXTRACT(, SUBSTRING(, a user function) rather than a subquery
// or a parenthesised expression.
func inFunctionCall(tok sqlscan.Token) bool {
	if tok.Kind == sqlscan.Quoted {
		return true
	}
	return tok.Kind == sqlscan.Word && !subqueryOpeners[tok.Upper]
}

// subqueryOpeners are the words after which '(' may open a subquery.
var subqueryOpeners = map[string]bool{"FROM": true, "JOIN": true, "IN": true, "EXISTS": true, "AS": true,
	"ANY": true, "ALL": true, "SOME": true, "LATERAL": true, "NOT": true, "SELECT": true, "WHERE": true,
	"AND": true, "OR": true, "ON": true, "UNION": true, "EXCEPT": true, "INTERSECT": true, "THEN": true,
	"ELSE": true, "WHEN": true, "HAVING": true, "BY": true, "MATERIALIZED": true}

// clauseWords end a table reference: they are never its alias.
var clauseWords = map[string]bool{"WHERE": true, "GROUP": true, "ORDER": true, "HAVING": true, "LIMIT": true,
	"JOIN": true, "INNER": true, "LEFT": true, "RIGHT": true, "FULL": true, "CROSS": true, "NATURAL": true,
	"ON": true, "USING": true, "UNION": true, "EXCEPT": true, "INTERSECT": true, "WINDOW": true, "OFFSET": true,
	"FETCH": true, "FOR": true, "OUTER": true, "LATERAL": true, "TABLESAMPLE": true}

// identName is a token's name as written: a quoted identifier unquoted.
func identName(t sqlscan.Token) string {
	if t.Kind == sqlscan.Quoted {
		return t.Ident()
	}
	return t.Text
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
