package databasemcp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"talk2tables/internal/testfixture"
	"talk2tables/sqlerr"
)

// TestDamagedFile: a database file truncated in place while served (issue
// 14 §4) fails every query with DATABASE_ERROR naming the file, not
// UNKNOWN_ERROR; once the file's content is restored, queries work again
// with no restart.
func TestDamagedFile(t *testing.T) {
	path := testfixture.SalesDB(t, 5000)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	db := openDB(t, path, Options{})
	ctx := context.Background()
	const q = "SELECT region, SUM(total_amount) FROM sales GROUP BY region"
	if _, err := db.Query(ctx, q, 10); err != nil {
		t.Fatalf("query before the damage: %v", err)
	}

	// Truncate in place (the same inode, as `truncate -s` or a bad copy does).
	if err := os.Truncate(path, int64(len(good)/3)); err != nil {
		t.Fatal(err)
	}
	_, err = db.Query(ctx, q, 10)
	var se *sqlerr.Error
	if !errors.As(err, &se) || se.Category != sqlerr.DatabaseError {
		t.Fatalf("query on the truncated file = %v, want a DATABASE_ERROR", err)
	}
	if !strings.Contains(se.Message, filepath.Base(path)) || strings.Contains(se.Message, filepath.Dir(path)) {
		t.Errorf("message %q: want the file's name (%s), not its directory", se.Message, filepath.Base(path))
	}

	// Restore the content in place.
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Query(ctx, q, 10); err != nil {
		t.Fatalf("query after the file was restored: %v", err)
	}
}
