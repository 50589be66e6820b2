package main

import (
	"context"
	"strings"
	"testing"
)

// TestGenDataDirectoryAsDB: --db naming a directory generated the whole
// database and then failed with "rename ...tmp-123 dir: file exists"; it must
// fail at once with a message naming the directory.
func TestGenDataDirectoryAsDB(t *testing.T) {
	dir := t.TempDir()
	var out, errOut strings.Builder
	err := run(context.Background(), []string{"gen-data", "--db", dir, "--rows", "10", "--catalog", "testdata/sales_catalog.json"},
		stdio{strings.NewReader(""), &out, &errOut})
	if err == nil {
		t.Fatal("gen-data --db <directory> succeeded, want an error")
	}
	if msg := err.Error(); !strings.Contains(msg, dir) || !strings.Contains(msg, "is a directory") || strings.Contains(msg, "rename") {
		t.Errorf("error = %q, want one naming %s as a directory (not a rename failure)", msg, dir)
	}
}
