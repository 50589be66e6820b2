package gateway

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"talk2tables/orchestrator"
)

// tableRowLimit is how many rows a markdown answer shows; the structured
// content has them all.
const tableRowLimit = 20

// writeTable renders up to tableRowLimit rows as a markdown table.
func writeTable(b *strings.Builder, d *orchestrator.QueryData) {
	if d == nil || len(d.Columns) == 0 {
		b.WriteString("_The query returned no result set._\n")
		return
	}
	if len(d.Rows) == 0 {
		b.WriteString("_No rows matched._\n")
		return
	}
	b.WriteString("|")
	for _, col := range d.Columns {
		b.WriteString(" " + cell(col) + " |")
	}
	b.WriteString("\n|")
	for range d.Columns {
		b.WriteString(" --- |")
	}
	b.WriteString("\n")
	shown := min(len(d.Rows), tableRowLimit)
	for _, row := range d.Rows[:shown] {
		b.WriteString("|")
		for i := range d.Columns {
			var v any
			if i < len(row) {
				v = row[i]
			}
			b.WriteString(" " + cell(formatValue(v)) + " |")
		}
		b.WriteString("\n")
	}
	total := max(d.RowCount, len(d.Rows))
	switch {
	case shown < total:
		fmt.Fprintf(b, "\n_Showing %d of %d rows; the structured content has them all._\n", shown, total)
	case d.Truncated:
		fmt.Fprintf(b, "\n_The result was capped at %d rows._\n", total)
	}
}

// formatValue renders one cell value.
func formatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return x
	case float64:
		return formatNumber(x)
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return formatNumber(f)
		}
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	default:
		return fmt.Sprint(x)
	}
}

// formatNumber shows integers as such and other numbers rounded for
// reading: two decimals from 1 up, four significant digits below.
func formatNumber(f float64) string {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return strconv.FormatFloat(f, 'g', -1, 64)
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		return strconv.FormatFloat(f, 'f', 0, 64)
	case math.Abs(f) >= 1:
		return strconv.FormatFloat(f, 'f', 2, 64)
	default:
		return strconv.FormatFloat(f, 'g', 4, 64)
	}
}

// cell escapes a value for a markdown table cell.
func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", `\|`) }

// oneLine folds line breaks into spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
