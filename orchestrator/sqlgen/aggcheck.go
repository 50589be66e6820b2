package sqlgen

import (
	"fmt"
	"strings"

	"talk2tables/sqlerr"
	"talk2tables/sqlscan"
)

// CheckAggregation finds the aggregation mistake SQLite accepts silently: a
// SELECT that mixes aggregates with bare columns missing from GROUP BY (or
// has a GROUP BY and selects a column it does not group). SQLite then returns
// a value from an arbitrary row; PostgreSQL would refuse the query. The
// result is a *sqlerr.Error with Category AGGREGATION_ERROR naming the
// column, or nil.
//
// It is conservative: statements it cannot analyse reliably (CTEs, compound
// selects, subqueries in the select list or GROUP BY, window functions,
// FILTER clauses, SELECT *) pass. A column of the same table as a grouped id
// column (GROUP BY p.product_id ... p.product_name) is taken as functionally
// dependent and passes too.
func CheckAggregation(sql string) error { return CheckAggregationIn("sqlite", sql) }

// CheckAggregationIn is CheckAggregation with the lexical rules of dialect
// ("sqlite", "postgres", "mysql": MariaDB, and MySQL without
// ONLY_FULL_GROUP_BY, accept the mistake silently as SQLite does). SQL in
// another or no dialect is left to the engine.
func CheckAggregationIn(dialect, sql string) error {
	d, err := sqlscan.ParseDialect(dialect)
	if err != nil {
		return nil
	}
	toks, err := d.Tokenize(sql)
	if err != nil {
		return nil
	}
	for len(toks) > 0 && toks[len(toks)-1].IsPunct(";") {
		toks = toks[:len(toks)-1]
	}
	if len(toks) == 0 || !toks[0].IsWord("SELECT") {
		return nil
	}
	q, ok := splitSelect(toks)
	if !ok {
		return nil
	}

	items := make([]selectItem, 0, len(q.items))
	anyAgg := false
	for _, it := range splitTop(q.items) {
		si, ok := analyseItem(it)
		if !ok {
			return nil
		}
		anyAgg = anyAgg || si.hasAgg
		items = append(items, si)
	}
	if !anyAgg && q.groupBy == nil {
		return nil
	}

	grouped := make([]bool, len(items))
	var groupCols []colRef
	for _, g := range splitTop(q.groupBy) {
		if len(g) == 0 {
			continue
		}
		if len(g) == 1 && g[0].Kind == sqlscan.Number {
			var k int
			if _, err := fmt.Sscanf(g[0].Text, "%d", &k); err == nil && k >= 1 && k <= len(items) {
				grouped[k-1] = true
			}
			continue
		}
		text := exprText(g)
		for i, it := range items {
			if it.text == text || (it.alias != "" && len(g) == 1 && g[0].IsIdent() && g[0].Upper == it.alias) {
				grouped[i] = true
			}
		}
		ge, ok := scanExpr(g)
		if !ok {
			return nil
		}
		groupCols = append(groupCols, ge.refs...) // columns inside a grouped expression count as grouped
	}

	for i, it := range items {
		if grouped[i] {
			continue
		}
		for _, ref := range it.refs {
			if ref.groupedBy(groupCols) || ref.dependsOn(groupCols) {
				continue
			}
			msg := fmt.Sprintf("column %s is selected without an aggregate but is not in GROUP BY "+
				"(SQLite would return a value from an arbitrary row); add it to GROUP BY or wrap it in an aggregate", ref.text)
			if q.groupBy == nil {
				msg = fmt.Sprintf("column %s is selected next to an aggregate without GROUP BY "+
					"(SQLite would return a value from an arbitrary row); add GROUP BY %s or wrap it in an aggregate", ref.text, ref.text)
			}
			return sqlerr.New(sqlerr.AggregationError, msg)
		}
	}
	return nil
}

// selectParts are the token ranges of a simple SELECT.
type selectParts struct {
	items   []sqlscan.Token
	groupBy []sqlscan.Token // nil when there is no GROUP BY
}

// splitSelect finds the select list and the GROUP BY list at paren depth 0.
// ok is false for compound selects and window definitions.
func splitSelect(toks []sqlscan.Token) (selectParts, bool) {
	var p selectParts
	i := 1
	if i < len(toks) && (toks[i].IsWord("DISTINCT") || toks[i].IsWord("ALL")) {
		i++
	}
	start := i
	depth := 0
	itemsEnd, groupStart, groupEnd := -1, -1, -1
	for ; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.IsPunct("("):
			depth++
			continue
		case t.IsPunct(")"):
			depth--
			continue
		}
		if depth != 0 || t.Kind != sqlscan.Word {
			continue
		}
		switch t.Upper {
		case "UNION", "INTERSECT", "EXCEPT", "WINDOW", "OVER":
			return p, false
		case "FROM", "WHERE", "HAVING", "ORDER", "LIMIT":
			if itemsEnd < 0 {
				itemsEnd = i
			}
			if groupStart >= 0 && groupEnd < 0 {
				groupEnd = i
			}
		case "GROUP":
			if i+1 < len(toks) && toks[i+1].IsWord("BY") {
				if itemsEnd < 0 {
					itemsEnd = i
				}
				groupStart = i + 2
				i++
			}
		}
	}
	if itemsEnd < 0 {
		itemsEnd = len(toks)
	}
	p.items = toks[start:itemsEnd]
	if groupStart >= 0 {
		if groupEnd < 0 {
			groupEnd = len(toks)
		}
		p.groupBy = toks[groupStart:groupEnd]
		if p.groupBy == nil {
			p.groupBy = []sqlscan.Token{}
		}
	}
	return p, len(p.items) > 0
}

// splitTop splits toks at commas of paren depth 0.
func splitTop(toks []sqlscan.Token) [][]sqlscan.Token {
	if len(toks) == 0 {
		return nil
	}
	var out [][]sqlscan.Token
	depth, start := 0, 0
	for i, t := range toks {
		switch {
		case t.IsPunct("("):
			depth++
		case t.IsPunct(")"):
			depth--
		case t.IsPunct(",") && depth == 0:
			out = append(out, toks[start:i])
			start = i + 1
		}
	}
	return append(out, toks[start:])
}

// selectItem is one analysed select-list entry.
type selectItem struct {
	text   string   // normalised expression text, alias removed
	alias  string   // upper-cased alias, if any
	hasAgg bool     // contains an aggregate call
	refs   []colRef // column references outside aggregate calls
}

// colRef is a column reference; qual and name are upper-cased.
type colRef struct {
	qual, name, text string
}

func (r colRef) groupedBy(cols []colRef) bool {
	for _, g := range cols {
		if g.name == r.name && (g.qual == "" || r.qual == "" || g.qual == r.qual) {
			return true
		}
	}
	return false
}

// dependsOn reports whether r is probably functionally dependent on a grouped
// id column: same table qualifier (GROUP BY p.product_id → p.product_name),
// or the same name prefix (GROUP BY product_id → product_name).
func (r colRef) dependsOn(cols []colRef) bool {
	for _, g := range cols {
		if g.name != "ID" && !strings.HasSuffix(g.name, "_ID") {
			continue
		}
		if g.qual != "" && g.qual == r.qual {
			return true
		}
		if prefix := strings.TrimSuffix(g.name, "ID"); prefix != "" && strings.HasPrefix(r.name, prefix) {
			return true
		}
	}
	return false
}

// sqlKeywords are words that are never column references in an expression.
var sqlKeywords = map[string]bool{
	"SELECT": true, "FROM": true, "WHERE": true, "AND": true, "OR": true, "NOT": true, "NULL": true,
	"IS": true, "IN": true, "LIKE": true, "GLOB": true, "REGEXP": true, "MATCH": true, "BETWEEN": true,
	"CASE": true, "WHEN": true, "THEN": true, "ELSE": true, "END": true, "DISTINCT": true, "ALL": true,
	"AS": true, "ESCAPE": true, "COLLATE": true, "TRUE": true, "FALSE": true, "CURRENT_DATE": true,
	"CURRENT_TIME": true, "CURRENT_TIMESTAMP": true, "EXISTS": true, "ISNULL": true, "NOTNULL": true,
	"CAST": true, "ASC": true, "DESC": true, "NOCASE": true, "RTRIM": true, "BINARY": true,
}

// aggregateFuncs are SQLite's aggregate functions (MIN/MAX only with one
// argument; with more they are scalar).
var aggregateFuncs = map[string]bool{
	"COUNT": true, "SUM": true, "AVG": true, "TOTAL": true, "MIN": true, "MAX": true,
	"GROUP_CONCAT": true, "STRING_AGG": true, "JSON_GROUP_ARRAY": true, "JSON_GROUP_OBJECT": true,
	"JSONB_GROUP_ARRAY": true, "JSONB_GROUP_OBJECT": true, "MEDIAN": true,
}

// analyseItem splits off the alias and scans the expression; ok is false when
// the item is beyond this check (subquery, window, FILTER, star).
func analyseItem(toks []sqlscan.Token) (selectItem, bool) {
	var si selectItem
	n := len(toks)
	if n == 0 {
		return si, false
	}
	switch {
	case n >= 3 && toks[n-2].IsWord("AS") && toks[n-1].IsIdent():
		si.alias = toks[n-1].Upper
		toks = toks[:n-2]
	case n >= 2 && toks[n-1].IsIdent() && !sqlKeywords[toks[n-1].Upper] && aliasFollows(toks[n-2]):
		si.alias = toks[n-1].Upper
		toks = toks[:n-1]
	}
	res, ok := scanExpr(toks)
	if !ok {
		return si, false
	}
	si.text = exprText(toks)
	si.hasAgg = res.hasAgg
	si.refs = res.refs
	return si, true
}

// aliasFollows reports whether a bare identifier after t is an alias.
func aliasFollows(t sqlscan.Token) bool {
	switch {
	case t.IsPunct(")"), t.Kind == sqlscan.String, t.Kind == sqlscan.Number, t.Kind == sqlscan.Quoted:
		return true
	case t.Kind == sqlscan.Word:
		return !sqlKeywords[t.Upper] || t.Upper == "END" || t.Upper == "NULL"
	}
	return false
}

type exprScan struct {
	hasAgg bool
	refs   []colRef
}

// scanExpr finds aggregate calls and the column references outside them.
func scanExpr(toks []sqlscan.Token) (exprScan, bool) {
	var r exprScan
	for i := 0; i < len(toks); {
		t := toks[i]
		switch {
		case t.IsPunct("*") && (i == 0 || toks[i-1].IsPunct(".")) && len(toks) <= 3:
			return r, false // SELECT * or t.*
		case t.Kind == sqlscan.Word && (t.Upper == "SELECT" || t.Upper == "OVER" || t.Upper == "FILTER"):
			return r, false
		case t.Kind == sqlscan.Word && i+1 < len(toks) && toks[i+1].IsPunct("("):
			end := sqlscan.ClosingParen(toks, i+1)
			if end < 0 {
				return r, false
			}
			if aggregateFuncs[t.Upper] && ((t.Upper != "MIN" && t.Upper != "MAX") || len(splitTop(toks[i+2:end])) == 1) {
				r.hasAgg = true
				i = end + 1
				continue
			}
			i += 2 // scalar function: scan its arguments
		case t.IsWord("AS"): // CAST(x AS type): skip the type name words
			i++
			for i < len(toks) && toks[i].Kind == sqlscan.Word {
				i++
			}
		case t.Kind == sqlscan.Word && sqlKeywords[t.Upper]:
			i++
		case t.IsIdent():
			ref := colRef{name: t.Upper, text: t.Text}
			j := i + 1
			for j+1 < len(toks) && toks[j].IsPunct(".") && toks[j+1].IsIdent() {
				ref = colRef{qual: ref.name, name: toks[j+1].Upper, text: ref.text + "." + toks[j+1].Text}
				j += 2
			}
			r.refs = append(r.refs, ref)
			i = j
		default:
			i++
		}
	}
	return r, true
}

// exprText normalises an expression for comparison: words and quoted
// identifiers upper-cased, single spaces.
func exprText(toks []sqlscan.Token) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		switch t.Kind {
		case sqlscan.Word, sqlscan.Quoted:
			parts[i] = t.Upper
		default:
			parts[i] = t.Text
		}
	}
	return strings.Join(parts, " ")
}
