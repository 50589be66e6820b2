package sqlgen

import (
	"fmt"
	"strings"
)

// tokKind is the kind of a lexical SQL token.
type tokKind int

const (
	tkWord   tokKind = iota // bare identifier or keyword
	tkQuoted                // "ident", `ident` or [ident]
	tkString                // 'text' or X'blob'
	tkNumber
	tkParam // ?, ?1, :name, @name, $name
	tkPunct // operators and ( ) , . ; * { }
)

// token is one lexical SQL token. upper is the upper-cased text for words
// and the unquoted name for quoted identifiers.
type token struct {
	kind  tokKind
	text  string
	upper string
	pos   int
}

// isWord reports whether t is the bare word w (w upper case).
func (t token) isWord(w string) bool { return t.kind == tkWord && t.upper == w }

// isPunct reports whether t is the punctuation p.
func (t token) isPunct(p string) bool { return t.kind == tkPunct && t.text == p }

// isIdent reports whether t names something (bare word or quoted identifier).
func (t token) isIdent() bool { return t.kind == tkWord || t.kind == tkQuoted }

// tokenize splits SQLite SQL into tokens, dropping whitespace and comments.
// It fails on an unterminated string, quoted identifier or block comment.
func tokenize(sql string) ([]token, error) {
	var toks []token
	i, n := 0, len(sql)
	for i < n {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '-' && i+1 < n && sql[i+1] == '-':
			for i < n && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < n && sql[i+1] == '*':
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("unterminated /* comment at offset %d", i)
			}
			i += end + 4
		case c == '\'':
			j, err := closeQuote(sql, i, '\'')
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{kind: tkString, text: sql[i:j], pos: i})
			i = j
		case (c == 'x' || c == 'X') && i+1 < n && sql[i+1] == '\'':
			j, err := closeQuote(sql, i+1, '\'')
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{kind: tkString, text: sql[i:j], pos: i})
			i = j
		case c == '"' || c == '`':
			j, err := closeQuote(sql, i, c)
			if err != nil {
				return nil, err
			}
			name := strings.ReplaceAll(sql[i+1:j-1], string([]byte{c, c}), string(c))
			toks = append(toks, token{kind: tkQuoted, text: sql[i:j], upper: strings.ToUpper(name), pos: i})
			i = j
		case c == '[':
			end := strings.IndexByte(sql[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("unterminated [identifier at offset %d", i)
			}
			name := sql[i+1 : i+end]
			toks = append(toks, token{kind: tkQuoted, text: sql[i : i+end+1], upper: strings.ToUpper(name), pos: i})
			i += end + 1
		case isDigit(c) || (c == '.' && i+1 < n && isDigit(sql[i+1])):
			j := i + 1
			for j < n && (isWordByte(sql[j]) || sql[j] == '.' ||
				((sql[j] == '+' || sql[j] == '-') && (sql[j-1] == 'e' || sql[j-1] == 'E'))) {
				j++
			}
			toks = append(toks, token{kind: tkNumber, text: sql[i:j], pos: i})
			i = j
		case isWordByte(c):
			j := i + 1
			for j < n && (isWordByte(sql[j]) || sql[j] == '$') {
				j++
			}
			toks = append(toks, token{kind: tkWord, text: sql[i:j], upper: strings.ToUpper(sql[i:j]), pos: i})
			i = j
		case c == '?' || c == ':' || c == '@' || c == '$':
			j := i + 1
			for j < n && (isWordByte(sql[j]) || sql[j] == '$') {
				j++
			}
			if c != '?' && j == i+1 { // a lone ':' etc. is punctuation
				toks = append(toks, token{kind: tkPunct, text: sql[i:j], pos: i})
			} else {
				toks = append(toks, token{kind: tkParam, text: sql[i:j], pos: i})
			}
			i = j
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
			toks = append(toks, token{kind: tkPunct, text: sql[i:j], pos: i})
			i = j
		}
	}
	return toks, nil
}

// closeQuote returns the offset just past the quote q that closes the quoted
// text starting at start (a doubled quote is an escaped one).
func closeQuote(sql string, start int, q byte) (int, error) {
	for j := start + 1; j < len(sql); j++ {
		if sql[j] == q {
			if j+1 < len(sql) && sql[j+1] == q {
				j++
				continue
			}
			return j + 1, nil
		}
	}
	what := "string"
	if q != '\'' {
		what = "quoted identifier"
	}
	return 0, fmt.Errorf("unterminated %s starting at offset %d", what, start)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool {
	return c == '_' || isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}
