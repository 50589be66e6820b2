// Package sqlscan is the SQL tokenizer and read-only statement check shared
// by both sides of the MCP wire: the database MCP server's statement guard
// and the orchestrator's checks of generated SQL.
//
// Each Dialect follows its engine's tokenizer where the boundaries matter
// for safety, so a ';' or a keyword inside a string, a quoted identifier or
// a comment is never seen as one. SQLite: 'strings', X'blobs', "x", `x` and
// [x] identifiers, ?/:name/@name/$name parameters. PostgreSQL: 'strings'
// (standard_conforming_strings on), E'...' strings with backslash escapes,
// $tag$ dollar quoting, nested /* comments */, "x" identifiers, $1
// parameters and '::' casts. MySQL/MariaDB (mysql.go): 'strings' and
// "strings" with backslash escapes, `x` identifiers, # and "-- " comments,
// executable comments and optimizer hints; the read-only check reads a
// MySQL statement with each sql_mode that moves token boundaries
// (ANSI_QUOTES, NO_BACKSLASH_ESCAPES) and refuses it if any reading does.
// The package-level functions use SQLite's rules.
// It imports only the standard library and talk2tables/sqlerr, so either
// side may use it without importing the other.
package sqlscan

import (
	"fmt"
	"strings"

	"talk2tables/sqlerr"
)

// Dialect selects the lexical and statement rules of one SQL engine. It is
// the one dialect type of talk2tables: the read-only check, the aggregate
// check, every SQL-reading step, database-mcp's engines and the
// configuration all name dialects with it. The zero value is no dialect:
// every check refuses SQL in it (fail closed), so a dialect that was never
// set or parsed never gets another engine's rules by default.
type Dialect int

// The dialects.
const (
	SQLite   Dialect = iota + 1 // SQLite 3
	Postgres                    // PostgreSQL (and engines that speak its SQL)
	MySQL                       // MySQL and MariaDB
)

// dialectNames are the names of the dialects as the schema resource and
// the configuration spell them, in Dialect order from SQLite.
var dialectNames = [...]string{"sqlite", "postgres", "mysql"}

// DialectNames returns the dialects' names: sqlite, postgres, mysql.
func DialectNames() []string { return append([]string(nil), dialectNames[:]...) }

// Valid reports whether d is one of the dialects.
func (d Dialect) Valid() bool { return d >= SQLite && d <= MySQL }

// String returns the dialect's name as the schema resource spells it:
// "sqlite", "postgres" or "mysql" ("" for no dialect).
func (d Dialect) String() string {
	if !d.Valid() {
		return ""
	}
	return dialectNames[d-SQLite]
}

// Engine returns the dialect's engine as prose: "SQLite", "PostgreSQL" or
// "MySQL/MariaDB".
func (d Dialect) Engine() string {
	switch d {
	case SQLite:
		return "SQLite"
	case Postgres:
		return "PostgreSQL"
	case MySQL:
		return "MySQL/MariaDB"
	}
	return "an unknown SQL engine"
}

// ParseDialect returns the dialect named name, in any case: "sqlite" (or
// "sqlite3"), "postgres" (or "postgresql", "pg"), "mysql" (or "mariadb").
// Any other name, the empty one included, is an error that lists the
// names: no dialect is assumed.
func ParseDialect(name string) (Dialect, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "sqlite", "sqlite3":
		return SQLite, nil
	case "postgres", "postgresql", "pg":
		return Postgres, nil
	case "mysql", "mariadb":
		return MySQL, nil
	case "":
		return 0, fmt.Errorf("no SQL dialect given: use %s", strings.Join(dialectNames[:], ", "))
	}
	return 0, fmt.Errorf("unknown SQL dialect %q: use %s", name, strings.Join(dialectNames[:], ", "))
}

// Kind is the kind of a token.
type Kind int

// The token kinds. Scan returns all of them; Tokenize drops Space and Comment.
const (
	Space   Kind = iota // a run of whitespace
	Comment             // -- to the end of the line, /* ... */, or MySQL's #
	Word                // keyword or bare identifier
	String              // 'text' or X'blob'
	Quoted              // quoted identifier: "x", `x` or [x]
	Number              // 12, 1.5, .5, 1e-3, 0x1F
	Param               // ?, ?1, :name, @name, $name
	Punct               // operators and ( ) , . ; * { } and any other byte
)

var kindNames = [...]string{"space", "comment", "word", "string", "quoted", "number", "param", "punct"}

// String returns the kind's lower-case name.
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Token is one lexical token. Text is the exact source text, so the Texts of
// Scan's tokens concatenated give back the input.
type Token struct {
	Kind Kind
	Text string
	// Upper is the upper-cased text of a Word and the upper-cased name
	// (quotes removed, doubled quotes undone) of a Quoted identifier.
	Upper string
	// Pos is the byte offset of the token in the input.
	Pos int
	// Unterminated is set on a String, Quoted or block Comment that runs to
	// the end of the input without its closing quote or "*/".
	Unterminated bool
}

// IsWord reports whether t is the bare word w (w in upper case).
func (t Token) IsWord(w string) bool { return t.Kind == Word && t.Upper == w }

// IsPunct reports whether t is the punctuation p.
func (t Token) IsPunct(p string) bool { return t.Kind == Punct && t.Text == p }

// IsIdent reports whether t names something: a bare word or a quoted identifier.
func (t Token) IsIdent() bool { return t.Kind == Word || t.Kind == Quoted }

// Ident returns the name a PostgreSQL server resolves the identifier t to: a
// bare word folded to lower case (ASCII letters only, as PostgreSQL does in
// UTF-8), a quoted identifier exactly as written with doubled quotes undone.
// Other tokens give "".
func (t Token) Ident() string {
	switch t.Kind {
	case Word:
		return asciiLower(t.Text)
	case Quoted:
		q := t.Text[:1]
		inner := t.Text[1:]
		if !t.Unterminated {
			inner = inner[:len(inner)-1]
		}
		if q == "[" { // SQLite's [name]: no escapes
			return inner
		}
		return strings.ReplaceAll(inner, q+q, q)
	}
	return ""
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Scan splits sql into tokens with SQLite's rules; see Dialect.Scan.
func Scan(sql string) []Token { return SQLite.Scan(sql) }

// Scan splits sql into tokens, whitespace and comments included, and never
// fails: an unterminated string, quoted identifier or block comment runs to
// the end of the input and is marked Unterminated (the engines report them
// themselves; SQLite accepts an unterminated comment at the end).
//
// MySQL's tokens are those of its default sql_mode (and of database-mcp's
// sessions): double quotes delimit strings and a backslash escapes the next
// character; see CheckReadOnly for the other readings.
func (d Dialect) Scan(sql string) []Token { return d.scan(sql, mysqlMode{}) }

func (d Dialect) scan(sql string, mode mysqlMode) []Token {
	// About one token (spaces included) per four bytes of SQL: the slice
	// grows once or twice at most instead of from empty.
	s := scanner{d: d, sql: sql, my: mode, toks: make([]Token, 0, len(sql)/4+8)}
	for s.i < len(sql) {
		if d == MySQL {
			s.nextMySQL()
		} else {
			s.next()
		}
	}
	return s.toks
}

// scanner holds the state of one Scan.
type scanner struct {
	d    Dialect
	my   mysqlMode // MySQL only
	sql  string
	i    int
	toks []Token
}

// add appends the token sql[i:end] of kind k and moves past it.
func (s *scanner) add(k Kind, end int, unterminated bool) {
	s.toks = append(s.toks, Token{Kind: k, Text: s.sql[s.i:end], Pos: s.i, Unterminated: unterminated})
	s.i = end
}

// next scans the token that starts at s.i.
func (s *scanner) next() {
	sql, i, n := s.sql, s.i, len(s.sql)
	c := sql[i]
	pg := s.d == Postgres
	switch {
	case isSpace(c):
		j := i + 1
		for j < n && isSpace(sql[j]) {
			j++
		}
		s.add(Space, j, false)
	case c == '-' && i+1 < n && sql[i+1] == '-':
		j := strings.IndexByte(sql[i:], '\n')
		if j < 0 {
			j = n - i
		}
		s.add(Comment, i+j, false)
	case c == '/' && i+1 < n && sql[i+1] == '*':
		end, ok := s.blockComment()
		s.add(Comment, end, !ok)
	case c == '\'':
		end, ok := closeQuote(sql, i, '\'')
		s.add(String, end, !ok)
	case (c == 'x' || c == 'X') && i+1 < n && sql[i+1] == '\'':
		end, ok := closeQuote(sql, i+1, '\'')
		s.add(String, end, !ok)
	case pg && (c == 'e' || c == 'E') && i+1 < n && sql[i+1] == '\'':
		end, ok := closeEscapeString(sql, i+1)
		s.add(String, end, !ok)
	case pg && c == '$' && i+1 < n && !isDigit(sql[i+1]):
		s.dollarQuoted()
	case c == '"' || (c == '`' && !pg):
		s.quotedIdent(c)
	case c == '[' && !pg:
		s.bracketIdent()
	case isDigit(c) || (c == '.' && i+1 < n && isDigit(sql[i+1])):
		j := i + 1
		for j < n && (isWordByte(sql[j]) || sql[j] == '.' ||
			((sql[j] == '+' || sql[j] == '-') && (sql[j-1] == 'e' || sql[j-1] == 'E'))) {
			j++
		}
		s.add(Number, j, false)
	case isWordByte(c):
		j := i + 1
		for j < n && (isWordByte(sql[j]) || sql[j] == '$') {
			j++
		}
		s.toks = append(s.toks, Token{Kind: Word, Text: sql[i:j], Upper: strings.ToUpper(sql[i:j]), Pos: i})
		s.i = j
	case pg && c == '$': // $1: a parameter (a '$' before anything else was handled above)
		s.numberedParam()
	case !pg && (c == '?' || c == ':' || c == '@' || c == '$'):
		s.namedParam(c)
	default:
		s.add(Punct, i+punctLen(sql[i:], pg), false)
	}
}

// dollarQuoted scans a PostgreSQL dollar-quoted string ($$...$$, $tag$...$tag$);
// a '$' that opens no tag is punctuation.
func (s *scanner) dollarQuoted() {
	sql, i, n := s.sql, s.i, len(s.sql)
	if tag := dollarTag(sql[i:]); tag != "" {
		end, ok := n, false
		if j := strings.Index(sql[i+len(tag):], tag); j >= 0 {
			end, ok = i+len(tag)+j+len(tag), true
		}
		s.add(String, end, !ok)
	} else {
		s.add(Punct, i+1, false)
	}
}

// quotedIdent scans an identifier quoted with q (a doubled q stands for
// itself); Upper is the unquoted name.
func (s *scanner) quotedIdent(q byte) {
	sql, i := s.sql, s.i
	end, ok := closeQuote(sql, i, q)
	inner := sql[i+1 : end]
	if ok {
		inner = sql[i+1 : end-1]
	}
	name := strings.ReplaceAll(inner, string([]byte{q, q}), string(q))
	s.toks = append(s.toks, Token{Kind: Quoted, Text: sql[i:end], Upper: strings.ToUpper(name), Pos: i, Unterminated: !ok})
	s.i = end
}

// bracketIdent scans a [bracketed] identifier (not in PostgreSQL).
func (s *scanner) bracketIdent() {
	sql, i := s.sql, s.i
	j := strings.IndexByte(sql[i:], ']')
	t := Token{Kind: Quoted, Pos: i}
	if j < 0 {
		t.Text, t.Upper, t.Unterminated = sql[i:], strings.ToUpper(sql[i+1:]), true
	} else {
		t.Text, t.Upper = sql[i:i+j+1], strings.ToUpper(sql[i+1:i+j])
	}
	s.toks = append(s.toks, t)
	s.i += len(t.Text)
}

// numberedParam scans a PostgreSQL $1 parameter; a '$' with no digits is
// punctuation.
func (s *scanner) numberedParam() {
	sql, i, n := s.sql, s.i, len(s.sql)
	j := i + 1
	for j < n && isDigit(sql[j]) {
		j++
	}
	if j == i+1 {
		s.add(Punct, j, false)
	} else {
		s.add(Param, j, false)
	}
}

// namedParam scans a SQLite parameter: ?, ?NNN, :name, @name or $name.
func (s *scanner) namedParam(c byte) {
	sql, i, n := s.sql, s.i, len(s.sql)
	j := i + 1
	for j < n && (isWordByte(sql[j]) || sql[j] == '$') {
		j++
	}
	if c != '?' && j == i+1 { // a lone ':' etc. is punctuation
		s.add(Punct, j, false)
	} else {
		s.add(Param, j, false)
	}
}

// punctLen is the length of the operator or punctuation at the start of
// rest: the two- and three-character operators both engines share, plus
// PostgreSQL's '::' cast. Anything else is one byte, so a '--' or '/*'
// after an operator character still starts a comment, as in both engines.
func punctLen(rest string, pg bool) int {
	if len(rest) < 2 {
		return 1
	}
	switch rest[:2] {
	case "||", "<=", ">=", "<>", "!=", "==", "<<", ">>":
		return 2
	case "->":
		if len(rest) > 2 && rest[2] == '>' {
			return 3
		}
		return 2
	case "::":
		if pg {
			return 2
		}
	}
	return 1
}

// blockComment returns the end of the block comment starting at s.i and
// whether it is closed. PostgreSQL comments nest; SQLite's end at the first
// "*/".
func (s *scanner) blockComment() (int, bool) {
	sql := s.sql
	if s.d != Postgres {
		if j := strings.Index(sql[s.i+2:], "*/"); j >= 0 {
			return s.i + 2 + j + 2, true
		}
		return len(sql), false
	}
	depth := 0
	for j := s.i; j+1 < len(sql); {
		switch sql[j : j+2] {
		case "/*":
			depth++
			j += 2
		case "*/":
			depth--
			j += 2
			if depth == 0 {
				return j, true
			}
		default:
			j++
		}
	}
	return len(sql), false
}

// closeEscapeString returns the offset just past the quote that closes the
// PostgreSQL escape string (E'...') whose opening quote is at start, where a
// backslash escapes the next byte and a doubled quote is a quote, and
// whether it was found.
func closeEscapeString(sql string, start int) (int, bool) {
	for j := start + 1; j < len(sql); j++ {
		switch sql[j] {
		case '\\':
			j++
		case '\'':
			if j+1 < len(sql) && sql[j+1] == '\'' {
				j++
				continue
			}
			return j + 1, true
		}
	}
	return len(sql), false
}

// dollarTag returns the PostgreSQL dollar-quote delimiter ($$ or $tag$) at
// the start of rest, or "" when rest does not start with one. A tag is an
// identifier without '$' that does not start with a digit.
func dollarTag(rest string) string {
	j := 1
	for j < len(rest) && rest[j] != '$' {
		c := rest[j]
		if !(isWordByte(c)) || (j == 1 && isDigit(c)) {
			return ""
		}
		j++
	}
	if j == len(rest) {
		return ""
	}
	return rest[:j+1]
}

// Tokenize returns the tokens of sql with SQLite's rules; see
// Dialect.Tokenize.
func Tokenize(sql string) ([]Token, error) { return SQLite.Tokenize(sql) }

// Tokenize returns the tokens of sql without whitespace and comments (but
// with MySQL's executable comments and optimizer hints, which are code). The
// error is nil, or a *sqlerr.Error with Category SYNTAX_ERROR naming the
// first unterminated string, quoted identifier or block comment; the tokens
// are complete either way, so a caller that leaves such input to the
// database may ignore it.
func (d Dialect) Tokenize(sql string) ([]Token, error) { return d.tokenize(sql, mysqlMode{}) }

func (d Dialect) tokenize(sql string, mode mysqlMode) ([]Token, error) {
	all := d.scan(sql, mode)
	toks := make([]Token, 0, len(all)/2+1)
	var err error
	for _, t := range all {
		if t.Unterminated && err == nil {
			err = unterminated(t)
		}
		if t.Kind != Space && (t.Kind != Comment || d == MySQL && executableComment(t)) {
			toks = append(toks, t)
		}
	}
	return toks, err
}

// unterminated describes an unterminated token.
func unterminated(t Token) *sqlerr.Error {
	var msg string
	switch {
	case t.Kind == Comment:
		msg = fmt.Sprintf("unterminated /* comment at offset %d", t.Pos)
	case t.Kind == String:
		msg = fmt.Sprintf("unterminated string starting at offset %d", t.Pos)
	case t.Text[0] == '[':
		msg = fmt.Sprintf("unterminated [identifier at offset %d", t.Pos)
	default:
		msg = fmt.Sprintf("unterminated quoted identifier starting at offset %d", t.Pos)
	}
	return sqlerr.New(sqlerr.SyntaxError, msg)
}

// closeQuote returns the offset just past the quote q that closes the quoted
// text starting at start (a doubled quote is an escaped one), and whether it
// was found; when not, the offset is the end of the input.
func closeQuote(sql string, start int, q byte) (int, bool) {
	for j := start + 1; j < len(sql); j++ {
		if sql[j] == q {
			if j+1 < len(sql) && sql[j+1] == q {
				j++
				continue
			}
			return j + 1, true
		}
	}
	return len(sql), false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isWordByte reports whether c can be part of a word. Like SQLite, every
// byte of a multi-byte UTF-8 character counts, so look-alike letters and
// zero-width spaces glue to the word they touch.
func isWordByte(c byte) bool {
	return c == '_' || isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}
