// Package hostile is the hostile SQL set of the read-only guards: per
// dialect, the statements that try to write, hide a second statement with
// the dialect's lexical rules, escape to files, keep session state or
// exhaust the server, each with the category it must be refused with and
// the layer that refuses it.
//
// The same set runs twice: against the dialect's static check alone
// (sqlscan, no database: package sqlscan's tests), and through a real MCP
// client against database-mcp on the real engine (package databasemcp's
// tests), which then prove that nothing changed.
package hostile

import (
	"path/filepath"
	"strings"

	"talk2tables/sqlerr"
)

// Layer is the guard that refuses an input.
type Layer int

// The layers.
const (
	// Static: the dialect's static check (sqlscan) refuses it with Want,
	// without a database.
	Static Layer = iota
	// Engine: the static check lets it through; database-mcp's other layers
	// (the query length limit, SQLite's authorizer, PostgreSQL's function
	// guard, the read-only transaction, the statement timeout) or the
	// engine itself refuse it with Want.
	Engine
)

// Input is one hostile statement.
type Input struct {
	Name  string
	Query string
	Want  sqlerr.Category
	Layer Layer
}

// Paths are where the inputs that try to write files aim: a directory the
// test watches (it must stay empty) and a file in it.
type Paths struct {
	Dir  string // a directory the engine's server process can write to
	Evil string // a file name in Dir
}

// NewPaths returns the Paths of dir.
func NewPaths(dir string) Paths { return Paths{Dir: dir, Evil: filepath.Join(dir, "evil")} }

const (
	perm    = sqlerr.PermissionError
	syntax  = sqlerr.SyntaxError
	timeout = sqlerr.Timeout
	unknown = sqlerr.UnknownError
)

// tooLong is longer than database-mcp's default query length limit
// (20,000 characters).
var tooLong = "SELECT '" + strings.Repeat("a", 20000) + "'"

// SQLite is the set for SQLite over the sample database (table sales).
func SQLite(p Paths) []Input {
	return []Input{
		// more than one statement
		{"two statements", "SELECT 1; DELETE FROM sales", perm, Static},
		{"two selects", "SELECT 1; SELECT 2", perm, Static},
		{"comment between statements", "SELECT 1;/**/DELETE FROM sales", perm, Static},
		{"line comment then statement", "SELECT 1 -- x\n; DROP TABLE sales", perm, Static},
		{"nbsp after semicolon", "SELECT 1;\u00a0DELETE FROM sales", perm, Static},
		{"string then statement", "SELECT 'a'';'; UPDATE sales SET quantity = 0", perm, Static},
		{"no backslash escapes", `SELECT 'a\'; DELETE FROM sales; -- '`, perm, Static},
		{"pragma after select", "SELECT * FROM sales WHERE region = 'x'; PRAGMA writable_schema=1", perm, Static},
		// writes and DDL
		{"insert", "INSERT INTO sales(sale_id) VALUES (999999)", perm, Static},
		{"update", "UPDATE sales SET quantity = 0", perm, Static},
		{"delete", "DELETE FROM sales", perm, Static},
		{"replace", "REPLACE INTO products VALUES (1, 'x', 'y', 1)", perm, Static},
		{"drop", "DROP TABLE sales", perm, Static},
		{"create", "CREATE TABLE evil(x)", perm, Static},
		{"create temp", "CREATE TEMP TABLE evil(x)", perm, Static},
		{"create virtual", "CREATE VIRTUAL TABLE v USING fts5(x)", perm, Static},
		{"alter", "ALTER TABLE sales ADD COLUMN evil TEXT", perm, Static},
		{"with delete", "WITH x AS (SELECT 1) DELETE FROM sales", perm, Static},
		{"with insert", "WITH x AS (SELECT 1) INSERT INTO products SELECT * FROM products", perm, Static},
		{"with recursive update", "WITH RECURSIVE x(n) AS (SELECT 1) UPDATE sales SET quantity = 1", perm, Static},
		{"explain delete", "EXPLAIN DELETE FROM sales", perm, Static},
		{"explain query plan with delete", "EXPLAIN QUERY PLAN WITH x AS (SELECT 1) DELETE FROM sales", perm, Static},
		{"comment before delete", "/* harmless */ DELETE FROM sales", perm, Static},
		{"parenthesised delete", "(DELETE FROM sales)", perm, Static},
		{"lower case delete", "delete from sales", perm, Static},
		// files and connections
		{"attach", "ATTACH DATABASE '" + p.Evil + "' AS evil", perm, Static},
		{"attach memory", "ATTACH ':memory:' AS m", perm, Static},
		{"detach", "DETACH DATABASE main", perm, Static},
		{"vacuum", "VACUUM", perm, Static},
		{"vacuum into", "VACUUM INTO '" + filepath.Join(p.Dir, "copy.db") + "'", perm, Static},
		{"load extension", "SELECT load_extension('x')", perm, Engine},
		{"load extension with entry", "SELECT load_extension('/lib/x86_64-linux-gnu/libc.so.6', 'system')", perm, Engine},
		{"readfile", "SELECT readfile('/etc/passwd')", syntax, Engine},
		{"writefile", "SELECT writefile('" + filepath.Join(p.Dir, "w") + "', 'x')", syntax, Engine},
		{"raw pages", "SELECT * FROM sqlite_dbpage", perm, Engine},
		// pragmas and maintenance
		{"pragma journal_mode", "PRAGMA journal_mode=WAL", perm, Static},
		{"pragma user_version", "PRAGMA user_version=5", perm, Static},
		{"pragma query_only off", "PRAGMA query_only=0", perm, Static},
		{"pragma read", "PRAGMA table_info(sales)", perm, Static},
		{"reindex", "REINDEX", perm, Static},
		{"analyze", "ANALYZE", perm, Static},
		{"begin", "BEGIN IMMEDIATE", perm, Static},
		{"savepoint", "SAVEPOINT a", perm, Static},
		// unicode and whitespace tricks
		{"zero width space", "\u200bDELETE FROM sales", syntax, Static},
		{"fullwidth letters", "ＤＥＬＥＴＥ FROM sales", syntax, Static},
		{"only whitespace and semicolons", " \n\t;; ", syntax, Static},
		{"only a comment", "/* SELECT 1 */", syntax, Static},
		// exhaustion
		{"very long query", tooLong, sqlerr.ResourceLimit, Engine},
		{"runaway recursion", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c", timeout, Engine},
		{"cartesian join", "SELECT count(*) FROM sales a, sales b, sales c", timeout, Engine},
		{"cartesian join after first row", "SELECT 1 UNION ALL SELECT max(a.total_amount + b.total_amount + c.total_amount) FROM sales a, sales b, sales c", timeout, Engine},
	}
}

// Postgres is the set for PostgreSQL over the sample database, in database
// dbName, with the objects TestPostgresHostileInputs creates (hostile_seq,
// dblink, bump, late_bump, sneaky, wipe).
func Postgres(p Paths, dbName string) []Input {
	return []Input{
		// more than one statement, with PostgreSQL's lexical rules
		{"two statements", "SELECT 1; DELETE FROM sales", perm, Static},
		{"escape string hides nothing", `SELECT E'\''; DELETE FROM sales; --'`, perm, Static},
		{"dollar quote then statement", "SELECT $q$ $$ $q$; DROP TABLE sales", perm, Static},
		{"nested comment then statement", "SELECT 1 /* /* */ */; TRUNCATE sales", perm, Static},
		{"dollar inside identifier", "SELECT 1 AS x$$; DELETE FROM sales; $$", perm, Static},
		{"nbsp after semicolon", "SELECT 1;\u00a0DELETE FROM sales", perm, Static},
		// writes and DDL
		{"insert", "INSERT INTO sales (sale_id) VALUES (999999)", perm, Static},
		{"update", "UPDATE sales SET quantity = 0", perm, Static},
		{"delete", "DELETE FROM sales", perm, Static},
		{"merge", "MERGE INTO products p USING products q ON p.product_id = q.product_id WHEN MATCHED THEN DELETE", perm, Static},
		{"truncate", "TRUNCATE sales", perm, Static},
		{"drop", "DROP TABLE sales", perm, Static},
		{"create", "CREATE TABLE evil (x int)", perm, Static},
		{"create temp", "CREATE TEMP TABLE evil (x int)", perm, Static},
		{"alter", "ALTER TABLE sales ADD COLUMN evil text", perm, Static},
		{"grant", "GRANT ALL ON sales TO PUBLIC", perm, Static},
		{"comment", "COMMENT ON TABLE sales IS 'x'", perm, Static},
		{"select into", "SELECT * INTO evil FROM sales", perm, Static},
		{"data-modifying with", "WITH d AS (DELETE FROM sales RETURNING *) SELECT count(*) FROM d", perm, Static},
		{"explain analyze delete", "EXPLAIN ANALYZE DELETE FROM sales", perm, Static},
		{"row lock", "SELECT * FROM sales FOR UPDATE", perm, Static},
		{"row lock nowait", "SELECT * FROM sales FOR NO KEY UPDATE NOWAIT", perm, Static},
		{"lock table", "LOCK TABLE sales IN ACCESS EXCLUSIVE MODE", perm, Static},
		// session, transactions, procedural code, files
		{"set", "SET statement_timeout = 0", perm, Static},
		{"set role", "SET ROLE pg_write_server_files", perm, Static},
		{"reset", "RESET ALL", perm, Static},
		{"listen", "LISTEN evil", perm, Static},
		{"notify", "NOTIFY evil, 'x'", perm, Static},
		{"prepare", "PREPARE p AS DELETE FROM sales", perm, Static},
		{"declare", "DECLARE c CURSOR WITH HOLD FOR SELECT 1", perm, Static},
		{"begin", "BEGIN READ WRITE", perm, Static},
		{"commit", "COMMIT", perm, Static},
		{"do block", "DO $$ BEGIN DELETE FROM sales; END $$", perm, Static},
		{"call", "CALL wipe()", perm, Static},
		{"copy to program", "COPY sales TO PROGRAM 'touch " + p.Evil + "'", perm, Static},
		{"copy to file", "COPY (SELECT 1) TO '" + p.Evil + "'", perm, Static},
		{"copy from file", "COPY products FROM '/etc/passwd'", perm, Static},
		{"vacuum", "VACUUM sales", perm, Static},
		{"analyze", "ANALYZE sales", perm, Static},
		{"load", "LOAD 'plpgsql'", perm, Static},
		{"discard", "DISCARD ALL", perm, Static},
		// functions with side effects
		{"sleep", "SELECT pg_sleep(100)", perm, Static},
		{"sleep qualified", "SELECT pg_catalog.pg_sleep(100)", perm, Static},
		{"sleep quoted", `SELECT "pg_sleep"(100)`, perm, Static},
		{"sleep for in from", "SELECT * FROM pg_sleep_for('1 hour')", perm, Static},
		{"sleep behind a comment", "SELECT pg_sleep /* x */ (100)", perm, Static},
		{"unicode escaped name", `SELECT U&"pg\0073leep"(100)`, syntax, Static},
		{"set_config", "SELECT set_config('statement_timeout', '0', false)", perm, Static},
		{"nextval", "SELECT nextval('hostile_seq')", perm, Static},
		{"setval", "SELECT setval('hostile_seq', 1000)", perm, Static},
		{"advisory lock", "SELECT pg_advisory_lock(42)", perm, Static},
		{"try advisory lock", "SELECT pg_try_advisory_lock(42)", perm, Static},
		{"advisory xact lock", "SELECT pg_advisory_xact_lock_shared(42)", perm, Static},
		{"large object import", "SELECT lo_import('/etc/passwd')", perm, Static},
		{"large object create", "SELECT lo_create(0)", perm, Static},
		{"large object export", "SELECT lo_export(1, '" + p.Evil + "')", perm, Static},
		{"read file", "SELECT pg_read_file('/etc/passwd')", perm, Static},
		{"read binary file", "SELECT pg_read_binary_file('/etc/passwd')", perm, Static},
		{"list directory", "SELECT * FROM pg_ls_dir('.')", perm, Static},
		{"stat file", "SELECT pg_stat_file('postgresql.conf')", perm, Static},
		{"terminate backends", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity", perm, Static},
		{"cancel backends", "SELECT pg_cancel_backend(pid) FROM pg_stat_activity", perm, Static},
		{"reload config", "SELECT pg_reload_conf()", perm, Static},
		{"rotate log", "SELECT pg_rotate_logfile()", perm, Static},
		{"switch wal", "SELECT pg_switch_wal()", perm, Static},
		{"notify function", "SELECT pg_notify('evil', 'x')", perm, Static},
		{"dblink", "SELECT * FROM dblink('dbname=" + dbName + "', 'SELECT 1') AS t(x int)", perm, Static},
		{"dblink exec", "SELECT dblink_exec('dbname=" + dbName + "', 'DELETE FROM sales')", perm, Static},
		{"query_to_xml", "SELECT query_to_xml('SELECT pg_advisory_lock(7)', true, false, '')", perm, Static},
		{"table_to_xml", "SELECT table_to_xml('sales', true, false, '')", perm, Static},
		{"txid", "SELECT txid_current()", perm, Static},
		{"setseed", "SELECT setseed(0.5)", perm, Static},
		{"user volatile function", "SELECT bump()", perm, Engine},
		{"user volatile function created later", "SELECT late_bump()", perm, Engine},
		{"mislabelled stable function", "SELECT sneaky()", perm, Engine},
		// unicode and whitespace tricks
		{"zero width space", "\u200bDELETE FROM sales", syntax, Static},
		{"fullwidth letters", "ＤＥＬＥＴＥ FROM sales", syntax, Static},
		{"only semicolons", " \n\t;; ", syntax, Static},
		{"only a comment", "/* SELECT 1 */", syntax, Static},
		// exhaustion
		{"very long query", tooLong, sqlerr.ResourceLimit, Engine},
		{"runaway recursion", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", timeout, Engine},
		{"cartesian join", "SELECT count(*) FROM sales a, sales b, sales c", timeout, Engine},
		{"huge series", "SELECT sum(g) FROM generate_series(1, 10000000000) g", timeout, Engine},
	}
}

// MySQL is the set for MySQL and MariaDB over the sample database, with the
// objects TestMySQLHostileInputs creates (hostile_seq, bump, nap, wipe).
func MySQL(p Paths) []Input {
	return []Input{
		// more than one statement, with MySQL's lexical rules
		{"two statements", "SELECT 1; DELETE FROM sales", perm, Static},
		{"backslash escapes the quote", `SELECT 'a\'' ; DELETE FROM sales; -- '`, perm, Static},
		{"backslash in double-quoted string", `SELECT "a\"" ; DELETE FROM sales; -- "`, perm, Static},
		{"hash comment then statement", "SELECT 1 # x\n; DELETE FROM sales", perm, Static},
		{"dash dash without space is minus", "SELECT 1--1; DELETE FROM sales", perm, Static},
		{"no escapes in backticks", "SELECT 1 AS `a\\`; DELETE FROM sales; -- `", perm, Static},
		{"ANSI_QUOTES reading", `SELECT "a\"; DELETE FROM sales; -- "`, perm, Static},
		{"NO_BACKSLASH_ESCAPES reading", `SELECT 'a\'; DELETE FROM sales; -- '`, perm, Static},
		{"executable comment", "SELECT 1 /*!50000 ; DELETE FROM sales */", perm, Static},
		{"executable comment with a function", "SELECT 1 /*! , SLEEP(30) */", perm, Static},
		{"MariaDB executable comment", "SELECT 1 /*M!100000 , SLEEP(30) */", perm, Static},
		{"optimizer hint lifts the timeout", "SELECT /*+ MAX_EXECUTION_TIME(100000) */ count(*) FROM sales", perm, Static},
		{"nbsp after semicolon", "SELECT 1;\u00a0DELETE FROM sales", perm, Static},
		// writes and DDL
		{"insert", "INSERT INTO sales (sale_id) VALUES (999999)", perm, Static},
		{"insert select", "INSERT INTO products SELECT * FROM products", perm, Static},
		{"update", "UPDATE sales SET quantity = 0", perm, Static},
		{"delete", "DELETE FROM sales", perm, Static},
		{"multi-table delete", "DELETE s FROM sales s JOIN orders o ON o.order_id = s.order_id", perm, Static},
		{"replace", "REPLACE INTO products VALUES (1, 'x', 'y', 1)", perm, Static},
		{"truncate", "TRUNCATE TABLE sales", perm, Static},
		{"drop", "DROP TABLE sales", perm, Static},
		{"create", "CREATE TABLE evil (x int)", perm, Static},
		{"create temporary", "CREATE TEMPORARY TABLE evil (x int)", perm, Static},
		{"alter", "ALTER TABLE sales ADD COLUMN evil text", perm, Static},
		{"rename", "RENAME TABLE sales TO evil", perm, Static},
		{"grant", "GRANT ALL ON *.* TO CURRENT_USER", perm, Static},
		{"with delete", "WITH x AS (SELECT 1) DELETE FROM sales", perm, Static},
		{"with update", "WITH x AS (SELECT 1) UPDATE sales SET quantity = 0", perm, Static},
		{"explain analyze delete", "EXPLAIN ANALYZE DELETE FROM sales", perm, Static},
		{"explain format delete", "EXPLAIN FORMAT=JSON DELETE FROM sales", perm, Static},
		// files
		{"into outfile", "SELECT * FROM sales INTO OUTFILE '" + p.Evil + "'", perm, Static},
		{"into dumpfile", "SELECT 'x' INTO DUMPFILE '" + p.Evil + "'", perm, Static},
		{"load data", "LOAD DATA INFILE '/etc/passwd' INTO TABLE products", perm, Static},
		{"load data local", "LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE products", perm, Static},
		{"load xml", "LOAD XML INFILE '/etc/passwd' INTO TABLE products", perm, Static},
		{"load_file", "SELECT LOAD_FILE('/etc/passwd')", perm, Static},
		// session, locks, transactions, procedures
		{"set variable", "SET @x = 1", perm, Static},
		{"set timeout", "SET SESSION max_statement_time = 0", perm, Static},
		{"set statement for", "SET STATEMENT max_statement_time = 0 FOR SELECT SLEEP(30)", perm, Static},
		{"assign variable", "SELECT @x := 1", perm, Static},
		{"assign variable in where", "SELECT count(*) FROM sales WHERE (@n := 1) = 1", perm, Static},
		{"into variable", "SELECT 1 INTO @x", perm, Static},
		{"lock tables", "LOCK TABLES sales WRITE", perm, Static},
		{"unlock tables", "UNLOCK TABLES", perm, Static},
		{"handler", "HANDLER sales OPEN", perm, Static},
		{"row lock", "SELECT * FROM sales FOR UPDATE", perm, Static},
		{"row share lock", "SELECT * FROM sales LOCK IN SHARE MODE", perm, Static},
		{"start transaction", "START TRANSACTION READ WRITE", perm, Static},
		{"begin", "BEGIN", perm, Static},
		{"commit", "COMMIT", perm, Static},
		{"xa", "XA START 'evil'", perm, Static},
		{"call", "CALL wipe()", perm, Static},
		{"do", "DO SLEEP(30)", perm, Static},
		{"prepare", "PREPARE p FROM 'DELETE FROM sales'", perm, Static},
		{"execute", "EXECUTE p", perm, Static},
		{"flush", "FLUSH TABLES", perm, Static},
		{"kill", "KILL CONNECTION_ID()", perm, Static},
		{"use", "USE mysql", perm, Static},
		{"install plugin", "INSTALL SONAME 'ha_blackhole'", perm, Static},
		{"analyze table", "ANALYZE TABLE sales", perm, Static},
		{"optimize table", "OPTIMIZE TABLE sales", perm, Static},
		// functions with side effects
		{"sleep", "SELECT SLEEP(30)", perm, Static},
		{"sleep behind a comment", "SELECT sleep /* x */ (30)", perm, Static},
		{"sleep in backticks", "SELECT `sleep`(30)", perm, Static},
		{"sleep qualified", "SELECT mysql.sleep(30)", perm, Static},
		{"benchmark", "SELECT BENCHMARK(1000000000, MD5('x'))", perm, Static},
		{"get_lock", "SELECT GET_LOCK('evil', 0)", perm, Static},
		{"release_lock", "SELECT RELEASE_LOCK('evil')", perm, Static},
		{"release_all_locks", "SELECT RELEASE_ALL_LOCKS()", perm, Static},
		{"nextval", "SELECT NEXTVAL(hostile_seq)", perm, Static},
		{"next value for", "SELECT NEXT VALUE FOR hostile_seq", perm, Static},
		{"setval", "SELECT SETVAL(hostile_seq, 1000)", perm, Static},
		{"last_insert_id", "SELECT LAST_INSERT_ID(42)", perm, Static},
		{"master_pos_wait", "SELECT MASTER_POS_WAIT('log', 4, 30)", perm, Static},
		{"master_gtid_wait", "SELECT MASTER_GTID_WAIT('0-1-1000', 30)", perm, Static},
		{"procedure analyse", "SELECT * FROM sales PROCEDURE ANALYSE()", perm, Static},
		{"user function that writes", "SELECT bump()", perm, Engine},
		{"user function that sleeps", "SELECT nap()", timeout, Engine},
		// unicode and whitespace tricks
		{"zero width space", "\u200bDELETE FROM sales", syntax, Static},
		{"fullwidth letters", "ＤＥＬＥＴＥ FROM sales", syntax, Static},
		{"only semicolons", " \n\t;; ", syntax, Static},
		{"only a comment", "/* SELECT 1 */", syntax, Static},
		{"only a hash comment", "# SELECT 1", syntax, Static},
		// exhaustion
		{"very long query", tooLong, sqlerr.ResourceLimit, Engine},
		// MariaDB stops a recursion after max_recursive_iterations (1000)
		// silently, MySQL after cte_max_recursion_depth (1000) with an
		// error; one that grows its rows at every step runs out the clock
		// on both.
		{"runaway recursion", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c, sales WHERE x < 5) SELECT count(*) FROM c", timeout, Engine},
		{"cartesian join", "SELECT count(*) FROM sales a, sales b, sales c", timeout, Engine},
	}
}
