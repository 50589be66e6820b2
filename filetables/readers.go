package filetables

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// delimited reads CSV: a header row naming the columns, then records with
// exactly as many fields (RFC 4180 quoting; a UTF-8 byte order mark is
// skipped).
type delimited struct {
	f    *os.File
	r    *csv.Reader
	name string
	cols []string
}

func openDelimited(path string, sep rune) (rowSource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 1<<20)
	if b, _ := br.Peek(3); bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
	}
	r := csv.NewReader(br)
	r.Comma = sep
	r.ReuseRecord = true
	d := &delimited{f: f, r: r, name: filepath.Base(path)}
	head, err := r.Read()
	if err == io.EOF {
		f.Close()
		return nil, &FormatError{File: d.name, Msg: "the file is empty: the first line must name the columns"}
	}
	if err != nil {
		f.Close()
		return nil, d.parseError(err, nil)
	}
	if d.cols, err = header(d.name, head); err != nil {
		f.Close()
		return nil, err
	}
	r.FieldsPerRecord = len(d.cols)
	return d, nil
}

// header checks a header row: UTF-8 names, none repeated (in any case);
// an empty name becomes columnN.
func header(file string, head []string) ([]string, error) {
	var cols []string
	seen := map[string]int{}
	for i, h := range head {
		h = strings.TrimSpace(h)
		if h == "" {
			h = "column" + strconv.Itoa(i+1)
		}
		if !utf8.ValidString(h) {
			return nil, &FormatError{File: file, Line: 1, Column: i + 1, Msg: "the column name is not UTF-8 text"}
		}
		if j, dup := seen[strings.ToLower(h)]; dup {
			return nil, &FormatError{File: file, Line: 1, Column: i + 1,
				Msg: fmt.Sprintf("column name %q repeats column %d: give each column its own name", h, j+1)}
		}
		seen[strings.ToLower(h)] = i
		cols = append(cols, h)
	}
	return cols, nil
}

// tsv reads tab-separated values: a header line, then lines of exactly as
// many tab-separated fields, with no quoting (a quote is a character).
type tsv struct {
	f    *os.File
	r    *bufio.Reader
	name string
	line int
	cols []string
}

func openTSV(path string) (rowSource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	t := &tsv{f: f, r: bufio.NewReaderSize(f, 1<<20), name: filepath.Base(path)}
	head, err := t.fields()
	if err == io.EOF {
		f.Close()
		return nil, &FormatError{File: t.name, Msg: "the file is empty: the first line must name the columns"}
	}
	if err == nil {
		if len(head) > 0 {
			head[0] = strings.TrimPrefix(head[0], "\ufeff")
		}
		t.cols, err = header(t.name, head)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return t, nil
}

// fields reads the next non-empty line's fields.
func (t *tsv) fields() ([]string, error) {
	for {
		s, err := t.r.ReadString('\n')
		if s == "" && err != nil {
			return nil, err
		}
		t.line++
		s = strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r")
		if s == "" {
			continue
		}
		if !utf8.ValidString(s) {
			return nil, &FormatError{File: t.name, Line: t.line, Msg: "the line is not UTF-8 text (save the file as UTF-8)"}
		}
		return strings.Split(s, "\t"), nil
	}
}

func (t *tsv) columns() []string { return t.cols }

func (t *tsv) next() ([]any, int, error) {
	fs, err := t.fields()
	if err != nil {
		return nil, 0, err
	}
	if len(fs) != len(t.cols) {
		n := len(fs)
		msg := fmt.Sprintf("%d fields, but the header names %d columns (%s)", n, len(t.cols), strings.Join(t.cols, ", "))
		col := n + 1
		if n > len(t.cols) {
			col = len(t.cols) + 1
			msg = fmt.Sprintf("a field past the last column %q: %s", t.cols[len(t.cols)-1], msg)
		} else {
			msg = fmt.Sprintf("column %q is missing: %s", t.cols[n], msg)
		}
		return nil, 0, &FormatError{File: t.name, Line: t.line, Column: col, Msg: msg}
	}
	vals := make([]any, len(fs))
	for i, s := range fs {
		vals[i] = s
	}
	return vals, t.line, nil
}

func (t *tsv) close() { t.f.Close() }

func (d *delimited) columns() []string { return d.cols }

func (d *delimited) next() ([]any, int, error) {
	rec, err := d.r.Read()
	if err != nil {
		if err == io.EOF {
			return nil, 0, io.EOF
		}
		return nil, 0, d.parseError(err, rec)
	}
	line, _ := d.r.FieldPos(0)
	vals := make([]any, len(rec))
	for i, s := range rec {
		if !utf8.ValidString(s) {
			l, c := d.r.FieldPos(i)
			return nil, 0, &FormatError{File: d.name, Line: l, Column: c, Msg: "the value is not UTF-8 text (save the file as UTF-8)"}
		}
		vals[i] = s
	}
	return vals, line, nil
}

// parseError turns encoding/csv's error into a FormatError that names the
// column (by name when the header has one); rec is the record read with a
// field-count error.
func (d *delimited) parseError(err error, rec []string) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", d.name, err)
	}
	if errors.Is(pe.Err, csv.ErrFieldCount) {
		n := len(rec)
		msg := fmt.Sprintf("%d fields, but the header names %d columns (%s)", n, len(d.cols), strings.Join(d.cols, ", "))
		col := 0
		if n > len(d.cols) {
			col = len(d.cols) + 1
			msg = fmt.Sprintf("a field past the last column %q: %s", d.cols[len(d.cols)-1], msg)
		} else if n < len(d.cols) {
			col = n + 1
			msg = fmt.Sprintf("column %q is missing: %s", d.cols[n], msg)
		}
		return &FormatError{File: d.name, Line: pe.StartLine, Column: col, Msg: msg}
	}
	msg := pe.Err.Error()
	if errors.Is(pe.Err, csv.ErrQuote) || errors.Is(pe.Err, csv.ErrBareQuote) {
		msg += ` (a quoted field must end with " and a quote inside it is written "")`
	}
	if pe.StartLine != pe.Line {
		msg += fmt.Sprintf("; the record starts on line %d", pe.StartLine)
	}
	return &FormatError{File: d.name, Line: pe.Line, Column: pe.Column, Msg: msg}
}

func (d *delimited) close() { d.f.Close() }

// jsonLines reads JSON Lines: one JSON object per line; its keys are the
// columns, in the order they first appear (blank lines are skipped).
type jsonLines struct {
	f     *os.File
	sc    *bufio.Reader
	name  string
	line  int
	cols  []string
	index map[string]int
}

func openJSONLines(path string, known []string) (rowSource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	j := &jsonLines{f: f, sc: bufio.NewReaderSize(f, 1<<20), name: filepath.Base(path), index: map[string]int{}}
	for _, c := range known {
		j.addColumn(c)
	}
	return j, nil
}

func (j *jsonLines) addColumn(c string) int {
	j.index[c] = len(j.cols)
	j.cols = append(j.cols, c)
	return len(j.cols) - 1
}

func (j *jsonLines) columns() []string { return j.cols }

func (j *jsonLines) next() ([]any, int, error) {
	for {
		b, err := j.sc.ReadBytes('\n')
		if len(b) == 0 && err != nil {
			if err == io.EOF {
				if j.line == 0 {
					return nil, 0, &FormatError{File: j.name, Msg: "the file is empty: write one JSON object per line"}
				}
				return nil, 0, io.EOF
			}
			return nil, 0, fmt.Errorf("%s: %w", j.name, err)
		}
		j.line++
		b = bytes.TrimSpace(b)
		if j.line == 1 {
			b = bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})
		}
		if len(b) == 0 {
			continue
		}
		vals, jerr := j.decode(b)
		if jerr != nil {
			return nil, 0, jerr
		}
		return vals, j.line, nil
	}
}

// decode reads one object into values in column order; nested objects and
// arrays are kept as JSON text.
func (j *jsonLines) decode(b []byte) ([]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil {
		col := 0
		var se *json.SyntaxError
		if errors.As(err, &se) {
			col = int(se.Offset)
		}
		if obj == nil && !bytes.HasPrefix(b, []byte("{")) {
			return nil, &FormatError{File: j.name, Line: j.line, Column: 1, Msg: "the line is not a JSON object: write one {...} per line"}
		}
		return nil, &FormatError{File: j.name, Line: j.line, Column: col, Msg: "malformed JSON: " + err.Error()}
	}
	if dec.More() {
		return nil, &FormatError{File: j.name, Line: j.line, Msg: "more than one JSON value on the line: write one object per line"}
	}
	vals := make([]any, len(j.cols), len(j.cols)+len(obj))
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	// New keys take their place in the order the line writes them.
	for _, k := range orderedKeys(b, keys) {
		i, ok := j.index[k]
		if !ok {
			i = j.addColumn(k)
			vals = append(vals, nil)
		}
		vals[i] = jsonValue(obj[k])
	}
	return vals, nil
}

// orderedKeys returns keys in the order they appear in the object's text.
func orderedKeys(b []byte, keys []string) []string {
	dec := json.NewDecoder(bytes.NewReader(b))
	var out []string
	depth := 0
	expectKey := false
	for {
		t, err := dec.Token()
		if err != nil {
			break
		}
		switch v := t.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
				expectKey = v == '{' && depth == 1
			} else {
				depth--
				expectKey = depth == 1
			}
			continue
		case string:
			if depth == 1 && expectKey {
				out = append(out, v)
				expectKey = false
				continue
			}
		}
		if depth == 1 {
			expectKey = true
		}
	}
	if len(out) != len(keys) {
		return keys
	}
	return out
}

// jsonValue converts one JSON value: null, booleans, numbers (int64 when
// whole), strings, and nested values as their JSON text.
func jsonValue(raw json.RawMessage) any {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	switch raw[0] {
	case 't', 'f':
		return raw[0] == 't'
	case '"':
		var s string
		json.Unmarshal(raw, &s)
		return s
	case '{', '[':
		return string(raw)
	}
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
		return f
	}
	return string(raw)
}

func (j *jsonLines) close() { j.f.Close() }
