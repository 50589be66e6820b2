// Package databasemcp is the MCP server over a SQLite database: the tools
// execute_query and validate_query and the resource database://schema.
//
// The database is read-only in depth. Each query passes, in order:
//   - a statement guard (length limit, exactly one statement, and only
//     SELECT, WITH ... SELECT, VALUES or EXPLAIN, found by a tokenizer that
//     understands strings, quoted identifiers and comments);
//   - a SQLite authorizer on every connection that allows only reading
//     tables, SELECT, safe functions and introspection pragmas, and so denies
//     writes, DDL, ATTACH/DETACH, transactions, writable PRAGMAs and
//     load_extension when the statement is prepared;
//   - a connection opened with mode=ro (SQLite refuses every write and never
//     creates the file), PRAGMA query_only, defensive mode, untrusted schema,
//     no extension loading and a limit of zero attached databases (so VACUUM
//     INTO cannot create a file);
//   - a statement timeout that interrupts SQLite itself, and bounds applied
//     while the rows are read: a row cap, SQLite's length limit on every
//     value an expression builds, a cap on each cell and on the whole
//     result (package resultlimit).
//
// Connections are set up for concurrent reads: the file is memory-mapped
// (sized to the file), so pages are read from the map instead of through
// pread and SQLite's page cache, whose one global mutex (this build enables
// SQLITE_ENABLE_MEMORY_MANAGEMENT) serialised every connection; the pool is
// sized from the cores and admits queries first come, first served.
package databasemcp

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"talk2tables/resultlimit"
	"talk2tables/schema"
	"talk2tables/sqlerr"
)

// Limits and defaults of Options.
const (
	DefaultQueryTimeout   = 10 * time.Second
	DefaultMaxRows        = 1000
	HardMaxRows           = 100000
	DefaultMaxQueryLength = 20000
	// DefaultMaxValueBytes is SQLite's length limit on the connections: no
	// string or blob an expression builds (randomblob, zeroblob, printf,
	// group_concat ...) may be longer, so no single function call can run
	// or allocate for long. SQLite's own default is 1,000,000,000.
	DefaultMaxValueBytes = 16 << 20
	// DefaultMaxCellBytes bounds one value of a result (as JSON); longer
	// values are cut.
	DefaultMaxCellBytes = resultlimit.DefaultMaxCellBytes
	// DefaultMaxResultBytes bounds the rows of a result (as JSON); the rows
	// after the bound are left out.
	DefaultMaxResultBytes = resultlimit.DefaultMaxBytes
	// MaxConnections bounds Options.Connections.
	MaxConnections = 64
	schemaTimeout  = 2 * time.Minute
	// minMmapBytes is the smallest memory map: a small file may grow.
	minMmapBytes = 64 << 20
)

// DefaultConnections is the default pool size: eight connections per core
// (at least 8, at most MaxConnections). Memory-mapped connections cost
// little, and with more queries running than cores the Go scheduler shares
// the cores among them, so a point lookup is not queued behind analyst
// queries: at 16 concurrent clients of the load mix, lookups took a median
// of 0.2-0.4 s with 16 connections against 0.6-0.8 s with 4, for the same
// throughput.
func DefaultConnections() int { return min(MaxConnections, max(8, 8*runtime.GOMAXPROCS(0))) }

// Options configures Open. Zero values take the defaults.
type Options struct {
	QueryTimeout   time.Duration // per statement; default 10s
	MaxRows        int           // rows returned when the caller gives no max_rows; default 1000, at most HardMaxRows
	MaxQueryLength int           // characters; default 20000
	// Connections is the pool size, the most queries running at once;
	// default DefaultConnections(), at most MaxConnections. Queries beyond it
	// wait their turn, first come first served, for up to QueryTimeout.
	Connections int
	// MaxValueBytes is SQLite's length limit (default DefaultMaxValueBytes):
	// a longer string or blob fails the query with RESOURCE_LIMIT.
	MaxValueBytes int
	// MaxCellBytes bounds one value of a result as JSON (default
	// DefaultMaxCellBytes); a longer one is cut, ending in "…".
	MaxCellBytes int
	// MaxResultBytes bounds all rows of a result as JSON (default
	// DefaultMaxResultBytes); the rows past it are left out.
	MaxResultBytes int
	// Today, when set (YYYY-MM-DD), is the date the schema resource reports
	// as today instead of the clock's: fixtures and demos over data that ends
	// on a fixed day stay reproducible.
	Today string
	// Name, when set, is the database's name in the schema resource instead
	// of the SQLite file's base name (files served as tables: the file or
	// directory the analyst named, not the cached database).
	Name string
}

func (o Options) withDefaults() (Options, error) {
	if o.QueryTimeout < 0 || o.MaxRows < 0 || o.MaxQueryLength < 0 || o.Connections < 0 ||
		o.MaxValueBytes < 0 || o.MaxCellBytes < 0 || o.MaxResultBytes < 0 {
		return o, errors.New("query timeout, max rows, max query length, connections and byte limits must not be negative")
	}
	if o.Connections == 0 {
		o.Connections = DefaultConnections()
	}
	if o.Connections > MaxConnections {
		return o, fmt.Errorf("connections %d is above the limit of %d", o.Connections, MaxConnections)
	}
	if o.MaxValueBytes == 0 {
		o.MaxValueBytes = DefaultMaxValueBytes
	}
	if o.MaxValueBytes > sqlite3.SQLITE_MAX_LENGTH {
		return o, fmt.Errorf("max value bytes %d is above SQLite's limit of %d", o.MaxValueBytes, sqlite3.SQLITE_MAX_LENGTH)
	}
	if o.MaxCellBytes == 0 {
		o.MaxCellBytes = DefaultMaxCellBytes
	}
	if o.MaxResultBytes == 0 {
		o.MaxResultBytes = DefaultMaxResultBytes
	}
	if o.MaxCellBytes < 16 || o.MaxResultBytes < 1024 {
		return o, fmt.Errorf("max cell bytes must be at least 16 and max result bytes at least 1024, got %d and %d",
			o.MaxCellBytes, o.MaxResultBytes)
	}
	if o.QueryTimeout == 0 {
		o.QueryTimeout = DefaultQueryTimeout
	}
	if o.MaxRows == 0 {
		o.MaxRows = DefaultMaxRows
	}
	if o.MaxRows > HardMaxRows {
		return o, fmt.Errorf("max rows %d is above the limit of %d", o.MaxRows, HardMaxRows)
	}
	if o.MaxQueryLength == 0 {
		o.MaxQueryLength = DefaultMaxQueryLength
	}
	if o.Today != "" {
		if _, err := time.Parse(time.DateOnly, o.Today); err != nil {
			return o, fmt.Errorf("today %q is not a date like 2026-06-30", o.Today)
		}
	}
	return o, nil
}

// DB is a SQLite database opened read-only.
type DB struct {
	path string
	abs  string
	opts Options
	sql  *sql.DB
	// slots admits at most opts.Connections queries at once, in arrival
	// order (a channel serves its waiters FIFO; database/sql hands a freed
	// connection to a random waiter, which makes the latency tail long).
	slots chan struct{}

	// version is the file's identity, size and modification time as last
	// seen; connIdentity maps each driver connection to the identity of the
	// file it was opened on, so a connection still reading a replaced file
	// is dropped (see conn).
	version      atomic.Pointer[fileVersion]
	connIdentity sync.Map // driver conn → fileIdentity
	opened       string   // the data version at Open, where Watch starts

	schemaMu sync.Mutex
	schema   *schema.Schema // cached without Today
}

// sqliteMagic is the first 16 bytes of every SQLite 3 database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// Open opens the SQLite database at path read-only. It never creates or
// modifies a file: a missing path, a directory or a file that is not a SQLite
// database is an error naming the path. It also reads and caches the schema,
// under ctx (and at most schemaTimeout).
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	if err := checkSQLiteFile(path); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	v, err := statVersion(abs)
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	sdb, err := sql.Open(driverName, readOnlyDSN(abs, mmapSize(v.size)))
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	sdb.SetMaxOpenConns(opts.Connections)
	sdb.SetMaxIdleConns(opts.Connections)
	db := &DB{path: path, abs: abs, opts: opts, sql: sdb, slots: make(chan struct{}, opts.Connections)}
	db.version.Store(&v)
	db.opened = v.String()

	ctx, cancel := context.WithTimeout(ctx, schemaTimeout)
	defer cancel()
	if _, err := db.loadSchema(ctx); err != nil {
		sdb.Close()
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	return db, nil
}

// readOnlyDSN is the URI modernc hands to sqlite3_open_v2: mode=ro makes
// SQLite open the file read-only and fail rather than create it; the driver
// keys set query_only, defensive mode and a busy timeout (another process may
// be replacing the file), and map mmap bytes of the file into memory.
func readOnlyDSN(abs string, mmap int64) string {
	u := url.URL{Scheme: "file", Path: abs}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_defensive", "1")
	q.Set("_query_only", "1")
	q.Add("_pragma", "busy_timeout(2000)")
	q.Add("_pragma", fmt.Sprintf("mmap_size(%d)", mmap))
	return "file:" + u.EscapedPath() + "?" + q.Encode()
}

// mmapSize is the memory map for a file of size bytes: twice the file (it
// may grow while served), at least minMmapBytes, at most what this SQLite
// build allows. SQLite maps only the part of the file that exists.
//
// Memory-mapped reads are what make concurrent queries scale with this
// driver: without them every page comes through a pread system call and
// SQLite's page cache, whose single mutex (SQLITE_ENABLE_MEMORY_MANAGEMENT
// makes all connections share one page-cache group) serialises the
// connections. A CPU profile of 4 concurrent analyst queries showed 32% of
// the time in pread and most of the rest spinning on that mutex.
func mmapSize(size int64) int64 {
	return min(max(2*size, minMmapBytes), sqlite3.SQLITE_MAX_MMAP_SIZE)
}

func checkSQLiteFile(path string) error {
	if path == "" {
		return errors.New("no database path given")
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("database %s does not exist: generate the sample with 'make data' or 'talk2tables gen-data --db %s', or point --db at your own SQLite file", path, path)
	case err != nil:
		return fmt.Errorf("database %s: %w", path, err)
	case fi.IsDir():
		return fmt.Errorf("database %s is a directory, not a SQLite file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("database %s: %w", path, err)
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, sqliteMagic) {
		return fmt.Errorf("database %s is not a SQLite database", path)
	}
	return nil
}

// Close closes the database.
func (db *DB) Close() error { return db.sql.Close() }

// limits are the result bounds of Query.
func (db *DB) limits(maxRows int) resultlimit.Limits { return resultLimits(db.opts, maxRows) }

// Path is the path the database was opened with.
func (db *DB) Path() string { return db.path }

// Options are the effective options (defaults applied).
func (db *DB) Options() Options { return db.opts }

// Query runs one read-only query and returns at most maxRows rows (0 means
// the default of Options; above HardMaxRows is an error). Errors are
// *sqlerr.Error with the category of the failure.
func (db *DB) Query(ctx context.Context, query string, maxRows int) (*schema.Result, error) {
	start := time.Now()
	switch {
	case maxRows == 0:
		maxRows = db.opts.MaxRows
	case maxRows < 0 || maxRows > HardMaxRows:
		return nil, sqlerr.New(sqlerr.UnknownError,
			fmt.Sprintf("max_rows must be between 1 and %d, got %d", HardMaxRows, maxRows))
	}
	if e := checkQuery(query, db.opts.MaxQueryLength); e != nil {
		return nil, e
	}
	res := &schema.Result{Columns: []string{}, Rows: [][]any{}}
	col := resultlimit.NewCollector(db.limits(maxRows))
	err := db.withConn(ctx, func(ctx context.Context, c *sql.Conn, v *fileVersion) error {
		res.DataVersion = v.String()
		// Straight through the driver: database/sql would copy every blob
		// once more while scanning, before the collector cuts it.
		return c.Raw(func(dc any) error {
			qc, ok := dc.(driver.QueryerContext)
			if !ok {
				return fmt.Errorf("sqlite driver connection %T cannot run queries", dc)
			}
			rows, err := qc.QueryContext(ctx, query, nil)
			if err != nil {
				return err
			}
			res.Columns = rows.Columns()
			err = collectRows(rows, col)
			// Closed exactly once: the driver's rows, unlike database/sql's,
			// must not be closed twice.
			return errors.Join(err, rows.Close())
		})
	})
	if err != nil {
		return nil, db.categorize(err)
	}
	res.Rows, res.Truncated, res.Note = col.Rows(), col.Truncated(), col.Note()
	res.RowCount = len(res.Rows)
	res.ElapsedMS = math.Round(float64(time.Since(start).Microseconds())/10) / 100
	return res, nil
}

// collectRows reads rows into col until they end or col is full.
func collectRows(rows driver.Rows, col *resultlimit.Collector) error {
	dest := make([]driver.Value, len(rows.Columns()))
	declared := declaredTypes(rows, len(dest))
	for {
		if err := rows.Next(dest); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if !col.Room() {
			return nil
		}
		row := make([]any, len(dest))
		for i, v := range dest {
			if t, ok := v.(time.Time); ok {
				row[i] = sqliteTimeText(t, declared[i])
			} else {
				row[i] = jsonValue(v)
			}
			dest[i] = nil // a long value is not kept alive by the buffer
		}
		if ok, err := col.Add(row); err != nil || !ok {
			return err
		}
	}
}

// declaredTypes returns the declared type of each result column (upper
// case; "" for expressions).
func declaredTypes(rows driver.Rows, n int) []string {
	out := make([]string, n)
	if dt, ok := rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		for i := range out {
			out[i] = strings.ToUpper(dt.ColumnTypeDatabaseTypeName(i))
		}
	}
	return out
}

// sqliteTimeText turns a time the driver parsed out of a DATE, DATETIME or
// TIMESTAMP column's text back into SQLite's own text form, so an answer
// shows the value as the database holds it ('2023-07-29 20:00:00',
// '2026-06-17') rather than re-dressed as RFC 3339 with a time zone the data
// never had: a DATE at midnight as YYYY-MM-DD, anything else as
// YYYY-MM-DD HH:MM:SS with fractional seconds and a UTC offset only when the
// value has them.
func sqliteTimeText(t time.Time, declared string) string {
	layout := "2006-01-02 15:04:05.999999999"
	midnight := t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0
	if declared == "DATE" && midnight {
		layout = "2006-01-02"
	}
	if _, off := t.Zone(); off != 0 {
		layout += "-07:00"
	}
	return t.Format(layout)
}

// Validate checks a query without running it: the same guards as Query, then
// SQLite prepares it (which resolves tables, columns, functions, aggregates
// and runs the authorizer).
func (db *DB) Validate(ctx context.Context, query string) error {
	if e := checkQuery(query, db.opts.MaxQueryLength); e != nil {
		return e
	}
	err := db.withConn(ctx, func(ctx context.Context, c *sql.Conn, _ *fileVersion) error {
		st, err := c.PrepareContext(ctx, query)
		if err != nil {
			return err
		}
		return st.Close()
	})
	if err != nil {
		return db.categorize(err)
	}
	return nil
}

// waitError is the error of a wait for a free connection, bounded by the
// query timeout, that failed with err: the caller's cancellation, or the
// database busy (every one of conns connections ran other queries for
// timeout), as TIMEOUT; nil when it is neither (the engine says what).
func waitError(ctx context.Context, err error, conns int, timeout time.Duration) error {
	switch {
	case ctx.Err() != nil:
		return cancelledError()
	case errors.Is(err, context.DeadlineExceeded):
		return sqlerr.New(sqlerr.Timeout, fmt.Sprintf(
			"database busy: all %d connections ran other queries for %s; try again shortly", conns, timeout))
	}
	return nil
}

// cancelledError is the error of a query whose caller went away.
func cancelledError() *sqlerr.Error {
	return sqlerr.New(sqlerr.Timeout, "query interrupted: the request was cancelled")
}

// statementTimeoutError is the error of a query that ran past the statement
// timeout d, on any engine: TIMEOUT, with how to make the query cheaper.
func statementTimeoutError(d time.Duration) *sqlerr.Error {
	return sqlerr.New(sqlerr.Timeout, fmt.Sprintf(
		"query interrupted after the %s statement timeout: make it cheaper (filter earlier, avoid cross joins and unbounded recursion, add LIMIT)", d))
}

// withConn runs fn on a pooled connection under the statement timeout, while
// a watcher interrupts SQLite when that timeout (or the caller's ctx) ends.
// modernc interrupts only the first step of a query on cancellation; the
// watcher covers every later step while rows are read. It is stopped before
// the connection goes back to the pool, so it can never interrupt another
// query. fn also gets the version of the file the connection reads.
//
// Waiting for a free connection is bounded separately (by the same duration)
// and reported as the database being busy: the statement timeout starts only
// once the query really runs, so a query queued behind slow ones is not told
// it was slow itself. Timeouts and cancellations come back as *sqlerr.Error.
func (db *DB) withConn(ctx context.Context, fn func(ctx context.Context, c *sql.Conn, v *fileVersion) error) error {
	waitCtx, cancelWait := context.WithTimeout(ctx, db.opts.QueryTimeout)
	c, v, err := db.conn(waitCtx)
	cancelWait()
	if err != nil {
		if busy := waitError(ctx, err, db.opts.Connections, db.opts.QueryTimeout); busy != nil {
			return busy
		}
		return err
	}
	defer func() {
		c.Close()
		<-db.slots
	}()
	var h handle
	if err := withHandle(c, func(got handle) error { h = got; return nil }); err != nil {
		return err
	}
	// The length limit is set on every use rather than once per connection:
	// the connection hook is shared by every DB of the process, and the limit
	// is per DB. It is a plain field store in SQLite.
	sqlite3.Xsqlite3_limit(h.tls, h.db, sqlite3.SQLITE_LIMIT_LENGTH, int32(db.opts.MaxValueBytes))
	qctx, cancel := context.WithTimeout(ctx, db.opts.QueryTimeout)
	defer cancel()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		select {
		case <-qctx.Done():
			h.interrupt()
		case <-stop:
		}
	})
	err = fn(qctx, c, v)
	close(stop)
	wg.Wait()
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return cancelledError()
		case errors.Is(qctx.Err(), context.DeadlineExceeded):
			return statementTimeoutError(db.opts.QueryTimeout)
		}
	}
	return err
}

// conn takes a slot (waiting in line until ctx ends) and then a connection
// reading the current file. When the file was replaced since a connection
// opened (a new database renamed over the path, as gen-data does), that
// connection still reads the old file: it is dropped and a new one opened.
// The caller closes the connection and then frees the slot.
func (db *DB) conn(ctx context.Context) (*sql.Conn, *fileVersion, error) {
	select {
	case db.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	v := db.currentVersion()
	for range db.opts.Connections + 1 {
		c, err := db.sql.Conn(ctx)
		if err != nil {
			<-db.slots
			return nil, nil, err
		}
		stale := false
		err = c.Raw(func(dc any) error {
			id, seen := db.connIdentity.LoadOrStore(dc, v.id)
			if seen && id.(fileIdentity) != v.id {
				db.connIdentity.Delete(dc)
				stale = true
				return driver.ErrBadConn // database/sql closes it
			}
			return nil
		})
		if err == nil && !stale {
			return c, v, nil
		}
		c.Close()
		if !stale {
			<-db.slots
			return nil, nil, err
		}
	}
	<-db.slots
	return nil, nil, fmt.Errorf("database %s: no connection to the current file after %d tries", db.path, db.opts.Connections+1)
}

// categorize turns a database or context error into a *sqlerr.Error.
func (db *DB) categorize(err error) *sqlerr.Error {
	var se *sqlerr.Error
	if errors.As(err, &se) {
		return se
	}
	msg := cleanMessage(err.Error())
	cat := sqlerr.Classify(msg)
	var le *sqlite.Error
	if errors.As(err, &le) {
		switch le.Code() & 0xff { // primary result code
		case sqlite3.SQLITE_AUTH, sqlite3.SQLITE_READONLY:
			cat = sqlerr.PermissionError
		case sqlite3.SQLITE_INTERRUPT:
			cat = sqlerr.Timeout
		case sqlite3.SQLITE_TOOBIG:
			cat = sqlerr.ResourceLimit
			msg = fmt.Sprintf("%s: a value is over the %s limit on values; select a part of it (substr()) "+
				"or its length() instead of the whole value", msg, resultlimit.Size(db.opts.MaxValueBytes))
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN:
			cat = sqlerr.DatabaseError
		}
	}
	if cat == sqlerr.DatabaseError {
		// The file, not the statement: say which one (by name; the full path
		// is the operator's, in the server's own log).
		msg = fmt.Sprintf("the database file %s is damaged or unreadable (%s): no query can read it; "+
			"restore the file (a good copy renamed over it): the server picks it up by itself", filepath.Base(db.path), msg)
	}
	if cat == sqlerr.PermissionError {
		msg = msg + ": " + readOnlyMessage
	}
	return sqlerr.New(cat, msg)
}

// cleanMessage strips modernc's decoration "SQL logic error: ... (1)" down
// to SQLite's own message, e.g. "no such table: sale".
func cleanMessage(m string) string {
	if i := strings.LastIndex(m, " ("); i > 0 && strings.HasSuffix(m, ")") {
		if code := m[i+2 : len(m)-1]; code != "" && strings.Trim(code, "0123456789") == "" {
			m = m[:i]
		}
	}
	if rest, ok := strings.CutPrefix(m, "SQL logic error: "); ok && rest != "" {
		m = rest
	}
	return m
}

// jsonValue converts a scanned SQLite value to a clean JSON value: integers
// and reals stay numbers, NULL stays null, text stays a string. Blobs stay
// []byte here: the result collector turns them into strings once it knows
// how much of them it keeps.
func jsonValue(v any) any {
	switch x := v.(type) {
	case []byte:
		return x
	case float64:
		if math.IsInf(x, 1) {
			return "Infinity"
		}
		if math.IsInf(x, -1) {
			return "-Infinity"
		}
		if math.IsNaN(x) {
			return nil
		}
		return x
	case time.Time:
		return x.Format(time.RFC3339Nano)
	default:
		return x
	}
}
