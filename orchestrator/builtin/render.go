package builtin

import (
	"fmt"
	"strconv"
	"strings"
)

// render writes the SQL and the plain-English explanation of a query.
func (m *model) render(q *query) (string, string, error) {
	// joins: union of the shortest paths from the base to every needed table
	var joins []*edge
	inJoin := map[*table]bool{q.base: true}
	fanOut := false
	for _, t := range m.neededTables(q) {
		p := m.path(q.base, t)
		if p == nil {
			return "", "", decline("%s is not related to %s through foreign keys", t.name, q.base.name)
		}
		for _, e := range p {
			if inJoin[e.other] {
				continue
			}
			inJoin[e.other] = true
			joins = append(joins, e)
			if !e.manyToOne {
				fanOut = true
			}
		}
	}
	var sel, group, order []string
	var expl strings.Builder
	dimAlias := map[string]int{}
	for _, d := range q.dims {
		dimAlias[d.alias]++
	}
	dimExprs := make([]string, len(q.dims))
	for i, d := range q.dims {
		expr := d.col.qualified()
		switch d.grain {
		case "day":
			expr = fmt.Sprintf("strftime('%%Y-%%m-%%d', %s)", d.col.qualified())
		case "week":
			expr = fmt.Sprintf("strftime('%%Y-W%%W', %s)", d.col.qualified())
		case "month":
			expr = fmt.Sprintf("strftime('%%Y-%%m', %s)", d.col.qualified())
		case "quarter":
			expr = fmt.Sprintf("strftime('%%Y', %s) || '-Q' || ((CAST(strftime('%%m', %s) AS INTEGER) + 2) / 3)", d.col.qualified(), d.col.qualified())
		case "year":
			expr = fmt.Sprintf("strftime('%%Y', %s)", d.col.qualified())
		}
		alias := d.alias
		if dimAlias[alias] > 1 {
			alias = d.col.table.name + "_" + alias
		}
		d.alias = aliasWord(alias)
		dimExprs[i] = expr
		sel = append(sel, expr+" AS "+ident(d.alias))
		group = append(group, expr)
	}
	if q.distinctList {
		c := q.listCols[0]
		sql := fmt.Sprintf("SELECT DISTINCT %s AS %s FROM %s ORDER BY %s LIMIT %d", c.qualified(), ident(c.name), ident(c.table.name), c.qualified(), q.limit)
		return sql, fmt.Sprintf("Lists the distinct values of %s.", c.ref()), nil
	}
	if q.listing {
		if fanOut {
			sel = append(sel[:0], "DISTINCT "+q.listCols[0].qualified()+" AS "+ident(q.listCols[0].name))
			for _, c := range q.listCols[1:] {
				sel = append(sel, c.qualified()+" AS "+ident(c.name))
			}
		} else {
			sel = sel[:0]
			for _, c := range q.listCols {
				sel = append(sel, c.qualified()+" AS "+ident(c.name))
			}
		}
		fmt.Fprintf(&expl, "Lists %s", q.base.name)
	} else {
		for i, ms := range q.measures {
			var expr string
			switch {
			case ms.star:
				if len(joins) > 0 {
					if q.base.pk == nil {
						return "", "", decline("%s has no primary key to count through joins", q.base.name)
					}
					expr = "COUNT(DISTINCT " + q.base.pk.qualified() + ")"
				} else {
					expr = "COUNT(*)"
				}
			case ms.distinct:
				expr = "COUNT(DISTINCT " + ms.col.qualified() + ")"
			default:
				if fanOut && (ms.fn == "SUM" || ms.fn == "AVG") {
					return "", "", decline("the %s of %s would be counted several times through the joins", strings.ToLower(ms.fn), ms.col.ref())
				}
				expr = ms.fn + "(" + ms.col.qualified() + ")"
				if (ms.fn == "SUM" || ms.fn == "AVG") && !strings.Contains(ms.col.typ, "INT") {
					// Sums are amounts: cents. Averages keep four decimals, so
					// an average of small fractions (discounts of 0..0.2)
					// keeps its meaning: 0.0445, not 0.04.
					digits := 2
					if ms.fn == "AVG" {
						digits = 4
					}
					expr = fmt.Sprintf("ROUND(%s, %d)", expr, digits)
				}
			}
			sel = append(sel, expr+" AS "+ident(ms.alias))
			if i > 0 {
				expl.WriteString("; ")
			}
			expl.WriteString(describeMeasure(ms, q.base))
		}
	}
	var b strings.Builder
	b.WriteString("SELECT ")
	b.WriteString(strings.Join(sel, ", "))
	b.WriteString(" FROM ")
	b.WriteString(ident(q.base.name))
	var joined []string
	for _, e := range joins {
		fmt.Fprintf(&b, " JOIN %s ON %s = %s", ident(e.other.name), e.to.qualified(), e.from.qualified())
		joined = append(joined, e.other.name)
	}
	var where, whereText []string
	for _, f := range q.filters {
		where = append(where, f.sql())
		whereText = append(whereText, f.text())
	}
	if q.window != nil {
		where = append(where, "("+strings.ReplaceAll(q.window.expr, "{date_column}", q.dateCol.qualified())+")")
		whereText = append(whereText, fmt.Sprintf("%s is in %q", q.dateCol.ref(), q.window.phrase))
	}
	if len(where) > 0 {
		b.WriteString(" WHERE ")
		b.WriteString(strings.Join(where, " AND "))
	}
	if len(group) > 0 && !q.listing {
		b.WriteString(" GROUP BY ")
		b.WriteString(strings.Join(group, ", "))
	}
	switch {
	case q.listing:
		if q.recency != 0 {
			dir := " DESC"
			if q.recency < 0 {
				dir = " ASC"
			}
			order = append(order, q.base.dateCol.qualified()+dir)
			if q.base.pk != nil {
				order = append(order, q.base.pk.qualified()+dir)
			}
		} else if q.base.pk != nil {
			order = append(order, q.base.pk.qualified())
		} else if q.base.nameCol != nil {
			order = append(order, q.base.nameCol.qualified())
		}
	case q.rankDir != 0:
		dir := " DESC"
		if q.rankDir < 0 {
			dir = " ASC"
		}
		order = append(order, ident(q.measures[0].alias)+dir)
		for _, d := range q.dims {
			order = append(order, ident(d.alias))
		}
	case len(q.dims) > 0:
		grained := false
		for _, d := range q.dims {
			if d.grain != "" {
				grained = true
			}
		}
		if grained {
			for _, d := range q.dims {
				order = append(order, ident(d.alias))
			}
		} else {
			order = append(order, ident(q.measures[0].alias)+" DESC")
			for _, d := range q.dims {
				order = append(order, ident(d.alias))
			}
		}
	}
	if len(order) > 0 {
		b.WriteString(" ORDER BY ")
		b.WriteString(strings.Join(order, ", "))
	}
	if q.limit > 0 {
		b.WriteString(" LIMIT ")
		b.WriteString(strconv.Itoa(q.limit))
	}

	if len(joined) > 0 {
		fmt.Fprintf(&expl, ", joining %s through foreign keys", strings.Join(joined, ", "))
	}
	if len(whereText) > 0 {
		fmt.Fprintf(&expl, ", where %s", strings.Join(whereText, " and "))
	}
	if len(q.dims) > 0 && !q.listing {
		var ds []string
		for _, d := range q.dims {
			if d.grain != "" {
				ds = append(ds, d.grain+" of "+d.col.ref())
			} else {
				ds = append(ds, d.col.ref())
			}
		}
		fmt.Fprintf(&expl, ", grouped by %s", strings.Join(ds, ", "))
	}
	switch {
	case q.rankDir > 0:
		fmt.Fprintf(&expl, ", highest first, keeping the top %d", q.limit)
	case q.rankDir < 0:
		fmt.Fprintf(&expl, ", lowest first, keeping the bottom %d", q.limit)
	case q.listing && q.recency > 0:
		fmt.Fprintf(&expl, ", most recent first (by %s), at most %d rows", q.base.dateCol.ref(), q.limit)
	case q.listing && q.recency < 0:
		fmt.Fprintf(&expl, ", oldest first (by %s), at most %d rows", q.base.dateCol.ref(), q.limit)
	case q.listing:
		fmt.Fprintf(&expl, ", at most %d rows", q.limit)
	}
	expl.WriteString(".")
	if len(q.notes) > 0 {
		expl.WriteString(" Note: ")
		expl.WriteString(strings.Join(q.notes, "; "))
		expl.WriteString(".")
	}
	return b.String(), expl.String(), nil
}

func describeMeasure(ms *measure, base *table) string {
	switch {
	case ms.star:
		return fmt.Sprintf("Counts %s", base.name)
	case ms.distinct:
		return fmt.Sprintf("Counts distinct %s (%q)", ms.col.ref(), ms.phrase)
	}
	word := map[string]string{"SUM": "total", "AVG": "average", "MAX": "highest", "MIN": "lowest"}[ms.fn]
	return fmt.Sprintf("Computes the %s of %s (%q) from %s", word, ms.col.ref(), ms.phrase, base.name)
}

func (f *filter) literal(v string) string {
	if f.quote {
		return quote(v)
	}
	if _, err := strconv.ParseFloat(v, 64); err != nil {
		return quote(v)
	}
	return v
}

func (f *filter) sql() string {
	c := f.col.qualified()
	if len(f.values) == 1 {
		op := " = "
		if f.neg {
			op = " <> "
		}
		return c + op + f.literal(f.values[0])
	}
	lits := make([]string, len(f.values))
	for i, v := range f.values {
		lits[i] = f.literal(v)
	}
	op := " IN ("
	if f.neg {
		op = " NOT IN ("
	}
	return c + op + strings.Join(lits, ", ") + ")"
}

func (f *filter) text() string {
	vals := strings.Join(f.values, ", ")
	if strings.HasPrefix(f.what, "product ") {
		if f.neg {
			return "excluding " + f.what
		}
		return f.what + " (" + f.col.ref() + " " + vals + ")"
	}
	if f.neg {
		return fmt.Sprintf("%s is not %s", f.col.ref(), vals)
	}
	return fmt.Sprintf("%s is %s", f.col.ref(), vals)
}
