package builtin

import (
	"strings"
	"time"
)

// dateRange is a closed-open range of days [start, end); a zero bound is
// open. Time phrases become literal ranges computed from today, so the SQL
// is the same on every dialect (docs/contracts.md §4).
type dateRange struct {
	start, end time.Time
	phrase     string
	yearless   bool // a month or quarter without a year: which one is not sure
}

// String says the range as dates a business user reads, inclusive.
func (r dateRange) String() string {
	switch {
	case r.start.IsZero():
		return "before " + day(r.end)
	case r.end.IsZero():
		return "from " + day(r.start) + " on"
	case r.end.Sub(r.start) == 24*time.Hour:
		return day(r.start)
	}
	return day(r.start) + " to " + day(r.end.AddDate(0, 0, -1))
}

func day(t time.Time) string { return t.Format("2006-01-02") }

var monthNames = map[string]time.Month{
	"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
	"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
	"sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}

// ambiguousMonths are also English words or abbreviations: months only next
// to a year or after a date preposition.
var ambiguousMonths = setOf("may", "mar", "dec", "jan", "jun", "jul", "aug", "sep", "oct", "nov", "feb", "apr", "sept")

var datePrepositions = setOf("in", "during", "since", "between", "from", "before", "after", "until", "till",
	"to", "and", "through", "thru", "of", "for", "year", "on", "by")

// period is a calendar period [start, end), or a month without a year.
type period struct {
	start, end    time.Time
	yearless      bool
	month         time.Month
	quarterNoYear bool
}

// matchTime recognises a time phrase at toks[i]: the number of tokens it
// spans and its range, or 0.
func matchTime(toks []token, i int, today time.Time) (int, *dateRange) {
	n, r := matchTimeAt(toks, i, today)
	if n == 0 {
		return 0, nil
	}
	r.phrase = joinWords(toks[i : i+n])
	return n, r
}

func matchTimeAt(toks []token, i int, today time.Time) (int, *dateRange) {
	if n, r := relativeTime(toks, i, today); n > 0 {
		return n, r
	}
	if n, r := boundedTime(toks, i, today); n > 0 {
		return n, r
	}
	if n, p := parsePeriod(toks, i, today, i > 0 && datePrepositions[toks[i-1].w] || i == 0); n > 0 {
		yearless := p.yearless || p.quarterNoYear
		resolveYear(&p, today)
		return n, &dateRange{start: p.start, end: p.end, yearless: yearless}
	}
	return 0, nil
}

// relativeTime reads today, yesterday, ytd, this/last month, last N days.
func relativeTime(toks []token, i int, today time.Time) (int, *dateRange) {
	w := toks[i].w
	next := func(k int) token {
		if i+k < len(toks) {
			return toks[i+k]
		}
		return token{}
	}
	tomorrow := today.AddDate(0, 0, 1)
	if k, ok := partOrdinals[w]; ok && next(2).w == "of" {
		if months := partMonths[next(1).s]; months > 0 {
			// "the final quarter of 2019", "the first month of 2013": a part
			// of the period named after it, not a period before today
			n, p := parsePeriod(toks, i+3, today, true)
			if n == 0 {
				return 0, nil
			}
			resolveYear(&p, today)
			s := p.start.AddDate(0, (k-1)*months, 0)
			if k < 0 {
				s = p.end.AddDate(0, -months, 0)
			}
			e := s.AddDate(0, months, 0)
			if s.Before(p.start) || e.After(p.end) {
				return 0, nil
			}
			return 3 + n, &dateRange{start: s, end: e}
		}
	}
	switch w {
	case "today":
		return 1, &dateRange{start: today, end: tomorrow}
	case "yesterday":
		return 1, &dateRange{start: today.AddDate(0, 0, -1), end: today}
	case "ytd":
		return 1, &dateRange{start: startOf("year", today), end: tomorrow}
	case "mtd":
		return 1, &dateRange{start: startOf("month", today), end: tomorrow}
	case "qtd":
		return 1, &dateRange{start: startOf("quarter", today), end: tomorrow}
	case "year", "month", "quarter", "week":
		if next(1).w == "to" && next(2).w == "date" {
			return 3, &dateRange{start: startOf(w, today), end: tomorrow}
		}
	case "this", "current":
		if u := unitOf(next(1).s); u != "" && u != "day" {
			s := startOf(u, today)
			return 2, &dateRange{start: s, end: add(u, s, 1)}
		}
	case "last", "previous", "prior", "past", "preceding":
		if u := unitOf(next(1).s); u != "" && next(1).s == next(1).w {
			if w == "past" {
				return 2, rolling(u, 1, today)
			}
			if u == "day" {
				return 2, &dateRange{start: today.AddDate(0, 0, -1), end: today}
			}
			s := add(u, startOf(u, today), -1)
			return 2, &dateRange{start: s, end: add(u, s, 1)}
		}
		if nt := next(1); nt.isNum && nt.isInt && nt.num >= 1 && nt.num <= 3660 {
			if u := unitOf(next(2).s); u != "" {
				return 3, rolling(u, int(nt.num), today)
			}
		}
	}
	return 0, nil
}

// partOrdinals say which part of a period: the first, ..., the last.
var partOrdinals = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1, "final": -1}

// partMonths are the parts of a year a period is cut into, in months.
var partMonths = map[string]int{"month": 1, "quarter": 3, "half": 6}

// boundedTime reads since/after/before/until a period, and between/from …
// and/to ….
func boundedTime(toks []token, i int, today time.Time) (int, *dateRange) {
	w := toks[i].w
	switch w {
	case "since", "after", "from":
		n, p := parsePeriod(toks, i+1, today, true)
		if n == 0 {
			return 0, nil
		}
		if w == "from" {
			return fromTo(toks, i, n, p, today)
		}
		yearless := p.yearless || p.quarterNoYear
		resolveYear(&p, today)
		s := p.start
		if w == "after" {
			s = p.end
		}
		return n + 1, &dateRange{start: s, yearless: yearless}
	case "before", "until", "till":
		n, p := parsePeriod(toks, i+1, today, true)
		if n == 0 {
			return 0, nil
		}
		yearless := p.yearless || p.quarterNoYear
		resolveYear(&p, today)
		e := p.start
		if w != "before" {
			e = p.end
		}
		return n + 1, &dateRange{end: e, yearless: yearless}
	case "between":
		if n, p := parsePeriod(toks, i+1, today, true); n > 0 {
			return fromTo(toks, i, n, p, today)
		}
	}
	return 0, nil
}

// fromTo reads "between P1 and P2" / "from P1 to P2" with P1 read at
// toks[i+1:i+1+n1].
func fromTo(toks []token, i, n1 int, p1 period, today time.Time) (int, *dateRange) {
	j := i + 1 + n1
	if j >= len(toks) {
		return 0, nil
	}
	switch toks[j].w {
	case "and", "to", "until", "till", "through", "thru":
	default:
		return 0, nil
	}
	n2, p2 := parsePeriod(toks, j+1, today, true)
	if n2 == 0 {
		return 0, nil
	}
	yearless := p2.yearless || p2.quarterNoYear || p1.quarterNoYear
	resolveYear(&p2, today)
	if p1.yearless {
		y := p2.start.Year()
		if p1.month > p2.start.Month() {
			y--
		}
		p1 = monthPeriod(y, p1.month)
	}
	if !p1.start.Before(p2.end) {
		return 0, nil
	}
	return n1 + n2 + 2, &dateRange{start: p1.start, end: p2.end, yearless: yearless}
}

func unitOf(s string) string {
	switch s {
	case "day", "week", "month", "quarter", "year":
		return s
	}
	return ""
}

// rolling is the n units ending today: "last 7 days" is [today-6, today].
func rolling(unit string, n int, today time.Time) *dateRange {
	end := today.AddDate(0, 0, 1)
	var start time.Time
	switch unit {
	case "day":
		start = today.AddDate(0, 0, -(n - 1))
	case "week":
		start = today.AddDate(0, 0, -(7*n - 1))
	case "month":
		start = today.AddDate(0, -n, 1)
	case "quarter":
		start = today.AddDate(0, -3*n, 1)
	case "year":
		start = today.AddDate(-n, 0, 1)
	}
	return &dateRange{start: start, end: end}
}

// startOf is the first day of the period holding t (weeks start on Monday).
func startOf(unit string, t time.Time) time.Time {
	switch unit {
	case "week":
		wd := (int(t.Weekday()) + 6) % 7
		return t.AddDate(0, 0, -wd)
	case "month":
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	case "quarter":
		return time.Date(t.Year(), time.Month((int(t.Month())-1)/3*3+1), 1, 0, 0, 0, 0, time.UTC)
	case "year":
		return time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return t
}

func add(unit string, t time.Time, n int) time.Time {
	switch unit {
	case "day":
		return t.AddDate(0, 0, n)
	case "week":
		return t.AddDate(0, 0, 7*n)
	case "month":
		return t.AddDate(0, n, 0)
	case "quarter":
		return t.AddDate(0, 3*n, 0)
	}
	return t.AddDate(n, 0, 0)
}

// parsePeriod reads an ISO date, "March 2026", "March" (when dated),
// "2025" (when dated) or "Q3 [2025]" at toks[i]. dated says a date
// preposition precedes, so a bare year or month may be read.
func parsePeriod(toks []token, i int, today time.Time, dated bool) (int, period) {
	if i >= len(toks) {
		return 0, period{}
	}
	t := toks[i]
	year := func(k int) (int, bool) {
		if k < len(toks) && toks[k].isNum && toks[k].isInt && len(toks[k].w) == 4 && toks[k].num >= 1900 && toks[k].num <= 2199 {
			return int(toks[k].num), true
		}
		return 0, false
	}
	if t.iso {
		d, err := time.Parse("2006-01-02", t.w)
		if err != nil {
			return 0, period{}
		}
		return 1, period{start: d, end: d.AddDate(0, 0, 1)}
	}
	dayOf := func(k int) (int, bool) {
		if k < len(toks) && toks[k].isNum && toks[k].isInt && toks[k].num >= 1 && toks[k].num <= 31 {
			return int(toks[k].num), true
		}
		return 0, false
	}
	calendarDay := func(y int, mo time.Month, d int) (period, bool) {
		s := time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)
		return period{start: s, end: s.AddDate(0, 0, 1)}, s.Day() == d
	}
	if d, ok := dayOf(i); ok && i+1 < len(toks) {
		// "7 July 2024": one day
		if mo, ok := monthNames[toks[i+1].w]; ok {
			if y, ok := year(i + 2); ok {
				if p, ok := calendarDay(y, mo, d); ok {
					return 3, p
				}
			}
		}
	}
	if mo, ok := monthNames[t.w]; ok {
		if d, ok := dayOf(i + 1); ok {
			// "July 7 2024", "July 7, 2024": one day
			if y, ok := year(i + 2); ok {
				if p, ok := calendarDay(y, mo, d); ok {
					return 3, p
				}
			}
		}
		y, hasYear := year(i + 1)
		if ambiguousMonths[t.w] && !hasYear && !dated {
			return 0, period{}
		}
		if hasYear {
			return 2, monthPeriod(y, mo)
		}
		return 1, period{yearless: true, month: mo}
	}
	if y, ok := year(i); ok && dated {
		return 1, period{start: time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), end: time.Date(y+1, 1, 1, 0, 0, 0, 0, time.UTC)}
	}
	if y, ok := decade(t.w); ok {
		// "the 1960s": ten years
		return 1, period{start: time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), end: time.Date(y+10, 1, 1, 0, 0, 0, 0, time.UTC)}
	}
	if len(t.w) == 2 && t.w[0] == 'q' && t.w[1] >= '1' && t.w[1] <= '4' {
		q := int(t.w[1] - '0')
		y, ok := year(i + 1)
		n := 2
		if !ok {
			y, n = today.Year(), 1
			if (q-1)*3+1 > int(today.Month()) {
				y--
			}
		}
		s := time.Date(y, time.Month((q-1)*3+1), 1, 0, 0, 0, 0, time.UTC)
		return n, period{start: s, end: s.AddDate(0, 3, 0), quarterNoYear: !ok}
	}
	return 0, period{}
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

func joinWords(toks []token) string {
	var b []byte
	for i, t := range toks {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, t.text...)
	}
	return string(b)
}

// grainLabel names a grain for explanations.
func grainLabel(g string) string {
	switch g {
	case "day":
		return "day"
	case "week":
		return "week (starting Monday)"
	}
	return g
}

// decade reads "1960s" (and "1960's"): the decade's first year.
func decade(w string) (int, bool) {
	if !strings.HasSuffix(w, "s") {
		return 0, false
	}
	w = strings.TrimSuffix(strings.TrimSuffix(w, "s"), "'")
	if len(w) != 4 || w[3] != '0' {
		return 0, false
	}
	y := 0
	for _, r := range w {
		if r < '0' || r > '9' {
			return 0, false
		}
		y = y*10 + int(r-'0')
	}
	return y, y >= 1800 && y <= 2190
}
