package catalog

import "talk2tables/schema"

// Recognising the resources of docs/contracts.md §1–§2 by shape, as JSON
// decodes them (map[string]any, []any, float64): the planner and the
// orchestrator read whatever a server serves, so they tell a schema from a
// semantic model, an entity list or a version-1 catalog by its keys.

// IsSchemaResource: a database schema, an object whose "tables" is an array
// of objects with "columns" (contracts §2; schema.IsResource).
func IsSchemaResource(obj map[string]any) bool { return schema.IsResource(obj) }

// IsSemanticResource: a semantic model, "version" 2 and a "tables" object
// (contracts §1).
func IsSemanticResource(obj map[string]any) bool {
	v, _ := obj["version"].(float64)
	_, ok := obj["tables"].(map[string]any)
	return v == FormatVersion && ok
}

// IsEntityListResource: an object with an "entities" array.
func IsEntityListResource(obj map[string]any) bool {
	_, ok := obj["entities"].([]any)
	return ok
}

// v1MappingKeys are the top-level keys of a version-1 column mapping.
var v1MappingKeys = []string{"user_friendly_terms", "aggregation_terms", "date_terms", "table_aliases"}

// IsV1Mappings: a version-1 column mapping, an object with one of its keys.
func IsV1Mappings(obj map[string]any) bool {
	for _, k := range v1MappingKeys {
		if _, ok := obj[k]; ok {
			return true
		}
	}
	return false
}

// IsV1Products: a version-1 product alias map, a non-empty object whose
// every value is an object with "aliases" and "database_references".
func IsV1Products(obj map[string]any) bool {
	if len(obj) == 0 {
		return false
	}
	for _, v := range obj {
		p, ok := v.(map[string]any)
		if !ok {
			return false
		}
		_, a := p["aliases"]
		_, r := p["database_references"]
		if !a || !r {
			return false
		}
	}
	return true
}
