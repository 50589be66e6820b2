package gateway

import (
	"fmt"
	"strings"

	"talk2tables/answer"
	"talk2tables/orchestrator/executor"
)

// tableRowLimit is how many rows a markdown answer shows; the structured
// content has them all.
const tableRowLimit = 20

// writeTable renders up to tableRowLimit rows as a markdown table.
func writeTable(b *strings.Builder, d *executor.QueryData) {
	shown, total := answer.WriteTable(b, d, tableRowLimit)
	if total == 0 {
		return
	}
	switch {
	case shown < total:
		fmt.Fprintf(b, "\n_Showing %d of %d rows; the structured content has them all._\n", shown, total)
	case d.Truncated:
		fmt.Fprintf(b, "\n_The result was capped at %d rows._\n", total)
	}
}
