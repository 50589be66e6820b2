// Package filetables serves tabular files as tables: a CSV, TSV, JSON
// Lines or Parquet file, or a directory of them (one table per file), is
// loaded into a SQLite database kept in the user's cache directory, which
// database-mcp then serves like any SQLite file. Column types are inferred
// by sampling (integer, decimal, date, date-time, text); the database is
// reloaded when a file changes, and a load is all or nothing: it is written
// to a temporary file renamed into place only when complete.
package filetables

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver
)

// loaderVersion changes when the loader would build a different database
// from the same files: every cached database is then rebuilt.
const loaderVersion = 1

// Extensions are the file name extensions served as tables.
var extensions = []string{".csv", ".tsv", ".jsonl", ".ndjson", ".parquet"}

// Extensions returns the extensions served as tables.
func Extensions() []string { return slices.Clone(extensions) }

// Is reports whether path names files to serve as tables: a file with one
// of Extensions, or a directory.
func Is(path string) bool {
	if slices.Contains(extensions, strings.ToLower(filepath.Ext(path))) {
		return true
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Options tune Load. Zero values take the defaults.
type Options struct {
	// CacheDir holds the loaded databases; default
	// os.UserCacheDir()/talk2tables/files.
	CacheDir string
	// SampleRows is how many rows of each file decide its column types;
	// default 10,000.
	SampleRows int
}

// DefaultSampleRows is Options.SampleRows's default.
const DefaultSampleRows = 10000

// Table is one loaded file.
type Table struct {
	Name    string   `json:"name"`
	File    string   `json:"file"`
	Rows    int64    `json:"rows"`
	Columns []string `json:"columns"`
	Types   []string `json:"types"` // INTEGER, REAL, DATE, DATETIME, BOOLEAN or TEXT
}

// Loaded is the database of a Load.
type Loaded struct {
	// Path is the SQLite database to serve.
	Path string
	// Tables are the tables it holds, one per file.
	Tables []Table
	// Reused is set when the cached database was still current.
	Reused bool
}

// source is one file of a load, with what tells its content.
type source struct {
	File  string `json:"file"` // absolute path
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"`
	Hash  string `json:"sha256"`
}

// manifest is written beside a cached database: the loader version and the
// files it was loaded from.
type manifest struct {
	Version int      `json:"version"`
	Sources []source `json:"sources"`
	Tables  []Table  `json:"tables"`
}

// Load returns the SQLite database of the files at path (a file, or a
// directory whose files with one of Extensions become tables), loading it
// into the cache when it is missing or a file changed: a different size or
// modification time whose content hash differs. A malformed file is an error
// naming the file, line and column; nothing is cached for it.
func Load(ctx context.Context, path string, opts Options) (*Loaded, error) {
	if opts.SampleRows <= 0 {
		opts.SampleRows = DefaultSampleRows
	}
	if opts.CacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("find the cache directory for loaded files (set XDG_CACHE_HOME or HOME): %w", err)
		}
		opts.CacheDir = filepath.Join(base, "talk2tables", "files")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	files, err := listFiles(abs)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opts.CacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("create the cache directory %s: %w", opts.CacheDir, err)
	}
	key := sha256.Sum256([]byte(abs))
	dbPath := filepath.Join(opts.CacheDir, hex.EncodeToString(key[:8])+".db")
	manPath := strings.TrimSuffix(dbPath, ".db") + ".json"

	old := readManifest(manPath)
	srcs, same, err := current(files, old)
	if err != nil {
		return nil, err
	}
	if _, statErr := os.Stat(dbPath); same && statErr == nil {
		if !sameStat(srcs, old.Sources) { // touched, same content: remember the new times
			writeManifest(manPath, manifest{Version: loaderVersion, Sources: srcs, Tables: old.Tables})
		}
		return &Loaded{Path: dbPath, Tables: old.Tables, Reused: true}, nil
	}
	hashed := make(chan error, 1)
	go func() { hashed <- hashMissing(srcs) }() // on the other core, while the files load
	tables, err := build(ctx, files, dbPath, opts)
	if herr := <-hashed; err == nil {
		err = herr
	}
	if err != nil {
		return nil, err
	}
	if err := writeManifest(manPath, manifest{Version: loaderVersion, Sources: srcs, Tables: tables}); err != nil {
		return nil, err
	}
	return &Loaded{Path: dbPath, Tables: tables}, nil
}

// listFiles is the file at abs, or the served files of the directory abs
// (not recursive), sorted.
func listFiles(abs string) ([]string, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", abs, err)
	}
	if !fi.IsDir() {
		if !slices.Contains(extensions, strings.ToLower(filepath.Ext(abs))) {
			return nil, fmt.Errorf("%s: not a file served as a table (want %s)", abs, strings.Join(extensions, ", "))
		}
		return []string{abs}, nil
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, err
	}
	var files []string
	names := map[string]string{}
	for _, e := range entries {
		if e.IsDir() || !slices.Contains(extensions, strings.ToLower(filepath.Ext(e.Name()))) {
			continue
		}
		name := tableName(e.Name())
		if other, dup := names[strings.ToLower(name)]; dup {
			return nil, fmt.Errorf("%s: %s and %s would both be table %q: rename one", abs, other, e.Name(), name)
		}
		names[strings.ToLower(name)] = e.Name()
		files = append(files, filepath.Join(abs, e.Name()))
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no %s files in the directory (to serve a SQLite database, name its file)", abs, strings.Join(extensions, ", "))
	}
	slices.Sort(files)
	return files, nil
}

// tableName is a file's table: its name without the extension.
func tableName(file string) string {
	base := filepath.Base(file)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// current describes the files now and reports whether their content is
// what the manifest loaded: same list, and for each file the same size and
// time, or else the same hash.
func current(files []string, old manifest) ([]source, bool, error) {
	same := old.Version == loaderVersion && len(old.Sources) == len(files)
	srcs := make([]source, len(files))
	for i, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			return nil, false, err
		}
		srcs[i] = source{File: f, Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
		if !same || old.Sources[i].File != f {
			same = false
			continue
		}
		o := old.Sources[i]
		if o.Size == srcs[i].Size && o.MTime == srcs[i].MTime {
			srcs[i].Hash = o.Hash
			continue
		}
		if o.Size != srcs[i].Size {
			same = false
			continue
		}
		h, err := hashFile(f)
		if err != nil {
			return nil, false, err
		}
		srcs[i].Hash = h
		same = same && h == o.Hash
	}
	return srcs, same, nil
}

// hashMissing hashes the files current left without a hash (their content
// is loaded anyway; the hash is for the next comparison).
func hashMissing(srcs []source) error {
	for i := range srcs {
		if srcs[i].Hash == "" {
			h, err := hashFile(srcs[i].File)
			if err != nil {
				return err
			}
			srcs[i].Hash = h
		}
	}
	return nil
}

func sameStat(a, b []source) bool {
	return slices.EqualFunc(a, b, func(x, y source) bool { return x.Size == y.Size && x.MTime == y.MTime })
}

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func readManifest(path string) manifest {
	var m manifest
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, &m) // a damaged manifest is a missing one: the files are loaded again
	}
	return m
}

func writeManifest(path string, m manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// build loads every file into a new database at a temporary path and
// renames it to dbPath when all are in.
func build(ctx context.Context, files []string, dbPath string, opts Options) (_ []Table, err error) {
	tmp, err := os.CreateTemp(filepath.Dir(dbPath), filepath.Base(dbPath)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("create a database in the cache: %w", err)
	}
	tmpPath := tmp.Name()
	tmp.Close()
	defer func() {
		if err != nil {
			os.Remove(tmpPath)
			os.Remove(tmpPath + "-journal")
		}
	}()
	db, err := sql.Open("sqlite", "file:"+tmpPath+"?_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var tables []Table
	for _, f := range files {
		t, err := loadFile(ctx, db, f, opts)
		if err != nil {
			return nil, err
		}
		tables = append(tables, t)
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	if err := os.Chmod(tmpPath, 0o644); err != nil {
		return nil, err
	}
	if err := os.Rename(tmpPath, dbPath); err != nil {
		return nil, fmt.Errorf("move the loaded database into place: %w", err)
	}
	return tables, nil
}

// FormatError is a malformed file: its name, the line and column (1-based;
// 0 when unknown) and what is wrong.
type FormatError struct {
	File   string
	Line   int
	Column int
	Msg    string
}

func (e *FormatError) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("%s: line %d, column %d: %s", e.File, e.Line, e.Column, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s: line %d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// rowSource yields a file's rows: the column names, then records of values
// (string, int64, float64, bool or nil) with the line they start on.
type rowSource interface {
	columns() []string
	next() (vals []any, line int, err error) // io.EOF at the end
	close()
}

// openSource opens a file with the reader of its extension; known names
// the columns a previous read found (JSON Lines learn keys as they read).
func openSource(path string, known []string) (rowSource, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return openDelimited(path, ',')
	case ".tsv":
		return openTSV(path)
	case ".jsonl", ".ndjson":
		return openJSONLines(path, known)
	case ".parquet":
		return openParquet(path)
	}
	return nil, fmt.Errorf("%s: unknown file type", path)
}

// retry says how to read a file again: the columns made text because a
// later value did not fit the sample's type, and the columns found so far.
type retry struct {
	text    map[int]bool
	columns []string
}

// errRetry ends an attempt that must read the file again.
var errRetry = errors.New("read the file again")

// loadFile creates the file's table: its column types from the first
// SampleRows rows, then every row. A later value that does not fit its
// column's type (a mixed column the sample did not show) makes that column
// text, and a JSON key the sample did not show adds a column: the file is
// then read again.
func loadFile(ctx context.Context, db *sql.DB, path string, opts Options) (Table, error) {
	r := &retry{text: map[int]bool{}}
	for attempt := 0; ; attempt++ {
		t, err := loadOnce(ctx, db, path, opts, r)
		if err != errRetry {
			return t, err
		}
		if attempt > 1000 {
			return Table{}, &FormatError{File: filepath.Base(path), Msg: "its columns keep changing while it is read"}
		}
	}
}

// loadOnce is one attempt of loadFile; errRetry asks for another with r
// updated.
func loadOnce(ctx context.Context, db *sql.DB, path string, opts Options, r *retry) (Table, error) {
	name := tableName(path)
	src, err := openSource(path, r.columns)
	if err != nil {
		return Table{}, err
	}
	defer src.close()
	// Sample: read up to SampleRows rows and keep them for the load.
	var sample [][]any
	for len(sample) < opts.SampleRows {
		vals, _, err := src.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Table{}, err
		}
		sample = append(sample, vals)
	}
	cols := slices.Clone(src.columns())
	if len(cols) == 0 {
		return Table{}, &FormatError{File: filepath.Base(path), Msg: "no columns: the file holds no row to read them from"}
	}
	kinds := inferKinds(len(cols), sample)
	for i := range r.text {
		if i < len(kinds) {
			kinds[i] = kindText
		}
	}
	t := Table{Name: name, File: filepath.Base(path), Columns: cols, Types: make([]string, len(cols))}
	defs := make([]string, len(cols))
	for i, c := range cols {
		t.Types[i] = kinds[i].sqlType()
		defs[i] = quoteIdent(c) + " " + t.Types[i]
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return Table{}, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "CREATE TABLE "+quoteIdent(name)+" ("+strings.Join(defs, ", ")+")"); err != nil {
		return Table{}, fmt.Errorf("%s: create table %s: %w", filepath.Base(path), name, err)
	}
	ins, err := newInserter(ctx, tx, name, len(cols))
	if err != nil {
		return Table{}, err
	}
	defer ins.close()
	// The file is read and converted on one goroutine while SQLite inserts
	// on this one.
	rows, errc := convertRows(ctx, src, sample, kinds, len(cols), r)
	for batch := range rows {
		for i := 0; i+len(cols) <= len(batch); i += len(cols) {
			if err := ins.add(ctx, batch[i:i+len(cols)]); err != nil {
				drain(rows)
				<-errc
				return Table{}, err
			}
			t.Rows++
		}
	}
	if err := <-errc; err != nil {
		return Table{}, err
	}
	if err := ins.flush(ctx); err != nil {
		return Table{}, err
	}
	ins.close()
	if err := tx.Commit(); err != nil {
		return Table{}, err
	}
	return t, nil
}

// convertRows sends the sample's rows, then the rest of src's, converted to
// the columns' kinds, in batches of flat values; the error channel gets
// nil at the end, errRetry (with r updated) when a value or a new JSON key
// does not fit, or the reader's error.
func convertRows(ctx context.Context, src rowSource, sample [][]any, kinds []kind, ncols int, r *retry) (<-chan []any, <-chan error) {
	out := make(chan []any, 4)
	errc := make(chan error, 1)
	go func() {
		defer close(out)
		const per = 1024
		batch := make([]any, 0, per*ncols)
		convert := func(vals []any) error {
			for i := range ncols {
				var v any
				if i < len(vals) {
					v = vals[i]
				}
				cv, ok := kinds[i].convert(v)
				if !ok {
					r.text[i] = true
					return errRetry
				}
				batch = append(batch, cv)
			}
			if len(batch) == cap(batch) {
				select {
				case out <- batch:
				case <-ctx.Done():
					return ctx.Err()
				}
				batch = make([]any, 0, per*ncols)
			}
			return nil
		}
		for _, vals := range sample {
			if err := convert(vals); err != nil {
				errc <- err
				return
			}
		}
		for {
			vals, _, err := src.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				errc <- err
				return
			}
			if len(src.columns()) != ncols { // a JSON key the sample did not show
				r.columns = slices.Clone(src.columns())
				errc <- errRetry
				return
			}
			if err := convert(vals); err != nil {
				errc <- err
				return
			}
		}
		if len(batch) > 0 {
			out <- batch
		}
		errc <- nil
	}()
	return out, errc
}

// drain empties rows so its sender can finish.
func drain(rows <-chan []any) {
	for range rows {
	}
}

// batchRows rows go into one multi-row INSERT.
const batchRows = 100

// inserter writes rows with a prepared multi-row INSERT.
type inserter struct {
	tx    *sql.Tx
	table string
	cols  int
	full  *sql.Stmt
	buf   []any
}

func newInserter(ctx context.Context, tx *sql.Tx, table string, cols int) (*inserter, error) {
	per := max(1, min(batchRows, 32000/max(cols, 1)))
	st, err := tx.PrepareContext(ctx, insertSQL(table, cols, per))
	if err != nil {
		return nil, err
	}
	return &inserter{tx: tx, table: table, cols: cols, full: st, buf: make([]any, 0, cols*per)}, nil
}

func insertSQL(table string, cols, rows int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", cols), ",") + ")"
	return "INSERT INTO " + quoteIdent(table) + " VALUES " + strings.TrimSuffix(strings.Repeat(row+",", rows), ",")
}

// add buffers a copy of row's values.
func (in *inserter) add(ctx context.Context, row []any) error {
	in.buf = append(in.buf, row...)
	if len(in.buf) < cap(in.buf) {
		return nil
	}
	_, err := in.full.ExecContext(ctx, in.buf...)
	in.buf = in.buf[:0]
	return err
}

func (in *inserter) flush(ctx context.Context) error {
	if len(in.buf) == 0 {
		return nil
	}
	_, err := in.tx.ExecContext(ctx, insertSQL(in.table, in.cols, len(in.buf)/in.cols), in.buf...)
	in.buf = in.buf[:0]
	return err
}

func (in *inserter) close() { in.full.Close() }

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// Watch loads path again every interval until ctx is done, so a changed
// file replaces the cached database (database-mcp serves the new one from
// its next query, and tells its clients). A load that fails (a file being
// written, or malformed) leaves the database as it was and is reported to
// failed.
func Watch(ctx context.Context, path string, opts Options, interval time.Duration, reloaded func(*Loaded), failed func(error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		l, err := Load(ctx, path, opts)
		switch {
		case err != nil && ctx.Err() == nil:
			failed(err)
		case err == nil && !l.Reused:
			reloaded(l)
		}
	}
}
