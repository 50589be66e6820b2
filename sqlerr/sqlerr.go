// Package sqlerr names the categories of SQL errors shared by the database MCP
// server (which reports them) and the orchestrator (which repairs them), and
// classifies raw database messages into those categories.
//
// It is a leaf package on purpose: both sides of the MCP wire import it, and
// neither imports the other.
package sqlerr

import (
	"errors"
	"strings"
)

// Category is the kind of a SQL failure. The string values are part of the
// wire contract (tool results, QueryResult.attempts) and must not change.
type Category string

// The categories (docs/contracts.md §3).
const (
	SyntaxError      Category = "SYNTAX_ERROR"
	MissingTable     Category = "MISSING_TABLE"
	MissingColumn    Category = "MISSING_COLUMN"
	AmbiguousColumn  Category = "AMBIGUOUS_COLUMN"
	AggregationError Category = "AGGREGATION_ERROR"
	DataTypeMismatch Category = "DATA_TYPE_MISMATCH"
	PermissionError  Category = "PERMISSION_ERROR"
	Timeout          Category = "TIMEOUT"
	// ResourceLimit: the query would exceed a size bound of the executor
	// (a value, a row or the whole result is too large). A narrower query
	// (fewer columns, no large blobs, a LIMIT) fixes it.
	ResourceLimit Category = "RESOURCE_LIMIT"
	// DatabaseError: the database itself failed, not the statement: it
	// cannot be reached (connection refused or reset, authentication
	// refused, starting up or shutting down, too many connections, a
	// replica in conflict with its primary) or it is damaged (a corrupt,
	// truncated or unreadable file, an I/O error, data corruption the
	// engine detected). No SQL fixes it: it is never repaired, the client
	// gets 503 database_unavailable, and the executor is reported
	// unhealthy until a statement works again.
	DatabaseError Category = "DATABASE_ERROR"
	UnknownError  Category = "UNKNOWN_ERROR"
)

// all lists every category in a stable order.
var all = [...]Category{SyntaxError, MissingTable, MissingColumn, AmbiguousColumn,
	AggregationError, DataTypeMismatch, PermissionError, Timeout, ResourceLimit, DatabaseError, UnknownError}

// Categories returns every category in a stable order (a new slice each
// call).
func Categories() []Category { return append([]Category(nil), all[:]...) }

// Valid reports whether c is one of the known categories.
func (c Category) Valid() bool {
	for _, k := range all {
		if c == k {
			return true
		}
	}
	return false
}

// Repairable reports whether a different statement can fix an error of
// category c: every category but PERMISSION_ERROR (a write is refused
// whatever it is rewritten to) and DATABASE_ERROR (the database itself is
// broken).
func (c Category) Repairable() bool { return c != PermissionError && c != DatabaseError }

// Error is a categorized SQL error. It is also the JSON body of an MCP tool
// result with IsError set: {"category": "...", "message": "..."}.
type Error struct {
	Category Category `json:"category"`
	Message  string   `json:"message"`
}

// Error implements error.
func (e *Error) Error() string { return string(e.Category) + ": " + e.Message }

// New returns an *Error with the given category and message.
func New(c Category, msg string) *Error { return &Error{Category: c, Message: msg} }

// CategoryOf returns the category of err when it is (or wraps) an *Error, and
// otherwise classifies its message.
func CategoryOf(err error) Category {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Category
	}
	return Classify(err.Error())
}

// rules map message fragments (lower case) to categories. Messages quote
// identifiers and SQL text ("no such column: timeout_ms", `near "group":
// syntax error`), so the definite phrases of each engine come first and the
// loose words (timeout, group by, not allowed) last. They cover SQLite's own
// messages and the usual wording of PostgreSQL and MySQL, so a third-party
// executor's errors are classified too.
var rules = []struct {
	fragment string
	category Category
}{
	// Definite phrases.
	{"no such table", MissingTable},
	{"no such column", MissingColumn},
	{"ambiguous column", AmbiguousColumn},
	{"misuse of aggregate", AggregationError},
	{"misuse of window function", AggregationError},
	{"datatype mismatch", DataTypeMismatch},
	{"incomplete input", SyntaxError},
	{"syntax error", SyntaxError},
	{"unrecognized token", SyntaxError},
	{"no such function", SyntaxError},
	{"wrong number of arguments", SyntaxError},
	{"attempt to write a readonly database", PermissionError},
	{"authorization denied", PermissionError}, // SQLite's SQLITE_AUTH (authorizer refused)
	{"is prohibited", PermissionError},        // SQLite: "access to t.c is prohibited" (authorizer denied a read)
	{"interrupted", Timeout},
	{"string or blob too big", ResourceLimit},           // SQLite's SQLITE_TOOBIG
	{"database disk image is malformed", DatabaseError}, // SQLITE_CORRUPT
	{"file is not a database", DatabaseError},           // SQLITE_NOTADB
	{"disk i/o error", DatabaseError},                   // SQLITE_IOERR
	{"unable to open database file", DatabaseError},     // SQLITE_CANTOPEN
	{"could not read block", DatabaseError},             // PostgreSQL: a relation file is short or unreadable
	{"invalid page in block", DatabaseError},            // PostgreSQL: a damaged page
	{"canceling statement due to statement timeout", Timeout},
	{"must appear in the group by", AggregationError},
	{"aggregate functions are not allowed", AggregationError},
	{"invalid input syntax for type", DataTypeMismatch},
	{"operator does not exist", DataTypeMismatch},
	{"is ambiguous", AmbiguousColumn},
	{"unknown column", MissingColumn},
	{"column \"", MissingColumn},  // PostgreSQL: column "x" does not exist
	{"relation \"", MissingTable}, // PostgreSQL: relation "x" does not exist
	{"unknown table", MissingTable},
	{"doesn't exist", MissingTable}, // MySQL: Table 'db.x' doesn't exist
	// The database cannot be reached or is going away: before the loose
	// words a connection error may hold ("timeout", "access denied").
	{"connection refused", DatabaseError},
	{"connection reset", DatabaseError},
	{"broken pipe", DatabaseError},
	{"no route to host", DatabaseError},
	{"server closed the connection unexpectedly", DatabaseError}, // libpq
	{"could not connect to server", DatabaseError},               // libpq
	{"the database system is starting up", DatabaseError},        // PostgreSQL 57P03
	{"the database system is shutting down", DatabaseError},      // PostgreSQL 57P03
	{"the database system is in recovery mode", DatabaseError},   // PostgreSQL 57P03 after a crash
	{"the database system is not yet accepting connections", DatabaseError},
	{"terminating connection due to administrator command", DatabaseError}, // PostgreSQL 57P01
	{"conflict with recovery", DatabaseError},                              // a hot standby cancelled the statement (replication lag)
	{"too many clients already", DatabaseError},                            // PostgreSQL 53300
	{"too many connections", DatabaseError},                                // MySQL 1040, PostgreSQL "too many connections for role"
	{"password authentication failed", DatabaseError},                      // PostgreSQL 28P01: the server's credentials, not the SQL
	{"server has gone away", DatabaseError},                                // MySQL 2006
	{"lost connection to", DatabaseError},                                  // MySQL 2013
	{"can't connect to", DatabaseError},                                    // MySQL 2002, 2003
	{"database unavailable", DatabaseError},                                // database-mcp's own wording
	// Loose words.
	{"readonly database", PermissionError},
	{"read-only", PermissionError},
	{"read only", PermissionError},
	{"not authorized", PermissionError},
	{"permission denied", PermissionError},
	{"access denied", PermissionError},
	{"only select", PermissionError},
	{"not allowed", PermissionError},
	{"timeout", Timeout},
	{"timed out", Timeout},
	{"deadline exceeded", Timeout},
	{"type mismatch", DataTypeMismatch},
	{"group by", AggregationError},
}

// Classify maps a raw database error message to a category. Unknown messages
// are UNKNOWN_ERROR.
func Classify(msg string) Category {
	m := strings.ToLower(msg)
	for _, r := range rules {
		if strings.Contains(m, r.fragment) {
			return r.category
		}
	}
	return UnknownError
}

// sqlStates maps PostgreSQL SQLSTATE codes (also used by CockroachDB,
// YugabyteDB and other engines that speak its protocol) to categories.
// Codes not listed fall back to their class in sqlStateClasses.
var sqlStates = map[string]Category{
	"42601": SyntaxError,      // syntax_error
	"42P02": SyntaxError,      // undefined_parameter ("there is no parameter $1")
	"42P01": MissingTable,     // undefined_table
	"3F000": MissingTable,     // invalid_schema_name
	"42703": MissingColumn,    // undefined_column
	"42702": AmbiguousColumn,  // ambiguous_column
	"42P09": AmbiguousColumn,  // ambiguous_alias
	"42803": AggregationError, // grouping_error
	"42P20": AggregationError, // windowing_error
	"42804": DataTypeMismatch, // datatype_mismatch
	"42846": DataTypeMismatch, // cannot_coerce
	"42P18": DataTypeMismatch, // indeterminate_datatype
	"42P21": DataTypeMismatch, // collation_mismatch
	"42P22": DataTypeMismatch, // indeterminate_collation
	"42501": PermissionError,  // insufficient_privilege
	"25006": PermissionError,  // read_only_sql_transaction
	"25001": PermissionError,  // active_sql_transaction
	"0LP01": PermissionError,  // invalid_grant_operation
	"28000": DatabaseError,    // invalid_authorization_specification: the server refused database-mcp's login
	"28P01": DatabaseError,    // invalid_password
	"57P01": DatabaseError,    // admin_shutdown (also pg_terminate_backend)
	"57P02": DatabaseError,    // crash_shutdown
	"57P03": DatabaseError,    // cannot_connect_now: starting up, shutting down, in recovery
	"57P04": DatabaseError,    // database_dropped
	"57P05": DatabaseError,    // idle_session_timeout: the session was closed
	"53300": DatabaseError,    // too_many_connections
	"3D000": DatabaseError,    // invalid_catalog_name: the configured database does not exist
	"58000": DatabaseError,    // system_error
	"58P01": DatabaseError,    // undefined_file: a relation file is missing
	"57014": Timeout,          // query_canceled (statement_timeout, cancel request)
	"25P03": Timeout,          // idle_in_transaction_session_timeout
	"55P03": Timeout,          // lock_not_available (lock_timeout)
	"54000": ResourceLimit,    // program_limit_exceeded
	"54001": ResourceLimit,    // statement_too_complex
	"54011": ResourceLimit,    // too_many_columns
	"54023": ResourceLimit,    // too_many_arguments
	"53000": ResourceLimit,    // insufficient_resources
	"53100": ResourceLimit,    // disk_full (temporary files of a big sort or hash)
	"53200": ResourceLimit,    // out_of_memory
	"53400": ResourceLimit,    // configuration_limit_exceeded (temp_file_limit)
	"58030": DatabaseError,    // io_error
	"XX001": DatabaseError,    // data_corrupted
	"XX002": DatabaseError,    // index_corrupted
}

// sqlStateClasses map the first two characters of a SQLSTATE code.
var sqlStateClasses = map[string]Category{
	"08": DatabaseError,    // connection exception: the connection failed or was lost
	"22": DataTypeMismatch, // data exception: invalid input syntax, overflow, bad datetime, division by zero
	"42": SyntaxError,      // syntax error or access rule violation, not listed above
	"53": ResourceLimit,    // insufficient resources
	"54": ResourceLimit,    // program limit exceeded
}

// ClassifySQLState maps a PostgreSQL SQLSTATE code and its message to a
// category. A code that says the database cannot serve (class 08, 57P0x,
// 53300, 28xxx, a hot standby's conflict with recovery) is DATABASE_ERROR. 42883 (undefined_function) is DATA_TYPE_MISMATCH for a missing
// operator ("operator does not exist: text = integer": a cast fixes it) and
// SYNTAX_ERROR for a function, as SQLite's "no such function" is (a caller
// that knows the function exists for other argument types may say
// DATA_TYPE_MISMATCH instead). Codes it does not know are classified by
// message (Classify).
func ClassifySQLState(code, msg string) Category {
	if code == "42883" {
		m := strings.ToLower(msg)
		if strings.HasPrefix(m, "operator does not exist") {
			return DataTypeMismatch
		}
		return SyntaxError
	}
	if code == "40001" && strings.Contains(strings.ToLower(msg), "conflict with recovery") {
		return DatabaseError // a standby cancelled the statement to replay its primary's changes
	}
	if c, ok := sqlStates[code]; ok {
		return c
	}
	if len(code) == 5 {
		if c, ok := sqlStateClasses[code[:2]]; ok {
			return c
		}
	}
	return Classify(msg)
}

// mysqlErrors maps MySQL and MariaDB server error numbers to categories.
// Numbers not listed fall back to their SQLSTATE class (sqlStateClasses),
// then to the message.
var mysqlErrors = map[uint16]Category{
	1064: SyntaxError,      // ER_PARSE_ERROR
	1149: SyntaxError,      // ER_SYNTAX_ERROR
	1305: SyntaxError,      // ER_SP_DOES_NOT_EXIST: FUNCTION x does not exist
	1318: SyntaxError,      // ER_SP_WRONG_NO_OF_ARGS
	1582: SyntaxError,      // ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT
	1583: SyntaxError,      // ER_WRONG_PARAMETERS_TO_NATIVE_FCT
	1630: SyntaxError,      // ER_FUNC_INEXISTENT_NAME_COLLISION
	1146: MissingTable,     // ER_NO_SUCH_TABLE
	1049: MissingTable,     // ER_BAD_DB_ERROR (a qualified name's database)
	1109: MissingTable,     // ER_UNKNOWN_TABLE
	1051: MissingTable,     // ER_BAD_TABLE_ERROR
	1054: MissingColumn,    // ER_BAD_FIELD_ERROR
	1052: AmbiguousColumn,  // ER_NON_UNIQ_ERROR
	1066: AmbiguousColumn,  // ER_NONUNIQ_TABLE: not unique table/alias
	1055: AggregationError, // ER_WRONG_FIELD_WITH_GROUP
	1056: AggregationError, // ER_WRONG_GROUP_FIELD
	1111: AggregationError, // ER_INVALID_GROUP_FUNC_USE
	1140: AggregationError, // ER_MIX_OF_GROUP_FUNC_AND_FIELDS
	1463: AggregationError, // ER_NON_GROUPING_FIELD_USED
	1267: DataTypeMismatch, // ER_CANT_AGGREGATE_2COLLATIONS
	1270: DataTypeMismatch, // ER_CANT_AGGREGATE_3COLLATIONS
	1271: DataTypeMismatch, // ER_CANT_AGGREGATE_NCOLLATIONS
	1292: DataTypeMismatch, // ER_TRUNCATED_WRONG_VALUE
	1366: DataTypeMismatch, // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
	1367: DataTypeMismatch, // ER_ILLEGAL_VALUE_FOR_TYPE
	1690: DataTypeMismatch, // ER_DATA_OUT_OF_RANGE
	4078: DataTypeMismatch, // MariaDB: illegal parameter data types for operation
	4079: DataTypeMismatch, // MariaDB: illegal parameter data type for operation
	1044: PermissionError,  // ER_DBACCESS_DENIED_ERROR
	1045: PermissionError,  // ER_ACCESS_DENIED_ERROR
	1142: PermissionError,  // ER_TABLEACCESS_DENIED_ERROR
	1143: PermissionError,  // ER_COLUMNACCESS_DENIED_ERROR
	1227: PermissionError,  // ER_SPECIFIC_ACCESS_DENIED_ERROR
	1370: PermissionError,  // ER_PROCACCESS_DENIED_ERROR
	1290: PermissionError,  // ER_OPTION_PREVENTS_STATEMENT (--read-only, secure_file_priv)
	1792: PermissionError,  // ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION
	1836: PermissionError,  // ER_READ_ONLY_MODE
	3024: Timeout,          // MySQL ER_QUERY_TIMEOUT (max_execution_time)
	1969: Timeout,          // MariaDB ER_STATEMENT_TIMEOUT (max_statement_time)
	1317: Timeout,          // ER_QUERY_INTERRUPTED
	1205: Timeout,          // ER_LOCK_WAIT_TIMEOUT
	3572: Timeout,          // ER_LOCK_NOWAIT
	1153: ResourceLimit,    // ER_NET_PACKET_TOO_LARGE
	1301: ResourceLimit,    // ER_WARN_ALLOWED_PACKET_OVERFLOWED
	1114: ResourceLimit,    // ER_RECORD_FILE_FULL (a temporary table of a big sort or join)
	1038: ResourceLimit,    // ER_OUT_OF_SORTMEMORY
	1041: ResourceLimit,    // ER_OUT_OFMEMORY
	1037: ResourceLimit,    // ER_OUTOFMEMORY
	3636: ResourceLimit,    // MySQL ER_CTE_MAX_RECURSION_DEPTH
	1030: DatabaseError,    // ER_GET_ERRNO: error from the storage engine
	1034: DatabaseError,    // ER_NOT_KEYFILE: a damaged index
	1194: DatabaseError,    // ER_CRASHED_ON_USAGE
	1195: DatabaseError,    // ER_CRASHED_ON_REPAIR
	1712: DatabaseError,    // ER_INDEX_CORRUPT
	1877: DatabaseError,    // ER_TABLE_CORRUPT
	1812: DatabaseError,    // ER_TABLESPACE_MISSING
	1932: DatabaseError,    // ER_TABLESPACE_MISSING / table doesn't exist in engine
	1040: DatabaseError,    // ER_CON_COUNT_ERROR: too many connections
	1053: DatabaseError,    // ER_SERVER_SHUTDOWN
	1077: DatabaseError,    // ER_NORMAL_SHUTDOWN
	1152: DatabaseError,    // ER_ABORTING_CONNECTION
	1184: DatabaseError,    // ER_NEW_ABORTING_CONNECTION
	1203: DatabaseError,    // ER_TOO_MANY_USER_CONNECTIONS
	1927: DatabaseError,    // MariaDB ER_CONNECTION_KILLED
	2002: DatabaseError,    // CR_CONNECTION_ERROR (client)
	2003: DatabaseError,    // CR_CONN_HOST_ERROR (client)
	2006: DatabaseError,    // CR_SERVER_GONE_ERROR (client)
	2013: DatabaseError,    // CR_SERVER_LOST (client)
}

// ClassifyMySQL maps a MySQL or MariaDB server error (its number, SQLSTATE
// and message) to a category: by number first, then by SQLSTATE class
// (class 22, data exceptions, is DATA_TYPE_MISMATCH), then by message.
func ClassifyMySQL(number uint16, sqlState, msg string) Category {
	if c, ok := mysqlErrors[number]; ok {
		return c
	}
	if len(sqlState) == 5 && sqlState != "HY000" {
		if c, ok := sqlStateClasses[sqlState[:2]]; ok {
			return c
		}
	}
	return Classify(msg)
}
