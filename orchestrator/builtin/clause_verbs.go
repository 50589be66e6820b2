package builtin

import (
	"slices"
	"strings"

	"talk2tables/catalog"
)

// readRoleVerbs reads "which S (never) V a T": a verb made of the name of a
// foreign key that points at S's rows ("rigged" of a rigger key, "painted"
// of painted_by, "set" of a setter key) names the link between S and the
// rows holding that key — the one link meant where S and T are joined by
// several keys ("painted a mast" is the painter's key, not the rigger's).
// The rows of S are those some (no, under "never"/"not") row links to by
// that key; T, when named, is the key's own table or one it reaches.
func (r *creader) readRoleVerbs() error {
	for i, v := range r.cs {
		if !free(v) || !verbChunk(v) && !v.verb && !strings.HasSuffix(v.text, " by") {
			continue
		}
		s := r.tableBefore(i)
		if s == nil || len(s.tables()) != 1 {
			continue
		}
		read, err := r.passiveRoleVerb(i, v, s)
		if err != nil {
			return err
		}
		if read || strings.Contains(v.text, " ") {
			continue // read as a passive, or a phrase ("owned by") with no named row after it
		}
		k := r.next(i + 1)
		for x := r.at(k); free(x) && x.kind == ckWord && (x.text == "any" || x.text == "some" || x.text == "at least one"); x = r.at(k) {
			k = r.next(k + 1)
		}
		t := r.at(k)
		switch {
		case t == nil || t.stop || t.kind == ckWord && t.info.cw == cwAnd:
			t = nil
		case !free(t) || !t.isTable() || len(t.tables()) != 1:
			continue
		}
		col := r.m.roleVerbKey(v.text, s.tables()[0], t)
		if col == nil || v.verb && !slices.Contains(catalog.IdentifierWords(col.name), v.text) && !slices.Contains(v.tables(), s.tables()[0]) {
			// a verb made of a table's name ("coated" of coats) is that
			// table's rows, unless a key is named by the very word, or the
			// table is the rows asked about ("riggers who rigged a
			// mast": what they do, by the key naming them)
			continue
		}
		cd := &ccond{kind: ccExists, rows: t, src: v, via: col}
		cd.neg = r.verbNegated(i, s)
		r.use(v, linkRole+"%s)", col.ref())
		if t != nil {
			r.use(t, "related rows")
		}
		r.addCond(cd)
	}
	return nil
}

// verbNegated uses the words between the rows s and the verb at i — "have",
// "did", "who", "ever" — and reports whether "never" or "not" is among them.
func (r *creader) verbNegated(i int, s *chunk) bool {
	neg := false
	for k := i - 1; k >= 0; k-- {
		x := r.at(k)
		if x == s || !free(x) || x.kind != ckWord {
			return neg
		}
		switch {
		case x.is(cwNeg) && (x.text == "never" || x.text == "not" || strings.HasSuffix(x.text, " not") || strings.HasSuffix(x.text, " never")):
			r.use(x, "no")
			neg = true
		case auxiliaries[x.text] || x.text == "been" || x.text == "ever" || x.text == "who" || x.text == "that" || x.text == "which":
			r.use(x, "%s", x.text)
		default:
			return neg
		}
	}
	return neg
}

// passiveRoleVerb reads "T <verb>ed by <a named row of P>": the key of T
// to P the verb names ("dogs walked by Ann Lee": the walker key) holds
// that row's key. It reports whether it read the verb; where the verb
// names a key to P in another table only ("crates bought by Ann Lee"
// beside a crate's keeper and a sale's buyer), it declines.
func (r *creader) passiveRoleVerb(i int, v, s *chunk) (bool, error) {
	w, by, k := v.text, r.at(i+1), i+2
	if strings.HasSuffix(w, " by") && v.kind == ckWord {
		w, by, k = strings.TrimSuffix(w, " by"), nil, i+1 // "owned by", one phrase
	} else if by == nil || by.kind != ckWord || by.text != "by" || !free(by) {
		return false, nil
	}
	val := r.at(k)
	if strings.Contains(w, " ") || !pastForm(w) && irregularVerbs[w] == "" || !free(val) || !val.isValue() {
		return false, nil
	}
	p := namedRowTable(val)
	if p == nil || p == s.tables()[0] {
		return false, nil
	}
	col := r.m.verbKey(w, p, func(tb *table) bool { return tb == s.tables()[0] })
	if col == nil {
		if other := r.m.verbKey(w, p, func(*table) bool { return true }); other != nil {
			return false, finalDecline("%q names %s, a key of %s, not of %s", w, other.ref(), other.t.name, s.tables()[0].name).
				withHint("ask about the %s rows, e.g. the %s %s by the %s", other.t.name, other.t.name, w, p.name)
		}
		return false, nil
	}
	r.use(v, linkRole+"%s)", col.ref())
	if by != nil {
		r.use(by, "by")
	}
	r.use(val, "value")
	cd := &ccond{kind: ccValue, vals: []*chunk{val}, src: val, via: col}
	r.negated(cd, i)
	r.orList(cd, k)
	r.addCond(cd)
	return true, nil
}

// linkRole opens the role of a verb that names a key.
const linkRole = "the link ("

// verbChunk: a one-word chunk that may be a verb: an unknown word or a
// column's word, not a table's.
func verbChunk(v *chunk) bool {
	if strings.Contains(v.text, " ") || len(v.text) < 3 {
		return false
	}
	switch v.kind {
	case ckWord:
		// "set", a write at the head of a question, is a verb of a
		// setter key inside one
		// inside one; "noted", a filler elsewhere, of a noted_by key
		return v.info.cw == cwNone || v.info.cw == cwLink || v.info.cw == cwWrite || v.info.cw == cwFiller && participleLike(v.text)
	case ckSchema:
		return !v.isTable()
	}
	return false
}

// roleVerbKey is the one foreign key to s whose name is made of the verb w
// (its participle, "painted_by", or its doer, "rigger_id", "setter_id"),
// in t's table or a table reaching t (any table when t is nil). Of two
// keys naming the same doer ("rigger_id", "spare_rigger_id"), the one
// that is nothing but the doer.
func (m *model) roleVerbKey(w string, s *table, t *chunk) *column {
	return m.verbKey(w, s, func(tb *table) bool {
		if t == nil {
			return true
		}
		_, ok := m.reach(tb, t.tables()[0])
		return ok
	})
}

// verbKey is the one foreign key to s, in a table in accepts, whose name is
// made of the verb w (see roleVerbKey).
func (m *model) verbKey(w string, s *table, in func(*table) bool) *column {
	bases := verbBases(w)
	if len(bases) == 0 {
		return nil
	}
	var found, plain []*column
	for _, tb := range m.tables {
		if tb == s || tb.view || !in(tb) {
			continue
		}
		for _, c := range tb.cols {
			if c.fk == nil || c.fk.to != s {
				continue
			}
			var rest []string
			hit := false
			for _, cw := range catalog.IdentifierWords(c.name) {
				switch {
				case keyWords[cw] || cw == "by" || cw == "code" || cw == "no":
				case slices.ContainsFunc(bases, func(b string) bool { return verbNames(b, w, cw) }):
					hit = true
				default:
					rest = append(rest, cw)
				}
			}
			if !hit {
				continue
			}
			found = append(found, c)
			if len(rest) == 0 {
				plain = append(plain, c)
			}
		}
	}
	switch {
	case len(found) == 1:
		return found[0]
	case len(plain) == 1:
		return plain[0]
	}
	return nil
}

// verbNames: the identifier word cw is the verb of base b as typed (w), its
// participle or its doer ("painted", "rigger", "setter", "instructor",
// "driver", "supervisor"; "rigger" of "rigged", a doer named as its verb).
func verbNames(b, w, cw string) bool {
	if cw == w && len(w) >= 5 || cw == b+"ed" || cw == b+"d" && strings.HasSuffix(b, "e") || cw == b && len(b) >= 4 && pastForm(w) {
		return true
	}
	if slices.Contains(irregularDoers[b], cw) {
		return true
	}
	stem := strings.TrimSuffix(b, "e")
	for _, doer := range []string{b + "er", b + "r", b + "or", stem + "or", stem + "er"} {
		if cw == doer && len(b) >= 3 {
			return true
		}
	}
	if n := len(b); n >= 3 && !strings.ContainsRune("aeiouwy", rune(b[n-1])) && strings.ContainsRune("aeiou", rune(b[n-2])) {
		return cw == b+b[n-1:]+"er" // "set" → "setter", "rig" → "rigger"
	}
	return false
}

// pastForm: a past tense or participle ("judged", "led"), never a plural
// noun ("judges" may be the rows themselves).
func pastForm(w string) bool {
	_, irregular := irregularVerbs[w]
	return strings.HasSuffix(w, "ed") || irregular && w != irregularVerbs[w]
}

// verbBases are the base forms a past or present verb form may have
// ("rigged" → rig; "painted" → paint; "drove", "driven" → drive).
func verbBases(w string) []string {
	if b, ok := irregularVerbs[w]; ok {
		return []string{b}
	}
	var out []string
	switch {
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		out = append(out, w[:len(w)-3]+"y")
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		b := w[:len(w)-2]
		out = append(out, b, w[:len(w)-1])
		if n := len(b); n >= 3 && b[n-1] == b[n-2] {
			out = append(out, b[:n-1]) // "rigged" → "rig"
		}
	case strings.HasSuffix(w, "es") && len(w) > 4:
		out = append(out, w[:len(w)-2], w[:len(w)-1])
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && len(w) > 3:
		out = append(out, w[:len(w)-1])
	}
	return out
}

// irregularDoers are doers not made of their verb by a suffix.
var irregularDoers = map[string][]string{
	"donate": {"donor"}, "write": {"author"}, "sell": {"vendor"}, "buy": {"purchaser"}, "advise": {"advisor", "adviser"},
	"employ": {"employer"}, "invent": {"inventor"}, "refer": {"referrer"}, "counsel": {"counsellor", "counselor"},
}

// irregularVerbs are past forms whose base is not made by a suffix.
var irregularVerbs = map[string]string{
	"set": "set", "drove": "drive", "driven": "drive", "ran": "run", "run": "run", "led": "lead", "wrote": "write",
	"written": "write", "taught": "teach", "sold": "sell", "bought": "buy", "found": "find", "made": "make",
	"gave": "give", "given": "give", "held": "hold", "sent": "send", "built": "build", "won": "win", "caught": "catch",
	"kept": "keep", "took": "take", "taken": "take", "met": "meet", "chose": "choose", "chosen": "choose",
	"brought": "bring", "flew": "fly", "flown": "fly", "rode": "ride", "ridden": "ride", "spoke": "speak",
	"sang": "sing", "sung": "sing", "shot": "shoot", "dug": "dig", "hung": "hang", "fed": "feed", "read": "read",
	"oversaw": "oversee", "overseen": "oversee", "undertook": "undertake", "undertaken": "undertake",
}
