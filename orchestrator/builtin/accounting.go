package builtin

import (
	"fmt"
	"slices"
	"strings"

	"talk2tables/catalog"
)

// Every word accounted for: a reading that answers must have used each
// word of the question, or the word must carry no meaning here (the clause
// reader's filler words). A word left over is named in the decline, never
// dropped: "riders above age 20" must not become age = 20.

// analystLeftovers declines when the analyst reading answered without
// using a word of the question.
func analystLeftovers(sc scanned, p *plan, sql string) error {
	covered := make([]bool, len(sc.toks))
	for _, sp := range sc.spans {
		if !sp.used && !unusedOK(sp) || sp.is(kwDistinct) && !p.distinct && !strings.Contains(sql, "DISTINCT") {
			continue
		}
		if sp.kind == spKw && sp.is(kwList) && sp.tok0 > 0 && placeWords[sc.toks[sp.tok0-1].w] {
			// "kiosks on show", "prints on display": a state of the rows,
			// not the request to show them
			continue
		}
		for k := sp.tok0; k < sp.tok0+sp.tokN && k < len(covered); k++ {
			covered[k] = true
		}
	}
	related := len(p.joins.edges) > 0 || len(p.where) > 0
	for _, sp := range sc.spans {
		if sp.used && sp.kind == spWord && grainWords[sp.text] && qualifiedOnly(sp.text, sp.ms) && !groupsByGrain(p, catalog.Singular(sp.text)) {
			// "in each year" read as a "founding year" column: which year?
			return decline("%q could be the year of the rows' own date or of %s", sp.text, describeMeanings(sp)).
				withHint("name the column, e.g. by %s", describeMeanings(sp))
		}
	}
	if err := showsOnlyFilter(p); err != nil {
		return err
	}
	if err := readingChecks(sc.toks, p); err != nil {
		return err
	}
	var left []string
	for k := 0; k < len(sc.toks); {
		if covered[k] {
			k++
			continue
		}
		end := k
		for end < len(covered) && !covered[end] {
			end++
		}
		n, info := matchClauseWord(sc.toks[:end], k)
		switch {
		case n > 0 && (info.cw == cwFiller || info.cw == cwHave || info.cw == cwAnd) && saysMore[sc.toks[k].w] && (k == 0 || sc.toks[k].w != "where") &&
			!(possessives[sc.toks[k].w] && (len(p.groupBy) > 0 || p.limit > 0)):
			// "whose C is", "and their C", "where have T happened": a
			// relation the analyst reading does not read
			left = append(left, sc.toks[k].w)
			n = 1
		case n > 0 && info.cw == cwLead && k > 0 && placeWords[sc.toks[k-1].w]:
			// "on show": a state of the rows, not the request to show them
			left = append(left, sc.toks[k-1].w+" "+sc.toks[k].w)
			n = 1
		case n > 0 && fillerRole(info.cw):
		case n > 0 && info.cw == cwLink && related:
		case n > 0 && info.cw == cwCmp && k+n < len(covered) && coveredTime(sc, k+n):
			// "over the last 12 months": the time phrase says it
		case n > 0 && info.cw == cwOrderBy && p.limit > 0:
			// "ranked by": the ranking says it
		default:
			n = max(n, 1)
			left = append(left, joinWords(sc.toks[k:k+n]))
		}
		k += max(n, 1)
	}
	if len(left) > 0 {
		return decline("I don't know what %s means here", quoteList(left)).
			withHint("rephrase without it, or name the column it is about")
	}
	return nil
}

// placeWords before a list verb make it a noun ("on show", "on display").
var placeWords = setOf("on", "off", "in", "at", "for", "under")

// grainWords are the time grains a column may also be named by.
var grainWords = setOf("year", "years", "month", "months", "day", "days", "week", "weeks", "quarter", "quarters")

// saysMore are words the analyst reading may not leave unused: each says
// something about the rows it does not read ("where" only as the question's
// first word: the place of the rows, not a condition).
var saysMore = setOf("where", "their", "its", "his", "her", "with their", "and their")

// possessives refer to the group in "for each C, count its T".
var possessives = setOf("their", "its", "his", "her")

// showsOnlyFilter declines a list that shows nothing but columns an
// equality condition fixes ("the authors whose genre is X" read as the
// genre X, once per row): the question asked for something else.
func showsOnlyFilter(p *plan) error {
	if p.kind == pAggregate || len(p.sels) == 0 {
		return nil
	}
	fixed := map[*column]bool{}
	fixedTables := map[*table]bool{}
	for _, c := range p.where {
		if c.kind == cValues && !c.neg && len(c.values) == 1 && c.e.kind == eCol {
			fixed[c.e.col] = true
			fixedTables[c.e.col.t] = true
		}
	}
	for _, s := range p.sels {
		// a key to a row the condition picks is as fixed as the condition
		if s.e.kind != eCol || !fixed[s.e.col] && !(s.e.col.fk != nil && fixedTables[s.e.col.fk.to]) {
			return nil
		}
	}
	return decline("the answer would only repeat the value asked about (%s)", p.sels[0].e.col.ref()).
		withHint("name the column to show, e.g. the name of the rows")
}

// groupsByGrain: the plan groups by the rows' date cut to the grain (a
// whole date, or a year column of the rows themselves).
func groupsByGrain(p *plan, grain string) bool {
	return slices.ContainsFunc(p.groupBy, func(e expr) bool {
		return e.kind == eGrain && e.grain == grain && (e.col.t == p.root || e.col.dateFmt != catalog.DateYear && !yearColumn(e.col))
	})
}

// qualifiedOnly: every column the word names has a longer name whose last
// word it is ("year" of founded_year), so the word alone may as well mean the
// time grain of the rows' own date.
func qualifiedOnly(word string, ms []*meaning) bool {
	n := 0
	for _, m := range ms {
		if m.kind != mColumn || m.c.t.view {
			continue // a view's "year" restates a base table's date
		}
		if p := catalog.IdentifierPhrase(m.c.name); p == word || catalog.Singular(p) == catalog.Singular(word) {
			return false
		}
		n++
	}
	return n > 0
}

// unusedOK: frame words a reading may leave unused.
func unusedOK(sp *span) bool {
	if sp.kind != spKw {
		return false
	}
	switch sp.kw.kw {
	case kwAnd, kwWhich, kwList, kwHowMuch:
		return true
	case kwGroup:
		return sp.text == "each" || sp.text == "every"
	}
	return false
}

// coveredTime: the token at k (after articles) belongs to a time span.
func coveredTime(sc scanned, k int) bool {
	for k < len(sc.toks) && articles[sc.toks[k].w] {
		k++
	}
	for _, sp := range sc.spans {
		if sp.kind == spTime && k >= sp.tok0 && k < sp.tok0+sp.tokN {
			return true
		}
	}
	return false
}

// analystReadAs says how the analyst reading read each word it used.
func analystReadAs(spans []*span) string {
	var parts []string
	for _, sp := range spans {
		if !sp.used {
			continue
		}
		var what string
		switch sp.kind {
		case spTime:
			what = "time " + sp.rng.String()
		case spWord:
			what = describeMeanings(sp)
		case spCmp:
			what = "comparison " + sp.op
		case spNum:
			what = "the number " + sp.text
		case spKw:
			what = kwNames[sp.kw.kw]
		}
		if what == "" {
			continue
		}
		parts = append(parts, fmt.Sprintf("'%s' → %s", sp.text, what))
	}
	return "read as: " + strings.Join(parts, "; ")
}

// kwNames say what a keyword did in a reading.
var kwNames = map[kw]string{
	kwCount: "count", kwAgg: "aggregate", kwRank: "ranking", kwSuper: "ranking", kwSell: "units sold",
	kwSpend: "money spent", kwGroup: "grouping", kwWise: "grouping", kwTrend: "trend over time",
	kwGrain: "time grain", kwGrainNoun: "time grain", kwNeg: "not", kwCompare: "comparison of rows",
	kwDistinct: "distinct", kwLast: "most recent", kwFirst: "earliest", kwCmp: "comparison",
	kwDateVerb: "the date of the event",
}
