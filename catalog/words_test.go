package catalog

import (
	"slices"
	"strings"
	"testing"
)

func TestIdentifierWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"InvoiceLine", []string{"invoice", "line"}},
		{"invoiceLine", []string{"invoice", "line"}},
		{"customerID", []string{"customer", "id"}},
		{"CustomerId", []string{"customer", "id"}},
		{"HTTPServer", []string{"http", "server"}},
		{"order_details", []string{"order", "details"}},
		{"ORDER_DATE", []string{"order", "date"}},
		{"Order Details", []string{"order", "details"}},
		{"[Order Details]", []string{"order", "details"}},
		{`"order details"`, []string{"order", "details"}},
		{"`ship-via`", []string{"ship", "via"}},
		{"address2", []string{"address", "2"}},
		{"sales.orders", []string{"orders"}},
		{"UnitPrice", []string{"unit", "price"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := IdentifierWords(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("IdentifierWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := IdentifierPhrase("BillingCountry"); got != "billing country" {
		t.Errorf("IdentifierPhrase = %q, want billing country", got)
	}
}

func TestSingularPlural(t *testing.T) {
	tests := []struct{ plural, singular string }{
		{"categories", "category"},
		{"boxes", "box"},
		{"addresses", "address"},
		{"statuses", "status"},
		{"movies", "movie"},
		{"people", "person"},
		{"customers", "customer"},
		{"invoices", "invoice"},
		{"matches", "match"},
		{"series", "series"},
		{"data", "data"},
		{"days", "day"},
		{"analyses", "analysis"},
	}
	for _, tt := range tests {
		if got := Singular(tt.plural); got != tt.singular {
			t.Errorf("Singular(%q) = %q, want %q", tt.plural, got, tt.singular)
		}
		if got := Plural(tt.singular); got != tt.plural {
			t.Errorf("Plural(%q) = %q, want %q", tt.singular, got, tt.plural)
		}
	}
	for _, w := range []string{"status", "business", "news", "class", "bus", "campus", "genus"} {
		if got := Singular(w); got != w {
			t.Errorf("Singular(%q) = %q, want it unchanged", w, got)
		}
	}
}

func TestEditDistance(t *testing.T) {
	long := strings.Repeat("a", 60)
	tests := []struct {
		name string
		a, b string
		max  int
		want int
	}{
		{"same", "select", "select", 2, 0},
		{"one substitution", "selekt", "select", 2, 1},
		{"one insertion", "selectt", "select", 2, 1},
		{"one deletion", "selct", "select", 2, 1},
		{"a swap costs one", "selcet", "select", 2, 1},
		{"two edits", "slecet", "select", 2, 2},
		{"over the cap", "order", "select", 2, 3},
		{"lengths too far apart", "se", "select", 2, 3},
		{"empty", "", "ab", 2, 2},
		{"longer than the stack rows", long + "b", long + "c", 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EditDistance(tt.a, tt.b, tt.max); got != tt.want {
				t.Errorf("EditDistance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.max, got, tt.want)
			}
		})
	}
}
