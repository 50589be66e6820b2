package catalog

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"talk2tables/catalog/internal/names"
)

// Migrate converts a version-1 product catalog to version 2. It logs nothing.
//
// With base nil the structure comes from the version-1 file alone: every
// table and column it mentions, with kinds and measure types read from the
// names (a "why" says no data was checked). With base (a catalog drafted
// from the database, see talk2tables catalog init) the structure is base's,
// and the version-1 knowledge goes on top: user-friendly terms become column
// words, table aliases table words, date columns the tables' dates,
// aggregation terms the vocabulary, and products the entities of their
// table with aliases, attributes (the category and other references) and
// tags. References to tables or columns base does not have are skipped and
// listed in source.notes. Date conditions (date_terms, and user-friendly
// terms mapped to an SQL condition over {date_column}) become synonyms of
// the time phrase they mean, which the planner renders in the executor's
// dialect; "sales" and "revenue" name the column the terms call a sales
// amount.
func Migrate(old *V1, base *Semantic) (*Semantic, error) {
	if old == nil {
		return nil, fmt.Errorf("migrate: no version-1 catalog given")
	}
	m := &migration{old: old}
	if base != nil {
		s, err := clone(base)
		if err != nil {
			return nil, fmt.Errorf("migrate: %w", err)
		}
		m.s, m.fromDB = s, true
	} else {
		m.s = &Semantic{Tables: map[string]*Table{}}
	}
	m.s.Version = FormatVersion
	if old.LastUpdated != "" {
		m.s.LastUpdated = old.LastUpdated
	}
	m.structure()
	m.dates()
	m.words()
	m.products()
	m.vocabulary()
	m.finish()
	if err := m.s.Validate(); err != nil {
		return nil, fmt.Errorf("migrate: the converted catalog is not valid: %w", err)
	}
	return m.s, nil
}

// clone deep-copies a catalog through its JSON form.
func clone(s *Semantic) (*Semantic, error) {
	data, err := Marshal(s)
	if err != nil {
		return nil, err
	}
	return decodeSemantic(data)
}

type migration struct {
	old     *V1
	s       *Semantic
	fromDB  bool
	skipped []string // table.column references base does not have
	notes   []string
}

// ref splits a version-1 "table.column" reference.
func splitV1Ref(ref string) (table, column string) {
	table, column, _ = strings.Cut(ref, ".")
	return table, column
}

// column returns the catalog column a version-1 reference names, creating
// it (and its table) when migrating without a database; nil when base does
// not have it.
func (m *migration) column(ref string) *Column {
	table, col := splitV1Ref(ref)
	t := m.s.Tables[table]
	if t == nil {
		if m.fromDB {
			m.skip(ref)
			return nil
		}
		t = &Table{Role: RoleDimension, Columns: map[string]*Column{}}
		m.s.Tables[table] = t
	}
	c := t.Columns[col]
	if c == nil {
		if m.fromDB {
			m.skip(ref)
			return nil
		}
		c = &Column{}
		t.Columns[col] = c
	}
	return c
}

func (m *migration) skip(ref string) {
	if !slices.Contains(m.skipped, ref) {
		m.skipped = append(m.skipped, ref)
	}
}

// refs lists every table.column the version-1 catalog mentions, sorted.
func (m *migration) refs() []string {
	seen := map[string]bool{}
	for _, ref := range m.old.ColumnMappings.UserFriendlyTerms {
		if isColumnRef(ref) {
			seen[strings.TrimSpace(ref)] = true
		}
	}
	for table, col := range m.old.ColumnMappings.DateColumns {
		seen[table+"."+col] = true
	}
	for _, p := range m.old.ProductAliases {
		for ref := range p.DatabaseReferences {
			seen[ref] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// structure makes sure every mentioned table and column exists (without a
// database) and names their kinds from the identifiers.
func (m *migration) structure() {
	for _, ref := range m.refs() {
		m.column(ref)
	}
	for table := range m.old.ColumnMappings.TableAliases {
		if m.s.Tables[table] == nil {
			if m.fromDB {
				m.skip(table)
				continue
			}
			m.s.Tables[table] = &Table{Role: RoleDimension, Columns: map[string]*Column{}}
		}
	}
	if m.fromDB {
		return
	}
	for _, tname := range slices.Sorted(maps.Keys(m.s.Tables)) {
		t := m.s.Tables[tname]
		for _, cname := range slices.Sorted(maps.Keys(t.Columns)) {
			if c := t.Columns[cname]; c.Kind == "" {
				m.nameKind(tname, cname, c)
			}
		}
	}
}

// nameKind sets a column's kind from its name only (no data to check).
func (m *migration) nameKind(table, name string, c *Column) {
	const unchecked = " (from the name only: migrated without a database)"
	toks := IdentifierWords(name)
	_, hasDate := m.old.ColumnMappings.DateColumns[table]
	isID, _ := names.Identifier(toks)
	isText, textWhy := names.Text(toks)
	g := names.NamedMeasure(toks, hasDate)
	switch {
	case m.old.ColumnMappings.DateColumns[table] == name || names.DateLike(toks) && !names.FlagLike(toks):
		c.Kind, c.DateFormat, c.Why = KindDate, DateISO, "a date; version-1 catalogs compare dates as ISO text"+unchecked
	case isID:
		c.Kind, c.Why = KindIdentifier, "named like a key"+unchecked
	case names.Label(toks) || names.GivenName(toks) || names.FamilyName(toks):
		c.Kind, c.Why = KindLabel, "named like a name or title"+unchecked
	case isText:
		c.Kind, c.Why = KindText, textWhy+unchecked
	case g.Known:
		c.Kind, c.Measure, c.Unit, c.Why = KindMeasure, g.Type, g.Unit, g.Why+unchecked
	default:
		c.Kind, c.Why = KindAttribute, "a value to filter and group by"+unchecked
	}
}

// dates applies date_columns.
func (m *migration) dates() {
	for _, table := range slices.Sorted(maps.Keys(m.old.ColumnMappings.DateColumns)) {
		col := m.old.ColumnMappings.DateColumns[table]
		c := m.column(table + "." + col)
		if c == nil {
			continue
		}
		if c.Kind != KindDate {
			c.Kind, c.Measure, c.Unit, c.DateFormat = KindDate, "", "", DateISO
			c.Why = "the version-1 catalog names it the table's date column (ISO text dates)"
		}
		m.s.Tables[table].DateColumn = col
	}
}

// words adds user-friendly terms to their columns and table aliases to their
// tables. A term is the more specific word: a word derived from an
// identifier that is also a term of another column gives way to it, and so
// does a table alias that is a term of a measure.
func (m *migration) words() {
	terms := map[string]string{} // the terms naming columns
	for term, ref := range m.old.ColumnMappings.UserFriendlyTerms {
		if isColumnRef(ref) {
			terms[term] = strings.TrimSpace(ref)
		}
	}
	termOf := map[string]string{} // normalised term -> table.column
	for term, ref := range terms {
		termOf[normalize(term)] = ref
	}
	// Identifier-derived words first (kept only where no term names another column).
	for _, tname := range slices.Sorted(maps.Keys(m.s.Tables)) {
		t := m.s.Tables[tname]
		if !m.fromDB || len(t.Words) == 0 {
			t.Words = tableWords(tname, t.Words)
		}
		for _, cname := range slices.Sorted(maps.Keys(t.Columns)) {
			c := t.Columns[cname]
			if !m.fromDB && c.Kind != KindIdentifier {
				c.Words = addWords(c.Words, IdentifierPhrase(cname))
			}
			ref := tname + "." + cname
			c.Words = slices.DeleteFunc(c.Words, func(w string) bool {
				owner, ok := termOf[w]
				return ok && owner != ref
			})
		}
	}
	for _, term := range slices.Sorted(maps.Keys(terms)) {
		if c := m.column(terms[term]); c != nil {
			c.Words = addWords(c.Words, term)
		}
	}
	// "sales amount" → the words "sales" and "revenue" alone too, unless
	// another column or derived word of this catalog has them.
	if ref := salesColumn(terms); ref != "" {
		if c := m.column(ref); c != nil {
			for _, w := range names.SalesWords() {
				if owner, ok := termOf[w]; !ok || owner == ref {
					c.Words = addWords(c.Words, w)
				}
			}
		}
	}
	for _, tname := range slices.Sorted(maps.Keys(m.old.ColumnMappings.TableAliases)) {
		t := m.s.Tables[tname]
		if t == nil {
			continue
		}
		for _, alias := range m.old.ColumnMappings.TableAliases[tname] {
			// "revenue" as a table alias and a term of an amount: the
			// measure's word, not the table's.
			if ref, isTerm := termOf[normalize(alias)]; isTerm && m.kindOf(ref) == KindMeasure {
				continue
			}
			t.Words = addWords(t.Words, alias)
		}
	}
}

// kindOf returns the kind of the column a version-1 reference names.
func (m *migration) kindOf(ref string) string {
	table, col := splitV1Ref(ref)
	if t := m.s.Tables[table]; t != nil && t.Columns[col] != nil {
		return t.Columns[col].Kind
	}
	return ""
}

// tableWords are a table's identifier phrase in plural and singular.
func tableWords(name string, have []string) []string {
	ws := IdentifierWords(name)
	if len(ws) == 0 {
		return have
	}
	head := ws[len(ws)-1]
	stem := strings.Join(ws[:len(ws)-1], " ")
	form := func(w string) string { return strings.TrimSpace(stem + " " + w) }
	return addWords(have, form(Plural(Singular(head))), form(Singular(head)))
}

// addWords appends phrases (lowercased, single-spaced) not already present.
func addWords(list []string, words ...string) []string {
	if list == nil {
		list = []string{}
	}
	for _, w := range words {
		w = strings.Join(strings.Fields(strings.ToLower(w)), " ")
		if w != "" && !slices.Contains(list, w) {
			list = append(list, w)
		}
	}
	return list
}

// products turns product_aliases into keyed entity sets, one per table the
// products' rows are in (their key and name references).
func (m *migration) products() {
	type row struct{ table, key, label string }
	groups := map[row][]V1Product{}
	var order []row
	for _, p := range m.old.Products() {
		var r row
		r.table, r.key, r.label = p.Row()
		if _, ok := groups[r]; !ok {
			order = append(order, r)
		}
		groups[r] = append(groups[r], p)
	}
	for _, r := range order {
		m.productSet(r.table, r.key, r.label, groups[r])
	}
}

func (m *migration) productSet(table, key, label string, products []V1Product) {
	t := m.s.Tables[table]
	if t == nil || t.Columns[key] == nil || t.Columns[label] == nil {
		return // skipped and noted by structure
	}
	if !m.fromDB {
		t.Role, t.Key, t.Label = RoleDimension, key, []string{label}
		t.Columns[key].Kind, t.Columns[key].Why = KindIdentifier, "the key of the version-1 products (canonical ids)"
		t.Columns[label].Kind, t.Columns[label].Why = KindLabel, "the names of the version-1 products (canonical names)"
		t.Columns[label].Measure, t.Columns[label].Unit, t.Columns[label].DateFormat = "", "", ""
	} else if len(t.Label) == 0 {
		t.Label = []string{label}
	}
	set := m.entitySet(table, key, label)
	byKey := map[string]*Entity{}
	for _, e := range set.Values {
		byKey[fmt.Sprint(e.Key)] = e
	}
	renamed := 0
	for _, p := range products {
		e := byKey[fmt.Sprint(p.EntityKey())]
		if e == nil {
			e = &Entity{Name: p.CanonicalName, Key: p.EntityKey()}
			set.Values = append(set.Values, e)
		} else if e.Name != p.CanonicalName {
			renamed++
			e.Aliases = addWords(e.Aliases, p.CanonicalName)
		}
		e.Aliases = addWords(e.Aliases, p.Key)
		e.Aliases = addWords(e.Aliases, p.Aliases...)
		m.productAttributes(e, p, table, key, label)
	}
	slices.SortStableFunc(set.Values, func(a, b *Entity) int { return compareKeys(a.Key, b.Key) })
	if renamed > 0 {
		m.notes = append(m.notes, fmt.Sprintf("%d products of %s are named differently in the database; their version-1 names became aliases", renamed, table))
	}
}

// entitySet finds base's keyed set for table.key, or adds an empty one.
func (m *migration) entitySet(table, key, label string) *EntitySet {
	for _, set := range m.s.Entities {
		if set.Table == table && set.Key == key {
			return set
		}
	}
	set := &EntitySet{Table: table, Key: key, Columns: []string{label}, Values: []*Entity{}}
	m.s.Entities = append(m.s.Entities, set)
	return set
}

// productAttributes carries the category (categories[0]), the tags (the
// other categories) and every other database reference onto the entity.
func (m *migration) productAttributes(e *Entity, p V1Product, table, key, label string) {
	if e.Attributes == nil {
		e.Attributes = map[string]any{}
	}
	if cat := p.Category(); cat != "" {
		e.Attributes["category"] = cat
	}
	for _, tag := range p.Categories[min(1, len(p.Categories)):] {
		if !slices.Contains(e.Tags, tag) {
			e.Tags = append(e.Tags, tag)
		}
	}
	for ref, raw := range p.DatabaseReferences {
		if ref == table+"."+key || ref == table+"."+label {
			continue
		}
		name := ref
		if t, col := splitV1Ref(ref); t == table {
			name = col
		}
		var v any
		if tree, err := decodeTree("", raw); err == nil {
			v = plainNumbers(tree)
		}
		e.Attributes[name] = v
	}
	if len(e.Attributes) == 0 {
		e.Attributes = nil
	}
}

// compareKeys orders entity keys: numbers numerically, then strings.
func compareKeys(a, b any) int {
	fa, aNum := number(a)
	fb, bNum := number(b)
	switch {
	case aNum && bNum:
		return compareFloat(fa, fb)
	case aNum:
		return -1
	case bNum:
		return 1
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// vocabulary copies aggregation terms (the version-1 word wins) and turns
// the date conditions of user-friendly terms and date_terms into synonyms of
// the time phrases they mean ("mtd" → "month to date"); the planner renders
// those phrases in the executor's dialect. A condition it cannot read is
// noted: the LLM still reads it in the served column_mappings.
func (m *migration) vocabulary() {
	cm := m.old.ColumnMappings
	if len(cm.AggregationTerms) > 0 {
		if m.vocab().AggregationTerms == nil {
			m.vocab().AggregationTerms = map[string]string{}
		}
		for term, fn := range cm.AggregationTerms {
			m.vocab().AggregationTerms[normalize(term)] = fn
		}
	}
	conds := map[string]string{}
	for term, expr := range cm.DateTerms {
		conds[term] = expr
	}
	for term, expr := range cm.UserFriendlyTerms {
		if !isColumnRef(expr) {
			conds[term] = expr
		}
	}
	var unread []string
	for _, term := range slices.Sorted(maps.Keys(conds)) {
		phrase, ok := datePhrase(conds[term])
		switch {
		case !ok:
			unread = append(unread, fmt.Sprintf("%q", term))
		case normalize(term) != phrase:
			if m.vocab().Synonyms == nil {
				m.vocab().Synonyms = map[string]string{}
			}
			m.vocab().Synonyms[normalize(term)] = phrase
		}
	}
	if len(unread) > 0 {
		m.notes = append(m.notes, fmt.Sprintf("version-1 SQL conditions the offline planner does not read (the LLM reads them in column_mappings): %s",
			strings.Join(unread, ", ")))
	}
}

func (m *migration) vocab() *Vocabulary {
	if m.s.Vocabulary == nil {
		m.s.Vocabulary = &Vocabulary{}
	}
	return m.s.Vocabulary
}

// finish decides roles without a database and writes the source notes.
func (m *migration) finish() {
	if !m.fromDB {
		for _, tname := range slices.Sorted(maps.Keys(m.s.Tables)) {
			t := m.s.Tables[tname]
			m.nameRole(tname, t)
		}
	}
	if m.s.Source == nil {
		m.s.Source = &Source{}
	}
	n := len(m.old.ProductAliases)
	note := fmt.Sprintf("migrated from a version-1 product catalog: %d products became entities", n)
	if !m.fromDB {
		note += "; kinds and measure types were read from the names only (run talk2tables catalog migrate with --db to check them against the data)"
	}
	m.s.Source.Notes = append(m.s.Source.Notes, note)
	if len(m.skipped) > 0 {
		m.s.Source.Notes = append(m.s.Source.Notes, "skipped version-1 references the database does not have: "+strings.Join(m.skipped, ", "))
	}
	m.s.Source.Notes = append(m.s.Source.Notes, m.notes...)
}

// nameRole sets a table's role and key from its columns (no database).
func (m *migration) nameRole(name string, t *Table) {
	hasMeasure := false
	for _, c := range t.Columns {
		if c.Kind == KindMeasure {
			hasMeasure = true
		}
	}
	if t.Key == "" {
		single := Singular(strings.Join(IdentifierWords(name), "_"))
		for _, cname := range slices.Sorted(maps.Keys(t.Columns)) {
			ws := IdentifierWords(cname)
			if strings.Join(ws, "_") == single+"_id" || len(ws) == 1 && ws[0] == "id" {
				t.Key = cname
			}
		}
	}
	if len(t.Label) == 0 {
		for _, cname := range slices.Sorted(maps.Keys(t.Columns)) {
			if t.Columns[cname].Kind == KindLabel && names.Label(IdentifierWords(cname)) {
				t.Label = []string{cname}
				break
			}
		}
	}
	switch {
	case t.DateColumn != "" && hasMeasure:
		t.Role, t.Why = RoleFact, "has a date and measures (from the version-1 catalog's names)"
	case t.DateColumn != "" && len(t.Label) == 0:
		t.Role, t.Why = RoleFact, "has a date and no name column (from the version-1 catalog's names)"
	default:
		t.Role, t.Why = RoleDimension, "describes things the facts refer to (from the version-1 catalog's names)"
	}
}
