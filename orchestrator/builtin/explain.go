package builtin

import (
	"fmt"
	"strings"
)

// explainer is unused state kept for symmetry with the other steps.
type explainer struct{}

// explanation says in plain English what the SQL computes.
func (b *binder) explanation(p *plan) string {
	var parts []string
	switch p.kind {
	case pAggregate:
		var ms []string
		for _, bm := range b.measures {
			ms = append(ms, b.describeMeasure(bm))
		}
		s := "Computes " + strings.Join(ms, " and ")
		if gs := b.describeGroups(); gs != "" {
			s += " per " + gs
		}
		parts = append(parts, s)
		if p.countGroups {
			parts[0] = "Counts the " + b.describeGroups() + " rows whose " + strings.Join(ms, " and ") + " passes the comparison"
		}
	case pList:
		s := "Lists rows of " + p.root.name
		if len(b.listCols) > 0 {
			s += " (" + colNames(b.listCols) + ")"
		}
		parts = append(parts, s)
	case pDistinct:
		parts = append(parts, "Lists the distinct values of "+b.listCols[0].ref())
	case pLookup:
		var names []string
		for _, e := range b.lookup.ents {
			names = append(names, e.name)
		}
		parts = append(parts, fmt.Sprintf("Shows %s of %s %s", colNames(b.listCols), p.root.name, strings.Join(names, ", ")))
	}
	for _, f := range b.filters {
		parts = append(parts, describeFilter(f))
	}
	for _, c := range b.cmps {
		what := ""
		if c.col != nil {
			what = c.col.ref()
		} else {
			what = c.measure.phrase
		}
		parts = append(parts, fmt.Sprintf("keeping those where %s is %s", what, describeCmp(c.req.sp)))
	}
	if b.q.rng != nil && b.timeCol != nil {
		parts = append(parts, fmt.Sprintf("dated %s (%s)", b.q.rng.String(), b.timeCol.ref()))
	}
	if r := b.q.rank; r != nil {
		dir := "highest first"
		if len(p.order) > 0 && !p.order[0].desc {
			dir = "lowest first"
		}
		if r.recency {
			dir = "newest first"
			if r.dir < 0 {
				dir = "oldest first"
			}
		}
		s := "ordered " + dir
		if p.limit > 0 {
			s += fmt.Sprintf(", the first %d", p.limit)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ") + "."
}

func (b *binder) describeMeasure(bm *boundMeasure) string {
	switch {
	case bm.countT != nil:
		return fmt.Sprintf("the number of %s rows", bm.countT.name)
	case bm.distinct != nil:
		return "the number of distinct " + bm.distinct.ref()
	case bm.d != nil && bm.d.formula != "":
		return fmt.Sprintf("%s (%s)", bm.d.name, bm.d.formula)
	case bm.d != nil:
		return fmt.Sprintf("the %s of %s (%s over %s rows)", fnWord(bm.fn), bm.d.name, bm.d.expr, bm.d.t.name)
	}
	return fmt.Sprintf("the %s of %s", fnWord(bm.fn), bm.col.ref())
}

func (b *binder) describeGroups() string {
	var gs []string
	for _, g := range b.groups {
		switch {
		case g.grain != "":
			gs = append(gs, grainLabel(g.grain)+" of "+g.col.ref())
		case g.col != nil:
			gs = append(gs, g.col.ref())
		default:
			s := g.ent.name
			if g.ent.key != nil {
				s += " (by " + g.ent.key.name
				if len(g.ent.label) > 0 {
					s += ", shown with " + colNames(g.ent.label)
				}
				s += ")"
			}
			gs = append(gs, s)
		}
	}
	return strings.Join(gs, " and ")
}

func colNames(cs []*column) string {
	var names []string
	for _, c := range cs {
		names = append(names, c.ref())
	}
	return strings.Join(names, ", ")
}

func describeFilter(f *boundFilter) string {
	if f.has && f.neg {
		return fmt.Sprintf("where %s is empty", f.col.ref())
	}
	if f.has {
		return fmt.Sprintf("where %s is filled in", f.col.ref())
	}
	if f.flag {
		return fmt.Sprintf("where %s is %v", f.col.ref(), !f.neg)
	}
	var vals []string
	for _, e := range f.ents {
		vals = append(vals, fmt.Sprintf("%s (%s %s)", e.name, f.t.name, e.keyText()))
	}
	for _, v := range f.values {
		vals = append(vals, "'"+v+"'")
	}
	if f.neg {
		return fmt.Sprintf("excluding %s %s", f.col.ref(), strings.Join(vals, ", "))
	}
	if len(f.ents) > 0 {
		return "for " + strings.Join(vals, ", ")
	}
	return fmt.Sprintf("where %s is %s", f.col.ref(), strings.Join(vals, " or "))
}

func describeCmp(sp *span) string {
	switch sp.op {
	case "between":
		return fmt.Sprintf("between %s and %s", num(sp.a), num(sp.b))
	case ">":
		return "over " + num(sp.a)
	case ">=":
		return "at least " + num(sp.a)
	case "<":
		return "under " + num(sp.a)
	case "<=":
		return "at most " + num(sp.a)
	}
	return "equal to " + num(sp.a)
}

// assumptions say what the answer took for granted, in words a business
// user reads: the dates, the date column, names resolved, defaults.
func (b *binder) assumptions() []string {
	var out []string
	if b.q.rng != nil && b.timeCol != nil {
		out = append(out, fmt.Sprintf("dates %s ('%s'), on %s", b.q.rng.String(), b.q.timeSpan.text, b.timeCol.ref()))
	}
	seen := map[string]bool{}
	for _, a := range b.assume {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	if !b.m.catalog && !b.m.v1 {
		out = append(out, "no semantic catalog: words were matched to table and column names only, and which numbers may be added up was guessed from their names")
	}
	return out
}
