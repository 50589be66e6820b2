package builtin

import "time"

type spanKind int

const (
	spTime spanKind = iota + 1
	spProduct
	spValue
	spNoun // user-friendly term and/or table word, possibly also an aggregation
	spAgg
	spKw
	spNum
)

// span is a recognised piece of the question.
type span struct {
	kind             spanKind
	text             string
	tw               *timeWindow
	prod             *product
	values           []valueRef
	terms            []*entry // term entries (columns)
	tables           []*table
	agg              *entry
	kw               kw
	num              int
	fuzzy            bool
	plural           bool
	ambiguousProduct bool

	used    bool  // consumed by a role
	label   *span // noun naming this value/product ("north region")
	labelOf *span
}

func (s *span) isNoun() bool { return s.kind == spNoun }

// scan turns the tokens into spans; words it cannot place are returned in unknown.
func (m *model) scan(toks []token, today time.Time) (spans []*span, unknown []string) {
	for i := 0; i < len(toks); {
		tok := toks[i]
		if i == 0 && commandVerbs[tok.norm] {
			k := kwList
			if tok.norm == "compare" {
				k = kwCompare
			}
			if tok.norm != "tell" {
				spans = append(spans, &span{kind: spKw, kw: k, text: tok.norm})
			}
			i++
			continue
		}
		// metadata lexicon: longest phrase
		best := 0
		var cands []*entry
		for _, e := range m.lex[tok.stem] {
			n := len(e.toks)
			if n < best || !matchAt(toks, i, e.toks) {
				continue
			}
			if n > best {
				best, cands = n, cands[:0]
			}
			cands = append(cands, e)
		}
		tn, tw := m.matchTime(toks, i, today)
		kn, k := matchKeyword(toks, i)
		n := max(best, tn, kn)
		if n == 0 {
			switch {
			case tok.isNum:
				spans = append(spans, &span{kind: spNum, num: tok.num, text: tok.norm})
			case stopwords[tok.norm]:
			default:
				if sp := m.fuzzy(tok); sp != nil {
					spans = append(spans, sp)
				} else {
					unknown = append(unknown, tok.norm)
				}
			}
			i++
			continue
		}
		text := joinNorm(toks[i : i+n])
		var sp *span
		if best == n {
			sp = spanFromEntries(cands, text)
		}
		if sp == nil && tn == n {
			sp = &span{kind: spTime, tw: tw, text: text}
		}
		if kn == n {
			if sp == nil {
				sp = &span{kind: spKw, text: text}
			}
			sp.kw = k
		}
		if sp == nil { // a longer keyword or time form lost to nothing: fall back to the winner
			if tn > 0 && tn == n {
				sp = &span{kind: spTime, tw: tw, text: text}
			} else {
				sp = &span{kind: spKw, kw: k, text: text}
			}
		}
		sp.plural = toks[i+n-1].stem != toks[i+n-1].norm
		spans = append(spans, sp)
		i += n
	}
	return spans, unknown
}

func matchAt(toks []token, i int, want []string) bool {
	if i+len(want) > len(toks) {
		return false
	}
	for k, w := range want {
		if toks[i+k].stem != w {
			return false
		}
	}
	return true
}

func matchKeyword(toks []token, i int) (int, kw) {
	if i+1 < len(toks) {
		if k, ok := keywords[toks[i].stem+" "+toks[i+1].stem]; ok {
			return 2, k
		}
		if k, ok := keywords[toks[i].norm+" "+toks[i+1].norm]; ok {
			return 2, k
		}
	}
	if k, ok := keywords[toks[i].norm]; ok {
		return 1, k
	}
	if k, ok := keywords[toks[i].stem]; ok {
		return 1, k
	}
	return 0, kwNone
}

// spanFromEntries merges the meanings of one phrase.
func spanFromEntries(cands []*entry, text string) *span {
	sp := &span{text: text}
	for _, e := range cands {
		switch e.kind {
		case entDate:
			return &span{kind: spTime, text: text, tw: &timeWindow{phrase: text, expr: e.expr}}
		case entProduct:
			if sp.prod != nil && sp.prod != e.prod {
				sp.ambiguousProduct = true
			}
			sp.prod = e.prod
		case entValue:
			sp.values = append(sp.values, e.values...)
		case entTerm:
			sp.terms = append(sp.terms, e)
		case entTable:
			sp.tables = appendTable(sp.tables, e.tbl)
		case entAgg:
			sp.agg = e
		}
	}
	switch {
	case sp.prod != nil:
		sp.kind = spProduct
	case len(sp.values) > 0:
		sp.kind = spValue
	case len(sp.terms) > 0 || len(sp.tables) > 0:
		sp.kind = spNoun
	case sp.agg != nil:
		sp.kind = spAgg
	default:
		return nil
	}
	return sp
}

func appendTable(ts []*table, t *table) []*table {
	for _, x := range ts {
		if x == t {
			return ts
		}
	}
	return append(ts, t)
}

// fuzzy matches a misspelt word to a unique single-word phrase.
func (m *model) fuzzy(tok token) *span {
	limit := fuzzyLimit(len(tok.norm))
	if limit == 0 || tok.isNum {
		return nil
	}
	bestD := limit + 1
	var hits []*entry
	word := ""
	unique := true
	for _, fw := range m.fuzzyWords {
		d := dlDistance(tok.norm, fw.word, limit)
		if d2 := dlDistance(tok.stem, fw.word, limit); d2 < d {
			d = d2
		}
		if d > limit {
			continue
		}
		if d < bestD {
			bestD, hits, word, unique = d, hits[:0], fw.word, true
		}
		if d == bestD {
			if fw.word != word {
				unique = false
			}
			hits = append(hits, fw.entry)
		}
	}
	if len(hits) == 0 || !unique {
		return nil
	}
	sp := spanFromEntries(hits, tok.norm)
	if sp != nil {
		sp.fuzzy = true
	}
	return sp
}
