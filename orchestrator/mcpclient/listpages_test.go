package mcpclient

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestListPages(t *testing.T) {
	boom := errors.New("connection reset")
	tests := []struct {
		name    string
		pages   map[mcp.Cursor]listPage // by the cursor that asks for them
		want    []int
		wantErr string
	}{
		{name: "one page", pages: map[mcp.Cursor]listPage{"": {items: []int{1, 2}}}, want: []int{1, 2}},
		{name: "empty", pages: map[mcp.Cursor]listPage{"": {}}, want: nil},
		{name: "three pages", pages: map[mcp.Cursor]listPage{
			"":  {items: []int{1}, next: "a"},
			"a": {items: []int{2, 3}, next: "b"},
			"b": {items: []int{4}},
		}, want: []int{1, 2, 3, 4}},
		{name: "repeated cursor", pages: map[mcp.Cursor]listPage{
			"":  {items: []int{1}, next: "a"},
			"a": {items: []int{2}, next: "b"},
			"b": {items: []int{3}, next: "a"},
		}, wantErr: `things/list repeated cursor "a"`},
		{name: "error on a later page", pages: map[mcp.Cursor]listPage{
			"":  {items: []int{1}, next: "a"},
			"a": {err: boom},
		}, wantErr: boom.Error()},
		{name: "endless distinct cursors", pages: nil,
			wantErr: fmt.Sprintf("more than %d pages of things; the server's cursor does not end", maxListPages)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			got, err := listPages("things", func(cursor mcp.Cursor) ([]int, mcp.Cursor, error) {
				calls++
				if tt.pages == nil { // a server that always has one more page
					return []int{calls}, mcp.Cursor(fmt.Sprint("c", calls)), nil
				}
				p, ok := tt.pages[cursor]
				if !ok {
					t.Fatalf("asked for unknown cursor %q", cursor)
				}
				return p.items, p.next, p.err
			})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
					t.Fatalf("listPages = %v, %v; want no items and an error containing %q", got, err, tt.wantErr)
				}
				if tt.pages == nil && calls != maxListPages {
					t.Errorf("fetched %d pages, want the limit %d", calls, maxListPages)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("listPages = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// listPage is one scripted answer to a list request.
type listPage struct {
	items []int
	next  mcp.Cursor
	err   error
}
