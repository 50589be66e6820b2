package evaluation

import (
	"slices"
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
		{name: "a name joined up matches first and last name apart",
			got:  tbl([]string{"id", "name"}, []any{1.0, "Ada Brook"}, []any{2.0, "Ben Carver"}),
			want: tbl([]string{"first", "last"}, []any{"Ada", "Brook"}, []any{"Ben", "Carver"})},
		{name: "first and last name apart match a name joined up",
			got:  tbl([]string{"first", "last", "n"}, []any{"Ada", "Brook", 3.0}, []any{"Ben", "Carver", 1.0}),
			want: tbl([]string{"name", "n"}, []any{"Ada Brook", 3.0}, []any{"Ben Carver", 1.0})},
		{name: "first names alone do not match full names",
			got:  tbl([]string{"first"}, []any{"Ada"}, []any{"Ben"}),
			want: tbl([]string{"name"}, []any{"Ada Brook"}, []any{"Ben Carver"}), err: "no result column"},
		{name: "other column names, rows reordered",
			got: tbl([]string{"r", "total"}, []any{"West", 20.0}, []any{"East", 10.0}), want: gold},
		{name: "columns swapped", got: tbl([]string{"total", "r"}, []any{10.0, "East"}, []any{20.0, "West"}), want: gold},
		{name: "extra key column allowed",
			got: tbl([]string{"id", "r", "total"}, []any{1.0, "East", 10.0}, []any{2.0, "West", 20.0}), want: gold},
		{name: "rounded to cents is not equal when the gold does not round",
			got: tbl([]string{"r", "t"}, []any{"East", 10.004}, []any{"West", 19.996}), want: gold, err: "no result column"},
		{name: "a sum in another order: last bits differ",
			got:  tbl([]string{"t"}, []any{0.1 + 0.2 + 0.3}),
			want: tbl([]string{"t"}, []any{0.3 + 0.2 + 0.1})},
		{name: "relative 1e-9 on large sums",
			got:  tbl([]string{"t"}, []any{1234567.8912345}),
			want: tbl([]string{"t"}, []any{1234567.8912346})},
		{name: "relative 1e-6 is too far",
			got:  tbl([]string{"t"}, []any{1234568.1}),
			want: tbl([]string{"t"}, []any{1234567.0}), err: "no result column"},
		{name: "an average of rates off in the 4th decimal",
			got:  tbl([]string{"avg"}, []any{0.1235}),
			want: tbl([]string{"avg"}, []any{0.1234}), err: "no result column"},
		{name: "integers exactly", got: tbl([]string{"n"}, []any{1000000001.0}), want: tbl([]string{"n"}, []any{1000000000.0}),
			err: "no result column"},
		{name: "gold rounds to 2 decimals: an unrounded answer that rounds to it",
			got:  tbl([]string{"avg"}, []any{31.234999}),
			want: &Table{Columns: []string{"avg"}, Rows: [][]any{{31.23}}, Decimals: []int{2}}},
		{name: "gold rounds to 2 decimals: the same rounding",
			got:  tbl([]string{"avg"}, []any{31.23}),
			want: &Table{Columns: []string{"avg"}, Rows: [][]any{{31.23}}, Decimals: []int{2}}},
		{name: "gold rounds to 2 decimals: one cent off",
			got:  tbl([]string{"avg"}, []any{31.24}),
			want: &Table{Columns: []string{"avg"}, Rows: [][]any{{31.23}}, Decimals: []int{2}}, err: "no result column"},
		{name: "gold rounds one column only",
			got:  tbl([]string{"r", "avg", "n"}, []any{"East", 2.004, 7.0}),
			want: &Table{Columns: []string{"r", "avg", "n"}, Rows: [][]any{{"East", 2.0, 7.0}}, Decimals: []int{-1, 2, -1}}},
		{name: "gold rounds one column only: the others stay tight",
			got:  tbl([]string{"r", "avg", "x"}, []any{"East", 2.004, 7.004}),
			want: &Table{Columns: []string{"r", "avg", "x"}, Rows: [][]any{{"East", 2.0, 7.0}}, Decimals: []int{-1, 2, -1}},
			err:  "no result column"},
		{name: "text-typed number against the number", got: tbl([]string{"fare"}, []any{4.5}), want: tbl([]string{"fare"}, []any{"4.50"})},
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

func TestGoldDecimals(t *testing.T) {
	tests := []struct {
		name, sql string
		want      []int
	}{
		{name: "no rounding", sql: `SELECT a, AVG(b) FROM t GROUP BY a`, want: []int{-1, -1}},
		{name: "two decimals", sql: `SELECT a, ROUND(AVG(b), 2) FROM t GROUP BY a`, want: []int{-1, 2}},
		{name: "alias", sql: `SELECT ROUND(AVG(b), 1) AS avg_b, COUNT(*) AS n FROM t`, want: []int{1, -1}},
		{name: "bare alias", sql: `SELECT ROUND(SUM(b)) total FROM t`, want: []int{0}},
		{name: "lower case", sql: `select round(avg(b), 3) from t`, want: []int{3}},
		{name: "rounding inside an expression is not the column's", sql: `SELECT ROUND(a, 2) * 100 FROM t`, want: []int{-1}},
		{name: "distinct", sql: `SELECT DISTINCT ROUND(a, 2) FROM t`, want: []int{2}},
		{name: "subquery rounding does not count", sql: `SELECT a FROM t WHERE b > (SELECT ROUND(AVG(b), 2) FROM t)`, want: []int{-1}},
		{name: "with", sql: `WITH x AS (SELECT ROUND(a, 4) AS a FROM t) SELECT ROUND(a, 1) FROM x`, want: []int{1}},
		{name: "no from", sql: `SELECT ROUND(2.345, 2)`, want: []int{2}},
		{name: "star", sql: `SELECT * FROM t`, want: nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := GoldDecimals(tc.sql); !slices.Equal(got, tc.want) {
				t.Errorf("GoldDecimals(%q) = %v, want %v", tc.sql, got, tc.want)
			}
		})
	}
}
