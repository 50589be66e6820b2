package builtin

import (
	"fmt"
	"slices"
	"strings"

	"talk2tables/orchestrator/sqlgen"
)

// selfRead is a question about one row's relative through a key of a table
// to itself (a mentor, a supervisor): "who is the mentor of X", "which T
// does X supervise", "how many T report to X", "which T have no mentor",
// "list the mentors", "each T with their mentor", "for each mentor, how
// many T do they mentor". Each word must be one of these few shapes' own;
// anything else (a relative's other columns, rows compared with their
// relative's) is left to the final decline.
type selfRead struct {
	t    *table
	role *column // the key of t to t itself
	val  *chunk  // the named row, if any
	// lit, litLen: a name typed with capitals that the catalog does not
	// list ("Sven Aalto"), over litLen chunks from val
	lit    string
	litLen int
	up     bool // the named row's relative (its mentor); else the rows whose key is it
	count  bool
	// filled: -1 "no mentor" (the key is empty), +1 "have a mentor";
	// holders: "the mentors", the rows some row's key names
	filled  int
	holders bool
	// pairs: each row beside its relative ("each T with their mentor");
	// perHolder: each relative with how many rows name it ("for each
	// mentor, how many T do they mentor")
	pairs     bool
	perHolder bool
	// notHolder: "which T never coach anyone", the rows no row's key
	// names; anyone is the index of that "anyone" (-1 if none)
	notHolder bool
	anyone    int
	read      []string
}

// selfFillers carry no meaning in these questions beyond their shape.
var selfFillers = setOf("who", "whom", "what", "whats", "which", "is", "are", "was", "were", "the", "a", "an", "of",
	"name", "names", "first", "last", "and", "give", "list", "show", "find", "tell", "me", "does", "do", "did", "has",
	"have", "had", "as", "their", "his", "her", "its", "whose", "to", "by", "please", "all", "dr", "mr", "mrs", "ms",
	"prof", "currently", "full", "surname", "surnames", "forename", "forenames", "id")

// selfAnswer answers a question about how rows of one table relate through
// its key to itself, or reports that the question is not of that kind
// (ok false): the other readings then decline it.
func (r *creader) selfAnswer(dialect string) (sqlgen.Plan, bool, error) {
	s := r.readSelf()
	if s == nil {
		return sqlgen.Plan{}, false, nil
	}
	var sql string
	if s.pairs || s.perHolder {
		sql = s.selfJoinSQL(dialect)
	} else {
		p, err := s.plan()
		if err != nil {
			return sqlgen.Plan{}, false, err
		}
		if sql, _, err = render(p, dialect); err != nil {
			return sqlgen.Plan{}, false, err
		}
	}
	return sqlgen.Plan{
		SQL:         sql,
		Explanation: s.explain(),
		Confidence:  0.8,
		Assumptions: []string{fmt.Sprintf("%s links each %s row to another %s row", s.role.ref(), s.t.name, s.t.name), "read as: " + strings.Join(s.read, "; ")},
		Generator:   Name,
	}, true, nil
}

// readSelf reads the question as one of the self-link shapes, or nil.
func (r *creader) readSelf() *selfRead {
	ri, ri2 := -1, -1
	var role *column
	perHolder := false
	for i, c := range r.cs {
		col := r.selfRole(c)
		if col == nil && !c.is(cwRelation) {
			continue
		}
		if ri >= 0 {
			// "for each mentor, how many T do they mentor": the role
			// after "each", then its verb
			if ri2 >= 0 || !perHolder || col != nil && col != role {
				return nil // two words for the link
			}
			ri2 = i
			continue
		}
		ri, role = i, col
		perHolder = col != nil && c.kind == ckSchema && eachBefore(r, i)
	}
	if ri < 0 {
		return nil
	}
	s := &selfRead{perHolder: perHolder, anyone: -1}
	vi := -1
	for i, c := range r.cs {
		if i == ri {
			continue
		}
		if t := namedRowTable(c); t != nil {
			if vi >= 0 || c.kind == ckLit {
				return nil
			}
			vi, s.val, s.t = i, c, t
		}
	}
	if role == nil {
		// "reports to", "supervises": the one key of the table to itself
		role = r.relationRole(s.t, r.cs[ri])
		if role == nil {
			return nil
		}
	}
	if s.t != nil && s.t != role.t {
		return nil
	}
	s.t, s.role = role.t, role
	if ri2 >= 0 && r.cs[ri2].is(cwRelation) && r.relationRole(s.t, r.cs[ri2]) != role {
		return nil
	}
	if s.perHolder {
		if vi >= 0 {
			return nil
		}
		s.read = append(s.read, fmt.Sprintf("'%s' → each row %s names", r.cs[ri].text, s.role.ref()))
		if ri2 >= 0 {
			s.read = append(s.read, fmt.Sprintf("'%s' → the rows naming it", r.cs[ri2].text))
		}
	} else {
		if vi < 0 {
			vi = r.typedName(s)
		}
		if !s.direction(r, ri, vi) {
			return nil
		}
	}
	// every other word is one of the shape's own
	for i, c := range r.cs {
		switch {
		case i == ri || i == ri2 || i == vi || i > vi && i < vi+s.litLen || i == s.anyone:
		case c.is(cwNeg) && c.kind == ckWord && s.notHolder:
			s.read = append(s.read, fmt.Sprintf("'%s' → no row names them", c.text))
		case (s.pairs || s.perHolder) && c.kind == ckWord && shapeWords(c):
		case s.perHolder && c.kind == ckWord && holderWords[c.text]:
		case c.is(cwCount) && c.kind == ckWord:
			s.count = true
			s.read = append(s.read, fmt.Sprintf("'%s' → count", c.text))
		case c.is(cwNeg) && c.kind == ckWord && s.filled < 0:
			s.read = append(s.read, fmt.Sprintf("'%s' → no", c.text))
		case c.isTable() && slices.Contains(c.tables(), s.t):
			s.read = append(s.read, fmt.Sprintf("'%s' → the rows of %s", c.text, s.t.name))
		case c.kind == ckSchema && !c.isTable() && allNames(c, s.t):
		case c.kind == ckWord && (selfFillers[c.text] || c.info.cw == cwFiller || (c.text == "people" || c.text == "person" || c.text == "persons") && personLike(s.t)):
		default:
			return nil
		}
	}
	if s.val == nil && s.filled == 0 && !s.holders && !s.pairs && !s.perHolder {
		return nil
	}
	if s.pairs && s.count || s.perHolder && !s.count {
		return nil // "how many T with their mentor"; "each mentor" with nothing counted
	}
	if (s.pairs || s.perHolder) && (len(nameColumns(s.t)) == 0 || s.t.key == nil) {
		return nil
	}
	if s.count && s.up {
		return nil // "how many mentors does X have": one, or none
	}
	if len(s.t.label) == 0 && len(s.t.nameCols) == 0 && !s.count {
		return nil // nothing names the rows to show
	}
	return s
}

// direction reads which way the link goes from the words around the role
// (at ri) and the named row (at vi, -1 if none).
func (s *selfRead) direction(r *creader, ri, vi int) bool {
	rc := r.cs[ri]
	word := func(k int) string {
		if c := r.at(k); c != nil && c.kind == ckWord {
			return c.text
		}
		return ""
	}
	if rc.is(cwRelation) {
		switch rc.text {
		case "manages", "supervises":
			// "who supervises X" / "which T does X supervise"
			if vi < 0 {
				return false
			}
			s.up = vi > ri
		default:
			// "T who report to X", "supervised by X"
			if vi < ri {
				return false
			}
		}
		s.read = append(s.read, fmt.Sprintf("'%s' → %s", rc.text, s.role.ref()))
		if vi >= 0 {
			s.read = append(s.read, fmt.Sprintf("'%s' → a named %s row", s.val.text, s.t.name))
		}
		return vi >= 0
	}
	s.read = append(s.read, fmt.Sprintf("'%s' → %s", rc.text, s.role.ref()))
	if vi >= 0 {
		s.read = append(s.read, fmt.Sprintf("'%s' → a named %s row", s.val.text, s.t.name))
	}
	verb := rc.kind == ckWord
	switch {
	case vi < 0 && (anyoneWords[word(ri+1)] && s.roleVerb(r, ri) || !verb && word(ri+1) == "of" && anyoneWords[word(ri+2)]):
		// "which T coach someone", "which T never tutor anybody",
		// "which T are not the steward of anyone": the rows some row's key
		// names, or none does
		s.anyone, s.holders = ri+1, true
		if word(ri+1) == "of" {
			s.anyone = ri + 2
		}
		for k := ri - 1; k >= 0 && k >= ri-3; k-- {
			if c := r.at(k); c.is(cwNeg) && c.kind == ckWord {
				s.notHolder = true
			}
		}
		return true
	case vi < 0:
		// "which T have no mentor", "T with a mentor", "list the mentors"
		for k := ri - 1; k >= 0 && k >= ri-3; k-- {
			if c := r.at(k); c.is(cwNeg) && c.kind == ckWord {
				s.filled = -1
				return true
			}
		}
		if w := word(ri - 1); w == "a" || w == "an" {
			if w2 := word(ri - 2); w2 == "have" || w2 == "has" || w2 == "with" {
				s.filled = 1
				return true
			}
		}
		if !verb && strings.HasSuffix(rc.text, "s") {
			s.holders = true
			return true
		}
		if w := lastWord(r.at(ri - 1)); !verb && (w == "their" || w == "his" || w == "her") {
			s.pairs = true // "each T with their mentor('s name)"
			return true
		}
		return false
	case verb && vi > ri && word(ri+1) == "by":
		return true // "mentored by X": the rows whose mentor X is
	case verb && vi > ri:
		s.up = true // "who supervises X"
		return true
	case verb && vi < ri:
		return true // "which T does X supervise"
	case word(ri-1) == "whose" && vi > ri:
		return true // "whose mentor is X"
	case vi < ri && slices.Contains([]string{word(ri - 1), word(ri - 2), word(ri - 3)}, "as"):
		return true // "who has X as a mentor"
	case vi > ri && (word(ri+1) == "of" || vi == ri+1 && word(ri-1) == "who"):
		s.up = true // "the mentor of X", "who mentors X"
		return true
	case vi == ri-1 && possessive(s.val):
		s.up = true // "X's mentor"
		return true
	case vi < ri && (word(vi-1) == "does" || word(vi-1) == "do" || word(vi-1) == "did"):
		return true // "which T does X supervise"
	}
	return false
}

// roleVerb: the role word at ri is a verb ("supervise", or "mentor" after
// "do not").
func (s *selfRead) roleVerb(r *creader, ri int) bool {
	rc := r.cs[ri]
	if verbOfRole(rc.text, s.role) {
		return true
	}
	w := lastWord(r.at(ri - 1))
	return rc.text == roleNoun(s.role) && (w == "do" || w == "does" || w == "did" || w == "not" || w == "never")
}

// anyoneWords stand for any row after a verb of the role ("supervise
// anyone").
var anyoneWords = setOf("anyone", "anybody", "someone", "somebody", "anything")

// pairWords join each row to its relative ("each T together with their
// mentor") or each relative to its count ("for each mentor").
var pairWords = setOf("with", "together", "along", "each", "every", "for", "beside", "alongside")

// holderWords are the rest of "for each mentor, how many T do they
// mentor", "how many T report to them".
var holderWords = setOf("per", "they", "them", "he", "she", "people", "persons", "number")

// eachBefore: the chunk at i follows "each", "every" or "per" ("for each
// supervisor", "per mentor").
func eachBefore(r *creader, i int) bool {
	w := lastWord(r.at(i - 1)) // "for each" may be one chunk
	return w == "each" || w == "every" || w == "per"
}

// lastWord is the last word of a word chunk ("with their" → their).
func lastWord(c *chunk) string {
	if c == nil || c.kind != ckWord {
		return ""
	}
	ws := strings.Fields(c.text)
	if len(ws) == 0 {
		return ""
	}
	return ws[len(ws)-1]
}

// roleNoun is the word a self key is named after ("steward" of
// steward_ref).
func roleNoun(col *column) string {
	var role string
	for _, x := range strings.Fields(col.phrase()) {
		if !keyWords[x] && x != "code" && x != "no" {
			role = x
		}
	}
	return role
}

// shapeWords: every word of the chunk joins rows to relatives or carries
// no meaning here ("with the name", "for each").
func shapeWords(c *chunk) bool {
	for _, w := range strings.Fields(c.text) {
		if !pairWords[w] && !selfFillers[w] {
			return false
		}
	}
	return true
}

// selfJoinSQL is the pairs or per-holder shape as SQL: the table joined to
// itself through the role key (only rows that have a relative).
func (s *selfRead) selfJoinSQL(dialect string) string {
	r := &renderer{dialect: dialect, used: map[*table]bool{}}
	t, names := s.t, nameColumns(s.t)
	row, rel := r.ident("r"), r.ident("h")
	var cols []string
	if s.pairs {
		for _, c := range names {
			cols = append(cols, row+"."+r.ident(c.name))
		}
	}
	for _, c := range names {
		col := rel + "." + r.ident(c.name)
		if s.pairs {
			col += " AS " + r.ident(strings.TrimSpace(roleNoun(s.role)+" "+c.name))
		}
		cols = append(cols, col)
	}
	if s.perHolder {
		cols = append(cols, "COUNT(*) AS "+r.ident("count"))
	}
	sql := "SELECT " + strings.Join(cols, ", ") + " FROM " + r.table(t) + " " + row + " JOIN " + r.table(t) + " " + rel +
		" ON " + rel + "." + r.ident(t.key.name) + " = " + row + "." + r.ident(s.role.name)
	if s.perHolder {
		group := []string{rel + "." + r.ident(t.key.name)}
		for _, c := range names {
			if c != t.key {
				group = append(group, rel+"."+r.ident(c.name))
			}
		}
		sql += " GROUP BY " + strings.Join(group, ", ")
	}
	return sql
}

// selfRole is the key of a table to itself that a chunk names: the column
// ("mentor", "supervisor") or a verb made of its name ("supervise",
// "mentored").
func (r *creader) selfRole(c *chunk) *column {
	if c.kind == ckSchema && !c.isTable() && selfLink(c) {
		var found *column
		for _, m := range c.ms {
			if m.c.selfKey() {
				if found != nil && found != m.c {
					return nil
				}
				found = m.c
			}
		}
		return found
	}
	if c.kind != ckWord || c.info.cw != cwNone && c.info.cw != cwLink {
		return nil
	}
	var found *column
	for _, t := range r.m.tables {
		for _, col := range t.cols {
			if !col.selfKey() || !verbOfRole(c.text, col) {
				continue
			}
			if found != nil {
				return nil
			}
			found = col
		}
	}
	return found
}

// relationRole is the key to itself a relation word ("reports to",
// "supervises") speaks of: of the table named, else the one the verb is
// made of, else the only one there is.
func (r *creader) relationRole(t *table, rel *chunk) *column {
	if t == nil {
		for _, c := range r.cs {
			if c.isTable() && len(c.tables()) == 1 {
				t = c.tables()[0]
				break
			}
		}
	}
	var all, verbs []*column
	for _, tt := range r.m.tables {
		if t != nil && tt != t {
			continue
		}
		for _, c := range tt.cols {
			if c.selfKey() {
				all = append(all, c)
				if verbOfRole(strings.Fields(rel.text)[0], c) {
					verbs = append(verbs, c)
				}
			}
		}
	}
	switch {
	case len(verbs) == 1:
		return verbs[0]
	case len(all) == 1:
		return all[0]
	}
	return nil
}

// verbOfRole: w is a verb form of the role a self key is named after
// ("supervise", "supervises", "supervised" of a supervisor key; "mentors",
// "mentored" of a mentor key).
func verbOfRole(w string, col *column) bool {
	role := roleNoun(col)
	stem := strings.TrimSuffix(strings.TrimSuffix(role, "or"), "er")
	if len(stem) < 5 {
		stem = role
	}
	if len(stem) < 4 || w == role {
		return false
	}
	rest := strings.TrimPrefix(w, stem)
	return rest != w && (rest == "e" || rest == "es" || rest == "ed" || rest == "s" || rest == "ing")
}

// namedRowTable is the table whose row a value chunk names by its name.
func namedRowTable(c *chunk) *table {
	if c.kind == ckLit {
		return nil
	}
	var t *table
	for _, m := range c.ms {
		var mt *table
		switch {
		case m.kind == mEntity && m.e.set.key != nil:
			mt = m.e.set.t
		case m.kind == mValue && m.c.isName():
			mt = m.c.t
		default:
			continue
		}
		if t != nil && t != mt {
			return nil
		}
		t = mt
	}
	return t
}

// allNames: the chunk names a name column of t ("name", "first name"),
// whatever other tables' name columns it names too.
func allNames(c *chunk, t *table) bool {
	return len(c.tables()) == 0 && slices.ContainsFunc(c.columns(), func(col *column) bool { return col.t == t && col.isName() })
}

// plan is the self-link question as a plan: the rows of t, filtered by a
// subquery over t itself.
func (s *selfRead) plan() (*plan, error) {
	t := s.t
	p := &plan{kind: pList, root: t, joins: newJoinSet(t)}
	if s.count {
		p.kind = pAggregate
		p.sels = []selItem{{e: expr{kind: eCountAll}, alias: "count"}}
	} else {
		for _, c := range nameColumns(t) {
			p.sels = append(p.sels, selItem{e: expr{kind: eCol, col: c}, alias: c.name})
		}
	}
	switch {
	case s.filled != 0:
		p.where = append(p.where, &cond{kind: cNotNull, e: expr{kind: eCol, col: s.role}, neg: s.filled < 0})
	case s.holders:
		p.where = append(p.where, &cond{kind: cSemi, neg: s.notHolder, semi: &semiJoin{outer: t.key, joins: newJoinSet(t), sel: s.role,
			where: []*cond{{kind: cNotNull, e: expr{kind: eCol, col: s.role}}}}})
	default:
		named, err := s.namedCond()
		if err != nil {
			return nil, err
		}
		outer, sel := s.role, t.key
		if s.up {
			outer, sel = t.key, s.role
		}
		p.where = append(p.where, &cond{kind: cSemi, semi: &semiJoin{outer: outer, joins: newJoinSet(t), sel: sel, where: []*cond{named}}})
	}
	if t.key == nil {
		return nil, decline("%s has no single key to link its rows by", t.name)
	}
	return p, nil
}

// typedName finds a name typed with capitals, in words no table or column
// knows, for rows of t named by their name column(s): the index of its
// first chunk, or -1.
func (r *creader) typedName(s *selfRead) int {
	cols := nameColumns(s.t)
	if len(cols) == 0 {
		return -1
	}
	for i, c := range r.cs {
		if c.kind != ckWord || c.info.cw != cwNone || !c.capitalised() || i == 0 {
			continue
		}
		k := i
		for k < len(r.cs) && r.cs[k].kind == ckWord && r.cs[k].info.cw == cwNone && r.cs[k].capitalised() {
			k++
		}
		if k-i < len(cols) {
			return -1
		}
		s.val, s.lit, s.litLen = c, strings.TrimSuffix(strings.TrimSuffix(joinOrig(r.cs[i:k]), "'s"), "’s"), k-i
		return i
	}
	return -1
}

// namedCond picks the named rows: by key when the name is a known row's.
func (s *selfRead) namedCond() (*cond, error) {
	if s.lit != "" {
		cols := nameColumns(s.t)
		if len(cols) == 1 {
			return &cond{kind: cValues, e: expr{kind: eCol, col: cols[0]}, values: []any{s.lit}}, nil
		}
		return &cond{kind: cValues, e: expr{kind: eLabel, cols: cols}, values: []any{s.lit}}, nil
	}
	var keys []any
	var byName *column
	var name string
	for _, m := range s.val.ms {
		switch {
		case m.kind == mEntity && m.e.set.key != nil && m.e.set.t == s.t:
			keys = append(keys, m.e.keyValues()...)
		case m.kind == mValue && m.c.t == s.t:
			byName, name = m.c, m.value
		}
	}
	switch {
	case len(keys) > 0:
		return &cond{kind: cValues, e: expr{kind: eCol, col: s.t.key}, values: keys}, nil
	case byName != nil:
		return &cond{kind: cValues, e: expr{kind: eCol, col: byName}, values: []any{name}}, nil
	}
	return nil, decline("I could not tell which %s row %q names", s.t.name, s.val.text)
}

// nameColumns are the columns that name t's rows: its label, else its
// other name columns.
func nameColumns(t *table) []*column {
	if len(t.label) > 0 {
		return t.label
	}
	return t.nameCols
}

func (s *selfRead) explain() string {
	what := "the " + s.t.name + " rows"
	verb := "Lists"
	if s.count {
		verb = "Counts"
	}
	switch {
	case s.pairs:
		return fmt.Sprintf("Lists %s that have a %s, each beside the row it names", what, s.role.name)
	case s.perHolder:
		return fmt.Sprintf("Counts, for each %s row another row's %s names, the rows that name it", s.t.name, s.role.name)
	case s.filled < 0:
		return fmt.Sprintf(verb+" %s whose %s is empty", what, s.role.name)
	case s.filled > 0:
		return fmt.Sprintf(verb+" %s whose %s is filled in", what, s.role.name)
	case s.notHolder:
		return fmt.Sprintf(verb+" %s that no row's %s names", what, s.role.name)
	case s.holders:
		return fmt.Sprintf(verb+" %s that another row's %s names", what, s.role.name)
	case s.up:
		return fmt.Sprintf(verb+" %s that %s's %s names", what, s.val.text, s.role.name)
	}
	return fmt.Sprintf(verb+" %s whose %s is %s", what, s.role.name, s.val.text)
}
