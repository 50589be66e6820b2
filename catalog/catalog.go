// Package catalog reads, validates, migrates and writes the semantic catalog
// (format version 2, see semantic.go): what each table and column of a
// database is called in business English, which numbers may be summed,
// which rows and values are named entities, and derived measures.
//
// Loading is strict: unknown keys, wrong JSON types, bad enum values and
// references to tables or columns the catalog does not declare are all
// reported at once, each with the file, the JSON path and what to do.
// Version-1 product catalogs (no "version" key; product_aliases and
// column_mappings) still load: they are validated as version 1 and converted
// in memory by Migrate.
package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Load reads and validates the catalog file at path (version 2, or version 1
// converted by Migrate). Problems are reported together in a
// *ValidationError naming path.
func Load(path string) (*Semantic, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read catalog: %w", err)
	}
	return Parse(path, data)
}

// Parse decodes and validates a catalog; name (usually the file name)
// prefixes every problem. A version-1 catalog is validated as such and
// converted with Migrate.
func Parse(name string, data []byte) (*Semantic, error) {
	doc, err := decodeTree(name, data)
	if err != nil {
		return nil, err
	}
	if isV1(doc) {
		old, err := parseV1Tree(name, data, doc)
		if err != nil {
			return nil, err
		}
		return Migrate(old, nil)
	}
	v := newV2Validator()
	v.document(doc)
	if len(v.problems) > 0 {
		return nil, &ValidationError{File: name, Problems: v.problems}
	}
	s, err := decodeSemantic(data)
	if err != nil {
		return nil, &ValidationError{File: name, Problems: []Problem{{Path: "$", Message: err.Error()}}}
	}
	return s, nil
}

// IsVersion1 reports whether data is a version-1 product catalog (an object
// with product_aliases or column_mappings and no version key).
func IsVersion1(data []byte) bool {
	doc, err := decodeTree("", data)
	return err == nil && isV1(doc)
}

func isV1(doc any) bool {
	m, ok := doc.(map[string]any)
	if !ok {
		return false
	}
	if _, ok := m["version"]; ok {
		return false
	}
	_, pa := m["product_aliases"]
	_, cm := m["column_mappings"]
	return pa || cm
}

// decodeSemantic decodes a validated version-2 document. Numbers in entity
// keys and attributes become int64 when written as integers, float64
// otherwise.
func decodeSemantic(data []byte) (*Semantic, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	var s Semantic
	if err := dec.Decode(&s); err != nil {
		return nil, err
	}
	for _, set := range s.Entities {
		for _, e := range set.Values {
			e.Key = plainNumbers(e.Key)
			for k, a := range e.Attributes {
				e.Attributes[k] = plainNumbers(a)
			}
		}
		for _, sn := range set.Shared {
			for i, k := range sn.Keys {
				sn.Keys[i] = plainNumbers(k)
			}
		}
	}
	return &s, nil
}

// plainNumbers replaces json.Number values (also inside arrays and objects)
// by int64 or float64.
func plainNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if !strings.ContainsAny(x.String(), ".eE") {
			if n, err := x.Int64(); err == nil {
				return n
			}
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = plainNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = plainNumbers(x[k])
		}
	}
	return v
}

// Validate checks an in-memory catalog with the rules Load applies to a
// file: it returns a *ValidationError (File "catalog") listing every problem,
// or nil.
func (s *Semantic) Validate() error {
	data, err := Marshal(s)
	if err != nil {
		return err
	}
	doc, err := decodeTree("catalog", data)
	if err != nil {
		return err
	}
	v := newV2Validator()
	v.document(doc)
	if len(v.problems) > 0 {
		return &ValidationError{File: "catalog", Problems: v.problems}
	}
	return nil
}

// Marshal renders a catalog as indented JSON with a final newline, keys in
// a stable order and no HTML escaping ("Home & Kitchen" stays readable).
func Marshal(s *Semantic) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("encode catalog: %w", err)
	}
	return buf.Bytes(), nil
}

// ValidationError lists every problem found in a catalog.
type ValidationError struct {
	File     string
	Problems []Problem
}

// Problem is one validation failure at a JSON path.
type Problem struct {
	Path    string // e.g. tables.sales.columns.unit_price.measure
	Message string // what is wrong and how to fix it
}

// Error returns every problem on one line, each naming the file and JSON path.
func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = fmt.Sprintf("%s: %s: %s", e.File, p.Path, p.Message)
	}
	return strings.Join(parts, "; ")
}
