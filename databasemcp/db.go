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
//   - a statement timeout that interrupts SQLite itself, and a row cap
//     applied while the rows are read.
package databasemcp

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"talk2tables/sqlerr"
)

// Limits and defaults of Options.
const (
	DefaultQueryTimeout   = 10 * time.Second
	DefaultMaxRows        = 1000
	HardMaxRows           = 100000
	DefaultMaxQueryLength = 20000
	poolSize              = 4
	schemaTimeout         = 2 * time.Minute
)

// Options configures Open. Zero values take the defaults.
type Options struct {
	QueryTimeout   time.Duration // per statement; default 10s
	MaxRows        int           // rows returned when the caller gives no max_rows; default 1000, at most HardMaxRows
	MaxQueryLength int           // characters; default 20000
	// Today, when set (YYYY-MM-DD), is the date the schema resource reports
	// as today instead of the clock's: fixtures and demos over data that ends
	// on a fixed day stay reproducible.
	Today string
}

func (o Options) withDefaults() (Options, error) {
	if o.QueryTimeout < 0 || o.MaxRows < 0 || o.MaxQueryLength < 0 {
		return o, errors.New("query timeout, max rows and max query length must not be negative")
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
	opts Options
	sql  *sql.DB

	schemaMu sync.Mutex
	schema   *Schema // cached without Today
}

// sqliteMagic is the first 16 bytes of every SQLite 3 database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// Open opens the SQLite database at path read-only. It never creates or
// modifies a file: a missing path, a directory or a file that is not a SQLite
// database is an error naming the path. It also reads and caches the schema.
func Open(path string, opts Options) (*DB, error) {
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
	sdb, err := sql.Open(driverName, readOnlyDSN(abs))
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	sdb.SetMaxOpenConns(poolSize)
	sdb.SetMaxIdleConns(poolSize)
	db := &DB{path: path, opts: opts, sql: sdb}

	ctx, cancel := context.WithTimeout(context.Background(), schemaTimeout)
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
// be replacing the file).
func readOnlyDSN(abs string) string {
	u := url.URL{Scheme: "file", Path: abs}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_defensive", "1")
	q.Set("_query_only", "1")
	q.Add("_pragma", "busy_timeout(2000)")
	return "file:" + u.EscapedPath() + "?" + q.Encode()
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

// Path is the path the database was opened with.
func (db *DB) Path() string { return db.path }

// Options are the effective options (defaults applied).
func (db *DB) Options() Options { return db.opts }

// Result is the answer of a query, the JSON text of a successful
// execute_query.
type Result struct {
	Columns   []string `json:"columns"`
	Rows      [][]any  `json:"rows"`
	RowCount  int      `json:"row_count"`
	Truncated bool     `json:"truncated"`
	ElapsedMS float64  `json:"elapsed_ms"`
}

// Query runs one read-only query and returns at most maxRows rows (0 means
// the default of Options; above HardMaxRows is an error). Errors are
// *sqlerr.Error with the category of the failure.
func (db *DB) Query(ctx context.Context, query string, maxRows int) (*Result, error) {
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
	res := &Result{Columns: []string{}, Rows: [][]any{}}
	err := db.withConn(ctx, func(ctx context.Context, c *sql.Conn) error {
		rows, err := c.QueryContext(ctx, query)
		if err != nil {
			return err
		}
		defer rows.Close()
		cols, err := rows.Columns()
		if err != nil {
			return err
		}
		res.Columns = cols
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if len(res.Rows) == maxRows {
				res.Truncated = true
				break
			}
			if err := rows.Scan(ptrs...); err != nil {
				return err
			}
			row := make([]any, len(cols))
			for i, v := range vals {
				row[i] = jsonValue(v)
			}
			res.Rows = append(res.Rows, row)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		return rows.Close()
	})
	if err != nil {
		return nil, db.categorize(err)
	}
	res.RowCount = len(res.Rows)
	res.ElapsedMS = math.Round(float64(time.Since(start).Microseconds())/10) / 100
	return res, nil
}

// Validate checks a query without running it: the same guards as Query, then
// SQLite prepares it (which resolves tables, columns, functions, aggregates
// and runs the authorizer).
func (db *DB) Validate(ctx context.Context, query string) error {
	if e := checkQuery(query, db.opts.MaxQueryLength); e != nil {
		return e
	}
	err := db.withConn(ctx, func(ctx context.Context, c *sql.Conn) error {
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

// withConn runs fn on a pooled connection under the statement timeout, while
// a watcher interrupts SQLite when that timeout (or the caller's ctx) ends.
// modernc interrupts only the first step of a query on cancellation; the
// watcher covers every later step while rows are read. It is stopped before
// the connection goes back to the pool, so it can never interrupt another
// query.
//
// Waiting for a free connection is bounded separately (by the same duration)
// and reported as the database being busy: the statement timeout starts only
// once the query really runs, so a query queued behind slow ones is not told
// it was slow itself. Timeouts and cancellations come back as *sqlerr.Error.
func (db *DB) withConn(ctx context.Context, fn func(ctx context.Context, c *sql.Conn) error) error {
	waitCtx, cancelWait := context.WithTimeout(ctx, db.opts.QueryTimeout)
	c, err := db.sql.Conn(waitCtx)
	cancelWait()
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return sqlerr.New(sqlerr.Timeout, "query interrupted: the request was cancelled")
		case errors.Is(err, context.DeadlineExceeded):
			return sqlerr.New(sqlerr.Timeout, fmt.Sprintf(
				"database busy: all %d connections ran other queries for %s; try again shortly", poolSize, db.opts.QueryTimeout))
		}
		return err
	}
	defer c.Close()
	var h handle
	if err := withHandle(c, func(got handle) error { h = got; return nil }); err != nil {
		return err
	}
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
	err = fn(qctx, c)
	close(stop)
	wg.Wait()
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return sqlerr.New(sqlerr.Timeout, "query interrupted: the request was cancelled")
		case errors.Is(qctx.Err(), context.DeadlineExceeded):
			return sqlerr.New(sqlerr.Timeout, fmt.Sprintf(
				"query interrupted after the %s statement timeout: make it cheaper (filter earlier, avoid cross joins and unbounded recursion, add LIMIT)",
				db.opts.QueryTimeout))
		}
	}
	return err
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
		}
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

// jsonValue converts a scanned SQLite value to a clean JSON value: text and
// blobs become strings, integers and reals stay numbers, NULL stays null.
func jsonValue(v any) any {
	switch x := v.(type) {
	case []byte:
		return string(x)
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
