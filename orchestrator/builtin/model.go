package builtin

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"talk2tables/catalog"
	"talk2tables/jsonval"
	"talk2tables/schema"
)

// model is the compiled, typed view of one database: its schema, what the
// semantic catalog says about it (or what the names suggest when there is
// no catalog), the foreign-key graph, derived measures, named entities and
// the phrase lexicon. It is immutable once compiled and shared by
// concurrent questions.
type model struct {
	dialect    string // the schema's dialect
	today      string // the schema's today
	database   string // the database's name (a file's base name without extension)
	tables     []*table
	byName     map[string]*table // lower-case full and bare names
	derived    []*derived
	lex        *lexicon
	seg        *catalog.Segmenter  // run-together identifiers split into the schema's words
	synonyms   map[string][]string // stems of a phrase → replacement words
	catalog    bool                // a semantic catalog (format 2) described the database
	v1         bool                // words came from a version-1 catalog
	notes      []string
	hasSchema  bool
	maxSynonym int
	abbrevs    []string             // identifier words written short ("rggr")
	alone      map[string][]*column // columns called by one word ("passed", "is_passed")
	reachable  map[*table]reachInfo // by computePaths
	// tablesOnly is the same database without the views named like a
	// grouped question, compiled when it has some: questions are planned
	// on it first.
	tablesOnly *model
}

// table is one table or view.
type table struct {
	name     string // as the catalog keys it: "schema.table" or "table"
	schema   string
	bare     string
	view     bool
	role     string
	key      *column
	label    []*column
	nameCols []*column // the name the identifiers suggest, when the catalog's label is another
	// alsoNamed: a second name every row has beside its label (a common
	// name beside a formal one), shown with it
	alsoNamed *column
	date      *column
	defFilter *defaultFilter
	cols      []*column
	byName    map[string]*column // lower-case
	out       []*edge            // many-to-one: this table's foreign keys
	in        []*edge            // one-to-many: foreign keys pointing here
	rows      int64              // -1 when unknown
	words     []string
	lastWord  string // the last word of its name, singular ("line" of InvoiceLines)
	described bool   // the catalog describes this table
	// namesRepeat: the catalog says two rows share a name (two regattas
	// called alike, a year apart): the name alone does not tell them apart
	namesRepeat bool
	// unsure are columns that name a link to some table no name matches,
	// in a database that declares no links ("tallied_by_id"): the rows may
	// link to other tables by them too
	unsure []*column
}

// column is one column, typed for the planner.
type column struct {
	t        *table
	name     string
	typ      string
	numeric  bool
	boolean  bool
	dateType bool // a DATE/TIME/TIMESTAMP type
	pk       bool
	nullable bool
	kind     string // catalog.Kind*
	measure  string // catalog.Measure* when kind is measure
	unit     string
	dateFmt  string // catalog.Date* when kind is date
	values   []string
	valueSet bool // a catalog set lists the column's values
	capped   bool // that set is capped: some values are missing
	fk       *edge
	inferred bool // kind guessed from the name and type
	words    []string
}

// edge is a many-to-one foreign key: from.col references to.ref.
type edge struct {
	from *table
	col  *column
	to   *table
	ref  *column
}

// defaultFilter is a catalog default filter on one column.
type defaultFilter struct {
	col              *column
	include, exclude []string
	why              string
}

// derived is a catalog measure computed over one table's rows.
type derived struct {
	name    string
	t       *table
	expr    string // per-row expression with {Column} placeholders
	agg     string // SUM, AVG, MIN, MAX for expr
	formula string // a whole aggregate with placeholders
	unit    string
	words   []string
}

// entitySet is a catalog list of named rows (key set) or values (no key).
type entitySet struct {
	t    *table
	key  *column   // nil: the entities are values of cols[0]
	cols []*column // label columns (key set) or the value column
	note string
}

// entity is one named row or value.
type entity struct {
	set  *entitySet
	name string
	key  any // float64 or string; nil for values
	// keys are the rows of a name several rows share (key is the first)
	keys []any
}

// keyText is the entity's key, or its keys joined ("4, 9").
func (e *entity) keyText() string {
	var out []string
	for _, k := range e.keyValues() {
		out = append(out, jsonval.Text(k))
	}
	return strings.Join(out, ", ")
}

// keyValues are the keys of the rows the entity names.
func (e *entity) keyValues() []any {
	if len(e.keys) > 0 {
		return e.keys
	}
	return []any{e.key}
}

func (c *column) ref() string { return c.t.name + "." + c.name }

func (c *column) view() bool { return c.t.view }

// isKey reports whether the column identifies rows: never summed or averaged.
func (c *column) isKey() bool { return c.kind == catalog.KindIdentifier || c.pk || c.fk != nil }

// isName: the column is (part of) its table's name — the catalog's label
// or the name its identifiers suggest.
func (c *column) isName() bool {
	return slices.Contains(c.t.label, c) || slices.Contains(c.t.nameCols, c)
}

// numberAsText: numbers stored in a text column (the catalog says it is a
// measure): compared, ordered and aggregated after a CAST.
func (c *column) numberAsText() bool {
	return !c.numeric && !c.boolean && !c.dateType && c.kind == catalog.KindMeasure
}

// unknownText: a text column whose values no catalog lists and no kind
// marks: numbers or words, it can't be told ("9.8" sorts after "12.5").
func unknownText(c *column) bool {
	t := strings.ToUpper(c.typ)
	return (strings.Contains(t, "TEXT") || strings.Contains(t, "CHAR")) && !c.dateType && c.kind != catalog.KindDate &&
		!c.textNumber() && len(c.values) == 0 && !c.isName()
}

// selfKey: a foreign key of a table to itself (a mentor, a supervisor).
func (c *column) selfKey() bool { return c.fk != nil && c.fk.to == c.t }

// textNumber: numbers stored as text, by the catalog's kind or by every
// value it lists; compared and ordered as numbers.
func (c *column) textNumber() bool { return c.numberAsText() || numericText(c) }

func (c *column) additive() bool {
	return c.kind == catalog.KindMeasure && c.measure == catalog.MeasureAdditive
}

func (c *column) phrase() string {
	if len(c.words) > 0 {
		return c.words[0]
	}
	return catalog.IdentifierPhrase(c.name)
}

func (t *table) phrase() string {
	if len(t.words) > 0 {
		return t.words[0]
	}
	return catalog.IdentifierPhrase(t.bare)
}

// singular is the table's name as one row's noun: "invoice line".
func (t *table) singular() string {
	ws := catalog.IdentifierWords(t.bare)
	if len(ws) == 0 {
		return t.bare
	}
	ws[len(ws)-1] = catalog.Singular(ws[len(ws)-1])
	return strings.Join(ws, " ")
}

// compile builds the model from the gathered resources.
func compile(src sources) *model {
	m := &model{byName: map[string]*table{}, synonyms: map[string][]string{}}
	if src.schema == nil {
		return m
	}
	m.hasSchema = true
	m.dialect = strings.ToLower(src.schema.Dialect)
	m.today = src.schema.Today
	m.database = databaseName(src.schema.Database)
	m.buildTables(src.schema)
	sem := src.semantic
	switch {
	case sem != nil:
		m.catalog = true
	case src.v1 != nil:
		sem, m.v1 = src.v1, true
	}
	if sem != nil {
		m.overlayCatalog(sem)
	}
	m.buildEdges(src.schema, sem)
	m.inferColumns()
	m.inferTables()
	if sem != nil {
		m.addDefaultFilters(sem)
		m.addDerived(sem)
	}
	m.lex = newLexicon()
	m.seg = newSegmenter(m.tables)
	m.addTableWords()
	m.addColumnWords()
	m.addDerivedWords()
	m.addValueWords()
	if sem != nil {
		m.addEntities(sem)
		m.addVocabulary(sem)
	}
	m.addModifiedTableWords()
	m.lex.finish()
	m.abbrevs = m.shortWords()
	m.alone = aloneNames(m.tables)
	m.computePaths()
	if base, ok := withoutViews(src); ok {
		m.tablesOnly = compile(base)
	}
	return m
}

// databaseName is the name a schema gives its database, without a
// directory or a file extension ("/data/allotments.db" → allotments).
func databaseName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexAny(s, "/\\"); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, '.'); i > 0 {
		s = s[:i]
	}
	return s
}

// withoutViews is src without the views named like a grouped question
// ("<Measure> by <Group>", "<x>_per_<y>"), when it has some. Such a view
// has a grain and often filters of its own (one year, one row per item)
// that the question does not ask for; the base tables answer
// "<measure> by <group>" as asked. Other views (an adjective and a table
// noun) keep their meaning: a named subset of rows.
func withoutViews(src sources) (sources, bool) {
	var keep []schema.Table
	for _, t := range src.schema.Tables {
		if !t.View() || !groupedName(t.Name) {
			keep = append(keep, t)
		}
	}
	if len(keep) == len(src.schema.Tables) {
		return src, false
	}
	kept := *src.schema
	kept.Tables = keep
	src.schema = &kept
	return src, true
}

// groupedName: an identifier with "by" or "per" among its words.
func groupedName(name string) bool {
	for _, w := range catalog.IdentifierWords(name) {
		if w == "by" || w == "per" {
			return true
		}
	}
	return false
}

func (m *model) buildTables(s *schema.Schema) {
	for _, st := range s.Tables {
		if st.Name == "" {
			continue
		}
		full := st.QualifiedName()
		if m.byName[strings.ToLower(full)] != nil {
			continue
		}
		t := &table{name: full, schema: st.Schema, bare: st.Name, view: st.View(),
			byName: map[string]*column{}, rows: st.RowCount}
		for _, sc := range st.Columns {
			if sc.Name == "" || t.byName[strings.ToLower(sc.Name)] != nil {
				continue
			}
			c := &column{t: t, name: sc.Name, typ: strings.ToUpper(sc.Type), pk: sc.PrimaryKey, nullable: sc.Nullable}
			c.classifyType()
			for _, v := range sc.DistinctValues {
				if strings.TrimSpace(v) != "" {
					c.values = append(c.values, v)
				}
			}
			t.cols = append(t.cols, c)
			t.byName[strings.ToLower(c.name)] = c
		}
		if ws := catalog.IdentifierWords(t.singular()); len(ws) > 0 {
			t.lastWord = ws[len(ws)-1]
		}
		m.tables = append(m.tables, t)
		m.byName[strings.ToLower(full)] = t
		if _, taken := m.byName[strings.ToLower(st.Name)]; !taken {
			m.byName[strings.ToLower(st.Name)] = t
		}
	}
}

func (c *column) classifyType() {
	t := c.typ
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(t, s) {
				return true
			}
		}
		return false
	}
	switch {
	case has("BOOL"):
		c.boolean = true
	case has("DATE", "TIME"):
		c.dateType = true
	case has("INT", "REAL", "NUM", "DEC", "FLOA", "DOUB", "MONEY", "SERIAL"):
		c.numeric = true
	}
}

func (m *model) table(name string) *table { return m.byName[strings.ToLower(strings.TrimSpace(name))] }

func (t *table) column(name string) *column {
	return t.byName[strings.ToLower(strings.TrimSpace(name))]
}

// overlayCatalog copies what the catalog says about tables and columns the
// schema has; the rest of the catalog is ignored (the schema is the authority
// on what exists).
func (m *model) overlayCatalog(sem *catalog.Semantic) {
	for _, tn := range sortedKeys(sem.Tables) {
		ct := sem.Tables[tn]
		t := m.table(tn)
		if t == nil || ct == nil {
			if ct != nil {
				m.notes = append(m.notes, fmt.Sprintf("the catalog's table %q is not in the schema", tn))
			}
			continue
		}
		t.described = m.catalog
		t.words = append(t.words, lowerAll(ct.Words)...)
		if ct.Role != "" {
			t.role = ct.Role
		}
		if c := t.column(ct.Key); c != nil {
			t.key = c
		}
		for _, l := range ct.Label {
			if c := t.column(l); c != nil {
				t.label = append(t.label, c)
			}
		}
		if c := t.column(ct.DateColumn); c != nil {
			t.date = c
		}
		for _, cn := range sortedKeys(ct.Columns) {
			cc := ct.Columns[cn]
			c := t.column(cn)
			if c == nil || cc == nil {
				continue
			}
			c.words = append(c.words, lowerAll(cc.Words)...)
			if cc.Kind != "" {
				c.kind, c.measure, c.unit, c.dateFmt = cc.Kind, cc.Measure, cc.Unit, cc.DateFormat
				if c.kind == catalog.KindMeasure && c.measure == "" {
					c.measure = catalog.MeasureNonAdditive // unknown: never summed
				}
			}
		}
	}
}

func lowerAll(ws []string) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		if w = strings.ToLower(strings.TrimSpace(w)); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// buildEdges adds the schema's single-column foreign keys, then catalog
// references the schema does not declare.
func (m *model) buildEdges(s *schema.Schema, sem *catalog.Semantic) {
	add := func(t *table, col, rt, rc string) {
		c := t.column(col)
		to := m.table(rt)
		if c == nil || to == nil || c.fk != nil || strings.Contains(col, ",") {
			return
		}
		ref := to.key
		if rc != "" {
			ref = to.column(rc)
		}
		if ref == nil {
			for _, x := range to.cols {
				if x.pk {
					ref = x
				}
			}
		}
		if ref == nil {
			return
		}
		e := &edge{from: t, col: c, to: to, ref: ref}
		c.fk = e
		t.out = append(t.out, e)
		to.in = append(to.in, e)
	}
	for _, st := range s.Tables {
		t := m.table(st.QualifiedName())
		if t == nil {
			continue
		}
		for _, fk := range st.ForeignKeys {
			add(t, fk.Column, fk.ReferencesTable, fk.ReferencesColumn)
		}
	}
	if sem != nil {
		for _, tn := range sortedKeys(sem.Tables) {
			ct, t := sem.Tables[tn], m.table(tn)
			if t == nil || ct == nil {
				continue
			}
			for _, cn := range sortedKeys(ct.Columns) {
				if cc := ct.Columns[cn]; cc != nil && cc.References != "" {
					rt, rc := splitRef(cc.References)
					add(t, cn, rt, rc)
				}
			}
		}
	}
	if !m.anyEdge() {
		// a database that declares no links at all: the keys its column
		// names point at ("kiosk_id" to kiosks.id)
		for _, t := range m.tables {
			for _, c := range t.cols {
				if u := namedKeyTable(m.tables, t, c); u != nil {
					add(t, c.name, u.name, soleKey(u).name)
				} else if linkLike(t, c) {
					t.unsure = append(t.unsure, c)
				}
			}
		}
	}
}

// anyEdge: some table has a foreign key.
func (m *model) anyEdge() bool {
	for _, t := range m.tables {
		if len(t.out) > 0 {
			return true
		}
	}
	return false
}

// namedKeyTable is the one other table whose key the column's name points
// at, in a database that declares no links: the name ends in that table's
// noun and "id" ("kiosk_id", "HomeKioskId") or in the name of its key when
// that says more than "id" ("kiosk_no", "loaded_by_kiosk_no"); the same
// kind of value (number or text). Nil when no table or more than one
// fits, or the column is its own table's key.
func namedKeyTable(tables []*table, t *table, c *column) *table {
	if c == soleKey(t) {
		return nil
	}
	ws := catalog.IdentifierWords(c.name)
	var found *table
	for _, u := range tables {
		k := soleKey(u)
		if u == t || u.view || k == nil || k.numeric != c.numeric {
			continue
		}
		kw := catalog.IdentifierWords(k.name)
		own := len(kw) > 1 && isSuffix(kw, ws)
		named := len(ws) >= 2 && ws[len(ws)-1] == "id" &&
			(isSuffix(catalog.IdentifierWords(u.singular()), ws[:len(ws)-1]) || isSuffix(catalog.IdentifierWords(u.bare), ws[:len(ws)-1]))
		if !own && !named {
			continue
		}
		if found != nil && found != u {
			return nil
		}
		found = u
	}
	return found
}

// linkLike: a column whose name says it points at a row of some table
// ("tallied_by_id", "hauled_by") that no table's name matches.
func linkLike(t *table, c *column) bool {
	if c == soleKey(t) || c.pk {
		return false
	}
	ws := catalog.IdentifierWords(c.name)
	if len(ws) < 2 {
		return false
	}
	last := ws[len(ws)-1]
	return last == "id" || last == "by" && c.numeric
}

// soleKey is a table's key: the catalog's, else its one primary key
// column; nil when it has none or several.
func soleKey(t *table) *column {
	if t.key != nil {
		return t.key
	}
	var k *column
	for _, c := range t.cols {
		if c.pk {
			if k != nil {
				return nil
			}
			k = c
		}
	}
	return k
}

// splitRef splits "schema.table.column" or "table.column".
func splitRef(ref string) (string, string) {
	i := strings.LastIndexByte(ref, '.')
	if i < 0 {
		return ref, ""
	}
	return ref[:i], ref[i+1:]
}

func (m *model) addDefaultFilters(sem *catalog.Semantic) {
	for _, tn := range sortedKeys(sem.Tables) {
		ct, t := sem.Tables[tn], m.table(tn)
		if t == nil || ct == nil || ct.DefaultFilter == nil {
			continue
		}
		f := ct.DefaultFilter
		c := t.column(f.Column)
		if c == nil || (len(f.Include) == 0) == (len(f.Exclude) == 0) {
			continue
		}
		t.defFilter = &defaultFilter{col: c, include: f.Include, exclude: f.Exclude, why: f.Why}
	}
}

var placeholder = regexp.MustCompile(`\{([^{}]+)\}`)

func (m *model) addDerived(sem *catalog.Semantic) {
	for _, name := range sortedKeys(sem.Measures) {
		cm := sem.Measures[name]
		if cm == nil {
			continue
		}
		t := m.table(cm.Table)
		if t == nil {
			continue
		}
		d := &derived{name: strings.ToLower(name), t: t, expr: cm.Expression, formula: cm.Formula,
			agg: strings.ToUpper(cm.Aggregate), unit: cm.Unit, words: lowerAll(cm.Words)}
		if (d.expr == "") == (d.formula == "") || d.expr != "" && !validAgg(d.agg) {
			m.notes = append(m.notes, fmt.Sprintf("measure %q is neither an expression with an aggregate nor a formula", name))
			continue
		}
		ok := true
		for _, p := range placeholder.FindAllStringSubmatch(d.expr+d.formula, -1) {
			if t.column(p[1]) == nil {
				ok = false
			}
		}
		if !ok {
			m.notes = append(m.notes, fmt.Sprintf("measure %q names a column its table lacks", name))
			continue
		}
		m.derived = append(m.derived, d)
	}
}

func validAgg(fn string) bool {
	switch fn {
	case "SUM", "AVG", "MIN", "MAX":
		return true
	}
	return false
}

// additive reports whether the derived measure can be summed across rows.
func (d *derived) additive() bool { return d.expr != "" && d.agg == "SUM" }

func (m *model) addEntities(sem *catalog.Semantic) {
	for _, es := range sem.Entities {
		if es == nil {
			continue
		}
		t := m.table(es.Table)
		if t == nil {
			continue
		}
		set := &entitySet{t: t, note: es.Note}
		if es.Key != "" {
			set.key = t.column(es.Key)
			if set.key == nil {
				continue
			}
		}
		for _, cn := range es.Columns {
			if c := t.column(cn); c != nil {
				set.cols = append(set.cols, c)
			}
		}
		if set.key != nil && len(set.cols) == 1 && len(es.Values) > 0 {
			// the rows' names are the label's values (a shared name's
			// note is no cap: those are listed under shared)
			set.cols[0].valueSet = true
			set.cols[0].capped = set.cols[0].capped || es.Note != "" && len(es.Shared) == 0
		}
		if set.key != nil && len(es.Shared) > 0 {
			t.namesRepeat = true
			for _, sn := range es.Shared {
				if sn == nil || strings.TrimSpace(sn.Name) == "" || len(sn.Keys) == 0 {
					continue
				}
				// "the crates called Tall Ship": all the rows of that name
				m.lex.addEntity(sn.Name, &entity{set: set, name: sn.Name, key: sn.Keys[0], keys: sn.Keys})
			}
		}
		if set.key == nil && len(set.cols) != 1 {
			continue
		}
		for _, v := range es.Values {
			if v == nil || strings.TrimSpace(v.Name) == "" || set.key != nil && v.Key == nil {
				continue
			}
			if set.key == nil {
				set.cols[0].valueSet = true
				set.cols[0].capped = set.cols[0].capped || es.Note != ""
			}
			e := &entity{set: set, name: v.Name, key: v.Key}
			if set.key == nil {
				m.lex.addValue(v.Name, set.cols[0], v.Name, e)
			} else {
				m.lex.addEntity(v.Name, e)
			}
			for _, a := range v.Aliases {
				if set.key == nil {
					m.lex.addValue(a, set.cols[0], v.Name, e)
				} else {
					m.lex.addEntity(a, e)
				}
			}
		}
	}
}

func (m *model) addVocabulary(sem *catalog.Semantic) {
	if sem.Vocabulary == nil {
		return
	}
	for _, p := range sortedKeys(sem.Vocabulary.Synonyms) {
		from := phraseStems(p)
		to := tokenize(strings.ToLower(sem.Vocabulary.Synonyms[p]))
		if len(from) == 0 || len(to) == 0 {
			continue
		}
		words := make([]string, len(to))
		for i, t := range to {
			words[i] = t.w
		}
		m.synonyms[strings.Join(from, " ")] = words
		m.maxSynonym = max(m.maxSynonym, len(from))
	}
	for _, p := range sortedKeys(sem.Vocabulary.AggregationTerms) {
		fn := strings.ToUpper(sem.Vocabulary.AggregationTerms[p])
		if !validAgg(fn) && fn != "COUNT" {
			continue
		}
		m.lex.addAgg(p, fn)
	}
}

// tablesSorted returns the tables by name (stable output for messages).
func (m *model) tablesSorted() []*table {
	ts := append([]*table(nil), m.tables...)
	sort.Slice(ts, func(i, j int) bool { return ts[i].name < ts[j].name })
	return ts
}
