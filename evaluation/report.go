package evaluation

import (
	"fmt"
	"io"
	"strings"

	"talk2tables/internal/fixtures"
)

// WriteTable writes the reports as markdown tables, one row per fixture and
// catalog: the outcomes over all questions with the score (correct − 10 ×
// wrong), then the answerable and the must-decline questions apart. The
// fixtures of planner work come first with their total (each fixture once,
// with its untouched catalog on SQLite); the held-out ones follow in a table
// of their own.
func WriteTable(w io.Writer, reports []*Report) error {
	var b strings.Builder
	var tuned, held []*Report
	for _, r := range reports {
		if fixtures.HeldOut(r.Fixture) {
			held = append(held, r)
		} else {
			tuned = append(tuned, r)
		}
	}
	if len(tuned) > 0 {
		writeRows(&b, tuned, len(tuned) > 1)
	}
	if len(held) > 0 {
		if len(tuned) > 0 {
			b.WriteString("\n")
		}
		b.WriteString("Held out (never used to change the planner; see docs/evaluation.md):\n\n")
		writeRows(&b, held, false)
	}
	for _, r := range reports {
		for _, s := range r.Skipped {
			fmt.Fprintf(&b, "\n%s (%s): not in PostgreSQL: %s\n", r.Fixture, catalogLabel(r), oneLine(s))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeRows(b *strings.Builder, reports []*Report, total bool) {
	b.WriteString("| fixture | catalog | questions | correct | declined | wrong | error | score | answerable: correct / declined / wrong / error | must-decline: declined / answered / error |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---|---|\n")
	var sum Counts
	summed := 0
	for _, r := range reports {
		c := r.Counts()
		writeRow(b, r.Fixture, catalogLabel(r), c)
		if r.Edited || r.Engine == "postgres" {
			continue // each fixture counts once in the total
		}
		summed++
		sum.Answerable += c.Answerable
		sum.Correct += c.Correct
		sum.Declined += c.Declined
		sum.Wrong += c.Wrong
		sum.Error += c.Error
		sum.MustDecline += c.MustDecline
		sum.DeclineOK += c.DeclineOK
		sum.DeclineWrong += c.DeclineWrong
		sum.DeclineError += c.DeclineError
	}
	if total && summed > 1 {
		writeRow(b, "**total**", "untouched", sum)
	}
}

func writeRow(b *strings.Builder, fixture, catalog string, c Counts) {
	o := c.Overall()
	fmt.Fprintf(b, "| %s | %s | %d | %d | %d | %d | %d | %d | %d / %d / %d / %d (%.0f%%) | %d / %d / %d |\n",
		fixture, catalog, o.Questions, o.Correct, o.Declined, o.Wrong, o.Error, o.Score(),
		c.Correct, c.Declined, c.Wrong, c.Error, 100*c.CorrectRate(), c.DeclineOK, c.DeclineWrong, c.DeclineError)
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
// its outcome, the SQL the planner ran and why it does not count. A
// held-out fixture's questions are never listed (they must not be read
// while working on the planner): only how many were not correct.
func WriteDetails(w io.Writer, reports []*Report) error {
	var b strings.Builder
	for _, r := range reports {
		if fixtures.HeldOut(r.Fixture) {
			o := r.Counts().Overall()
			fmt.Fprintf(&b, "%s (%s): held out, questions not listed: %d not answered correctly (%d declined, %d wrong, %d errors)\n",
				r.Fixture, catalogLabel(r), o.Questions-o.Correct, o.Declined, o.Wrong, o.Error)
			continue
		}
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
