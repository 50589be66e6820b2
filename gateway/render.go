package gateway

import (
	"fmt"
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
			b.WriteString(" " + cell(orchestrator.FormatValue(v)) + " |")
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

// cell escapes a value for a markdown table cell.
func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", `\|`) }

// oneLine folds line breaks into spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
