package gateway

import (
	"fmt"
	"strings"
	"testing"

	"talk2tables/orchestrator"
	"talk2tables/orchestrator/executor"
	"talk2tables/sqlerr"
)

func TestAnswerMarkdown(t *testing.T) {
	rows := make([][]any, 25)
	for i := range rows {
		rows[i] = []any{fmt.Sprintf("r%02d", i), float64(i) + 0.5, nil}
	}
	res := &orchestrator.QueryResult{
		Explanation: "Revenue by region.",
		Assumptions: []string{"the period is 2026-07-01 to 2026-09-30", "only completed orders count"},
		SQL:         "SELECT region, SUM(total) FROM sales\nGROUP BY region",
		Result:      &executor.QueryData{Columns: []string{"region", "total", "note|x"}, Rows: rows, RowCount: 25},
		Attempts: []orchestrator.Attempt{{SQL: "SELECT x", Error: "no such column: x", Category: sqlerr.MissingColumn},
			{SQL: "SELECT region"}},
		Metadata: orchestrator.Metadata{Generator: "builtin", ExecutionTime: 0.012},
	}
	md := answerMarkdown(res, false)
	for _, want := range []string{
		"Revenue by region.\n\nAssumptions:\n- the period is 2026-07-01 to 2026-09-30\n- only completed orders count\n",
		"```sql\nSELECT region, SUM(total) FROM sales\nGROUP BY region\n```",
		"| region | total | note\\|x |",
		"| r00 | 0.5 | NULL |",
		"| r19 | 19.50 | NULL |",
		"_Showing 20 of 25 rows; the structured content has them all._",
		"Failed attempts:\n1. MISSING_COLUMN: no such column: x",
		"_generator: builtin · 12 ms_",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "| r20 |") {
		t.Errorf("markdown shows more than 20 rows:\n%s", md)
	}
}
