package builtin

import (
	"strings"
	"testing"
)

func TestQuoteListBounded(t *testing.T) {
	long := strings.Repeat("x", 2000)
	tests := []struct {
		name  string
		words []string
		want  string
	}{
		{"short", []string{"meaning", "life"}, `"meaning", "life"`},
		{"long word cut", []string{long}, `"` + strings.Repeat("x", 40) + `…"`},
		{"many words", []string{"a", "b", "c", "d", "e", "f", "g", "h"}, `"a", "b", "c", "d", "e", "f", and 2 more`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := quoteList(tt.words); got != tt.want {
				t.Errorf("quoteList = %q, want %q", got, tt.want)
			}
		})
	}
}
