package sqlerr

import (
	"errors"
	"fmt"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name string
		msg  string
		want Category
	}{
		{"sqlite missing table", "no such table: sale", MissingTable},
		{"sqlite missing column", "no such column: s.amount", MissingColumn},
		{"sqlite missing column named like a timeout", "no such column: timeout_ms", MissingColumn},
		{"sqlite ambiguous", "ambiguous column name: region", AmbiguousColumn},
		{"sqlite syntax near", `near "FORM": syntax error`, SyntaxError},
		{"sqlite syntax near group", `near "group": syntax error`, SyntaxError},
		{"sqlite syntax near timeout", `near "timeout": syntax error`, SyntaxError},
		{"sqlite incomplete", "incomplete input", SyntaxError},
		{"sqlite unrecognized token", `unrecognized token: "'abc"`, SyntaxError},
		{"sqlite aggregate misuse", "misuse of aggregate: SUM()", AggregationError},
		{"sqlite window misuse", "misuse of window function row_number()", AggregationError},
		{"sqlite datatype", "datatype mismatch", DataTypeMismatch},
		{"sqlite readonly", "attempt to write a readonly database", PermissionError},
		{"sqlite authorizer", "not authorized", PermissionError},
		{"sqlite auth denied", "authorization denied", PermissionError},
		{"sqlite prohibited read", "access to sales.region is prohibited", PermissionError},
		{"sqlite interrupted", "interrupted", Timeout},
		{"sqlite no such function", "no such function: DATE_TRUNC", SyntaxError},
		{"postgres missing table", `relation "sale" does not exist`, MissingTable},
		{"postgres missing column", `column "amount" does not exist`, MissingColumn},
		{"postgres group by", `column "s.region" must appear in the GROUP BY clause or be used in an aggregate function`, AggregationError},
		{"postgres ambiguous", `column reference "region" is ambiguous`, AmbiguousColumn},
		{"postgres type", `invalid input syntax for type integer: "abc"`, DataTypeMismatch},
		{"postgres operator", `operator does not exist: text = integer`, DataTypeMismatch},
		{"postgres timeout", "canceling statement due to statement timeout", Timeout},
		{"postgres permission", "permission denied for table sales", PermissionError},
		{"postgres read only tx", "cannot execute INSERT in a read-only transaction", PermissionError},
		{"mysql missing table", "Table 'shop.sale' doesn't exist", MissingTable},
		{"mysql missing column", "Unknown column 'amount' in 'field list'", MissingColumn},
		{"mysql ambiguous", "Column 'region' in field list is ambiguous", AmbiguousColumn},
		{"generic deadline", "context deadline exceeded", Timeout},
		{"sqlite corrupt", "database disk image is malformed", DatabaseError},
		{"sqlite not a database", "file is not a database", DatabaseError},
		{"sqlite io error", "disk I/O error", DatabaseError},
		{"postgres unreadable block", `could not read block 7 in file "base/16384/16385": read only 0 of 8192 bytes`, DatabaseError},
		{"postgres refused", `database unavailable: failed to connect to host=127.0.0.1: dial error: connect: connection refused`, DatabaseError},
		{"libpq refused", "could not connect to server: Connection refused", DatabaseError},
		{"connection reset", "read tcp 127.0.0.1:5432: read: connection reset by peer", DatabaseError},
		{"postgres starting", "FATAL: the database system is starting up (SQLSTATE 57P03)", DatabaseError},
		{"postgres shutting down", "the database system is shutting down", DatabaseError},
		{"postgres terminated", "terminating connection due to administrator command", DatabaseError},
		{"postgres too many", "sorry, too many clients already", DatabaseError},
		{"postgres password", `password authentication failed for user "reader"`, DatabaseError},
		{"standby conflict", "canceling statement due to conflict with recovery", DatabaseError},
		{"mysql gone away", "MySQL server has gone away", DatabaseError},
		{"mysql lost connection", "Lost connection to MySQL server during query", DatabaseError},
		{"mysql too many", "Too many connections", DatabaseError},
		{"refused beats a loose timeout", "dial tcp 10.0.0.5:5432: connect: connection refused (timeout 5s)", DatabaseError},
		{"a missing column named like a fault", `column "connection refused" does not exist`, MissingColumn},
		{"unknown", "the moon is in the wrong phase", UnknownError},
		{"empty", "", UnknownError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Classify(tt.msg); got != tt.want {
				t.Errorf("Classify(%q) = %s, want %s", tt.msg, got, tt.want)
			}
		})
	}
}

func TestCategoryOf(t *testing.T) {
	wrapped := fmt.Errorf("execute: %w", New(AggregationError, "region is not grouped"))
	if got := CategoryOf(wrapped); got != AggregationError {
		t.Errorf("CategoryOf(wrapped *Error) = %s, want %s", got, AggregationError)
	}
	if got := CategoryOf(errors.New("no such table: x")); got != MissingTable {
		t.Errorf("CategoryOf(plain) = %s, want %s", got, MissingTable)
	}
	if got := CategoryOf(nil); got != "" {
		t.Errorf("CategoryOf(nil) = %q, want empty", got)
	}
}

func TestValidAndError(t *testing.T) {
	for _, c := range Categories() {
		if !c.Valid() {
			t.Errorf("%s.Valid() = false, want true", c)
		}
	}
	if Category("NOPE").Valid() {
		t.Error(`Category("NOPE").Valid() = true, want false`)
	}
	e := New(MissingTable, "no such table: sale")
	if got, want := e.Error(), "MISSING_TABLE: no such table: sale"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestClassifySQLState(t *testing.T) {
	tests := []struct {
		name, code, msg string
		want            Category
	}{
		{"undefined column", "42703", `column "totl" does not exist`, MissingColumn},
		{"undefined table", "42P01", `relation "sale" does not exist`, MissingTable},
		{"undefined schema", "3F000", `schema "x" does not exist`, MissingTable},
		{"syntax", "42601", `syntax error at or near "FORM"`, SyntaxError},
		{"grouping", "42803", `column "sales.region" must appear in the GROUP BY clause or be used in an aggregate function`, AggregationError},
		{"ambiguous", "42702", `column reference "region" is ambiguous`, AmbiguousColumn},
		{"statement timeout", "57014", "canceling statement due to statement timeout", Timeout},
		{"read-only transaction", "25006", "cannot execute INSERT in a read-only transaction", PermissionError},
		{"privilege", "42501", "permission denied for table sales", PermissionError},
		{"missing operator", "42883", "operator does not exist: text = integer", DataTypeMismatch},
		{"missing function", "42883", "function strftime(unknown, date) does not exist", SyntaxError},
		{"bad input syntax by class", "22P02", `invalid input syntax for type integer: "abc"`, DataTypeMismatch},
		{"division by zero by class", "22012", "division by zero", DataTypeMismatch},
		{"other class 42 code", "42P10", "for SELECT DISTINCT, ORDER BY expressions must appear in select list", SyntaxError},
		{"out of memory", "53200", "out of memory", ResourceLimit},
		{"data corrupted", "XX001", `invalid page in block 3 of relation base/16384/16385`, DatabaseError},
		{"io error", "58030", `could not read file "base/16384/16385"`, DatabaseError},
		{"temp file limit", "53400", "temporary file size exceeds temp_file_limit (1024kB)", ResourceLimit},
		{"unknown code falls back to the message", "XX000", "no such table: x", MissingTable},
		{"connection failure by class", "08006", "connection failure", DatabaseError},
		{"admin shutdown", "57P01", "terminating connection due to administrator command", DatabaseError},
		{"crash shutdown", "57P02", "terminating connection because of crash of another server process", DatabaseError},
		{"starting up", "57P03", "the database system is starting up", DatabaseError},
		{"too many connections", "53300", "sorry, too many clients already", DatabaseError},
		{"bad password", "28P01", `password authentication failed for user "reader"`, DatabaseError},
		{"no such database", "3D000", `database "gone" does not exist`, DatabaseError},
		{"standby conflict", "40001", "canceling statement due to conflict with recovery", DatabaseError},
		{"serialization failure is no fault", "40001", "could not serialize access due to concurrent update", UnknownError},
		{"no code", "", "something odd", UnknownError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ClassifySQLState(tt.code, tt.msg); got != tt.want {
				t.Errorf("ClassifySQLState(%q, %q) = %s, want %s", tt.code, tt.msg, got, tt.want)
			}
		})
	}
}

func TestRepairable(t *testing.T) {
	for _, c := range Categories() {
		want := c != PermissionError && c != DatabaseError
		if got := c.Repairable(); got != want {
			t.Errorf("%s.Repairable() = %v, want %v", c, got, want)
		}
	}
}

func TestCategoriesIsACopy(t *testing.T) {
	c := Categories()
	c[0] = "CHANGED"
	if Categories()[0] != SyntaxError {
		t.Error("Categories() returned the package's own array")
	}
}

func TestClassifyMySQL(t *testing.T) {
	tests := []struct {
		number uint16
		state  string
		msg    string
		want   Category
	}{
		{1064, "42000", "You have an error in your SQL syntax", SyntaxError},
		{1146, "42S02", "Table 'db.nope' doesn't exist", MissingTable},
		{1054, "42S22", "Unknown column 'nope' in 'field list'", MissingColumn},
		{1052, "23000", "Column 'order_id' in field list is ambiguous", AmbiguousColumn},
		{1111, "HY000", "Invalid use of group function", AggregationError},
		{1305, "42000", "FUNCTION db.no_such does not exist", SyntaxError},
		{1292, "22007", "Truncated incorrect DOUBLE value", DataTypeMismatch},
		{1365, "22012", "Division by 0", DataTypeMismatch}, // by SQLSTATE class 22
		{1792, "25006", "Cannot execute statement in a READ ONLY transaction", PermissionError},
		{1142, "42000", "SELECT command denied to user", PermissionError},
		{1969, "70100", "Query execution was interrupted (max_statement_time exceeded)", Timeout},
		{3024, "HY000", "Query execution was interrupted, maximum statement execution time exceeded", Timeout},
		{3636, "HY000", "Recursive query aborted after 1001 iterations", ResourceLimit},
		{1877, "HY000", "Operation cannot be performed. The table 'db.t' is missing, corrupt or contains bad data", DatabaseError},
		{1040, "08004", "Too many connections", DatabaseError},
		{1053, "08S01", "Server shutdown in progress", DatabaseError},
		{1927, "70100", "Connection was killed", DatabaseError},
		{2013, "HY000", "Lost connection to server during query", DatabaseError},
		{9999, "HY000", "something no rule knows", UnknownError},
	}
	for _, tt := range tests {
		if got := ClassifyMySQL(tt.number, tt.state, tt.msg); got != tt.want {
			t.Errorf("ClassifyMySQL(%d, %s, %q) = %s, want %s", tt.number, tt.state, tt.msg, got, tt.want)
		}
	}
}
