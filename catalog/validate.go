package catalog

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"talk2tables/sqlscan"
)

// Enumerations a version-2 catalog may use, in the order messages list them.
var (
	roles        = []string{RoleFact, RoleDimension, RoleBridge, RoleView}
	kinds        = []string{KindIdentifier, KindMeasure, KindAttribute, KindLabel, KindDate, KindText, KindFlag}
	measureTypes = []string{MeasureAdditive, MeasureNonAdditive}
	dateFormats  = []string{DateISO, DateTimeISO, DateUnixSeconds, DateUnixMillis, DateYear}
	aggregates   = []string{AggSum, AggAvg, AggMin, AggMax}
	dialects     = sqlscan.DialectNames()
	// vocabularyAggregates are the SQL aggregates aggregation_terms may map to.
	vocabularyAggregates = []string{"SUM", "COUNT", "AVG", "MIN", "MAX"}
)

var (
	plainKey    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	placeholder = regexp.MustCompile(`\{([^{}]*)\}`)
)

// v2validator walks the generic JSON tree of a version-2 catalog and collects
// every problem. It first notes which tables and columns the catalog
// declares, so references anywhere are checked against them.
type v2validator struct {
	validator
	tables map[string]map[string]string // table -> column -> kind ("" when unknown)
}

func newV2Validator() *v2validator { return &v2validator{tables: map[string]map[string]string{}} }

// PathKey extends a JSON path (as problems report it) by an object key:
// tables.orders for plain keys, tables["Order Details"] for keys with
// spaces, dots or other characters.
func PathKey(path, key string) string { return at(path, key) }

func at(path, key string) string {
	if plainKey.MatchString(key) {
		return join(path, key)
	}
	k, _ := json.Marshal(key)
	return pathOrRoot(path) + "[" + string(k) + "]"
}

func (v *v2validator) document(doc any) {
	top, ok := v.object("", doc, []string{"version", "last_updated", "source", "tables", "measures", "entities", "vocabulary"},
		[]string{"version", "tables"})
	if !ok {
		return
	}
	if raw, present := top["version"]; present {
		v.version(raw)
	}
	if raw, present := top["last_updated"]; present {
		v.rfc3339("last_updated", raw)
	}
	if raw, present := top["source"]; present {
		v.source(raw)
	}
	v.collectTables(top["tables"])
	if raw, present := top["tables"]; present {
		v.tablesSection(raw)
	}
	if raw, present := top["measures"]; present {
		v.measures(raw)
	}
	if raw, present := top["entities"]; present {
		v.entities(raw)
	}
	if raw, present := top["vocabulary"]; present {
		v.vocabulary(raw)
	}
}

func (v *v2validator) version(raw any) {
	n, ok := raw.(json.Number)
	switch {
	case !ok:
		v.addf("version", "must be the number %d, got %s", FormatVersion, typeName(raw))
	case n.String() == "1":
		v.addf("version", `must be %d; a version-1 product catalog has no "version" key (convert it with: talk2tables catalog migrate --in OLD --out NEW)`, FormatVersion)
	case n.String() != fmt.Sprint(FormatVersion):
		v.addf("version", "unsupported catalog version %s: this talk2tables reads version %d (and version-1 files without a version key)", n, FormatVersion)
	}
}

func (v *v2validator) rfc3339(path string, raw any) {
	if s, ok := v.str(path, raw, true); ok {
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			v.addf(path, "must be an RFC 3339 time like 2026-11-01T00:00:00Z, got %q", s)
		}
	}
}

func (v *v2validator) source(raw any) {
	m, ok := v.object("source", raw, []string{"database", "dialect", "drafted_by", "drafted_at", "notes"}, nil)
	if !ok {
		return
	}
	for _, k := range []string{"database", "drafted_by"} {
		if x, present := m[k]; present {
			v.str(join("source", k), x, false)
		}
	}
	if x, present := m["dialect"]; present {
		v.enum("source.dialect", x, dialects)
	}
	if x, present := m["drafted_at"]; present {
		v.rfc3339("source.drafted_at", x)
	}
	if x, present := m["notes"]; present {
		v.strings("source.notes", x, false)
	}
}

// collectTables records the declared tables and columns (leniently: a
// malformed entry is reported by tablesSection, not here).
func (v *v2validator) collectTables(raw any) {
	tables, _ := raw.(map[string]any)
	for name, t := range tables {
		cols := map[string]string{}
		if tm, ok := t.(map[string]any); ok {
			if cm, ok := tm["columns"].(map[string]any); ok {
				for col, c := range cm {
					kind := ""
					if com, ok := c.(map[string]any); ok {
						kind, _ = com["kind"].(string)
					}
					cols[col] = kind
				}
			}
		}
		v.tables[name] = cols
	}
}

func (v *v2validator) tablesSection(raw any) {
	tables, ok := v.object("tables", raw, nil, nil)
	if !ok {
		return
	}
	if len(tables) == 0 {
		v.addf("tables", "must declare at least one table (keyed by its name as the database spells it)")
		return
	}
	for _, name := range slices.Sorted(maps.Keys(tables)) {
		path := at("tables", name)
		if strings.TrimSpace(name) == "" {
			v.addf(path, "table name must not be empty: key each table by its name exactly as the database spells it")
		}
		v.table(path, name, tables[name])
	}
}

func (v *v2validator) table(path, name string, raw any) {
	m, ok := v.object(path, raw, []string{"words", "description", "role", "key", "label", "date_column", "default_filter", "columns", "why"},
		[]string{"role", "columns"})
	if !ok {
		return
	}
	if x, present := m["words"]; present {
		v.words(join(path, "words"), x)
	}
	for _, k := range []string{"description", "why"} {
		if x, present := m[k]; present {
			v.str(join(path, k), x, false)
		}
	}
	if x, present := m["role"]; present {
		v.enum(join(path, "role"), x, roles)
	}
	if x, present := m["columns"]; present {
		v.columns(join(path, "columns"), name, x)
	}
	if x, present := m["key"]; present {
		if s, ok := v.str(join(path, "key"), x, false); ok && s != "" {
			v.columnOf(join(path, "key"), name, s)
		}
	}
	if x, present := m["label"]; present {
		if list, ok := v.strings(join(path, "label"), x, false); ok {
			seen := map[string]bool{}
			for i, col := range list {
				p := index(join(path, "label"), i)
				if seen[col] {
					v.addf(p, "column %q is listed twice", col)
				}
				seen[col] = true
				v.columnOf(p, name, col)
			}
		}
	}
	if x, present := m["date_column"]; present {
		if s, ok := v.str(join(path, "date_column"), x, false); ok && s != "" && v.columnOf(join(path, "date_column"), name, s) {
			if kind := v.tables[name][s]; kind != KindDate && slices.Contains(kinds, kind) {
				v.addf(join(path, "date_column"), "column %q has kind %s; a table's date column must have kind date (set %s.kind to date and give its date_format)",
					s, kind, at(at(path, "columns"), s))
			}
		}
	}
	if x, present := m["default_filter"]; present {
		v.filter(join(path, "default_filter"), name, x)
	}
}

func (v *v2validator) columns(path, table string, raw any) {
	cols, ok := v.object(path, raw, nil, nil)
	if !ok {
		return
	}
	if len(cols) == 0 {
		v.addf(path, "must declare at least one column of table %q", table)
		return
	}
	for _, name := range slices.Sorted(maps.Keys(cols)) {
		p := at(path, name)
		if strings.TrimSpace(name) == "" {
			v.addf(p, "column name must not be empty")
		}
		v.column(p, cols[name])
	}
}

func (v *v2validator) column(path string, raw any) {
	m, ok := v.object(path, raw, []string{"words", "kind", "measure", "unit", "date_format", "references", "why"}, []string{"kind"})
	if !ok {
		return
	}
	if x, present := m["words"]; present {
		v.words(join(path, "words"), x)
	}
	for _, k := range []string{"unit", "why"} {
		if x, present := m[k]; present {
			v.str(join(path, k), x, false)
		}
	}
	kind := ""
	if x, present := m["kind"]; present {
		kind, _ = v.enum(join(path, "kind"), x, kinds)
	}
	measure, hasMeasure := m["measure"]
	switch {
	case hasMeasure && kind != "" && kind != KindMeasure:
		v.addf(join(path, "measure"), "only columns of kind measure have a measure type; remove it, or set kind to measure")
	case hasMeasure:
		v.enum(join(path, "measure"), measure, measureTypes)
	case kind == KindMeasure:
		v.addf(join(path, "measure"), "missing: a measure column says whether sums are meaningful (%s)", strings.Join(measureTypes, " or "))
	}
	format, hasFormat := m["date_format"]
	switch {
	case hasFormat && kind != "" && kind != KindDate:
		v.addf(join(path, "date_format"), "only columns of kind date have a date format; remove it, or set kind to date")
	case hasFormat:
		v.enum(join(path, "date_format"), format, dateFormats)
	case kind == KindDate:
		v.addf(join(path, "date_format"), "missing: a date column says how it is stored (%s)", strings.Join(dateFormats, ", "))
	}
	if x, present := m["references"]; present {
		if s, ok := v.str(join(path, "references"), x, true); ok {
			if _, _, found := v.splitRef(s); !found {
				v.addf(join(path, "references"), "%q names no column declared in this catalog; write \"table.column\" with a table under tables and one of its columns", s)
			}
		}
	}
}

// splitRef resolves "table.column" against the declared tables, trying every
// dot (table and column names may hold dots themselves).
func (v *v2validator) splitRef(ref string) (table, column string, ok bool) {
	for i := strings.IndexByte(ref, '.'); i >= 0; {
		t, c := ref[:i], ref[i+1:]
		if cols, known := v.tables[t]; known {
			if _, known := cols[c]; known {
				return t, c, true
			}
		}
		next := strings.IndexByte(ref[i+1:], '.')
		if next < 0 {
			break
		}
		i += next + 1
	}
	return "", "", false
}

// columnOf checks col is a declared column of table, reporting at path.
func (v *v2validator) columnOf(path, table, col string) bool {
	cols, known := v.tables[table]
	if !known {
		v.addf(path, "table %q is not declared under tables; declare it there or name a declared table (%s)", table, listSome(slices.Sorted(maps.Keys(v.tables))))
		return false
	}
	if _, ok := cols[col]; ok {
		return true
	}
	v.addf(path, "%q is not a column of table %q; use one of its columns (%s) or declare it under %s",
		col, table, listSome(slices.Sorted(maps.Keys(cols))), at(at("tables", table), "columns"))
	return false
}

// listSome lists up to 8 names, then how many more.
func listSome(names []string) string {
	if len(names) == 0 {
		return "none declared"
	}
	if len(names) <= 8 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s, … %d more", strings.Join(names[:8], ", "), len(names)-8)
}

func (v *v2validator) filter(path, table string, raw any) {
	m, ok := v.object(path, raw, []string{"column", "include", "exclude", "why"}, []string{"column"})
	if !ok {
		return
	}
	if x, present := m["column"]; present {
		if s, ok := v.str(join(path, "column"), x, true); ok {
			v.columnOf(join(path, "column"), table, s)
		}
	}
	inc, hasInc := m["include"]
	exc, hasExc := m["exclude"]
	switch {
	case hasInc && hasExc:
		v.addf(path, "has both include and exclude; keep one (include: only these values count; exclude: every value but these)")
	case !hasInc && !hasExc:
		v.addf(path, "needs include (only these values count) or exclude (every value but these)")
	case hasInc:
		v.strings(join(path, "include"), inc, true)
	default:
		v.strings(join(path, "exclude"), exc, true)
	}
	if x, present := m["why"]; present {
		v.str(join(path, "why"), x, false)
	}
}

func (v *v2validator) measures(raw any) {
	ms, ok := v.object("measures", raw, nil, nil)
	if !ok {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(ms)) {
		path := at("measures", name)
		if strings.TrimSpace(name) == "" || strings.TrimSpace(name) != name {
			v.addf(path, "measure name %q must be a phrase without surrounding spaces", name)
		}
		v.measure(path, ms[name])
	}
}

func (v *v2validator) measure(path string, raw any) {
	m, ok := v.object(path, raw, []string{"table", "expression", "aggregate", "formula", "words", "unit", "why"}, []string{"table"})
	if !ok {
		return
	}
	table := ""
	if x, present := m["table"]; present {
		if s, ok := v.str(join(path, "table"), x, true); ok {
			if _, known := v.tables[s]; known {
				table = s
			} else {
				v.addf(join(path, "table"), "table %q is not declared under tables; name a declared table (%s)", s, listSome(slices.Sorted(maps.Keys(v.tables))))
			}
		}
	}
	if x, present := m["words"]; present {
		v.words(join(path, "words"), x)
	}
	for _, k := range []string{"unit", "why"} {
		if x, present := m[k]; present {
			v.str(join(path, k), x, false)
		}
	}
	expr, hasExpr := m["expression"]
	formula, hasFormula := m["formula"]
	agg, hasAgg := m["aggregate"]
	switch {
	case hasExpr && hasFormula:
		v.addf(path, "has both expression and formula; keep one: expression (a per-row value, combined by aggregate) or formula (a whole aggregate)")
	case !hasExpr && !hasFormula:
		v.addf(path, "needs an expression (a per-row value over {Column} placeholders, with an aggregate) or a formula (a whole aggregate)")
	case hasExpr:
		v.sqlFragment(join(path, "expression"), table, expr)
		if !hasAgg {
			v.addf(join(path, "aggregate"), "missing: an expression is combined over rows by an aggregate (%s)", strings.Join(aggregates, ", "))
		}
	default:
		v.sqlFragment(join(path, "formula"), table, formula)
		if hasAgg {
			v.addf(join(path, "aggregate"), "a formula is already a whole aggregate; remove aggregate (or use expression instead of formula)")
		}
	}
	if hasAgg && hasExpr {
		v.enum(join(path, "aggregate"), agg, aggregates)
	}
}

// sqlFragment checks an expression or formula: one SQL fragment whose
// {placeholders} name columns of table.
func (v *v2validator) sqlFragment(path, table string, raw any) {
	s, ok := v.str(path, raw, true)
	if !ok {
		return
	}
	if strings.Contains(s, ";") {
		v.addf(path, "must be one SQL expression (no ';')")
	}
	if rest := placeholder.ReplaceAllString(s, ""); strings.ContainsAny(rest, "{}") {
		v.addf(path, "has an unbalanced { or }; write each column as {Column}")
	}
	if table == "" {
		return
	}
	seen := map[string]bool{}
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		col := m[1]
		if seen[col] {
			continue
		}
		seen[col] = true
		if _, ok := v.tables[table][col]; !ok {
			v.addf(path, "placeholder {%s} names no column of table %q; use one of its columns (%s)",
				col, table, listSome(slices.Sorted(maps.Keys(v.tables[table]))))
		}
	}
}

func (v *v2validator) entities(raw any) {
	sets, ok := raw.([]any)
	if !ok {
		v.addf("entities", "must be an array of entity sets, got %s", typeName(raw))
		return
	}
	for i, set := range sets {
		v.entitySet(index("entities", i), set)
	}
}

func (v *v2validator) entitySet(path string, raw any) {
	m, ok := v.object(path, raw, []string{"table", "key", "columns", "values", "note", "shared"}, []string{"table", "columns", "values"})
	if !ok {
		return
	}
	table := ""
	if x, present := m["table"]; present {
		if s, ok := v.str(join(path, "table"), x, true); ok {
			if _, known := v.tables[s]; known {
				table = s
			} else {
				v.addf(join(path, "table"), "table %q is not declared under tables; name a declared table (%s)", s, listSome(slices.Sorted(maps.Keys(v.tables))))
			}
		}
	}
	key := ""
	if x, present := m["key"]; present {
		if s, ok := v.str(join(path, "key"), x, true); ok {
			key = s
			if table != "" {
				v.columnOf(join(path, "key"), table, s)
			}
		}
	}
	if x, present := m["columns"]; present {
		if cols, ok := v.strings(join(path, "columns"), x, true); ok {
			for i, c := range cols {
				if table != "" {
					v.columnOf(index(join(path, "columns"), i), table, c)
				}
			}
			if key == "" && len(cols) != 1 {
				v.addf(join(path, "columns"), "a value set (no key) names values of one column; list exactly one column, or give the set a key column")
			}
		}
	}
	if x, present := m["note"]; present {
		v.str(join(path, "note"), x, false)
	}
	if x, present := m["shared"]; present {
		v.sharedNames(join(path, "shared"), key != "", x)
	}
	if x, present := m["values"]; present {
		v.entityValues(join(path, "values"), key != "", x)
	}
}

// entityValues checks each named row or value, and that no name or alias
// names two different entities of the set.
func (v *v2validator) entityValues(path string, keyed bool, raw any) {
	vals, ok := raw.([]any)
	if !ok {
		v.addf(path, "must be an array of entities, got %s", typeName(raw))
		return
	}
	type owner struct {
		index int
		id    string // the entity's key (keyed sets) or name
	}
	names := map[string]owner{} // normalised name or alias -> first entity using it
	keys := map[string]int{}
	for i, raw := range vals {
		p := index(path, i)
		m, ok := v.object(p, raw, []string{"name", "key", "aliases", "attributes", "tags"}, []string{"name"})
		if !ok {
			continue
		}
		name, _ := m["name"].(string)
		if x, present := m["name"]; present {
			v.str(join(p, "name"), x, true)
		}
		id := normalize(name)
		kx, hasKey := m["key"]
		switch {
		case keyed && !hasKey:
			v.addf(join(p, "key"), "missing: every entity of a keyed set gives its row's key value")
		case !keyed && hasKey:
			v.addf(join(p, "key"), "a value set (no key) names values of its column; remove key, or give the set a key column")
		case hasKey:
			switch k := kx.(type) {
			case json.Number, string:
				id = fmt.Sprint(k)
				if first, dup := keys[id]; dup {
					v.addf(join(p, "key"), "key %s is also used by %s; each row is listed once", id, index(path, first))
				} else {
					keys[id] = i
				}
			default:
				v.addf(join(p, "key"), "must be a number or a string, got %s", typeName(kx))
			}
		}
		var aliases []string
		if x, present := m["aliases"]; present {
			aliases, _ = v.strings(join(p, "aliases"), x, false)
		}
		if x, present := m["tags"]; present {
			v.strings(join(p, "tags"), x, false)
		}
		if x, present := m["attributes"]; present {
			v.object(join(p, "attributes"), x, nil, nil)
		}
		for j, n := range append([]string{name}, aliases...) {
			ln := normalize(n)
			if ln == "" {
				continue
			}
			where := join(p, "name")
			if j > 0 {
				where = index(join(p, "aliases"), j-1)
			}
			first, dup := names[ln]
			switch {
			case !dup:
				names[ln] = owner{index: i, id: id}
			case first.id != id:
				v.addf(where, "%q also names %s; a name or alias must name one entity of the set (make it unique, or remove one)", n, index(path, first.index))
			case first.index != i && !keyed:
				v.addf(where, "value %q is listed twice (also %s)", n, index(path, first.index))
			case first.index == i && j > 0 && ln != normalize(name):
				v.addf(where, "alias %q is listed twice", n)
			}
		}
	}
}

// sharedNames checks the names several rows of a keyed set share: each
// a name with two or more keys.
func (v *v2validator) sharedNames(path string, keyed bool, raw any) {
	if !keyed {
		v.addf(path, "names rows share belong to a keyed set; give the set a key column, or remove shared")
		return
	}
	list, ok := raw.([]any)
	if !ok {
		v.addf(path, "must be an array of {name, keys}, got %s", typeName(raw))
		return
	}
	for i, raw := range list {
		p := index(path, i)
		m, ok := v.object(p, raw, []string{"name", "keys"}, []string{"name", "keys"})
		if !ok {
			continue
		}
		if x, present := m["name"]; present {
			v.str(join(p, "name"), x, true)
		}
		keys, ok := m["keys"].([]any)
		if !ok || len(keys) < 2 {
			v.addf(join(p, "keys"), "must be an array of two or more key values (the rows sharing the name)")
			continue
		}
		for j, k := range keys {
			switch k.(type) {
			case json.Number, string:
			default:
				v.addf(index(join(p, "keys"), j), "must be a number or a string, got %s", typeName(k))
			}
		}
	}
}

func (v *v2validator) vocabulary(raw any) {
	m, ok := v.object("vocabulary", raw, []string{"synonyms", "aggregation_terms"}, nil)
	if !ok {
		return
	}
	if x, present := m["synonyms"]; present {
		v.stringMap("vocabulary.synonyms", x, func(string, string) {})
	}
	if x, present := m["aggregation_terms"]; present {
		v.stringMap("vocabulary.aggregation_terms", x, func(p, s string) {
			if !slices.Contains(vocabularyAggregates, s) {
				v.addf(p, "must be one of %s, got %q", strings.Join(vocabularyAggregates, ", "), s)
			}
		})
	}
}

// enum checks x is one of allowed.
func (v *v2validator) enum(path string, x any, allowed []string) (string, bool) {
	s, ok := v.str(path, x, true)
	if !ok {
		return "", false
	}
	if !slices.Contains(allowed, s) {
		v.addf(path, "must be one of %s, got %q", strings.Join(allowed, ", "), s)
		return "", false
	}
	return s, true
}

// strings checks an array of non-empty strings (non-empty itself when required).
func (v *v2validator) strings(path string, x any, nonEmpty bool) ([]string, bool) {
	arr, ok := x.([]any)
	if !ok {
		v.addf(path, "must be an array of strings, got %s", typeName(x))
		return nil, false
	}
	if nonEmpty && len(arr) == 0 {
		v.addf(path, "must not be empty")
		return nil, false
	}
	out := make([]string, 0, len(arr))
	good := true
	for i, e := range arr {
		s, ok := v.str(index(path, i), e, true)
		if !ok {
			good = false
			continue
		}
		out = append(out, s)
	}
	return out, good
}

// words checks a list of lowercase phrases; null means none.
func (v *v2validator) words(path string, x any) {
	if x == nil {
		return
	}
	list, _ := v.strings(path, x, false)
	seen := map[string]bool{}
	for i, w := range list {
		p := index(path, i)
		want := strings.Join(strings.Fields(strings.ToLower(w)), " ")
		if w != want {
			v.addf(p, "%q must be lowercase words separated by single spaces: write %q", w, want)
		}
		if seen[want] {
			v.addf(p, "%q is listed twice", w)
		}
		seen[want] = true
	}
}
