package catalog

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"talk2tables/catalog/internal/names"
)

// What a version-1 catalog's column mappings mean beyond column words, for
// both conversions (Migrate for a file, FromV1Resources for served
// resources): date conditions written as SQL become the English time phrase
// the planner knows, so it renders them itself, in the executor's dialect;
// and the words "sales" and "revenue" alone name the one sales amount.

// isColumnRef reports whether a user-friendly term's value names a column
// ("table.column") rather than an SQL expression.
func isColumnRef(s string) bool { return columnRef.MatchString(strings.TrimSpace(s)) }

// Date conditions are read with their spaces removed, lowercased, and
// {date_column} written as @c: a comparison of the column (or of its day,
// month or year) with a bound, or two bounds joined by AND.
var (
	reNow     = regexp.MustCompile(`^(?:current_date|current_timestamp|localtimestamp|now\(\)|curdate\(\)|getdate\(\)|'now'|date\('now'\))$`)
	reTrunc   = regexp.MustCompile(`^date_trunc\('(day|week|month|quarter|year)',(.+)\)$`)
	reShift   = regexp.MustCompile(`^(.+?)([+-])interval'?(\d+)'?(day|week|month|quarter|year)s?'?$`)
	reSQLite  = regexp.MustCompile(`^date\('now'((?:,'[^']*')*)\)$`)
	reMod     = regexp.MustCompile(`'([^']*)'`)
	reModStep = regexp.MustCompile(`^([+-]?)(\d+)(day|month|year)s?$`)
	reCompare = regexp.MustCompile(`^(.+?)(>=|<=|=|<|>)(.+)$`)
)

// bound is a day relative to today: today moved n units, or (start) the
// first day of the unit's current period moved n units.
type bound struct {
	start bool
	unit  string
	n     int
}

// parseBound reads a date bound: CURRENT_DATE [± INTERVAL], DATE_TRUNC of
// it, or SQLite's date('now', modifiers…).
func parseBound(s string) (bound, bool) {
	s = strings.Replace(s, "strftime('%y-%m','now'", "date('now'", 1)
	s = strings.Replace(s, "strftime('%y','now'", "date('now'", 1)
	if reNow.MatchString(s) {
		return bound{unit: "day"}, true
	}
	if m := reSQLite.FindStringSubmatch(s); m != nil {
		b := bound{unit: "day"}
		for _, mod := range reMod.FindAllStringSubmatch(m[1], -1) {
			if u, ok := strings.CutPrefix(mod[1], "startof"); ok {
				if b.n != 0 || (u != "month" && u != "year" && u != "day") {
					return bound{}, false
				}
				b = bound{start: true, unit: u}
				continue
			}
			st := reModStep.FindStringSubmatch(mod[1])
			if st == nil || (b.n != 0 || b.start) && st[3] != b.unit {
				return bound{}, false
			}
			n, _ := strconv.Atoi(st[2])
			if st[1] == "-" {
				n = -n
			}
			b.unit, b.n = st[3], b.n+n
		}
		return b, true
	}
	if m := reTrunc.FindStringSubmatch(s); m != nil {
		in, ok := parseBound(m[2])
		if !ok || in.start || in.n != 0 && in.unit != m[1] {
			return bound{}, false
		}
		return bound{start: true, unit: m[1], n: in.n}, true
	}
	if m := reShift.FindStringSubmatch(s); m != nil {
		b, ok := parseBound(m[1])
		n, _ := strconv.Atoi(m[3])
		if m[2] == "-" {
			n = -n
		}
		if !ok || b.n != 0 || b.start && m[4] != b.unit {
			return bound{}, false
		}
		b.unit, b.n = m[4], n
		return b, true
	}
	return bound{}, false
}

// columnGrain reads the column side of a comparison: the date itself (day),
// or its month or year.
func columnGrain(s string) (string, bool) {
	switch s {
	case "@c", "date(@c)", "cast(@casdate)", "@c::date":
		return "day", true
	case "strftime('%y-%m',@c)":
		return "month", true
	case "strftime('%y',@c)", "year(@c)":
		return "year", true
	}
	if m := reTrunc.FindStringSubmatch(s); m != nil && m[2] == "@c" {
		return m[1], true
	}
	return "", false
}

// datePhrase reads a version-1 date condition over {date_column} — the
// PostgreSQL, SQLite and MySQL idioms for this or last day, month, quarter
// or year, for "month to date" and for "last 30 days" — and returns the
// time phrase that means the same; false for anything else.
func datePhrase(expr string) (string, bool) {
	s := strings.ToLower(strings.ReplaceAll(expr, DateColumnPlaceholder, "@c"))
	s = strings.Join(strings.Fields(s), "")
	s = strings.ReplaceAll(s, "year(curdate())", "strftime('%y','now')")
	parts := strings.Split(s, "and")
	if len(parts) > 2 {
		return "", false
	}
	type cmp struct {
		op string
		b  bound
	}
	var cmps []cmp
	for _, p := range parts {
		m := reCompare.FindStringSubmatch(p)
		if m == nil {
			return "", false
		}
		col, op, val := m[1], m[2], m[3]
		if !strings.Contains(col, "@c") && strings.Contains(val, "@c") { // the column on the right
			col, val = val, col
			op = map[string]string{">=": "<=", "<=": ">=", "<": ">", ">": "<", "=": "="}[op]
		}
		grain, ok := columnGrain(col)
		b, okb := parseBound(val)
		if !ok || !okb {
			return "", false
		}
		if op == "=" {
			if len(parts) != 1 || b.start && b.unit != grain || !b.start && b.n != 0 && b.unit != grain {
				return "", false
			}
			return periodPhrase(grain, -b.n)
		}
		if grain != "day" {
			return "", false
		}
		cmps = append(cmps, cmp{op, b})
	}
	lo := cmps[0]
	if lo.op != ">=" {
		return "", false
	}
	if len(cmps) == 1 {
		switch {
		case lo.b.start && lo.b.n == 0 && lo.b.unit == "day":
			return "today", true
		case lo.b.start && lo.b.n == 0:
			return lo.b.unit + " to date", true
		case !lo.b.start && lo.b.n < 0:
			n, unit := -lo.b.n, lo.b.unit
			if n != 1 {
				unit += "s"
			}
			return "last " + strconv.Itoa(n) + " " + unit, true
		}
		return "", false
	}
	hi := cmps[1]
	switch {
	case hi.op == "<" && lo.b.start && hi.b.start && lo.b.unit == hi.b.unit && hi.b.n == lo.b.n+1:
		return periodPhrase(lo.b.unit, -lo.b.n)
	case hi.op == "<=" && lo.b.start && lo.b.n == 0 && hi.b == bound{unit: "day"}:
		return lo.b.unit + " to date", true
	}
	return "", false
}

// periodPhrase names a calendar period: this one (back 0) or the one before
// (back 1); false for periods further back or ahead.
func periodPhrase(unit string, back int) (string, bool) {
	switch back {
	case 0:
		if unit == "day" {
			return "today", true
		}
		return "this " + unit, true
	case 1:
		if unit == "day" {
			return "yesterday", true
		}
		return "last " + unit, true
	}
	return "", false
}

// salesColumn returns the one column ("table.column") that user-friendly
// terms call a sales or revenue amount ("sales amount", "total revenue"),
// or "" when none or several do, or when "sales" or "revenue" alone is a
// term already. In business English these words alone mean that amount:
// "sales for X this month" sums it, as the design's walkthrough does.
func salesColumn(terms map[string]string) string {
	sales := names.SalesWords()
	ref := ""
	for _, term := range slices.Sorted(maps.Keys(terms)) {
		if slices.Contains(sales, normalize(term)) {
			return ""
		}
		v := strings.TrimSpace(terms[term])
		if !isColumnRef(v) || !slices.ContainsFunc(strings.Fields(normalize(term)), func(w string) bool { return slices.Contains(sales, w) }) {
			continue
		}
		if ref != "" && ref != v {
			return ""
		}
		ref = v
	}
	return ref
}
