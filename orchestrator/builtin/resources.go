package builtin

import (
	"encoding/json"
	"sort"

	"talk2tables/catalog"
	"talk2tables/orchestrator/sqlgen"
)

// schemaDoc is the database schema resource (docs/contracts.md §2).
type schemaDoc struct {
	Dialect  string        `json:"dialect"`
	Today    string        `json:"today"`
	Database string        `json:"database"`
	Tables   []schemaTable `json:"tables"`
}

type schemaTable struct {
	Name        string         `json:"name"`
	Schema      string         `json:"schema"`
	Kind        string         `json:"kind"`
	RowCount    *int64         `json:"row_count"`
	Columns     []schemaColumn `json:"columns"`
	ForeignKeys []schemaFK     `json:"foreign_keys"`
}

type schemaColumn struct {
	Name           string `json:"name"`
	Type           string `json:"type"`
	Nullable       bool   `json:"nullable"`
	PrimaryKey     bool   `json:"primary_key"`
	DistinctValues []any  `json:"distinct_values"`
}

type schemaFK struct {
	Column           string `json:"column"`
	ReferencesTable  string `json:"references_table"`
	ReferencesColumn string `json:"references_column"`
}

// sources is what the servers' resources hold, recognised by shape.
type sources struct {
	schema   *schemaDoc
	semantic *catalog.Semantic // the first semantic model, with every entity list merged in
	v1       *catalog.Semantic // a version-1 catalog converted in memory
}

// gather reads the servers' resources in priority order: the first schema
// and the first semantic model win; entity lists of every server are kept.
func gather(servers []sqlgen.ServerContext) sources {
	var src sources
	var entities []*catalog.EntitySet
	var v1 []map[string]any
	for _, s := range servers {
		uris := make([]string, 0, len(s.Resources))
		for u := range s.Resources {
			uris = append(uris, u)
		}
		sort.Strings(uris)
		for _, u := range uris {
			obj, ok := s.Resources[u].(map[string]any)
			if !ok {
				continue
			}
			switch {
			case catalog.IsSchemaResource(obj):
				if src.schema == nil {
					var d schemaDoc
					if remarshal(obj, &d) == nil && len(d.Tables) > 0 {
						src.schema = &d
					}
				}
			case catalog.IsSemanticResource(obj):
				var sem catalog.Semantic
				if remarshal(obj, &sem) != nil {
					continue
				}
				entities = append(entities, sem.Entities...)
				sem.Entities = nil
				if src.semantic == nil {
					src.semantic = &sem
				}
			case catalog.IsEntityListResource(obj):
				var el struct {
					Entities []*catalog.EntitySet `json:"entities"`
				}
				if remarshal(obj, &el) == nil {
					entities = append(entities, el.Entities...)
				}
			case catalog.IsV1Resource(obj):
				v1 = append(v1, obj)
			}
		}
	}
	if src.semantic == nil && len(entities) > 0 {
		src.semantic = &catalog.Semantic{Version: catalog.FormatVersion}
	}
	if src.semantic != nil {
		src.semantic.Entities = entities
	}
	if src.semantic == nil {
		src.v1 = catalog.FromV1Resources(v1)
	}
	return src
}

func remarshal(v any, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
