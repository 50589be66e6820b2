package databasemcp

import (
	"fmt"
	"unicode/utf8"

	"talk2tables/sqlerr"
	"talk2tables/sqlscan"
)

// readOnlyMessage is the message of every permission refusal.
const readOnlyMessage = sqlscan.ReadOnlyMessage

// checkQuery applies the statement-level guards: length, exactly one
// statement, and a read-only statement kind (sqlscan.CheckReadOnly, whose
// tokenizer keeps strings, quoted identifiers and comments whole). It
// returns nil when SQLite may prepare the query; unterminated strings are
// left to SQLite, which reports them. The authorizer installed on every
// connection enforces the same policy again inside SQLite.
func checkQuery(q string, maxLen int) *sqlerr.Error {
	if n := utf8.RuneCountInString(q); n > maxLen {
		return sqlerr.New(sqlerr.UnknownError,
			fmt.Sprintf("query is %d characters long; the maximum is %d: shorten the query", n, maxLen))
	}
	return sqlscan.CheckReadOnly(q)
}
