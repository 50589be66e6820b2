package sqlscan

import (
	"fmt"

	"talk2tables/sqlerr"
)

// ReadOnlyMessage ends every permission refusal of CheckReadOnly.
const ReadOnlyMessage = "only read-only SELECT queries are allowed (SELECT, WITH ... SELECT, VALUES or EXPLAIN)"

// writeKeywords start statements that change the database, its schema, the
// connection or the file system. A query starting with one is a permission
// error, not a syntax error, so a client does not retry it.
var writeKeywords = map[string]bool{
	"INSERT": true, "UPDATE": true, "DELETE": true, "REPLACE": true, "UPSERT": true,
	"CREATE": true, "DROP": true, "ALTER": true, "ATTACH": true, "DETACH": true,
	"PRAGMA": true, "VACUUM": true, "REINDEX": true, "ANALYZE": true,
	"BEGIN": true, "COMMIT": true, "END": true, "ROLLBACK": true, "SAVEPOINT": true, "RELEASE": true,
}

// IsWriteKeyword reports whether an upper-case word starts a statement that
// changes the database, its schema, the connection or the file system.
func IsWriteKeyword(upper string) bool { return writeKeywords[upper] }

// CheckReadOnly reports whether sql is exactly one read-only statement:
// SELECT, WITH ... SELECT, VALUES, or EXPLAIN [QUERY PLAN] of one of them,
// possibly in parentheses, with any number of trailing semicolons. It
// returns nil, or a *sqlerr.Error with Category PERMISSION_ERROR for a
// second statement, a write, DDL, PRAGMA, ATTACH or transaction statement,
// and SYNTAX_ERROR for an empty query or one that starts with anything else.
//
// Unterminated strings and comments run to the end of the input and are not
// refused here: the database reports them when it prepares the statement.
// Callers that must refuse them check Tokenize's error first.
func CheckReadOnly(sql string) *sqlerr.Error {
	toks, _ := Tokenize(sql)
	return CheckReadOnlyTokens(toks)
}

// CheckReadOnlyTokens is CheckReadOnly over the tokens from Tokenize.
func CheckReadOnlyTokens(toks []Token) *sqlerr.Error {
	// Drop trailing semicolons; any other token after a top-level ';' is a
	// second statement.
	end := len(toks)
	for end > 0 && toks[end-1].IsPunct(";") {
		end--
	}
	toks = toks[:end]
	if len(toks) == 0 {
		return sqlerr.New(sqlerr.SyntaxError, "empty query: send one SELECT statement")
	}
	for _, t := range toks {
		if t.IsPunct(";") {
			return sqlerr.New(sqlerr.PermissionError,
				"more than one statement: send exactly one statement; "+ReadOnlyMessage)
		}
	}
	return checkStatement(toks)
}

// checkStatement checks the kind of one statement (no ';' inside).
func checkStatement(toks []Token) *sqlerr.Error {
	i := 0
	for i < len(toks) && toks[i].IsPunct("(") {
		i++
	}
	if i == len(toks) {
		return sqlerr.New(sqlerr.SyntaxError, "incomplete input: the query has no statement")
	}
	first := toks[i]
	if first.Kind != Word {
		return sqlerr.New(sqlerr.SyntaxError,
			fmt.Sprintf("query must start with SELECT, WITH, VALUES or EXPLAIN, not %q", first.Text))
	}
	switch first.Upper {
	case "SELECT", "VALUES":
		return nil
	case "EXPLAIN":
		i++
		if i+1 < len(toks) && toks[i].IsWord("QUERY") && toks[i+1].IsWord("PLAN") {
			i += 2
		}
		return checkStatement(toks[i:])
	case "WITH":
		return checkWith(toks[i+1:])
	}
	if writeKeywords[first.Upper] {
		return sqlerr.New(sqlerr.PermissionError, first.Upper+" is not allowed: "+ReadOnlyMessage)
	}
	return sqlerr.New(sqlerr.SyntaxError,
		fmt.Sprintf("query must start with SELECT, WITH, VALUES or EXPLAIN, not %q", first.Upper))
}

// checkWith finds the statement that follows the common table expressions:
// the first keyword at parenthesis depth 0 that can start a statement. CTE
// bodies are inside parentheses, and their names, column lists, AS, NOT and
// MATERIALIZED are the only other things at depth 0.
func checkWith(toks []Token) *sqlerr.Error {
	depth := 0
	for _, t := range toks {
		switch {
		case t.IsPunct("("):
			depth++
		case t.IsPunct(")"):
			depth--
		case depth == 0 && t.Kind == Word:
			switch {
			case t.Upper == "SELECT" || t.Upper == "VALUES":
				return nil
			case writeKeywords[t.Upper]:
				return sqlerr.New(sqlerr.PermissionError,
					"WITH ... "+t.Upper+" is not allowed: "+ReadOnlyMessage)
			}
		}
	}
	return sqlerr.New(sqlerr.SyntaxError, "incomplete input: WITH must be followed by a SELECT statement")
}
