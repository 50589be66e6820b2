package sqlscan

import (
	"fmt"
	"strings"

	"talk2tables/sqlerr"
)

// mysqlMode is one reading of the sql_mode flags that move MySQL's token
// boundaries. The zero value is MySQL's default (and database-mcp's
// sessions'): double quotes delimit strings, a backslash escapes the next
// character in a string.
type mysqlMode struct {
	ansiQuotes         bool // ANSI_QUOTES: "x" is an identifier
	noBackslashEscapes bool // NO_BACKSLASH_ESCAPES: '\' is an ordinary character
}

// mysqlModes are every reading the read-only check tries: a client of a
// MySQL server it does not configure itself (a third-party executor, a
// server whose global sql_mode was changed) cannot know which one the
// server applies, and a statement is safe only if it is safe in all.
var mysqlModes = [...]mysqlMode{{}, {ansiQuotes: true}, {noBackslashEscapes: true}, {ansiQuotes: true, noBackslashEscapes: true}}

// String names the reading in a refusal.
func (m mysqlMode) String() string {
	switch {
	case m.ansiQuotes && m.noBackslashEscapes:
		return "sql_mode ANSI_QUOTES and NO_BACKSLASH_ESCAPES"
	case m.ansiQuotes:
		return "sql_mode ANSI_QUOTES"
	case m.noBackslashEscapes:
		return "sql_mode NO_BACKSLASH_ESCAPES"
	}
	return "MySQL's default sql_mode"
}

// nextMySQL scans the token that starts at s.i with MySQL's rules:
//   - '#' and "-- " (two dashes and a space or control character, or the
//     end of the input) start comments to the end of the line; "--1" is
//     two minus signs;
//   - /* comments */ do not nest; /*! ... */ and /*M! ... */ (executable
//     comments: MySQL and MariaDB run their content) and /*+ ... */
//     (optimizer hints) are scanned as one Comment token that Tokenize
//     keeps, because they are code, and the read-only check refuses;
//   - 'strings' and (without ANSI_QUOTES) "strings" end at an undoubled
//     quote that no backslash escapes (without NO_BACKSLASH_ESCAPES);
//   - `identifiers` (and, with ANSI_QUOTES, "identifiers") end at an
//     undoubled quote, whatever backslashes precede it;
//   - X'hex' and B'bits' have no escapes; N'...' and _charset'...' are a
//     word followed by an ordinary string;
//   - '$' may start and continue a bare identifier; @name, @@name and ?
//     are parameters (variables); ':=', '<=>' and '&&' are operators.
func (s *scanner) nextMySQL() {
	sql, i, n := s.sql, s.i, len(s.sql)
	c := sql[i]
	switch {
	case isSpace(c):
		j := i + 1
		for j < n && isSpace(sql[j]) {
			j++
		}
		s.add(Space, j, false)
	case c == '#' || (c == '-' && i+1 < n && sql[i+1] == '-' && (i+2 == n || sql[i+2] <= ' ' || sql[i+2] == 0x7f)):
		j := strings.IndexByte(sql[i:], '\n')
		if j < 0 {
			j = n - i
		}
		s.add(Comment, i+j, false)
	case c == '/' && i+1 < n && sql[i+1] == '*':
		end, ok := n, false
		if j := strings.Index(sql[i+2:], "*/"); j >= 0 {
			end, ok = i+2+j+2, true
		}
		s.add(Comment, end, !ok)
	case c == '\'' || (c == '"' && !s.my.ansiQuotes):
		end, ok := closeMySQLString(sql, i, c, !s.my.noBackslashEscapes)
		s.add(String, end, !ok)
	case (c == 'x' || c == 'X' || c == 'b' || c == 'B') && i+1 < n && sql[i+1] == '\'':
		end, ok := closeQuote(sql, i+1, '\'')
		s.add(String, end, !ok)
	case c == '`' || c == '"':
		end, ok := closeQuote(sql, i, c)
		inner := sql[i+1 : end]
		if ok {
			inner = sql[i+1 : end-1]
		}
		name := strings.ReplaceAll(inner, string([]byte{c, c}), string(c))
		s.toks = append(s.toks, Token{Kind: Quoted, Text: sql[i:end], Upper: strings.ToUpper(name), Pos: i, Unterminated: !ok})
		s.i = end
	case isDigit(c) || (c == '.' && i+1 < n && isDigit(sql[i+1])):
		j := i + 1
		for j < n && (isWordByte(sql[j]) || sql[j] == '.' ||
			((sql[j] == '+' || sql[j] == '-') && (sql[j-1] == 'e' || sql[j-1] == 'E'))) {
			j++
		}
		s.add(Number, j, false)
	case isWordByte(c) || c == '$':
		j := i + 1
		for j < n && (isWordByte(sql[j]) || sql[j] == '$') {
			j++
		}
		s.toks = append(s.toks, Token{Kind: Word, Text: sql[i:j], Upper: strings.ToUpper(sql[i:j]), Pos: i})
		s.i = j
	case c == '@':
		j := i + 1
		for j < n && sql[j] == '@' {
			j++
		}
		for j < n && (isWordByte(sql[j]) || sql[j] == '$') {
			j++
		}
		s.add(Param, j, false) // "@" alone: a quoted variable name follows
	case c == '?':
		s.add(Param, i+1, false)
	default:
		s.add(Punct, i+mysqlPunctLen(sql[i:]), false)
	}
}

// mysqlPunctLen is the length of MySQL's operator at the start of rest.
func mysqlPunctLen(rest string) int {
	if len(rest) >= 3 && (rest[:3] == "<=>" || rest[:3] == "->>") {
		return 3
	}
	if len(rest) >= 2 {
		switch rest[:2] {
		case ":=", "&&", "||", "<=", ">=", "<>", "!=", "<<", ">>", "->":
			return 2
		}
	}
	return 1
}

// closeMySQLString returns the offset just past the quote q that closes the
// MySQL string starting at start (a doubled quote is a quote; with
// backslash, a backslash escapes the next byte), and whether it was found.
func closeMySQLString(sql string, start int, q byte, backslash bool) (int, bool) {
	for j := start + 1; j < len(sql); j++ {
		switch sql[j] {
		case '\\':
			if backslash {
				j++
			}
		case q:
			if j+1 < len(sql) && sql[j+1] == q {
				j++
				continue
			}
			return j + 1, true
		}
	}
	return len(sql), false
}

// executableComment reports whether a MySQL comment token runs as code:
// /*! ... */ (MySQL and MariaDB), /*M! ... */ (MariaDB) or an optimizer
// hint /*+ ... */ (which can set variables and the statement's timeout).
func executableComment(t Token) bool {
	if t.Kind != Comment || len(t.Text) < 3 || t.Text[1] != '*' {
		return false
	}
	switch t.Text[2] {
	case '!', '+':
		return true
	case 'M', 'm':
		return len(t.Text) > 3 && t.Text[3] == '!'
	}
	return false
}

// checkMySQL checks sql in every reading of mysqlModes and returns the
// first refusal, naming the reading when it is not the default one.
func checkMySQL(sql string) *sqlerr.Error {
	for _, mode := range mysqlModes {
		toks, _ := MySQL.tokenize(sql, mode)
		if e := MySQL.CheckReadOnlyTokens(toks); e != nil {
			if mode != (mysqlMode{}) {
				e.Message += " (as a server with " + mode.String() + " reads it)"
			}
			return e
		}
	}
	return nil
}

// mysqlWriteKeywords are MySQL's and MariaDB's statements that are not
// plain queries: writes, DDL, privileges, session and transaction control,
// locks, handlers, prepared statements, procedures, server administration
// and replication.
var mysqlWriteKeywords = map[string]bool{
	"INSERT": true, "UPDATE": true, "DELETE": true, "REPLACE": true, "TRUNCATE": true, "LOAD": true,
	"CREATE": true, "DROP": true, "ALTER": true, "RENAME": true, "GRANT": true, "REVOKE": true,
	"IMPORT": true, "HANDLER": true, "LOCK": true, "UNLOCK": true, "SET": true, "RESET": true,
	"CALL": true, "DO": true, "PREPARE": true, "EXECUTE": true, "DEALLOCATE": true,
	"BEGIN": true, "START": true, "COMMIT": true, "ROLLBACK": true, "SAVEPOINT": true, "RELEASE": true, "XA": true,
	"FLUSH": true, "KILL": true, "SHUTDOWN": true, "RESTART": true, "INSTALL": true, "UNINSTALL": true,
	"ANALYZE": true, "OPTIMIZE": true, "REPAIR": true, "CHECK": true, "CHECKSUM": true, "CACHE": true,
	"PURGE": true, "CHANGE": true, "STOP": true, "BINLOG": true, "CLONE": true, "USE": true, "SHOW": true,
	"HELP": true, "BACKUP": true,
}

// mysqlSideEffectNames are MySQL and MariaDB functions that a read-only
// query must not call: they wait (SLEEP, BENCHMARK, the replication
// waits), take or inspect named locks that outlive the transaction, read
// server files (LOAD_FILE), move sequences (MariaDB's NEXTVAL, SETVAL,
// LASTVAL), set session state (LAST_INSERT_ID(expr)), or run commands
// (lib_mysqludf_sys). Families of loadable functions that change server
// state are in mysqlSideEffectPrefixes.
var mysqlSideEffectNames = map[string]bool{
	"sleep": true, "benchmark": true, "get_lock": true, "release_lock": true, "release_all_locks": true,
	"is_free_lock": true, "is_used_lock": true, "load_file": true,
	"master_pos_wait": true, "source_pos_wait": true, "master_gtid_wait": true,
	"wait_for_executed_gtid_set": true, "wait_until_sql_thread_after_gtids": true,
	"nextval": true, "setval": true, "lastval": true, "last_insert_id": true,
	"sys_exec": true, "sys_eval": true, "sys_get": true, "sys_set": true, "set_firewall_mode": true,
}

// mysqlSideEffectPrefixes name MySQL's loadable-function families that
// change server state: the keyring, the audit log, version tokens, the
// locking service, the firewall, replication failover and group
// replication.
var mysqlSideEffectPrefixes = []string{
	"keyring_", "audit_log_", "version_tokens_", "service_get_", "service_release_", "mysql_firewall_",
	"asynchronous_connection_failover_", "group_replication_",
}

// MySQLSideEffectFunction reports whether the MySQL function name (as
// Token.Ident gives it, lower case) is one a read-only query must not call.
func MySQLSideEffectFunction(name string) bool {
	if mysqlSideEffectNames[name] {
		return true
	}
	for _, p := range mysqlSideEffectPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// checkMySQLBody refuses what a MySQL query can hide inside an allowed
// statement kind: executable comments and hints, variable assignment,
// SELECT ... INTO (files, variables), row locks, PROCEDURE, sequence
// values, and the functions of MySQLSideEffectFunction.
func checkMySQLBody(toks []Token) *sqlerr.Error {
	for i, t := range toks {
		next := func(w string) bool { return i+1 < len(toks) && toks[i+1].IsWord(w) }
		switch {
		case executableComment(t):
			return sqlerr.New(sqlerr.PermissionError,
				"executable comments (/*! ... */, /*M! ... */) and optimizer hints (/*+ ... */) run as SQL and are not accepted: "+
					"write the query without them; "+ReadOnlyMessage)
		case t.IsPunct(":="):
			return sqlerr.New(sqlerr.PermissionError,
				"assigning variables (@x := ...) changes the session and is not allowed: "+ReadOnlyMessage)
		case t.IsWord("INTO"):
			return sqlerr.New(sqlerr.PermissionError,
				"SELECT ... INTO writes a file (OUTFILE, DUMPFILE) or variables and is not allowed: "+ReadOnlyMessage)
		case t.IsWord("FOR") && (next("UPDATE") || next("SHARE")), t.IsWord("LOCK") && next("IN"):
			return sqlerr.New(sqlerr.PermissionError,
				"row locks (FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE) are not allowed: "+ReadOnlyMessage)
		case t.IsWord("PROCEDURE"):
			return sqlerr.New(sqlerr.PermissionError, "SELECT ... PROCEDURE runs a procedure and is not allowed: "+ReadOnlyMessage)
		case (t.IsWord("NEXT") || t.IsWord("PREVIOUS")) && next("VALUE"):
			return sqlerr.New(sqlerr.PermissionError,
				"NEXT VALUE FOR / PREVIOUS VALUE FOR use a sequence and are not allowed: "+ReadOnlyMessage)
		}
	}
	for _, f := range FunctionCalls(toks) {
		if MySQLSideEffectFunction(f.Name) {
			return sqlerr.New(sqlerr.PermissionError, fmt.Sprintf(
				"function %s waits, takes locks, reads server files or changes session or server state and is not allowed: %s",
				strings.ToUpper(f.Name), ReadOnlyMessage))
		}
	}
	return nil
}

// mysqlExplainOptions returns the index of the statement a MySQL EXPLAIN
// explains, given the index i just after EXPLAIN: ANALYZE, EXTENDED,
// PARTITIONS and FORMAT = name are skipped (EXPLAIN FOR CONNECTION is not a
// query and fails the statement check).
func mysqlExplainOptions(toks []Token, i int) int {
	for i < len(toks) {
		switch {
		case toks[i].IsWord("ANALYZE") || toks[i].IsWord("EXTENDED") || toks[i].IsWord("PARTITIONS"):
			i++
		case toks[i].IsWord("FORMAT") && i+2 < len(toks) && toks[i+1].IsPunct("="):
			i += 3
		default:
			return i
		}
	}
	return i
}
