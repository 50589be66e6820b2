// Package catalog reads and validates the product catalog
// (testdata/product_metadata.json): products with their aliases and database
// references, and the column mappings that translate business words into
// table columns, aggregates and SQLite date expressions.
package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Reference keys every product carries in its database_references.
const (
	RefProductID   = "products.product_id"
	RefProductName = "products.product_name"
	// RefUnitPrice is optional: the product's list price, used by the data generator.
	RefUnitPrice = "products.unit_price"
)

// DateColumnPlaceholder is replaced by a real column in date_terms expressions.
const DateColumnPlaceholder = "{date_column}"

// Catalog is a validated product catalog.
type Catalog struct {
	LastUpdated    string             `json:"last_updated,omitempty"`
	ProductAliases map[string]Product `json:"product_aliases"`
	ColumnMappings ColumnMappings     `json:"column_mappings"`

	byAlias map[string]string // lowercase alias -> product key
}

// Product is one catalog entry, stored under its primary alias (Key).
type Product struct {
	// Key is the entry's key in product_aliases (its primary alias); not part of the JSON value.
	Key                string                     `json:"-"`
	CanonicalID        string                     `json:"canonical_id"`
	CanonicalName      string                     `json:"canonical_name"`
	Aliases            []string                   `json:"aliases"`
	DatabaseReferences map[string]json.RawMessage `json:"database_references"`
	// Categories: the first is products.category in the database, the rest are tags.
	Categories []string `json:"categories"`
}

// ColumnMappings maps business vocabulary to SQL.
type ColumnMappings struct {
	UserFriendlyTerms map[string]string   `json:"user_friendly_terms"`
	AggregationTerms  map[string]string   `json:"aggregation_terms"`
	DateTerms         map[string]string   `json:"date_terms"`
	DateColumns       map[string]string   `json:"date_columns,omitempty"`
	TableAliases      map[string][]string `json:"table_aliases"`
}

// ID returns the numeric product id (canonical_id, validated on load).
func (p Product) ID() int64 {
	id, _ := strconv.ParseInt(p.CanonicalID, 10, 64)
	return id
}

// Category returns the product's database category (categories[0]).
func (p Product) Category() string {
	if len(p.Categories) == 0 {
		return ""
	}
	return p.Categories[0]
}

// UnitPrice returns the list price from database_references["products.unit_price"],
// and false when the catalog gives none.
func (p Product) UnitPrice() (float64, bool) {
	raw, ok := p.DatabaseReferences[RefUnitPrice]
	if !ok {
		return 0, false
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, false
	}
	return f, true
}

// Load reads and validates the catalog file at path. Problems are reported
// together in a *ValidationError naming path.
func Load(path string) (*Catalog, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read catalog: %w", err)
	}
	return Parse(path, data)
}

// Parse decodes and validates a catalog; name (usually the file name) prefixes
// every problem. Unknown fields, wrong types and inconsistent products are
// all reported at once in a *ValidationError.
func Parse(name string, data []byte) (*Catalog, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, &ValidationError{File: name, Problems: []Problem{{Path: "$", Message: "invalid JSON: " + jsonErrorDetail(data, err)}}}
	}
	if dec.More() {
		return nil, &ValidationError{File: name, Problems: []Problem{{Path: "$", Message: "unexpected data after the JSON object"}}}
	}
	v := &validator{}
	v.document(doc)
	if len(v.problems) > 0 {
		return nil, &ValidationError{File: name, Problems: v.problems}
	}
	// The tree is known good now; a strict typed decode cannot disagree with it.
	strict := json.NewDecoder(bytes.NewReader(data))
	strict.DisallowUnknownFields()
	var c Catalog
	if err := strict.Decode(&c); err != nil {
		return nil, &ValidationError{File: name, Problems: []Problem{{Path: "$", Message: err.Error()}}}
	}
	c.index()
	return &c, nil
}

func (c *Catalog) index() {
	c.byAlias = make(map[string]string)
	for key, p := range c.ProductAliases {
		p.Key = key
		c.ProductAliases[key] = p
		c.byAlias[normalize(key)] = key
		for _, a := range p.Aliases {
			c.byAlias[normalize(a)] = key
		}
	}
}

func normalize(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Lookup finds the product an alias names, ignoring case and surrounding
// space ("Abra" and "abracadabra" both find Magic Wand Pro).
func (c *Catalog) Lookup(alias string) (Product, bool) {
	key, ok := c.byAlias[normalize(alias)]
	if !ok {
		return Product{}, false
	}
	return c.ProductAliases[key], true
}

// Products returns every product ordered by numeric id.
func (c *Catalog) Products() []Product {
	out := make([]Product, 0, len(c.ProductAliases))
	for _, p := range c.ProductAliases {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID() < out[j].ID() })
	return out
}

// Categories returns the distinct database categories (categories[0] of each
// product), sorted.
func (c *Catalog) Categories() []string {
	var out []string
	for _, p := range c.ProductAliases {
		if cat := p.Category(); cat != "" && !slices.Contains(out, cat) {
			out = append(out, cat)
		}
	}
	sort.Strings(out)
	return out
}

// AliasCount returns the number of distinct aliases across all products.
func (c *Catalog) AliasCount() int { return len(c.byAlias) }

// ValidationError lists every problem found in a catalog.
type ValidationError struct {
	File     string
	Problems []Problem
}

// Problem is one validation failure at a JSON path.
type Problem struct {
	Path    string // e.g. product_aliases.abra.canonical_id
	Message string // e.g. missing
}

// Error returns every problem on one line, each naming the file and JSON path.
func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = fmt.Sprintf("%s: %s: %s", e.File, p.Path, p.Message)
	}
	return strings.Join(parts, "; ")
}

// jsonErrorDetail adds a line:column position to a decoding error.
func jsonErrorDetail(data []byte, err error) string {
	var off int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
	}
	if off < 0 {
		return err.Error()
	}
	line, col := 1, 1
	for _, b := range data[:min(int(off), len(data))] {
		if b == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("%v (line %d, column %d)", err, line, col)
}
