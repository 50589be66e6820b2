package catalog

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"talk2tables/catalog/internal/names"
)

// Version-1 resources as MCP servers serve them: a metadata server written
// to the original design serves product_aliases and column_mappings, each
// as its section's value or wrapped under its section's name (the whole
// product-metadata document). They are read leniently — a third party's
// server is not ours to reject — and turned into a partial semantic catalog
// that the schema completes.

// IsV1Resource reports whether obj is a version-1 resource: a product alias
// map, a column mapping, or an object holding either under its section name
// (and no "version").
func IsV1Resource(obj map[string]any) bool {
	if IsV1Products(obj) || IsV1Mappings(obj) {
		return true
	}
	if _, ok := obj["version"]; ok {
		return false
	}
	_, pa := obj["product_aliases"].(map[string]any)
	_, cm := obj["column_mappings"].(map[string]any)
	return pa || cm
}

// v1Sections returns the product aliases and column mappings obj holds.
func v1Sections(obj map[string]any) (aliases, mappings map[string]any) {
	switch {
	case IsV1Products(obj):
		return obj, nil
	case IsV1Mappings(obj):
		return nil, obj
	}
	aliases, _ = obj["product_aliases"].(map[string]any)
	mappings, _ = obj["column_mappings"].(map[string]any)
	return aliases, mappings
}

// FromV1Resources turns version-1 resources (see IsV1Resource; for each
// section the first resource holding it wins) into a partial semantic
// catalog: column words from user-friendly terms naming columns, "sales" and
// "revenue" for the one sales amount, date columns, table words, aggregation
// terms, date conditions as synonyms of the time phrases they mean, and the
// products as row entities keyed by their key reference. Kinds, roles and
// measure types are left empty for the schema to decide. Numbers stay as
// JSON decoding gives them (float64). Nil when objs hold neither section.
func FromV1Resources(objs []map[string]any) *Semantic {
	var aliases, mappings map[string]any
	for _, obj := range objs {
		a, m := v1Sections(obj)
		if aliases == nil {
			aliases = a
		}
		if mappings == nil {
			mappings = m
		}
	}
	if aliases == nil && mappings == nil {
		return nil
	}
	c := &servedV1{s: &Semantic{Version: FormatVersion, Tables: map[string]*Table{},
		Vocabulary: &Vocabulary{AggregationTerms: map[string]string{}, Synonyms: map[string]string{}}}}
	c.terms(mappings)
	c.tables(mappings)
	c.products(aliases)
	return c.s
}

type servedV1 struct{ s *Semantic }

func (c *servedV1) table(name string) *Table {
	t := c.s.Tables[name]
	if t == nil {
		t = &Table{Columns: map[string]*Column{}}
		c.s.Tables[name] = t
	}
	return t
}

func (c *servedV1) column(ref string) *Column {
	tn, cn, _ := strings.Cut(strings.TrimSpace(ref), ".")
	t := c.table(tn)
	col := t.Columns[cn]
	if col == nil {
		col = &Column{}
		t.Columns[cn] = col
	}
	return col
}

// terms: user-friendly terms become column words or (date conditions)
// synonyms; the sales amount gets "sales" and "revenue"; aggregation terms
// and date terms go to the vocabulary.
func (c *servedV1) terms(mappings map[string]any) {
	conds := map[string]string{}
	uf := stringMap(mappings["user_friendly_terms"])
	colTerms := map[string]string{}
	for term, v := range uf {
		if isColumnRef(v) {
			colTerms[term] = strings.TrimSpace(v)
		} else {
			conds[term] = v
		}
	}
	for _, term := range slices.Sorted(maps.Keys(colTerms)) {
		col := c.column(colTerms[term])
		col.Words = addWords(col.Words, term)
	}
	if ref := salesColumn(colTerms); ref != "" {
		col := c.column(ref)
		col.Words = addWords(col.Words, names.SalesWords()...)
	}
	for term, fn := range stringMap(mappings["aggregation_terms"]) {
		c.s.Vocabulary.AggregationTerms[normalize(term)] = strings.ToUpper(strings.TrimSpace(fn))
	}
	for term, v := range stringMap(mappings["date_terms"]) {
		conds[term] = v
	}
	for term, expr := range conds {
		if phrase, ok := datePhrase(expr); ok && normalize(term) != phrase {
			c.s.Vocabulary.Synonyms[normalize(term)] = phrase
		}
	}
}

// tables: date columns and table aliases.
func (c *servedV1) tables(mappings map[string]any) {
	for tn, col := range stringMap(mappings["date_columns"]) {
		c.table(tn).DateColumn = col
	}
	ta, _ := mappings["table_aliases"].(map[string]any)
	for _, tn := range slices.Sorted(maps.Keys(ta)) {
		words, _ := ta[tn].([]any)
		for _, w := range words {
			if s, ok := w.(string); ok {
				c.table(tn).Words = addWords(c.table(tn).Words, s)
			}
		}
	}
}

// products: each product is a row of the table its references name, keyed
// by its key reference (products.product_id, or the number or string equal
// to its canonical id, or its one number), named by its name reference, with
// its entry key and aliases as aliases.
func (c *servedV1) products(aliases map[string]any) {
	sets := map[string]*EntitySet{}
	for _, key := range slices.Sorted(maps.Keys(aliases)) {
		p, _ := aliases[key].(map[string]any)
		refs, _ := p["database_references"].(map[string]any)
		id, _ := p["canonical_id"].(string)
		name, _ := p["canonical_name"].(string)
		keyRef, nameRef := servedRowRefs(refs, id, name)
		if keyRef == "" {
			continue
		}
		table, keyCol, _ := strings.Cut(keyRef, ".")
		e := &Entity{Key: refs[keyRef], Name: name}
		if nameRef != "" {
			if n, ok := refs[nameRef].(string); ok && strings.TrimSpace(n) != "" {
				e.Name = n
			}
		}
		if strings.TrimSpace(e.Name) == "" {
			continue
		}
		set := sets[keyRef]
		if set == nil {
			set = &EntitySet{Table: table, Key: keyCol}
			if t, col, _ := strings.Cut(nameRef, "."); nameRef != "" && t == table {
				set.Columns = []string{col}
			}
			sets[keyRef] = set
			c.s.Entities = append(c.s.Entities, set)
		}
		e.Aliases = addWords(nil, key)
		list, _ := p["aliases"].([]any)
		for _, a := range list {
			if s, ok := a.(string); ok {
				e.Aliases = addWords(e.Aliases, s)
			}
		}
		set.Values = append(set.Values, e)
	}
}

// servedRowRefs is v1RowRefs for JSON as decoded into any (float64
// numbers), falling back to the product's only numeric reference.
func servedRowRefs(refs map[string]any, id, name string) (keyRef, nameRef string) {
	if _, ok := refs[RefProductID]; ok {
		keyRef = RefProductID
	}
	if _, ok := refs[RefProductName]; ok {
		nameRef = RefProductName
	}
	var numbers []string
	for _, k := range slices.Sorted(maps.Keys(refs)) {
		if !columnRef.MatchString(k) {
			continue
		}
		switch v := refs[k].(type) {
		case float64:
			numbers = append(numbers, k)
			if keyRef == "" && id != "" && strconv.FormatFloat(v, 'f', -1, 64) == id {
				keyRef = k
			}
		case string:
			switch {
			case keyRef == "" && id != "" && v == id && k != nameRef:
				keyRef = k
			case nameRef == "" && name != "" && v == name && k != keyRef:
				nameRef = k
			}
		}
	}
	if keyRef == "" && len(numbers) == 1 {
		keyRef = numbers[0]
	}
	if _, ok := refs[keyRef]; !ok || !columnRef.MatchString(keyRef) {
		return "", ""
	}
	return keyRef, nameRef
}

// stringMap keeps the string values of a JSON object.
func stringMap(v any) map[string]string {
	m, _ := v.(map[string]any)
	out := make(map[string]string, len(m))
	for k, x := range m {
		if s, ok := x.(string); ok && strings.TrimSpace(s) != "" {
			out[k] = s
		}
	}
	return out
}
