package orchestrator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"talk2tables/catalog"
	"talk2tables/orchestrator/verified"
	"talk2tables/schema"
)

// dbKnowledge is what the verified questions need of one database: its
// schema and catalog as verified.Knowledge, the version of its schema and
// its today.
type dbKnowledge struct {
	k verified.Knowledge
	// schema identifies the database's structure (tables, their columns
	// and types): a hash, "" when the executor serves no schema.
	schema string
	today  string
}

// knowledge returns database db's knowledge, built once per request base.
func (b *requestBase) knowledge(db string) *dbKnowledge {
	b.knowMu.Lock()
	defer b.knowMu.Unlock()
	if k, ok := b.know[db]; ok {
		return k
	}
	if b.know == nil {
		b.know = map[string]*dbKnowledge{}
	}
	k := b.buildKnowledge(db)
	b.know[db] = k
	return k
}

func (b *requestBase) buildKnowledge(db string) *dbKnowledge {
	out := &dbKnowledge{k: verified.Knowledge{Columns: map[string][]string{}, Distinct: map[string][]string{}}}
	var sources []string
	if d, ok := b.dbs[db]; ok {
		out.k.Dialect = d.dialect
	}
	for _, d := range b.databases {
		if d.Server == db {
			sources = d.Sources
			out.today = d.Today
			if out.k.Dialect == "" {
				out.k.Dialect = d.Dialect
			}
		}
	}
	if len(b.databases) == 0 || sources == nil {
		sources = []string{db}
	}
	for _, sc := range b.servers {
		if !slices.Contains(sources, sc.ID) {
			continue
		}
		for _, uri := range sortedKeys(sc.Resources) {
			obj, ok := sc.Resources[uri].(map[string]any)
			if !ok {
				continue
			}
			switch {
			case sc.ID == db && catalog.IsSchemaResource(obj) && out.schema == "":
				if d := sc.TypedSchema(); d != nil {
					out.readSchema(d)
				}
			case catalog.IsEntityListResource(obj):
				var doc struct {
					Entities []*catalog.EntitySet `json:"entities"`
				}
				if remarshal(obj, &doc) == nil {
					out.readSets(doc.Entities)
				}
			}
		}
	}
	if out.k.Dialect == "" {
		out.k.Dialect = b.dialect
	}
	if out.today == "" {
		out.today = b.today
	}
	return out
}

// readSchema reads the tables, columns and few distinct values of a schema
// resource, and hashes its structure.
func (dk *dbKnowledge) readSchema(doc *schema.Schema) {
	if dk.k.Dialect == "" {
		dk.k.Dialect = doc.Dialect
	}
	if doc.Today != "" {
		dk.today = doc.Today
	}
	type shape struct {
		Table   string
		Kind    string
		Columns [][2]string
	}
	var shapes []shape
	for _, t := range doc.Tables {
		name := t.QualifiedName()
		s := shape{Table: name, Kind: t.Kind}
		var cols []string
		for _, c := range t.Columns {
			cols = append(cols, c.Name)
			s.Columns = append(s.Columns, [2]string{c.Name, strings.ToUpper(c.Type)})
			if len(c.DistinctValues) > 0 {
				key := strings.ToLower(name + "." + c.Name)
				dk.k.Distinct[key] = append(dk.k.Distinct[key], c.DistinctValues...)
			}
		}
		dk.k.Columns[strings.ToLower(name)] = cols
		if t.Schema != "" {
			if _, taken := dk.k.Columns[strings.ToLower(t.Name)]; !taken {
				dk.k.Columns[strings.ToLower(t.Name)] = cols
			}
		}
		shapes = append(shapes, s)
	}
	slices.SortFunc(shapes, func(a, b shape) int { return strings.Compare(a.Table, b.Table) })
	data, _ := json.Marshal(shapes)
	sum := sha256.Sum256(data)
	dk.schema = hex.EncodeToString(sum[:8])
}

// readSets adds a catalog's entity sets.
func (dk *dbKnowledge) readSets(sets []*catalog.EntitySet) {
	for _, s := range sets {
		if s == nil {
			continue
		}
		set := verified.EntitySet{Table: s.Table, Key: s.Key, Columns: s.Columns}
		for _, e := range s.Values {
			if e == nil {
				continue
			}
			set.Values = append(set.Values, verified.Entity{Name: e.Name, Key: keyText(e.Key), KeyIsText: keyIsText(e.Key), Aliases: e.Aliases})
		}
		dk.k.Sets = append(dk.k.Sets, set)
	}
}

// keyText writes an entity key as SQL writes it: digits for a number,
// the text of a string; "" for none.
func keyText(k any) string {
	switch v := k.(type) {
	case nil:
		return ""
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case int:
		return strconv.Itoa(v)
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return strconv.FormatInt(int64(v), 10)
		}
		return strconv.FormatFloat(v, 'f', -1, 64)
	case json.Number:
		return v.String()
	}
	return fmt.Sprint(k)
}

// keyIsText reports whether an entity key is a string.
func keyIsText(k any) bool { _, ok := k.(string); return ok }

// remarshal decodes a JSON-shaped value into out.
func remarshal(v any, out any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}
