package sqlgen

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"talk2tables/catalog"
	"talk2tables/jsonval"
	"talk2tables/sqlerr"
	"talk2tables/sqlscan"
)

// CheckReadOnly reports whether sql is exactly one read-only statement, the
// check the database MCP server applies too (sqlscan.CheckReadOnly: SELECT,
// WITH ... SELECT, VALUES or EXPLAIN of one), and moreover complete (no
// unterminated string, quoted identifier or comment) and free of parameter
// and template placeholders. Strings, quoted identifiers and comments are
// tokenized, so a ';' or a keyword inside them does not count. The error's
// text says what is wrong and how to fix it; it wraps a *sqlerr.Error whose
// Category is PERMISSION_ERROR for a write or a second statement and
// SYNTAX_ERROR otherwise.
func CheckReadOnly(sql string) error { return CheckReadOnlyIn("sqlite", sql) }

// CheckReadOnlyIn is CheckReadOnly with the lexical and statement rules of
// dialect, as the executor's schema resource or configuration names it
// ("sqlite", "postgres", "mysql"). PostgreSQL's rules understand '::'
// casts, dollar quoting, E'...' strings and nested comments, and also
// refuse what a PostgreSQL SELECT can hide (data-modifying WITH, SELECT
// INTO, row locks, functions with side effects); MySQL's understand
// backslash escapes, '#' comments and backticks, read the SQL with each
// sql_mode that moves token boundaries, and refuse executable comments,
// variable assignment, SELECT ... INTO and functions with side effects.
//
// An empty dialect (an executor that declares none) reads the SQL with
// every dialect's rules, and it must pass them all; a name that is none of
// them is refused: talk2tables cannot check SQL it cannot tokenize, and
// never falls back to another engine's rules.
func CheckReadOnlyIn(dialect, sql string) error {
	dialects, err := checkDialects(dialect)
	if err != nil {
		return &checkError{err: sqlerr.New(sqlerr.PermissionError, err.Error()+"; "+sqlscan.ReadOnlyMessage)}
	}
	prefix := ""
	if len(dialects) > 1 {
		prefix = "the executor declares no SQL dialect, so the SQL is read with the rules of each (set the server's dialect in mcp_config.yaml): "
	}
	for _, d := range dialects {
		if err := checkReadOnlyOne(d, sql); err != nil {
			err.prefix = prefix + err.prefix
			return err
		}
	}
	return nil
}

// checkDialects returns the dialect named dialect, or all of them for "".
func checkDialects(dialect string) ([]sqlscan.Dialect, error) {
	if strings.TrimSpace(dialect) == "" {
		return []sqlscan.Dialect{sqlscan.SQLite, sqlscan.Postgres, sqlscan.MySQL}, nil
	}
	d, err := sqlscan.ParseDialect(dialect)
	if err != nil {
		return nil, fmt.Errorf("the executor's %w, so talk2tables cannot check its SQL", err)
	}
	return []sqlscan.Dialect{d}, nil
}

// checkReadOnlyOne is CheckReadOnlyIn in one dialect.
func checkReadOnlyOne(d sqlscan.Dialect, sql string) *checkError {
	toks, err := d.Tokenize(sql)
	if err != nil {
		return &checkError{prefix: "the SQL does not parse: ", err: sqlerrOf(err)}
	}
	e := d.CheckReadOnlyTokens(toks) // what CheckReadOnly does, without tokenizing twice
	if d == sqlscan.MySQL {
		e = d.CheckReadOnly(sql) // every reading of its executable comments, not only the tokens'
	}
	if e != nil {
		return &checkError{err: e}
	}
	for _, t := range toks {
		switch {
		case t.Kind == sqlscan.Param:
			return &checkError{err: sqlerr.New(sqlerr.SyntaxError, fmt.Sprintf(
				"the SQL contains the parameter placeholder %s; put the literal value in the SQL instead", t.Text))}
		case t.IsPunct("{"):
			name := strings.TrimPrefix(strings.SplitN(sql[t.Pos:], "}", 2)[0], "{")
			return &checkError{err: sqlerr.New(sqlerr.SyntaxError, fmt.Sprintf(
				"the SQL contains the template placeholder {%s}; replace it with the real column (e.g. the table's date column)", name))}
		}
	}
	return nil
}

// checkError is a CheckReadOnly refusal. Its text is the bare message (it
// goes into error messages and repair prompts as is); it unwraps to the
// categorised *sqlerr.Error.
type checkError struct {
	prefix string
	err    *sqlerr.Error
}

func (e *checkError) Error() string { return e.prefix + e.err.Message }

func (e *checkError) Unwrap() error { return e.err }

// sqlerrOf returns err as a *sqlerr.Error (sqlscan.Tokenize returns one).
func sqlerrOf(err error) *sqlerr.Error {
	var se *sqlerr.Error
	if errors.As(err, &se) {
		return se
	}
	return sqlerr.New(sqlerr.SyntaxError, err.Error())
}

// ParseAnswer is ParseResponse for an answer to req: with several
// databases, an answer without SQL that explains itself (the question
// needs two databases at once) is a decline with the model's explanation.
func ParseAnswer(req Request, text string) (Plan, error) {
	plan, err := ParseResponse(text)
	return declineCrossDatabase(req, plan, err)
}

// ParseResponse extracts the plan from a model's answer. It accepts the JSON
// response contract, also inside prose or a ```json fence (the first balanced
// JSON object with an "sql" field wins); failing that, SQL in a ```sql fenced
// block, in any fenced block that starts like a SQL statement, or an answer
// that is bare SQL. Only an answer with no SQL at all is a
// SQLGenerationError with Reason invalid_sql: SQL that is broken, or not
// read-only, is returned as it is, so the caller's attempt loop records it,
// refuses a write (PERMISSION_ERROR, never executed) and repairs the rest
// like any other failed attempt; an answer without SQL keeps its Server
// and Explanation beside the error. "server" is read when it is a string
// (or a list of one). Generator and Usage are left for the caller.
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
		return Plan{Server: plan.Server, Explanation: plan.Explanation}, invalidSQL(msg, nil)
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
	Server           any             `json:"server"`
	SQL              *string         `json:"sql"`
	Query            *string         `json:"query"` // a common deviation
	ResolvedEntities json.RawMessage `json:"resolved_entities"`
	Explanation      any             `json:"explanation"`
	Assumptions      any             `json:"assumptions"`
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
	p.Server = serverName(w.Server)
	p.Confidence = confidence(w.Confidence)
	p.Assumptions = assumptions(w.Assumptions)
	var ents map[string]any
	if json.Unmarshal(w.ResolvedEntities, &ents) == nil {
		for phrase, v := range ents {
			switch v := v.(type) {
			case map[string]any:
				m := make(map[string]string, len(v))
				for col, val := range v {
					m[col] = jsonval.Text(val)
				}
				p.ResolvedEntities[phrase] = m
			case nil:
			default:
				p.ResolvedEntities[phrase] = map[string]string{"value": jsonval.Text(v)}
			}
		}
	}
	return p
}

// serverName reads the answer's "server": a string, or a list holding one.
func serverName(v any) string {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v)
	case []any:
		if len(v) == 1 {
			return serverName(v[0])
		}
	}
	return ""
}

// assumptions reads a list of strings, or one string, dropping blanks.
func assumptions(v any) []string {
	var out []string
	add := func(x any) {
		if s, ok := x.(string); ok && strings.TrimSpace(s) != "" {
			out = append(out, strings.TrimSpace(s))
		}
	}
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			add(x)
		}
	default:
		add(v)
	}
	return out
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

// sqlFromText takes SQL from a ```sql fence, any fence whose body starts
// like a SQL statement, or a bare SQL answer.
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
		if anyFence == "" && startsLikeSQL(code) {
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
	if startsLikeSQL(text) {
		return text, true
	}
	return "", false
}

// startsLikeSQL reports whether s starts (after comments) like a SQL
// statement: a statement keyword, read-only or not (SELECT, WITH, DELETE,
// ATTACH, ...), or a near miss of SELECT ("SELEC", "SLECT"), so that a model
// answering with a write or a typo gets its attempt recorded and refused or
// repaired rather than being told it sent no SQL.
func startsLikeSQL(s string) bool {
	toks, _ := sqlscan.Tokenize(s)
	if len(toks) == 0 || toks[0].Kind != sqlscan.Word {
		return false
	}
	w := toks[0].Upper
	if statementKeywords[w] || sqlscan.IsWriteKeyword(w) {
		return true
	}
	// A typo of SELECT must look like one: upper case in the answer and
	// followed by more SQL, so that prose starting "Select the ..." is not
	// mistaken for it.
	return len(toks) > 1 && toks[0].Text == w && len(w) >= 4 && catalog.EditDistance(w, "SELECT", 2) <= 2
}

// statementKeywords start read-only statements.
var statementKeywords = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true, "EXPLAIN": true}
