package verified

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"talk2tables/sqlscan"
	"talk2tables/state"
)

// Substitution is one slot of a verified question filled with the asked
// question's value.
type Substitution struct {
	Kind   string `json:"kind"`
	Column string `json:"column,omitempty"`
	From   string `json:"from"` // as the verified question said it
	To     string `json:"to"`   // as the asked question says it
	// Value is what the SQL now holds (the stored value, the entity's key).
	Value string `json:"value"`
}

// fill is one slot's new content: SQL text per span.
type fill struct {
	slot  state.Slot
	texts []string // per span
}

// substitute writes the fills into sql, right to left so offsets hold.
func substitute(sql string, fills []fill) (string, error) {
	type edit struct {
		span state.Span
		text string
	}
	var edits []edit
	for _, f := range fills {
		for i, sp := range f.slot.Spans {
			if sp.Start < 0 || sp.End > len(sql) || sp.Start >= sp.End {
				return "", fmt.Errorf("slot %q: span %d..%d outside the SQL", f.slot.Phrase, sp.Start, sp.End)
			}
			edits = append(edits, edit{sp, f.texts[i]})
		}
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.span.Start - a.span.Start })
	for i := 1; i < len(edits); i++ {
		if edits[i].span.End > edits[i-1].span.Start {
			return "", fmt.Errorf("slots overlap in the SQL at byte %d", edits[i].span.Start)
		}
	}
	for _, e := range edits {
		sql = sql[:e.span.Start] + e.text + sql[e.span.End:]
	}
	return sql, nil
}

// quoteString writes v as a SQL string literal of dialect d; ok is false
// for a value that literal cannot hold safely (a control character, or a
// backslash where MySQL reads escapes).
func quoteString(d sqlscan.Dialect, v string) (string, bool) {
	for _, r := range v {
		if r < 0x20 || r == 0x7f {
			return "", false
		}
	}
	if d == sqlscan.MySQL && strings.Contains(v, `\`) {
		return "", false
	}
	return "'" + strings.ReplaceAll(v, "'", "''") + "'", true
}

// literalText is what sits at a span of sql.
func literalText(sql string, sp state.Span) string { return sql[sp.Start:sp.End] }

// shiftYears moves every literal of a year slot by delta years: 2025 →
// 2024, '2025-07-01' → '2024-07-01', '2026-01-01' (the range's end) →
// '2025-01-01'. A 29 February landing in a common year fails.
func shiftYears(d sqlscan.Dialect, sql string, s state.Slot, delta int) ([]string, error) {
	out := make([]string, len(s.Spans))
	for i, sp := range s.Spans {
		lit := literalText(sql, sp)
		if !strings.HasPrefix(lit, "'") {
			n, err := strconv.Atoi(lit)
			if err != nil {
				return nil, fmt.Errorf("year literal %s is not a whole number", lit)
			}
			out[i] = strconv.Itoa(n + delta)
			continue
		}
		v, ok := unquote(d, lit)
		if !ok || len(v) < 4 {
			return nil, fmt.Errorf("year literal %s is not a plain string", lit)
		}
		y, err := strconv.Atoi(v[:4])
		if err != nil {
			return nil, fmt.Errorf("year literal %s does not start with a year", lit)
		}
		nv := fmt.Sprintf("%04d", y+delta) + v[4:]
		if len(nv) >= 10 && isDateText(nv[:10]) {
			if _, err := time.Parse(time.DateOnly, nv[:10]); err != nil {
				return nil, fmt.Errorf("%s has no day %s", nv[:4], nv[5:10])
			}
		}
		q, _ := quoteString(d, nv)
		out[i] = q
	}
	return out, nil
}

// shiftDays moves every literal of a date slot by delta days.
func shiftDays(d sqlscan.Dialect, sql string, s state.Slot, delta int) ([]string, error) {
	out := make([]string, len(s.Spans))
	for i, sp := range s.Spans {
		v, ok := unquote(d, literalText(sql, sp))
		if !ok || len(v) < 10 {
			return nil, fmt.Errorf("date literal %s is not a plain string", literalText(sql, sp))
		}
		day, err := time.Parse(time.DateOnly, v[:10])
		if err != nil {
			return nil, err
		}
		q, _ := quoteString(d, day.AddDate(0, 0, delta).Format(time.DateOnly)+v[10:])
		out[i] = q
	}
	return out, nil
}

// numberText writes n in place of a number slot's literal (quoted when it
// was a string).
func numberText(d sqlscan.Dialect, sql string, s state.Slot, n string) []string {
	out := make([]string, len(s.Spans))
	for i, sp := range s.Spans {
		if strings.HasPrefix(literalText(sql, sp), "'") {
			out[i], _ = quoteString(d, n)
		} else {
			out[i] = n
		}
	}
	return out
}
