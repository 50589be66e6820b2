package draft

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"talk2tables/catalog"
)

// entities lists the named rows of every dimension table with a key and a
// label (keyed sets) and the values of every attribute column (value sets),
// each capped at MaxEntities with a note. A name two rows share would
// resolve ambiguously, so those rows are left out (and counted in a note).
func (d *drafter) entities(ctx context.Context) ([]*catalog.EntitySet, error) {
	perTable := map[*tableDraft][]*catalog.EntitySet{}
	var mu sync.Mutex
	err := d.forEachTable(ctx, func(ctx context.Context, t *tableDraft) {
		if t.view() {
			return
		}
		var sets []*catalog.EntitySet
		if t.out.Role == catalog.RoleDimension && len(t.out.Label) > 0 {
			if set := d.rowSet(ctx, t); set != nil {
				sets = append(sets, set)
			}
		}
		for _, c := range t.cols {
			if c.out.Kind == catalog.KindAttribute {
				if set := d.valueSet(ctx, t, c); set != nil {
					sets = append(sets, set)
				}
			}
		}
		mu.Lock()
		perTable[t] = sets
		mu.Unlock()
	})
	if err != nil {
		return nil, err
	}
	var out []*catalog.EntitySet
	for _, t := range d.tables {
		out = append(out, perTable[t]...)
	}
	return out, nil
}

// rowSet reads the named rows of a dimension table: key and label, by key.
// Without a single-column key the label's values become a value set.
func (d *drafter) rowSet(ctx context.Context, t *tableDraft) *catalog.EntitySet {
	if t.out.Key == "" {
		if len(t.out.Label) == 1 {
			return d.valueSet(ctx, t, t.byName[t.out.Label[0]])
		}
		return nil
	}
	sel := []string{d.q.quote(t.out.Key)}
	var notNull []string
	for _, l := range t.out.Label {
		sel = append(sel, d.q.quote(l))
		notNull = append(notNull, d.q.quote(l)+" IS NOT NULL")
	}
	max := d.opts.MaxEntities
	query := fmt.Sprintf("SELECT %s FROM %s WHERE %s ORDER BY %s LIMIT %d",
		strings.Join(sel, ", "), d.q.from(t.src), strings.Join(notNull, " OR "), d.q.quote(t.out.Key), max+1)
	res, err := d.query(ctx, query, max+1)
	if err != nil {
		d.notef(t.key, "%s: its named rows could not be read (%v): no entities", t.key, err)
		return nil
	}
	set := &catalog.EntitySet{Table: t.key, Key: t.out.Key, Columns: slices.Clone(t.out.Label), Values: []*catalog.Entity{}}
	rows := res.Rows
	capped := len(rows) > max
	if capped {
		rows = rows[:max]
	}
	byName := map[string][]*catalog.Entity{}
	for _, row := range rows {
		if len(row) != len(sel) || row[0] == nil {
			continue
		}
		var parts []string
		for _, v := range row[1:] {
			if v != nil {
				if s := strings.Join(strings.Fields(fmt.Sprint(v)), " "); s != "" {
					parts = append(parts, s)
				}
			}
		}
		name := strings.Join(parts, " ")
		if name == "" {
			continue
		}
		e := &catalog.Entity{Name: name, Key: entityKey(row[0])}
		byName[strings.ToLower(name)] = append(byName[strings.ToLower(name)], e)
		set.Values = append(set.Values, e)
	}
	shared, example := 0, ""
	set.Values = slices.DeleteFunc(set.Values, func(e *catalog.Entity) bool {
		if n := len(byName[strings.ToLower(e.Name)]); n > 1 {
			shared++
			if example == "" || e.Name < example {
				example = e.Name
			}
			return true
		}
		return false
	})
	for _, same := range byName {
		// past a cap, more rows may share the name: its keys are not all known
		if len(same) > 1 && !capped {
			sn := &catalog.SharedName{Name: same[0].Name}
			for _, e := range same {
				sn.Keys = append(sn.Keys, e.Key)
			}
			slices.SortFunc(sn.Keys, compareKeys)
			set.Shared = append(set.Shared, sn)
		}
	}
	slices.SortFunc(set.Shared, func(a, b *catalog.SharedName) int { return compareKeys(a.Keys[0], b.Keys[0]) })
	slices.SortStableFunc(set.Values, func(a, b *catalog.Entity) int { return compareKeys(a.Key, b.Key) })
	var notes []string
	if capped {
		total := "more"
		if t.rows() > 0 {
			total = fmt.Sprint(t.rows())
		}
		notes = append(notes, fmt.Sprintf("capped at %d of %s rows (the first by %s)", max, total, t.out.Key))
	}
	if shared > 0 {
		notes = append(notes, fmt.Sprintf("%s left out: another row has the same name (e.g. %q), so the name alone would be ambiguous", count(shared, "row"), example))
	}
	if len(notes) > 0 {
		set.Note = strings.Join(notes, "; ")
		d.notef(t.key, "entities of %s: %s", t.key, set.Note)
	}
	if len(set.Values) == 0 {
		return nil
	}
	return set
}

// valueSet reads the distinct values of one column, the most frequent first
// when there are more than MaxEntities, then sorted by name. On a table too
// big to group within the statement timeout it reads the sample instead.
func (d *drafter) valueSet(ctx context.Context, t *tableDraft, c *colDraft) *catalog.EntitySet {
	max := d.opts.MaxEntities
	q := d.q.quote(c.name())
	query := fmt.Sprintf("SELECT %s, COUNT(*) FROM %s WHERE %s IS NOT NULL GROUP BY %s ORDER BY COUNT(*) DESC, %s LIMIT %d",
		q, d.q.from(t.src), q, q, q, max+1)
	res, err := d.query(ctx, query, max+1)
	var notes []string
	if err != nil {
		query = fmt.Sprintf("SELECT %s, COUNT(*) FROM (SELECT %s FROM %s LIMIT %d) AS s WHERE %s IS NOT NULL GROUP BY %s ORDER BY COUNT(*) DESC, %s LIMIT %d",
			q, q, d.q.from(t.src), d.opts.SampleRows, q, q, q, max+1)
		if res, err = d.query(ctx, query, max+1); err != nil {
			d.notef(t.key, "%s.%s: its values could not be read (%v): no entities", t.key, c.name(), err)
			return nil
		}
		notes = append(notes, fmt.Sprintf("values of the first %d rows only (reading them all took too long)", d.opts.SampleRows))
	}
	set := &catalog.EntitySet{Table: t.key, Columns: []string{c.name()}, Values: []*catalog.Entity{}}
	rows := res.Rows
	if len(rows) > max {
		rows = rows[:max]
		notes = append(notes, fmt.Sprintf("capped at the %d most frequent values", max))
	}
	seen := map[string]bool{}
	merged := 0
	for _, row := range rows {
		if len(row) != 2 || row[0] == nil {
			continue
		}
		name := fmt.Sprint(row[0])
		if strings.TrimSpace(name) == "" {
			continue
		}
		if k := strings.ToLower(strings.TrimSpace(name)); seen[k] {
			merged++
			continue
		} else {
			seen[k] = true
		}
		set.Values = append(set.Values, &catalog.Entity{Name: name})
	}
	if merged > 0 {
		notes = append(notes, fmt.Sprintf("%s differing only in case or spaces left out (the most frequent spelling kept)", count(merged, "value")))
	}
	slices.SortFunc(set.Values, func(a, b *catalog.Entity) int { return strings.Compare(a.Name, b.Name) })
	if len(notes) > 0 {
		set.Note = strings.Join(notes, "; ")
		d.notef(t.key, "entities of %s.%s: %s", t.key, c.name(), set.Note)
	}
	if len(set.Values) == 0 {
		return nil
	}
	return set
}

// entityKey keeps a key as the number or text the database returned.
func entityKey(v any) any {
	switch x := v.(type) {
	case int64, string:
		return x
	case int:
		return int64(x)
	case float64:
		if x == float64(int64(x)) {
			return int64(x)
		}
		return x
	}
	return fmt.Sprint(v)
}

// compareKeys orders keys: numbers numerically, then text.
func compareKeys(a, b any) int {
	fa, aNum := a.(int64)
	fb, bNum := b.(int64)
	switch {
	case aNum && bNum:
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	case aNum:
		return -1
	case bNum:
		return 1
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}

// count writes "1 row", "2 rows".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
