package filetables

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// kind is an inferred column type.
type kind int

const (
	kindNone     kind = iota // no value seen yet
	kindInteger              // whole numbers without leading zeros
	kindDecimal              // other numbers
	kindDate                 // dates in one layout, stored as YYYY-MM-DD
	kindDateTime             // date-times in one layout, stored as YYYY-MM-DD HH:MM:SS
	kindBool                 // JSON or Parquet booleans, stored as 1 and 0
	kindText
)

// sqlType is the column's declared type in the loaded database.
func (k kind) sqlType() string {
	if k > kindText {
		return "DATE"
	}
	switch k {
	case kindInteger:
		return "INTEGER"
	case kindDecimal:
		return "REAL"
	case kindDate:
		return "DATE"
	case kindDateTime:
		return "DATETIME"
	case kindBool:
		return "BOOLEAN"
	}
	return "TEXT"
}

// column inference: the kinds every sampled value allows, and for dates
// the layouts every value parses with.
type inference struct {
	kind        kind
	dateLayouts []string // the date layouts all values so far parse with
}

// dateLayouts are the date layouts recognised, most specific first. A column
// whose every value reads both month first and day first (01/02/2024) is
// read month first.
var dateLayouts = []string{"2006-01-02", "2006/01/02", "02.01.2006", "01/02/2006", "02/01/2006", "20060102"}

// dateTimeLayouts are the date-time layouts recognised.
var dateTimeLayouts = []string{"2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02T15:04",
	"2006-01-02T15:04:05Z07:00", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999",
	"2006/01/02 15:04:05", "01/02/2006 15:04:05", "01/02/2006 15:04"}

// isInteger reports whether s is a whole number without a leading zero:
// [+-]?(0|[1-9][0-9]*).
func isInteger(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isDecimal reports whether s is a number with digits:
// [+-]?(0|[1-9][0-9]*)?(\.[0-9]+)?([eE][+-]?[0-9]+)? (no leading zero).
func isDecimal(s string) bool {
	i, n := 0, len(s)
	if i < n && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		j := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	start := i
	whole := digits()
	if whole > 1 && s[start] == '0' {
		return false
	}
	frac := 0
	if i < n && s[i] == '.' {
		i++
		if frac = digits(); frac == 0 {
			return false
		}
	}
	if whole+frac == 0 {
		return false
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == n
}

// inferKinds decides each of n columns' kind from the sampled rows: the
// narrowest kind every non-empty value fits. Empty cells (NULL) fit every
// kind; a column with no value at all is text.
func inferKinds(n int, sample [][]any) []kind {
	inf := make([]inference, n)
	for _, row := range sample {
		for i := 0; i < n && i < len(row); i++ {
			inf[i].see(row[i])
		}
	}
	out := make([]kind, n)
	for i, f := range inf {
		out[i] = f.kind
		if out[i] == kindNone {
			out[i] = kindText
		}
		if out[i] == kindDate {
			out[i] = kindDateOf(f.dateLayouts)
		}
	}
	return out
}

// kindDateOf is kindDate with its layout chosen; the layout rides in the
// kind's table (dateKinds) so convert knows it.
func kindDateOf(layouts []string) kind {
	return kind(int(kindText) + 1 + dateKindIndex(layouts[0]))
}

func dateKindIndex(layout string) int {
	for i, l := range dateLayouts {
		if l == layout {
			return i
		}
	}
	return 0
}

// see narrows the inference by one value.
func (f *inference) see(v any) {
	if f.kind == kindText {
		return
	}
	switch x := v.(type) {
	case nil:
		return
	case bool:
		f.widen(kindBool)
	case int64:
		f.widen(kindInteger)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			f.widen(kindInteger)
		} else {
			f.widen(kindDecimal)
		}
	case time.Time:
		f.widen(kindDateTime)
	case string:
		s := strings.TrimSpace(x)
		if s == "" {
			return
		}
		switch {
		case isInteger(s) && fitsInt64(s):
			f.widen(kindInteger)
		case isDecimal(s):
			f.widen(kindDecimal)
		default:
			if ls := matchingLayouts(s, dateLayouts, f.dateLayoutsOr(dateLayouts)); len(ls) > 0 && (f.kind == kindNone || f.kind == kindDate) {
				f.kind, f.dateLayouts = kindDate, ls
				return
			}
			if isDateTime(s) && (f.kind == kindNone || f.kind == kindDateTime) {
				f.kind = kindDateTime
				return
			}
			f.kind = kindText
		}
	default:
		f.kind = kindText
	}
}

func (f *inference) dateLayoutsOr(all []string) []string {
	if f.kind == kindDate {
		return f.dateLayouts
	}
	return all
}

// widen moves the inference to the narrowest kind that holds both.
func (f *inference) widen(k kind) {
	switch {
	case f.kind == kindNone || f.kind == k:
		f.kind = k
	case (f.kind == kindInteger && k == kindDecimal) || (f.kind == kindDecimal && k == kindInteger):
		f.kind = kindDecimal
	default:
		f.kind = kindText
	}
}

func fitsInt64(s string) bool {
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

// matchingLayouts are the layouts of candidates that parse s.
func matchingLayouts(s string, _ []string, candidates []string) []string {
	var out []string
	for _, l := range candidates {
		if len(s) == len(l) {
			if _, err := time.Parse(l, s); err == nil {
				out = append(out, l)
			}
		}
	}
	return out
}

func isDateTime(s string) bool {
	_, ok := parseDateTime(s)
	return ok
}

func parseDateTime(s string) (time.Time, bool) {
	for _, l := range dateTimeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// convert turns a value into what the column stores: int64, float64, ISO
// date or date-time text, 1/0, text, or nil for an empty cell. ok is false
// when the value does not fit the kind (the column must become text).
func (k kind) convert(v any) (any, bool) {
	if v == nil {
		return nil, true
	}
	if s, isStr := v.(string); isStr && strings.TrimSpace(s) == "" {
		return nil, true
	}
	if k > kindText { // a date in one layout
		return toDate(dateLayouts[int(k)-int(kindText)-1], v)
	}
	switch k {
	case kindInteger:
		return toInteger(v)
	case kindDecimal:
		return toDecimal(v)
	case kindDateTime:
		return toDateTime(v)
	case kindBool:
		b, isBool := v.(bool)
		if !isBool {
			return nil, false
		}
		if b {
			return int64(1), true
		}
		return int64(0), true
	}
	return toText(v)
}

// toDate turns text in layout into an ISO date.
func toDate(layout string, v any) (any, bool) {
	s, isStr := v.(string)
	if !isStr {
		return nil, false
	}
	s = strings.TrimSpace(s)
	t, err := time.Parse(layout, s)
	if err != nil {
		return nil, false
	}
	if layout == time.DateOnly {
		return s, true // already ISO
	}
	return t.Format(time.DateOnly), true
}

// toInteger turns a whole number, or text spelling one, into an int64.
func toInteger(v any) (any, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x), true
		}
	case string:
		s := strings.TrimSpace(x)
		if isInteger(s) {
			n, err := strconv.ParseInt(s, 10, 64)
			return n, err == nil
		}
	}
	return nil, false
}

// toDecimal turns a number, or text spelling one, into a float64.
func toDecimal(v any) (any, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case string:
		s := strings.TrimSpace(x)
		if !isDecimal(s) {
			return nil, false
		}
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	}
	return nil, false
}

// toDateTime turns a time, or text in a date-time layout, into UTC text
// as SQLite writes it.
func toDateTime(v any) (any, bool) {
	switch x := v.(type) {
	case time.Time:
		return x.UTC().Format("2006-01-02 15:04:05"), true
	case string:
		s := strings.TrimSpace(x)
		t, ok := parseDateTime(s)
		if !ok {
			return nil, false
		}
		if len(s) == len(time.DateTime) && s[10] == ' ' {
			return s, true // already as SQLite writes it
		}
		return t.UTC().Format(time.DateTime), true
	}
	return nil, false
}

// toText writes any cell value as text.
func toText(v any) (any, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	case time.Time:
		return x.UTC().Format("2006-01-02 15:04:05"), true
	}
	return nil, false
}
