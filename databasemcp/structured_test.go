package databasemcp

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/internal/testfixture"
)

// TestStructuredContent: both tools declare an outputSchema and answer
// with structuredContent holding the same JSON as their text (issue 12 §3),
// so clients that read either get the same result; errors stay text with
// isError.
func TestStructuredContent(t *testing.T) {
	c := inProcessClient(t, openDB(t, testfixture.SalesDB(t, 50), Options{}))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]map[string]any{}
	for _, tl := range tools.Tools {
		var s map[string]any
		raw := tl.RawOutputSchema
		if len(raw) == 0 {
			raw, _ = json.Marshal(tl.OutputSchema)
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("%s outputSchema: %v", tl.Name, err)
		}
		schemas[tl.Name] = s
	}
	tests := []struct {
		name, tool string
		args       map[string]any
		required   []string
	}{
		{"execute_query", "execute_query", map[string]any{"query": "SELECT region, COUNT(*) AS n FROM sales GROUP BY region ORDER BY region", "max_rows": 2},
			[]string{"columns", "rows", "row_count", "truncated"}},
		{"validate_query", "validate_query", map[string]any{"query": "SELECT 1"}, []string{"valid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := schemas[tt.tool]
			if s["type"] != "object" {
				t.Fatalf("outputSchema = %v, want an object schema", s)
			}
			props, _ := s["properties"].(map[string]any)
			for _, k := range tt.required {
				if _, ok := props[k]; !ok {
					t.Errorf("outputSchema lacks property %q", k)
				}
			}
			req := mcp.CallToolRequest{}
			req.Params.Name = tt.tool
			req.Params.Arguments = tt.args
			res, err := c.CallTool(ctx, req)
			if err != nil || res.IsError {
				t.Fatalf("call: %v %+v", err, res)
			}
			text, ok := mcp.AsTextContent(res.Content[0])
			if !ok {
				t.Fatalf("content[0] = %T, want text", res.Content[0])
			}
			var fromText, fromStructured map[string]any
			if err := json.Unmarshal([]byte(text.Text), &fromText); err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(res.StructuredContent)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &fromStructured); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fromText, fromStructured) {
				t.Errorf("structuredContent = %v, want the text's %v", fromStructured, fromText)
			}
			for _, k := range tt.required {
				if _, ok := fromStructured[k]; !ok {
					t.Errorf("structuredContent lacks %q: %v", k, fromStructured)
				}
			}
		})
	}
}
