package executor

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/sqlerr"
)

// TestDecodeResultShapes: the result shapes of third-party executors become
// columns and rows; row objects keep their JSON (SELECT) order.
func TestDecodeResultShapes(t *testing.T) {
	tests := []struct {
		name       string
		res        *mcp.CallToolResult
		cols, rows string
		truncated  bool
	}{
		{name: "array of row objects", res: mcp.NewToolResultText(`[{"zeta":1,"alpha":"a"},{"zeta":2,"alpha":"b"}]`),
			cols: `["zeta","alpha"]`, rows: `[[1,"a"],[2,"b"]]`},
		{name: "columns and rows", res: mcp.NewToolResultText(`{"columns":["b","a"],"rows":[[1,2]],"truncated":true}`),
			cols: `["b","a"]`, rows: `[[1,2]]`, truncated: true},
		{name: "DBHub envelope", res: mcp.NewToolResultText(`{"success":true,"data":{"rows":[{"region":"East","n":3}],"count":1}}`),
			cols: `["region","n"]`, rows: `[["East",3]]`},
		{name: "rows envelope", res: mcp.NewToolResultText(`{"rows":[{"x":1}]}`), cols: `["x"]`, rows: `[[1]]`},
		{name: "result envelope", res: mcp.NewToolResultText(`{"result":[{"x":1}]}`), cols: `["x"]`, rows: `[[1]]`},
		{name: "records envelope", res: mcp.NewToolResultText(`{"records":[{"x":1}],"truncated":true}`), cols: `["x"]`, rows: `[[1]]`, truncated: true},
		{name: "empty rows", res: mcp.NewToolResultText(`{"success":true,"data":{"rows":[]}}`), cols: `[]`, rows: `[]`},
		{name: "columns as objects, rows as objects", res: mcp.NewToolResultText(`{"columns":[{"name":"a"},{"name":"b"}],"rows":[{"b":2,"a":1}]}`),
			cols: `["a","b"]`, rows: `[[1,2]]`},
		{name: "structuredContent", res: &mcp.CallToolResult{StructuredContent: map[string]any{"rows": []any{map[string]any{"x": 1.0}}},
			Content: []mcp.Content{mcp.TextContent{Type: "text", Text: "1 row"}}}, cols: `["x"]`, rows: `[[1]]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := decodeResult(tt.res)
			if err != nil {
				t.Fatal(err)
			}
			if got := jsonOf(t, d.Columns); got != tt.cols {
				t.Errorf("columns = %s, want %s", got, tt.cols)
			}
			if got := jsonOf(t, d.Rows); got != tt.rows {
				t.Errorf("rows = %s, want %s", got, tt.rows)
			}
			if d.Truncated != tt.truncated {
				t.Errorf("truncated = %v, want %v", d.Truncated, tt.truncated)
			}
		})
	}
}

// TestDecodeResultErrorsAndUnreadable: an envelope's error is the message
// classified (by its SQLSTATE when given); anything that is no table is a
// ResultFormatError, never a one-cell table.
func TestDecodeResultErrorsAndUnreadable(t *testing.T) {
	errs := []struct {
		text string
		cat  sqlerr.Category
		msg  string
	}{
		{`{"success":false,"error":"no such column: regoin"}`, sqlerr.MissingColumn, "no such column: regoin"},
		{`{"success":false,"error":{"message":"relation \"salez\" does not exist","code":"42P01"}}`, sqlerr.MissingTable, `relation "salez" does not exist`},
		{`{"status":"error","message":"syntax error at or near \"FORM\"","detail":"line 1"}`, sqlerr.SyntaxError, `syntax error at or near "FORM"`},
		{`{"ok":false,"errors":[{"message":"no such table: x"}]}`, sqlerr.MissingTable, "no such table: x"},
	}
	for _, tt := range errs {
		_, err := decodeResult(mcp.NewToolResultText(tt.text))
		var ee *envelopeError
		if !errors.As(err, &ee) || ee.category() != tt.cat || !strings.Contains(ee.message, tt.msg) {
			t.Errorf("%s: err = %v, want %s %q", tt.text, err, tt.cat, tt.msg)
		}
	}
	for _, text := range []string{`plain text, 3 rows`, `{"success":true,"data":{"count":4}}`, `[1,2,3]`, ``} {
		_, err := decodeResult(mcp.NewToolResultText(text))
		var fe *ResultFormatError
		if !errors.As(err, &fe) {
			t.Errorf("%q: err = %v, want a ResultFormatError", text, err)
		}
	}
	// A tool error (isError) carries the message inside its envelope.
	se := toolError(mcp.NewToolResultError(`{"success":false,"error":"no such column: nope","code":"EXECUTION_ERROR"}`))
	if se.Category != sqlerr.MissingColumn || se.Message != "no such column: nope" {
		t.Errorf("toolError = %+v, want MISSING_COLUMN with the envelope's message", se)
	}
}

func jsonOf(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}
