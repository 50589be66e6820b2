package catalog

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ToV1 renders a version-2 catalog in the version-1 shape, for clients
// written to the original design (its product_aliases and column_mappings
// resources): every keyed entity (a row by key) becomes a product under its
// lowercase name, with its key as canonical id, its aliases, its key, name
// and other attributes as database references, and its category and tags as
// categories; every column word becomes a user-friendly term ("table.column",
// the first column having a word keeps it), derived measures' words terms of
// their SQL, table words table aliases, tables' main dates date columns, and
// the vocabulary's aggregation terms aggregation terms. Value entities
// ("Portugal" → customers.country) and synonyms have no version-1 form and
// are left out.
func ToV1(s *Semantic) *V1 {
	out := &V1{LastUpdated: s.LastUpdated, ProductAliases: map[string]V1Product{}}
	for _, set := range s.Entities {
		if set.Key == "" {
			continue
		}
		for _, e := range set.Values {
			key := normalize(e.Name)
			if _, taken := out.ProductAliases[key]; taken || key == "" {
				key = normalize(fmt.Sprintf("%s (%s %v)", e.Name, set.Table, e.Key))
			}
			out.ProductAliases[key] = v1Product(key, set, e)
		}
	}
	out.ColumnMappings = v1Mappings(s)
	return out
}

func v1Product(key string, set *EntitySet, e *Entity) V1Product {
	refs := map[string]json.RawMessage{}
	put := func(ref string, v any) {
		if b, err := json.Marshal(v); err == nil {
			refs[ref] = b
		}
	}
	put(set.Table+"."+set.Key, e.Key)
	if len(set.Columns) == 1 {
		put(set.Table+"."+set.Columns[0], e.Name)
	}
	var cats []string
	for _, name := range slices.Sorted(maps.Keys(e.Attributes)) {
		if name == "category" {
			if c, ok := e.Attributes[name].(string); ok {
				cats = append(cats, c)
			}
			continue
		}
		ref := name
		if !strings.Contains(ref, ".") {
			ref = set.Table + "." + name
		}
		put(ref, e.Attributes[name])
	}
	cats = append(cats, e.Tags...)
	return V1Product{Key: key, CanonicalID: fmt.Sprint(e.Key), CanonicalName: e.Name,
		Aliases: slices.Clone(e.Aliases), DatabaseReferences: refs, Categories: cats}
}

func v1Mappings(s *Semantic) V1Mappings {
	m := V1Mappings{UserFriendlyTerms: map[string]string{}, DateColumns: map[string]string{}, TableAliases: map[string][]string{}}
	for _, tn := range slices.Sorted(maps.Keys(s.Tables)) {
		t := s.Tables[tn]
		if t == nil {
			continue
		}
		if len(t.Words) > 0 {
			m.TableAliases[tn] = slices.Clone(t.Words)
		}
		if t.DateColumn != "" {
			m.DateColumns[tn] = t.DateColumn
		}
		for _, cn := range slices.Sorted(maps.Keys(t.Columns)) {
			if c := t.Columns[cn]; c != nil {
				for _, w := range c.Words {
					if _, taken := m.UserFriendlyTerms[w]; !taken {
						m.UserFriendlyTerms[w] = tn + "." + cn
					}
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Measures)) {
		d := s.Measures[name]
		if d == nil {
			continue
		}
		sql := measureSQL(d)
		for _, w := range append([]string{name}, d.Words...) {
			if _, taken := m.UserFriendlyTerms[normalize(w)]; !taken {
				m.UserFriendlyTerms[normalize(w)] = sql
			}
		}
	}
	if s.Vocabulary != nil && len(s.Vocabulary.AggregationTerms) > 0 {
		m.AggregationTerms = maps.Clone(s.Vocabulary.AggregationTerms)
	}
	return m
}

// measureSQL writes a derived measure as SQL over qualified columns:
// "SUM(sales.unit_price * sales.quantity)".
func measureSQL(d *Measure) string {
	expr := d.Formula
	if expr == "" {
		expr = strings.ToUpper(d.Aggregate) + "(" + d.Expression + ")"
	}
	return placeholder.ReplaceAllString(expr, d.Table+".$1")
}
