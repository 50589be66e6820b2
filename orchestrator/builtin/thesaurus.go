package builtin

// thesaurus holds everyday words for the things business schemas name
// otherwise: a word the schema does not know is read as one of these
// when exactly one of them names a table or column ("customers" where
// the table is patrons). Values are never reached this way.
var thesaurus = map[string][]string{
	"customer": {"client", "patron", "buyer"},
	"client":   {"customer", "patron"},
	"buyer":    {"customer", "purchaser"},
	"order":    {"booking", "purchase", "hire", "rental", "reservation"},
	"booking":  {"reservation", "appointment", "order"},
	"rental":   {"hire", "loan", "lease"},
	"hire":     {"rental", "loan"},
	"loan":     {"rental", "hire", "lending"},
	"item":     {"product", "article", "equipment"},
	"product":  {"item", "article", "good"},
	"kit":      {"equipment", "item"},
	"gear":     {"equipment", "item"},
	"employee": {"staff", "worker", "personnel"},
	"staff":    {"employee", "worker", "personnel"},
	"worker":   {"employee", "staff"},
	"supplier": {"vendor", "provider"},
	"vendor":   {"supplier", "seller"},
	"salary":   {"pay", "wage", "remuneration"},
	"wage":     {"salary", "pay", "remuneration"},
	"pay":      {"salary", "wage", "remuneration"},
	"shop":     {"store", "outlet", "branch"},
	"store":    {"shop", "outlet", "branch"},
	"town":     {"city"},
	"city":     {"town"},
	"nation":   {"country"},
	"van":      {"vehicle"},
	"car":      {"vehicle"},
	"lorry":    {"truck", "vehicle"},
	"truck":    {"lorry", "vehicle"},
	"breakage": {"damage"},
	"damage":   {"breakage"},
	"surname":  {"last name", "family name"},
	"forename": {"first name", "given name"},
}

// synonymEntry is the lexicon entry of the one thesaurus word for the
// unknown word at toks[i] that names a table or a column (nothing else),
// or nil when none or several do.
func (m *model) synonymEntry(toks []token, i int) *lexEntry {
	if m.lex == nil || toks[i].quoted || toks[i].isNum {
		return nil
	}
	var found *lexEntry
	for _, w := range thesaurus[toks[i].s] {
		e := m.lex.entry(w)
		if e == nil {
			continue
		}
		for _, mn := range e.ms {
			if mn.kind != mTable && mn.kind != mColumn {
				return nil // a value or a name: not a word for a thing
			}
		}
		if found != nil && found != e {
			return nil
		}
		found = e
	}
	return found
}
