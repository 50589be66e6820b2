package sqlgen

import (
	"fmt"
	"sort"
	"strings"

	"talk2tables/jsonval"
	"talk2tables/schema"
)

// examples are facts of the live database shown to the model as worked
// examples of the prompt's rules and of its repair instructions: taken from
// the resources of this request, so another database's prompt never points
// the model at tables or columns that do not exist. Each is empty when the
// resources hold nothing to show.
type examples struct {
	tableWord    string // `"<word>" -> table <table>`
	columnWord   string // `"<word>" -> <table>.<column>`
	entity       string // `"<name>" -> <table>.<key> = <value>`
	nonAdditive  string // `<table>.<column>`
	derived      string // `"<name>" = SUM(<table>.<a> * <table>.<b>)`
	dateColumn   string // `<table>.<column> (<format>)`
	sharedColumn string // `<t1>.<column> and <t2>.<column>`
}

// lines renders the examples as a block of the user prompt; "" when none.
func (e examples) lines() string {
	var out []string
	add := func(label, v string) {
		if v != "" {
			out = append(out, "- "+label+": "+v)
		}
	}
	add("a word naming a table", e.tableWord)
	add("a word naming a column", e.columnWord)
	add("a named entity and its filter", e.entity)
	add("a non-additive measure (AVG/MIN/MAX, never SUM)", e.nonAdditive)
	add("a derived measure", e.derived)
	add("a table's main date column", e.dateColumn)
	add("a column name in several tables (qualify it)", e.sharedColumn)
	if len(out) == 0 {
		return ""
	}
	return "Examples from this database's resources:\n" + strings.Join(out, "\n") + "\n"
}

// liveExamples reads the examples from the servers' resources, recognising
// them by shape (docs/contracts.md): a schema has a "tables" array, a
// semantic model has "version" 2 and a "tables" object, an entity list has an
// "entities" array. Earlier (more preferred) servers win.
func liveExamples(servers []ServerContext, schemas schemaTables) examples {
	var e examples
	for _, sc := range servers {
		uris := make([]string, 0, len(sc.Resources))
		for u := range sc.Resources {
			uris = append(uris, u)
		}
		sort.Strings(uris)
		for _, u := range uris {
			obj, ok := sc.Resources[u].(map[string]any)
			if !ok {
				continue
			}
			if _, ok := obj["tables"].([]any); ok {
				e.fromSchema(schemas[sc.ID+"\x00"+u])
			}
			if tables, ok := obj["tables"].(map[string]any); ok {
				e.fromSemantic(tables, obj["measures"])
			}
			if ents, ok := obj["entities"].([]any); ok {
				e.fromEntities(ents)
			}
		}
	}
	return e
}

// fromSchema finds a column name shared by two tables (not an id, which
// joins make common) and, failing a catalog, a date-typed column.
func (e *examples) fromSchema(tables []*schema.Table) {
	owners := map[string][]string{}
	var names []string
	for _, t := range tables {
		if t == nil {
			continue
		}
		tname := t.Name
		for _, c := range t.Columns {
			cname := c.Name
			if cname == "" {
				continue
			}
			key := strings.ToLower(cname)
			if len(owners[key]) == 0 {
				names = append(names, key)
			}
			owners[key] = append(owners[key], tname+"."+cname)
			if e.dateColumn == "" && isDateType(c.Type) {
				e.dateColumn = tname + "." + cname
			}
		}
	}
	if e.sharedColumn != "" {
		return
	}
	sort.Strings(names)
	for _, n := range names {
		if len(owners[n]) >= 2 && !strings.HasSuffix(n, "id") {
			e.sharedColumn = fmt.Sprintf("%s and %s", owners[n][0], owners[n][1])
			return
		}
	}
}

func isDateType(t string) bool {
	t = strings.ToUpper(t)
	return strings.Contains(t, "DATE") || strings.Contains(t, "TIME")
}

// fromSemantic takes a table word, a column word, a non-additive measure,
// a date column and a derived measure from a version-2 semantic model.
func (e *examples) fromSemantic(tables map[string]any, measures any) {
	tnames := sortedMapKeys(tables)
	for _, tn := range tnames {
		t, _ := tables[tn].(map[string]any)
		if e.tableWord == "" {
			for _, w := range stringsOf(t["words"]) {
				if !sameWords(w, tn) {
					e.tableWord = fmt.Sprintf("%q -> table %s", w, tn)
					break
				}
			}
		}
		if dc, _ := t["date_column"].(string); dc != "" && !strings.Contains(e.dateColumn, " (") {
			e.dateColumn = tn + "." + dc
			if cols, ok := t["columns"].(map[string]any); ok {
				if c, ok := cols[dc].(map[string]any); ok {
					if f, _ := c["date_format"].(string); f != "" {
						e.dateColumn += " (" + f + ")"
					}
				}
			}
		}
		cols, _ := t["columns"].(map[string]any)
		for _, cn := range sortedMapKeys(cols) {
			c, _ := cols[cn].(map[string]any)
			if e.columnWord == "" {
				for _, w := range stringsOf(c["words"]) {
					if !sameWords(w, cn) {
						e.columnWord = fmt.Sprintf("%q -> %s.%s", w, tn, cn)
						break
					}
				}
			}
			if m, _ := c["measure"].(string); e.nonAdditive == "" && m == "non_additive" {
				e.nonAdditive = tn + "." + cn
			}
		}
	}
	ms, _ := measures.(map[string]any)
	for _, name := range sortedMapKeys(ms) {
		m, _ := ms[name].(map[string]any)
		table, _ := m["table"].(string)
		if f, _ := m["formula"].(string); f != "" {
			e.derived = fmt.Sprintf("%q = %s", name, qualify(f, table))
			return
		}
		expr, _ := m["expression"].(string)
		agg, _ := m["aggregate"].(string)
		if expr != "" && agg != "" {
			e.derived = fmt.Sprintf("%q = %s(%s)", name, strings.ToUpper(agg), qualify(expr, table))
			return
		}
	}
}

// fromEntities takes the first keyed entity.
func (e *examples) fromEntities(sets []any) {
	for _, s := range sets {
		sm, _ := s.(map[string]any)
		table, _ := sm["table"].(string)
		key, _ := sm["key"].(string)
		vals, _ := sm["values"].([]any)
		if e.entity != "" || table == "" || key == "" || len(vals) == 0 {
			continue
		}
		v, _ := vals[0].(map[string]any)
		name, _ := v["name"].(string)
		if name == "" || v["key"] == nil {
			continue
		}
		k := jsonval.Text(v["key"])
		if _, ok := v["key"].(string); ok {
			k = "'" + strings.ReplaceAll(k, "'", "''") + "'"
		}
		e.entity = fmt.Sprintf("%q -> %s.%s = %s", name, table, key, k)
	}
}

// qualify replaces {Column} placeholders with table.Column.
func qualify(expr, table string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(expr, '{')
		j := strings.IndexByte(expr, '}')
		if i < 0 || j < i {
			b.WriteString(expr)
			return b.String()
		}
		b.WriteString(expr[:i])
		b.WriteString(table + "." + expr[i+1:j])
		expr = expr[j+1:]
	}
}

// sameWords reports whether a phrase only restates an identifier
// ("line item" for LineItem or line_items).
func sameWords(phrase, ident string) bool {
	norm := func(s string) string {
		s = strings.ToLower(s)
		s = strings.NewReplacer("_", "", " ", "", "-", "").Replace(s)
		return strings.TrimSuffix(s, "s")
	}
	return norm(phrase) == norm(ident)
}

func sortedMapKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func stringsOf(v any) []string {
	arr, _ := v.([]any)
	out := make([]string, 0, len(arr))
	for _, x := range arr {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
