package builtin

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

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
	var v1Aliases, v1Mappings map[string]any
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
			case catalog.IsV1Mappings(obj):
				if v1Mappings == nil {
					v1Mappings = obj
				}
			case catalog.IsV1Products(obj):
				if v1Aliases == nil {
					v1Aliases = obj
				}
			}
		}
	}
	if src.semantic == nil && len(entities) > 0 {
		src.semantic = &catalog.Semantic{Version: catalog.FormatVersion}
	}
	if src.semantic != nil {
		src.semantic.Entities = entities
	}
	if src.semantic == nil && (v1Mappings != nil || v1Aliases != nil) {
		src.v1 = convertV1(v1Aliases, v1Mappings)
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

// convertV1 turns a version-1 product catalog (product aliases and column
// mappings, as metadata servers of the first format serve them) into a
// partial semantic catalog: words for columns and tables, date columns,
// aggregation terms and product entities. Kinds and measure types are left
// for the schema inference.
func convertV1(aliases, mappings map[string]any) *catalog.Semantic {
	sem := &catalog.Semantic{Version: catalog.FormatVersion, Tables: map[string]*catalog.Table{},
		Vocabulary: &catalog.Vocabulary{AggregationTerms: map[string]string{}}}
	v1Terms(sem, mappings)
	v1Tables(sem, mappings)
	v1Products(sem, aliases)
	return sem
}

func v1Table(sem *catalog.Semantic, name string) *catalog.Table {
	t := sem.Tables[name]
	if t == nil {
		t = &catalog.Table{Columns: map[string]*catalog.Column{}}
		sem.Tables[name] = t
	}
	return t
}

// v1Terms: user-friendly terms become column words; aggregation terms the
// vocabulary's.
func v1Terms(sem *catalog.Semantic, mappings map[string]any) {
	if uf, ok := mappings["user_friendly_terms"].(map[string]any); ok {
		for _, term := range sortedKeys(uf) {
			tn, cn, ok := strings.Cut(str(uf[term]), ".")
			if !ok {
				continue
			}
			t := v1Table(sem, tn)
			c := t.Columns[cn]
			if c == nil {
				c = &catalog.Column{}
				t.Columns[cn] = c
			}
			c.Words = append(c.Words, strings.ToLower(term))
		}
	}
	if ag, ok := mappings["aggregation_terms"].(map[string]any); ok {
		for _, term := range sortedKeys(ag) {
			sem.Vocabulary.AggregationTerms[strings.ToLower(term)] = strings.ToUpper(str(ag[term]))
		}
	}
}

// v1Tables: date columns and table aliases.
func v1Tables(sem *catalog.Semantic, mappings map[string]any) {
	if dc, ok := mappings["date_columns"].(map[string]any); ok {
		for _, tn := range sortedKeys(dc) {
			v1Table(sem, tn).DateColumn = str(dc[tn])
		}
	}
	if ta, ok := mappings["table_aliases"].(map[string]any); ok {
		for _, tn := range sortedKeys(ta) {
			words, _ := ta[tn].([]any)
			for _, w := range words {
				v1Table(sem, tn).Words = append(v1Table(sem, tn).Words, strings.ToLower(str(w)))
			}
		}
	}
}

// v1Products: each product is a row entity keyed by its numeric database
// reference, named by its text one, with its aliases.
func v1Products(sem *catalog.Semantic, aliases map[string]any) {
	sets := map[string]*catalog.EntitySet{}
	for _, key := range sortedKeys(aliases) {
		p, _ := aliases[key].(map[string]any)
		refs, _ := p["database_references"].(map[string]any)
		e := &catalog.Entity{Name: str(p["canonical_name"])}
		var set *catalog.EntitySet
		for _, ref := range sortedKeys(refs) {
			tn, cn, ok := strings.Cut(ref, ".")
			if !ok {
				continue
			}
			if set = sets[tn]; set == nil {
				set = &catalog.EntitySet{Table: tn}
				sets[tn] = set
				sem.Entities = append(sem.Entities, set)
			}
			switch v := refs[ref].(type) {
			case float64:
				if set.Key == "" || set.Key == cn {
					set.Key, e.Key = cn, v
				}
			case string:
				if len(set.Columns) == 0 {
					set.Columns = []string{cn}
				}
				if set.Columns[0] == cn && e.Name == "" {
					e.Name = v
				}
			}
		}
		if set == nil || e.Name == "" {
			continue
		}
		if e.Key == nil {
			if id, err := strconv.ParseFloat(str(p["canonical_id"]), 64); err == nil && set.Key != "" {
				e.Key = id
			}
		}
		aliasList, _ := p["aliases"].([]any)
		e.Aliases = append(e.Aliases, key)
		for _, a := range aliasList {
			e.Aliases = append(e.Aliases, str(a))
		}
		set.Values = append(set.Values, e)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return x.String()
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}
