package sqlgen

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// CheckReadOnly reports whether sql is exactly one read-only statement: a
// SELECT, a WITH ... SELECT, or an EXPLAIN of one, with no parameter or
// template placeholders. Strings, quoted identifiers and comments are
// tokenized, so a ';' or a keyword inside them does not count. The error says
// what is wrong and how to fix it.
func CheckReadOnly(sql string) error {
	toks, err := tokenize(sql)
	if err != nil {
		return fmt.Errorf("the SQL does not parse: %v", err)
	}
	// At most one statement: anything but ';' after a ';' is a second one.
	for i, t := range toks {
		if t.isPunct(";") {
			for _, rest := range toks[i+1:] {
				if !rest.isPunct(";") {
					return errors.New("the SQL holds more than one statement; write exactly one SELECT")
				}
			}
			toks = toks[:i]
			break
		}
	}
	if len(toks) == 0 {
		return errors.New("the SQL is empty")
	}
	for _, t := range toks {
		switch {
		case t.kind == tkParam:
			return fmt.Errorf("the SQL contains the parameter placeholder %s; put the literal value in the SQL instead", t.text)
		case t.isPunct("{"):
			name := strings.TrimPrefix(strings.SplitN(sql[t.pos:], "}", 2)[0], "{")
			return fmt.Errorf("the SQL contains the template placeholder {%s}; replace it with the real column (e.g. the table's date column)", name)
		}
	}
	return checkStatement(toks)
}

// checkStatement checks the tokens of one statement.
func checkStatement(toks []token) error {
	first := toks[0]
	switch {
	case first.isWord("SELECT"), first.isWord("VALUES"):
		return nil
	case first.isWord("EXPLAIN"):
		rest := toks[1:]
		if len(rest) >= 2 && rest[0].isWord("QUERY") && rest[1].isWord("PLAN") {
			rest = rest[2:]
		}
		if len(rest) == 0 {
			return errors.New("EXPLAIN needs a statement to explain")
		}
		return checkStatement(rest)
	case first.isWord("WITH"):
		depth := 0
		for _, t := range toks[1:] {
			switch {
			case t.isPunct("("):
				depth++
			case t.isPunct(")"):
				depth--
			case depth == 0 && t.kind == tkWord:
				switch t.upper {
				case "SELECT", "VALUES":
					return nil
				case "INSERT", "UPDATE", "DELETE", "REPLACE":
					return fmt.Errorf("WITH ... %s is not read-only; only SELECT queries are allowed", t.upper)
				}
			}
		}
		return errors.New("the WITH clause is not followed by a SELECT")
	default:
		word := first.text
		if len(word) > 20 {
			word = word[:20] + "..."
		}
		return fmt.Errorf("only a read-only SELECT (or WITH ... SELECT) is allowed, but the SQL starts with %q", word)
	}
}

// ParseResponse extracts the plan from a model's answer. It accepts the JSON
// response contract, also inside prose or a ```json fence (the first balanced
// JSON object with an "sql" field wins); failing that, SQL in a ```sql fenced
// block, in any fenced block that starts with SELECT or WITH, or an answer
// that is bare SQL. Empty SQL, or SQL that is not one read-only statement, is
// a SQLGenerationError with Reason invalid_sql. Generator and Usage are left
// for the caller.
func ParseResponse(text string) (Plan, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Plan{}, invalidSQL("the model returned an empty answer", nil)
	}
	plan, found := planFromJSON(text)
	if !found {
		sql, ok := sqlFromText(text)
		if !ok {
			return Plan{}, invalidSQL("the model's answer holds neither the JSON response contract nor a SQL block", errors.New(excerpt(text)))
		}
		plan = Plan{SQL: sql}
	}
	plan.SQL = cleanSQL(plan.SQL)
	if plan.SQL == "" {
		msg := "the model returned no SQL"
		if plan.Explanation != "" {
			msg += ": " + plan.Explanation
		}
		return Plan{}, invalidSQL(msg, nil)
	}
	if err := CheckReadOnly(plan.SQL); err != nil {
		return Plan{}, invalidSQL("the model's SQL is not a single read-only statement: "+err.Error(), errors.New(excerpt(plan.SQL)))
	}
	if plan.ResolvedEntities == nil {
		plan.ResolvedEntities = map[string]map[string]string{}
	}
	return plan, nil
}

func invalidSQL(msg string, err error) *SQLGenerationError {
	return &SQLGenerationError{Reason: ReasonInvalidSQL, Message: msg, Err: err}
}

// excerpt shortens model output for error causes.
func excerpt(s string) string {
	const max = 300
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "..."
	}
	return s
}

// cleanSQL trims whitespace and trailing semicolons.
func cleanSQL(sql string) string {
	sql = strings.TrimSpace(sql)
	for strings.HasSuffix(sql, ";") {
		sql = strings.TrimSpace(strings.TrimSuffix(sql, ";"))
	}
	return sql
}

// wirePlan is the response contract as models actually write it: values of
// resolved_entities and confidence in any JSON type.
type wirePlan struct {
	SQL              *string         `json:"sql"`
	Query            *string         `json:"query"` // a common deviation
	ResolvedEntities json.RawMessage `json:"resolved_entities"`
	Explanation      any             `json:"explanation"`
	Confidence       any             `json:"confidence"`
}

// planFromJSON finds the first JSON object in text that has an "sql" (or
// "query") string field.
func planFromJSON(text string) (Plan, bool) {
	const maxCandidates = 50
	tried := 0
	for start := strings.IndexByte(text, '{'); start >= 0 && tried < maxCandidates; {
		tried++
		if end := balancedEnd(text, start); end > 0 {
			var w wirePlan
			if err := json.Unmarshal([]byte(text[start:end]), &w); err == nil && (w.SQL != nil || w.Query != nil) {
				return w.plan(), true
			}
		}
		next := strings.IndexByte(text[start+1:], '{')
		if next < 0 {
			break
		}
		start += next + 1
	}
	return Plan{}, false
}

func (w wirePlan) plan() Plan {
	p := Plan{ResolvedEntities: map[string]map[string]string{}}
	if w.SQL != nil {
		p.SQL = *w.SQL
	} else if w.Query != nil {
		p.SQL = *w.Query
	}
	if s, ok := w.Explanation.(string); ok {
		p.Explanation = s
	}
	p.Confidence = confidence(w.Confidence)
	var ents map[string]any
	if json.Unmarshal(w.ResolvedEntities, &ents) == nil {
		for phrase, v := range ents {
			switch v := v.(type) {
			case map[string]any:
				m := make(map[string]string, len(v))
				for col, val := range v {
					m[col] = scalarString(val)
				}
				p.ResolvedEntities[phrase] = m
			case nil:
			default:
				p.ResolvedEntities[phrase] = map[string]string{"value": scalarString(v)}
			}
		}
	}
	return p
}

// confidence reads a number or numeric string, clamped to 0..1 (a value in
// 1..100 is taken as a percentage).
func confidence(v any) float64 {
	var f float64
	switch v := v.(type) {
	case float64:
		f = v
	case string:
		x, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), "%"), 64)
		if err != nil {
			return 0
		}
		f = x
	default:
		return 0
	}
	if math.IsNaN(f) || f < 0 {
		return 0
	}
	if f > 1 {
		if f <= 100 {
			return f / 100
		}
		return 1
	}
	return f
}

// scalarString renders a JSON value as text: numbers without exponent,
// strings as-is, anything else as compact JSON.
func scalarString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return ""
	default:
		b, _ := json.Marshal(v)
		return string(b)
	}
}

// balancedEnd returns the offset just past the '}' that closes the object
// opened at start, honouring JSON strings; -1 when it never closes.
func balancedEnd(s string, start int) int {
	depth, inStr, esc := 0, false, false
	for i := start; i < len(s); i++ {
		c := s[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// sqlFromText takes SQL from a ```sql fence, any fence whose body starts with
// SELECT or WITH, or a bare SQL answer.
func sqlFromText(text string) (string, bool) {
	var anyFence string
	rest := text
	for {
		open := strings.Index(rest, "```")
		if open < 0 {
			break
		}
		body := rest[open+3:]
		nl := strings.IndexByte(body, '\n')
		if nl < 0 {
			break
		}
		lang := strings.ToLower(strings.TrimSpace(body[:nl]))
		body = body[nl+1:]
		end := strings.Index(body, "```")
		if end < 0 {
			end = len(body) // unterminated fence: take the rest
		}
		code := strings.TrimSpace(body[:end])
		if lang == "sql" || lang == "sqlite" {
			return code, true
		}
		if anyFence == "" && startsWithQuery(code) {
			anyFence = code
		}
		if end == len(body) {
			break
		}
		rest = body[end+3:]
	}
	if anyFence != "" {
		return anyFence, true
	}
	if startsWithQuery(text) {
		return text, true
	}
	return "", false
}

// startsWithQuery reports whether s starts (after comments) with SELECT or WITH.
func startsWithQuery(s string) bool {
	toks, err := tokenize(s)
	if err != nil || len(toks) == 0 {
		return false
	}
	return toks[0].isWord("SELECT") || toks[0].isWord("WITH")
}
