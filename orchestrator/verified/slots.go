package verified

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"talk2tables/orchestrator/sqlgen"
	"talk2tables/sqlscan"
	"talk2tables/state"
)

// Slot kinds.
const (
	KindNumber = "number" // a number the question says and the SQL uses: top 5, over 1000
	KindYear   = "year"   // a year: every date literal of that year (and the end of its range) moves with it
	KindDate   = "date"   // an ISO date: the literals of that day (and the day after, a range's end) move with it
	KindValue  = "value"  // a quoted value of a column the question names
	KindEntity = "entity" // a named thing of the catalog whose key the SQL holds
)

// Knowledge is what slot extraction and lookups know of a database besides
// the SQL: its schema's tables and columns and its catalog's named
// entities. The zero value knows nothing (slots are then found from the
// SQL alone).
type Knowledge struct {
	Dialect string
	// Columns maps a table's name, lower case ("schema.table" and bare),
	// to its columns' names.
	Columns map[string][]string
	// Distinct maps "table.column", lower case, to the few distinct values
	// the schema resource lists for a text column.
	Distinct map[string][]string
	Sets     []EntitySet
}

// EntitySet is a catalog's set of named rows (Key set) or named values of
// one table.
type EntitySet struct {
	Table   string
	Key     string   // the key column of named rows; "" for named values
	Columns []string // the label columns (named rows) or the value column
	Values  []Entity
}

// Entity is one named row or value.
type Entity struct {
	Name string // as stored
	// Key is the row's key as the SQL writes it (digits, or the text of a
	// string key); "" for a named value.
	Key       string
	KeyIsText bool // a string key (quoted in SQL)
	Aliases   []string
}

// literal is a string or number literal of the SQL with the column it is
// compared with, if any.
type literal struct {
	tok    sqlscan.Token
	value  string // a string's text (quotes removed), a number's digits
	isText bool
	table  string // as written in the SQL (alias resolved); "" when unknown
	column string
}

func (l literal) span() state.Span {
	return state.Span{Start: l.tok.Pos, End: l.tok.Pos + len(l.tok.Text)}
}

// columnRef is "table.column", or the column alone.
func (l literal) columnRef() string {
	if l.table == "" {
		return l.column
	}
	return l.table + "." + l.column
}

// Extraction is what Extract finds in a verified question and its SQL.
type Extraction struct {
	Slots []state.Slot
	// Dated: the question names a period relative to today and the SQL
	// spells it as fixed dates, so the answer holds on the day it was
	// verified only.
	Dated bool
}

// Extract finds the slots of a verified question: the literals of its SQL
// that the question also names. A literal the question names twice, or
// that two slots would claim, is no slot: a question differing there is
// answered afresh rather than guessed.
func Extract(question, sql string, k Knowledge) Extraction {
	d, err := sqlscan.ParseDialect(k.Dialect)
	if err != nil {
		d = sqlscan.SQLite
	}
	lits := literals(d, k, sql)
	qs := words(question)
	var cands []candidate
	claimed := map[int]bool{} // literal index → taken
	cands = append(cands, timeSlots(qs, lits, KindDate, claimed)...)
	cands = append(cands, timeSlots(qs, lits, KindYear, claimed)...)
	cands = append(cands, valueSlots(question, qs, lits, claimed)...)
	cands = append(cands, entitySlots(question, qs, lits, k, claimed)...)
	cands = append(cands, numberSlots(question, qs, lits, claimed)...)
	cands = dropOverlaps(cands)
	out := Extraction{Slots: []state.Slot{}}
	inSlot := map[int]bool{}
	for _, c := range cands {
		out.Slots = append(out.Slots, c.slot)
		for _, li := range c.lits {
			inSlot[li] = true
		}
	}
	slices.SortFunc(out.Slots, func(a, b state.Slot) int { return a.Spans[0].Start - b.Spans[0].Start })
	if relativeTime(question) {
		for i, l := range lits {
			if l.isText && !inSlot[i] && dateLike(l.value) {
				out.Dated = true
			}
		}
	}
	return out
}

// candidate is a slot with the question words it covers and the literals
// it fills.
type candidate struct {
	slot     state.Slot
	from, to int // question words [from, to)
	lits     []int
}

// literals lists the SQL's string and number literals with their columns.
func literals(d sqlscan.Dialect, k Knowledge, sql string) []literal {
	toks, err := d.Tokenize(sql)
	if err != nil {
		return nil
	}
	aliases := sqlgen.TableAliases(d.String(), sql)
	var out []literal
	for i, t := range toks {
		var l literal
		switch t.Kind {
		case sqlscan.String:
			v, ok := unquote(d, t.Text)
			if !ok {
				continue
			}
			l = literal{tok: t, value: v, isText: true}
		case sqlscan.Number:
			if ordinal(toks, i) {
				continue // ORDER BY 2, GROUP BY 1: a column's place, not a value
			}
			l = literal{tok: t, value: t.Text}
		default:
			continue
		}
		if tbl, col, ok := comparedColumn(d, toks, i); ok {
			l.column = col
			l.table = resolveTable(tbl, col, aliases, k)
		}
		out = append(out, l)
	}
	return out
}

// ordinal reports whether the number toks[i] is a column position of an
// ORDER BY or GROUP BY list.
func ordinal(toks []sqlscan.Token, i int) bool {
	for j := i - 1; j >= 1; j-- {
		t := toks[j]
		switch {
		case t.IsWord("BY"):
			return toks[j-1].IsWord("ORDER") || toks[j-1].IsWord("GROUP")
		case t.IsPunct(","), t.IsWord("ASC"), t.IsWord("DESC"), t.Kind == sqlscan.Number:
		default:
			return false
		}
	}
	return false
}

// unquote returns a plain '...' string's text; strings with escapes of
// their own (E'...', MySQL backslashes, X'..' blobs) are left alone.
func unquote(d sqlscan.Dialect, text string) (string, bool) {
	if len(text) < 2 || text[0] != '\'' || text[len(text)-1] != '\'' {
		return "", false
	}
	inner := text[1 : len(text)-1]
	if d == sqlscan.MySQL && strings.Contains(inner, `\`) {
		return "", false
	}
	return strings.ReplaceAll(inner, "''", "'"), true
}

// comparisons are the operators a slot's literal may be compared with.
var comparisons = map[string]bool{"=": true, "==": true, "<>": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true}

// comparedColumn finds the column the literal toks[i] is compared with:
// col = 'x', 'x' = col, col IN ('x', ...), col LIKE 'x', col BETWEEN 'x'
// AND 'y'. tbl is the qualifier written before the column ("" when none).
func comparedColumn(d sqlscan.Dialect, toks []sqlscan.Token, i int) (tbl, col string, ok bool) {
	before := func(j int) (string, string, bool) { // the column ending at toks[j]
		if j < 0 || !toks[j].IsIdent() || clauseWord(toks[j]) {
			return "", "", false
		}
		c := identOf(d, toks[j])
		if j >= 2 && toks[j-1].IsPunct(".") && toks[j-2].IsIdent() {
			return identOf(d, toks[j-2]), c, true
		}
		return "", c, true
	}
	isOp := func(t sqlscan.Token) bool {
		return (t.Kind == sqlscan.Punct && comparisons[t.Text]) || t.IsWord("LIKE") || t.IsWord("ILIKE")
	}
	if i >= 1 && isOp(toks[i-1]) {
		j := i - 2
		if j >= 0 && toks[j].IsWord("NOT") {
			j--
		}
		return before(j)
	}
	if i+2 < len(toks) && isOp(toks[i+1]) && toks[i+2].IsIdent() {
		if i+4 < len(toks) && toks[i+3].IsPunct(".") && toks[i+4].IsIdent() {
			return identOf(d, toks[i+2]), identOf(d, toks[i+4]), true
		}
		return "", identOf(d, toks[i+2]), true
	}
	// col BETWEEN 'x' AND 'y'
	if i >= 1 && toks[i-1].IsWord("BETWEEN") {
		return before(i - 2)
	}
	if i >= 3 && toks[i-1].IsWord("AND") && toks[i-3].IsWord("BETWEEN") {
		return before(i - 4)
	}
	// col IN ('a', 'b', ...)
	j := i - 1
	for j >= 1 && toks[j].IsPunct(",") && (toks[j-1].Kind == sqlscan.String || toks[j-1].Kind == sqlscan.Number) {
		j -= 2
	}
	if j >= 1 && toks[j].IsPunct("(") && toks[j-1].IsWord("IN") {
		k := j - 2
		if k >= 0 && toks[k].IsWord("NOT") {
			k--
		}
		return before(k)
	}
	return "", "", false
}

// clauseWord reports keywords that are never a column before an operator.
func clauseWord(t sqlscan.Token) bool {
	if t.Kind != sqlscan.Word {
		return false
	}
	switch t.Upper {
	case "WHERE", "AND", "OR", "ON", "HAVING", "WHEN", "THEN", "ELSE", "SELECT", "NOT", "NULL", "CASE", "END":
		return true
	}
	return false
}

// identOf is the name an identifier token gives: quotes removed, and
// folded to lower case where PostgreSQL folds it.
func identOf(d sqlscan.Dialect, t sqlscan.Token) string {
	if t.Kind == sqlscan.Quoted || d == sqlscan.Postgres {
		return t.Ident()
	}
	return t.Text
}

// resolveTable names the table of a column: the one its qualifier names,
// else the one table of the statement that has the column.
func resolveTable(qualifier, col string, aliases map[string]string, k Knowledge) string {
	if qualifier != "" {
		if t, ok := aliases[strings.ToLower(qualifier)]; ok {
			return t
		}
		return qualifier
	}
	var tables []string
	for _, t := range aliases {
		if !slices.Contains(tables, t) {
			tables = append(tables, t)
		}
	}
	if len(tables) == 1 {
		return tables[0]
	}
	var owners []string
	for _, t := range tables {
		for _, c := range k.Columns[strings.ToLower(t)] {
			if strings.EqualFold(c, col) {
				owners = append(owners, t)
				break
			}
		}
	}
	if len(owners) == 1 {
		return owners[0]
	}
	return ""
}

// find returns where the word sequence ws occurs in qs when it occurs
// exactly once.
func find(qs []token, ws []string) (int, bool) {
	if len(ws) == 0 {
		return 0, false
	}
	at, n := -1, 0
	for i := 0; i+len(ws) <= len(qs); i++ {
		match := true
		for j, w := range ws {
			if qs[i+j].text != w {
				match = false
				break
			}
		}
		if match {
			at = i
			n++
		}
	}
	return at, n == 1
}

// findPlural is find for a value whose last word the question says in the
// plural ("kettles" for 'Kettle', "cherries" for 'Cherry').
func findPlural(qs []token, ws []string) (int, bool) {
	last := ws[len(ws)-1]
	if len(last) < 3 || !allLetters(last) {
		return 0, false
	}
	forms := []string{last + "s", last + "es"}
	if strings.HasSuffix(last, "y") {
		forms = append(forms, last[:len(last)-1]+"ies")
	}
	for _, f := range forms {
		if at, once := find(qs, append(slices.Clone(ws[:len(ws)-1]), f)); once {
			return at, true
		}
	}
	return 0, false
}

// singulars are the words a plural may be the plural of, most specific
// first ("cherries" → "cherry"; "boxes" → "box", "boxe"...): a
// slot said in the plural is filled by the value one of them names.
func singulars(phrase string) []string {
	i := strings.LastIndexFunc(phrase, func(r rune) bool { return !unicode.IsLetter(r) }) + 1
	head, last := phrase[:i], phrase[i:]
	lower := strings.ToLower(last)
	var out []string
	if strings.HasSuffix(lower, "ies") && len(last) > 4 {
		out = append(out, head+last[:len(last)-3]+"y")
	}
	if strings.HasSuffix(lower, "es") && len(last) > 4 {
		out = append(out, head+last[:len(last)-2])
	}
	if strings.HasSuffix(lower, "s") && !strings.HasSuffix(lower, "ss") && len(last) > 3 {
		out = append(out, head+last[:len(last)-1])
	}
	return out
}

func allLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// phrase is the question's text of words [from, to).
func phrase(question string, qs []token, from, to int) string {
	return question[qs[from].start:qs[to-1].end]
}

// wordTexts returns the normalized words of s.
func wordTexts(s string) []string {
	ws := words(s)
	out := make([]string, len(ws))
	for i, t := range ws {
		out[i] = t.text
	}
	return out
}

// timeSlots finds the year (or date) slots: a year or ISO date the
// question names once, and the SQL literals of that year or day — plus the
// end of a closed-open range (the next January 1st, the next day) when a
// literal of the period itself is there.
func timeSlots(qs []token, lits []literal, kind string, claimed map[int]bool) []candidate {
	var out []candidate
	owner := map[int]int{} // literal → candidates claiming it
	for qi, t := range qs {
		is := isYearText
		if kind == KindDate {
			is = isDateText
		}
		if !is(t.text) {
			continue
		}
		if _, once := find(qs, []string{t.text}); !once {
			continue
		}
		var in, ends []int
		for li, l := range lits {
			if claimed[li] {
				continue
			}
			switch periodOf(l, t.text, kind) {
			case periodSame:
				in = append(in, li)
			case periodEnd:
				ends = append(ends, li)
			}
		}
		if len(in) == 0 {
			continue
		}
		c := candidate{from: qi, to: qi + 1, lits: append(in, ends...)}
		c.slot = state.Slot{Kind: kind, Phrase: t.text, Value: t.text}
		out = append(out, c)
		for _, li := range c.lits {
			owner[li]++
		}
	}
	// A literal two periods would move is no slot of either.
	out = slices.DeleteFunc(out, func(c candidate) bool {
		for _, li := range c.lits {
			if owner[li] > 1 {
				return true
			}
		}
		return false
	})
	for i := range out {
		slices.Sort(out[i].lits)
		for _, li := range out[i].lits {
			claimed[li] = true
			out[i].slot.Spans = append(out[i].slot.Spans, lits[li].span())
		}
	}
	return out
}

// Relations of a literal to a year or day.
const (
	periodNone = iota
	periodSame // the literal is in the period: 2025, '2025', '2025-07', '2025-07-01'
	periodEnd  // the literal is the day after the period: '2026-01-01' for 2025
)

// periodOf relates a literal to the year or ISO date p.
func periodOf(l literal, p, kind string) int {
	v := l.value
	if kind == KindYear {
		y, _ := strconv.Atoi(p)
		next := strconv.Itoa(y + 1)
		switch {
		case !l.isText && v == p:
			return periodSame
		case !l.isText && v == next:
			return periodEnd
		case l.isText && strings.HasPrefix(v, p) && dateLike(v):
			return periodSame
		case l.isText && (v == next+"-01-01" || v == next+"-01" || v == next+"-01-01 00:00:00" || v == next+"-01-01T00:00:00"):
			return periodEnd
		}
		return periodNone
	}
	if !l.isText || len(v) < 10 || !isDateText(v[:10]) || !dateLike(v) {
		return periodNone
	}
	if v[:10] == p {
		return periodSame
	}
	day, err := time.Parse(time.DateOnly, p)
	if err == nil && v[:10] == day.AddDate(0, 0, 1).Format(time.DateOnly) && (len(v) == 10 || strings.TrimLeft(v[10:], " T0:") == "") {
		return periodEnd
	}
	return periodNone
}

// dateLike reports whether a string literal is a year, a year-month, a
// date or a timestamp (YYYY, YYYY-MM, YYYY-MM-DD...).
func dateLike(v string) bool {
	if len(v) < 4 || !allDigitsOnly(v[:4]) {
		return false
	}
	if len(v) == 4 {
		return true
	}
	if len(v) < 7 || v[4] != '-' || !allDigitsOnly(v[5:7]) {
		return false
	}
	return len(v) == 7 || (len(v) >= 10 && v[7] == '-' && allDigitsOnly(v[8:10]))
}

// valueSlots finds the quoted values of a column that the question says
// (in its own words: "canada" for 'Canada', "kettles" for 'Kettle').
func valueSlots(question string, qs []token, lits []literal, claimed map[int]bool) []candidate {
	var out []candidate
	for li, l := range lits {
		if claimed[li] || !l.isText || l.column == "" || dateLike(l.value) || isNumberText(l.value) {
			continue
		}
		at, once := find(qs, wordTexts(l.value))
		if !once {
			at, once = findPlural(qs, wordTexts(l.value))
		}
		if !once {
			continue
		}
		n := len(wordTexts(l.value))
		claimed[li] = true
		out = append(out, candidate{from: at, to: at + n, lits: []int{li},
			slot: state.Slot{Kind: KindValue, Column: l.columnRef(), Phrase: phrase(question, qs, at, at+n), Value: l.value,
				Spans: []state.Span{l.span()}}})
	}
	return out
}

// entitySlots finds the catalog's named rows that the question names by
// name or alias and whose key the SQL compares with a column of the key's
// name ("abracadabra" → product_id = 123).
func entitySlots(question string, qs []token, lits []literal, k Knowledge, claimed map[int]bool) []candidate {
	var out []candidate
	for li, l := range lits {
		if claimed[li] || l.column == "" {
			continue
		}
		best := candidate{to: -1}
		for _, set := range k.Sets {
			if set.Key == "" || !strings.EqualFold(set.Key, l.column) {
				continue
			}
			for _, e := range set.Values {
				if e.Key != l.value {
					continue
				}
				for _, name := range append([]string{e.Name}, e.Aliases...) {
					ws := wordTexts(name)
					at, once := find(qs, ws)
					if once && len(ws) > best.to-best.from {
						best = candidate{from: at, to: at + len(ws), lits: []int{li},
							slot: state.Slot{Kind: KindEntity, Column: set.Table + "." + set.Key,
								Phrase: phrase(question, qs, at, at+len(ws)), Value: l.value, Spans: []state.Span{l.span()}}}
					}
				}
			}
		}
		if best.to > 0 {
			claimed[li] = true
			out = append(out, best)
		}
	}
	return out
}

// numberSlots finds the numbers the question says once and the SQL uses
// once (top 5 → LIMIT 5; over 1000 → > 1000).
func numberSlots(question string, qs []token, lits []literal, claimed map[int]bool) []candidate {
	var out []candidate
	for qi, t := range qs {
		if !isNumberText(t.text) || isYearText(t.text) {
			continue
		}
		if _, once := find(qs, []string{t.text}); !once {
			continue
		}
		want, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			continue
		}
		var hits []int
		for li, l := range lits {
			if claimed[li] {
				continue
			}
			if f, err := strconv.ParseFloat(l.value, 64); err == nil && f == want && (!l.isText || l.value == t.text) {
				hits = append(hits, li)
			}
		}
		if len(hits) != 1 {
			continue
		}
		l := lits[hits[0]]
		claimed[hits[0]] = true
		out = append(out, candidate{from: qi, to: qi + 1, lits: hits,
			slot: state.Slot{Kind: KindNumber, Column: l.columnRef(), Phrase: phrase(question, qs, qi, qi+1), Value: l.value,
				Spans: []state.Span{l.span()}}})
	}
	return out
}

// dropOverlaps removes the slots whose question words overlap another's:
// neither is safe to replace.
func dropOverlaps(cs []candidate) []candidate {
	bad := make([]bool, len(cs))
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			if cs[i].from < cs[j].to && cs[j].from < cs[i].to {
				bad[i], bad[j] = true, true
			}
		}
	}
	var out []candidate
	for i, c := range cs {
		if !bad[i] {
			out = append(out, c)
		}
	}
	return out
}
