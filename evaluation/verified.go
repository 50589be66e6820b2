package evaluation

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"talk2tables/config"
	"talk2tables/internal/fixtures"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/verified"
	"talk2tables/state"
)

// Variant is a question that differs from a fixture question only in slot
// values (another value of a column, another year, another N), with how
// its gold SQL differs from the question's.
type Variant struct {
	// Text is the variant question.
	Text string
	// Replace are old, new pairs applied to the question's gold SQL (with
	// or without the edits) to make the variant's gold.
	Replace []string
}

// VerifiedGroup counts the answers to one group of questions.
type VerifiedGroup struct {
	Asked, Right, Declined, Wrong, Error int
	// FromVerified counts the right answers given by a verified question.
	FromVerified int
	Details      []string // why an answer is not right
}

// VerifiedReport is how verified questions did on one fixture.
type VerifiedReport struct {
	Fixture string
	Edited  bool
	// Declined are the answerable questions the planner declined (ids);
	// Taught the ones whose gold SQL was verified.
	Declined, Taught []string
	// Exact asks the taught questions as they are, Paraphrase with other
	// case, punctuation and stop words, Variant with other slot values.
	Exact, Paraphrase, Variant VerifiedGroup
	// NoSlot are the taught questions that name no value to vary.
	NoSlot []string
	// Rest is how many other questions were asked again with the verified
	// questions in place; Moved lists those whose outcome changed.
	Rest  int
	Moved []string
}

// RunVerified measures verified questions on one fixture: it runs the
// fixture as Run does, verifies the gold SQL of about 1 in share of the
// questions the planner declined (by a hash of the id: taughtShare; share 5
// is a fifth, 1 all of them), then asks
// each taught question as it is, as a paraphrase differing only in
// normalisation, and as its variants from variants (another value, year
// or N; every taught question needs an entry, empty when it names nothing
// to vary), and asks every other
// question again to see that its outcome did not move.
func RunVerified(ctx context.Context, name string, opts Options, share int, variants map[string][]Variant) (*VerifiedReport, error) {
	base, err := Run(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	rep, before := pickTaught(base, name, opts.Edited, share)

	dir := filepath.Join(opts.Dir, "verified")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	st, err := state.Open(ctx, config.StateConfig{Path: filepath.Join(dir, name+"-state.db")}, opts.Logger)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	book := verified.New(st, 0, opts.Logger)
	opts.Verified, opts.Dir = book, dir
	dbPath, err := fixtures.Build(ctx, name, dir)
	if err != nil {
		return nil, err
	}
	gold, ask, _, _, err := startEnvs(ctx, name, dbPath, opts)
	if err != nil {
		return nil, fmt.Errorf("fixture %s: %w", name, err)
	}
	defer gold.Close()
	if ask != gold {
		defer ask.Close()
	}

	qs, err := fixtures.Questions(name)
	if err != nil {
		return nil, err
	}
	byID := map[string]fixtures.Question{}
	for _, q := range qs {
		byID[q.ID] = q
	}
	for _, id := range rep.Taught {
		q := byID[id]
		if _, err := ask.orch.Verify(ctx, orchestrator.Teach{Question: q.Text, SQL: q.GoldFor(opts.Edited), By: "evaluation"}); err != nil {
			return nil, fmt.Errorf("fixture %s: verify %s: %w", name, id, err)
		}
	}
	if err := askTaught(ctx, rep, gold, ask, byID, variants); err != nil {
		return nil, err
	}
	if err := askRest(ctx, rep, gold, ask, qs, before); err != nil {
		return nil, err
	}
	return rep, nil
}

// pickTaught starts the report from the plain run: the questions it
// declined that should have been answered, and the share of them to teach.
// before is each question's outcome in that run.
func pickTaught(base *Report, name string, edited bool, share int) (rep *VerifiedReport, before map[string]Outcome) {
	rep = &VerifiedReport{Fixture: name, Edited: edited}
	before = map[string]Outcome{}
	for _, r := range base.Results {
		before[r.Question.ID] = r.Outcome
		if r.Outcome == Declined && !r.Question.Decline {
			rep.Declined = append(rep.Declined, r.Question.ID)
		}
	}
	slices.Sort(rep.Declined)
	for _, id := range rep.Declined {
		if taughtShare(id, share) {
			rep.Taught = append(rep.Taught, id)
		}
	}
	return rep, before
}

// askTaught asks each taught question as taught, as a paraphrase and as
// each of its variants.
func askTaught(ctx context.Context, rep *VerifiedReport, gold, ask *Env, byID map[string]fixtures.Question,
	variants map[string][]Variant) error {
	for _, id := range rep.Taught {
		q := byID[id]
		goldSQL := q.GoldFor(rep.Edited)
		if err := askVerified(ctx, gold, ask, &rep.Exact, id, q.Text, goldSQL, q.Ordered); err != nil {
			return err
		}
		if err := askVerified(ctx, gold, ask, &rep.Paraphrase, id, Paraphrase(q.Text), goldSQL, q.Ordered); err != nil {
			return err
		}
		vs, ok := variants[id]
		switch {
		case !ok:
			return fmt.Errorf("fixture %s: no variant written for %s %q: add one to the variants table (none when it names no value, year or number)",
				rep.Fixture, id, q.Text)
		case len(vs) == 0:
			rep.NoSlot = append(rep.NoSlot, id)
		}
		for _, v := range vs {
			if err := askVerified(ctx, gold, ask, &rep.Variant, id, v.Text, strings.NewReplacer(v.Replace...).Replace(goldSQL), q.Ordered); err != nil {
				return err
			}
		}
	}
	return nil
}

// askRest asks every question not taught again and records those whose
// outcome moved from before.
func askRest(ctx context.Context, rep *VerifiedReport, gold, ask *Env, qs []fixtures.Question, before map[string]Outcome) error {
	for _, q := range qs {
		if slices.Contains(rep.Taught, q.ID) || (len(q.Edits) > 0 && !rep.Edited) {
			continue
		}
		res, err := judge(ctx, gold, ask, q, rep.Edited)
		if err != nil {
			return fmt.Errorf("fixture %s, question %s: %w", rep.Fixture, q.ID, err)
		}
		rep.Rest++
		if res.Outcome != before[q.ID] {
			rep.Moved = append(rep.Moved, fmt.Sprintf("%s: %s → %s", q.ID, before[q.ID], res.Outcome))
		}
	}
	return nil
}

// taughtShare picks the questions of a share by a hash of their id (about
// 1 in share), so the pick of one question does not depend on which
// others the planner declines today: a planner change adds or removes
// only the questions it changes.
func taughtShare(id string, share int) bool {
	if share <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return h.Sum32()%uint32(share) == 0
}

// askVerified asks question and counts its answer in g against goldSQL.
// An error is the gold SQL's own: the table is wrong, not the answer.
func askVerified(ctx context.Context, gold, ask *Env, g *VerifiedGroup, id, question, goldSQL string, ordered bool) error {
	want, err := gold.Gold(ctx, goldSQL)
	if err != nil {
		return fmt.Errorf("%s: gold SQL of %q: %w", id, question, err)
	}
	if want.Empty() {
		return fmt.Errorf("%s: the gold result of %q is empty: pick another value", id, question)
	}
	g.Asked++
	ans, err := ask.Ask(ctx, question)
	switch {
	case err != nil && isDecline(err):
		g.Declined++
		g.Details = append(g.Details, fmt.Sprintf("%s %q declined: %s", id, question, oneLine(err.Error())))
	case err != nil:
		g.Error++
		g.Details = append(g.Details, fmt.Sprintf("%s %q failed: %s", id, question, oneLine(err.Error())))
	default:
		got := &Table{}
		if ans.Result != nil {
			got = &Table{Columns: ans.Result.Columns, Rows: ans.Result.Rows}
		}
		if cerr := Compare(got, want, ordered); cerr != nil {
			g.Wrong++
			g.Details = append(g.Details, fmt.Sprintf("%s %q WRONG: %s (sql %s)", id, question, cerr, oneLine(ans.SQL)))
			return nil
		}
		g.Right++
		if ans.Verified != nil {
			g.FromVerified++
		}
	}
	return nil
}

// Paraphrase writes a question as someone else might type it, differing
// only in what normalisation removes: case, punctuation and stop words.
func Paraphrase(q string) string {
	words := strings.Fields(q)
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	return "Please, tell me: " + strings.Join(words, " ") + "?"
}

// WriteVerifiedTable writes the reports as a markdown table: per fixture,
// the taught questions asked as they are, as paraphrases and as variants
// (right / declined / wrong), and the other questions whose outcome moved.
func WriteVerifiedTable(b *strings.Builder, reps []*VerifiedReport) {
	b.WriteString("| fixture | declined | verified | as verified: right / declined / wrong | paraphrased | slot variant | no slot to vary | others asked again, moved |\n")
	b.WriteString("|---|---:|---:|---|---|---|---:|---|\n")
	group := func(g VerifiedGroup) string {
		if g.Asked == 0 {
			return "—"
		}
		return fmt.Sprintf("%d/%d right (%d by a verified question), %d declined, %d wrong", g.Right, g.Asked, g.FromVerified,
			g.Declined, g.Wrong+g.Error)
	}
	for _, r := range reps {
		label := r.Fixture
		if r.Edited {
			label += " (after edits)"
		}
		fmt.Fprintf(b, "| %s | %d | %d | %s | %s | %s | %d | %d, %d moved |\n", label, len(r.Declined), len(r.Taught),
			group(r.Exact), group(r.Paraphrase), group(r.Variant), len(r.NoSlot), r.Rest, len(r.Moved))
	}
	for _, r := range reps {
		for _, g := range []VerifiedGroup{r.Exact, r.Paraphrase, r.Variant} {
			for _, d := range g.Details {
				fmt.Fprintf(b, "\n%s: %s", r.Fixture, d)
			}
		}
		for _, m := range r.Moved {
			fmt.Fprintf(b, "\n%s: moved %s", r.Fixture, m)
		}
	}
	b.WriteString("\n")
}
