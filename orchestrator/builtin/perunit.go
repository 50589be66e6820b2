package builtin

import (
	"slices"

	"talk2tables/catalog"
)

// grainColumnWords are the words a column's name uses for an amount per
// period: a mooring_pm, a crane_hourly, a berth_weekly.
var grainColumnWords = map[string][]string{
	"hour":  {"hour", "hourly", "hr", "ph"},
	"day":   {"day", "daily", "pd"},
	"week":  {"week", "weekly", "pw"},
	"month": {"month", "monthly", "pcm", "pm"},
	"year":  {"year", "yearly", "annual", "annually", "pa"},
}

// perGrainOf: "per month" at toks[j] after a phrase naming a column whose
// name says it is an amount per month ("the mooring per month" beside
// mooring_pm) is the column's own period, not a grouping by month. It
// returns the columns of ms that say that period, or nil.
func perGrainOf(toks []token, j int, ms []*meaning) []*meaning {
	if j+1 >= len(toks) || toks[j].w != "per" || toks[j].pause || toks[j+1].pause {
		return nil
	}
	g := toks[j+1].s
	if g == "" {
		g = catalog.Singular(toks[j+1].w)
	}
	forms := grainColumnWords[g]
	if forms == nil {
		return nil
	}
	var out []*meaning
	for _, mn := range ms {
		if mn.kind == mColumn && mn.c != nil && slices.ContainsFunc(catalog.IdentifierWords(mn.c.name), func(w string) bool { return slices.Contains(forms, w) }) {
			out = append(out, mn)
		}
	}
	return out
}
