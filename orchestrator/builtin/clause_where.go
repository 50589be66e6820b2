package builtin

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"talk2tables/catalog"
)

// bindConds binds every condition: on the root and the tables it reaches
// many-to-one as WHERE terms; on other tables as semi-joins (finish).
func (b *clauseBinder) bindConds(p *plan) error {
	for _, cd := range b.q.conds {
		if cd == b.countBy {
			continue
		}
		if cd.kind == ccCmp && cd.fn != "" {
			return notMine("%q compares the %s of %s per row: name the rows it is computed over", cd.src.text, strings.ToLower(fnWord(cd.fn)), cd.col.text).
				withHint("e.g. the T whose average C is above N")
		}
		if cd.kind == ccExists || cd.kind == ccCount {
			t, err := b.condTable(cd)
			if err != nil {
				return err
			}
			if t == b.root && cd.kind == ccExists {
				if cd.neg {
					// "judges who have not judged": the negation must
					// go somewhere, never be dropped with the repeat
					return notMine("%q after a negation names the rows asked about again", cd.rows.text)
				}
				if selfReferencing(t) {
					// "riggers coached by rigger 2" beside a coach key
					// of the riggers: one rigger linked to others, not
					// the subject named twice
					return finalDecline("how rows relate to one another (%q) is not answered offline", cd.src.text).
						withHint("ask about one row's own details, or name the related row, e.g. coached by <name>")
				}
				continue // the subject named twice
			}
			if cd.kind == ccExists && cd.via == nil && b.reachable(t) {
				if _, back := b.m.reach(t, b.root); back && !namesTarget(b.m.reachable[b.root].paths[t][0]) {
					// "departments with no teachers": their head, or the
					// teachers whose department it is?
					return finalDecline("%s and %s are linked both ways, and I don't know which link you mean", b.root.name, t.name)
				}
				// "T with a U": the link is filled in
				ps, _ := b.m.paths(b.root)
				first := ps[t][0].col
				b.where = append(b.where, &cond{kind: cNotNull, e: expr{kind: eCol, col: first}, neg: cd.neg})
				continue
			}
			if prev, ok := b.exists[t]; ok && prev.kind == ccExists && cd.kind == ccExists && (prev.via != nil || cd.via != nil) {
				if prev.via == nil || cd.via == nil || prev.via == cd.via {
					return decline("two conditions on the %s rows linked; ask one at a time", t.name)
				}
				// "hauled and never rigged a mast": each key its own
				// condition, neither one dropped for the other
				b.viaAlso = append(b.viaAlso, prev)
			}
			if prev, ok := b.exists[t]; ok && prev.kind == ccExists && cd.kind == ccExists && prev.neg != cd.neg && prev.via == nil && cd.via == nil {
				// "kiosks without any crate in the crate log": the rows
				// with none and with some, one reading dropping the other
				return decline("%s rows named twice, once with a negation: with them, or without?", t.name).
					withHint("name the %s rows once, e.g. without any %s", t.name, cd.rows.text)
			}
			if prev, ok := b.exists[t]; ok && prev.kind != cd.kind {
				switch {
				case prev.kind == ccExists && !prev.neg && cd.kind == ccCount:
					// "harvested more than 20 times": the count says they exist
				case cd.kind == ccExists && !cd.neg && prev.kind == ccCount:
					continue
				default:
					return decline("two conditions on how many %s rows there are; ask one at a time", t.name)
				}
			}
			b.exists[t] = cd
			continue
		}
		if cd.kind == ccFlag && cd.neg && cd.negRows && len(cd.or) == 0 {
			// "kiosks that never had a refund": no related row
			// has the flag, not a related row without it
			pos := *cd
			pos.neg = false
			c, t, err := b.condOf(&pos)
			if err != nil {
				return err
			}
			if t != b.root && !b.reachable(t) && b.relatedBefore(cd, t) == nil {
				b.semi[t] = append(b.semi[t], c)
				b.negSemi[t] = true
				continue
			}
		}
		c, t, err := b.condOf(cd)
		if err != nil {
			return err
		}
		if own := b.ownMoneyBeside(cd, c, t); own != nil {
			// "kiosks that came to over 90" over the masts' unit cost,
			// where the kiosks have a charge of their own
			return decline("%q compares %s, of %s rows the question does not name, and %s has money of its own (%s)", cd.src.text, c.e.col.ref(), t.name, b.root.name, own.ref()).
				withHint("name the column, e.g. %s with %s over the amount", b.root.name, own.phrase())
		}
		for _, alt := range cd.or {
			ac, at, err := b.condOf(alt)
			if err != nil {
				return err
			}
			if at != t {
				return decline("the alternatives joined by 'or' are on different tables (%s, %s)", t.name, at.name)
			}
			c = orCond(c, ac)
		}
		if r := b.relatedBefore(cd, t); r != nil {
			if cd.neg && cd.negRows && cd.kind == ccValue {
				// "kiosks with repairs but no Harbour repair": no such
				// repair at all, not a repair of another value
				return decline("%q after %s: that none of them is %s, or some are not?", "no "+cd.src.text, r.name, cd.src.text).
					withHint("ask for the %s with no %s, or those with %s that are not %s", b.root.name, cd.src.text, r.name, cd.src.text)
			}
			b.semi[t] = append(b.semi[t], c)
			b.within[t] = r
			continue
		}
		if t == b.root || b.reachable(t) {
			if !b.need(t) {
				return decline("%s is reached from %s in more than one way", t.name, b.root.name)
			}
			b.where = append(b.where, c)
			continue
		}
		if cd.andList {
			// "T with X and Y U": related rows of each, or of either?
			return finalDecline("%q with 'and' on rows of %s could mean rows having each value or any of them", cd.vals[0].text, t.name).
				withHint("ask with 'or' for any of them, or about one value at a time")
		}
		if cd.neg && cd.kind == ccValue && c.neg && len(cd.or) == 0 {
			c.neg, b.negSemi[t] = false, true
		}
		b.semi[t] = append(b.semi[t], c)
	}
	p.where = append(p.where, b.where...)
	return nil
}

// ownMoneyBeside is the root's own money column when the comparison cd
// (bound to c on t) compares money on rows of another table the question
// does not name, reached one-to-many; nil otherwise.
func (b *clauseBinder) ownMoneyBeside(cd *ccond, c *cond, t *table) *column {
	if cd.kind != ccCmp && cd.kind != ccAvg || t == b.root || b.reachable(t) || b.namesTable(t) || c.e.kind != eCol || c.e.col == nil || c.e.col.unit != unitMoney {
		return nil
	}
	for _, x := range b.root.cols {
		if x.unit == unitMoney && !x.isKey() {
			return x
		}
	}
	return nil
}

// relatedBefore is the related table ("T that have a U") named before the
// condition on t that reaches t itself: the condition describes those rows,
// not the subject's own link to t.
func (b *clauseBinder) relatedBefore(cd *ccond, t *table) *table {
	if t == b.root || cd.src == nil {
		return nil
	}
	at := b.q.cs.index(cd.src)
	var found *table
	best := -1
	for _, e := range b.q.conds {
		if e.kind != ccExists || e.neg || e.rows == nil {
			continue
		}
		k := b.q.cs.index(e.rows)
		if k < 0 || k > at || k < best {
			continue
		}
		r, err := b.tableOf(e.rows)
		if err != nil || r == t || r == b.root || b.reachable(r) {
			continue
		}
		if _, ok := b.m.reach(r, t); ok {
			found, best = r, k
		}
	}
	return found
}

func orCond(a, c *cond) *cond {
	if a.kind == cOr {
		a.subs = append(a.subs, c)
		return a
	}
	return &cond{kind: cOr, subs: []*cond{a, c}}
}

// condOf binds one condition and says which table it is on.
func (b *clauseBinder) condOf(cd *ccond) (*cond, *table, error) {
	switch cd.kind {
	case ccValue:
		return b.valueCond(cd)
	case ccCmp:
		return b.cmpCond(cd)
	case ccCol:
		l, err := b.column(cd.col, b.subject)
		if err != nil {
			return nil, nil, err
		}
		o, err := b.column(cd.other, l.t)
		if err != nil {
			return nil, nil, err
		}
		if o.t != l.t {
			return nil, nil, decline("%s and %s are columns of different tables", l.ref(), o.ref())
		}
		if cd.op != "=" && cd.op != "<>" && (l.fk != nil || l.pk) && (o.fk != nil || o.pk) {
			// "crates whose packer was hired before the sealer": the rows
			// the keys point at compared by some column of theirs, not the
			// keys' numbers
			return nil, nil, decline("%q and %q are links to other rows: comparing them as numbers says nothing about those rows", cd.col.text, cd.other.text).
				withHint("name the column of theirs to compare, e.g. the %s's date", cd.col.text)
		}
		b.resolve(cd.col.text, "column", l.ref())
		b.resolve(cd.other.text, "column", o.ref())
		return &cond{kind: cColCmp, e: expr{kind: eCol, col: l, cast: l.textNumber()}, op: cd.op, e2: expr{kind: eCol, col: o, cast: o.textNumber()}}, l.t, nil
	case ccAvg:
		l, err := b.column(cd.col, b.subject)
		if err != nil {
			return nil, nil, err
		}
		o, err := b.column(cd.other, l.t)
		if err != nil {
			return nil, nil, err
		}
		if !o.numeric && !numericText(o) {
			return nil, nil, decline("%s is not a number column", o.ref())
		}
		if o.isKey() || l.isKey() {
			// "kiosks bigger than the average kiosk": a size of theirs,
			// not the average of their key
			return nil, nil, decline("%s identifies rows: comparing it with an average means nothing", o.ref()).
				withHint("name the column to compare, e.g. bigger in area than the average")
		}
		b.assume = append(b.assume, fmt.Sprintf("the %s of %s over all %s rows", strings.ToLower(fnWord(cd.fn)), o.name, o.t.name))
		// numbers stored as text compared as numbers, on both sides
		return &cond{kind: cSubAgg, e: expr{kind: eCol, col: l, cast: l.textNumber()}, op: cd.op, fn: cd.fn, e2: expr{kind: eCol, col: o, cast: o.textNumber()}}, l.t, nil
	case ccLike:
		col, err := b.textColumn(cd)
		if err != nil {
			return nil, nil, err
		}
		return &cond{kind: cLike, e: expr{kind: eCol, col: col}, values: []any{cd.pat}}, col.t, nil
	case ccFlag:
		col, err := b.column(cd.col, b.subject)
		if err != nil {
			return nil, nil, err
		}
		c, err := flagCond(col, cd.neg)
		return c, col.t, err
	case ccRange:
		return b.rangeCond(cd)
	case ccNull:
		col, err := b.column(cd.col, b.subject)
		if err != nil {
			return nil, nil, err
		}
		b.filtered[col] = true
		return &cond{kind: cNotNull, e: expr{kind: eCol, col: col}, neg: !cd.neg}, col.t, nil
	}
	return nil, nil, fmt.Errorf("unknown condition kind %d", cd.kind)
}

// textColumn is the column a name or pattern is on: the one named, else
// the label of the table named, else the subject's.
func (b *clauseBinder) textColumn(cd *ccond) (*column, error) {
	if cd.col != nil {
		return b.column(cd.col, b.subject)
	}
	t := b.subject
	if cd.rows != nil {
		x, err := b.tableOf(cd.rows)
		if err != nil {
			return nil, err
		}
		t = x
	}
	if cd.key {
		if t.key == nil || !t.key.numeric {
			return nil, notMine("%s has no number key for %q", t.name, cd.src.text)
		}
		return t.key, nil
	}
	if c := titleColumn(cd, t); c != nil {
		// "riggers titled Mast Captain": their job title, not a name
		return c, nil
	}
	label := b.labelCols(t)
	if t.key != nil && !t.key.numeric && (codeLike(cd.lit) || upperCode(cd.lit) && !holdsValue(label, cd.lit)) {
		// "course MATH101", "grade code LHX": a code, the row's own
		// text key, not its name
		return t.key, nil
	}
	if c := textKey(t); c != nil && (codeLike(cd.lit) || upperCode(cd.lit)) && strings.ToLower(cd.lit) != cd.lit && !holdsValue(label, cd.lit) {
		// "kiosk K-30" where kiosks have a number key and a code beside
		// their name: the code
		return c, nil
	}
	if len(label) != 1 {
		return nil, decline("I don't know which column of %s holds the name", t.name).
			withHint("say which, e.g. whose last name is ...")
	}
	return label[0], nil
}

// titleColumn is t's one text column called a title that is not its
// name (a job title), when the question says "titled": nil otherwise.
func titleColumn(cd *ccond, t *table) *column {
	if cd.src == nil || cd.src.text != "titled" && cd.src.text != "entitled" {
		return nil
	}
	var found *column
	for _, c := range t.cols {
		ws := catalog.IdentifierWords(c.name)
		if c.numeric || len(ws) < 2 || ws[len(ws)-1] != "title" || slices.Contains(t.label, c) {
			continue
		}
		if found != nil {
			return nil
		}
		found = c
	}
	return found
}

// textKey is t's one text column the catalog calls an identifier besides
// its number key (a code each row has), or nil.
func textKey(t *table) *column {
	var found *column
	for _, c := range t.cols {
		if c.kind != catalog.KindIdentifier || c.numeric || c.pk || c.fk != nil {
			continue
		}
		if found != nil {
			return nil
		}
		found = c
	}
	return found
}

// upperCode: a short word typed in capitals ("LHX", "QRT"): a code.
func upperCode(s string) bool {
	if len(s) < 2 || len(s) > 5 {
		return false
	}
	for _, r := range s {
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// holdsValue: one of the columns lists s among its values.
func holdsValue(cols []*column, s string) bool {
	for _, c := range cols {
		if slices.ContainsFunc(c.values, func(v string) bool { return strings.EqualFold(v, s) }) {
			return true
		}
	}
	return false
}

// codeLike: one word mixing letters and digits ("MATH101", "B-12"), not
// a name.
func codeLike(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t") {
		return false
	}
	letter, digit := false, false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r):
			digit = true
		}
	}
	return letter && digit
}

// fullNameCond matches a name against a label of several columns ("Ana
// Lopez" against first_name || ' ' || last_name).
func (b *clauseBinder) fullNameCond(cd *ccond) (*cond, *table, bool) {
	if cd.col != nil || cd.lit == "" {
		return nil, nil, false
	}
	t := b.subject
	if cd.rows != nil {
		x, err := b.tableOf(cd.rows)
		if err != nil {
			return nil, nil, false
		}
		t = x
	}
	if t == nil {
		return nil, nil, false
	}
	label := b.labelCols(t)
	if len(label) < 2 || len(strings.Fields(cd.lit)) < 2 || titleColumn(cd, t) != nil {
		return nil, nil, false
	}
	return &cond{kind: cValues, e: expr{kind: eLabel, cols: label}, values: []any{cd.lit}, neg: cd.neg}, t, true
}

// valueCond binds column = value(s): literals and numbers on the column
// named, values on the column (or named row) the schema or catalog lists
// them in.
func (b *clauseBinder) valueCond(cd *ccond) (*cond, *table, error) {
	if c, t, ok := b.fullNameCond(cd); ok {
		b.resolve(cd.lit, "name", t.name)
		return c, t, nil
	}
	if cd.lit != "" || cd.vals[0].kind == ckLit || cd.vals[0].kind == ckNum {
		col, err := b.textColumn(cd)
		if err != nil {
			return nil, nil, err
		}
		var vals []any
		if cd.lit != "" {
			if err := knownValue(col, cd.lit); err != nil {
				return nil, nil, err
			}
			vals = append(vals, b.storedCase(col, cd.lit))
		}
		if col.numeric && cd.lit != "" {
			if _, ok := parseNumber(cd.lit); !ok {
				return nil, nil, decline("%s holds numbers, not %q", col.ref(), cd.lit)
			}
		}
		for _, v := range cd.vals {
			switch v.kind {
			case ckLit:
				if _, ok := parseNumber(v.orig); col.numeric && !ok {
					return nil, nil, decline("%s holds numbers, not %q", col.ref(), v.orig)
				}
				if err := knownValue(col, v.orig); err != nil {
					return nil, nil, err
				}
				vals = append(vals, b.storedCase(col, v.orig))
			case ckNum:
				vals = append(vals, v.num)
			default:
				return nil, nil, decline("%q and %q are not values of one column", cd.vals[0].text, v.text)
			}
		}
		b.resolve(cd.src.text, "column", col.ref())
		b.andList(cd, col)
		b.filtered[col] = true
		return &cond{kind: cValues, e: expr{kind: eCol, col: col}, values: vals, neg: cd.neg}, col.t, nil
	}
	var want *column
	if cd.col != nil {
		c, err := b.column(cd.col, b.subject)
		if err != nil {
			return nil, nil, err
		}
		want = c
	}
	ms, err := b.valueMeanings(cd, want)
	if err != nil {
		return nil, nil, err
	}
	first := ms[0]
	if first.kind == mEntity && first.e.set.key != nil {
		var keys []any
		for i, m := range ms {
			keys = append(keys, m.e.keyValues()...)
			b.resolve(cd.vals[i].text, first.t.name, first.e.name)
			if len(m.e.keys) > 1 && !b.allOfName(cd.vals[i], first.t) {
				b.sharedOne = cd.vals[i]
			}
		}
		if via := cd.via; via != nil && via.fk.to == first.t {
			// "dogs walked by Ann Lee": the walker key holds her key
			b.resolve(cd.src.text, "link", via.ref())
			return &cond{kind: cValues, e: expr{kind: eCol, col: via}, values: keys, neg: cd.neg}, via.t, nil
		}
		b.andList(cd, first.e.set.key)
		return &cond{kind: cValues, e: expr{kind: eCol, col: first.e.set.key}, values: keys, neg: cd.neg}, first.t, nil
	}
	col := first.c
	if first.kind == mEntity {
		col = first.e.set.cols[0]
	}
	if t := b.adjectiveOf(cd); t != nil && col.t != t && first.kind == mValue && !col.isName() {
		// "open complaints" where open is a status of the depots three
		// links away: the word describes the complaints (a row's name,
		// "the Quay visits", still names the row they link to)
		if ps, _ := b.m.paths(t); len(ps[col.t]) > 1 {
			return nil, nil, decline("%q describes %s, and it is a value of %s, %d links away", cd.vals[0].text, t.name, col.ref(), len(ps[col.t])).
				withHint("name the column, e.g. %s %s", col.phrase(), cd.vals[0].text)
		}
	}
	var vals []any
	for i, m := range ms {
		v := m.value
		if m.kind == mEntity {
			v = m.e.name
		}
		vals = append(vals, v)
		b.resolve(cd.vals[i].text, "value", col.ref()+" = "+v)
	}
	b.andList(cd, col)
	b.filtered[col] = true
	return &cond{kind: cValues, e: expr{kind: eCol, col: col}, values: vals, neg: cd.neg}, col.t, nil
}

// reachesOne: each row asked about has one row of t (t is reached by
// keys of the rows, many-to-one).
func (b *clauseBinder) reachesOne(t *table) bool {
	if b.subject == nil || t == b.subject {
		return true
	}
	ps, _ := b.m.paths(b.subject)
	_, ok := ps[t]
	return ok
}

// adjectiveOf is the table a lone value stands before as an adjective
// ("open complaints"), or nil.
func (b *clauseBinder) adjectiveOf(cd *ccond) *table {
	if len(cd.vals) != 1 || cd.col != nil || cd.vals[0].kind != ckSchema {
		return nil
	}
	i := b.q.cs.index(cd.vals[0]) + 1
	if i <= 0 || i >= len(b.q.cs) {
		return nil
	}
	nx := b.q.cs[i]
	if !nx.isTable() || nx.isColumn() || len(nx.tables()) != 1 {
		return nil
	}
	return nx.tables()[0]
}

// knownValue declines a literal the column cannot hold: its values are all
// known (listed by the schema or a complete catalog set) and the literal is
// not one of them.
func knownValue(c *column, v string) error {
	if len(c.values) == 0 || c.valueSet && c.capped {
		return nil
	}
	for _, x := range c.values {
		if strings.EqualFold(x, v) {
			return nil
		}
	}
	return decline("%q is not a value of %s (it holds %s)", v, c.ref(), quoteList(c.values)).
		withHint("use one of its values")
}

// storedCase is a literal as the column stores it when it differs from
// a known value only in case.
func (b *clauseBinder) storedCase(c *column, v string) string {
	for _, x := range c.values {
		if strings.EqualFold(x, v) {
			return x
		}
	}
	return v
}

// allOfName: the question speaks of every row of t named v — "the crates
// called Tall Ship", "each Tall Ship", "a Tall Ship", "crates with the
// name Tall Ship" — not of one.
func (b *clauseBinder) allOfName(v *chunk, t *table) bool {
	if k := b.q.cs.index(v); k > 0 {
		pv := b.q.cs[k-1]
		if allNameWords[pv.text] {
			return true
		}
		for _, col := range pv.columns() {
			if col.t == t && slices.Contains(t.label, col) {
				return true // "the name Tall Ship"
			}
		}
	}
	for _, c := range b.q.cs {
		if pluralNoun(c) && slices.ContainsFunc(c.ms, func(m *meaning) bool { return m.kind == mTable && m.t == t }) {
			return true // "crates" named anywhere
		}
	}
	return false
}

var allNameWords = setOf("called", "named", "titled", "labelled", "labeled", "a", "an", "any", "each", "every", "all", "both")

func (b *clauseBinder) andList(cd *ccond, c *column) {
	if cd.andList {
		b.assume = append(b.assume, fmt.Sprintf("values joined by 'and' read as any of them (%s holds one value per row)", c.ref()))
	}
}

// valueMeanings picks one meaning per value chunk, all on one column (or
// one entity set): the column named, else the root's, the tables it
// reaches, the subject's, then any one table's.
func (b *clauseBinder) valueMeanings(cd *ccond, want *column) ([]*meaning, error) {
	key := func(m *meaning) any {
		if m.kind == mEntity {
			return m.e.set
		}
		return m.c
	}
	levels := []func(*meaning) bool{}
	if want != nil {
		levels = append(levels, func(m *meaning) bool {
			return m.kind == mValue && m.c == want || m.kind == mEntity && m.t == want.t
		})
	} else {
		named := b.namedTables()
		levels = append(levels,
			func(m *meaning) bool { return named[m.t] && (m.t == b.root || b.reachable(m.t)) },
			func(m *meaning) bool { return m.t == b.root },
			func(m *meaning) bool { return b.reachable(m.t) && m.t != b.root },
			func(m *meaning) bool { return m.t == b.subject },
			func(m *meaning) bool { return b.tables[m.t] },
			func(m *meaning) bool { return !m.t.view })
	}
	strictFrom := len(levels)
	if want == nil {
		strictFrom = 2 // beyond the named tables and the root, a value must be in one table only
	}
	for li, lv := range levels {
		groups := map[any][]*meaning{}
		var order []any
		for vi, v := range cd.vals {
			for _, m := range v.ms {
				if (m.kind != mValue && m.kind != mEntity) || !lv(m) {
					continue
				}
				k := key(m)
				if len(groups[k]) == vi {
					if vi == 0 {
						order = append(order, k)
					}
					groups[k] = append(groups[k], m)
				}
			}
		}
		var full []any
		for _, k := range order {
			if len(groups[k]) == len(cd.vals) {
				full = append(full, k)
			}
		}
		full = entityOverLabel(full, groups)
		switch len(full) {
		case 0:
			continue
		case 1:
			got := groups[full[0]]
			if li >= strictFrom && b.valueElsewhere(cd, key(got[0])) {
				return nil, finalDecline("%q is a value of %s; say whose", cd.vals[0].text, strings.Join(b.valueColumns(cd), " and ")).
					withHint("name the table, e.g. the rows of the table whose column is %s (say which)", cd.vals[0].text)
			}
			if got[0].kind == mValue {
				if twin := b.unlistedTwin(got[0].c); twin != nil {
					return nil, finalDecline("%q is a value of %s, but %s may hold it too (its values are not listed)", cd.vals[0].text, got[0].c.ref(), twin.ref()).
						withHint("say whose, e.g. name the table of %s", twin.name)
				}
			}
			return got, nil
		}
		var where []string
		for _, k := range full {
			m := groups[k][0]
			if m.kind == mEntity {
				where = append(where, m.t.name)
			} else {
				where = append(where, m.c.ref())
			}
		}
		return nil, finalDecline("%q is in %s; say which", cd.vals[0].text, strings.Join(where, " and ")).
			withHint("name the column, e.g. whose column is %s", cd.vals[0].text)
	}
	if want != nil {
		return nil, decline("%q is not a value of %s", cd.vals[0].text, want.ref())
	}
	return nil, decline("I can't tell which column %q is a value of", cd.vals[0].text)
}

// valueElsewhere: the first value chunk is also a value of another
// column (or entity set) than k, in a table that is not a view.
func (b *clauseBinder) valueElsewhere(cd *ccond, k any) bool {
	for _, m := range cd.vals[0].ms {
		if m.kind != mValue && m.kind != mEntity || m.t.view {
			continue
		}
		var mk any = m.c
		if m.kind == mEntity {
			mk = m.e.set
		}
		if mk == k {
			continue
		}
		if es, ok := k.(*entitySet); ok && m.kind == mValue && es.t == m.t && slices.Contains(es.cols, m.c) {
			continue
		}
		if c, ok := k.(*column); ok && m.kind == mEntity && m.t == c.t && slices.Contains(m.e.set.cols, c) {
			continue
		}
		return true
	}
	return false
}

// valueColumns names the columns and tables holding the first value.
func (b *clauseBinder) valueColumns(cd *ccond) []string {
	var out []string
	for _, m := range cd.vals[0].ms {
		switch {
		case m.kind == mValue && !m.t.view:
			out = appendUnique(out, m.c.ref())
		case m.kind == mEntity && !m.t.view:
			out = appendUnique(out, m.t.name)
		}
	}
	return out
}

// unlistedTwin: a column like c (same name or same last word) on the root,
// the subject or a named table whose values are not listed, so a value
// found in c might be meant for it ("T in <city>" when only the
// stores' cities are listed).
func (b *clauseBinder) unlistedTwin(c *column) *column {
	named := b.namedTables()
	if c.t == b.root || c.t == b.subject || named[c.t] {
		return nil
	}
	last := func(x *column) string {
		ws := catalog.IdentifierWords(x.name)
		if len(ws) == 0 {
			return ""
		}
		return ws[len(ws)-1]
	}
	ts := []*table{b.root, b.subject}
	for t := range named {
		ts = append(ts, t)
	}
	for _, t := range ts {
		if t == nil {
			continue
		}
		for _, x := range t.cols {
			if x == c || x.kind == catalog.KindMeasure || x.kind == catalog.KindDate || x.isKey() || x.view() {
				continue
			}
			if len(x.values) > 0 || x.valueSet && !x.capped {
				continue
			}
			if strings.EqualFold(x.name, c.name) || last(x) != "" && last(x) == last(c) {
				return x
			}
		}
	}
	return nil
}

// entityOverLabel keeps a named row (entity set) over the same names as
// values of its own label column: the row, not label = name.
func entityOverLabel(full []any, groups map[any][]*meaning) []any {
	var sets []*entitySet
	for _, k := range full {
		if es, ok := k.(*entitySet); ok {
			sets = append(sets, es)
		}
	}
	if len(sets) == 0 {
		return full
	}
	var out []any
	for _, k := range full {
		if c, ok := k.(*column); ok && slices.ContainsFunc(sets, func(es *entitySet) bool {
			return es.t == c.t && (slices.Contains(es.cols, c) || es.key == c)
		}) {
			continue
		}
		out = append(out, k)
	}
	return out
}

// namedTables are the tables the question names as tables.
func (b *clauseBinder) namedTables() map[*table]bool {
	out := map[*table]bool{}
	for _, c := range b.q.cs {
		if c.role != "" && c.isTable() && !c.isValue() {
			if t, err := b.tableOf(c); err == nil {
				out[t] = true
			}
		}
	}
	return out
}

// saysKey: the words name a key as such ("id", "number", "code").
func saysKey(text string) bool {
	for _, w := range strings.Fields(text) {
		if keyNoun(w) || w == "num" || w == "nr" {
			return true
		}
	}
	return false
}

// cmpCond binds column op number: the column named, or the one the
// adjective's unit implies ("older than 30" → the age).
func (b *clauseBinder) cmpCond(cd *ccond) (*cond, *table, error) {
	var col *column
	if cd.col != nil {
		c, err := b.column(cd.col, b.subject)
		if err != nil {
			return nil, nil, err
		}
		col = c
	} else if cd.unit != "" {
		t := b.subject
		if cd.of != nil {
			if ot, err := b.tableOf(cd.of); err == nil {
				t = ot
			}
		}
		c, err := b.unitColumn(t, cd.unit)
		if err != nil {
			return nil, nil, err
		}
		col = c
	} else {
		return nil, nil, decline("I don't know what %q compares", cd.src.text).withHint("name the column, e.g. with a price %s", cd.src.text)
	}
	if cd.unit == unitAge && col.kind == catalog.KindDate {
		return nil, nil, decline("%s is a date: ages are not computed from it offline", col.ref()).withHint("compare the date, e.g. born before a year")
	}
	if cd.quantity && b.subject != nil && col.t != b.subject && col.kind == catalog.KindMeasure && !b.reachesOne(col.t) {
		// "kiosks that shifted over 40 crates": in one delivery, or in
		// all of a kiosk's deliveries?
		return nil, nil, decline("%q of %s could be in one row of %s or in all of them together", cd.src.text+" "+trimFloat(cd.a), col.ref(), col.t.name).
			withHint("ask for the total %s per %s, or say in a single %s", col.phrase(), b.subject.name, col.t.name)
	}
	if col.fk != nil && cd.col != nil && !saysKey(cd.col.text) {
		// "owners with at least one …": the rows a key names, counted,
		// never the key's number compared
		return nil, nil, notMine("%q names %s, a key: I won't compare its number with %s", cd.col.text, col.ref(), trimFloat(cd.a))
	}
	b.resolve(cd.src.text, "column", col.ref())
	e := expr{kind: eCol, col: col}
	switch {
	case col.numeric:
	case col.kind == catalog.KindDate || col.dateType:
		return b.yearOnDate(cd, col)
	case col.textNumber():
		e.cast = true
		b.assume = append(b.assume, fmt.Sprintf("%s is stored as text: compared as a number", col.ref()))
	default:
		return nil, nil, decline("%s is not a number column", col.ref())
	}
	if cd.op == "<>" {
		return &cond{kind: cValues, e: e, values: []any{cd.a}, neg: true}, col.t, nil
	}
	return &cond{kind: cCmp, e: e, op: cd.op, a: cd.a, b: cd.b}, col.t, nil
}

// yearOnDate compares a date column with a year: "born after 1990".
func (b *clauseBinder) yearOnDate(cd *ccond, col *column) (*cond, *table, error) {
	y := int(cd.a)
	if cd.a != float64(y) || y < 1000 || y > 2999 {
		return nil, nil, decline("%s is a date: compare it with a year or a date", col.ref())
	}
	start := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
	var rng dateRange
	switch cd.op {
	case ">":
		rng.start = start.AddDate(1, 0, 0)
	case ">=":
		rng.start = start
	case "<":
		rng.end = start
	case "<=":
		rng.end = start.AddDate(1, 0, 0)
	case "=":
		rng.start, rng.end = start, start.AddDate(1, 0, 0)
	case "between":
		y2 := int(cd.b)
		rng.start, rng.end = start, time.Date(y2+1, 1, 1, 0, 0, 0, 0, time.UTC)
	default:
		return nil, nil, decline("%s is a date: compare it with a year or a date", col.ref())
	}
	return &cond{kind: cRange, e: expr{kind: eCol, col: col}, rng: &rng}, col.t, nil
}

// unitColumn is the column of t an adjective's unit speaks of: its age,
// weight, price, height, duration, size or date.
func (b *clauseBinder) unitColumn(t *table, unit string) (*column, error) {
	if t == nil {
		return nil, decline("I can't tell whose %s is meant", unit)
	}
	if unit == unitDate {
		if t.date != nil {
			return t.date, nil
		}
		return nil, decline("%s has no single date to rank by", t.name)
	}
	var cands []*column
	for _, c := range t.cols {
		if c.isKey() {
			continue
		}
		ws := catalog.IdentifierWords(c.name)
		if unitMatches(c, ws, unit) {
			cands = append(cands, c)
		}
	}
	if len(cands) == 1 {
		b.assume = append(b.assume, fmt.Sprintf("%s read as %s", unitNoun(unit), cands[0].ref()))
		return cands[0], nil
	}
	if len(cands) == 0 && unit == unitAge && !personLike(t) {
		// "the oldest site": the one that has been there longest, by its date
		if c := ageDate(t, b.datedColumn(t)); c != nil {
			b.assume = append(b.assume, fmt.Sprintf("age read as the time since %s", c.ref()))
			return c, nil
		}
	}
	if len(cands) == 0 {
		return nil, decline("%s has no %s column", t.name, unitNoun(unit)).withHint("name the column to compare or rank by")
	}
	return nil, decline("%s has several %s columns (%s)", t.name, unitNoun(unit), colNames(cands)).withHint("name the column")
}

// ageDate is the date the age of a thing counts from: the one date or
// year column named for how it began (opened, built, founded), else its
// dated column unless that is named for how it ended ("the oldest kiosk"
// is not the one closed first).
func ageDate(t *table, dated *column) *column {
	var begun []*column
	for _, c := range t.cols {
		if dateOrYear(c) && !c.isKey() && anyIn(catalog.IdentifierWords(c.name), beginEvents) {
			begun = append(begun, c)
		}
	}
	switch {
	case len(begun) == 1:
		return begun[0]
	case len(begun) > 1 && slices.Contains(begun, dated):
		return dated // a start date beside a creation date: the rows' own date
	case len(begun) > 1:
		return nil
	}
	if dated != nil && anyIn(catalog.IdentifierWords(dated.name), endEvents) {
		return nil
	}
	return dated
}

// beginEvents and endEvents name how a thing began or ended, in the words
// a date column is named by.
var (
	beginEvents = setOf("open", "opened", "opening", "built", "build", "founded", "founding", "established", "start",
		"started", "launched", "launch", "created", "creation", "commissioned", "installed", "install", "installation",
		"planted", "inaugurated", "incorporated", "registered", "registration", "acquired", "acquisition", "since")
	endEvents = setOf("close", "closed", "closing", "closure", "end", "ended", "died", "death", "retired",
		"retirement", "demolished", "decommissioned", "left", "finished", "expired", "expiry", "cancelled", "withdrawn",
		"disposed", "sold")
)

// personLike: a table of people (named by a first and a last name, or
// called so): their age is not the time since a date of theirs.
func personLike(t *table) bool {
	if len(t.label) > 1 || len(t.nameCols) > 1 {
		return true
	}
	return personWords[t.lastWord]
}

var personWords = setOf("person", "people", "customer", "client", "member", "user", "employee", "staff", "student",
	"patient", "guest", "player", "musician", "artist", "author", "teacher", "driver", "pilot", "doctor", "worker",
	"volunteer", "gardener", "skipper", "inspector", "applicant", "owner", "singer", "actor", "athlete", "coach")
var unitWordsOf = map[string]map[string]bool{
	unitAge:      setOf("age", "birth", "birthday", "dob", "born"),
	unitWeight:   setOf("weight", "kg", "lbs", "mass"),
	unitMoney:    setOf("price", "cost", "fee", "amount", "charge", "rate", "salary", "value", "fare", "fares", "rent", "toll", "wage", "tuition", "premium", "fine"),
	unitHeight:   setOf("height", "tall"),
	unitDuration: setOf("duration", "length", "minutes", "hours", "seconds", "runtime", "days"),
	unitSize:     setOf("size", "area", "capacity", "population", "volume", "seats", "sqm", "acres", "surface"),
}

func unitMatches(c *column, ws []string, unit string) bool {
	if unit == unitAge && c.kind == catalog.KindDate {
		return anyIn(ws, unitWordsOf[unitAge]) // a birth date
	}
	if !c.numeric && !numericText(c) && !c.numberAsText() {
		return false
	}
	if c.unit == unit && unit != unitSize {
		return true
	}
	return anyIn(ws, unitWordsOf[unit])
}

func unitNoun(unit string) string {
	switch unit {
	case unitMoney:
		return "price"
	case unitDuration:
		return "length"
	}
	return unit
}

// rangeCond binds a date range: on the date column named, else the root's
// (or subject's) date, else its year column.
func (b *clauseBinder) rangeCond(cd *ccond) (*cond, *table, error) {
	var col *column
	if cd.col != nil && weakColumn(cd.col) {
		// "born after 1990": the verb's date on the rows asked about, not a
		// column of another table that happens to share the word
		if c := b.verbDate(); c != nil {
			col = c
		} else if c, err := b.column(cd.col, b.subject); err == nil && (c.t == b.root || c.t == b.subject) {
			col = c
		} else {
			return nil, nil, notMine("%q is not a date of %s", cd.col.text, b.subject.name)
		}
	} else if cd.col != nil {
		c, err := b.column(cd.col, b.subject)
		if err != nil {
			return nil, nil, err
		}
		col = c
	} else {
		if c := b.verbDate(); c != nil {
			// "born before 1960": the date or year the verb names
			col = c
			b.resolve(cd.src.text, "column", col.ref())
			if yearColumn(col) && col.kind != catalog.KindDate {
				return yearCond(col, cd.rng)
			}
			return &cond{kind: cRange, e: expr{kind: eCol, col: col}, rng: cd.rng}, col.t, nil
		}
		if len(b.namedTables()) > 1 || b.q.countsLinked() || b.q.hasVerb() || b.dateNamedElsewhere(b.eventVerbForms()) {
			// "T who bought X this year": the buying's date or the
			// T rows'? the analyst reading knows date verbs; "crates
			// shipped in 2025" where the shipments hold the shipped date
			return nil, nil, notMine("%q could date any of the tables named", cd.src.text)
		}
		for _, t := range []*table{b.root, b.subject} {
			if c := b.datedColumn(t); c != nil {
				col = c
				break
			}
		}
		if y := oneYearColumn(b.subject); cd.yearOf && y != nil {
			col = y // "the 2019 festival": its year
		}
		b.implicitRange = true
		if col == nil {
			return nil, nil, decline("I can't tell which date %q is about", cd.src.text).withHint("name the date or year column")
		}
	}
	b.resolve(cd.src.text, "column", col.ref())
	if yearColumn(col) && col.kind != catalog.KindDate {
		return yearCond(col, cd.rng)
	}
	if col.kind != catalog.KindDate && !col.dateType {
		return nil, nil, decline("%s is not a date", col.ref())
	}
	return &cond{kind: cRange, e: expr{kind: eCol, col: col}, rng: cd.rng}, col.t, nil
}

// verbDate is the one date or year column of the root or the subject a
// verb of the question names ("born" → a birth year, "opened" → an
// opening date), by the analyst reading's date verbs or the verb's own
// word in the column's name.
func (b *clauseBinder) verbDate() *column { return b.dateNamed(b.verbForms()) }

// eventVerbForms are verbForms of the verbs that name an event of their
// own ("sold", not "made" or "held").
func (b *clauseBinder) eventVerbForms() []string {
	return b.formsOf(func(c *chunk) bool { return c.is(cwLink) && !eventless[c.text] })
}

// verbForms are the words the question's verbs may name a date column by.
func (b *clauseBinder) verbForms() []string {
	return b.formsOf(func(c *chunk) bool { return c.is(cwLink) || c.kind == ckWord && c.role == "the event dated" })
}

// formsOf are the words of the verb chunks keep holds, and the date words
// each verb may name.
func (b *clauseBinder) formsOf(keep func(*chunk) bool) []string {
	var forms []string
	for _, c := range b.q.cs {
		if !keep(c) {
			continue
		}
		forms = append(forms, c.text)
		if f, ok := dateVerbs[c.text]; ok {
			forms = append(forms, f...)
		}
	}
	return forms
}

// dateNamed is the one date or year column of the rows asked about whose
// identifier holds one of the forms, or nil.
func (b *clauseBinder) dateNamed(forms []string) *column {
	if len(forms) == 0 {
		return nil
	}
	set := setOf(forms...)
	var found *column
	for _, t := range []*table{b.root, b.subject} {
		if t == nil {
			continue
		}
		for _, col := range t.cols {
			if datedBy(col, set) {
				if found != nil && found != col {
					return nil
				}
				found = col
			}
		}
	}
	return found
}

// datedBy: c is a date or year column whose identifier holds one of the
// forms ("opened" of a column called opened year).
func datedBy(c *column, forms map[string]bool) bool {
	if !dateOrYear(c) {
		return false
	}
	return anyIn(spelledWords(c.name), forms) // "crate_ord_dt": the order date
}

// spelledWords are an identifier's words and, for its abbreviations, the
// words in full ("wt_tonnes": wt, tonnes, weight…).
func spelledWords(ident string) []string {
	ws := catalog.IdentifierWords(ident)
	for _, p := range spelledOut(ws) {
		ws = append(ws, strings.Fields(p)...)
	}
	return ws
}

// dateNamedElsewhere: a date column of a table other than the rows asked
// about is named by one of the forms ("when was a crate ordered" where
// the orders hold the order date and the crates only a packed date).
func (b *clauseBinder) dateNamedElsewhere(forms []string) bool {
	set := setOf(forms...)
	for _, t := range b.m.tables {
		if t == b.root || t == b.subject {
			continue
		}
		if slices.ContainsFunc(t.cols, func(c *column) bool { return datedBy(c, set) }) {
			return true
		}
	}
	return false
}

// eventForms are the words a date column may be named by for the event a
// plain verb says ("open": opened, opening; "begin": begun) — never the
// word itself, which may be a noun ("time" of a closing time).
func eventForms(w string) []string {
	forms := []string{w + "ing"}
	if strings.HasSuffix(w, "e") {
		forms = append(forms, w+"d", strings.TrimSuffix(w, "e")+"ing")
	} else {
		forms = append(forms, w+"ed")
	}
	for past, base := range irregularVerbs {
		if base == w && past != w {
			forms = append(forms, past)
		}
	}
	for _, f := range slices.Clone(forms) {
		forms = append(forms, dateVerbs[f]...)
	}
	return slices.DeleteFunc(forms, func(f string) bool { return f == w })
}

// datesNamed: some date or year column's identifier holds one of the forms.
func (m *model) datesNamed(forms []string) bool {
	set := setOf(forms...)
	for _, t := range m.tables {
		if slices.ContainsFunc(t.cols, func(c *column) bool { return datedBy(c, set) }) {
			return true
		}
	}
	return false
}

// oneYearColumn is t's only year column, or nil.
func oneYearColumn(t *table) *column {
	var found *column
	for _, c := range t.cols {
		if yearColumn(c) {
			if found != nil {
				return nil
			}
			found = c
		}
	}
	return found
}

// datedColumn is t's date column, or its one year column.
func (b *clauseBinder) datedColumn(t *table) *column {
	if t == nil {
		return nil
	}
	if t.date != nil {
		return t.date
	}
	if c := oneYearColumn(t); c != nil && !bornYear(c) {
		return c
	}
	return nil // "the riggers in 2019" is not the riggers born in 2019
}

// bornYear: a year column of births ("yr_born", "BirthYr").
func bornYear(c *column) bool {
	ws := catalog.IdentifierWords(c.name)
	return anyIn(ws, setOf("birth", "born", "dob"))
}

// yearCond compares a year column with a range of whole years.
func yearCond(col *column, rng *dateRange) (*cond, *table, error) {
	whole := func(t time.Time) bool { return t.IsZero() || t.Month() == 1 && t.Day() == 1 }
	if !whole(rng.start) || !whole(rng.end) {
		return nil, nil, decline("%s holds years: ask for whole years", col.ref())
	}
	e := expr{kind: eCol, col: col, cast: !col.numeric}
	switch {
	case rng.start.IsZero():
		return &cond{kind: cCmp, e: e, op: "<", a: float64(rng.end.Year())}, col.t, nil
	case rng.end.IsZero():
		return &cond{kind: cCmp, e: e, op: ">=", a: float64(rng.start.Year())}, col.t, nil
	case rng.end.Year() == rng.start.Year()+1:
		return &cond{kind: cCmp, e: e, op: "=", a: float64(rng.start.Year())}, col.t, nil
	}
	return &cond{kind: cCmp, e: e, op: "between", a: float64(rng.start.Year()), b: float64(rng.end.Year() - 1)}, col.t, nil
}

// verbBridgeNegated drops the rows of a table a verb named right before a
// "no" ("kiosks that used no masts" over a masts_used table): the verb is
// the link the negation goes through, not a second condition that such
// rows exist (which with it could never hold).
func (b *clauseBinder) verbBridgeNegated() {
	for _, t := range sortedTables(b.exists) {
		cd := b.exists[t]
		if cd == nil || cd.kind != ccExists || !cd.neg || cd.rows == nil {
			continue
		}
		at := b.q.cs.index(cd.rows)
		bridge := b.m.bridge([]*table{b.root, t})
		for _, u := range sortedTables(b.exists) {
			ud := b.exists[u]
			if u == t || ud.kind != ccExists || ud.neg || ud.rows == nil || ud.via != nil || bridge != u {
				continue
			}
			k := b.q.cs.index(ud.rows)
			if k < 0 || k+2 != at || !b.q.cs[k+1].is(cwNeg) {
				continue
			}
			delete(b.exists, u)
		}
	}
}

// insideNegations moves the related rows named after a negated one and
// reached through it inside that negation ("never parked at a kiosk": the
// kiosk is inside the "never", reached through the rows the negation
// speaks of), by the negated table.
func (b *clauseBinder) insideNegations() map[*table][]*table {
	inside := map[*table][]*table{}
	for _, t := range sortedTables(b.exists) {
		cd := b.exists[t]
		if cd == nil || cd.kind != ccExists || !cd.neg || cd.src == nil {
			continue // moved inside an earlier negation
		}
		ps, _ := b.m.paths(t)
		for _, u := range sortedTables(b.exists) {
			ud := b.exists[u]
			if u == t || ud.kind != ccExists || ud.neg || ud.rows == nil || b.q.cs.index(ud.rows) < b.q.cs.index(cd.src) {
				continue
			}
			_, ok := ps[u]
			if !ok && cd.rows != nil && b.q.cs.index(ud.rows) == b.q.cs.index(cd.rows)+1 {
				// "no sponsor deal": the deals are the head of the noun,
				// the sponsor names which; the "no" covers both
				_, ok = b.m.reachable[u].paths[t]
			}
			if ok {
				inside[t] = append(inside[t], u)
				delete(b.exists, u)
			}
		}
	}
	return inside
}

// semiJoins adds the conditions on tables the root does not reach
// many-to-one: IN (or NOT IN) subqueries over the rows linking them.
func (b *clauseBinder) semiJoins(p *plan) error {
	for _, fk := range b.roles {
		js := newJoinSet(fk.t)
		p.where = append(p.where, &cond{kind: cSemi, semi: &semiJoin{outer: fk.fk.ref, joins: js, sel: fk,
			where: []*cond{{kind: cNotNull, e: expr{kind: eCol, col: fk}}}}})
	}
	if b.implicitRange && (len(b.semi) > 0 || len(b.exists) > 0) {
		return notMine("a time range beside rows of another table: whose date?")
	}
	for _, t := range sortedTables(b.negSemi) {
		if _, ok := b.exists[t]; ok || len(b.semi[t]) > 1 {
			return decline("'not' beside other conditions on rows of %s: I can't tell which it covers", t.name).
				withHint("ask about one condition at a time")
		}
		// "owners who do not have a dog": no linked row holds the value
		b.exists[t] = &ccond{kind: ccExists, neg: true}
	}
	for _, cd := range b.viaAlso {
		t, err := b.condTable(cd)
		if err != nil {
			return err
		}
		if len(b.semi[t]) > 0 {
			return decline("%s rows are linked by two keys beside a condition on them: I can't tell which link it covers", t.name).
				withHint("ask about one link at a time")
		}
		c, err := b.semiJoin([]*table{t}, nil, cd)
		if err != nil {
			return err
		}
		p.where = append(p.where, c)
	}
	b.verbBridgeNegated()
	inside := b.insideNegations()
	for _, t := range sortedTables(b.exists) {
		cd := b.exists[t]
		inner := b.semi[t]
		delete(b.semi, t)
		ts := append([]*table{t}, inside[t]...)
		bridge := b.m.bridge([]*table{b.subject, t})
		for _, u := range sortedTables(b.semi) {
			if b.within[u] == t || u == bridge && !b.negSemi[u] {
				// "the crate on the fourth line of shipment 17": the line
				// between them meets its own condition in the same row
				ts = append(ts, u)
				inner = append(inner, b.semi[u]...)
				delete(b.semi, u)
			}
		}
		if cd.kind == ccExists && cd.neg {
			// "never placed an order for a lamp": the conditions on
			// the rows those link to are inside the "never"
			ps, _ := b.m.paths(t)
			for _, u := range sortedTables(b.semi) {
				if _, ok := ps[u]; ok && !b.negSemi[u] {
					ts = append(ts, u)
					inner = append(inner, b.semi[u]...)
					delete(b.semi, u)
				}
			}
		}
		c, err := b.semiJoin(ts, inner, cd)
		if err != nil {
			return err
		}
		p.where = append(p.where, c)
	}
	if len(b.semi) == 0 {
		return nil
	}
	var ts []*table
	var conds []*cond
	for _, t := range sortedTables(b.semi) {
		ts = append(ts, t)
		conds = append(conds, b.semi[t]...)
	}
	c, err := b.semiJoin(ts, conds, nil)
	if err != nil {
		return err
	}
	p.where = append(p.where, c)
	return nil
}

func sortedTables[V any](m map[*table]V) []*table {
	ts := make([]*table, 0, len(m))
	for t := range m {
		ts = append(ts, t)
	}
	slices.SortFunc(ts, func(a, c *table) int { return strings.Compare(a.name, c.name) })
	return ts
}

// joinedVia is the related table among ts that t is reached through
// (b.within), or nil when t joins the subquery on its own.
func (b *clauseBinder) joinedVia(ts []*table, t *table) *table {
	if v := b.within[t]; v != nil && slices.Contains(ts, v) {
		return v
	}
	return nil
}

// semiJoin is root.key [NOT] IN (SELECT link FROM bridge JOIN ... WHERE
// conds [GROUP BY link HAVING COUNT(*) op n]).
func (b *clauseBinder) semiJoin(ts []*table, conds []*cond, ex *ccond) (*cond, error) {
	if ex != nil && ex.via != nil {
		return b.viaJoin(ts, conds, ex)
	}
	for _, t := range ts {
		if b.multiLinked(b.root, t) {
			return nil, finalDecline("%s and %s are linked in more than one way (by several keys), and I don't know which link you mean", b.root.name, t.name)
		}
	}
	bridged := []*table{b.root}
	for _, t := range ts {
		if b.joinedVia(ts, t) == nil {
			bridged = append(bridged, t)
		}
	}
	for _, t := range bridged[1:] {
		if ps, amb := b.m.paths(t); len(ps[b.root]) > 0 && amb[b.root] {
			// "which ward is kiosk X in": through the kiosk's street, or
			// through the repairs naming the kiosk and a ward?
			return nil, finalDecline("%s reaches %s in more than one way, and I don't know which link you mean", t.name, b.root.name)
		}
	}
	r := b.m.bridge(bridged)
	if r == nil || r == b.root {
		return nil, decline("%s is not linked to %s through the data's keys in one way", tableNames(ts), b.root.name)
	}
	if x := b.m.otherBridge(r, bridged); x != nil && !b.namesTable(r) {
		// "cadets X trains": through the drills X ran for them, or the
		// courses X teaches them?
		return nil, finalDecline("%s and %s are linked through %s and through %s, and I don't know which link you mean", b.root.name, tableNames(ts), r.name, x.name).
			withHint("name the link, e.g. %s", x.name)
	}
	ps, _ := b.m.paths(r)
	toRoot := ps[b.root]
	if len(toRoot) == 0 {
		return nil, decline("%s is not linked to %s through the data's keys", tableNames(ts), b.root.name)
	}
	if len(toRoot) == 1 && !namesTarget(toRoot[0]) && !b.linkNamed(toRoot[0].col) {
		if x := b.m.otherLink(r, b.root); x != nil {
			// "which coach does player X have": the mentor, or the
			// coaches of X's teams?
			return nil, finalDecline("%s and %s are linked by %s and through %s, and I don't know which link you mean", r.name, b.root.name, toRoot[0].col.name, x.name).
				withHint("name the link, e.g. with the word of %s", toRoot[0].col.name)
		}
	}
	last := toRoot[len(toRoot)-1]
	js := newJoinSet(r)
	for _, e := range toRoot[:len(toRoot)-1] {
		js.need(b.m, e.to)
	}
	for _, t := range ts {
		if v := b.joinedVia(ts, t); v != nil {
			if !js.need(b.m, v) || !js.needVia(b.m, v, t) {
				return nil, decline("%s is not linked to %s in one way", t.name, v.name)
			}
			b.tables[t] = true
			continue
		}
		if !js.need(b.m, t) {
			return nil, decline("%s is not linked to %s in one way", t.name, b.root.name)
		}
		b.tables[t] = true
	}
	sj := &semiJoin{outer: last.ref, joins: js, sel: last.col, where: conds}
	neg := false
	if ex != nil && ex.kind == ccExists {
		neg = ex.neg
	}
	if ex != nil && ex.kind == ccCount {
		var err error
		neg, err = b.countSemi(sj, ex, last.col, b.countedOf(r, ex))
		if err != nil {
			return nil, err
		}
	}
	if neg {
		sj.where = append(sj.where, &cond{kind: cNotNull, e: expr{kind: eCol, col: last.col}})
	}
	return &cond{kind: cSemi, semi: sj, neg: neg}, nil
}

// viaJoin is root.key [NOT] IN (SELECT via FROM via's table JOIN ...
// WHERE conds): the rows the key a verb names links to the root ("never
// painted a mast": no mast's painter key holds the row's key).
func (b *clauseBinder) viaJoin(ts []*table, conds []*cond, ex *ccond) (*cond, error) {
	via := ex.via
	if via.fk == nil || via.fk.to != b.root {
		return nil, decline("%q names %s, which does not point at %s", ex.src.text, via.ref(), b.root.name)
	}
	js := newJoinSet(via.t)
	for _, t := range ts {
		if !js.need(b.m, t) {
			return nil, decline("%s is not linked to %s in one way", t.name, via.t.name)
		}
		b.tables[t] = true
	}
	b.resolve(ex.src.text, "link", via.ref())
	sj := &semiJoin{outer: via.fk.ref, joins: js, sel: via, where: conds}
	if ex.neg {
		sj.where = append(sj.where, &cond{kind: cNotNull, e: expr{kind: eCol, col: via}})
	}
	return &cond{kind: cSemi, semi: sj, neg: ex.neg}, nil
}

// countSemi makes the subquery group the linked rows and keep those with
// the number of rows asked; a condition every row without links meets
// ("fewer than 3") is written as NOT IN the complement.
func (b *clauseBinder) countSemi(sj *semiJoin, ex *ccond, link *column, counted expr) (bool, error) {
	if ex.a != float64(int(ex.a)) || ex.a < 0 {
		return false, decline("%q: a number of rows is a whole number", ex.src.text)
	}
	having := func(op string, a, bb float64) {
		sj.groupBy = []expr{{kind: eCol, col: link}}
		sj.having = []*cond{{kind: cCmp, e: counted, op: op, a: a, b: bb}}
	}
	n := ex.a
	switch ex.op {
	case ">":
		having(">", n, 0)
	case ">=":
		if n <= 0 {
			return false, decline("every row has at least %s related rows: the condition says nothing", trimFloat(n))
		}
		having(">=", n, 0)
	case "=":
		if n == 0 {
			return true, nil
		}
		having("=", n, 0)
	case "between":
		if n <= 0 {
			having(">", ex.b, 0)
			return true, nil
		}
		having("between", n, ex.b)
	case "<":
		if n <= 1 {
			return true, nil
		}
		having(">=", n, 0)
		return true, nil
	case "<=":
		having(">", n, 0)
		return true, nil
	default:
		return false, decline("%q: I can't compare how many rows that way", ex.src.text)
	}
	return false, nil
}

// countedOf is what a count of related rows counts in a subquery over the
// bridge r: its rows, or — where the rows counted are ones each bridge row
// points at ("kiosks with masts of more than one maker", counted through
// the masts) — the distinct keys r holds for them.
func (b *clauseBinder) countedOf(r *table, ex *ccond) expr {
	t, err := b.condTable(ex)
	if err != nil || t == r {
		return expr{kind: eCountAll}
	}
	keys := keysTo(r, t)
	if len(keys) != 1 {
		return expr{kind: eCountAll} // none, or two keys to t: which one is counted is not mine to say
	}
	return expr{kind: eAgg, fn: "COUNT", distinct: true, col: keys[0]}
}

// linkNamed: a verb of the question names how the rows are linked (not a
// table's noun that is also a verb: "coach").
func (b *clauseBinder) linkNamed(key *column) bool {
	return slices.ContainsFunc(b.q.cs, func(c *chunk) bool {
		if c.role == "" || !c.is(cwLink) || c.isTable() {
			return false
		}
		// "won a cup" is not the organiser key of the cups: the verb must
		// be the key's own ("organised"), or say nothing of which link
		if bases := verbBases(c.text); len(bases) > 0 && !strings.Contains(c.text, " ") && !genericLinks[c.text] {
			for _, cw := range catalog.IdentifierWords(key.name) {
				if slices.ContainsFunc(bases, func(bs string) bool { return verbNames(bs, c.text, cw) }) {
					return true
				}
			}
			return false
		}
		return true
	})
}

// genericLinks are verbs of belonging that name no particular key.
var genericLinks = setOf("linked", "associated", "related", "involved", "belongs", "belonged", "belonging", "assigned", "connected")

// namesTarget: a key column named after the table it refers to
// (a team code in players, customer_id), not after a role (a manager id, mentor).
func namesTarget(e *edge) bool {
	tw := catalog.IdentifierWords(e.to.singular())
	if len(tw) == 0 {
		return false
	}
	last := tw[len(tw)-1]
	for _, w := range catalog.IdentifierWords(e.col.name) {
		if keyWords[w] || w == "code" || w == "no" || w == "num" {
			continue
		}
		if w == last || len(w) >= 3 && strings.HasPrefix(last, w) || slices.Contains(abbreviations[w], last) {
			return true
		}
	}
	return false
}

// flagCond: the rows whose yes/no column says yes (no when neg), in the
// column's own values ('Y', 'yes', 1, TRUE).
func flagCond(col *column, neg bool) (*cond, error) {
	if !col.boolean && !col.numeric {
		v, ok := textFlagValue(col.values, !neg)
		if !ok {
			return nil, decline("I don't know which value of %s means yes", col.ref())
		}
		return &cond{kind: cValues, e: expr{kind: eCol, col: col}, values: []any{v}}, nil
	}
	return &cond{kind: cFlag, e: expr{kind: eCol, col: col}, neg: neg}, nil
}

// namesTable: a chunk of the question names t's rows.
func (b *clauseBinder) namesTable(t *table) bool {
	return slices.ContainsFunc(b.q.cs, func(c *chunk) bool { return c.isTable() && slices.Contains(c.tables(), t) })
}
