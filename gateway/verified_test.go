package gateway

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/config"
	"talk2tables/internal/testfixture"
	"talk2tables/state"
)

const regionSQL = "SELECT ROUND(SUM(total_amount), 2) AS revenue FROM sales WHERE region = 'East'"

// newVerifiedStack is a stack with verified questions on (a fresh SQLite
// state database); gatewayYAML tunes the configuration.
func newVerifiedStack(tb testing.TB, gatewayYAML string) *stack {
	tb.Helper()
	logs := &testfixture.LogBuffer{}
	sf := stackFile{DB: testfixture.SalesDB(tb, 3000), Catalog: testfixture.CatalogPath(tb), Config: gatewayYAML,
		State: filepath.Join(tb.TempDir(), "state.db")}
	st, err := buildStack(context.Background(), sf, slog.New(slog.NewJSONHandler(logs, nil)), nil)
	if err != nil {
		tb.Fatalf("build stack: %v", err)
	}
	st.logs = logs
	tb.Cleanup(st.close)
	return st
}

// readVerified reads the verified-questions resource.
func readVerified(tb testing.TB, st *stack, c interface {
	ReadResource(context.Context, mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error)
}) (entries []state.Entry, total int) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := mcp.ReadResourceRequest{}
	req.Params.URI = VerifiedURI
	res, err := c.ReadResource(ctx, req)
	if err != nil {
		tb.Fatalf("read %s: %v", VerifiedURI, err)
	}
	var body struct {
		Entries []state.Entry `json:"entries"`
		Total   int           `json:"total"`
	}
	tc, ok := res.Contents[0].(mcp.TextResourceContents)
	if !ok || json.Unmarshal([]byte(tc.Text), &body) != nil {
		tb.Fatalf("resource contents = %+v, want JSON text", res.Contents)
	}
	return body.Entries, body.Total
}

// TestVerifyTool: verify is asked for approval by default (elicitation),
// saves the question with its result, and the next ask answers from it
// and says so; the list is a resource; bad input and refusals are clear.
func TestVerifyTool(t *testing.T) {
	st := newVerifiedStack(t, "")
	yes := &elicitor{approve: true}
	c, _ := overHTTP(t, st, clientOptions{elicitation: yes})
	if names := toolNames(t, c); !slices.Contains(names, config.ToolVerify) {
		t.Fatalf("tools = %v, want verify", names)
	}
	args := map[string]any{"question": "revenue in the East region", "sql": regionSQL}
	res := call(t, c, config.ToolVerify, args, nil)
	if res.IsError || yes.asked.Load() != 1 {
		t.Fatalf("verify = %s (isError %v, asked %d), want it saved after one approval", text(res), res.IsError, yes.asked.Load())
	}
	if msg, _ := yes.message.Load().(string); !strings.Contains(msg, "verify") || !strings.Contains(msg, "revenue in the East region") {
		t.Errorf("approval question = %q, want the tool and the question", msg)
	}
	var taught struct {
		Entry  state.Entry `json:"entry"`
		Result struct {
			RowCount int `json:"row_count"`
		} `json:"result"`
	}
	structured(t, res, &taught)
	if taught.Entry.ID == 0 || taught.Entry.VerifiedBy != "mcp" || taught.Result.RowCount != 1 ||
		!strings.Contains(text(res), "revenue") {
		t.Fatalf("verify = %+v, text %s; want the entry by mcp and its one-row result", taught, text(res))
	}

	// The next ask, paraphrased and for another region, answers from it.
	res = call(t, c, ToolAsk, map[string]any{"question": "Revenue in the West region?"}, nil)
	if res.IsError || !strings.Contains(text(res), "Verified question #1") || !strings.Contains(text(res), `"West" for "East"`) {
		t.Errorf("ask = %s, want an answer that names the verified question and the substituted value", text(res))
	}

	entries, total := readVerified(t, st, c)
	if total != 1 || len(entries) != 1 || entries[0].Question != "revenue in the East region" || entries[0].UseCount != 1 {
		t.Errorf("resource = %d %+v, want the one entry, used once", total, entries)
	}

	// Refusals: declined, duplicate, a write, a question too long, unknown server.
	no := &elicitor{approve: false}
	c2, _ := overHTTP(t, st, clientOptions{elicitation: no})
	res = call(t, c2, config.ToolVerify, map[string]any{"question": "revenue of the North region", "sql": regionSQL}, nil)
	if !res.IsError || !strings.Contains(text(res), "did not approve") {
		t.Errorf("declined verify = %s, want a refusal", text(res))
	}
	for _, tt := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"duplicate", map[string]any{"question": "Revenue in the EAST region!", "sql": regionSQL}, "already verified (entry 1)"},
		{"write", map[string]any{"question": "remove the East sales", "sql": "DELETE FROM sales WHERE region = 'East'"}, "sql"},
		{"too long", map[string]any{"question": strings.Repeat("revenue ", 400), "sql": regionSQL}, "question"},
		{"unknown server", map[string]any{"question": "revenue of the South region", "sql": regionSQL, "server": "nope"}, "nope"},
		{"missing sql", map[string]any{"question": "revenue of the South region"}, "sql"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, c, config.ToolVerify, tt.args, nil)
			if !res.IsError || !strings.Contains(text(res), tt.want) {
				t.Errorf("verify %v = %s (isError %v), want an error naming %q", tt.args, text(res), res.IsError, tt.want)
			}
		})
	}
	if _, total := readVerified(t, st, c); total != 1 {
		t.Errorf("entries after refusals = %d, want 1", total)
	}

	// A viewer key (as the HTTP face marks it) may ask, not verify.
	viewer, _ := overHTTP(t, st, clientOptions{elicitation: yes, headers: map[string]string{config.HeaderRole: config.RoleViewer}})
	res = call(t, viewer, config.ToolVerify, map[string]any{"question": "revenue of the North region", "sql": regionSQL}, nil)
	if !res.IsError || !strings.Contains(text(res), "editor key") {
		t.Errorf("viewer verify = %s, want a refusal naming editor keys", text(res))
	}
	// An editor's name is who verified.
	editor, _ := overHTTP(t, st, clientOptions{elicitation: yes,
		headers: map[string]string{config.HeaderRole: config.RoleEditor, config.HeaderEditor: "ana"}})
	res = call(t, editor, config.ToolVerify, map[string]any{"question": "revenue of the North region",
		"sql": strings.Replace(regionSQL, "East", "North", 1)}, nil)
	structured(t, res, &taught)
	if res.IsError || taught.Entry.VerifiedBy != "ana" {
		t.Errorf("editor verify = %s, by %q; want it saved by ana", text(res), taught.Entry.VerifiedBy)
	}
}

// TestVerifyApprovalConfigurable: gateway.tools.verify.approval none saves
// without asking; without a state database there is no verify tool.
func TestVerifyApprovalConfigurable(t *testing.T) {
	st := newVerifiedStack(t, "gateway:\n  tools:\n    verify:\n      approval: none\n")
	c, _ := inProcess(t, st, clientOptions{})
	res := call(t, c, config.ToolVerify, map[string]any{"question": "revenue in the East region", "sql": regionSQL}, nil)
	if res.IsError {
		t.Fatalf("verify with approval none = %s", text(res))
	}

	off := newStack(t, "")
	c2, _ := inProcess(t, off, clientOptions{})
	if names := toolNames(t, c2); slices.Contains(names, config.ToolVerify) {
		t.Errorf("tools without a state database = %v, want no verify", names)
	}
}
