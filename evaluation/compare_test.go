package evaluation

import (
	"strings"
	"testing"
)

func tbl(cols []string, rows ...[]any) *Table { return &Table{Columns: cols, Rows: rows} }

func TestCompare(t *testing.T) {
	gold := tbl([]string{"region", "revenue"}, []any{"East", 10.0}, []any{"West", 20.0})
	tests := []struct {
		name    string
		got     *Table
		want    *Table
		ordered bool
		err     string // "" = equal
	}{
		{name: "same", got: gold, want: gold},
		{name: "other column names, rows reordered",
			got: tbl([]string{"r", "total"}, []any{"West", 20.0}, []any{"East", 10.0}), want: gold},
		{name: "columns swapped", got: tbl([]string{"total", "r"}, []any{10.0, "East"}, []any{20.0, "West"}), want: gold},
		{name: "extra key column allowed",
			got: tbl([]string{"id", "r", "total"}, []any{1.0, "East", 10.0}, []any{2.0, "West", 20.0}), want: gold},
		{name: "rounded to cents", got: tbl([]string{"r", "t"}, []any{"East", 10.004}, []any{"West", 19.996}), want: gold},
		{name: "relative tolerance on large sums",
			got:  tbl([]string{"t"}, []any{1234567.891}),
			want: tbl([]string{"t"}, []any{1234567.8905})},
		{name: "off by a cent", got: tbl([]string{"r", "t"}, []any{"East", 10.01}, []any{"West", 20.0}), want: gold,
			err: "no result column"},
		{name: "missing row", got: tbl([]string{"r", "t"}, []any{"East", 10.0}), want: gold, err: "1 rows, want 2"},
		{name: "missing column", got: tbl([]string{"r"}, []any{"East"}, []any{"West"}), want: gold, err: "columns"},
		{name: "one result column cannot match two gold columns",
			got:  tbl([]string{"a", "x"}, []any{5.0, "q"}),
			want: tbl([]string{"a", "b"}, []any{5.0, 5.0}), err: "pair"},
		{name: "pairs rows differently",
			got: tbl([]string{"r", "t"}, []any{"East", 20.0}, []any{"West", 10.0}), want: gold, err: "pair"},
		{name: "order ignored unless asked",
			got: tbl([]string{"r", "t"}, []any{"West", 20.0}, []any{"East", 10.0}), want: gold},
		{name: "order checked when asked", ordered: true,
			got: tbl([]string{"r", "t"}, []any{"West", 20.0}, []any{"East", 10.0}), want: gold, err: "no result column"},
		{name: "all-NULL answer is empty", got: tbl([]string{"t"}, []any{nil}), want: tbl([]string{"t"}, []any{5.0}),
			err: "0 rows, want 1"},
		{name: "all-NULL gold cannot be checked", got: tbl([]string{"t"}, []any{nil}), want: tbl([]string{"t"}, []any{nil}),
			err: "gold result is empty"},
		{name: "NULL only equals NULL",
			got:  tbl([]string{"n", "v"}, []any{"a", nil}, []any{"b", 0.0}),
			want: tbl([]string{"n", "v"}, []any{"a", 0.0}, []any{"b", nil}), err: "pair"},
		{name: "text is exact", got: tbl([]string{"n"}, []any{"east"}), want: tbl([]string{"n"}, []any{"East"}),
			err: "no result column"},
		{name: "numeric text equals the number", got: tbl([]string{"p"}, []any{"4150.00"}), want: tbl([]string{"p"}, []any{4150.0})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Compare(tc.got, tc.want, tc.ordered)
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("Compare = %v, want equal", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("Compare = %v, want an error containing %q", err, tc.err)
			}
		})
	}
}
