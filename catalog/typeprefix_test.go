package catalog

import (
	"slices"
	"testing"
)

func TestIdentifierWordsTypePrefix(t *testing.T) {
	for in, want := range map[string][]string{
		"strTitle":     {"title"},
		"intLaneID":    {"lane", "id"},
		"tblKiosk":     {"kiosk"},
		"tbl_kiosk":    {"kiosk"},
		"dtOpened":     {"opened"},
		"bitIsShaded":  {"is", "shaded"},
		"main.strName": {"name"},
		"StrTitle":     {"str", "title"}, // PascalCase: a word, not a prefix
		"str_title":    {"str", "title"}, // snake: only tbl_ is a prefix
		"interval":     {"interval"},
		"int":          {"int"},
		"internalRef":  {"internal", "ref"},
	} {
		if got := IdentifierWords(in); !slices.Equal(got, want) {
			t.Errorf("IdentifierWords(%q) = %q, want %q", in, got, want)
		}
	}
}
