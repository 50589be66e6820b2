package sqlscan

import (
	"fmt"
	"strings"

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

// pgWriteKeywords are PostgreSQL's statements that are not plain queries:
// writes, DDL, session and transaction control, notifications, cursors,
// prepared statements, procedural code and maintenance.
var pgWriteKeywords = map[string]bool{
	"INSERT": true, "UPDATE": true, "DELETE": true, "MERGE": true, "TRUNCATE": true, "COPY": true,
	"CREATE": true, "DROP": true, "ALTER": true, "COMMENT": true, "SECURITY": true, "GRANT": true, "REVOKE": true,
	"REASSIGN": true, "IMPORT": true, "LOAD": true, "REFRESH": true, "CLUSTER": true, "VACUUM": true,
	"ANALYZE": true, "ANALYSE": true, "REINDEX": true, "CHECKPOINT": true, "LOCK": true,
	"SET": true, "RESET": true, "SHOW": true, "DISCARD": true, "LISTEN": true, "UNLISTEN": true, "NOTIFY": true,
	"BEGIN": true, "START": true, "COMMIT": true, "END": true, "ROLLBACK": true, "ABORT": true,
	"SAVEPOINT": true, "RELEASE": true, "PREPARE": true, "EXECUTE": true, "DEALLOCATE": true,
	"DECLARE": true, "FETCH": true, "MOVE": true, "CLOSE": true, "DO": true, "CALL": true,
}

// pgModifyingWords are the data-modifying statements PostgreSQL accepts
// inside a WITH query at any depth, and so are refused anywhere in a query.
var pgModifyingWords = map[string]bool{"INSERT": true, "UPDATE": true, "DELETE": true, "MERGE": true}

// CheckReadOnly checks sql with SQLite's rules; see Dialect.CheckReadOnly.
func CheckReadOnly(sql string) *sqlerr.Error { return SQLite.CheckReadOnly(sql) }

// CheckReadOnlyTokens is CheckReadOnly over the tokens from Tokenize, with
// SQLite's rules.
func CheckReadOnlyTokens(toks []Token) *sqlerr.Error { return SQLite.CheckReadOnlyTokens(toks) }

// IsWriteKeyword reports whether an upper-case word starts a statement that
// changes the database, its schema, the connection or the file system, in
// SQLite, PostgreSQL or MySQL.
func IsWriteKeyword(upper string) bool {
	return writeKeywords[upper] || pgWriteKeywords[upper] || mysqlWriteKeywords[upper]
}

// noDialect is the refusal of SQL checked in no dialect (the zero Dialect).
func noDialect() *sqlerr.Error {
	return sqlerr.New(sqlerr.PermissionError, "the SQL dialect of the database is unknown, so the query cannot be checked: "+
		"name it (sqlite, postgres or mysql); "+ReadOnlyMessage)
}

// CheckReadOnly reports whether sql is exactly one read-only statement:
// SELECT, WITH ... SELECT, VALUES, or EXPLAIN of one of them (SQLite: EXPLAIN
// [QUERY PLAN]; PostgreSQL: EXPLAIN [ANALYZE] [VERBOSE] or EXPLAIN (options);
// MySQL: EXPLAIN [ANALYZE] [EXTENDED] [PARTITIONS] [FORMAT = name]; both of
// them also TABLE name), possibly in parentheses, with any number of trailing
// semicolons. It returns nil, or a *sqlerr.Error with Category
// PERMISSION_ERROR for a second statement, a write, DDL, PRAGMA, ATTACH,
// session or transaction statement, and SYNTAX_ERROR for an empty query or
// one that starts with anything else.
//
// For PostgreSQL it also refuses, anywhere in the statement, what a SELECT
// can hide: data-modifying WITH queries (INSERT, UPDATE, DELETE, MERGE),
// SELECT ... INTO (creates a table), row locks (FOR UPDATE / SHARE), calls
// of the functions with side effects in SideEffectFunction, and U&"..."
// identifiers (whose names only the server decodes). Functions are checked
// by name only; the server-side guard also refuses every volatile function.
//
// For MySQL it refuses, anywhere in the statement, executable comments and
// optimizer hints, variable assignment (:=), SELECT ... INTO, row locks,
// PROCEDURE, sequence values and the functions of MySQLSideEffectFunction;
// and it reads the statement with each sql_mode that moves token
// boundaries (ANSI_QUOTES, NO_BACKSLASH_ESCAPES), refusing it if any
// reading does: a client cannot know the server's mode.
//
// A query in no dialect (the zero Dialect) is always refused.
//
// Unterminated strings and comments run to the end of the input and are not
// refused here: the database reports them when it prepares the statement.
// Callers that must refuse them check Tokenize's error first.
func (d Dialect) CheckReadOnly(sql string) *sqlerr.Error {
	if d == MySQL {
		return checkMySQL(sql)
	}
	toks, _ := d.Tokenize(sql)
	return d.CheckReadOnlyTokens(toks)
}

// CheckReadOnlyTokens is CheckReadOnly over the tokens from d.Tokenize: for
// MySQL, one reading only (the one the tokens were scanned with);
// CheckReadOnly checks them all.
func (d Dialect) CheckReadOnlyTokens(toks []Token) *sqlerr.Error {
	if !d.Valid() {
		return noDialect()
	}
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
	if e := d.checkStatement(toks); e != nil {
		return e
	}
	switch d {
	case Postgres:
		return checkPostgresBody(toks)
	case MySQL:
		return checkMySQLBody(toks)
	}
	return nil
}

// checkStatement checks the kind of one statement (no ';' inside).
func (d Dialect) checkStatement(toks []Token) *sqlerr.Error {
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
	case "TABLE":
		if d != SQLite {
			return nil
		}
	case "EXPLAIN":
		return d.checkStatement(toks[d.explainOptions(toks, i+1):])
	case "WITH":
		return d.checkWith(toks[i+1:])
	}
	if d.writeKeyword(first.Upper) {
		return sqlerr.New(sqlerr.PermissionError, first.Upper+" is not allowed: "+ReadOnlyMessage)
	}
	return sqlerr.New(sqlerr.SyntaxError,
		fmt.Sprintf("query must start with SELECT, WITH, VALUES or EXPLAIN, not %q", first.Upper))
}

// explainOptions returns the index of the statement EXPLAIN explains, given
// the index i just after EXPLAIN.
func (d Dialect) explainOptions(toks []Token, i int) int {
	if d == MySQL {
		return mysqlExplainOptions(toks, i)
	}
	if d != Postgres {
		if i+1 < len(toks) && toks[i].IsWord("QUERY") && toks[i+1].IsWord("PLAN") {
			i += 2
		}
		return i
	}
	// EXPLAIN ( option [, ...] ) statement: an option list starts with an
	// option name, a statement in parentheses with a statement keyword.
	if i+1 < len(toks) && toks[i].IsPunct("(") && toks[i+1].Kind == Word && !statementStart(toks[i+1].Upper) {
		if j := ClosingParen(toks, i); j > 0 {
			return j + 1
		}
		return len(toks)
	}
	for i < len(toks) && (toks[i].IsWord("ANALYZE") || toks[i].IsWord("ANALYSE") || toks[i].IsWord("VERBOSE")) {
		i++
	}
	return i
}

// statementStart reports whether the upper-case word w starts a query.
func statementStart(w string) bool {
	return w == "SELECT" || w == "WITH" || w == "VALUES" || w == "TABLE"
}

// ClosingParen returns the index of the ')' matching the '(' at toks[open],
// or -1 when it is not closed.
func ClosingParen(toks []Token, open int) int {
	depth := 0
	for j := open; j < len(toks); j++ {
		switch {
		case toks[j].IsPunct("("):
			depth++
		case toks[j].IsPunct(")"):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

func (d Dialect) writeKeyword(w string) bool {
	switch d {
	case Postgres:
		return pgWriteKeywords[w]
	case MySQL:
		return mysqlWriteKeywords[w]
	}
	return writeKeywords[w]
}

// checkWith finds the statement that follows the common table expressions:
// the first keyword at parenthesis depth 0 that can start a statement. CTE
// bodies are inside parentheses, and their names, column lists, AS, NOT and
// MATERIALIZED are the only other things at depth 0.
func (d Dialect) checkWith(toks []Token) *sqlerr.Error {
	depth := 0
	for _, t := range toks {
		switch {
		case t.IsPunct("("):
			depth++
		case t.IsPunct(")"):
			depth--
		case depth == 0 && t.Kind == Word:
			switch {
			case t.Upper == "SELECT" || t.Upper == "VALUES" || (d != SQLite && t.Upper == "TABLE"):
				return nil
			case d.writeKeyword(t.Upper):
				return sqlerr.New(sqlerr.PermissionError,
					"WITH ... "+t.Upper+" is not allowed: "+ReadOnlyMessage)
			}
		}
	}
	return sqlerr.New(sqlerr.SyntaxError, "incomplete input: WITH must be followed by a SELECT statement")
}

// checkPostgresBody refuses what a PostgreSQL query can hide inside an
// allowed statement kind.
func checkPostgresBody(toks []Token) *sqlerr.Error {
	for i, t := range toks {
		next := func(w string) bool { return i+1 < len(toks) && toks[i+1].IsWord(w) }
		switch {
		case t.Kind == Word && pgModifyingWords[t.Upper]:
			if t.Upper == "UPDATE" && i > 0 && (toks[i-1].IsWord("FOR") || toks[i-1].IsWord("KEY")) {
				return rowLock()
			}
			return sqlerr.New(sqlerr.PermissionError, fmt.Sprintf(
				"%s inside a query is not allowed (data-modifying WITH); if it is a column name, write it in double quotes: %s",
				t.Upper, ReadOnlyMessage))
		case t.IsWord("INTO"):
			return sqlerr.New(sqlerr.PermissionError, "SELECT ... INTO creates a table and is not allowed: "+ReadOnlyMessage)
		case t.IsWord("FOR") && (next("SHARE") || next("NO") || next("KEY")):
			return rowLock()
		case t.IsWord("U") && i+2 < len(toks) && toks[i+1].IsPunct("&") && toks[i+2].Kind == Quoted &&
			toks[i+1].Pos == t.Pos+1 && toks[i+2].Pos == t.Pos+2:
			return sqlerr.New(sqlerr.SyntaxError,
				`Unicode-escaped identifiers (U&"...") are not accepted: write the identifier plainly`)
		}
	}
	for _, f := range FunctionCalls(toks) {
		if SideEffectFunction(f.Name) {
			return sqlerr.New(sqlerr.PermissionError, fmt.Sprintf(
				"function %s has side effects (locks, sessions, files, sequences, settings or other queries) and is not allowed: %s",
				f.Name, ReadOnlyMessage))
		}
	}
	return nil
}

func rowLock() *sqlerr.Error {
	return sqlerr.New(sqlerr.PermissionError,
		"row locks (FOR UPDATE / FOR NO KEY UPDATE / FOR SHARE / FOR KEY SHARE) are not allowed: "+ReadOnlyMessage)
}

// FuncCall is a function call found in a token list: an identifier followed
// by '('.
type FuncCall struct {
	// Name is the function name as PostgreSQL resolves it (Token.Ident).
	Name string
	// Schema is the qualifying schema (pg_catalog.now()), or "".
	Schema string
	// Quoted is set when the name is a quoted identifier ("now"()), which
	// is never a keyword.
	Quoted bool
	// Pos is the byte offset of the name in the query.
	Pos int
}

// FunctionCalls returns every identifier followed by '(' in toks (from
// Tokenize, so comments between them do not matter). Besides real calls
// this includes keyword constructs (IN (...), COALESCE(...)), type
// modifiers (numeric(10,2)) and alias column lists; callers match the names
// against the functions they care about.
func FunctionCalls(toks []Token) []FuncCall {
	var out []FuncCall
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if !t.IsIdent() || !toks[i+1].IsPunct("(") {
			continue
		}
		f := FuncCall{Name: t.Ident(), Pos: t.Pos, Quoted: t.Kind == Quoted}
		if i >= 2 && toks[i-1].IsPunct(".") && toks[i-2].IsIdent() {
			f.Schema = toks[i-2].Ident()
		}
		out = append(out, f)
	}
	return out
}

// sideEffectNames are PostgreSQL functions (core and common extensions)
// that change something outside the query's own result even inside a
// read-only transaction, wait, or run SQL text of their own: locks,
// sequences, settings, sessions, notifications, large objects, files,
// replication and WAL control, transaction ids, and the XML dumps that run
// queries. Most are volatile and also refused by the server-side
// volatility check; the stable ones (txid_current, table_to_xml, ...) are
// caught only here.
var sideEffectNames = map[string]bool{
	"set_config": true, "setseed": true, "nextval": true, "setval": true, "currval": true, "lastval": true,
	"pg_notify": true, "pg_cancel_backend": true, "pg_terminate_backend": true, "pg_reload_conf": true,
	"pg_rotate_logfile": true, "pg_rotate_logfile_old": true, "pg_switch_wal": true, "pg_promote": true,
	"pg_create_restore_point": true, "pg_export_snapshot": true, "pg_import_system_collations": true,
	"pg_log_backend_memory_contexts": true, "pg_stop_making_pinned_objects": true,
	"pg_read_file": true, "pg_read_file_old": true, "pg_read_binary_file": true, "pg_stat_file": true,
	"txid_current": true, "txid_current_if_assigned": true, "pg_current_xact_id": true,
	"pg_current_xact_id_if_assigned": true, "ts_stat": true,
	"query_to_xml": true, "query_to_xmlschema": true, "query_to_xml_and_xmlschema": true,
	"cursor_to_xml": true, "cursor_to_xmlschema": true,
	"table_to_xml": true, "table_to_xmlschema": true, "table_to_xml_and_xmlschema": true,
	"schema_to_xml": true, "schema_to_xmlschema": true, "schema_to_xml_and_xmlschema": true,
	"database_to_xml": true, "database_to_xmlschema": true, "database_to_xml_and_xmlschema": true,
}

// sideEffectPrefixes name families of such functions: sleeping, advisory
// locks, large objects (lo_import, lo_export, ...), directory listings,
// backups, replication, logical decoding, WAL replay, dblink, adminpack's
// file functions and binary-upgrade support.
var sideEffectPrefixes = []string{
	"pg_sleep", "pg_advisory", "pg_try_advisory", "lo_", "pg_ls_", "pg_backup_", "pg_start_backup",
	"pg_stop_backup", "pg_replication_", "pg_create_", "pg_drop_", "pg_copy_", "pg_logical_",
	"pg_wal_replay_", "pg_file_", "dblink", "binary_upgrade_",
}

// SideEffectFunction reports whether the PostgreSQL function name (as
// Token.Ident gives it) is one a read-only query must not call.
func SideEffectFunction(name string) bool {
	if sideEffectNames[name] {
		return true
	}
	for _, p := range sideEffectPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
