// Package answer renders a question's result for people: the markdown
// answers of the OpenAI-compatible chat endpoints (server) and of the MCP
// ask tool (gateway) share its tables, cells and answer head.
package answer

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"talk2tables/orchestrator"
	"talk2tables/orchestrator/executor"
)

// Value renders one result cell for people (the markdown answers of
// the OpenAI-compatible endpoints and the MCP ask tool): NULL, text as is,
// integers as such, other numbers rounded for reading (two decimals from 1
// up, four significant digits below).
func Value(v any) string {
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

// WriteTable writes up to limit rows of d as a markdown table (or a
// one-line note when there is no result set or no row) and returns how
// many rows it showed and how many the result has; the caller says what
// was left out in its own words.
func WriteTable(b *strings.Builder, d *executor.QueryData, limit int) (shown, total int) {
	if d == nil || len(d.Columns) == 0 {
		b.WriteString("_The query returned no result set._\n")
		return 0, 0
	}
	if len(d.Rows) == 0 {
		b.WriteString("_No rows matched._\n")
		return 0, 0
	}
	b.WriteString("|")
	for _, col := range d.Columns {
		b.WriteString(" " + Cell(col) + " |")
	}
	b.WriteString("\n|")
	for range d.Columns {
		b.WriteString(" --- |")
	}
	b.WriteString("\n")
	shown = min(len(d.Rows), limit)
	for _, row := range d.Rows[:shown] {
		b.WriteString("|")
		for i := range d.Columns {
			var v any
			if i < len(row) {
				v = row[i]
			}
			b.WriteString(" " + Cell(Value(v)) + " |")
		}
		b.WriteString("\n")
	}
	return shown, max(d.RowCount, len(d.Rows))
}

// Cell escapes a value for a markdown table cell: one line, pipes
// escaped.
func Cell(s string) string {
	return strings.ReplaceAll(OneLine(s), "|", `\|`)
}

// WriteHead writes the part of a markdown answer the chat endpoints
// and the MCP ask tool share: the explanation, the verified question that
// answered (if one did), which database answered (when several are
// configured), the assumptions and the SQL in a fenced block.
func WriteHead(b *strings.Builder, res *orchestrator.QueryResult, severalDBs bool) {
	if e := strings.TrimSpace(res.Explanation); e != "" {
		b.WriteString(e)
		b.WriteString("\n\n")
	}
	if v := res.Verified; v != nil {
		fmt.Fprintf(b, "Verified question #%d, verified by %s on %s.\n\n", v.ID, v.By, v.At.UTC().Format("2006-01-02"))
	}
	if severalDBs && res.Metadata.Executor != "" {
		fmt.Fprintf(b, "Answered from database `%s`.\n\n", res.Metadata.Executor)
	}
	if len(res.Assumptions) > 0 {
		b.WriteString("Assumptions:\n")
		for _, a := range res.Assumptions {
			b.WriteString("- " + OneLine(a) + "\n")
		}
		b.WriteString("\n")
	}
	if res.SQL != "" {
		b.WriteString("```sql\n" + strings.TrimSpace(res.SQL) + "\n```\n\n")
	}
}

// OneLine folds line breaks and runs of spaces into single spaces.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
