package builtin

import (
	"fmt"
	"strings"
)

// This file reads the version-2 semantic catalog that metadata-mcp serves
// (docs/contracts.md §1: metadata://semantic_model and metadata://entities,
// recognised by shape) into the term and alias shapes compile already
// understands: column words become terms, table words table aliases, each
// table's date column its date column, the vocabulary's aggregation terms
// aggregation terms, and keyed entity sets alias entries with their key and
// name references. It bridges the catalog switch until the planner reads
// version 2 natively; it adds no knowledge of its own.

// isSemanticModel reports a version-2 semantic model: "version": 2 and a
// tables object.
func isSemanticModel(obj map[string]any) bool {
	_, tables := obj["tables"].(map[string]any)
	return num(obj["version"]) == 2 && tables
}

// isSemanticEntities reports a version-2 entity list.
func isSemanticEntities(obj map[string]any) bool {
	_, ents := obj["entities"].([]any)
	_, tables := obj["tables"]
	return ents && !tables
}

// semanticMappings turns a semantic model into column mappings.
func semanticMappings(obj map[string]any) map[string]any {
	terms := map[string]any{}
	tableAliases := map[string]any{}
	dateColumns := map[string]any{}
	tables, _ := obj["tables"].(map[string]any)
	for _, tn := range sortedKeys(tables) {
		t, _ := tables[tn].(map[string]any)
		if words := strs(t["words"]); len(words) > 0 {
			aliases := make([]any, len(words))
			for i, w := range words {
				aliases[i] = w
			}
			tableAliases[tn] = aliases
		}
		if dc := str(t["date_column"]); dc != "" {
			dateColumns[tn] = dc
		}
		cols, _ := t["columns"].(map[string]any)
		for _, cn := range sortedKeys(cols) {
			c, _ := cols[cn].(map[string]any)
			for _, w := range strs(c["words"]) {
				if _, taken := terms[w]; !taken {
					terms[w] = tn + "." + cn
				}
			}
		}
	}
	out := map[string]any{"user_friendly_terms": terms, "table_aliases": tableAliases, "date_columns": dateColumns}
	if voc, ok := obj["vocabulary"].(map[string]any); ok {
		if agg, ok := voc["aggregation_terms"].(map[string]any); ok {
			out["aggregation_terms"] = agg
		}
	}
	return out
}

// semanticEntities turns keyed entity sets into alias entries keyed by
// their first alias (or lowercase name).
func semanticEntities(obj map[string]any) map[string]any {
	out := map[string]any{}
	sets, _ := obj["entities"].([]any)
	for _, sv := range sets {
		set, _ := sv.(map[string]any)
		table, key := str(set["table"]), str(set["key"])
		cols := strs(set["columns"])
		if key == "" || table == "" {
			continue // value sets: the schema lists low-cardinality values itself
		}
		vals, _ := set["values"].([]any)
		for _, vv := range vals {
			v, _ := vv.(map[string]any)
			name := str(v["name"])
			kv := v["key"]
			if name == "" || kv == nil {
				continue
			}
			refs := map[string]any{table + "." + key: kv}
			if len(cols) == 1 {
				refs[table+"."+cols[0]] = name
			}
			// The first alias is the entry's main phrase, as a version-1
			// catalog's key was; else the name.
			more := strs(v["aliases"])
			id := strings.ToLower(name)
			if len(more) > 0 {
				id = strings.ToLower(more[0])
			}
			if _, dup := out[id]; dup {
				id = fmt.Sprintf("%s (%v)", id, kv)
			}
			aliases := []any{id, strings.ToLower(name)}
			for _, a := range more {
				aliases = append(aliases, a)
			}
			out[id] = map[string]any{"canonical_name": name, "aliases": aliases, "database_references": refs}
		}
	}
	return out
}

// strs reads an array of strings.
func strs(v any) []string {
	arr, _ := v.([]any)
	var out []string
	for _, x := range arr {
		if s := str(x); s != "" {
			out = append(out, s)
		}
	}
	return out
}
