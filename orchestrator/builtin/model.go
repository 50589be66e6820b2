package builtin

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// column is one schema column, typed for the planner.
type column struct {
	table    *table
	name     string
	typ      string
	numeric  bool
	textual  bool
	pk       bool
	dateLike bool
	values   []string // distinct_values of low-cardinality text columns
}

func (c *column) qualified() string { return ident(c.table.name) + "." + ident(c.name) }
func (c *column) ref() string       { return c.table.name + "." + c.name }

// isMeasure reports whether the column can be summed or averaged.
func (c *column) isMeasure() bool { return c.numeric && !c.pk && !c.isKeyLike() }

// isKeyLike reports whether the column is a foreign key (an id, not a quantity).
func (c *column) isKeyLike() bool {
	for _, e := range c.table.edges {
		if e.from == c {
			return true
		}
	}
	return false
}

// table is one schema table.
type table struct {
	name     string
	cols     []*column
	byName   map[string]*column
	pk       *column
	rowCount int
	dateCol  *column // main date column: date_columns, else the only date-like column
	nameCol  *column // display column used to group "per <table>"
	edges    []*edge
}

// edge is a foreign key seen from one table: from (in this table) joins to (in other).
// manyToOne is true when this table holds the foreign key.
type edge struct {
	from, to  *column
	other     *table
	manyToOne bool
}

// product is one catalog product with its database references.
type product struct {
	key     string
	name    string
	refs    map[string]string // "table.column" → value as text
	idCol   *column           // reference column used to filter
	idValue string
	idQuote bool    // the filter value is text and must be quoted
	nameCol *column // textual reference column used to group
}

type entryKind int

const (
	entTerm    entryKind = iota + 1 // user-friendly term → column
	entTable                        // table name or table alias
	entAgg                          // aggregation term → function
	entDate                         // date term → expression
	entProduct                      // product alias
	entValue                        // distinct value of a column
)

// entry is one meaning of a phrase in the lexicon.
type entry struct {
	kind   entryKind
	toks   []string // stemmed tokens
	phrase string
	col    *column
	tbl    *table
	fn     string
	expr   string
	prod   *product
	values []valueRef
}

// valueRef is a literal as stored in one column.
type valueRef struct {
	col *column
	val string
}

// model is the compiled, typed view of the schema and metadata.
type model struct {
	tables      map[string]*table
	tableList   []*table
	lex         map[string][]*entry // first stemmed token → entries
	fuzzyWords  []fuzzyWord
	primary     *column // measure most terms point to; nil when unclear
	primaryTerm string
	soldTerm    *entry // term whose phrase speaks of selling ("units sold")
	products    int
	hasSchema   bool
	hasTerms    bool // a column_mappings resource was provided
}

type fuzzyWord struct {
	word  string
	entry *entry
}

// compile builds the model from the servers' resources, earlier servers winning.
func compile(servers []resourceSet) *model {
	m := &model{tables: map[string]*table{}, lex: map[string][]*entry{}}
	var schemas []map[string]any
	var aliasSets []map[string]any
	var mappings []map[string]any
	for _, s := range servers {
		for _, uri := range s.uris {
			classify(s.res[uri], &schemas, &aliasSets, &mappings, 0)
		}
	}
	for _, sc := range schemas {
		m.addSchema(sc)
	}
	m.finishTables()
	if !m.hasSchema {
		return m
	}
	m.hasTerms = len(mappings) > 0
	seen := map[string]bool{}
	for _, mp := range mappings {
		m.addMappings(mp, seen)
	}
	for _, al := range aliasSets {
		m.addProducts(al, seen)
	}
	m.addSchemaWords(seen)
	m.pickPrimary()
	m.buildFuzzy()
	return m
}

// classify finds schema, product alias and column mapping objects by shape.
func classify(v any, schemas, aliases, mappings *[]map[string]any, depth int) {
	obj, ok := v.(map[string]any)
	if !ok || depth > 2 {
		return
	}
	switch {
	case isSemanticModel(obj):
		*mappings = append(*mappings, semanticMappings(obj))
		return
	case isSemanticEntities(obj):
		*aliases = append(*aliases, semanticEntities(obj))
		return
	}
	if tbls, ok := obj["tables"].([]any); ok && len(tbls) > 0 {
		if t0, ok := tbls[0].(map[string]any); ok {
			if _, ok := t0["columns"]; ok {
				*schemas = append(*schemas, obj)
				return
			}
		}
	}
	if _, ok := obj["user_friendly_terms"]; ok {
		*mappings = append(*mappings, obj)
		return
	}
	if _, ok := obj["aggregation_terms"]; ok {
		*mappings = append(*mappings, obj)
		return
	}
	if _, ok := obj["date_terms"]; ok {
		*mappings = append(*mappings, obj)
		return
	}
	if looksLikeProducts(obj) {
		*aliases = append(*aliases, obj)
		return
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		classify(obj[k], schemas, aliases, mappings, depth+1)
	}
}

func looksLikeProducts(obj map[string]any) bool {
	if len(obj) == 0 {
		return false
	}
	for _, v := range obj {
		p, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := p["aliases"]; !ok {
			return false
		}
		if _, ok := p["canonical_id"]; !ok {
			if _, ok := p["database_references"]; !ok {
				return false
			}
		}
	}
	return true
}

func (m *model) addSchema(sc map[string]any) {
	tbls, _ := sc["tables"].([]any)
	for _, tv := range tbls {
		to, ok := tv.(map[string]any)
		if !ok {
			continue
		}
		name := str(to["name"])
		if name == "" || m.tables[strings.ToLower(name)] != nil {
			continue
		}
		t := &table{name: name, byName: map[string]*column{}, rowCount: int(num(to["row_count"]))}
		cols, _ := to["columns"].([]any)
		for _, cv := range cols {
			co, ok := cv.(map[string]any)
			if !ok {
				continue
			}
			c := &column{table: t, name: str(co["name"]), typ: strings.ToUpper(str(co["type"]))}
			if c.name == "" {
				continue
			}
			c.pk, _ = co["primary_key"].(bool)
			c.numeric = strings.Contains(c.typ, "INT") || strings.Contains(c.typ, "REAL") ||
				strings.Contains(c.typ, "NUM") || strings.Contains(c.typ, "DEC") ||
				strings.Contains(c.typ, "FLOA") || strings.Contains(c.typ, "DOUB")
			c.textual = !c.numeric
			ln := strings.ToLower(c.name)
			c.dateLike = strings.Contains(c.typ, "DATE") || strings.Contains(c.typ, "TIME") ||
				(c.textual && (strings.Contains(ln, "date") || strings.HasSuffix(ln, "_on") ||
					strings.HasSuffix(ln, "_at") || strings.HasSuffix(ln, "time")))
			if dv, ok := co["distinct_values"].([]any); ok {
				for _, v := range dv {
					if s := str(v); s != "" {
						c.values = append(c.values, s)
					}
				}
			}
			t.cols = append(t.cols, c)
			t.byName[ln] = c
			if c.pk && t.pk == nil {
				t.pk = c
			}
		}
		m.tables[strings.ToLower(name)] = t
		m.tableList = append(m.tableList, t)
		m.hasSchema = true
	}
	// Foreign keys once every table exists.
	for _, tv := range tbls {
		to, ok := tv.(map[string]any)
		if !ok {
			continue
		}
		t := m.tables[strings.ToLower(str(to["name"]))]
		if t == nil {
			continue
		}
		fks, _ := to["foreign_keys"].([]any)
		for _, fv := range fks {
			fo, ok := fv.(map[string]any)
			if !ok {
				continue
			}
			from := t.byName[strings.ToLower(str(fo["column"]))]
			ot := m.tables[strings.ToLower(str(fo["references_table"]))]
			if from == nil || ot == nil {
				continue
			}
			to := ot.pk
			if rc := str(fo["references_column"]); rc != "" {
				to = ot.byName[strings.ToLower(rc)]
			}
			if to == nil || hasEdge(t, from, to) {
				continue
			}
			t.edges = append(t.edges, &edge{from: from, to: to, other: ot, manyToOne: true})
			ot.edges = append(ot.edges, &edge{from: to, to: from, other: t, manyToOne: false})
		}
	}
}

func hasEdge(t *table, from, to *column) bool {
	for _, e := range t.edges {
		if e.from == from && e.to == to {
			return true
		}
	}
	return false
}

func (m *model) finishTables() {
	for _, t := range m.tableList {
		var dates []*column
		for _, c := range t.cols {
			if c.dateLike {
				dates = append(dates, c)
			}
		}
		if len(dates) == 1 {
			t.dateCol = dates[0]
		}
		for _, c := range t.cols {
			ln := strings.ToLower(c.name)
			if c.textual && !c.dateLike && (strings.Contains(ln, "name") || strings.Contains(ln, "title")) {
				t.nameCol = c
				break
			}
		}
	}
}

func (m *model) column(ref string) *column {
	tn, cn, ok := strings.Cut(ref, ".")
	if !ok {
		return nil
	}
	t := m.tables[strings.ToLower(strings.TrimSpace(tn))]
	if t == nil {
		return nil
	}
	return t.byName[strings.ToLower(strings.TrimSpace(cn))]
}

// addEntry registers a phrase meaning; seen keys "kind|phrase" let earlier servers win.
func (m *model) addEntry(e *entry, seen map[string]bool) {
	toks := phraseTokens(e.phrase)
	if len(toks) == 0 {
		return
	}
	key := fmt.Sprintf("%d|%s", e.kind, strings.Join(toks, " "))
	if seen[key] {
		return
	}
	seen[key] = true
	e.toks = toks
	m.lex[toks[0]] = append(m.lex[toks[0]], e)
}

func (m *model) addMappings(mp map[string]any, seen map[string]bool) {
	if dc, ok := mp["date_columns"].(map[string]any); ok {
		for _, tn := range sortedKeys(dc) {
			t := m.tables[strings.ToLower(tn)]
			if t == nil {
				continue
			}
			if c := t.byName[strings.ToLower(str(dc[tn]))]; c != nil && !seen["datecol|"+t.name] {
				seen["datecol|"+t.name] = true
				t.dateCol = c
				c.dateLike = true
			}
		}
	}
	if uf, ok := mp["user_friendly_terms"].(map[string]any); ok {
		for _, phrase := range sortedKeys(uf) {
			if c := m.column(str(uf[phrase])); c != nil {
				m.addEntry(&entry{kind: entTerm, phrase: phrase, col: c}, seen)
			}
		}
	}
	if ag, ok := mp["aggregation_terms"].(map[string]any); ok {
		for _, phrase := range sortedKeys(ag) {
			fn := strings.ToUpper(strings.TrimSpace(str(ag[phrase])))
			switch fn {
			case "SUM", "COUNT", "AVG", "MAX", "MIN":
				m.addEntry(&entry{kind: entAgg, phrase: phrase, fn: fn}, seen)
			}
		}
	}
	if dt, ok := mp["date_terms"].(map[string]any); ok {
		for _, phrase := range sortedKeys(dt) {
			if expr := str(dt[phrase]); strings.Contains(expr, "{date_column}") {
				m.addEntry(&entry{kind: entDate, phrase: phrase, expr: expr}, seen)
			}
		}
	}
	if ta, ok := mp["table_aliases"].(map[string]any); ok {
		for _, tn := range sortedKeys(ta) {
			t := m.tables[strings.ToLower(tn)]
			if t == nil {
				continue
			}
			words, _ := ta[tn].([]any)
			for _, w := range words {
				if s := str(w); s != "" {
					m.addEntry(&entry{kind: entTable, phrase: s, tbl: t}, seen)
				}
			}
		}
	}
}

func (m *model) addProducts(al map[string]any, seen map[string]bool) {
	for _, key := range sortedKeys(al) {
		po, _ := al[key].(map[string]any)
		p := &product{key: key, name: str(po["canonical_name"]), refs: map[string]string{}}
		refs, _ := po["database_references"].(map[string]any)
		for _, rk := range sortedKeys(refs) {
			c := m.column(rk)
			if c == nil {
				continue
			}
			rv := refs[rk]
			s := str(rv)
			if f, ok := rv.(float64); ok {
				s = strconv.FormatFloat(f, 'f', -1, 64)
			}
			p.refs[rk] = s
			if c.textual && !c.dateLike && p.nameCol == nil {
				p.nameCol = c
				if p.name == "" {
					p.name = s
				}
			}
			if c.pk && p.idCol == nil {
				p.idCol, p.idValue, p.idQuote = c, s, c.textual
			}
		}
		if p.idCol == nil && p.nameCol != nil {
			p.idCol, p.idValue, p.idQuote = p.nameCol, p.refs[p.nameCol.ref()], true
		}
		if p.idCol == nil {
			continue
		}
		if p.name == "" {
			p.name = key
		}
		if p.nameCol != nil && p.nameCol.table.nameCol == nil {
			p.nameCol.table.nameCol = p.nameCol
		}
		m.products++
		phrases := []string{key}
		if al, ok := po["aliases"].([]any); ok {
			for _, a := range al {
				phrases = append(phrases, str(a))
			}
		}
		if p.name != "" {
			phrases = append(phrases, p.name)
		}
		for _, ph := range phrases {
			if ph == "" {
				continue
			}
			m.addEntry(&entry{kind: entProduct, phrase: ph, prod: p}, seen)
			if strings.ContainsAny(ph, "_-") {
				m.addEntry(&entry{kind: entProduct, phrase: strings.NewReplacer("_", " ", "-", " ").Replace(ph), prod: p}, seen)
			}
		}
	}
}

// addSchemaWords adds table names and distinct values as phrases.
func (m *model) addSchemaWords(seen map[string]bool) {
	for _, t := range m.tableList {
		m.addEntry(&entry{kind: entTable, phrase: t.name, tbl: t}, seen)
		if strings.Contains(t.name, "_") {
			m.addEntry(&entry{kind: entTable, phrase: strings.ReplaceAll(t.name, "_", " "), tbl: t}, seen)
		}
	}
	// Column names are words too ("category", "signup date") when only one
	// table has them; metadata terms of the same phrase came first and win.
	owners := map[string]int{}
	for _, t := range m.tableList {
		for _, c := range t.cols {
			owners[strings.ToLower(c.name)]++
		}
	}
	for _, t := range m.tableList {
		for _, c := range t.cols {
			if owners[strings.ToLower(c.name)] != 1 || c.pk || c.isKeyLike() {
				continue
			}
			m.addEntry(&entry{kind: entTerm, phrase: strings.ReplaceAll(c.name, "_", " "), col: c}, seen)
		}
	}
	// One value entry per phrase holding every column where it appears.
	byPhrase := map[string]*entry{}
	var order []string
	for _, t := range m.tableList {
		for _, c := range t.cols {
			for _, v := range c.values {
				k := strings.Join(phraseTokens(v), " ")
				if k == "" {
					continue
				}
				e := byPhrase[k]
				if e == nil {
					e = &entry{kind: entValue, phrase: v}
					byPhrase[k] = e
					order = append(order, k)
				}
				e.values = append(e.values, valueRef{col: c, val: v})
			}
		}
	}
	for _, k := range order {
		m.addEntry(byPhrase[k], seen)
	}
}

// pickPrimary chooses the measure most user-friendly terms point to, and the
// term that speaks of selling.
func (m *model) pickPrimary() {
	counts := map[*column]int{}
	first := map[*column]string{}
	for _, es := range m.lex {
		for _, e := range es {
			if e.kind != entTerm || !e.col.isMeasure() {
				continue
			}
			counts[e.col]++
			if f, ok := first[e.col]; !ok || len(e.phrase) < len(f) || (len(e.phrase) == len(f) && e.phrase < f) {
				first[e.col] = e.phrase
			}
			for _, tk := range e.toks {
				if tk == "sold" {
					if m.soldTerm == nil || e.phrase < m.soldTerm.phrase {
						m.soldTerm = e
					}
				}
			}
		}
	}
	best, tie := 0, false
	for c, n := range counts {
		switch {
		case n > best:
			best, tie, m.primary = n, false, c
		case n == best:
			tie = true
		}
	}
	if tie || best < 2 {
		m.primary = nil
		return
	}
	m.primaryTerm = first[m.primary]
}

func (m *model) buildFuzzy() {
	for _, es := range m.lex {
		for _, e := range es {
			if len(e.toks) != 1 || len(e.toks[0]) < 5 {
				continue
			}
			switch e.kind {
			case entProduct, entValue, entTerm, entTable:
				m.fuzzyWords = append(m.fuzzyWords, fuzzyWord{word: e.toks[0], entry: e})
			}
		}
	}
	sort.Slice(m.fuzzyWords, func(i, j int) bool { return m.fuzzyWords[i].word < m.fuzzyWords[j].word })
}

func sortedKeys(m map[string]any) []string {
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
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

func num(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int:
		return float64(x)
	case int64:
		return float64(x)
	}
	return 0
}

// ident quotes an identifier when it is not a plain lower-case name or is a keyword.
func ident(s string) string {
	plain := s != ""
	for i, r := range s {
		if !(r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')) {
			plain = false
			break
		}
	}
	if plain && !sqlKeywords[strings.ToLower(s)] {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

var sqlKeywords = map[string]bool{
	"order": true, "group": true, "select": true, "from": true, "where": true, "table": true,
	"index": true, "by": true, "limit": true, "join": true, "on": true, "as": true, "and": true,
	"or": true, "not": true, "in": true, "is": true, "null": true, "values": true, "case": true,
	"when": true, "then": true, "else": true, "end": true, "having": true, "union": true,
	"default": true, "check": true, "references": true, "key": true, "primary": true, "to": true,
	"transaction": true, "distinct": true, "all": true, "desc": true, "asc": true, "between": true,
}

// quote renders a SQL string literal.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
