package catalog_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"talk2tables/catalog"
)

const v1Fixture = "testdata/product_metadata_v1.json"

// TestLoadV1Fixture loads the version-1 sample catalog: it is validated as
// version 1 and converted, keeping every product, alias, price and category.
func TestLoadV1Fixture(t *testing.T) {
	data, err := os.ReadFile(v1Fixture)
	if err != nil {
		t.Fatal(err)
	}
	if !catalog.IsVersion1(data) {
		t.Fatalf("IsVersion1(%s) = false", v1Fixture)
	}
	old, err := catalog.ParseV1(v1Fixture, data)
	if err != nil {
		t.Fatalf("ParseV1: %v", err)
	}
	s, err := catalog.Load(v1Fixture)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(s.Entities) != 1 {
		t.Fatalf("entity sets = %d, want 1 (the products)", len(s.Entities))
	}
	set := s.Entities[0]
	if set.Table != "products" || set.Key != "product_id" || len(set.Values) != len(old.ProductAliases) {
		t.Fatalf("entity set %s.%s with %d values, want products.product_id with %d", set.Table, set.Key, len(set.Values), len(old.ProductAliases))
	}
	for _, p := range old.Products() {
		var e *catalog.Entity
		for _, v := range set.Values {
			if v.Key == p.EntityKey() {
				e = v
			}
		}
		if e == nil {
			t.Errorf("product %v %q has no entity", p.EntityKey(), p.CanonicalName)
			continue
		}
		price, _ := p.UnitPrice()
		if e.Name != p.CanonicalName || e.Attributes["category"] != p.Category() || e.Attributes["unit_price"] != price {
			t.Errorf("entity %v = %q %v, want %q category %q price %v", e.Key, e.Name, e.Attributes, p.CanonicalName, p.Category(), price)
		}
		for _, a := range p.Aliases {
			if !slices.Contains(e.Aliases, a) {
				t.Errorf("entity %q lacks alias %q", e.Name, a)
			}
		}
		if !slices.Equal(e.Tags, p.Categories[1:]) {
			t.Errorf("entity %q tags = %v, want %v", e.Name, e.Tags, p.Categories[1:])
		}
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

func TestParseV1Good(t *testing.T) {
	c, err := catalog.ParseV1("good.json", []byte(good))
	if err != nil {
		t.Fatalf("ParseV1: %v", err)
	}
	ps := c.Products()
	if len(ps) != 2 || ps[0].EntityKey() != int64(101) || ps[1].Key != "abracadabra" || ps[1].Category() != "Entertainment" {
		t.Errorf("products = %+v, want quantum (101) then abracadabra (Entertainment)", ps)
	}
	if _, ok := ps[0].UnitPrice(); ok {
		t.Errorf("quantum has a unit price, want none")
	}
	// Parse converts it: both products become entities, the date term is dropped.
	s, err := catalog.Parse("good.json", []byte(good))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if len(s.Entities) != 1 || len(s.Entities[0].Values) != 2 || s.Tables["sales"].DateColumn != "sale_date" {
		t.Errorf("converted = %+v, want 2 product entities and the sales date column", s)
	}
}

func TestParseV1Bad(t *testing.T) {
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
			old:  `"last_updated"`, new: `"revision": 2, "last_updated"`,
			want: []string{"bad.json: revision: unknown field"},
		},
		{
			name: "canonical id is a number",
			old:  `"canonical_id": "101"`, new: `"canonical_id": 101`,
			want: []string{"product_aliases.quantum.canonical_id: must be a string, got a number"},
		},
		{
			name: "canonical id a code, and no key reference",
			old:  "\"101\", \"canonical_name\": \"Quantum Processor\",\n      \"aliases\": [\"quantum\", \"qpu\"],\n      \"database_references\": {\"products.product_id\": 101, ",
			new:  "\"Q-101\", \"canonical_name\": \"Quantum Processor\",\n      \"aliases\": [\"quantum\", \"qpu\"],\n      \"database_references\": {",
			want: []string{`product_aliases.quantum.database_references.products.product_id: missing: add the product's row key as "table.column": value`, `canonical_id "Q-101" is not a key the database has`},
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
			want: []string{`product_aliases.quantum.database_references.products.product_id: missing: add the product's key column as "table.column": 101`},
		},
		{
			name: "aliases not an array",
			old:  `["quantum", "qpu"]`, new: `"quantum"`,
			want: []string{"product_aliases.quantum.aliases: must be an array of strings, got a string"},
		},
		{
			name: "alias listed twice",
			old:  `["quantum", "qpu"]`, new: `["quantum", "qpu", "QPU"]`,
			want: []string{`product_aliases.quantum.aliases[2]: alias "QPU" is listed twice`},
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
			want: []string{`column_mappings.user_friendly_terms.revenue: must name a column as table.column, or be an SQL expression (e.g. a date condition over {date_column}), got "total amount"`},
		},
		{
			name: "expression with an unknown placeholder",
			old:  `"revenue": "sales.total_amount"`, new: `"revenue": "SUM({amount})"`,
			want: []string{`column_mappings.user_friendly_terms.revenue: unknown placeholder {amount}: the only placeholder is {date_column}`},
		},
		{
			name: "expression with unbalanced parentheses",
			old:  `"revenue": "sales.total_amount"`, new: `"this month": "DATE_TRUNC('month', {date_column} = DATE_TRUNC('month', CURRENT_DATE)"`,
			want: []string{`column_mappings.user_friendly_terms.this month: has unbalanced parentheses`},
		},
		{
			name: "expression with two statements",
			old:  `"revenue": "sales.total_amount"`, new: `"today": "{date_column} = CURRENT_DATE; DROP TABLE sales"`,
			want: []string{`column_mappings.user_friendly_terms.today: must be a single SQL expression (no ';')`},
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
			name: "column mappings misspelled",
			old:  `"column_mappings"`, new: `"column_mappings_x"`,
			want: []string{"column_mappings_x: unknown field (allowed: last_updated, product_aliases, column_mappings)"},
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
			c, err := catalog.ParseV1("bad.json", []byte(data))
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

// TestParseV1AsTheSeedWrites: what the original design's product metadata
// allows loads — a code as canonical id, aliases without the entry's key or
// in capitals, no aliases or categories, and only some sections.
func TestParseV1AsTheSeedWrites(t *testing.T) {
	tests := []struct{ name, doc string }{
		{"code as canonical id", `{"product_aliases": {"wand": {"canonical_id": "PROD_7", "canonical_name": "Wand",
			"aliases": ["Magic Wand"], "database_references": {"products.product_id": 7, "products.product_name": "Wand"}}}}`},
		{"string key reference", `{"product_aliases": {"wand": {"canonical_id": "W-7", "canonical_name": "Wand",
			"database_references": {"items.sku": "W-7", "items.title": "Wand"}, "categories": []}}}`},
		{"mappings only, one section", `{"column_mappings": {"user_friendly_terms": {"sales amount": "sales.total_amount"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := catalog.ParseV1("seed.json", []byte(tt.doc)); err != nil {
				t.Fatalf("ParseV1: %v", err)
			}
			if _, err := catalog.Parse("seed.json", []byte(tt.doc)); err != nil {
				t.Fatalf("Parse: %v", err)
			}
		})
	}
	_, err := catalog.ParseV1("empty.json", []byte(`{"last_updated": "2026-11-01T00:00:00Z"}`))
	if err == nil || !strings.Contains(err.Error(), "empty.json: $: a version-1 catalog has product_aliases, column_mappings or both") {
		t.Errorf("ParseV1(no section) = %v, want an error saying a section is needed", err)
	}
	_, err = catalog.Parse("empty.json", []byte(`{"product_aliases": {}, "column_mappings": {"aggregation_terms": {"total": "SUM"}}}`))
	if err == nil || !strings.Contains(err.Error(), "empty.json: $: names no table") {
		t.Errorf("Parse(no table) = %v, want an error saying no table is named", err)
	}
}

// TestSeedProductMetadata: the original design's example product metadata,
// as written there, loads and means what the design says: "abracadabra" is
// product 123, "sales amount" (and so "sales") is sales.total_amount.
func TestSeedProductMetadata(t *testing.T) {
	path := filepath.Join("..", "testdata", "seed", "product_metadata.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	old, err := catalog.ParseV1(path, data)
	if err != nil {
		t.Fatalf("ParseV1: %v", err)
	}
	if p := old.ProductAliases["abracadabra"]; p.CanonicalID != "PROD_123" || p.EntityKey() != int64(123) {
		t.Errorf("abracadabra = %q key %v, want PROD_123 key 123", p.CanonicalID, p.EntityKey())
	}
	s, err := catalog.Parse(path, data)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if len(s.Entities) != 1 || len(s.Entities[0].Values) != 1 {
		t.Fatalf("entities = %+v, want the one product", s.Entities)
	}
	e := s.Entities[0].Values[0]
	if s.Entities[0].Table != "products" || s.Entities[0].Key != "product_id" || e.Key != int64(123) || e.Name != "Magic Wand Pro" {
		t.Errorf("entity = %s.%s %v %q, want products.product_id 123 Magic Wand Pro", s.Entities[0].Table, s.Entities[0].Key, e.Key, e.Name)
	}
	for _, a := range []string{"abracadabra", "abra", "cadabra", "magic_wand"} {
		if !slices.Contains(e.Aliases, a) {
			t.Errorf("aliases %v lack %q", e.Aliases, a)
		}
	}
	words := s.Tables["sales"].Columns["total_amount"].Words
	for _, w := range []string{"sales amount", "sales", "revenue"} {
		if !slices.Contains(words, w) {
			t.Errorf("sales.total_amount words %v lack %q", words, w)
		}
	}
}
