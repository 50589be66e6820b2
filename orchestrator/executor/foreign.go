package executor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/sqlerr"
)

// Reading the results of any executor's SQL tool, not only database-mcp's.
// Third-party database MCP servers answer in many shapes: MCP
// structuredContent, a JSON array of row objects, {columns, rows}, or such
// a table inside an envelope ({"success":true,"data":{"rows":[...]}} from
// DBHub, {"rows":...}, {"result":...}, {"records":...}). Errors come inside
// envelopes too ({"success":false,"error":"no such column: x"}). This file
// turns them into columns and rows (row objects keep the SELECT's column
// order, which a Go map would lose), and envelope errors into the message
// that is classified and put in the repair prompt. A result that is none of
// these is a ResultFormatError, never a one-cell table.

// envelopeKeys are the keys a table may sit under, tried in this order.
var envelopeKeys = []string{"rows", "data", "result", "results", "records", "items"}

// maxEnvelopeDepth bounds how deep envelopes are searched for a table.
const maxEnvelopeDepth = 4

// ResultFormatError says an executor answered with something that is not a
// table talk2tables can read. Nothing in the SQL can fix that, so it is not
// repaired.
type ResultFormatError struct {
	Server string
	Tool   string
	Detail string // what was received
}

func (e *ResultFormatError) Error() string {
	return fmt.Sprintf("the result of %s on mcp server %q is not a table talk2tables can read (%s); "+
		"it reads MCP structuredContent, a JSON array of row objects, {\"columns\":[...],\"rows\":[[...]]}, "+
		"or rows under %s", e.Tool, e.Server, e.Detail, strings.Join(envelopeKeys, ", "))
}

// envelopeError is an error an executor reported inside a result envelope.
type envelopeError struct {
	message string
	code    string // a SQLSTATE or the executor's own code, when given
}

func (e *envelopeError) Error() string { return e.message }

// category classifies the message (by SQLSTATE when the code is one).
func (e *envelopeError) category() sqlerr.Category {
	if isSQLState(e.code) {
		return sqlerr.ClassifySQLState(e.code, e.message)
	}
	return sqlerr.Classify(e.message)
}

// isSQLState reports whether code looks like a SQLSTATE (five digits or
// capital letters, e.g. 42703, 42P01).
func isSQLState(code string) bool {
	if len(code) != 5 {
		return false
	}
	for _, r := range code {
		if (r < '0' || r > '9') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return true
}

// decodeResult reads a SQL tool's successful result into a table:
// structuredContent first, then the text contents. An envelope holding an
// error returns it as an *envelopeError; anything unreadable a
// *ResultFormatError (Server and Tool left for the caller).
func decodeResult(res *mcp.CallToolResult) (*QueryData, error) {
	var candidates [][]byte
	switch {
	case res.StructuredContent == nil: // none, or a JSON null
	case len(res.RawStructuredContent) > 0:
		// The bytes the server sent (mcp-go keeps them): read once more
		// rather than re-encoded from the decoded value.
		candidates = append(candidates, res.RawStructuredContent)
	default:
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			candidates = append(candidates, b)
		}
	}
	texts := textContents(res)
	if len(texts) > 1 {
		candidates = append(candidates, []byte(strings.Join(texts, "\n")))
	}
	for _, t := range texts {
		candidates = append(candidates, []byte(t))
	}
	var firstErr error
	for _, c := range candidates {
		d, err := readTable(c)
		if err == nil {
			return d, nil
		}
		var ee *envelopeError
		if errors.As(err, &ee) {
			return nil, err
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if firstErr == nil {
		firstErr = &ResultFormatError{Detail: "an empty result"}
	}
	return nil, firstErr
}

// textContents are a tool result's text contents.
func textContents(res *mcp.CallToolResult) []string {
	var parts []string
	for _, c := range res.Content {
		switch v := c.(type) {
		case mcp.TextContent:
			parts = append(parts, v.Text)
		case *mcp.TextContent:
			parts = append(parts, v.Text)
		}
	}
	return parts
}

// readTable reads one JSON document as a table.
func readTable(raw []byte) (*QueryData, error) {
	raw = bytes.TrimSpace(raw)
	// tableIn finds nothing in text that is not JSON (its first decode
	// fails), so validity is checked only when it found nothing: one pass
	// less over every result.
	d, found, err := tableIn(raw, 0)
	switch {
	case err != nil:
		return nil, err
	case found:
		return d, nil
	case !json.Valid(raw):
		return nil, &ResultFormatError{Detail: "text that is not JSON: " + preview(raw)}
	}
	return nil, &ResultFormatError{Detail: "JSON without rows: " + preview(raw)}
}

// preview is the start of raw, for error messages.
func preview(raw []byte) string {
	const n = 120
	s := strings.Join(strings.Fields(string(raw)), " ")
	if len(s) > n {
		s = s[:n] + "…"
	}
	if s == "" {
		return "(empty)"
	}
	return fmt.Sprintf("%q", s)
}

// tableIn finds a table in raw (valid JSON): an array of row objects, an
// object with columns and rows, or an envelope around either.
func tableIn(raw json.RawMessage, depth int) (*QueryData, bool, error) {
	switch firstByte(raw) {
	case '[':
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, false, nil
		}
		return rowsOfObjects(items)
	case '{':
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return nil, false, nil
		}
		return tableInObject(obj, depth)
	}
	return nil, false, nil
}

func firstByte(raw []byte) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

// tableInObject reads {columns, rows}, reports an error envelope, or looks
// under the envelope keys.
func tableInObject(obj map[string]json.RawMessage, depth int) (*QueryData, bool, error) {
	if ee := errorIn(obj); ee != nil {
		return nil, true, ee
	}
	if cols, ok := obj["columns"]; ok {
		if rows, ok := obj["rows"]; ok {
			d, found, err := columnsAndRows(cols, rows)
			if found && err == nil {
				ourFields(obj, d)
			}
			return d, found, err
		}
	}
	if depth >= maxEnvelopeDepth {
		return nil, false, nil
	}
	for _, k := range envelopeKeys {
		v, ok := obj[k]
		if !ok {
			continue
		}
		d, found, err := tableIn(v, depth+1)
		if err != nil || found {
			if found && err == nil {
				if t, ok := obj["truncated"]; ok {
					var b bool
					if json.Unmarshal(t, &b) == nil && b {
						d.Truncated = true
					}
				}
			}
			return d, found, err
		}
	}
	return nil, false, nil
}

// ourFieldNames are the JSON names of ourFields' fields.
var ourFieldNames = []string{"truncated", "note", "elapsed_ms", "data_version"}

// ourFields copies the fields of database-mcp's own result contract
// (docs/contracts.md §6) that sit beside columns and rows.
func ourFields(obj map[string]json.RawMessage, d *QueryData) {
	var extra struct {
		Truncated   bool    `json:"truncated"`
		Note        string  `json:"note"`
		ElapsedMS   float64 `json:"elapsed_ms"`
		DataVersion string  `json:"data_version"`
	}
	// Only the keys that can fill extra (encoding/json matches names
	// without regard to case), not the rows beside them.
	fields := map[string]json.RawMessage{}
	for k, v := range obj {
		for _, name := range ourFieldNames {
			if strings.EqualFold(k, name) {
				fields[k] = v
			}
		}
	}
	b, err := json.Marshal(fields)
	if err != nil || json.Unmarshal(b, &extra) != nil {
		return
	}
	d.Truncated = d.Truncated || extra.Truncated
	d.Note, d.ElapsedMS, d.DataVersion = extra.Note, extra.ElapsedMS, extra.DataVersion
}

// errorIn returns the error an envelope reports: "success": false, or an
// "error"/"errors" value, with its message from error (a string, or an
// object's message), message and detail.
func errorIn(obj map[string]json.RawMessage) *envelopeError {
	failed := false
	if s, ok := obj["success"]; ok {
		var b bool
		failed = json.Unmarshal(s, &b) == nil && !b
	}
	if s, ok := obj["ok"]; ok {
		var b bool
		failed = failed || (json.Unmarshal(s, &b) == nil && !b)
	}
	if st, ok := obj["status"]; ok {
		var s string
		failed = failed || (json.Unmarshal(st, &s) == nil && strings.EqualFold(s, "error"))
	}
	msg, code := "", ""
	if e, ok := obj["error"]; ok && !isNull(e) {
		msg, code = messageFrom(e)
		failed = failed || msg != ""
	}
	if e, ok := obj["errors"]; ok && !isNull(e) {
		var list []json.RawMessage
		if json.Unmarshal(e, &list) == nil && len(list) > 0 {
			m, c := messageFrom(list[0])
			if msg == "" {
				msg, code = m, c
			}
			failed = failed || m != ""
		}
	}
	if !failed {
		return nil
	}
	if msg == "" {
		msg, code = messageFrom(json.RawMessage(mustJSON(obj)))
	}
	if msg == "" {
		msg = "the executor reported a failure without a message"
	}
	if code == "" {
		code = stringField(obj, "code")
	}
	return &envelopeError{message: msg, code: code}
}

// messageFrom reads an error value: a string, or an object's message (or
// error) plus its detail, with its code (code or sqlState).
func messageFrom(raw json.RawMessage) (msg, code string) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s), ""
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return "", ""
	}
	msg = stringField(obj, "message")
	if msg == "" {
		msg = stringField(obj, "error")
	}
	if d := stringField(obj, "detail"); d != "" && !strings.Contains(msg, d) {
		if msg == "" {
			msg = d
		} else {
			msg += ": " + d
		}
	}
	code = stringField(obj, "sqlState")
	if code == "" {
		code = stringField(obj, "sqlstate")
	}
	if code == "" {
		code = stringField(obj, "code")
	}
	return strings.TrimSpace(msg), code
}

// stringField is obj[key] when it is a string (or a number, as text).
func stringField(obj map[string]json.RawMessage, key string) string {
	v, ok := obj[key]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(v, &n) == nil {
		return n.String()
	}
	return ""
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// columnsAndRows reads {columns, rows}: columns as names or {name} objects,
// rows as arrays or as objects keyed by column name.
func columnsAndRows(colsRaw, rowsRaw json.RawMessage) (*QueryData, bool, error) {
	var cols []string
	if err := json.Unmarshal(colsRaw, &cols); err != nil {
		var named []struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(colsRaw, &named); err != nil {
			return nil, false, nil
		}
		cols = make([]string, len(named))
		for i, c := range named {
			cols[i] = c.Name
		}
	}
	if rows, ok := arrayRows(rowsRaw); ok {
		return &QueryData{Columns: cols, Rows: rows, RowCount: len(rows)}, true, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(rowsRaw, &items); err != nil {
		return nil, false, nil
	}
	d := &QueryData{Columns: cols, Rows: make([][]any, 0, len(items))}
	for _, it := range items {
		switch firstByte(it) {
		case '[':
			var row []any
			if err := json.Unmarshal(it, &row); err != nil {
				return nil, false, nil
			}
			d.Rows = append(d.Rows, row)
		case '{':
			_, vals, err := orderedObject(it)
			if err != nil {
				return nil, false, nil
			}
			row := make([]any, len(cols))
			for i, c := range cols {
				row[i] = vals[c]
			}
			d.Rows = append(d.Rows, row)
		default:
			return nil, false, nil
		}
	}
	d.RowCount = len(d.Rows)
	return d, true, nil
}

// arrayRows reads rows that are all arrays (database-mcp's own shape) in
// one decode, instead of splitting them and decoding each; false when any
// row is something else (null, an object, a scalar), which columnsAndRows
// then reads row by row.
func arrayRows(raw json.RawMessage) ([][]any, bool) {
	var rows [][]any
	if err := json.Unmarshal(raw, &rows); err != nil {
		return nil, false
	}
	for _, r := range rows {
		if r == nil { // a null row
			return nil, false
		}
	}
	if rows == nil { // "rows": null, an empty table as before
		rows = [][]any{}
	}
	return rows, true
}

// rowsOfObjects reads an array of row objects. Columns are the keys in the
// order they first appear (a row's keys in its JSON order, so the SELECT's
// order); an empty array is an empty table. An array of anything else is not
// a table.
func rowsOfObjects(items []json.RawMessage) (*QueryData, bool, error) {
	d := &QueryData{Columns: []string{}, Rows: make([][]any, 0, len(items))}
	index := map[string]int{}
	objs := make([]map[string]any, len(items))
	for i, it := range items {
		if firstByte(it) != '{' {
			return nil, false, nil
		}
		keys, vals, err := orderedObject(it)
		if err != nil {
			return nil, false, nil
		}
		for _, k := range keys {
			if _, ok := index[k]; !ok {
				index[k] = len(d.Columns)
				d.Columns = append(d.Columns, k)
			}
		}
		objs[i] = vals
	}
	for _, ob := range objs {
		row := make([]any, len(d.Columns))
		for j, c := range d.Columns {
			row[j] = ob[c]
		}
		d.Rows = append(d.Rows, row)
	}
	d.RowCount = len(d.Rows)
	return d, true, nil
}

// orderedObject decodes a JSON object, returning its keys in document order
// and its values (as encoding/json decodes them into any).
func orderedObject(raw json.RawMessage) ([]string, map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, errors.New("not an object")
	}
	var keys []string
	vals := map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, ok := tok.(string)
		if !ok {
			return nil, nil, errors.New("object key is not a string")
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if _, seen := vals[k]; !seen {
			keys = append(keys, k)
		}
		vals[k] = v
	}
	return keys, vals, nil
}

// toolError reads a tool result with isError: database-mcp's
// {"category","message"} body, else an envelope's message (classified by
// its SQLSTATE when it gives one), else the text itself, classified.
func toolError(res *mcp.CallToolResult) *sqlerr.Error {
	var bodies []string
	if res.StructuredContent != nil {
		bodies = append(bodies, string(mustJSON(res.StructuredContent)))
	}
	texts := textContents(res)
	bodies = append(bodies, strings.Join(texts, "\n"))
	for _, text := range bodies {
		var se sqlerr.Error
		if err := json.Unmarshal([]byte(text), &se); err == nil && se.Category.Valid() && se.Message != "" {
			return &se
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal([]byte(text), &obj) == nil {
			if ee := errorIn(obj); ee != nil {
				return sqlerr.New(ee.category(), ee.message)
			}
			if m, code := messageFrom(json.RawMessage(text)); m != "" {
				ee := &envelopeError{message: m, code: code}
				return sqlerr.New(ee.category(), m)
			}
		}
	}
	msg := strings.TrimSpace(strings.Join(texts, "\n"))
	if msg == "" {
		msg = "the executor reported an error without a message"
	}
	return sqlerr.New(sqlerr.Classify(msg), msg)
}
