package databasemcp

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"talk2tables/sqlerr"
)

// readOnlyMessage is the message of every permission refusal.
const readOnlyMessage = "only read-only SELECT queries are allowed (SELECT, WITH ... SELECT, VALUES or EXPLAIN)"

// writeKeywords start statements that change the database, its schema, the
// connection or the file system. A query starting with one is a permission
// error, not a syntax error, so a client does not retry it.
var writeKeywords = map[string]bool{
	"INSERT": true, "UPDATE": true, "DELETE": true, "REPLACE": true, "UPSERT": true,
	"CREATE": true, "DROP": true, "ALTER": true, "ATTACH": true, "DETACH": true,
	"PRAGMA": true, "VACUUM": true, "REINDEX": true, "ANALYZE": true,
	"BEGIN": true, "COMMIT": true, "END": true, "ROLLBACK": true, "SAVEPOINT": true, "RELEASE": true,
}

// tokenKind classifies the tokens checkStatement looks at.
type tokenKind int

const (
	tokWord  tokenKind = iota // keyword or bare identifier
	tokQuote                  // string literal or quoted identifier
	tokPunct                  // any other single character, including ( ) ;
)

type token struct {
	kind tokenKind
	text string // upper-cased for words
}

// tokenize splits SQL into tokens the way SQLite's tokenizer draws their
// boundaries: it skips whitespace and comments, and keeps '...' strings and
// "..." `...` [...] identifiers whole, so a ';' or a keyword inside them is
// not seen. Unterminated strings and comments run to the end of the input
// (SQLite then reports the real error when it prepares the statement).
func tokenize(q string) []token {
	var toks []token
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				return toks
			}
			i += j + 1
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			j := strings.Index(q[i+2:], "*/")
			if j < 0 {
				return toks
			}
			i += 2 + j + 2
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(q) {
				if q[j] == c {
					if j+1 < len(q) && q[j+1] == c { // doubled quote escapes itself
						j += 2
						continue
					}
					break
				}
				j++
			}
			toks = append(toks, token{tokQuote, q[i:min(j+1, len(q))]})
			i = j + 1
		case c == '[':
			j := strings.IndexByte(q[i:], ']')
			if j < 0 {
				j = len(q) - i - 1
			}
			toks = append(toks, token{tokQuote, q[i : i+j+1]})
			i += j + 1
		case isIdentByte(c):
			j := i
			for j < len(q) && (isIdentByte(q[j]) || (q[j] >= '0' && q[j] <= '9') || q[j] == '$') {
				j++
			}
			toks = append(toks, token{tokWord, strings.ToUpper(q[i:j])})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(q) && (isIdentByte(q[j]) || (q[j] >= '0' && q[j] <= '9') || q[j] == '.') {
				j++
			}
			toks = append(toks, token{tokPunct, q[i:j]})
			i = j
		default:
			toks = append(toks, token{tokPunct, string(c)})
			i++
		}
	}
	return toks
}

// isIdentByte reports whether c can start an identifier. Like SQLite, every
// byte of a multi-byte UTF-8 character counts as an identifier character, so
// look-alike letters and zero-width spaces glue to the word they touch.
func isIdentByte(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

// checkQuery applies the statement-level guards: length, exactly one
// statement, and a read-only statement kind. It returns nil when SQLite may
// prepare the query. The authorizer installed on every connection enforces
// the same policy again inside SQLite.
func checkQuery(q string, maxLen int) *sqlerr.Error {
	if n := utf8.RuneCountInString(q); n > maxLen {
		return sqlerr.New(sqlerr.UnknownError,
			fmt.Sprintf("query is %d characters long; the maximum is %d: shorten the query", n, maxLen))
	}
	toks := tokenize(q)
	// Drop trailing semicolons; any other token after a top-level ';' is a
	// second statement.
	end := len(toks)
	for end > 0 && toks[end-1].kind == tokPunct && toks[end-1].text == ";" {
		end--
	}
	toks = toks[:end]
	if len(toks) == 0 {
		return sqlerr.New(sqlerr.SyntaxError, "empty query: send one SELECT statement")
	}
	for _, t := range toks {
		if t.kind == tokPunct && t.text == ";" {
			return sqlerr.New(sqlerr.PermissionError,
				"more than one statement: send exactly one statement; "+readOnlyMessage)
		}
	}
	return checkStatement(toks)
}

// checkStatement checks the kind of one statement (no ';' inside).
func checkStatement(toks []token) *sqlerr.Error {
	i := 0
	for i < len(toks) && toks[i].kind == tokPunct && toks[i].text == "(" {
		i++
	}
	if i == len(toks) {
		return sqlerr.New(sqlerr.SyntaxError, "incomplete input: the query has no statement")
	}
	first := toks[i]
	if first.kind != tokWord {
		return sqlerr.New(sqlerr.SyntaxError,
			fmt.Sprintf("query must start with SELECT, WITH, VALUES or EXPLAIN, not %q", first.text))
	}
	switch first.text {
	case "SELECT", "VALUES":
		return nil
	case "EXPLAIN":
		i++
		if i+1 < len(toks) && toks[i].text == "QUERY" && toks[i+1].text == "PLAN" {
			i += 2
		}
		return checkStatement(toks[i:])
	case "WITH":
		return checkWith(toks[i+1:])
	}
	if writeKeywords[first.text] {
		return sqlerr.New(sqlerr.PermissionError, first.text+" is not allowed: "+readOnlyMessage)
	}
	return sqlerr.New(sqlerr.SyntaxError,
		fmt.Sprintf("query must start with SELECT, WITH, VALUES or EXPLAIN, not %q", first.text))
}

// checkWith finds the statement that follows the common table expressions:
// the first keyword at parenthesis depth 0 that can start a statement. CTE
// bodies are inside parentheses, and their names, column lists, AS, NOT and
// MATERIALIZED are the only other things at depth 0.
func checkWith(toks []token) *sqlerr.Error {
	depth := 0
	for _, t := range toks {
		switch {
		case t.kind == tokPunct && t.text == "(":
			depth++
		case t.kind == tokPunct && t.text == ")":
			depth--
		case depth == 0 && t.kind == tokWord:
			switch {
			case t.text == "SELECT" || t.text == "VALUES":
				return nil
			case writeKeywords[t.text]:
				return sqlerr.New(sqlerr.PermissionError,
					"WITH ... "+t.text+" is not allowed: "+readOnlyMessage)
			}
		}
	}
	return sqlerr.New(sqlerr.SyntaxError, "incomplete input: WITH must be followed by a SELECT statement")
}
