package evaluation

import (
	"fmt"
	"io"
	"strings"
)

// WriteTable writes the reports as a markdown table: per fixture and
// catalog, the answerable questions' outcomes and the must-decline
// questions' outcomes.
func WriteTable(w io.Writer, reports []*Report) error {
	var b strings.Builder
	b.WriteString("| fixture | catalog | answerable | correct | declined | wrong | error | correct rate | must-decline: declined / answered / error |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---|\n")
	for _, r := range reports {
		c := r.Counts()
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %.0f%% | %d / %d / %d |\n",
			r.Fixture, catalogLabel(r), c.Answerable, c.Correct, c.Declined, c.Wrong, c.Error,
			100*c.CorrectRate(), c.DeclineOK, c.DeclineWrong, c.DeclineError)
	}
	for _, r := range reports {
		for _, s := range r.Skipped {
			fmt.Fprintf(&b, "\n%s (%s): not in PostgreSQL: %s\n", r.Fixture, catalogLabel(r), oneLine(s))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func catalogLabel(r *Report) string {
	label := "untouched"
	if r.Edited {
		label = "after edits"
	}
	if r.Engine == "postgres" {
		label += ", PostgreSQL"
	}
	return label
}

// WriteDetails lists every question that was not answered correctly, with
// its outcome, the SQL the planner ran and why it does not count.
func WriteDetails(w io.Writer, reports []*Report) error {
	var b strings.Builder
	for _, r := range reports {
		for _, res := range r.Results {
			if res.Outcome == Correct {
				continue
			}
			fmt.Fprintf(&b, "%s (%s) %s [%s] %q\n", r.Fixture, catalogLabel(r), res.Question.ID, res.Outcome, res.Question.Text)
			if res.SQL != "" {
				fmt.Fprintf(&b, "    sql: %s\n", oneLine(res.SQL))
			}
			if res.Detail != "" {
				fmt.Fprintf(&b, "    why: %s\n", oneLine(res.Detail))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
