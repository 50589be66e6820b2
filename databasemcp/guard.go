package databasemcp

import (
	"fmt"
	"unicode/utf8"

	"talk2tables/sqlerr"
	"talk2tables/sqlscan"
)

// readOnlyMessage is the message of every permission refusal.
const readOnlyMessage = sqlscan.ReadOnlyMessage

// checkQuery applies the statement-level guards with SQLite's rules; see
// checkQueryIn.
func checkQuery(q string, maxLen int) *sqlerr.Error {
	_, e := checkQueryIn(sqlscan.SQLite, q, maxLen)
	return e
}

// checkQueryIn applies the statement-level guards in dialect d: length,
// exactly one statement, and a read-only statement kind
// (sqlscan.Dialect.CheckReadOnly, whose tokenizer keeps strings, quoted
// identifiers and comments whole). It returns the tokens, and nil when the
// database may prepare the query; unterminated strings are left to the
// database, which reports them. The database enforces the same policy
// again: SQLite's authorizer, PostgreSQL's and MySQL's read-only
// transactions.
func checkQueryIn(d sqlscan.Dialect, q string, maxLen int) ([]sqlscan.Token, *sqlerr.Error) {
	if n := utf8.RuneCountInString(q); n > maxLen {
		return nil, sqlerr.New(sqlerr.ResourceLimit,
			fmt.Sprintf("query is %d characters long; the maximum is %d: shorten the query", n, maxLen))
	}
	toks, _ := d.Tokenize(q)
	if d == sqlscan.MySQL { // every reading of its executable comments, not only the tokens'
		return toks, d.CheckReadOnly(q)
	}
	return toks, d.CheckReadOnlyTokens(toks) // what CheckReadOnly does, without tokenizing twice
}
