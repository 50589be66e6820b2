// Package testfixture gives every package's tests the same real fixtures: the
// repository's sample catalog and sample SQLite databases generated from it.
package testfixture

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"talk2tables/catalog"
	"talk2tables/datagen"
)

// RepoRoot returns the absolute path of the repository root (the directory
// holding go.mod).
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("testfixture: cannot locate source file")
	}
	root := filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		tb.Fatalf("testfixture: repository root %s has no go.mod: %v", root, err)
	}
	return root
}

// CatalogPath returns the absolute path of the sample catalog,
// testdata/sales_catalog.json (format version 2).
func CatalogPath(tb testing.TB) string {
	tb.Helper()
	return filepath.Join(RepoRoot(tb), "testdata", "sales_catalog.json")
}

// AsOf is the as-of date of SalesDB databases: today, UTC.
func AsOf() time.Time {
	now := time.Now().UTC()
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
}

type built struct {
	once sync.Once
	path string
	err  error
}

var (
	mu     sync.Mutex
	builds = map[int]*built{}
	dir    string // process-wide cache of generated databases
	dirErr error
	dirOne sync.Once
)

// SalesDB returns the path of a private copy of the sample database with rows
// sales rows (seed 1, as-of today UTC), in tb.TempDir(). Each row count is
// generated once per test process and copied for every caller, so a test may
// modify its copy freely.
func SalesDB(tb testing.TB, rows int) string {
	tb.Helper()
	src, err := generated(tb, rows)
	if err != nil {
		tb.Fatalf("testfixture: generate %d-row database: %v", rows, err)
	}
	dst := filepath.Join(tb.TempDir(), "sales.db")
	if err := copyFile(src, dst); err != nil {
		tb.Fatalf("testfixture: copy database: %v", err)
	}
	return dst
}

func generated(tb testing.TB, rows int) (string, error) {
	tb.Helper()
	catPath := CatalogPath(tb)
	dirOne.Do(func() {
		sweepStale()
		dir, dirErr = os.MkdirTemp("", dirPrefix)
	})
	if dirErr != nil {
		return "", dirErr
	}
	mu.Lock()
	b, ok := builds[rows]
	if !ok {
		b = &built{}
		builds[rows] = b
	}
	mu.Unlock()
	b.once.Do(func() {
		cat, err := catalog.Load(catPath)
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(dir, fmt.Sprintf("sales-%d.db", rows))
		_, b.err = datagen.Generate(context.Background(), datagen.Options{
			Path: b.path, Catalog: cat, Seed: 1, AsOf: AsOf(), Rows: rows,
		})
	})
	return b.path, b.err
}

const dirPrefix = "talk2tables-testfixture-"

// staleAfter is far beyond any test process's life: cache directories older
// than this were left by finished processes (nothing removes them at exit).
const staleAfter = 3 * time.Hour

// sweepStale removes cache directories that earlier test processes left behind.
func sweepStale() {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), dirPrefix+"*"))
	for _, m := range matches {
		if info, err := os.Stat(m); err == nil && info.IsDir() && time.Since(info.ModTime()) > staleAfter {
			os.RemoveAll(m)
		}
	}
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
