package builtin

import (
	"slices"
	"sort"
	"strings"

	"talk2tables/catalog"
)

type meaningKind int

const (
	mTable   meaningKind = iota + 1 // a table's rows
	mColumn                         // a column
	mDerived                        // a catalog derived measure
	mEntity                         // a named row (keyed entity)
	mValue                          // a value of a column
	mAgg                            // a catalog aggregation term
)

// Column word strengths: a catalog word (or the identifier when the catalog
// gives none) is strong; the identifier of a column the catalog words
// otherwise is weaker; the head noun of an identifier ("country" for
// BillingCountry) is weakest.
const (
	strengthHead  = 0
	strengthIdent = 1
	strengthWord  = 2
	strengthName  = 3 // a derived measure's own name ("revenue")
	// strengthPartial: a part of a several-word identifier ("release year"
	// of song_release_year, "founded" of founded_year); only the clause
	// reader reads these, and only where nothing else names the words
	strengthPartial = -1
)

// meaning is one thing a phrase can name.
type meaning struct {
	kind     meaningKind
	t        *table
	c        *column
	strength int
	d        *derived
	e        *entity
	value    string // mValue: the value as stored
	fn       string // mAgg
}

// fuzzyKey indexes typo targets.
type fuzzyKey struct {
	first byte
	n     int
}

// lexEntry is a phrase (as stems) and everything it can name.
type lexEntry struct {
	toks []string
	text string
	ms   []*meaning
	// fullOnly is the entry without partial meanings, when it has some
	// (nil entry text when it has nothing else): set by finish
	fullOnly *lexEntry
}

// lexicon indexes phrases by their first stem.
type lexicon struct {
	byKey   map[string]*lexEntry
	byFirst map[string][]*lexEntry // longest first
	// fuzzyByKey: fuzzy by the first letter and length of their first
	// word (a typo changes a word's length by at most 2; a typo in the
	// first letter is not looked for)
	fuzzyByKey map[fuzzyKey][]*lexEntry
}

func newLexicon() *lexicon {
	return &lexicon{byKey: map[string]*lexEntry{}, byFirst: map[string][]*lexEntry{}}
}

// entry is the lexicon's entry for a phrase (by its stems), or nil.
func (l *lexicon) entry(phrase string) *lexEntry {
	return l.byKey[strings.Join(phraseStems(phrase), " ")]
}

func (l *lexicon) add(phrase string, mn *meaning) {
	toks := phraseStems(phrase)
	if len(toks) == 0 || len(toks) > 12 {
		return
	}
	key := strings.Join(toks, " ")
	e := l.byKey[key]
	if e == nil {
		e = &lexEntry{toks: toks, text: strings.ToLower(strings.TrimSpace(phrase))}
		l.byKey[key] = e
		l.byFirst[toks[0]] = append(l.byFirst[toks[0]], e)
	}
	for _, x := range e.ms {
		if x.kind == mn.kind && x.t == mn.t && x.c == mn.c && x.d == mn.d && x.value == mn.value && x.fn == mn.fn &&
			(x.e == mn.e || x.e != nil && mn.e != nil && x.e.set == mn.e.set && x.e.name == mn.e.name) {
			x.strength = max(x.strength, mn.strength)
			return
		}
	}
	e.ms = append(e.ms, mn)
}

func (l *lexicon) addTable(phrase string, t *table) { l.add(phrase, &meaning{kind: mTable, t: t}) }
func (l *lexicon) addColumn(phrase string, c *column, strength int) {
	l.add(phrase, &meaning{kind: mColumn, t: c.t, c: c, strength: strength})
}
func (l *lexicon) addDerived(phrase string, d *derived, strength int) {
	l.add(phrase, &meaning{kind: mDerived, t: d.t, d: d, strength: strength})
}
func (l *lexicon) addEntity(phrase string, e *entity) {
	for _, p := range articleVariants(phrase) {
		l.add(p, &meaning{kind: mEntity, t: e.set.t, e: e})
	}
}
func (l *lexicon) addValue(phrase string, c *column, value string, e *entity) {
	for _, p := range articleVariants(phrase) {
		l.add(p, &meaning{kind: mValue, t: c.t, c: c, value: value, e: e})
	}
}
func (l *lexicon) addAgg(phrase, fn string) { l.add(phrase, &meaning{kind: mAgg, fn: fn}) }

// articleVariants adds "Hobbit" for "The Hobbit".
func articleVariants(p string) []string {
	out := []string{p}
	lp := strings.ToLower(p)
	for _, a := range []string{"the ", "a ", "an "} {
		if strings.HasPrefix(lp, a) && len(phraseStems(p)) > 1 {
			out = append(out, p[len(a):])
		}
	}
	return out
}

func (l *lexicon) finish() {
	for _, e := range l.byKey {
		var full []*meaning
		for _, m := range e.ms {
			if m.strength != strengthPartial || m.kind != mColumn {
				full = append(full, m)
			}
		}
		switch {
		case len(full) == len(e.ms):
		case len(full) == 0:
			e.fullOnly = &lexEntry{toks: e.toks, text: e.text}
		default:
			e.fullOnly = &lexEntry{toks: e.toks, text: e.text, ms: full}
		}
	}
	for k, es := range l.byFirst {
		sort.SliceStable(es, func(i, j int) bool { return len(es[i].toks) > len(es[j].toks) })
		l.byFirst[k] = es
	}
	keys := sortedKeys(l.byKey)
	l.fuzzyByKey = map[fuzzyKey][]*lexEntry{}
	for _, k := range keys {
		e := l.byKey[k].full()
		if e == nil {
			continue // parts of identifiers are never typo targets
		}
		letters := 0
		for _, t := range e.toks {
			letters = max(letters, len(t))
		}
		if letters < 5 {
			continue
		}
		for _, mn := range e.ms {
			if mn.kind != mAgg {
				k := fuzzyKey{e.toks[0][0], len(e.toks[0])}
				l.fuzzyByKey[k] = append(l.fuzzyByKey[k], e)
				break
			}
		}
	}
}

// longest returns the longest phrase matching toks at i (by stems).
// A phrase naming only the columns of views loses to a shorter one naming
// tables: views are read only when the question names them. Parts of
// identifiers are left out (see longestPartial).
func (l *lexicon) longest(toks []token, i int) *lexEntry {
	return l.longestOf(toks, i, false)
}

// longestPartial is longest with the parts of several-word identifiers.
func (l *lexicon) longestPartial(toks []token, i int) *lexEntry {
	return l.longestOf(toks, i, true)
}

func (l *lexicon) longestOf(toks []token, i int, partial bool) *lexEntry {
	var viewOnly *lexEntry
	for _, e := range l.byFirst[toks[i].s] {
		if !matchStems(toks, i, e.toks) || spansPause(toks, i, len(e.toks)) && schemaOnly(e) {
			continue
		}
		if !partial {
			if e = e.full(); e == nil {
				continue
			}
		}
		if !onlyViewColumns(e) {
			return e
		}
		if viewOnly == nil {
			viewOnly = e
		}
	}
	return viewOnly
}

// full is the entry without its partial meanings; nil when it has only those.
func (e *lexEntry) full() *lexEntry {
	switch {
	case e.fullOnly == nil:
		return e
	case len(e.fullOnly.ms) == 0:
		return nil
	}
	return e.fullOnly
}

func onlyViewColumns(e *lexEntry) bool {
	for _, m := range e.ms {
		if m.kind != mColumn || !m.t.view {
			return false
		}
	}
	return len(e.ms) > 0
}

// spansPause: a comma, colon or full stop falls inside the n tokens at i
// ("show, date" is two columns, not a show_date one).
func spansPause(toks []token, i, n int) bool {
	for k := i + 1; k < i+n && k < len(toks); k++ {
		if toks[k].pause || toks[k].stop {
			return true
		}
	}
	return false
}

// schemaOnly: the entry names tables and columns only (a value's name may
// hold a comma).
func schemaOnly(e *lexEntry) bool {
	for _, m := range e.ms {
		if m.kind != mTable && m.kind != mColumn {
			return false
		}
	}
	return true
}

func matchStems(toks []token, i int, want []string) bool {
	if i+len(want) > len(toks) {
		return false
	}
	for k, w := range want {
		if toks[i+k].s != w {
			return false
		}
	}
	return true
}

// typo finds the phrases toks[i:] spells with small typos: every word
// within its typo limit, at least one word long enough to allow one. It
// returns the closest phrases (several when equally close) and their length.
func (l *lexicon) typo(toks []token, i int) ([]*lexEntry, int) {
	best, bestLen := 1<<30, 0
	var hits []*lexEntry
	first := toks[i].w
	if first == "" {
		return nil, 0
	}
	lo, hi := min(len(toks[i].s), len(first))-2, max(len(toks[i].s), len(first))+2
	for ln := lo; ln <= hi; ln++ {
		hits, best, bestLen = l.typoIn(l.fuzzyByKey[fuzzyKey{first[0], ln}], toks, i, hits, best, bestLen)
	}
	return hits, bestLen
}

// typoHits is typo's phrases alone.
func (l *lexicon) typoHits(toks []token, i int) []*lexEntry {
	hits, _ := l.typo(toks, i)
	return hits
}

// typoIn is typo over one bucket of candidates, carrying the best so far.
func (l *lexicon) typoIn(cands []*lexEntry, toks []token, i int, hits []*lexEntry, best, bestLen int) ([]*lexEntry, int, int) {
	for _, e := range cands {
		n := len(e.toks)
		if i+n > len(toks) {
			continue
		}
		d, ok := 0, true
		for k, want := range e.toks {
			t := toks[i+k]
			if t.s == want {
				continue
			}
			if t.isNum || t.sym != "" || stopwords[t.w] && len(t.w) < 5 || otherParty(t.s, want) || endsOnMore(t.w, want) || t.w == t.s+"s" && endsOnMore(t.s, want) && !strings.HasSuffix(t.w, "es") {
				ok = false
				break
			}
			lim := typoLimit(len(want))
			dk := min(catalog.EditDistance(t.s, want, lim), catalog.EditDistance(t.w, want, lim))
			if dk > lim {
				ok = false
				break
			}
			d += dk
		}
		if !ok || d == 0 {
			continue
		}
		switch {
		case d < best || d == best && n > bestLen:
			best, bestLen, hits = d, n, []*lexEntry{e}
		case d == best && n == bestLen:
			hits = append(hits, e)
		}
	}
	return hits, best, bestLen
}

// endsOnMore: the word is the phrase's word with one more letter at its
// end, not a doubled one, an s or a d ("ballade" of ballad is another
// word; "balladd" a slip of the finger, "graded" a past tense). A plural
// is read by its singular, unless its "es" is the plural's ("tomatoes").
func endsOnMore(w, want string) bool {
	n := len(want)
	return len(w) == n+1 && strings.HasPrefix(w, want) && w[n] != want[n-1] && w[n] != 's' && w[n] != 'd'
}

// otherParty: the word is the other party of the phrase's role, never a
// misspelling of it ("trainee" of "trainer", "payee" of "payer").
func otherParty(w, want string) bool {
	ee := func(x string) bool { return strings.HasSuffix(x, "ee") }
	er := func(x string) bool { return strings.HasSuffix(x, "er") || strings.HasSuffix(x, "or") }
	return ee(w) && er(want) || er(w) && ee(want)
}

// addTableWords: the catalog's words and the identifier of every table,
// and the last word of a several-word identifier when no other table ends
// so ("loans" for LibraryLoan, "genre" for [Book Genre]).
func (m *model) addTableWords() {
	heads := map[string][]*table{}
	for _, t := range m.tables {
		ident := catalog.IdentifierPhrase(t.bare)
		if len(t.words) == 0 {
			t.words = []string{ident}
		}
		for _, w := range t.words {
			m.lex.addTable(w, t)
		}
		m.lex.addTable(ident, t)
		ws := m.seg.TableWords(t.bare)
		if split := strings.Join(ws, " "); split != ident {
			m.lex.addTable(split, t) // "donationline": donation line
		}
		for _, p := range spelledOut(ws) {
			m.lex.addTable(p, t) // "txn": transactions
		}
		if len(ws) > 1 && !t.view {
			h := catalog.Singular(ws[len(ws)-1])
			heads[h] = append(heads[h], t)
			// "orders" of sales_ord: the head spelled out, once
			seen := map[string]bool{h: true}
			for _, p := range spelledOut(ws) {
				sw := strings.Fields(p)
				if h := catalog.Singular(sw[len(sw)-1]); !seen[h] {
					seen[h] = true
					heads[h] = append(heads[h], t)
				}
			}
		}
		if n := len(ws); n > 1 && !t.view && participleLike(ws[n-1]) {
			// "faults" of faults_logged: the noun before the participle
			h := strings.Join(append(slices.Clone(ws[:n-2]), catalog.Singular(ws[n-2])), " ")
			if !m.otherTableSays(t, catalog.Singular(ws[n-2])) {
				heads[h] = append(heads[h], t)
			}
		}
		variants := [][]string{ws}
		for _, p := range spelledOut(ws) {
			variants = append(variants, strings.Fields(p)) // "order lines" of sales_ord_line
		}
		for _, vs := range variants {
			for k := 1; k < len(vs)-1 && !t.view; k++ {
				// "repair visits" of kiosk_repair_visits
				h := strings.Join(append(slices.Clone(vs[k:len(vs)-1]), catalog.Singular(vs[len(vs)-1])), " ")
				if !slices.Contains(heads[h], t) {
					heads[h] = append(heads[h], t)
				}
			}
		}
	}
	m.addUnprefixedWords()
	for h, ts := range heads {
		if len(ts) == 1 && m.lex.byKey[h] == nil && !stopwords[h] {
			m.lex.addTable(h, ts[0])
		}
	}
	m.addMemberWords()
	// "lane_id" keys of lane_grp: "lanes" are its rows, not the key
	firsts := map[string][]*table{}
	for _, t := range m.tables {
		for _, c := range t.cols {
			ws := catalog.IdentifierWords(c.name)
			if c.fk == nil || len(ws) != 2 || ws[1] != "id" || c.fk.to.view {
				continue
			}
			if tw := m.seg.TableWords(c.fk.to.bare); len(tw) > 1 && tw[0] == ws[0] && !slices.Contains(firsts[ws[0]], c.fk.to) {
				firsts[ws[0]] = append(firsts[ws[0]], c.fk.to)
			}
		}
	}
	for w, ts := range firsts {
		if len(ts) == 1 && m.lex.byKey[w] == nil && !stopwords[w] {
			m.lex.addTable(w, ts[0])
			m.lex.addTable(catalog.Plural(w), ts[0])
		}
	}
}

// addUnprefixedWords names a table by its name without a module prefix
// three or more tables share ("piece" of app_piece beside app_piece_lots
// and app_crate): the prefix tells no table apart, so the rest is the
// table's whole name — before any other table's last word claims it.
func (m *model) addUnprefixedWords() {
	firsts := map[string]int{}
	for _, t := range m.tables {
		if ws := m.seg.TableWords(t.bare); len(ws) > 1 && !t.view {
			firsts[ws[0]]++
		}
	}
	rests := map[string][]*table{}
	for _, t := range m.tables {
		if ws := m.seg.TableWords(t.bare); len(ws) > 1 && !t.view && firsts[ws[0]] >= 3 {
			r := strings.Join(phraseStems(strings.Join(ws[1:], " ")), " ")
			rests[r] = append(rests[r], t)
		}
	}
	for r, ts := range rests {
		if len(ts) != 1 || stopwords[r] {
			continue
		}
		if e := m.lex.byKey[r]; e != nil && slices.ContainsFunc(e.ms, func(x *meaning) bool { return x.kind == mTable && x.t != ts[0] }) {
			continue // another table's own name
		}
		m.lex.addTable(r, ts[0])
	}
}

// collectiveNouns name a body of people whose rows are the people
// themselves: a "staff member" is a row of staff, not of another table.
var collectiveNouns = setOf("staff", "crew", "personnel", "faculty", "cast")

// addMemberWords adds "<T> member" for a table named by a collective noun
// ("crew members" of a crew table), where no table is named "member".
func (m *model) addMemberWords() {
	for _, t := range m.tables {
		if !t.view && catalog.Singular(t.lastWord) == "member" {
			return
		}
	}
	byLast := map[string][]*table{}
	for _, t := range m.tables {
		ws := m.seg.TableWords(t.bare)
		if t.view || len(ws) == 0 || !collectiveNouns[ws[len(ws)-1]] {
			continue
		}
		byLast[ws[len(ws)-1]] = append(byLast[ws[len(ws)-1]], t)
		if p := strings.Join(ws, " ") + " member"; m.lex.byKey[p] == nil {
			m.lex.addTable(p, t)
		}
	}
	for w, ts := range byLast {
		// "staff members" of kiosk_staff, the one staff table
		if p := w + " member"; len(ts) == 1 && m.lex.byKey[p] == nil {
			m.lex.addTable(p, ts[0])
		}
	}
}

// otherTableSays: a table other than t has the word w in its name (the
// "faults" of kiosk_faults_logged could be those of fault_kinds).
func (m *model) otherTableSays(t *table, w string) bool {
	for _, o := range m.tables {
		if o == t || o.view {
			continue
		}
		for _, x := range m.seg.TableWords(o.bare) {
			if catalog.Singular(x) == w {
				return true
			}
		}
	}
	return false
}

// unitWords end identifiers with the unit of their values ("hops_kg",
// "abv_pct"): the phrase without it is what people say.
var unitWords = setOf("kg", "g", "lbs", "lb", "pct", "percent", "usd", "eur", "gbp", "ms", "sec", "secs", "hours", "hrs", "mins", "km", "cm", "mm", "m", "mi", "amt", "num", "cnt",
	"sqm", "sqft", "m2", "ft", "yrs", "kph", "mph", "ml", "kwh")

// unitNames are units written in full that end identifiers ("haul_grams"):
// the phrase without them names the column too, and the unit word alone
// still does ("how many tonnes" beside hl_tonnes).
var unitNames = setOf("grams", "kilograms", "kilos", "metres", "meters", "minutes", "seconds", "litres", "liters",
	"tonnes", "pounds", "miles", "feet", "inches", "hectares", "euros", "celsius")

// expansions are how people say some column identifiers in full.
var expansions = map[string][]string{
	"email": {"email address", "e mail", "mail address"},
	"phone": {"phone number", "telephone", "telephone number"},
	"zip":   {"zip code", "postcode"},
	"dob":   {"date of birth", "birth date", "birthday"},
}

// samePart are the other names of the parts of a person's name.
var samePart = func() map[string][]string {
	out := map[string][]string{}
	for _, g := range [][]string{{"last name", "surname", "family name"}, {"first name", "forename", "given name"}} {
		for _, p := range g {
			for _, x := range g {
				if x != p {
					out[p] = append(out[p], x)
				}
			}
		}
	}
	return out
}()

// abbreviations are the short words identifiers use for a whole word
// ("CaskQty", "est_price", "dept_name"): the column is also named with the
// word in full. "no" stands for number only as the last word ("SerialNo").
var abbreviations = map[string][]string{
	"qty": {"quantity"}, "est": {"estimated"}, "amt": {"amount"}, "dept": {"department"},
	"desc": {"description"}, "descr": {"description"}, "yr": {"year"}, "dt": {"date"}, "addr": {"address"},
	"reg": {"registration"}, "num": {"number"}, "nbr": {"number"}, "cnt": {"count"},
	"pct": {"percent", "percentage"}, "avg": {"average"}, "mgr": {"manager"}, "emp": {"employee"},
	"cust": {"customer"}, "prod": {"product"}, "loc": {"location"}, "temp": {"temperature"},
	"dur": {"duration"}, "lic": {"licence", "license"}, "cap": {"capacity"}, "ref": {"reference"},
	"cat": {"category"}, "tel": {"telephone"}, "hrs": {"hours"}, "mins": {"minutes"}, "secs": {"seconds"},
	"max": {"maximum"}, "min": {"minimum"}, "tot": {"total"}, "wt": {"weight"}, "ht": {"height"},
	"lat": {"latitude"}, "lng": {"longitude"}, "lon": {"longitude"}, "pos": {"position"},
	"acct": {"account"}, "elev": {"elevation"}, "freq": {"frequency"}, "bal": {"balance"},
	"perf": {"performance"}, "ord": {"order"}, "appt": {"appointment"}, "txn": {"transaction"}, "veh": {"vehicle"},
	"svc": {"service"}, "org": {"organisation", "organization"}, "deliv": {"delivery"}, "dlv": {"delivery"},
	"vol": {"volume"}, "cls": {"class"}, "dens": {"density"}, "cert": {"certified", "certificate"}, "pr": {"price"},
	"typ": {"type"}, "len": {"length"}, "ttl": {"title"}, "apprv": {"approved", "approver"}, "supp": {"supplier"},
	"suppl": {"supplier"}, "pmt": {"payment"}, "pymt": {"payment"}, "sts": {"status"}, "cnty": {"county"},
	"ctry": {"country"},
	"prt":  {"part"}, "prc": {"price"}, "stf": {"staff"}, "sup": {"supplier"}, "ln": {"line"}, "cd": {"code"},
	"disc": {"discount"}, "itm": {"item"}, "grp": {"group"}, "pkg": {"package"}, "mfr": {"manufacturer"},
	"whs": {"warehouse"}, "usr": {"user"}, "stu": {"student"}, "crs": {"course"}, "sched": {"schedule"},
	"cmt": {"comment"}, "rcpt": {"receipt"}, "bkg": {"booking"}, "hdr": {"header"}, "dsp": {"dispatch"},
	"fname": {"first name"}, "lname": {"last name"}, "fnm": {"first name"}, "lnm": {"last name"}, "dob": {"date of birth"}, "nm": {"name"}, "lbl": {"label"},
}

// eventDateNames name a date column called by its event's participle
// ("AcceptedOn", "joined_at", "inspected"): "accept date", "join date",
// "inspection date", "date of join".
func eventDateNames(c *column, ws []string) []string {
	if !(c.dateType || c.kind == catalog.KindDate) || len(ws) > 2 || len(ws) == 2 && ws[1] != "on" && ws[1] != "at" {
		return nil
	}
	p := ws[0]
	if len(p) < 5 || !strings.HasSuffix(p, "ed") {
		return nil
	}
	out := []string{p + " date"} // "hoisted date" for hoisted_on
	for _, base := range []string{p[:len(p)-1], p[:len(p)-2], p[:len(p)-2] + "ion"} {
		out = append(out, base+" date", "date of "+base)
	}
	return out
}

// spelledOut are the identifier's words with each abbreviation in full
// (every combination of one reading per word), without the identifier
// itself; "no" is a number only as the last of several words.
// columnSpelledOut is spelledOut for a column's words: a number is never a
// name ("reach_nm" holds nautical miles, not a reach name).
func columnSpelledOut(c *column, ws []string) []string {
	out := spelledOut(ws)
	if !c.numeric {
		return out
	}
	return slices.DeleteFunc(out, func(p string) bool {
		return strings.Contains(" "+p+" ", " name ") || strings.Contains(" "+p+" ", " label ")
	})
}

func spelledOut(ws []string) []string {
	outs := [][]string{nil}
	changed := false
	for i, w := range ws {
		alts := abbreviations[w]
		if w == "no" && i == len(ws)-1 && i > 0 {
			alts = []string{"number"}
		}
		var next [][]string
		for _, o := range outs {
			next = append(next, append(slices.Clone(o), w))
			for _, a := range alts {
				next = append(next, append(slices.Clone(o), a))
			}
		}
		changed = changed || len(alts) > 0
		outs = next
	}
	if !changed {
		return nil
	}
	var phrases []string
	for _, o := range outs[1:] {
		phrases = append(phrases, strings.Join(o, " "))
	}
	return phrases
}

// addColumnWords: the catalog's words, the identifier, the identifier
// after the table's singular noun ("product price") and the head noun.
func (m *model) addColumnWords() {
	for _, t := range m.tables {
		tw := t.singular()
		for _, c := range t.cols {
			ws := m.seg.Words(c.name, segmentHint(c))
			if len(ws) == 0 {
				continue
			}
			ident := strings.Join(ws, " ")
			idStrength := strengthWord
			if len(c.words) > 0 {
				idStrength = strengthIdent
			}
			for _, w := range c.words {
				m.lex.addColumn(w, c, strengthWord)
			}
			m.lex.addColumn(ident, c, idStrength)
			if whole := catalog.IdentifierPhrase(c.name); whole != ident {
				m.lex.addColumn(whole, c, idStrength)
			}
			if !strings.HasPrefix(ident, tw) {
				m.lex.addColumn(tw+" "+ident, c, strengthWord)
			}
			for _, p := range eventDateNames(c, ws) {
				// "accept date" for AcceptedOn, "inspection date" for inspected_at
				m.lex.addColumn(p, c, idStrength)
			}
			for _, p := range columnSpelledOut(c, ws) {
				// "cask quantity" for CaskQty, "serial number" for SerialNo
				m.lex.addColumn(p, c, idStrength)
				if !strings.HasPrefix(p, tw) {
					m.lex.addColumn(tw+" "+p, c, strengthWord)
				}
			}
			if hw := ofHead(ws); len(hw) < len(ws) {
				// "name_of_guest": "guest name", and "name" as a head noun
				head, whose := strings.Join(hw, " "), strings.Join(ws[len(hw)+1:], " ")
				m.lex.addColumn(whose+" "+head, c, idStrength)
				if len(hw) > 1 {
					m.lex.addColumn(head, c, strengthHead)
				}
			}
			for _, p := range append([]string{ident}, columnSpelledOut(c, ws)...) {
				// "surname" for a last_name column, "given name" for a given_nm one
				for _, x := range samePart[p] {
					m.lex.addColumn(x, c, idStrength)
					m.lex.addColumn(catalog.Plural(x), c, idStrength)
				}
			}
			if len(ws) > 1 && (unitWords[ws[len(ws)-1]] || unitNames[ws[len(ws)-1]] || c.fk != nil && ws[len(ws)-1] == "id") {
				// "hops" for hops_kg, "head brewer" for HeadBrewerId
				short := strings.Join(ws[:len(ws)-1], " ")
				if catalog.Singular(short) != tw {
					// not "crates" for crate_kg in crates: those are the rows
					m.lex.addColumn(short, c, idStrength)
				}
				if !strings.HasPrefix(short, tw) {
					m.lex.addColumn(tw+" "+short, c, strengthWord)
				}
			}
			if f, ok := irregularParticiples[ws[len(ws)-1]]; ok && len(ws) == 2 && reversibleHeads[ws[0]] {
				// "build year" for a year_built column
				m.lex.addColumn(f[0]+" "+ws[0], c, idStrength)
			}
			if last := ws[len(ws)-1]; len(ws) == 2 && reversibleHeads[last] {
				// "year of planting" for planting_year, "date of death" for death_date
				m.lex.addColumn(last+" of "+ws[0], c, idStrength)
				if f, ok := irregularParticiples[ws[0]]; ok {
					m.lex.addColumn(last+" of "+f[1], c, idStrength) // died_year: "year of death"
					m.lex.addColumn(f[1]+" "+last, c, idStrength)
				}
			}
			if v := verbVariants(ws); len(v) > 0 {
				// "founding year" for founded_year
				for _, p := range v {
					m.lex.addColumn(p, c, strengthPartial)
				}
			}
			if last := ws[len(ws)-1]; len(ws) > 1 && durationWords[last] {
				// "brewing time" for brewing_hours
				rest := strings.Join(ws[:len(ws)-1], " ")
				m.lex.addColumn(rest+" time", c, idStrength)
				m.lex.addColumn(rest+" duration", c, idStrength)
			}
			for _, w := range ws {
				for _, x := range expansions[w] {
					m.lex.addColumn(strings.Replace(ident, w, x, 1), c, idStrength)
				}
			}
			m.addPartials(c, ws)
			if len(ws) == 1 && (c.numeric || c.dateType || c.kind == catalog.KindDate) && participle(ws[0]) {
				// "opened", "built": the year or date of the event
				m.addEventWords(c, ws[0])
			}
			hw := ofHead(ws) // "category_of_kiosk": a category
			head := hw[len(hw)-1]
			_, isKeyword := keywords[head]
			if len(ws) > 1 && head != "id" && head != "key" && head != "count" && head != "number" && !stopwords[head] && !isKeyword && !unitWords[head] {
				// not "count" of a booth count, nor "number" of a phone
				// number: those words count rows
				for _, h := range append([]string{head}, columnSpelledOut(c, []string{head})...) {
					// "description" for a kiosk_desc column too
					m.lex.addColumn(h, c, strengthHead)
					if !strings.HasPrefix(ident, tw) {
						m.lex.addColumn(tw+" "+h, c, strengthWord)
					}
				}
			}
			if len(c.words) == 0 {
				c.words = []string{ident}
			}
		}
		if len(t.label) > 1 {
			// "the name" of a row named by a first name and a Surname:
			// every part of it, not the one part whose name ends in "name"
			for _, c := range t.label {
				m.lex.addColumn("name", c, strengthHead)
				m.lex.addColumn(tw+" name", c, strengthWord)
			}
		}
	}
}

// newSegmenter learns the words of the model's table and column names.
func newSegmenter(tables []*table) *catalog.Segmenter {
	var ts, cs []string
	for _, t := range tables {
		ts = append(ts, t.bare)
		for _, c := range t.cols {
			cs = append(cs, c.name)
		}
	}
	return catalog.NewSegmenter(ts, cs)
}

// segmentHint says what a column is, for splitting its name.
func segmentHint(c *column) catalog.SegmentHint {
	switch {
	case c.pk || c.fk != nil:
		return catalog.SegmentKey
	case c.kind == catalog.KindFlag:
		return catalog.SegmentFlag
	}
	return catalog.SegmentPlain
}

// irregularParticiples map a past participle to the verb's base and its
// -ing form.
var irregularParticiples = map[string][2]string{
	"built": {"build", "building"}, "born": {"birth", "birth"}, "founded": {"found", "founding"},
	"written": {"write", "writing"}, "died": {"death", "death"}, "married": {"marriage", "marriage"},
	"composed": {"composition", "composition"}, "elected": {"election", "election"},
}

// participle: a past participle naming an event that has a date or a year
// ("opened", "built", "founded").
func participle(w string) bool { return eventParticiples[w] }

// eventParticiples are events whose column holds when they happened.
var eventParticiples = setOf("opened", "built", "founded", "established", "born", "died", "started", "ended", "joined",
	"launched", "released", "published", "created", "completed", "commissioned", "registered", "signed", "licensed",
	"retired", "closed", "renovated", "restored", "acquired", "hired", "enrolled", "graduated", "married", "elected",
	"appointed", "incorporated", "inaugurated", "discovered", "invented", "composed", "written", "premiered", "debuted")

// addEventWords names a one-word year or date column that is a participle
// the way people say it: "opening year", "year opened", "year of opening",
// "build year", "year built".
func (m *model) addEventWords(c *column, w string) {
	base, ing := strings.TrimSuffix(w, "ed"), strings.TrimSuffix(w, "ed")+"ing"
	if f, ok := irregularParticiples[w]; ok {
		base, ing = f[0], f[1]
	}
	noun := "year"
	if !c.numeric {
		noun = "date"
	}
	for _, p := range []string{ing + " " + noun, noun + " " + w, noun + " of " + ing, base + " " + noun, w + " " + noun} {
		m.lex.addColumn(p, c, strengthIdent)
	}
}

// reversibleHeads are last words people also say first: "year of birth".
var reversibleHeads = setOf("year", "date", "day", "time", "place", "city", "country", "type", "month")

// verbVariants are the identifier with a verb form changed: "opened year"
// → "opening year", "open year"; "opening date" → "opened date".
func verbVariants(ws []string) []string {
	var out []string
	for i, w := range ws {
		var forms []string
		switch {
		case strings.HasSuffix(w, "ed") && len(w) > 4:
			b := strings.TrimSuffix(w, "ed")
			forms = []string{b + "ing", b}
			if strings.HasSuffix(w, "ied") {
				forms = []string{strings.TrimSuffix(w, "ied") + "ying"}
			}
		case strings.HasSuffix(w, "ing") && len(w) > 5:
			b := strings.TrimSuffix(w, "ing")
			forms = []string{b + "ed", b}
		}
		for _, f := range forms {
			v := append(append(append([]string{}, ws[:i]...), f), ws[i+1:]...)
			out = append(out, strings.Join(v, " "))
		}
	}
	return out
}

// addModifiedTableWords: the first word of a several-word column names
// what the table's rows are ("craft" of craft_order in guild: a craft
// guild), so "<word> <table>" is the table, not that column beside it.
// Only a word that means nothing else (no table, no whole column) and a
// phrase not already known.
func (m *model) addModifiedTableWords() {
	for _, t := range m.tables {
		if t.view {
			continue
		}
		tw := m.seg.TableWords(t.bare)
		for _, c := range t.cols {
			ws := catalog.IdentifierWords(c.name)
			if len(ws) == 2 && c.kind == catalog.KindMeasure && moneyHeads[ws[1]] && len(tw) > 0 && plainModifier(ws[0]) {
				// "net takings" of net_amt in kiosk_takings: the amount
				// the rows' own noun names, qualified by the word: a total,
				// as a catalog measure would be
				last := tw[len(tw)-1]
				var d *derived
				for _, n := range []string{last, catalog.Plural(catalog.Singular(last))} {
					p := ws[0] + " " + n
					if m.lex.entry(p) != nil {
						continue
					}
					if d == nil {
						d = &derived{name: p, t: t, expr: "{" + c.name + "}", agg: "SUM", unit: c.unit, words: []string{p}}
						m.derived = append(m.derived, d)
					}
					m.lex.addDerived(p, d, strengthWord)
				}
				continue
			}
			if len(ws) < 2 || c.isKey() || c.dateType || c.boolean || c.numeric || c.kind == catalog.KindDate || c.kind == catalog.KindFlag || c.kind == catalog.KindMeasure || strings.HasSuffix(ws[0], "ed") || len(ws[0]) < 3 || partialEdge[ws[0]] || stopwords[ws[0]] || isDigits(ws[0]) {
				continue
			}
			if info, ok := clauseWords[ws[0]]; ok && info.cw != cwLink {
				continue
			}
			if e := m.lex.entry(ws[0]); e != nil && slices.ContainsFunc(e.ms, func(x *meaning) bool {
				return x.kind != mColumn || x.strength != strengthPartial
			}) {
				continue
			}
			for _, tw := range []string{t.singular(), catalog.Plural(t.singular())} {
				p := ws[0] + " " + tw
				if m.lex.entry(p) == nil {
					m.lex.addTable(p, t)
				}
			}
		}
	}
}

// moneyHeads end the name of a column holding an amount of money.
var moneyHeads = setOf("amount", "amt", "value", "revenue", "total")

// partialEdge words do not start or end a part of an identifier.
var partialEdge = setOf("to", "of", "by", "per", "in", "at", "on", "is", "has", "for", "from", "the", "a", "and", "or",
	"with", "id", "key", "no", "num", "nr", "code", "fk", "pk")

// addPartials adds the parts of a several-word column identifier as weak
// phrases for the clause reader: "release year" and "release" for
// song_release_year.
func (m *model) addPartials(c *column, ws []string) {
	if len(ws) < 2 || c.isKey() {
		return
	}
	for i := 0; i < len(ws); i++ {
		if i > 0 && limitWords[ws[0]] {
			// "crate count" is no part of min_crate_count: the
			// minimum it is, not an amount of each row
			break
		}
		for j := i + 1; j <= len(ws); j++ {
			if i == 0 && j == len(ws) || partialEdge[ws[i]] || partialEdge[ws[j-1]] {
				continue
			}
			if j-i == 1 && (stopwords[ws[i]] || len(ws[i]) < 3 || isDigits(ws[i])) {
				continue
			}
			if info, ok := clauseWords[ws[i]]; ok && j-i == 1 && info.cw != cwLink {
				continue // a verb may name a column ("founded" of founded_year)
			}
			m.lex.addColumn(strings.Join(ws[i:j], " "), c, strengthPartial)
		}
	}
}

// limitWords open an identifier whose column is a bound or a summary of
// what the rest names ("min_stay_nights", "max_load_kg", "avg_wait").
var limitWords = setOf("min", "max", "minimum", "maximum", "avg", "average", "mean")

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func (m *model) addDerivedWords() {
	for _, d := range m.derived {
		for _, w := range d.words {
			m.lex.addDerived(w, d, strengthWord)
		}
		m.lex.addDerived(d.name, d, strengthName)
	}
}

// addValueWords: the values the schema lists for low-cardinality columns.
func (m *model) addValueWords() {
	for _, t := range m.tables {
		for _, c := range t.cols {
			if c.kind == catalog.KindText || c.kind == catalog.KindMeasure || c.kind == catalog.KindDate {
				continue
			}
			for _, v := range c.values {
				if yesNoWords[strings.ToLower(v)] {
					// "no" in "pets with no breed", "yes" in a reply: a flag's
					// values are read through the column's own name
					continue
				}
				m.lex.addValue(v, c, v, nil)
				if c.fk != nil && c.fk.ref != nil && !c.fk.ref.valueSet && len(c.fk.ref.values) == 0 && c.fk.ref.kind != catalog.KindText {
					// a value of a foreign key is a value of the key it
					// references ("crate code CR-7" asked of the crates)
					m.lex.addValue(v, c.fk.ref, v, nil)
				}
			}
		}
	}
}

// singlePK reports whether a table's primary key is one column.
func singlePK(t *table) bool {
	n := 0
	for _, c := range t.cols {
		if c.pk {
			n++
		}
	}
	return n == 1
}

// yesNoWords are the stored values of yes/no columns.
var yesNoWords = setOf("yes", "no", "y", "n", "true", "false", "t", "f")

// plainModifier: a word that says which amount ("net", "gross"), not
// how to compute it ("total", "average") or anything else the reader knows.
func plainModifier(w string) bool {
	_, clause := clauseWords[w]
	_, kw := keywords[w]
	return len(w) >= 3 && !stopwords[w] && !clause && !kw && !moneyHeads[w]
}
