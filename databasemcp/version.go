package databasemcp

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"
)

// fileIdentity tells files apart: a file renamed over the path has a new one.
type fileIdentity struct{ dev, ino uint64 }

// fileVersion is what a database file's content is known by without reading
// it: its identity, size and modification time. Any write through SQLite
// changes the size or the time; a replaced file changes the identity.
type fileVersion struct {
	id    fileIdentity
	size  int64
	mtime int64 // ns since the epoch
}

// String is the opaque data_version of results and the schema resource.
func (v *fileVersion) String() string {
	return fmt.Sprintf("%x.%x.%x.%x", v.id.dev, v.id.ino, v.size, v.mtime)
}

func statVersion(path string) (fileVersion, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileVersion{}, err
	}
	v := fileVersion{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		v.id = fileIdentity{dev: uint64(st.Dev), ino: uint64(st.Ino)}
	}
	return v, nil
}

// currentVersion stats the file (a microsecond) and, when it changed since
// last seen, forgets the cached schema (row counts, values) and, when the
// file was replaced, closes the idle connections, which still read the old
// file. A file that cannot be stat'ed right now (being replaced) keeps the
// last version.
func (db *DB) currentVersion() *fileVersion {
	last := db.version.Load()
	v, err := statVersion(db.abs)
	if err != nil || v == *last {
		return last
	}
	if !db.version.CompareAndSwap(last, &v) {
		return db.version.Load()
	}
	db.schemaMu.Lock()
	db.schema = nil
	db.schemaMu.Unlock()
	if v.id != last.id {
		db.sql.SetMaxIdleConns(0)
		db.sql.SetMaxIdleConns(db.opts.Connections)
	}
	return &v
}

// DataVersion identifies the database file's current content (see
// Result.DataVersion).
func (db *DB) DataVersion() string { return db.currentVersion().String() }

// Watch checks the file every interval until ctx is done and calls changed
// with the new data version whenever the content changed (written, or
// replaced by a new file) since Open or the last call. Queries notice a
// change by themselves; Watch is for telling clients that cache results.
func (db *DB) Watch(ctx context.Context, interval time.Duration, changed func(version string)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	last := db.opened
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if v := db.DataVersion(); v != last {
			last = v
			changed(v)
		}
	}
}
