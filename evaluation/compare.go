package evaluation

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// relTolerance is how far apart two decimals may be, relative to the
// larger: floating-point sums of the same numbers in another order differ
// in the last bits, nothing more.
const relTolerance = 1e-9

// Table is a result set: column names and rows of JSON values (float64,
// string or nil), as execute_query returns them.
type Table struct {
	Columns []string
	Rows    [][]any
	// Decimals, when set on a gold table, holds per column the number of
	// decimals the gold SQL rounds it to (ROUND(x, n)), or -1: a rounded
	// gold column matches any value that rounds to it.
	Decimals []int
}

// decimals returns the rounding of gold column j, or -1.
func (t *Table) decimals(j int) int {
	if t == nil || j >= len(t.Decimals) {
		return -1
	}
	return t.Decimals[j]
}

// withoutNullRows drops rows whose every value is NULL: an aggregate over
// no rows (SUM of nothing) is one all-NULL row and means "no answer".
func withoutNullRows(rows [][]any) [][]any {
	out := rows[:0:0]
	for _, r := range rows {
		if slices.ContainsFunc(r, func(v any) bool { return v != nil }) {
			out = append(out, r)
		}
	}
	return out
}

// Empty reports whether t has no rows once all-NULL rows are dropped.
func (t *Table) Empty() bool { return t == nil || len(withoutNullRows(t.Rows)) == 0 }

// Compare checks a result against the gold result. Every gold column must
// be matched by a distinct result column holding equal values row for row
// (extra result columns, such as an entity's key beside its name, are
// allowed); the row counts must be equal; rows are compared in order only
// when ordered. Integers must be equal, other numbers equal within 1e-9
// relative, or, in a column the gold SQL rounds (want.Decimals), round to
// the gold value; all-NULL rows count as no rows. It returns nil when the
// result is right, else what differs. A person's name shown as one column
// ("Ada Brook") matches the gold's first and last name columns side by side,
// and the other way round: the same answer, laid out otherwise.
func Compare(got, want *Table, ordered bool) error {
	err := compareExact(got, want, ordered)
	if err == nil {
		return nil
	}
	if compareExact(withJoinedPairs(got), want, ordered) == nil {
		return nil
	}
	for i := 0; i+1 < len(want.Columns); i++ {
		if w := joinPair(want, i); w != nil && compareExact(got, w, ordered) == nil {
			return nil
		}
	}
	return err
}

// withJoinedPairs adds, after t's columns, each pair of adjacent text
// columns joined by a space ("first last").
func withJoinedPairs(t *Table) *Table {
	out := &Table{Columns: slices.Clone(t.Columns), Rows: make([][]any, len(t.Rows))}
	for i, r := range t.Rows {
		out.Rows[i] = slices.Clone(r)
	}
	for j := 0; j+1 < len(t.Columns); j++ {
		if !textColumn(t, j) || !textColumn(t, j+1) {
			continue
		}
		out.Columns = append(out.Columns, t.Columns[j]+" "+t.Columns[j+1])
		for i, r := range t.Rows {
			out.Rows[i] = append(out.Rows[i], joined(r[j], r[j+1]))
		}
	}
	return out
}

// joinPair is t with its text columns j and j+1 joined into one, or nil
// when they are not both text.
func joinPair(t *Table, j int) *Table {
	if !textColumn(t, j) || !textColumn(t, j+1) {
		return nil
	}
	out := &Table{Columns: slices.Concat(t.Columns[:j:j], []string{t.Columns[j] + " " + t.Columns[j+1]}, t.Columns[j+2:])}
	for _, r := range t.Rows {
		out.Rows = append(out.Rows, slices.Concat(r[:j:j], []any{joined(r[j], r[j+1])}, r[j+2:]))
	}
	if len(t.Decimals) == len(t.Columns) {
		out.Decimals = slices.Concat(t.Decimals[:j:j], []int{-1}, t.Decimals[j+2:])
	}
	return out
}

// textColumn: every value of column j is a string.
func textColumn(t *Table, j int) bool {
	for _, r := range t.Rows {
		if _, ok := r[j].(string); !ok {
			return false
		}
	}
	return len(t.Rows) > 0
}

func joined(a, b any) any { return a.(string) + " " + b.(string) }

// compareExact is Compare without the name layouts.
func compareExact(got, want *Table, ordered bool) error {
	g, w := withoutNullRows(got.Rows), withoutNullRows(want.Rows)
	if len(w) == 0 {
		return fmt.Errorf("the gold result is empty: the question cannot be checked")
	}
	if len(g) != len(w) {
		return fmt.Errorf("%d rows, want %d", len(g), len(w))
	}
	nw, ng := len(want.Columns), len(got.Columns)
	if ng < nw {
		return fmt.Errorf("%d columns, want at least %d (%v)", ng, nw, want.Columns)
	}
	// Candidate result columns of each gold column: equal as sequences when
	// ordered, equal as multisets otherwise.
	cands := make([][]int, nw)
	for j := range nw {
		wc := column(w, j)
		dec := want.decimals(j)
		for k := range ng {
			gc := column(g, k)
			if ordered && sameSeq(gc, wc, dec) || !ordered && sameSeq(sortedVals(gc), sortedVals(wc), dec) {
				cands[j] = append(cands[j], k)
			}
		}
		if len(cands[j]) == 0 {
			return fmt.Errorf("no result column holds the values of gold column %q (gold %s; got columns %v)",
				want.Columns[j], preview(wc), got.Columns)
		}
	}
	used := make([]bool, ng)
	assign := make([]int, nw)
	var try func(j int) bool
	try = func(j int) bool {
		if j == nw {
			// Ordered: every mapped column already equals its gold column
			// position by position, so the rows are equal.
			return ordered || sameRowMultiset(g, w, assign, want)
		}
		for _, k := range cands[j] {
			if used[k] {
				continue
			}
			used[k], assign[j] = true, k
			if try(j + 1) {
				return true
			}
			used[k] = false
		}
		return false
	}
	if !try(0) {
		return fmt.Errorf("every gold column has a matching result column, but the rows pair them differently")
	}
	return nil
}

func column(rows [][]any, j int) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		if j < len(r) {
			out[i] = r[j]
		}
	}
	return out
}

// sameSeq reports whether a result column a equals gold column b value
// for value, the gold rounded to dec decimals (-1: not rounded).
func sameSeq(a, b []any, dec int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !equalAt(a[i], b[i], dec) {
			return false
		}
	}
	return true
}

// sameRowMultiset reports whether got's rows, projected on assign, pair off
// one to one with want's rows.
func sameRowMultiset(got, want [][]any, assign []int, gold *Table) bool {
	taken := make([]bool, len(got))
	for _, wr := range want {
		found := false
		for i, gr := range got {
			if taken[i] {
				continue
			}
			match := true
			for j, k := range assign {
				if !equalAt(gr[k], wr[j], gold.decimals(j)) {
					match = false
					break
				}
			}
			if match {
				taken[i], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// number returns v as a float64 when it is a number (or a string holding
// one: NUMERIC money may come back either way from other executors).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return 0, false
}

// Equal compares two result values: integers exactly, other numbers within
// 1e-9 relative, text exactly, NULL only with NULL.
func Equal(a, b any) bool { return equalAt(a, b, -1) }

// equalAt is Equal for a result value a and a gold value b the gold SQL
// rounds to dec decimals (-1: it does not): a matches when it rounds to b,
// that is when it lies within half a unit of the last decimal.
func equalAt(a, b any, dec int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	_, aStr := a.(string)
	_, bStr := b.(string)
	if aStr && bStr {
		return a == b
	}
	fa, okA := number(a)
	fb, okB := number(b)
	if !okA || !okB {
		return fmt.Sprint(a) == fmt.Sprint(b)
	}
	d := math.Abs(fa - fb)
	scale := math.Max(math.Abs(fa), math.Abs(fb))
	switch {
	case dec >= 0:
		return d <= 0.5*math.Pow10(-dec)+relTolerance*scale
	case fa == math.Trunc(fa) && fb == math.Trunc(fb):
		return fa == fb
	default:
		return d <= relTolerance*scale
	}
}

// sortedVals orders values NULL < numbers < other text, numbers by value.
func sortedVals(vs []any) []any {
	out := slices.Clone(vs)
	rank := func(v any) int {
		if v == nil {
			return 0
		}
		if _, ok := number(v); ok {
			return 1
		}
		return 2
	}
	slices.SortStableFunc(out, func(a, b any) int {
		if c := cmp.Compare(rank(a), rank(b)); c != 0 {
			return c
		}
		fa, okA := number(a)
		fb, okB := number(b)
		if okA && okB {
			return cmp.Compare(fa, fb)
		}
		return cmp.Compare(fmt.Sprint(a), fmt.Sprint(b))
	})
	return out
}

// preview shows the first values of a column.
func preview(vs []any) string {
	if len(vs) > 5 {
		return fmt.Sprintf("%v … (%d values)", vs[:5], len(vs))
	}
	return fmt.Sprint(vs)
}
