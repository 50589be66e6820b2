package draft

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"talk2tables/catalog"
	"talk2tables/catalog/internal/names"
)

// salesWords are the business synonyms the drafter gives the one measure
// that clearly is a sales amount.
var salesWords = names.SalesWords()

// amountTokens name a column holding a whole amount of money.
var amountTokens = map[string]bool{"total": true, "amount": true, "revenue": true, "sales": true, "subtotal": true, "extended": true}

// salesCandidate is a measure that may be a sales amount.
type salesCandidate struct {
	t       *tableDraft
	col     *colDraft // a column, or
	measure string    // a derived measure's name
}

// derivedMeasures proposes, on each fact table with one price (a
// non-additive money column) and one additive quantity, the line amount
// {price} * {quantity} (times 1 - {discount} when a 0..1 discount rate is
// there too), unless a column of the table already holds exactly that in
// the sampled rows. Then it gives "sales" and "revenue" to the one measure
// that clearly is the sales amount.
func (d *drafter) derivedMeasures(ctx context.Context) {
	var cands []salesCandidate
	for _, t := range d.tables {
		if t.out.Role != catalog.RoleFact {
			continue
		}
		var prices, qtys, discounts, amounts []*colDraft
		for _, c := range t.cols {
			o := c.out
			if o.Kind != catalog.KindMeasure || strings.ContainsAny(c.name(), "{}") {
				continue
			}
			switch {
			case o.Unit == "money" && o.Measure == catalog.MeasureNonAdditive && (hasToken(c.toks, "price") || hasToken(c.toks, "msrp") || hasToken(c.toks, "unit")):
				prices = append(prices, c)
			case o.Unit == "quantity" && o.Measure == catalog.MeasureAdditive:
				qtys = append(qtys, c)
			case (o.Unit == "rate" || o.Unit == "percent") && hasToken(c.toks, "discount"):
				discounts = append(discounts, c)
			case o.Unit == "money" && o.Measure == catalog.MeasureAdditive && anyToken(c.toks, amountTokens):
				amounts = append(amounts, c)
			}
		}
		for _, a := range amounts {
			cands = append(cands, salesCandidate{t: t, col: a})
		}
		if len(prices) == 0 || len(qtys) == 0 {
			continue
		}
		if len(prices) > 1 || len(qtys) > 1 || len(discounts) > 1 {
			d.notef(t.key, "%s has several prices (%s) or quantities (%s): no line amount was derived; add one under measures if you need it",
				t.key, joinNames(prices), joinNames(qtys))
			continue
		}
		expr := "{" + prices[0].name() + "} * {" + qtys[0].name() + "}"
		why := prices[0].name() + " (a price) times " + qtys[0].name() + " (a quantity)"
		if len(discounts) == 1 {
			if dc := discounts[0]; dc.out.Unit == "percent" {
				expr += " * (1 - {" + dc.name() + "} / 100.0)"
				why += ", less " + dc.name() + " (a discount in percent)"
			} else {
				expr += " * (1 - {" + dc.name() + "})"
				why += ", less " + dc.name() + " (a 0..1 discount rate)"
			}
		}
		if same := d.existingAmount(ctx, t, expr, amounts); same != nil {
			d.notef(t.key, "%s.%s already holds %s in the sampled rows: no derived line amount", t.key, same.name(), strings.NewReplacer("{", "", "}", "").Replace(expr))
			continue
		}
		name := t.singular() + " amount"
		t.measures[name] = &catalog.Measure{Table: t.key, Expression: expr, Aggregate: catalog.AggSum, Unit: "money",
			Words: []string{}, Why: why + ": the amount of each row, summed"}
		cands = append(cands, salesCandidate{t: t, measure: name})
	}
	d.salesSynonyms(cands)
}

func anyToken(toks []string, set map[string]bool) bool {
	for _, t := range toks {
		if set[t] {
			return true
		}
	}
	return false
}

// existingAmount returns the amount column that equals expr (within a cent)
// on every sampled row, if any.
func (d *drafter) existingAmount(ctx context.Context, t *tableDraft, expr string, amounts []*colDraft) *colDraft {
	sqlExpr := expr
	for _, c := range t.cols {
		sqlExpr = strings.ReplaceAll(sqlExpr, "{"+c.name()+"}", d.q.quote(c.name()))
	}
	for _, a := range amounts {
		q := d.q.quote(a.name())
		query := fmt.Sprintf("SELECT COUNT(*), SUM(CASE WHEN ABS(%s - (%s)) > 0.01 + 0.0001 * ABS(%s) THEN 1 ELSE 0 END) FROM (SELECT * FROM %s LIMIT %d) AS s WHERE %s IS NOT NULL",
			q, sqlExpr, q, d.q.from(t.src), d.opts.SampleRows, q)
		res, err := d.query(ctx, query, 1)
		if err != nil || len(res.Rows) != 1 || len(res.Rows[0]) != 2 {
			continue
		}
		if n, diff := toInt(res.Rows[0][0]), toInt(res.Rows[0][1]); n > 0 && diff == 0 {
			return a
		}
	}
	return nil
}

// salesSynonyms gives "sales" and "revenue" to the one sales amount: the
// only candidate, or the only one left after preferring line-level tables
// (a table referencing another candidate's table) over their headers.
func (d *drafter) salesSynonyms(cands []salesCandidate) {
	if len(cands) == 0 {
		return
	}
	pick := cands
	if len(pick) > 1 {
		pick = slices.DeleteFunc(slices.Clone(cands), func(c salesCandidate) bool {
			for _, other := range cands {
				if other.t != c.t && slices.Contains(other.t.fksOut, c.t) {
					return true // other is the line level of c's table
				}
			}
			return false
		})
	}
	if len(pick) != 1 {
		var what []string
		for _, c := range cands {
			what = append(what, c.describe())
		}
		slices.Sort(what)
		d.notef("", "several measures could be the sales amount (%s): none was given the words %q; add them to the one you mean",
			strings.Join(what, ", "), strings.Join(salesWords, `", "`))
		return
	}
	c := pick[0]
	const why = "the sales amount: also called sales and revenue"
	if c.col != nil {
		for _, w := range salesWords {
			if !c.t.wordUsed(w) {
				c.col.out.Words = append(c.col.out.Words, w)
			}
		}
		c.col.out.Why += "; " + why
		return
	}
	m := c.t.measures[c.measure]
	m.Words = append(m.Words, salesWords...)
	m.Why += "; " + why
}

func (c salesCandidate) describe() string {
	if c.col != nil {
		return c.t.key + "." + c.col.name()
	}
	return "the derived " + c.measure
}

// wordUsed reports whether a column of the table already has the word.
func (t *tableDraft) wordUsed(w string) bool {
	for _, c := range t.cols {
		if slices.Contains(c.out.Words, w) {
			return true
		}
	}
	return false
}
