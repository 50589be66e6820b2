// Package sqlscan is the SQL tokenizer and read-only statement check shared
// by both sides of the MCP wire: the database MCP server's statement guard
// and the orchestrator's checks of generated SQL.
//
// It follows SQLite's tokenizer where the boundaries matter for safety:
// strings, quoted identifiers ("x", `x`, [x]) and comments are kept whole, so
// a ';' or a keyword inside them is never seen as one. It imports only the
// standard library and talk2tables/sqlerr, so either side may use it without
// importing the other.
package sqlscan

import (
	"fmt"
	"strings"

	"talk2tables/sqlerr"
)

// Kind is the kind of a token.
type Kind int

// The token kinds. Scan returns all of them; Tokenize drops Space and Comment.
const (
	Space   Kind = iota // a run of whitespace
	Comment             // -- to the end of the line, or /* ... */
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

// Scan splits sql into tokens, whitespace and comments included, and never
// fails: an unterminated string, quoted identifier or block comment runs to
// the end of the input and is marked Unterminated (SQLite accepts an
// unterminated comment at the end and reports the others itself).
func Scan(sql string) []Token {
	var toks []Token
	i, n := 0, len(sql)
	add := func(k Kind, end int) {
		toks = append(toks, Token{Kind: k, Text: sql[i:end], Pos: i})
		i = end
	}
	for i < n {
		c := sql[i]
		switch {
		case isSpace(c):
			j := i + 1
			for j < n && isSpace(sql[j]) {
				j++
			}
			add(Space, j)
		case c == '-' && i+1 < n && sql[i+1] == '-':
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				j = n - i
			}
			add(Comment, i+j)
		case c == '/' && i+1 < n && sql[i+1] == '*':
			if j := strings.Index(sql[i+2:], "*/"); j >= 0 {
				add(Comment, i+2+j+2)
			} else {
				toks = append(toks, Token{Kind: Comment, Text: sql[i:], Pos: i, Unterminated: true})
				i = n
			}
		case c == '\'':
			end, ok := closeQuote(sql, i, '\'')
			toks = append(toks, Token{Kind: String, Text: sql[i:end], Pos: i, Unterminated: !ok})
			i = end
		case (c == 'x' || c == 'X') && i+1 < n && sql[i+1] == '\'':
			end, ok := closeQuote(sql, i+1, '\'')
			toks = append(toks, Token{Kind: String, Text: sql[i:end], Pos: i, Unterminated: !ok})
			i = end
		case c == '"' || c == '`':
			end, ok := closeQuote(sql, i, c)
			inner := sql[i+1 : end]
			if ok {
				inner = sql[i+1 : end-1]
			}
			name := strings.ReplaceAll(inner, string([]byte{c, c}), string(c))
			toks = append(toks, Token{Kind: Quoted, Text: sql[i:end], Upper: strings.ToUpper(name), Pos: i, Unterminated: !ok})
			i = end
		case c == '[':
			j := strings.IndexByte(sql[i:], ']')
			t := Token{Kind: Quoted, Pos: i}
			if j < 0 {
				t.Text, t.Upper, t.Unterminated = sql[i:], strings.ToUpper(sql[i+1:]), true
			} else {
				t.Text, t.Upper = sql[i:i+j+1], strings.ToUpper(sql[i+1:i+j])
			}
			toks = append(toks, t)
			i += len(t.Text)
		case isDigit(c) || (c == '.' && i+1 < n && isDigit(sql[i+1])):
			j := i + 1
			for j < n && (isWordByte(sql[j]) || sql[j] == '.' ||
				((sql[j] == '+' || sql[j] == '-') && (sql[j-1] == 'e' || sql[j-1] == 'E'))) {
				j++
			}
			add(Number, j)
		case isWordByte(c):
			j := i + 1
			for j < n && (isWordByte(sql[j]) || sql[j] == '$') {
				j++
			}
			toks = append(toks, Token{Kind: Word, Text: sql[i:j], Upper: strings.ToUpper(sql[i:j]), Pos: i})
			i = j
		case c == '?' || c == ':' || c == '@' || c == '$':
			j := i + 1
			for j < n && (isWordByte(sql[j]) || sql[j] == '$') {
				j++
			}
			if c != '?' && j == i+1 { // a lone ':' etc. is punctuation
				add(Punct, j)
			} else {
				add(Param, j)
			}
		default:
			j := i + 1
			if i+1 < n {
				switch sql[i : i+2] {
				case "||", "<=", ">=", "<>", "!=", "==", "<<", ">>", "->":
					j = i + 2
					if sql[i:j] == "->" && j < n && sql[j] == '>' {
						j++
					}
				}
			}
			add(Punct, j)
		}
	}
	return toks
}

// Tokenize returns the tokens of sql without whitespace and comments. The
// error is nil, or a *sqlerr.Error with Category SYNTAX_ERROR naming the
// first unterminated string, quoted identifier or block comment; the tokens
// are complete either way, so a caller that leaves such input to the
// database may ignore it.
func Tokenize(sql string) ([]Token, error) {
	all := Scan(sql)
	toks := make([]Token, 0, len(all)/2+1)
	var err error
	for _, t := range all {
		if t.Unterminated && err == nil {
			err = unterminated(t)
		}
		if t.Kind != Space && t.Kind != Comment {
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
