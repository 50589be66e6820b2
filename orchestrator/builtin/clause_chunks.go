package builtin

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"talk2tables/catalog"
)

// chunkKind is what a piece of a question is, before the parse gives it a role.
type chunkKind int

const (
	ckSchema chunkKind = iota + 1 // a table, column, value or entity phrase (ms), maybe also a clause word
	ckNum                         // a number
	ckLit                         // a literal typed in quotes
	ckTime                        // a date range
	ckWord                        // a clause word (info), or an unknown word (info.cw == cwNone)
)

// chunk is one piece of a question: a phrase of one or more tokens.
type chunk struct {
	i, j int  // tokens [i, j)
	stop bool // a sentence ends right before it
	// hyphen: a hyphen joins it to the chunk before ("NW-B4")
	hyphen bool
	text   string
	orig   string // as typed, capitals kept
	kind   chunkKind
	ms     []*meaning
	info   cinfo
	num    float64
	isInt  bool
	money  bool
	rng    *dateRange
	typo   string
	// role is what the chunk became in the plan ("" while unused).
	role string
	// verb: a verb form of a table's name ("<table>ed"), standing for its rows
	verb bool
	// quoted: typed in quotes (a literal, or a value the schema knows)
	quoted bool
}

func (c *chunk) is(k cword) bool { return c != nil && c.info.cw == k }

// textOr is the chunk's text, "" for none.
func (c *chunk) textOr() string {
	if c == nil {
		return ""
	}
	return c.text
}

func (c *chunk) schema() bool { return c != nil && c.kind == ckSchema }

// capitalised: every word typed with a capital (a name: "Riverside Rovers").
func (c *chunk) capitalised() bool {
	if c == nil || c.orig == "" {
		return false
	}
	for _, w := range strings.Fields(c.orig) {
		r := []rune(w)
		if !unicode.IsUpper(r[0]) && !unicode.IsDigit(r[0]) {
			return false
		}
	}
	return true
}

// clauseTokenize is tokenize with literals typed in quotes kept whole:
// 'Hey Jude', "O'Neil", ‘x’, “x”.
func clauseTokenize(q string) []token {
	rs := []rune(q)
	var out []token
	start := 0
	for i := 0; i < len(rs); i++ {
		if !opensQuote(rs, i) {
			continue
		}
		j := closingQuote(rs, i)
		if j < 0 {
			continue
		}
		out = append(out, tokenize(string(rs[start:i]))...)
		lit := strings.TrimSpace(string(rs[i+1 : j]))
		if lit != "" {
			lw := strings.ToLower(lit)
			out = append(out, token{text: string(rs[i : j+1]), w: lw, s: lw, orig: lit, quoted: true})
		}
		start, i = j+1, j
	}
	return hasteExpanded(append(out, tokenize(string(rs[start:]))...))
}

func isQuoteRune(r rune) bool {
	return r == '\'' || r == '"' || r == '‘' || r == '’' || r == '“' || r == '”' || r == '`'
}

// opensQuote: a quote at the start of a word (not an apostrophe inside
// one: "the row's", "the rows' names").
func opensQuote(rs []rune, i int) bool {
	if !isQuoteRune(rs[i]) || rs[i] == '’' || rs[i] == '”' {
		return false
	}
	if i > 0 && (unicode.IsLetter(rs[i-1]) || unicode.IsDigit(rs[i-1])) {
		return false
	}
	return i+1 < len(rs) && !unicode.IsSpace(rs[i+1])
}

// closingQuote finds the quote closing the one at i: the same kind (or
// its right-hand form), followed by no letter.
func closingQuote(rs []rune, i int) int {
	want := map[rune][]rune{'\'': {'\'', '’'}, '"': {'"', '”'}, '‘': {'’', '\''}, '“': {'”', '"'}, '`': {'`'}}[rs[i]]
	for j := i + 1; j < len(rs); j++ {
		for _, w := range want {
			if rs[j] != w {
				continue
			}
			if j+1 < len(rs) && (unicode.IsLetter(rs[j+1]) || unicode.IsDigit(rs[j+1])) {
				continue // an apostrophe inside the literal: 'O'Neil'
			}
			return j
		}
	}
	return -1
}

// matchClauseWord returns the longest clause phrase at toks[i], on words
// as typed, then on singular stems.
func matchClauseWord(toks []token, i int) (int, cinfo) {
	return matchClauseWordAt(toks, i, true)
}

// matchClauseWordAt is matchClauseWord; overlaps says whether a phrase
// whose last word starts a longer one is passed over (checked one level
// deep: checking it again at every word made a long question take
// exponential time).
func matchClauseWordAt(toks []token, i int, overlaps bool) (int, cinfo) {
	for n := min(maxClauseWords, len(toks)-i); n >= 1; n-- {
		var b, s strings.Builder
		ok := true
		for k := i; k < i+n; k++ {
			t := toks[k]
			if t.quoted || t.isNum && !isNumberWord(t.w) && t.sym == "" {
				ok = false
				break
			}
			if k > i {
				b.WriteByte(' ')
				s.WriteByte(' ')
			}
			b.WriteString(t.w)
			s.WriteString(t.s)
		}
		if !ok {
			continue
		}
		if n > 1 && overlaps && overlapsLonger(toks, i+n-1) {
			continue // "ran at least 3": the last word starts "at least"
		}
		if info, found := clauseWords[b.String()]; found {
			return n, info
		}
		if info, found := clauseWords[s.String()]; found && info.cw != cwOrderBy {
			return n, info // stems, but "<table> by <column>" is not "order by"
		}
	}
	return 0, cinfo{}
}

// overlapsLonger: a phrase of two or more words starts at toks[i] and runs
// past it, so a phrase ending at toks[i] must leave that word to it.
func overlapsLonger(toks []token, i int) bool {
	n, _ := matchClauseWordAt(toks, i, false)
	return n >= 2
}

// chunks reads the question into chunks, longest phrase first: literals,
// schema and catalog phrases, dates, clause words, numbers; a word that is
// none of these is an unknown word chunk (or a typo of a schema phrase).
func (m *model) chunks(toks []token, today time.Time) []*chunk {
	var out []*chunk
	for i := 0; i < len(toks); {
		c := m.coordinated(toks, i)
		if c == nil {
			c = m.chunkAt(toks, i, today)
		}
		c.i = i
		if c.j == 0 {
			c.j = i + 1
		}
		if c.kind == ckSchema {
			if ms := perGrainOf(toks, c.j, c.ms); ms != nil {
				// "the mooring per month" beside a mooring_pm: that column
				c.ms, c.j = ms, c.j+2
			}
		}
		var text []string
		var orig strings.Builder
		for k, t := range toks[c.i:c.j] {
			text = append(text, t.text)
			o := t.orig
			if o == "" {
				o = t.text
			}
			switch {
			case k > 0 && t.hyphen:
				orig.WriteString("-") // "NW-B4" as typed
			case k > 0:
				orig.WriteString(" ")
			}
			orig.WriteString(o)
		}
		c.text, c.orig = strings.Join(text, " "), orig.String()
		c.stop, c.hyphen = toks[c.i].stop, toks[c.i].hyphen
		if c.kind == ckWord && c.info.cw == cwCount && slices.Contains(strings.Fields(c.text), "numbers") {
			// "the numbers of the kiosks": their numbers, not how many
			c.info = cinfo{}
		}
		if c.kind == ckWord && c.info.cw == cwNone && m.databaseWord(c.text) {
			// "the allotment sites": the database's own name
			c.info = cinfo{cw: cwFiller}
		}
		if c.kind == ckSchema && c.text == "year" && c.j < len(toks) && isYearLike(toks[c.j]) {
			// "in the year 2019": the year of the rows' date, not a column
			// called year of some other table
			c.kind, c.ms, c.info = ckWord, nil, cinfo{cw: cwFiller}
		}
		if c.kind == ckSchema && c.isColumn() && c.j < len(toks) && !toks[c.j].pause && (toks[c.j].w == "count" || toks[c.j].w == "counts") && !c.isTable() &&
			!(c.j+1 < len(toks) && articles[toks[c.j+1].w]) {
			// "seat counts", "volunteer count": the number column itself
			c.j++
			c.text += " " + toks[c.j-1].text
			c.orig += " " + toks[c.j-1].text
		}
		if c.kind == ckSchema {
			c.ms = withoutReferencingKeys(c.ms)
			c.ms = plusValues(c.ms, toks[c.j-1].plus)
			if len(c.ms) == 0 {
				c.kind, c.info = ckWord, cinfo{} // "7b+" where only "7b" is known: not that value
			}
		}
		if c.kind == ckSchema && (c.text == "day" || c.text == "date") && c.i > 0 && (toks[c.i-1].w == "which" || toks[c.i-1].w == "what") &&
			(c.j == len(toks) || auxiliaries[toks[c.j].w]) && !slices.ContainsFunc(c.ms, datedMeaning) {
			// "on which day": a date asked for, never a number of days
			c.kind, c.ms, c.info = ckWord, nil, cinfo{}
		}
		if c.kind == ckSchema && c.j-c.i == 1 && verbParticle(toks, c.i) {
			// "crates that went out": the verb's particle, not a column
			c.kind, c.ms, c.info = ckWord, nil, cinfo{}
		}
		if c.kind == ckSchema && c.j-c.i == 1 && m.linkParticiple(toks, c.i, c.ms) {
			// "crates packed on bench 4": the verb between the rows
			c.kind, c.ms, c.info = ckWord, nil, cinfo{cw: cwLink}
		}
		if verbNotColumn(toks, c, out) {
			// "who observed", "that were sold": a verb, not a column's head word
			c.kind, c.ms, c.info = ckWord, nil, cinfo{cw: cwLink}
		}
		if toks[i].quoted {
			c.orig, c.quoted = toks[i].orig, true
		}
		out = append(out, c)
		i = c.j
	}
	for _, c := range out {
		if c.info.cw == cwFiller && c.j-c.i == 1 && (c.kind == ckSchema && flagChunk(c) || m.flagNamed(c.text) != nil) {
			// "which kiosks are recorded" beside an is_recorded yes/no: the
			// column, not a filler word
			c.info = cinfo{}
		}
		if c.kind == ckWord && c.info.cw == cwFiller && c.j-c.i == 1 && pastParticiple(c.text) && timeFollows(toks, c.j, today) {
			if t := m.verbTable(c.text); t != nil && !chunksName(out, t) {
				// "masts recorded in 2024" beside a recordings table the
				// question does not otherwise name: not filler
				c.info = cinfo{}
			}
		}
	}
	return out
}

// timeFollows: a time phrase starts at i, or after one preposition
// ("recorded in 2024").
func timeFollows(toks []token, i int, today time.Time) bool {
	if i < len(toks) && (toks[i].w == "in" || toks[i].w == "on" || toks[i].w == "during" || toks[i].w == "before" || toks[i].w == "after" || toks[i].w == "since") {
		i++
	}
	if i >= len(toks) {
		return false
	}
	if n, _ := matchTime(toks, i, today); n > 0 {
		return true
	}
	return isYearLike(toks[i])
}

// chunksName: a chunk names table t itself, one of its columns other than
// a key, or one of its values.
func chunksName(cs []*chunk, t *table) bool {
	return slices.ContainsFunc(cs, func(c *chunk) bool { return meansOwn(c.ms, t) })
}

// meansOwn: one of the meanings is table t, a column of t other than a
// key, or a value of t.
func meansOwn(ms []*meaning, t *table) bool {
	return slices.ContainsFunc(ms, func(x *meaning) bool {
		return x.kind == mTable && x.t == t || x.c != nil && x.c.t == t && !x.c.isKey()
	})
}

func (m *model) chunkAt(toks []token, i int, today time.Time) *chunk {
	t := toks[i]
	if t.quoted {
		if e := m.knownLiteral(t); e != nil {
			// "'The Planets'": a name the catalog or schema knows
			return &chunk{kind: ckSchema, ms: e.ms, j: i + 1}
		}
		return &chunk{kind: ckLit, j: i + 1}
	}
	if t.iso {
		if d, err := time.Parse("2006-01-02", t.w); err == nil {
			// "on 2019-03-08": that day
			return &chunk{kind: ckTime, rng: &dateRange{start: d, end: d.AddDate(0, 0, 1), phrase: t.w}, j: i + 1}
		}
	}
	var e *lexEntry
	if m.lex != nil {
		e = withoutAgg(m.lex.longestPartial(toks, i))
		if e != nil && allNumbers(toks[i:i+len(e.toks)]) {
			e = nil // a number is a number, not a value some column holds
		}
		if e != nil && len(e.toks) == 1 && onlyNames(e) && !(i > 0 && startsUpper(t.orig)) {
			if info, ok := clauseWords[t.w]; ok && info.cw != cwNone && info.cw != cwLink {
				e = nil // "a", "all", "top": English before a value of some column
			}
		}
	}
	le := 0
	if e != nil {
		le = len(e.toks)
	}
	tn, rng := matchTime(toks, i, today)
	if tn > 0 && allNumbers(toks[i:i+tn]) {
		tn = 0 // a bare year is a number: a year column's, or a date's (the parse decides)
	}
	kn, info := matchClauseWord(toks, i)
	best := max(le, tn, kn)
	switch {
	case best == 0 && t.isNum:
		return &chunk{kind: ckNum, num: t.num, isInt: t.isInt, money: t.money, j: i + 1}
	case best == 0:
		return m.unknownChunk(toks, i)
	case le == best:
		c := &chunk{kind: ckSchema, ms: e.ms, j: i + le}
		if kn == best {
			c.info = info
		}
		return c
	case tn == best:
		return &chunk{kind: ckTime, rng: rng, j: i + tn}
	}
	return &chunk{kind: ckWord, info: info, j: i + kn}
}

func startsUpper(s string) bool {
	r := []rune(s)
	return len(r) > 0 && unicode.IsUpper(r[0])
}

// isYearLike: a four-digit whole number a date could be in (1800–2199).
func isYearLike(t token) bool {
	return t.isNum && t.isInt && t.num >= 1800 && t.num < 2200
}

// coordinated reads the first word of "first and last name", "home or
// away team": a word that, with the rest of the phrase after "and"/"or",
// names a column too.
func (m *model) coordinated(toks []token, i int) *chunk {
	if m.lex == nil || i+3 >= len(toks) || toks[i].isNum || toks[i].quoted {
		return nil
	}
	if c := toks[i+1].w; c != "and" && c != "or" {
		return nil
	}
	e := m.lex.longestPartial(toks, i+2)
	if e == nil || len(e.toks) < 2 {
		return nil
	}
	if own := m.lex.longestPartial(toks, i); own != nil && len(own.toks) > 1 {
		return nil
	}
	phrase := append([]string{toks[i].s}, e.toks[1:]...)
	other := m.lex.byKey[strings.Join(phrase, " ")]
	if other == nil || !allColumns(other) || !allColumns(e) {
		return nil
	}
	return &chunk{kind: ckSchema, ms: other.ms, j: i + 1}
}

// namesSchema: the token at i is a table's or a column's noun.
func (m *model) namesSchema(toks []token, i int) bool {
	if i >= len(toks) || m.lex == nil {
		return false
	}
	for _, k := range []string{toks[i].w, toks[i].s} {
		if e := m.lex.byKey[k]; e != nil {
			for _, x := range e.ms {
				if x.kind == mTable || x.kind == mColumn {
					return true
				}
			}
		}
	}
	return false
}

func allColumns(e *lexEntry) bool {
	for _, m := range e.ms {
		if m.kind != mColumn {
			return false
		}
	}
	return len(e.ms) > 0
}

// unknownChunk is a word no phrase starts with: a misspelt schema phrase,
// a verb made of a table's name ("<table>ed", "<table>ing" → the table), or
// unknown.
func (m *model) unknownChunk(toks []token, i int) *chunk {
	if t := m.verbTable(toks[i].w); t != nil && !(strings.HasSuffix(toks[i].w, "ing") && m.namesSchema(toks, i+1)) {
		// not "the timing kiosks", "timing hours": a word in -ing before a
		// table's or a column's noun says what kind they are, not the rows
		// of another table
		return &chunk{kind: ckSchema, ms: []*meaning{{kind: mTable, t: t}}, j: i + 1, verb: true}
	}
	if e := m.synonymEntry(toks, i); e != nil {
		// "customers" where the table is patrons
		return &chunk{kind: ckSchema, ms: e.ms, j: i + 1, typo: e.text}
	}
	if m.lex != nil && len(toks[i].w) >= 5 {
		if hits, n := m.lex.typo(toks, i); len(hits) > 0 {
			c := &chunk{kind: ckSchema, j: i + n, typo: hits[0].text}
			for _, h := range hits {
				c.ms = append(c.ms, h.ms...)
			}
			return c
		}
	}
	return &chunk{kind: ckWord, j: i + 1}
}

// verbTable is the one table whose name a verb form is made of:
// a past participle or -ing form of the last word of a table's name.
func (m *model) verbTable(w string) *table {
	var stems []string
	switch {
	case strings.HasSuffix(w, "ied") && len(w) > 5:
		stems = append(stems, w[:len(w)-3]+"y")
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		b := w[:len(w)-2]
		stems = append(stems, b, w[:len(w)-1])
		if n := len(b); n > 3 && b[n-1] == b[n-2] {
			stems = append(stems, b[:n-1]) // a doubled consonant: "-pped" → "-p"
		}
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		b := w[:len(w)-3]
		stems = append(stems, b, b+"e")
	default:
		return nil
	}
	var found *table
	for _, t := range m.tables {
		if t.view || len(t.lastWord) < 4 || t.lastWord[:2] != w[:2] {
			continue
		}
		last := t.lastWord
		for _, s := range stems {
			if len(s) >= 4 && (last == s || strings.HasPrefix(last, s) && len(last)-len(s) <= 4) {
				if found != nil && found != t {
					return nil
				}
				found = t
			}
		}
	}
	return found
}

var auxiliaries = setOf("was", "were", "is", "are", "did", "does", "do", "had", "has", "have")

// plusValues keeps the values typed with or without a closing "+" ("7c+"
// is not "7c"); the other meanings stay.
func plusValues(ms []*meaning, plus bool) []*meaning {
	var out []*meaning
	for _, m := range ms {
		if (m.kind == mValue || m.kind == mEntity) && strings.HasSuffix(valueText(m), "+") != plus {
			continue
		}
		out = append(out, m)
	}
	return out
}

func valueText(m *meaning) string {
	if m.kind == mEntity {
		return m.e.name
	}
	return m.value
}

// datedMeaning: a date column or a table (whose date it may be).
func datedMeaning(m *meaning) bool {
	return m.kind == mTable || m.kind == mColumn && (m.c.kind == catalog.KindDate || m.c.dateType)
}

// withoutReferencingKeys drops the foreign keys a phrase names beside the
// key they refer to ("batch numbers": the batches' own number, not the
// copy of it in every row that refers to a batch). Values stay: a code
// found in both is left to the readings to place.
func withoutReferencingKeys(ms []*meaning) []*meaning {
	beside := func(m *meaning) bool {
		if m.kind != mColumn || m.c.fk == nil || m.c.fk.ref == m.c {
			return false
		}
		return slices.ContainsFunc(ms, func(o *meaning) bool { return o.kind == m.kind && o.c == m.c.fk.ref && o.value == m.value })
	}
	if !slices.ContainsFunc(ms, beside) {
		return ms
	}
	var out []*meaning
	for _, m := range ms {
		if !beside(m) {
			out = append(out, m)
		}
	}
	return out
}

// withoutAgg is the entry without catalog aggregation terms (the clause
// reader has its own): nil when it has only those.
func withoutAgg(e *lexEntry) *lexEntry {
	if e == nil {
		return nil
	}
	var ms []*meaning
	for _, m := range e.ms {
		if m.kind != mAgg {
			ms = append(ms, m)
		}
	}
	switch {
	case len(ms) == len(e.ms):
		return e
	case len(ms) == 0:
		return nil
	}
	return &lexEntry{toks: e.toks, text: e.text, ms: ms}
}

// irregularPast are past forms that do not end in -ed.
var irregularPast = setOf("paid", "sold", "bought", "made", "held", "built", "won", "lost", "taken", "given", "seen",
	"done", "spent", "sent", "met", "led", "kept", "left", "told", "found", "brought", "caught", "taught", "grown", "drawn")

// pastParticiple: "observed", "taken", "sold" — not "need" or "seed".
func pastParticiple(w string) bool {
	if irregularPast[w] {
		return true
	}
	if len(w) < 5 || strings.HasSuffix(w, "eed") {
		return false
	}
	return strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "en")
}

// verbNotColumn: a one-word past participle after a relative pronoun or a
// form of "be" that names columns only by their head word or a part
// ("astronomers who observed X" beside an "hours observed" column).
func verbNotColumn(toks []token, c *chunk, before []*chunk) bool {
	if c.kind != ckSchema || c.j-c.i != 1 || c.i == 0 {
		return false
	}
	w := toks[c.i].w
	if !pastParticiple(w) {
		return false
	}
	relative := false
	switch toks[c.i-1].w {
	case "who", "that", "which":
		if c.i == 1 {
			return false // "which certified T": the question's opening, an adjective after it
		}
		relative = true // "who observed X": a verb whatever a column is called
	case "were", "was", "been", "being", "is", "are", "have", "has", "had":
	default:
		// "the T observed in ...": a participle after a table's noun
		if len(before) == 0 || !before[len(before)-1].isTable() {
			return false
		}
	}
	for _, m := range c.ms {
		if m.kind != mColumn || m.strength > strengthHead && !relative || m.c.kind == "date" || m.c.dateType {
			return false // "shipped": the date of the event, kept
		}
	}
	return true
}

// knownLiteral is the lexicon's entry for a quoted literal that is exactly
// a known name or value (its words, as the lexicon keys them), or nil.
func (m *model) knownLiteral(t token) *lexEntry {
	if m.lex == nil {
		return nil
	}
	e := m.lex.entry(t.orig)
	if e == nil || !onlyNames(e) {
		return nil
	}
	return e
}

// databaseWord: the word is the database's own name (or its singular):
// "the allotment sites" in a database called allotments.
func (m *model) databaseWord(w string) bool {
	if m.database == "" || len(w) < 4 {
		return false
	}
	for _, d := range catalog.IdentifierWords(m.database) {
		if w == d || catalog.Singular(w) == catalog.Singular(d) {
			return true
		}
	}
	return false
}

// linkParticiple: a one-word value that is a past participle used as the
// verb between the rows and another table's rows — "crates packed on
// bench 4", "which bench packed crate 7", "benches that have packed more
// than 300 crates" — beside a status column holding "packed". The
// question asks for the link, which every crate has whatever state it is
// in now, not for the crates whose status is that word.
func (m *model) linkParticiple(toks []token, i int, ms []*meaning) bool {
	if m.lex == nil || len(ms) == 0 || toks[i].quoted || !pastParticiple(toks[i].w) || i > 0 && startsUpper(toks[i].orig) {
		return false
	}
	var own *table
	for _, mn := range ms {
		if mn.kind != mValue || own != nil && mn.t != own {
			return false
		}
		own = mn.t
	}
	other := func(k int) bool {
		for k < len(toks) && (articles[toks[k].w] || toks[k].w == "each" || toks[k].w == "every") {
			k++
		}
		if k >= len(toks) || toks[k].pause || toks[k].stop {
			return false
		}
		o := m.lex.longest(toks, k)
		return o != nil && slices.ContainsFunc(o.ms, func(mn *meaning) bool {
			return (mn.kind == mTable || mn.kind == mValue) && mn.t != own && mn.t != nil
		})
	}
	if i+1 < len(toks) && !toks[i+1].pause && agentPreps[toks[i+1].w] && other(i+2) {
		return true // "packed on bench 4", "packed by Oren Vale"
	}
	k := i - 1
	for k > 0 && (toks[k].w == "have" || toks[k].w == "has" || toks[k].w == "had") {
		k--
	}
	if k < 0 || i+1 >= len(toks) || toks[i+1].pause || toks[i+1].stop || relationPreps[toks[i+1].w] {
		// "which bench packed": the state asked after, maybe; "riggers
		// who have quit from the rally": their entries' state
		return false
	}
	s := m.lex.longest(toks, k)
	return s != nil && len(s.toks) == 1 && slices.ContainsFunc(s.ms, func(mn *meaning) bool { return mn.kind == mTable && mn.t != own })
}

// agentPreps bring in what did the act or what it was done with or on —
// not where a thing went ("delivered to", "sent for"), which the state
// itself may say.
var agentPreps = setOf("on", "by", "with", "using")
