package builtin

import (
	"strings"
	"unicode"
)

// Questions typed into a chat box often open with context or a greeting
// ("Hi, I'm sorting the rota — could you tell me how many kiosks are
// open?", "For the harbour report: which mast …", "Quick one: …") and close
// with thanks. Such an opening names nothing of the database; it is read
// as carrying no meaning, and the answer says it was set aside.

// contextOpeners open a sentence of context rather than of the question.
var contextOpeners = setOf("hi", "hello", "hey", "dear", "morning", "afternoon", "evening", "good", "greetings",
	"i", "im", "ive", "id", "we", "were", "weve", "for", "quick", "just", "sorry", "ok", "okay", "so", "right",
	"thanks", "thank", "cheers", "please", "hopefully", "fyi", "context", "background", "note")

// closingThanks end a question without adding to it.
var closingThanks = []string{"thank you very much", "thank you so much", "thanks very much", "thanks a lot", "many thanks",
	"thank you", "thanks", "cheers", "ta"}

// withoutContext is the question without an opening of context and a
// closing of thanks, and the words set aside ("" when none). An opening is
// context when it runs up to a dash, colon, semicolon, comma after a
// greeting, or a sentence end, begins with a word that opens context, and
// names no table, column, value, number or date the model knows; the rest
// must still be a question.
func (m *model) withoutContext(q string) (string, string) {
	var dropped []string
	rest := strings.TrimSpace(q)
	for range 3 {
		head, tail, ok := cutOpening(rest)
		if !ok || !m.saysNothing(head) {
			break
		}
		dropped = append(dropped, strings.TrimSpace(head))
		rest = tail
	}
	low := strings.ToLower(strings.TrimRight(rest, " .!?"))
	for _, t := range closingThanks {
		if s, ok := strings.CutSuffix(low, t); ok && len(s) > 0 && (strings.HasSuffix(s, ",") || strings.HasSuffix(s, " ") || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!")) {
			trimmed := strings.TrimRight(rest[:len(s)], " ,.!")
			if trimmed != "" {
				dropped = append(dropped, strings.TrimSpace(rest[len(s):]))
				rest = trimmed + "?"
			}
			break
		}
	}
	if len(dropped) == 0 {
		return q, ""
	}
	return rest, strings.Join(dropped, " … ")
}

// cutOpening splits off the question's first part: up to a dash, a
// colon or semicolon, a sentence end, or a comma right after a greeting.
func cutOpening(q string) (head, tail string, ok bool) {
	rs := []rune(q)
	for i, r := range rs {
		var cut bool
		switch r {
		case '—', '–', ':', ';':
			cut = true
		case '-':
			cut = i > 0 && i+1 < len(rs) && rs[i-1] == ' ' && rs[i+1] == ' '
		case '.', '!', '?':
			cut = i+1 < len(rs) && rs[i+1] == ' '
		case ',':
			cut = greeting(string(rs[:i]))
		}
		if !cut {
			continue
		}
		head, tail = string(rs[:i]), strings.TrimSpace(string(rs[i+1:]))
		if tail == "" || !startsContext(head) {
			return "", "", false
		}
		return head, tail, true
	}
	return "", "", false
}

// greeting: the words are a greeting alone ("Hi", "Hello there", "Good
// morning", "Hi Sam").
func greeting(s string) bool {
	ws := strings.Fields(strings.ToLower(s))
	if len(ws) == 0 || len(ws) > 3 {
		return false
	}
	switch ws[0] {
	case "hi", "hello", "hey", "dear", "morning", "afternoon", "evening", "greetings":
		return true
	case "good":
		return len(ws) >= 2 && (ws[1] == "morning" || ws[1] == "afternoon" || ws[1] == "evening")
	}
	return false
}

// startsContext: the first word of s opens a sentence of context.
func startsContext(s string) bool {
	ws := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' })
	if len(ws) == 0 {
		return false
	}
	w := strings.NewReplacer("'", "", "’", "").Replace(ws[0])
	return contextOpeners[w]
}

// saysNothing: no word of s is a table, column or value the model knows,
// nor a number or a date.
func (m *model) saysNothing(s string) bool {
	toks := clauseTokenize(s)
	for i, t := range toks {
		if t.isNum && t.text != "" && !unicode.IsLetter([]rune(t.text)[0]) || t.sym != "" {
			return false // "quick one": a number word is no figure here
		}
		if n, _ := matchTime(toks, i, m.pickToday("")); n > 0 {
			return false
		}
		if e := m.lex.longest(toks, i); e != nil {
			return false
		}
	}
	return true
}
