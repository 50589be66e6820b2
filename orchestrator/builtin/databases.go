package builtin

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"talk2tables/orchestrator/sqlgen"
)

// Several databases. Each database of the request (an executor's schema
// and the catalogs bound to it) compiles to a model of its own, cached by
// its servers' ids and versions; nothing of one leaks into another's. The
// question is read against each:
//   - exactly one database understands it fully → its plan, naming it;
//   - several do → the one whose domain the question names, when exactly
//     one does; otherwise a decline naming them (readings that needed a
//     misspelling give way to exact ones first);
//   - none does, but every word is known to some database and no database
//     knows them all → the question spans databases: a decline naming both;
//   - otherwise the decline of the database that understood most of it.

// generateMulti answers a request that lists several databases.
func (g *Generator) generateMulti(req sqlgen.Request) (sqlgen.Plan, error) {
	dbs := req.Databases
	readings := make([]reading, len(dbs))
	var full []int
	domainWords := domainWordSet(dbs)
	for i, db := range dbs {
		m := g.model(req.ServersOf(db))
		readings[i] = g.answer(m, req.Question, db.Dialect, db.Today)
		if r := readings[i]; r.err != nil && len(r.unknown) > 0 && allIn(r.unknown, domainWords) {
			// "... in the logistics database": the domain words only route.
			readings[i] = g.answer(m, withoutWords(req.Question, domainWords), db.Dialect, db.Today)
		}
		if readings[i].err == nil {
			full = append(full, i)
		}
	}
	if len(full) > 1 {
		if exact := slices.DeleteFunc(slices.Clone(full), func(i int) bool { return readings[i].typos }); len(exact) > 0 {
			full = exact
		}
	}
	if len(full) > 1 {
		if named := byDomain(req.Question, dbs, full); len(named) == 1 {
			full = named
		}
	}
	switch {
	case len(full) == 1:
		db := dbs[full[0]]
		plan := readings[full[0]].plan
		plan.Server = db.Server
		plan.Explanation = strings.TrimSpace(plan.Explanation + " " + fmt.Sprintf("Runs on database %q.", db.Server))
		return plan, nil
	case len(full) > 1:
		names := make([]sqlgen.Database, len(full))
		for i, j := range full {
			names[i] = dbs[j]
		}
		return sqlgen.Plan{}, g.declined(nil, decline("the question reads the same way in databases %s and I will not pick one for you",
			bothNames(names)).
			withHint("name the domain of the database you mean (%s), or run SQL on one with /api/sql and \"server\"", domainList(names)))
	}
	if a, b, ok := splitAcross(readings); ok {
		return sqlgen.Plan{}, g.declined(nil, decline("the question needs databases %s at once (%s only in %q, %s only in %q); "+
			"a statement runs on one database",
			bothNames([]sqlgen.Database{dbs[a], dbs[b]}),
			quoteList(knownOnlyIn(readings, b, a)), dbs[a].Server, quoteList(knownOnlyIn(readings, a, b)), dbs[b].Server).
			withHint("ask about each database on its own"))
	}
	best := closest(readings)
	why, hint := readings[best].err.Error(), ""
	var d *declineError
	if errors.As(readings[best].err, &d) {
		why, hint = d.why, d.hint
	}
	return sqlgen.Plan{}, g.declined(readings[best].spans, &declineError{
		why: fmt.Sprintf("no database answers it (in %q, the closest: %s)", dbs[best].Server, strings.TrimSuffix(why, ".")), hint: hint})
}

// byDomain keeps the databases among idx one of whose domains the question
// names (as a whole word or phrase, any case).
func byDomain(question string, dbs []sqlgen.Database, idx []int) []int {
	words := " " + strings.Join(lowerWords(question), " ") + " "
	var out []int
	for _, i := range idx {
		for _, d := range dbs[i].Domains {
			if w := strings.Join(lowerWords(d), " "); w != "" && strings.Contains(words, " "+w+" ") {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// domainWordSet holds the lower-case words of the databases' domains and
// the word "database(s)" that goes with them.
func domainWordSet(dbs []sqlgen.Database) map[string]bool {
	out := map[string]bool{}
	for _, d := range dbs {
		for _, dom := range d.Domains {
			for _, w := range lowerWords(dom) {
				out[w] = true
			}
		}
	}
	if len(out) > 0 {
		out["database"], out["databases"], out["db"] = true, true, true
	}
	return out
}

func allIn(words []string, set map[string]bool) bool {
	for _, w := range words {
		if !set[strings.ToLower(w)] {
			return false
		}
	}
	return true
}

// withoutWords is the question without the words in set.
func withoutWords(question string, set map[string]bool) string {
	var kept []string
	for _, t := range tokenize(question) {
		if !set[t.w] {
			kept = append(kept, t.text)
		}
	}
	return strings.Join(kept, " ")
}

// bothNames quotes the databases' ids joined with commas and "and".
func bothNames(dbs []sqlgen.Database) string {
	return strings.Replace(sqlgen.DatabaseNames(dbs), " or ", " and ", 1)
}

func lowerWords(s string) []string {
	toks := tokenize(s)
	out := make([]string, 0, len(toks))
	for _, t := range toks {
		out = append(out, t.w)
	}
	return out
}

func domainList(dbs []sqlgen.Database) string {
	var parts []string
	for _, d := range dbs {
		if len(d.Domains) > 0 {
			parts = append(parts, fmt.Sprintf("%q: %s", d.Server, strings.Join(d.Domains, ", ")))
		}
	}
	if len(parts) == 0 {
		return "no database declares domains"
	}
	return strings.Join(parts, "; ")
}

// splitAcross reports whether the question's words are split across
// databases: every reading stopped at unknown words, no word is unknown to
// all, and a and b are the two databases that together know the most.
func splitAcross(readings []reading) (a, b int, ok bool) {
	for _, r := range readings {
		if len(r.unknown) == 0 {
			return 0, 0, false
		}
	}
	for _, w := range readings[0].unknown {
		if unknownToAll(readings, w) {
			return 0, 0, false
		}
	}
	// a knows the most; b knows most of what a does not.
	a = 0
	for i := range readings {
		if len(readings[i].unknown) < len(readings[a].unknown) {
			a = i
		}
	}
	b, bestKnown := -1, -1
	for i := range readings {
		if i == a {
			continue
		}
		if n := len(knownOnlyIn(readings, a, i)); n > bestKnown {
			b, bestKnown = i, n
		}
	}
	if b < 0 || bestKnown == 0 {
		return 0, 0, false
	}
	if b < a {
		a, b = b, a
	}
	return a, b, true
}

func unknownToAll(readings []reading, w string) bool {
	for _, r := range readings {
		if !slices.Contains(r.unknown, w) {
			return false
		}
	}
	return true
}

// knownOnlyIn lists the words unknown to reading a that reading b knows.
func knownOnlyIn(readings []reading, a, b int) []string {
	var out []string
	for _, w := range readings[a].unknown {
		if !slices.Contains(readings[b].unknown, w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// closest is the reading that understood most: fewest unknown words, then
// most spans, then the first by priority.
func closest(readings []reading) int {
	best := 0
	for i, r := range readings {
		b := readings[best]
		if len(r.unknown) < len(b.unknown) || (len(r.unknown) == len(b.unknown) && len(r.spans) > len(b.spans)) {
			best = i
		}
	}
	return best
}
