package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// The version-1 product catalog (no "version" key) is the original design's
// product metadata: products keyed by their main alias, each with canonical
// id and name, aliases, database references and categories, plus column
// mappings from business words to table.column or to an SQL expression over
// a {date_column} placeholder. Both sections, and every section of the
// column mappings, are optional. It is read to be converted (Migrate); Load
// converts it on the fly.

// Reference keys every version-1 product carries in its database_references.
const (
	RefProductID   = "products.product_id"
	RefProductName = "products.product_name"
	// RefUnitPrice is optional: the product's list price.
	RefUnitPrice = "products.unit_price"
)

// DateColumnPlaceholder is replaced by a real column in version-1 date_terms
// and in expression user_friendly_terms.
const DateColumnPlaceholder = "{date_column}"

// V1 is a validated version-1 product catalog.
type V1 struct {
	LastUpdated    string               `json:"last_updated,omitempty"`
	ProductAliases map[string]V1Product `json:"product_aliases"`
	ColumnMappings V1Mappings           `json:"column_mappings"`
}

// V1Product is one version-1 catalog entry, stored under its primary alias (Key).
type V1Product struct {
	// Key is the entry's key in product_aliases (its primary alias); not part of the JSON value.
	Key string `json:"-"`
	// CanonicalID is any string ("PROD_123", "123"); the row's key is its
	// key reference (see EntityKey).
	CanonicalID        string                     `json:"canonical_id"`
	CanonicalName      string                     `json:"canonical_name"`
	Aliases            []string                   `json:"aliases,omitempty"`
	DatabaseReferences map[string]json.RawMessage `json:"database_references"`
	// Categories: the first is products.category in the database, the rest are tags.
	Categories []string `json:"categories,omitempty"`
}

// V1Mappings maps business vocabulary to SQL in a version-1 catalog.
type V1Mappings struct {
	// UserFriendlyTerms map a phrase to a column ("table.column") or to an
	// SQL expression, e.g. a date condition over {date_column}.
	UserFriendlyTerms map[string]string   `json:"user_friendly_terms,omitempty"`
	AggregationTerms  map[string]string   `json:"aggregation_terms,omitempty"`
	DateTerms         map[string]string   `json:"date_terms,omitempty"`
	DateColumns       map[string]string   `json:"date_columns,omitempty"`
	TableAliases      map[string][]string `json:"table_aliases,omitempty"`
}

// EntityKey returns the key of the product's row: the value of its key
// reference (see Row) as an int64 or a string, else canonical_id (an int64
// when it is an integer).
func (p V1Product) EntityKey() any {
	table, key, _ := p.Row()
	if raw, ok := p.DatabaseReferences[table+"."+key]; ok {
		if tree, err := decodeTree("", raw); err == nil {
			switch v := plainNumbers(tree).(type) {
			case int64, float64, string:
				return v
			}
		}
	}
	if id, err := strconv.ParseInt(p.CanonicalID, 10, 64); err == nil {
		return id
	}
	return p.CanonicalID
}

// Category returns the product's database category (categories[0]).
func (p V1Product) Category() string {
	if len(p.Categories) == 0 {
		return ""
	}
	return p.Categories[0]
}

// UnitPrice returns the list price from database_references["products.unit_price"],
// and false when the catalog gives none.
func (p V1Product) UnitPrice() (float64, bool) {
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

// Row returns the table, key column and name column of the product's row:
// from its key reference (products.product_id, or another column whose
// value is the canonical id) and its name reference (products.product_name,
// or another column holding the canonical name).
func (p V1Product) Row() (table, key, name string) {
	refs := make(map[string]any, len(p.DatabaseReferences))
	for k, raw := range p.DatabaseReferences {
		if tree, err := decodeTree("", raw); err == nil {
			refs[k] = tree
		}
	}
	keyRef, nameRef := v1RowRefs(refs, p.CanonicalID, p.CanonicalName)
	table, key, _ = strings.Cut(keyRef, ".")
	_, name, _ = strings.Cut(nameRef, ".")
	return table, key, name
}

// Products returns every product ordered by key (numbers first, then
// strings), then by its key in product_aliases.
func (c *V1) Products() []V1Product {
	out := make([]V1Product, 0, len(c.ProductAliases))
	for _, p := range c.ProductAliases {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if k := compareKeys(out[i].EntityKey(), out[j].EntityKey()); k != 0 {
			return k < 0
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// ParseV1 decodes and validates a version-1 catalog; name (usually the file
// name) prefixes every problem. Unknown fields, wrong types and inconsistent
// products are all reported at once in a *ValidationError.
func ParseV1(name string, data []byte) (*V1, error) {
	doc, err := decodeTree(name, data)
	if err != nil {
		return nil, err
	}
	return parseV1Tree(name, data, doc)
}

func parseV1Tree(name string, data []byte, doc any) (*V1, error) {
	v := &validator{}
	v.document(doc)
	if len(v.problems) > 0 {
		return nil, &ValidationError{File: name, Problems: v.problems}
	}
	// The tree is known good now; a strict typed decode cannot disagree with it.
	strict := json.NewDecoder(bytes.NewReader(data))
	strict.DisallowUnknownFields()
	var c V1
	if err := strict.Decode(&c); err != nil {
		return nil, &ValidationError{File: name, Problems: []Problem{{Path: "$", Message: err.Error()}}}
	}
	for key, p := range c.ProductAliases {
		p.Key = key
		c.ProductAliases[key] = p
	}
	return &c, nil
}

// decodeTree decodes data into a generic JSON tree (numbers as json.Number),
// reporting a syntax error with its line and column.
func decodeTree(name string, data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, &ValidationError{File: name, Problems: []Problem{{Path: "$", Message: "invalid JSON: " + jsonErrorDetail(data, err)}}}
	}
	if dec.More() {
		return nil, &ValidationError{File: name, Problems: []Problem{{Path: "$", Message: "unexpected data after the JSON object"}}}
	}
	return doc, nil
}

func normalize(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

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
