package draft

import (
	"fmt"
	"slices"
	"strings"

	"talk2tables/catalog"
	"talk2tables/schema"
)

// tableDraft is one table (or view) while it is drafted.
type tableDraft struct {
	src      *schema.Table
	key      string // catalog key: the name, or "schema.table"
	prof     *tableProfile
	cols     []*colDraft // schema order
	byName   map[string]*colDraft
	fksOut   []*tableDraft // tables this one references (one per foreign key)
	refIn    int           // foreign keys of other tables pointing here
	pkCols   []string
	out      *catalog.Table
	measures map[string]*catalog.Measure
	why      []string // reasons for role, key, label and date column
}

// colDraft is one column while it is drafted.
type colDraft struct {
	t    *tableDraft
	src  schema.Column
	tc   typeClass
	prof *profile
	toks []string
	ref  string // "table.column" a single-column foreign key points to
	out  *catalog.Column
}

func (c *colDraft) name() string { return c.src.Name }

// view reports whether the table is a view.
func (t *tableDraft) view() bool { return t.src.View() }

// rows is the table's row count (-1 when unknown, e.g. a view).
func (t *tableDraft) rows() int64 { return t.src.RowCount }

// singular is the table's name as one thing: "order lines" → "order line".
func (t *tableDraft) singular() string {
	ws := catalog.IdentifierWords(t.key)
	if len(ws) == 0 {
		return ""
	}
	ws[len(ws)-1] = catalog.Singular(ws[len(ws)-1])
	return strings.Join(ws, " ")
}

// collect builds the drafts from the schema: catalog keys, columns, primary
// keys and the foreign-key graph.
func (d *drafter) collect() {
	d.byKey = map[string]*tableDraft{}
	for i := range d.schema.Tables {
		st := &d.schema.Tables[i]
		key := st.QualifiedName()
		t := &tableDraft{src: st, key: key, byName: map[string]*colDraft{}, measures: map[string]*catalog.Measure{}}
		for _, c := range st.Columns {
			if strings.TrimSpace(c.Name) == "" {
				d.notef(key, "%s has a column without a name: left out of the catalog (rename it to describe it)", key)
				continue
			}
			cd := &colDraft{t: t, src: c, tc: classifyType(c.Type), toks: catalog.IdentifierWords(c.Name), out: &catalog.Column{}}
			t.cols = append(t.cols, cd)
			t.byName[c.Name] = cd
			if c.PrimaryKey {
				t.pkCols = append(t.pkCols, c.Name)
			}
		}
		d.tables = append(d.tables, t)
		d.byKey[key] = t
	}
	slices.SortFunc(d.tables, func(a, b *tableDraft) int { return strings.Compare(a.key, b.key) })
	for _, t := range d.tables {
		for _, fk := range t.src.ForeignKeys {
			target := d.lookup(t, fk.ReferencesTable)
			if target == nil {
				d.notef(t.key, "%s.%s: its foreign key to %s names a table the schema does not list; left without references", t.key, fk.Column, fk.ReferencesTable)
				continue
			}
			t.fksOut = append(t.fksOut, target)
			target.refIn++
			from := strings.Split(fk.Column, ",")
			to := strings.Split(fk.ReferencesColumn, ",")
			for i, col := range from {
				c := t.byName[strings.TrimSpace(col)]
				if c == nil || i >= len(to) || target.byName[strings.TrimSpace(to[i])] == nil || c.ref != "" {
					continue
				}
				c.ref = target.key + "." + strings.TrimSpace(to[i])
			}
		}
	}
	var tables, columns []string
	for _, t := range d.tables {
		tables = append(tables, t.src.Name)
		for _, c := range t.cols {
			columns = append(columns, c.name())
		}
	}
	d.seg = catalog.NewSegmenter(tables, columns)
	for _, t := range d.tables {
		for _, c := range t.cols {
			hint := catalog.SegmentPlain
			if c.src.PrimaryKey || c.ref != "" {
				hint = catalog.SegmentKey
			}
			c.toks = d.seg.Words(c.name(), hint)
		}
	}
}

// lookup finds a referenced table by catalog key, then by name in the
// referencing table's schema, then by name.
func (d *drafter) lookup(from *tableDraft, name string) *tableDraft {
	if t := d.byKey[name]; t != nil {
		return t
	}
	if from.src.Schema != "" {
		if t := d.byKey[from.src.Schema+"."+name]; t != nil {
			return t
		}
	}
	for _, t := range d.tables {
		if t.src.Name == name {
			return t
		}
	}
	return nil
}

// sampleNote describes how much of a table the statistics saw.
func (t *tableDraft) sampleNote() string {
	if t.prof == nil || !t.prof.ok {
		return ""
	}
	if t.rows() >= 0 && t.prof.sampled >= t.rows() {
		return ""
	}
	return fmt.Sprintf(" in the first %d rows", t.prof.sampled)
}
