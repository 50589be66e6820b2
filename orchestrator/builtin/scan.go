package builtin

import (
	"slices"
	"strings"
	"time"
)

type spanKind int

const (
	spWord spanKind = iota + 1 // a catalog or schema phrase (ms), maybe also a keyword
	spTime                     // a date range
	spNum                      // a number
	spKw                       // built-in English only
	spCmp                      // a comparison with its number(s)
)

// span is one recognised piece of a question.
type span struct {
	idx   int
	text  string
	kind  spanKind
	ms    []*meaning
	typo  string // the phrase a misspelt word was read as
	kw    kwInfo // keyword meaning (spKw, or a spWord that is also a keyword)
	num   float64
	isInt bool
	money bool
	rng   *dateRange
	op    string // spCmp: >, >=, <, <=, =, between
	a, b  float64
	used  bool
	// tok0, tokN: the tokens the span covers
	tok0, tokN int
	// afterHave: "have", "has" or "with" comes right before (articles
	// aside): "customers with an email" asks for rows having one.
	afterHave bool
}

func (s *span) is(k kw) bool { return s != nil && s.kw.kw == k }

// has reports whether the span can name something of this kind.
func (s *span) has(k meaningKind) bool {
	if s == nil {
		return false
	}
	for _, m := range s.ms {
		if m.kind == k {
			return true
		}
	}
	return false
}

func (s *span) meanings(k meaningKind) []*meaning {
	var out []*meaning
	for _, m := range s.ms {
		if m.kind == k {
			out = append(out, m)
		}
	}
	return out
}

// tables returns the tables the span names as tables.
func (s *span) tables() []*table {
	var out []*table
	for _, m := range s.ms {
		if m.kind == mTable {
			out = appendUnique(out, m.t)
		}
	}
	return out
}

func appendUnique[T comparable](s []T, v T) []T {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// scanned is a question read into spans.
type scanned struct {
	spans    []*span
	unknown  []string
	rewrites []string // synonyms applied: "clients → customers"
	toks     []token
}

// scan turns the question into spans, longest phrase first.
func (m *model) scan(question string, today time.Time) scanned {
	toks := hasteExpanded(tokenize(question))
	var sc scanned
	toks, sc.rewrites = m.applySynonyms(toks)
	if re := m.unabbreviated(toks); re != nil {
		toks = re // "riggers" where the table is rggr
	}
	sc.toks = toks
	have := false
	var verbs []int
	for i := 0; i < len(toks); {
		n, sp := m.spanAt(toks, i, today)
		if sp != nil && sp.kind == spWord {
			if ms := perGrainOf(toks, i+n, sp.ms); ms != nil {
				// "the mooring per month" beside a mooring_pm: that column
				sp.ms, sp.text, n = ms, sp.text+" "+joinWords(toks[i+n:i+n+2]), n+2
			}
		}
		switch {
		case sp != nil:
			sp.idx = len(sc.spans)
			sp.tok0, sp.tokN = i, n
			sp.afterHave = have
			sc.spans = append(sc.spans, sp)
			have = false
		case n == 1 && !stopwords[toks[i].w]:
			sc.unknown = append(sc.unknown, toks[i].text)
		case n == 1 && m.verbTable(toks[i].w) != nil && pastParticiple(toks[i].w) && timeFollows(toks, i+1, today):
			verbs = append(verbs, i)
		case n == 1 && m.flagNamed(toks[i].w) != nil:
			// "which kiosks are recorded" beside an is_recorded column: the
			// column's own word, never filler
			sc.unknown = append(sc.unknown, toks[i].text)
		case haveWords[toks[i].w]:
			have = true
		case !articles[toks[i].w]:
			have = false
		}
		i += n
	}
	for _, i := range verbs {
		if !namedBy(m.verbTable(toks[i].w), sc.spans) {
			// "masts performed in 2024" beside a performances table: the
			// verb names rows this reading does not join, not filler
			sc.unknown = append(sc.unknown, toks[i].text)
		}
	}
	sc.spans = foldPostfixComparisons(sc.spans)
	return sc
}

var (
	haveWords = setOf("have", "has", "having", "had", "with")
	articles  = setOf("a", "an", "the", "any", "some")
)

// spanAt reads the span at toks[i]; it returns the tokens used and the span
// (nil for a stopword or an unknown word).
func (m *model) spanAt(toks []token, i int, today time.Time) (int, *span) {
	t := toks[i]
	if t.sym != "" {
		if n, sp := comparison(toks, i, kwInfo{kw: kwCmp, op: t.sym}, 1); n > 0 {
			return n, sp
		}
		return 1, nil
	}
	var e *lexEntry
	if m.lex != nil {
		e = m.lex.longest(toks, i)
		if e != nil && len(e.toks) == 1 && stopwords[t.w] && onlyNames(e) {
			e = nil // "a", "all": a value that is also a filler word is not read
		}
		if e != nil && allNumbers(toks[i:i+len(e.toks)]) {
			e = nil // "top 5", "in 2025": numbers, not the values 5 or 2025 of some column
		}
		if e != nil && len(e.toks) == 1 && verbParticle(toks, i) {
			return 1, nil // "crates that went out": the verb's particle, not a crates_out column
		}
		if e != nil && len(e.toks) == 1 && m.linkParticiple(toks, i, e.ms) {
			return 1, nil // "crates packed on bench 4": a verb this reading has no link for
		}
	}
	tn, rng := matchTime(toks, i, today)
	kn, info := matchKeyword(toks, i)
	if e != nil && onlyViewColumns(e) && (kn > 0 || tn > 0) {
		e = nil // "total weight": the keyword and a table's column, not a view's
	}
	le := 0
	if e != nil {
		le = len(e.toks)
	}
	if info.kw == kwCmp {
		if n, sp := comparison(toks, i, info, kn); n > 0 && n >= le && n >= tn {
			return n, sp
		}
		if le == 0 && tn == 0 {
			if kn == 1 && (t.w == "over" || t.w == "under" || t.w == "above" || t.w == "below") {
				return 1, nil // "over the past 14 days": a filler word here
			}
		}
	}
	if i == 0 && commandWords[t.w] && kn >= 1 && kn >= le {
		return kn, &span{text: joinWords(toks[i : i+kn]), kind: spKw, kw: info}
	}
	best := max(le, tn, kn)
	if best == 0 {
		if t.isNum {
			return 1, &span{text: t.text, kind: spNum, num: t.num, isInt: t.isInt, money: t.money}
		}
		if stopwords[t.w] || m.lex == nil {
			return 1, nil
		}
		return m.typoSpan(toks, i)
	}
	text := joinWords(toks[i : i+best])
	switch {
	case tn == best && le < best:
		return tn, &span{text: text, kind: spTime, rng: rng}
	case le == best:
		sp := &span{text: text, kind: spWord, ms: e.ms}
		if kn == best {
			sp.kw = info
		}
		if onlyAgg(e) {
			if kn == best {
				return best, &span{text: text, kind: spKw, kw: info}
			}
			sp.kind, sp.kw = spKw, kwInfo{kw: kwAgg, fn: e.ms[0].fn}
		}
		return best, sp
	}
	return kn, &span{text: text, kind: spKw, kw: info}
}

func allNumbers(toks []token) bool {
	for _, t := range toks {
		if !t.isNum && !t.iso {
			return false
		}
	}
	return !namedNumber(toks)
}

// verbParticle: the word at i is a particle after a verb that takes one
// ("went out", "came back", "signed up"): the verb's, not a word naming
// a column.
func verbParticle(toks []token, i int) bool {
	return i > 0 && particles[toks[i].w] && phrasalVerb(toks[i-1].w)
}

// phrasalVerb: a verb that takes a particle; past participles ("sent",
// "signed") are read by pastParticiple.
func phrasalVerb(w string) bool {
	switch w {
	case "go", "goes", "went", "gone", "going", "come", "comes", "came", "coming", "get", "gets", "got", "send",
		"take", "took", "give", "gave", "bring", "put", "set", "hand", "check", "sign", "log", "book", "pay":
		return true
	}
	return pastParticiple(w)
}

// namedNumber: one number word typed with a capital inside a sentence
// ("mast type Nine", beside a type named "Nine") is that name, not 9.
func namedNumber(toks []token) bool {
	return len(toks) == 1 && !toks[0].stop && startsUpper(toks[0].orig) && !strings.ContainsAny(toks[0].text, "0123456789")
}

func onlyNames(e *lexEntry) bool {
	for _, m := range e.ms {
		if m.kind != mValue && m.kind != mEntity {
			return false
		}
	}
	return true
}

func onlyAgg(e *lexEntry) bool {
	for _, m := range e.ms {
		if m.kind != mAgg {
			return false
		}
	}
	return len(e.ms) > 0
}

// comparison reads a comparator of kn tokens and its number(s): "over
// 100", "between 10 and 50", "more than $1,000".
func comparison(toks []token, i int, info kwInfo, kn int) (int, *span) {
	j := i + kn
	if j >= len(toks) || !toks[j].isNum {
		return 0, nil
	}
	sp := &span{kind: spCmp, op: info.op, a: toks[j].num, money: toks[j].money, kw: info}
	n := kn + 1
	if info.op == "between" {
		if j+2 >= len(toks) || toks[j+1].w != "and" || !toks[j+2].isNum {
			return 0, nil
		}
		sp.b = toks[j+2].num
		sp.money = sp.money || toks[j+2].money
		n += 2
		if sp.b < sp.a {
			sp.a, sp.b = sp.b, sp.a
		}
	}
	sp.text = joinWords(toks[i : i+n])
	return n, sp
}

// foldPostfixComparisons reads "5 or more" as ">= 5".
func foldPostfixComparisons(spans []*span) []*span {
	out := spans[:0]
	for _, sp := range spans {
		if sp.kind == spKw && sp.kw.kw == kwCmp && (sp.kw.op == ">=+" || sp.kw.op == "<=+") && len(out) > 0 && out[len(out)-1].kind == spNum {
			prev := out[len(out)-1]
			out[len(out)-1] = &span{idx: prev.idx, kind: spCmp, op: sp.kw.op[:2], a: prev.num, money: prev.money,
				text: prev.text + " " + sp.text, tok0: prev.tok0, tokN: sp.tok0 + sp.tokN - prev.tok0}
			continue
		}
		out = append(out, sp)
	}
	for i, sp := range out {
		sp.idx = i
	}
	return out
}

// typoSpan reads a misspelt phrase at toks[i], or reports the word unknown.
func (m *model) typoSpan(toks []token, i int) (int, *span) {
	if e := m.synonymEntry(toks, i); e != nil {
		// "customers" where the table is patrons
		return 1, &span{text: toks[i].text, kind: spWord, typo: e.text, ms: e.ms}
	}
	if len(toks[i].w) < 5 {
		return 1, nil
	}
	hits, n := m.lex.typo(toks, i)
	if len(hits) == 0 {
		return 1, nil
	}
	sp := &span{text: joinWords(toks[i : i+n]), kind: spWord, typo: hits[0].text}
	for _, h := range hits {
		sp.ms = append(sp.ms, h.ms...)
		if h.text != hits[0].text {
			sp.typo += " or " + h.text
		}
	}
	return n, sp
}

// applySynonyms replaces catalog synonyms (longest first) by their target
// words, so the rest of the scan reads the target.
func (m *model) applySynonyms(toks []token) ([]token, []string) {
	if len(m.synonyms) == 0 {
		return toks, nil
	}
	var out []token
	var notes []string
	for i := 0; i < len(toks); {
		done := false
		for n := min(m.maxSynonym, len(toks)-i); n >= 1 && !done; n-- {
			var b strings.Builder
			for k := i; k < i+n; k++ {
				if k > i {
					b.WriteByte(' ')
				}
				b.WriteString(toks[k].s)
			}
			if to, ok := m.synonyms[b.String()]; ok {
				for _, w := range to {
					out = append(out, makeWord(w))
				}
				notes = append(notes, "'"+joinWords(toks[i:i+n])+"' read as '"+strings.Join(to, " ")+"'")
				i += n
				done = true
			}
		}
		if !done {
			out = append(out, toks[i])
			i++
		}
	}
	return out, notes
}

// namedBy: a span names table t itself, one of its columns other than a
// key, or one of its values ("kiosks based at Harbour", Harbour a base's
// name).
func namedBy(t *table, spans []*span) bool {
	return slices.ContainsFunc(spans, func(sp *span) bool { return meansOwn(sp.ms, t) })
}
