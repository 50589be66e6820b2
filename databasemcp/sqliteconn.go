package databasemcp

import (
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	"modernc.org/libc"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// driverName is the private database/sql driver this package opens its
// connections with. It is modernc's SQLite driver with one connection hook
// that installs the authorizer and limits below, so the hardening applies to
// every connection of the pool and to no connection outside this package.
const driverName = "talk2tables-sqlite-readonly"

func init() {
	d := &sqlite.Driver{}
	d.RegisterConnectionHook(hardenConn)
	sql.Register(driverName, d)
}

// handle is the raw SQLite connection behind a modernc driver connection.
//
// modernc.org/sqlite v1.60.1 exposes neither sqlite3_set_authorizer,
// sqlite3_limit nor sqlite3_interrupt on its connections, so we read the two
// fields that hold the connection (db, the sqlite3* pointer, and tls, its
// libc thread state) by reflection and call the transpiled C API directly.
// If a future driver version renames them, handleOf fails and Open refuses
// to serve (fail closed) instead of running without the authorizer.
type handle struct {
	db   uintptr
	tls  *libc.TLS
	lock sync.Locker // the driver conn's own mutex, also taken by its interrupt and Close
}

func handleOf(dc any) (handle, error) {
	v := reflect.ValueOf(dc)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return handle{}, fmt.Errorf("unexpected sqlite driver connection type %T", dc)
	}
	s := v.Elem()
	dbf, tlsf := s.FieldByName("db"), s.FieldByName("tls")
	if !dbf.IsValid() || dbf.Kind() != reflect.Uintptr || !tlsf.IsValid() || tlsf.Type() != reflect.TypeFor[*libc.TLS]() {
		return handle{}, fmt.Errorf("sqlite driver connection %T has no db/tls fields: cannot install the read-only authorizer", dc)
	}
	locker, ok := dc.(sync.Locker)
	if !ok {
		return handle{}, fmt.Errorf("sqlite driver connection %T is not lockable", dc)
	}
	h := handle{db: uintptr(dbf.Uint()), tls: (*libc.TLS)(tlsf.UnsafePointer()), lock: locker}
	if h.db == 0 || h.tls == nil {
		return handle{}, errors.New("sqlite driver connection is closed")
	}
	return h, nil
}

// interrupt makes the statement running on h stop with SQLITE_INTERRUPT.
// It runs on a goroutine other than the query's, so like modernc's own
// interrupt it uses a fresh libc TLS and holds the connection's mutex.
func (h handle) interrupt() {
	h.lock.Lock()
	defer h.lock.Unlock()
	tls := libc.NewTLS()
	sqlite3.Xsqlite3_interrupt(tls, h.db)
	tls.Close()
}

// hardenConn runs on every new connection of the private driver, after the
// DSN (mode=ro, query_only) has been applied and before the connection is
// used.
func hardenConn(conn sqlite.ExecQuerierContext, _ string) error {
	h, err := handleOf(conn)
	if err != nil {
		return err
	}
	// No attached databases at all: ATTACH (and VACUUM INTO, which attaches
	// its target) fail even if the authorizer were bypassed.
	sqlite3.Xsqlite3_limit(h.tls, h.db, sqlite3.SQLITE_LIMIT_ATTACHED, 0)
	// Extension loading is off by default; make it explicit for both the C
	// API and the SQL function.
	if rc := dbConfig(h, sqlite3.SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0); rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("disable extension loading: sqlite rc %d", rc)
	}
	// Functions in the schema (views, defaults) may not do risky things.
	if rc := dbConfig(h, sqlite3.SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0); rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("untrust schema: sqlite rc %d", rc)
	}
	if rc := sqlite3.Xsqlite3_set_authorizer(h.tls, h.db, cFuncPointer(authorizerTrampoline), 0); rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("install authorizer: sqlite rc %d", rc)
	}
	return nil
}

// dbConfig calls sqlite3_db_config(db, op, onoff, (int*)0).
func dbConfig(h handle, op, onoff int32) int32 {
	// sqlite3_db_config is variadic: the transpiled form takes a pointer to
	// the argument list, two 8-byte slots here.
	bp := libc.Xmalloc(h.tls, 16)
	if bp == 0 {
		return sqlite3.SQLITE_NOMEM
	}
	defer libc.Xfree(h.tls, bp)
	return sqlite3.Xsqlite3_db_config(h.tls, h.db, op, libc.VaList(bp, onoff, uintptr(0)))
}

// cFuncPointer converts a top-level Go function to the function pointer the
// transpiled SQLite calls (the same conversion modernc uses internally).
func cFuncPointer[T any](f T) uintptr {
	return *(*uintptr)(unsafe.Pointer(&struct{ f T }{f}))
}

// authorizerTrampoline is SQLite's xAuth callback.
func authorizerTrampoline(tls *libc.TLS, _ uintptr, action int32, z1, z2, z3, z4 uintptr) int32 {
	if authorize(int(action), goString(z1), goString(z2)) {
		return sqlite3.SQLITE_OK
	}
	return sqlite3.SQLITE_DENY
}

func goString(p uintptr) string {
	if p == 0 {
		return ""
	}
	return libc.GoString(p)
}

// SQLite authorizer action codes (sqlite3.h) we allow.
const (
	actionPragma    = sqlite3.SQLITE_PRAGMA
	actionRead      = sqlite3.SQLITE_READ
	actionSelect    = sqlite3.SQLITE_SELECT
	actionFunction  = sqlite3.SQLITE_FUNCTION
	actionRecursive = sqlite3.SQLITE_RECURSIVE
)

// readPragmas are the introspection pragmas reachable as table-valued
// functions (pragma_table_info('t') ...) that the schema resource uses.
// Every other pragma, and any pragma given a value, is denied.
var readPragmas = map[string]bool{
	"table_info": true, "table_xinfo": true, "index_list": true, "index_info": true,
	"index_xinfo": true, "foreign_key_list": true,
}

// deniedFunctions are SQL functions that reach outside the database or
// change the process: extension loading, and the file functions of the
// sqlite3 shell and its fileio extension (absent from this build, denied in
// case one ever gets linked in).
var deniedFunctions = map[string]bool{
	"load_extension": true, "readfile": true, "writefile": true, "edit": true,
	"fts3_tokenizer": true, "sqlite_attach": true, "sqlite_detach": true,
}

// authorize is the allow-list policy of the authorizer: reading tables,
// SELECT (including recursive CTEs), safe functions and the introspection
// pragmas. Everything else — INSERT, UPDATE, DELETE, CREATE, DROP, ALTER,
// ATTACH, DETACH, TRANSACTION, ANALYZE, REINDEX, writable PRAGMA, virtual
// table creation, savepoints — is denied when the statement is prepared.
func authorize(action int, arg1, arg2 string) bool {
	switch action {
	case actionSelect, actionRecursive:
		return true
	case actionRead:
		// sqlite_dbpage hands out the raw pages of the file.
		return !strings.EqualFold(arg1, "sqlite_dbpage")
	case actionFunction:
		return !deniedFunctions[strings.ToLower(arg2)]
	case actionPragma:
		return readPragmas[strings.ToLower(arg1)]
	}
	return false
}

// withHandle runs fn with the raw handle of the connection c.
func withHandle(c *sql.Conn, fn func(h handle) error) error {
	return c.Raw(func(dc any) error {
		h, err := handleOf(dc)
		if err != nil {
			return err
		}
		return fn(h)
	})
}
