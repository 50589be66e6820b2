package builtin

import (
	"fmt"
	"strings"
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
		for k := sp.tok0; k < sp.tok0+sp.tokN && k < len(covered); k++ {
			covered[k] = true
		}
	}
	related := len(p.joins.edges) > 0 || len(p.where) > 0
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
