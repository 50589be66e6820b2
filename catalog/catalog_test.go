package catalog_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"talk2tables/catalog"
)

const repoCatalog = "../testdata/product_metadata.json"

func TestLoadRepoCatalog(t *testing.T) {
	c, err := catalog.Load(repoCatalog)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if got := len(c.Products()); got < 40 {
		t.Errorf("products = %d, want >= 40", got)
	}
	if got := len(c.Categories()); got < 6 {
		t.Errorf("categories = %d (%v), want >= 6", got, c.Categories())
	}
	for _, p := range c.Products() {
		if n := len(p.Aliases); n < 2 || n > 5 {
			t.Errorf("%s: %d aliases, want 2..5", p.Key, n)
		}
		if price, ok := p.UnitPrice(); !ok || price <= 0 {
			t.Errorf("%s: unit price = %v, %v; want a positive price", p.Key, price, ok)
		}
	}
	required := []struct {
		id      int64
		name    string
		aliases []string
	}{
		{123, "Magic Wand Pro", []string{"abracadabra", "abra", "cadabra", "magic_wand"}},
		{456, "TechGadget", []string{"techgadget"}},
		{789, "SuperSonic Blaster", []string{"supersonic"}},
		{101, "Quantum Processor", []string{"quantum"}},
	}
	for _, r := range required {
		for _, a := range r.aliases {
			p, ok := c.Lookup(a)
			if !ok {
				t.Errorf("Lookup(%q) found nothing, want %d %q", a, r.id, r.name)
				continue
			}
			if p.ID() != r.id || p.CanonicalName != r.name {
				t.Errorf("Lookup(%q) = %d %q, want %d %q", a, p.ID(), p.CanonicalName, r.id, r.name)
			}
		}
	}
	for _, term := range []string{"this month", "last month", "this quarter", "last quarter", "this year",
		"last year", "today", "yesterday", "this week", "last week", "last 7 days", "last 30 days",
		"last 90 days", "year to date"} {
		if _, ok := c.ColumnMappings.DateTerms[term]; !ok {
			t.Errorf("date term %q missing", term)
		}
	}
}

func TestLookup(t *testing.T) {
	c, err := catalog.Load(repoCatalog)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		alias  string
		wantID int64
		wantOK bool
	}{
		{name: "key", alias: "abracadabra", wantID: 123, wantOK: true},
		{name: "upper case", alias: "ABRA", wantID: 123, wantOK: true},
		{name: "surrounding space", alias: "  Cadabra ", wantID: 123, wantOK: true},
		{name: "multi word", alias: "Supersonic Blaster", wantID: 789, wantOK: true},
		{name: "unknown", alias: "hocus pocus", wantOK: false},
		{name: "empty", alias: "", wantOK: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := c.Lookup(tt.alias)
			if ok != tt.wantOK || p.ID() != tt.wantID {
				t.Errorf("Lookup(%q) = %d, %v; want %d, %v", tt.alias, p.ID(), ok, tt.wantID, tt.wantOK)
			}
		})
	}
}

// good is a minimal valid catalog; bad cases edit it.
const good = `{
  "last_updated": "2026-11-01T00:00:00Z",
  "product_aliases": {
    "abracadabra": {"canonical_id": "123", "canonical_name": "Magic Wand Pro",
      "aliases": ["abracadabra", "abra"],
      "database_references": {"products.product_id": 123, "products.product_name": "Magic Wand Pro", "products.unit_price": 24.99},
      "categories": ["Entertainment", "Magic"]},
    "quantum": {"canonical_id": "101", "canonical_name": "Quantum Processor",
      "aliases": ["quantum", "qpu"],
      "database_references": {"products.product_id": 101, "products.product_name": "Quantum Processor"},
      "categories": ["Computing"]}
  },
  "column_mappings": {
    "user_friendly_terms": {"revenue": "sales.total_amount"},
    "aggregation_terms": {"total": "SUM"},
    "date_terms": {"this month": "{date_column} >= date('now', 'start of month')"},
    "date_columns": {"sales": "sale_date"},
    "table_aliases": {"sales": ["sale"]}
  }
}`

func TestParseGood(t *testing.T) {
	c, err := catalog.Parse("good.json", []byte(good))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if got, want := strings.Join(c.Categories(), ","), "Computing,Entertainment"; got != want {
		t.Errorf("Categories = %q, want %q", got, want)
	}
	if got, want := c.AliasCount(), 4; got != want {
		t.Errorf("AliasCount = %d, want %d", got, want)
	}
	p, _ := c.Lookup("qpu")
	if _, ok := p.UnitPrice(); ok {
		t.Errorf("quantum has a unit price, want none")
	}
}

func TestParseBad(t *testing.T) {
	tests := []struct {
		name string
		old  string // replaced in good by new
		new  string
		want []string // substrings of the error, all required
	}{
		{
			name: "missing canonical id",
			old:  `"canonical_id": "123", `, new: ``,
			want: []string{"bad.json: product_aliases.abracadabra.canonical_id: missing"},
		},
		{
			name: "alias shared by two products",
			old:  `["quantum", "qpu"]`, new: `["quantum", "qpu", "abra"]`,
			want: []string{`product_aliases.quantum.aliases[2]: alias "abra" is shared by product_aliases.abracadabra ("Magic Wand Pro", id 123) and product_aliases.quantum ("Quantum Processor", id 101)`},
		},
		{
			name: "unknown field",
			old:  `"categories": ["Computing"]`, new: `"categories": ["Computing"], "colour": "red"`,
			want: []string{"product_aliases.quantum.colour: unknown field"},
		},
		{
			name: "unknown top-level field",
			old:  `"last_updated"`, new: `"version": 2, "last_updated"`,
			want: []string{"bad.json: version: unknown field"},
		},
		{
			name: "canonical id is a number",
			old:  `"canonical_id": "101"`, new: `"canonical_id": 101`,
			want: []string{"product_aliases.quantum.canonical_id: must be a string, got a number"},
		},
		{
			name: "canonical id not numeric",
			old:  `"canonical_id": "101"`, new: `"canonical_id": "Q-101"`,
			want: []string{`product_aliases.quantum.canonical_id: must be a positive integer written as a string`},
		},
		{
			name: "reference id disagrees",
			old:  `"products.product_id": 101`, new: `"products.product_id": 102`,
			want: []string{`product_aliases.quantum.database_references.products.product_id: is 102 but canonical_id is "101"`},
		},
		{
			name: "reference name disagrees",
			old:  `"products.product_name": "Quantum Processor"`, new: `"products.product_name": "Quantum CPU"`,
			want: []string{`product_aliases.quantum.database_references.products.product_name: is "Quantum CPU" but canonical_name is "Quantum Processor"`},
		},
		{
			name: "reference missing",
			old:  `"products.product_id": 101, `, new: ``,
			want: []string{"product_aliases.quantum.database_references.products.product_id: missing"},
		},
		{
			name: "empty aliases",
			old:  `["quantum", "qpu"]`, new: `[]`,
			want: []string{"product_aliases.quantum.aliases: must not be empty"},
		},
		{
			name: "aliases not an array",
			old:  `["quantum", "qpu"]`, new: `"quantum"`,
			want: []string{"product_aliases.quantum.aliases: must be an array of strings, got a string"},
		},
		{
			name: "alias not lowercase and key missing",
			old:  `["quantum", "qpu"]`, new: `["QPU"]`,
			want: []string{`product_aliases.quantum.aliases[0]: alias "QPU" must be lowercase`, `product_aliases.quantum.aliases: must include the product's key "quantum"`},
		},
		{
			name: "alias listed twice",
			old:  `["quantum", "qpu"]`, new: `["quantum", "qpu", "qpu"]`,
			want: []string{`product_aliases.quantum.aliases[2]: alias "qpu" is listed twice`},
		},
		{
			name: "duplicate canonical id",
			old:  `"canonical_id": "101"`, new: `"canonical_id": "123"`,
			want: []string{"product_aliases.quantum.canonical_id: id 123 is also used by product_aliases.abracadabra"},
		},
		{
			name: "bad aggregate",
			old:  `"total": "SUM"`, new: `"total": "TOTAL"`,
			want: []string{`column_mappings.aggregation_terms.total: must be one of SUM, COUNT, AVG, MAX, MIN, got "TOTAL"`},
		},
		{
			name: "date term without placeholder",
			old:  `"{date_column} >= date('now', 'start of month')"`, new: `"sale_date >= date('now')"`,
			want: []string{"column_mappings.date_terms.this month: must use the {date_column} placeholder"},
		},
		{
			name: "term not a column",
			old:  `"revenue": "sales.total_amount"`, new: `"revenue": "total amount"`,
			want: []string{`column_mappings.user_friendly_terms.revenue: must name a column as table.column, got "total amount"`},
		},
		{
			name: "table aliases wrong type",
			old:  `"sales": ["sale"]`, new: `"sales": "sale"`,
			want: []string{"column_mappings.table_aliases.sales: must be an array of strings, got a string"},
		},
		{
			name: "bad last_updated",
			old:  `"2026-11-01T00:00:00Z"`, new: `"yesterday"`,
			want: []string{`last_updated: must be an RFC 3339 time`},
		},
		{
			name: "column mappings missing",
			old:  `"column_mappings"`, new: `"column_mappings_x"`,
			want: []string{"column_mappings: missing", "column_mappings_x: unknown field"},
		},
		{
			name: "syntax error",
			old:  `"categories": ["Computing"]`, new: `"categories": ["Computing",]`,
			want: []string{"bad.json: $: invalid JSON", "line 11"},
		},
		{
			name: "every problem reported",
			old:  `"canonical_id": "101", "canonical_name": "Quantum Processor"`, new: `"canonical_name": 7`,
			want: []string{"product_aliases.quantum.canonical_id: missing", "product_aliases.quantum.canonical_name: must be a string, got a number"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(good, tt.old) {
				t.Fatalf("test fixture: %q not found in good catalog", tt.old)
			}
			data := strings.Replace(good, tt.old, tt.new, 1)
			c, err := catalog.Parse("bad.json", []byte(data))
			if err == nil {
				t.Fatalf("Parse = %v, nil; want an error", c)
			}
			var ve *catalog.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error %T %v, want *catalog.ValidationError", err, err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error spans lines: %q", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error = %q\nwant it to contain %q", msg, w)
				}
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := catalog.Load(filepath.Join(t.TempDir(), "nope.json"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load(missing) = %v, want os.ErrNotExist", err)
	}
	if err != nil && !strings.Contains(err.Error(), "nope.json") {
		t.Errorf("error %q does not name the file", err)
	}
}
