package draft

import (
	"fmt"
	"slices"
	"strings"

	"talk2tables/catalog"
	"talk2tables/catalog/internal/names"
)

// decideTables sets each table's key, label, main date column and role, in
// that order (the role reads the others).
func (d *drafter) decideTables() {
	for _, t := range d.tables {
		t.out = &catalog.Table{Columns: map[string]*catalog.Column{}}
		for _, c := range t.cols {
			t.out.Columns[c.name()] = c.out
		}
		d.key(t)
		d.label(t)
		d.dateColumn(t)
		d.role(t)
		t.out.Why = strings.Join(t.why, "; ")
	}
}

func (d *drafter) key(t *tableDraft) {
	switch {
	case t.view():
	case len(t.pkCols) == 1:
		t.out.Key = t.pkCols[0]
		t.why = append(t.why, "key "+t.pkCols[0])
	case len(t.pkCols) > 1:
		t.why = append(t.why, "composite primary key ("+strings.Join(t.pkCols, ", ")+"): no single key")
	default:
		t.why = append(t.why, "no primary key")
	}
}

// factLike reports a table that references others and is dated: its name
// columns name something else (a ship-to name), not its rows. A key to
// itself (a supervisor) is no such reference: people hired on a date.
func (t *tableDraft) factLike() bool {
	if !slices.ContainsFunc(t.fksOut, func(o *tableDraft) bool { return o != t }) {
		return false
	}
	for _, c := range t.cols {
		if c.out.Kind == catalog.KindDate || c.out.Kind == catalog.KindMeasure {
			return true
		}
	}
	return false
}

// dated: the table has a date column (not a bare year).
func (t *tableDraft) dated() bool {
	return slices.ContainsFunc(t.cols, func(c *colDraft) bool {
		return c.out.Kind == catalog.KindDate && c.out.DateFormat != catalog.DateYear
	})
}

// label picks the column(s) that name a row: a column named for the table
// ("product name", "Title" of an album), a plain name or title, a first and
// last name pair, a company name, or another unique name column of a table
// that is not an event. Other name candidates become attributes or text.
func (d *drafter) label(t *tableDraft) {
	var cands []*colDraft
	for _, c := range t.cols {
		if c.out.Kind == "" {
			cands = append(cands, c)
		}
	}
	chosen := pickLabel(t, cands)
	if len(chosen) == 0 && !t.view() {
		if c := codeLabel(t); c != nil {
			chosen = []*colDraft{c}
		}
	}
	for _, c := range cands {
		if slices.Contains(chosen, c) {
			continue
		}
		if c.lowShare() && c.lowCardinality() {
			c.out.Kind, c.out.Why = catalog.KindAttribute, "a name or title shared by many rows: "+c.valuesWhy()
		} else {
			c.out.Kind, c.out.Why = catalog.KindText, "a name, but not of the rows of this table: free text"
		}
	}
	if len(chosen) == 0 || t.view() {
		for _, c := range chosen {
			c.out.Kind, c.out.Why = catalog.KindText, "a name column of a view: free text"
		}
		return
	}
	why := ""
	p := chosen[0].prof
	switch {
	case len(chosen) == 2:
		why = "first and last name together name each row"
	case t.prof.sampled == 0:
		why = "named like the name of each row (no rows to check)"
	case p.nonNull > 0 && p.distinct == p.nonNull && p.nonNull == t.prof.sampled:
		why = "unique text name of each row"
	case p.distinct >= 0:
		why = fmt.Sprintf("text name of each row (%d distinct in %d rows%s)", p.distinct, t.prof.sampled, t.sampleNote())
	default:
		why = "named like the name of each row"
	}
	for _, c := range chosen {
		c.out.Kind, c.out.Why = catalog.KindLabel, why
		t.out.Label = append(t.out.Label, c.name())
	}
	t.why = append(t.why, "label "+strings.Join(t.out.Label, " + "))
}

// codeLabel is the label of a table others refer to that has no name:
// a unique text column naming each row by a number or a code ("plot
// number" 'E6', "frame no", "registration"), by the firm it is (a bare
// "company") or, in a table of codes, by what the code stands for
// ("description"), or, for a place with none of those, by its unique
// address. A number named after the table comes first.
func codeLabel(t *tableDraft) *colDraft {
	if t.refIn == 0 || t.prof == nil || t.prof.sampled == 0 {
		return nil
	}
	var byNumber, byDescription, byFirm, byAddress, named, namedDesc *colDraft
	for _, c := range t.cols {
		p := c.prof
		if c.tc != typeText || c.ref != "" || slices.Contains(t.pkCols, c.name()) || len(c.toks) == 0 ||
			p == nil || p.nonNull != t.prof.sampled || c.out.Kind == catalog.KindDate || c.out.Kind == catalog.KindFlag || c.out.Kind == catalog.KindMeasure {
			continue
		}
		last := c.toks[len(c.toks)-1]
		if firmWords[last] && len(c.toks) == 1 && !t.factLike() && float64(p.distinct) >= 0.9*float64(p.nonNull) {
			byFirm = c // a bare "company" of clients: the firm each row is (two may share a name)
			continue
		}
		if descriptionWords[last] && len(c.toks) == 2 && namedAfter(c.toks, t) && float64(p.distinct) >= 0.9*float64(p.nonNull) {
			namedDesc = c // "prod_desc" of product: what each row is (two may share one, as names do)
			continue
		}
		if p.distinct != p.nonNull {
			continue
		}
		switch {
		case rowNumberWords[last] && strings.Join(c.toks[:len(c.toks)-1], " ") == t.singular():
			named = c
		case rowNumberWords[last]:
			if byNumber != nil {
				return nil // two of them: which names the row?
			}
			byNumber = c
		case descriptionWords[last] && len(c.toks) == 1 && !t.factLike():
			byDescription = c
		case c.toks[0] == "address" && (len(c.toks) == 1 || len(c.toks) == 2 && (last == "line" || last == "line1")) && !t.dated():
			if byAddress != nil {
				return nil // two of them: which names the row?
			}
			byAddress = c // a property, a site: known by where it is
		}
	}
	switch {
	case namedDesc != nil:
		return namedDesc
	case named != nil:
		return named
	case byFirm != nil:
		return byFirm
	case byDescription != nil:
		return byDescription
	case byAddress != nil && byNumber == nil:
		return byAddress
	}
	return byNumber
}

// rowNumberWords end a column that numbers or codes a table's rows.
var rowNumberWords = map[string]bool{"number": true, "no": true, "num": true, "nr": true, "code": true, "ref": true, "reference": true,
	"registration": true, "plate": true}

// firmWords name the business a row is.
var firmWords = map[string]bool{"company": true, "business": true, "organisation": true, "organization": true, "firm": true}

// descriptionWords name what a code stands for.
var descriptionWords = map[string]bool{"description": true, "desc": true, "descr": true, "meaning": true}

// namedAfter: the words before a name column's last word start the
// table's own last word ("kiosk" lbl in Kiosks, "cust" name in Customers).
func namedAfter(toks []string, t *tableDraft) bool {
	ws := catalog.IdentifierWords(t.singular())
	if len(toks) < 2 || len(ws) == 0 || len(toks[0]) < 3 {
		return false
	}
	noun, tok := ws[len(ws)-1], toks[len(toks)-2]
	return strings.HasPrefix(noun, tok) || shortFor(tok, noun)
}

// shortFor: tok is a short form of word made by dropping letters — the
// same first letter, the rest in order ("ksk" of kiosk, "rgr" of
// rigger), at least three letters.
func shortFor(tok, word string) bool {
	if len(tok) < 3 || len(tok) >= len(word) || tok[0] != word[0] {
		return false
	}
	k := 1
	for i := 1; i < len(word) && k < len(tok); i++ {
		if word[i] == tok[k] {
			k++
		}
	}
	return k == len(tok)
}

var organisationWords = map[string]bool{"company": true, "business": true, "organization": true, "organisation": true,
	"brand": true, "store": true, "shop": true, "firm": true, "vendor": true, "supplier": true, "account": true}

func pickLabel(t *tableDraft, cands []*colDraft) []*colDraft {
	single := t.singular()
	for _, c := range cands {
		if p := strings.Join(c.toks, " "); p == single+" name" || p == single+" title" || p == single+"name" || c.namesItsTable() {
			return []*colDraft{c}
		}
	}
	for _, c := range cands {
		if p := c.prof; len(c.toks) == 2 && (c.toks[1] == "name" || c.toks[1] == "nm") && namedAfter(c.toks, t) && p != nil && p.nonNull > 0 && float64(p.distinct) >= 0.75*float64(p.nonNull) {
			// "ksk_name" in kiosks: the kiosk's name, said short — names
			// the rows even where a few share one (not a name most rows
			// repeat, as of an event held every year)
			return []*colDraft{c}
		}
	}
	// A person's first and last name name the row before any plain "Title"
	// or "Name" beside them: in a table of people a title is a job title
	// or an honorific.
	var first, last *colDraft
	for _, c := range cands {
		switch {
		case names.GivenName(c.toks) && first == nil:
			first = c
		case names.FamilyName(c.toks) && last == nil:
			last = c
		}
	}
	if first != nil && last != nil {
		return []*colDraft{first, last}
	}
	for _, c := range cands {
		if plainNames[strings.Join(c.toks, " ")] && !c.lowShare() {
			return []*colDraft{c}
		}
	}
	for _, c := range cands {
		if len(c.toks) >= 2 && organisationWords[c.toks[len(c.toks)-2]] && names.Label(c.toks) {
			return []*colDraft{c}
		}
	}
	// A plain name that repeats (people share names) still names the rows;
	// a title that repeats is a job title, not a name.
	for _, c := range cands {
		if p := strings.Join(c.toks, " "); plainNames[p] && p != "title" {
			return []*colDraft{c}
		}
	}
	if t.factLike() {
		// an event's name columns name something else (a ship-to name);
		// but a thing other rows refer to keeps a name called after it
		// ("kiosk_lbl" in kiosks)
		if t.refIn > 0 {
			for _, c := range cands {
				p := c.prof
				if names.Label(c.toks) && namedAfter(c.toks, t) && p.nonNull > 0 && float64(p.distinct) >= 0.9*float64(p.nonNull) {
					return []*colDraft{c}
				}
			}
			if !t.dated() {
				// a thing others refer to, with a measure but no date (a
				// species with the year it was described): the one name
				// every row has, each its own, names the rows
				var only *colDraft
				for _, c := range cands {
					if p := c.prof; names.Label(c.toks) && p.nonNull == t.prof.sampled && p.distinct == p.nonNull && p.nonNull > 0 {
						if only != nil {
							return nil
						}
						only = c
					}
				}
				if only != nil {
					return []*colDraft{only}
				}
			}
		}
		return nil
	}
	for _, c := range cands {
		p := c.prof
		if names.Label(c.toks) && p.nonNull > 0 && float64(p.distinct) >= 0.9*float64(p.nonNull) {
			return []*colDraft{c}
		}
	}
	return nil
}

// dateColumn picks the table's main date: one named like the table ("order
// date" in orders) or for the event a row records (created, invoice,
// transaction ...), not a ship, due, birth or hire date unless it is the
// only one.
func (d *drafter) dateColumn(t *tableDraft) {
	var dates []*colDraft
	for _, c := range t.cols {
		if c.out.Kind == catalog.KindDate && c.out.DateFormat != catalog.DateYear {
			dates = append(dates, c)
		}
	}
	if len(dates) == 0 {
		return
	}
	head := catalog.IdentifierWords(t.singular())
	var pick *colDraft
	why := ""
	// the table's head noun first, then the words before it ("crate" of
	// crate_ledger: its crate_date, not the date it was paid)
	for k := len(head) - 1; k >= 0 && pick == nil; k-- {
		for _, c := range dates {
			if namedFor(c.toks, head[k]) {
				pick, why = c, "named for the table"
				break
			}
		}
	}
	if pick == nil {
		for _, c := range dates {
			if names.PrimaryDate(c.toks) && !names.SecondaryDate(c.toks) {
				pick, why = c, "the date of the event a row records"
				break
			}
		}
	}
	if pick == nil {
		var plain []*colDraft
		for _, c := range dates {
			if !names.SecondaryDate(c.toks) {
				plain = append(plain, c)
			}
		}
		switch {
		case len(plain) == 1:
			pick, why = plain[0], "its only date that is not a ship, due, birth, hire or change date"
		case len(plain) > 1:
			pick, why = plain[0], "the first of its dates ("+joinNames(plain)+")"
			d.notef(t.key, "%s has several dates (%s); %s was taken as its main date: change date_column if another one is", t.key, joinNames(plain), plain[0].name())
		case len(dates) == 1:
			pick, why = dates[0], "its only date"
		}
	}
	if pick == nil {
		t.why = append(t.why, "no main date: its dates ("+joinNames(dates)+") record other events")
		return
	}
	t.out.DateColumn = pick.name()
	t.why = append(t.why, "dated by "+pick.name()+" ("+why+")")
}

// namedFor reports a word of toks naming the table's head noun: the noun
// itself or a form of it ("ship" and "shipped" for shipment, "delivered"
// for delivery, "sale" for sales): a common prefix of at least 4 letters
// and half the shorter word.
func namedFor(toks []string, head string) bool {
	for _, w := range toks {
		n := 0
		for n < len(w) && n < len(head) && w[n] == head[n] {
			n++
		}
		if w == head || n >= 4 && 2*n >= min(len(w), len(head)) {
			return true
		}
	}
	return false
}

func joinNames(cols []*colDraft) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.name()
	}
	return strings.Join(out, ", ")
}

// role decides fact, dimension, bridge or view.
func (d *drafter) role(t *tableDraft) {
	out := t.out
	measures := 0
	allKeys := len(t.cols) > 0
	for _, c := range t.cols {
		switch c.out.Kind {
		case catalog.KindMeasure:
			measures++
			allKeys = false
		case catalog.KindIdentifier:
		default:
			allKeys = false
		}
	}
	refs := tableNames(t.fksOut)
	switch {
	case t.view():
		out.Role = catalog.RoleView
		t.why = append([]string{"a database view: the planner uses it only when a question names it"}, t.why...)
	case len(t.fksOut) >= 2 && allKeys:
		out.Role = catalog.RoleBridge
		t.why = append([]string{"only foreign keys: links " + refs}, t.why...)
	case len(out.Label) > 0 && (t.refIn > 0 || !t.factLike()):
		out.Role = catalog.RoleDimension
		t.why = append([]string{dimensionWhy(t)}, t.why...)
	case len(t.fksOut) > 0 && (out.DateColumn != "" || measures > 0):
		out.Role = catalog.RoleFact
		t.why = append([]string{"records events: references " + refs + factDetail(out.DateColumn, measures)}, t.why...)
	case measures > 0 && out.DateColumn != "":
		out.Role = catalog.RoleFact
		t.why = append([]string{"records events: dated, with measures"}, t.why...)
	default:
		out.Role = catalog.RoleDimension
		t.why = append([]string{dimensionWhy(t)}, t.why...)
	}
}

func dimensionWhy(t *tableDraft) string {
	switch {
	case t.refIn > 0 && len(t.out.Label) > 0:
		return fmt.Sprintf("describes things other tables refer to (%s) and has a name", pointHere(t.refIn))
	case t.refIn > 0:
		return fmt.Sprintf("describes things other tables refer to (%s)", pointHere(t.refIn))
	case len(t.out.Label) > 0:
		return "describes named things"
	}
	return "describes things: no foreign keys out with a date or measures"
}

func pointHere(n int) string {
	if n == 1 {
		return "1 foreign key points here"
	}
	return fmt.Sprintf("%d foreign keys point here", n)
}

func factDetail(date string, measures int) string {
	s := ""
	if date != "" {
		s += ", has a date"
	}
	if measures > 0 {
		s += ", has " + count(measures, "measure")
	}
	return s
}

// tableNames lists referenced tables once each, sorted.
func tableNames(ts []*tableDraft) string {
	var out []string
	for _, t := range ts {
		if !slices.Contains(out, t.key) {
			out = append(out, t.key)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}
