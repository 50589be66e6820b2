package names

import (
	"strings"
	"testing"
)

// words splits a phrase the way catalog.IdentifierWords would.
func words(s string) []string { return strings.Fields(s) }

func TestIdentifier(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"customer id", true}, {"id", true}, {"country code", true}, {"sku", true}, {"postal code", true},
		{"zip", true}, {"phone", true}, {"order key", true}, {"isbn", true},
		{"quantity", false}, {"unit price", false}, {"name", false}, {"idea", false}, {"paid", false},
	}
	for _, tt := range tests {
		if got, _ := Identifier(words(tt.in)); got != tt.want {
			t.Errorf("Identifier(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestNumberLike(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"invoice no", true}, {"order number", true}, {"ticket num", true},
		{"number", false}, {"number of seats", false}, {"quantity", false},
	}
	for _, tt := range tests {
		if got := NumberLike(words(tt.in)); got != tt.want {
			t.Errorf("NumberLike(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestLabelNames(t *testing.T) {
	tests := []struct {
		in                 string
		label, first, last bool
	}{
		{"name", true, false, false},
		{"product name", true, false, false},
		{"title", true, false, false},
		{"company name", true, false, false},
		{"full name", true, false, false},
		{"first name", false, true, false},
		{"firstname", false, true, false},
		{"given name", false, true, false},
		{"last name", false, false, true},
		{"surname", false, false, true},
		{"family name", false, false, true},
		{"file name", false, false, false},
		{"host name", false, false, false},
		{"description", false, false, false},
		{"kiosk nm", true, false, false},
		{"bay lbl", true, false, false},
		{"sensor serial", true, false, false},
		{"first nm", false, true, false},
		{"fname", false, true, false},
		{"last nm", false, false, true},
		{"lname", false, false, true},
	}
	for _, tt := range tests {
		w := words(tt.in)
		if got := Label(w); got != tt.label {
			t.Errorf("Label(%q) = %v, want %v", tt.in, got, tt.label)
		}
		if got := GivenName(w); got != tt.first {
			t.Errorf("GivenName(%q) = %v, want %v", tt.in, got, tt.first)
		}
		if got := FamilyName(w); got != tt.last {
			t.Errorf("FamilyName(%q) = %v, want %v", tt.in, got, tt.last)
		}
	}
}

func TestText(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"email", true}, {"billing address", true}, {"home page url", true}, {"description", true}, {"notes", true},
		{"fax", true}, {"phone", true}, {"country", false}, {"status", false}, {"address id", true},
	}
	for _, tt := range tests {
		if got, _ := Text(words(tt.in)); got != tt.want {
			t.Errorf("Text(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestDates(t *testing.T) {
	tests := []struct {
		in                          string
		like, year, primary, second bool
	}{
		{"invoice date", true, false, true, false},
		{"created at", true, false, true, false},
		{"updated on", true, false, false, true},
		{"ship date", true, false, false, true},
		{"required date", true, false, false, true},
		{"birth date", true, false, false, true},
		{"hire date", true, false, false, true},
		{"order date", true, false, true, false},
		{"event ts", true, false, true, false},
		{"timestamp", true, false, false, false},
		{"release year", false, true, false, false},
		{"lifetime", false, false, false, false},
		{"category", false, false, false, false},
	}
	for _, tt := range tests {
		w := words(tt.in)
		if DateLike(w) != tt.like || Year(w) != tt.year || PrimaryDate(w) != tt.primary || SecondaryDate(w) != tt.second {
			t.Errorf("%q: DateLike %v Year %v Primary %v Secondary %v, want %v %v %v %v", tt.in,
				DateLike(w), Year(w), PrimaryDate(w), SecondaryDate(w), tt.like, tt.year, tt.primary, tt.second)
		}
	}
}

func TestFlagLike(t *testing.T) {
	for _, in := range []string{"is active", "has children", "discontinued", "deleted", "enabled"} {
		if !FlagLike(words(in)) {
			t.Errorf("FlagLike(%q) = false", in)
		}
	}
	for _, in := range []string{"quantity", "status", "name"} {
		if FlagLike(words(in)) {
			t.Errorf("FlagLike(%q) = true", in)
		}
	}
}

func TestNamedMeasure(t *testing.T) {
	tests := []struct {
		in    string
		fact  bool
		typ   string
		unit  string
		known bool
	}{
		{"unit price", false, "non_additive", "money", true},
		{"price", false, "non_additive", "money", true},
		{"list price", false, "non_additive", "money", true},
		{"total", false, "additive", "money", true},
		{"total amount", false, "additive", "money", true},
		{"total items", false, "additive", "quantity", true},
		{"total weight kg", false, "additive", "weight", true},
		{"total fees", false, "additive", "money", true},
		{"grand total", false, "additive", "money", true},
		{"total score", false, "additive", "", true},
		{"amount", false, "additive", "money", true},
		{"revenue", false, "additive", "money", true},
		{"freight", false, "additive", "money", true},
		{"tax", false, "additive", "money", true},
		{"salary", false, "additive", "money", true},
		{"balance", false, "non_additive", "money", true},
		{"cost", true, "additive", "money", true},
		{"standard cost", false, "non_additive", "money", true},
		{"unit cost", true, "non_additive", "money", true},
		{"quantity", false, "additive", "quantity", true},
		{"qty", false, "additive", "quantity", true},
		{"units in stock", false, "additive", "quantity", true},
		{"bytes", false, "additive", "size", true},
		{"page views", false, "additive", "count", true},
		{"discount", false, "non_additive", "rate", true},
		{"tax rate", false, "non_additive", "rate", true},
		{"discount pct", false, "non_additive", "percent", true},
		{"margin", false, "non_additive", "rate", true},
		{"average price", false, "non_additive", "money", true},
		{"milliseconds", false, "non_additive", "duration", true},
		{"duration", false, "non_additive", "duration", true},
		{"age", false, "non_additive", "age", true},
		{"rating", false, "non_additive", "score", true},
		{"latitude", false, "non_additive", "coordinate", true},
		{"temperature", false, "non_additive", "temperature", true},
		{"year", false, "non_additive", "year", true},
		{"reports to", false, "non_additive", "", false},
		{"foo", false, "non_additive", "", false},
	}
	for _, tt := range tests {
		g := NamedMeasure(words(tt.in), tt.fact)
		if g.Type != tt.typ || g.Unit != tt.unit || g.Known != tt.known || g.Why == "" {
			t.Errorf("NamedMeasure(%q, fact %v) = %+v, want %s %s known=%v with a why", tt.in, tt.fact, g, tt.typ, tt.unit, tt.known)
		}
	}
}
