package builtin

import (
	"fmt"
	"strings"
	"time"
)

// timeWindow is a date filter with the {date_column} placeholder.
type timeWindow struct {
	phrase string
	expr   string
	column *column // explicit date column named in the question, if any
}

var monthNames = map[string]time.Month{
	"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
	"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
	"sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}

// relative windows, used when the metadata has no date term for the phrase.
var relativeExprs = map[string]string{
	"today":         "{date_column} = date('now')",
	"yesterday":     "{date_column} = date('now', '-1 day')",
	"this week":     "{date_column} >= date('now', '-6 days', 'weekday 1') AND {date_column} <= date('now')",
	"last week":     "{date_column} >= date('now', '-6 days', 'weekday 1', '-7 days') AND {date_column} < date('now', '-6 days', 'weekday 1')",
	"this month":    "{date_column} >= date('now', 'start of month') AND {date_column} < date('now', 'start of month', '+1 month')",
	"last month":    "{date_column} >= date('now', 'start of month', '-1 month') AND {date_column} < date('now', 'start of month')",
	"this quarter":  "{date_column} >= date('now', 'start of month', printf('-%d months', (CAST(strftime('%m', 'now') AS INTEGER) - 1) % 3)) AND {date_column} < date('now', 'start of month', printf('-%d months', (CAST(strftime('%m', 'now') AS INTEGER) - 1) % 3), '+3 months')",
	"last quarter":  "{date_column} >= date('now', 'start of month', printf('-%d months', (CAST(strftime('%m', 'now') AS INTEGER) - 1) % 3), '-3 months') AND {date_column} < date('now', 'start of month', printf('-%d months', (CAST(strftime('%m', 'now') AS INTEGER) - 1) % 3))",
	"this year":     "{date_column} >= date('now', 'start of year') AND {date_column} < date('now', 'start of year', '+1 year')",
	"last year":     "{date_column} >= date('now', 'start of year', '-1 year') AND {date_column} < date('now', 'start of year')",
	"year to date":  "{date_column} >= date('now', 'start of year') AND {date_column} <= date('now')",
	"month to date": "{date_column} >= date('now', 'start of month') AND {date_column} <= date('now')",
}

// period is a half-open date range [start, end).
type period struct {
	start, end time.Time
	yearless   bool
	month      time.Month
}

// matchTime recognises the common time forms at toks[i]; it returns the
// number of tokens used and the window, or 0.
func (m *model) matchTime(toks []token, i int, today time.Time) (int, *timeWindow) {
	t := toks[i].norm
	phrase := func(n int) string { return joinNorm(toks[i : i+n]) }
	rel := func(n int, canon string) (int, *timeWindow) {
		if e := m.dateTerm(canon); e != nil {
			return n, &timeWindow{phrase: phrase(n), expr: e.expr}
		}
		return n, &timeWindow{phrase: phrase(n), expr: relativeExprs[canon]}
	}
	next := func(k int) string {
		if i+k < len(toks) {
			return toks[i+k].norm
		}
		return ""
	}
	switch t {
	case "today":
		return rel(1, "today")
	case "yesterday":
		return rel(1, "yesterday")
	case "ytd":
		return rel(1, "year to date")
	case "mtd":
		return rel(1, "month to date")
	case "year", "month":
		if next(1) == "to" && next(2) == "date" {
			return rel(3, t+" to date")
		}
	case "this", "current":
		if u := unitWord(next(1)); u != "" {
			return rel(2, "this "+u)
		}
	case "last", "previous", "past", "prior":
		if u := unitWord(next(1)); u != "" {
			return rel(2, "last "+u)
		}
		if i+2 < len(toks) && toks[i+1].isNum && toks[i+1].num > 0 {
			n := toks[i+1].num
			switch stem(next(2)) {
			case "day":
				return 3, &timeWindow{phrase: phrase(3), expr: fmt.Sprintf("{date_column} >= date('now', '-%d days')", n)}
			case "week":
				return 3, &timeWindow{phrase: phrase(3), expr: fmt.Sprintf("{date_column} >= date('now', '-%d days')", 7*n)}
			case "month":
				return 3, &timeWindow{phrase: phrase(3), expr: fmt.Sprintf("{date_column} >= date('now', '-%d months')", n)}
			case "year":
				return 3, &timeWindow{phrase: phrase(3), expr: fmt.Sprintf("{date_column} >= date('now', '-%d years')", n)}
			}
		}
	case "since", "after", "before", "until":
		if n, p := parsePeriod(toks, i+1, today); n > 0 {
			resolveYear(&p, today)
			var expr string
			switch t {
			case "since":
				expr = fmt.Sprintf("{date_column} >= %s", quote(day(p.start)))
			case "after":
				expr = fmt.Sprintf("{date_column} >= %s", quote(day(p.end)))
			default:
				expr = fmt.Sprintf("{date_column} < %s", quote(day(p.start)))
			}
			return n + 1, &timeWindow{phrase: phrase(n + 1), expr: expr}
		}
	case "between", "from":
		n1, p1 := parsePeriod(toks, i+1, today)
		if n1 == 0 || i+1+n1 >= len(toks) {
			break
		}
		sep := toks[i+1+n1].norm
		if (t == "between" && sep != "and") || (t == "from" && sep != "to" && sep != "until" && sep != "through" && sep != "thru" && sep != "and") {
			break
		}
		n2, p2 := parsePeriod(toks, i+2+n1, today)
		if n2 == 0 {
			break
		}
		resolveYear(&p2, today)
		if p1.yearless {
			y := p2.start.Year()
			if p1.month > p2.start.Month() {
				y--
			}
			p1 = monthPeriod(y, p1.month)
		}
		if !p1.start.Before(p2.end) {
			break
		}
		n := n1 + n2 + 2
		return n, &timeWindow{phrase: phrase(n), expr: fmt.Sprintf("{date_column} >= %s AND {date_column} < %s", quote(day(p1.start)), quote(day(p2.end)))}
	}
	if n, p := parsePeriod(toks, i, today); n > 0 {
		resolveYear(&p, today)
		return n, &timeWindow{phrase: phrase(n), expr: fmt.Sprintf("{date_column} >= %s AND {date_column} < %s", quote(day(p.start)), quote(day(p.end)))}
	}
	return 0, nil
}

func (m *model) dateTerm(canon string) *entry {
	toks := phraseTokens(canon)
	for _, e := range m.lex[toks[0]] {
		if e.kind == entDate && strings.Join(e.toks, " ") == strings.Join(toks, " ") {
			return e
		}
	}
	return nil
}

func unitWord(w string) string {
	switch w {
	case "week", "month", "quarter", "year":
		return w
	}
	return ""
}

// parsePeriod reads an ISO date, "March [2026]", "2025" or "Q1 [2026]".
func parsePeriod(toks []token, i int, today time.Time) (int, period) {
	if i >= len(toks) {
		return 0, period{}
	}
	t := toks[i]
	year := func(k int) (int, bool) {
		if k < len(toks) && toks[k].isNum && toks[k].num >= 1900 && toks[k].num <= 2199 && len(toks[k].norm) == 4 {
			return toks[k].num, true
		}
		return 0, false
	}
	if t.iso {
		d, err := time.Parse("2006-01-02", t.norm)
		if err != nil {
			return 0, period{}
		}
		return 1, period{start: d, end: d.AddDate(0, 0, 1)}
	}
	if mo, ok := monthNames[t.norm]; ok {
		if t.norm == "may" || t.norm == "mar" || t.norm == "dec" || t.norm == "jan" {
			// ambiguous English words count as months only next to a year or date words
			if _, ok := year(i + 1); !ok && (i == 0 || !isDatePreposition(toks[i-1].norm)) {
				return 0, period{}
			}
		}
		if y, ok := year(i + 1); ok {
			return 2, monthPeriod(y, mo)
		}
		return 1, period{yearless: true, month: mo}
	}
	if y, ok := year(i); ok {
		return 1, period{start: time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), end: time.Date(y+1, 1, 1, 0, 0, 0, 0, time.UTC)}
	}
	if len(t.norm) == 2 && t.norm[0] == 'q' && t.norm[1] >= '1' && t.norm[1] <= '4' {
		q := int(t.norm[1] - '0')
		y, ok := year(i + 1)
		n := 2
		if !ok {
			y, n = today.Year(), 1
			if (q-1)*3+1 > int(today.Month()) {
				y--
			}
		}
		s := time.Date(y, time.Month((q-1)*3+1), 1, 0, 0, 0, 0, time.UTC)
		return n, period{start: s, end: s.AddDate(0, 3, 0)}
	}
	return 0, period{}
}

func isDatePreposition(w string) bool {
	switch w {
	case "in", "since", "during", "between", "from", "before", "after", "until", "to", "and", "through":
		return true
	}
	return false
}

func monthPeriod(y int, mo time.Month) period {
	s := time.Date(y, mo, 1, 0, 0, 0, 0, time.UTC)
	return period{start: s, end: s.AddDate(0, 1, 0), month: mo}
}

// resolveYear gives a month without a year its most recent occurrence.
func resolveYear(p *period, today time.Time) {
	if !p.yearless {
		return
	}
	y := today.Year()
	if p.month > today.Month() {
		y--
	}
	*p = monthPeriod(y, p.month)
}

func day(t time.Time) string { return t.Format("2006-01-02") }

func joinNorm(toks []token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.norm)
	}
	return b.String()
}
