package builtin

import (
	"encoding/json"
	"sort"

	"talk2tables/catalog"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/schema"
)

// sources is what the servers' resources hold, recognised by shape.
type sources struct {
	schema   *schema.Schema
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
					src.schema = s.TypedSchema() // the first that parses, parsed once where gathered
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
