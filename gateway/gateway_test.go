package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/orchestrator"
	"talk2tables/orchestrator/executor"
)

func TestToolsList(t *testing.T) {
	st := newStack(t, "")
	c, _ := inProcess(t, st, clientOptions{})
	ctx := context.Background()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]mcp.Tool{}
	for _, tool := range res.Tools {
		byName[tool.Name] = tool
	}
	for _, want := range []string{"ask", "run_sql", "health", "search", "execute",
		"database_mcp__execute_query", "database_mcp__validate_query"} {
		if _, ok := byName[want]; !ok {
			t.Errorf("tools/list lacks %s; got %v", want, mapsKeys(byName))
		}
	}
	ask := byName["ask"]
	if ask.OutputSchema.Type != "object" || ask.OutputSchema.Properties["sql"] == nil || ask.OutputSchema.Properties["result"] == nil {
		t.Errorf("ask outputSchema = %+v, want the QueryResult schema", ask.OutputSchema)
	}
	// A re-exposed tool keeps its schema and annotations.
	eq := byName["database_mcp__execute_query"]
	if eq.InputSchema.Properties["query"] == nil || !slices.Contains(eq.InputSchema.Required, "query") {
		t.Errorf("database_mcp__execute_query input schema = %+v, want the downstream's (query required)", eq.InputSchema)
	}
	if ro := eq.Annotations.ReadOnlyHint; ro == nil || !*ro {
		t.Errorf("database_mcp__execute_query readOnlyHint = %v, want true (kept from database-mcp)", ro)
	}
	// Every downstream resource under a prefixed URI, readable.
	rl, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range rl.Resources {
		uris = append(uris, r.URI)
	}
	const schemaURI = "t2t://database_mcp/database://schema"
	if !slices.Contains(uris, schemaURI) {
		t.Fatalf("resources = %v, want %s", uris, schemaURI)
	}
	rr := mcp.ReadResourceRequest{}
	rr.Params.URI = schemaURI
	read, err := c.ReadResource(ctx, rr)
	if err != nil {
		t.Fatal(err)
	}
	body := read.Contents[0].(mcp.TextResourceContents)
	if body.URI != schemaURI || !strings.Contains(body.Text, `"dialect":"sqlite"`) {
		t.Errorf("read %s = %s %.80s, want the schema under the prefixed URI", schemaURI, body.URI, body.Text)
	}
}

func mapsKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestExposeSearchOnly(t *testing.T) {
	st := newStack(t, "gateway: {expose: search_only}")
	c, _ := inProcess(t, st, clientOptions{})
	got := toolNames(t, c)
	slices.Sort(got)
	if want := []string{"ask", "execute", "health", "run_sql", "search"}; !slices.Equal(got, want) {
		t.Errorf("tools = %v, want %v", got, want)
	}
	// Downstream tools stay reachable through execute.
	res := call(t, c, "execute", map[string]any{"name": "database_mcp__execute_query",
		"arguments": map[string]any{"query": "SELECT COUNT(*) AS n FROM products"}}, nil)
	if res.IsError || !strings.Contains(text(res), `"columns":["n"]`) {
		t.Errorf("execute = %s (isError %v), want the row count", text(res), res.IsError)
	}
}

// stages returns the stage names of the progress notifications.
func stages(ns []mcp.JSONRPCNotification) []string {
	var out []string
	for _, n := range ns {
		msg, _ := n.Params.AdditionalFields["message"].(string)
		stage, _, _ := strings.Cut(msg, ":")
		out = append(out, stage)
	}
	return out
}

// checkStageOrder fails unless the stages come in Process order.
func checkStageOrder(t testing.TB, got []string, exact bool) {
	t.Helper()
	want := []string{"gathering", "generating", "validating", "executing"}
	if exact && !slices.Equal(got, want) {
		t.Fatalf("progress stages = %v, want %v", got, want)
	}
	last := -1
	for _, s := range got {
		i := slices.Index(want, s)
		if i < 0 || i < last {
			t.Fatalf("progress stages = %v, want a subsequence of %v in order", got, want)
		}
		last = i
	}
	if len(got) == 0 {
		t.Fatalf("no progress notification arrived")
	}
}

func TestAskOverStdioWithProgress(t *testing.T) {
	c, n := overStdio(t, "", clientOptions{legacy: true})
	ctx := context.Background()
	if err := c.SetLevel(ctx, mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevelInfo}}); err != nil {
		t.Fatalf("logging/setLevel: %v", err)
	}
	res := call(t, c, "ask", map[string]any{"question": "how many orders by status"}, &mcp.Meta{ProgressToken: "q1"})
	if res.IsError {
		t.Fatalf("ask isError: %s", text(res))
	}
	var qr orchestrator.QueryResult
	structured(t, res, &qr)
	if !qr.Success || qr.Result == nil || len(qr.Result.Rows) == 0 || qr.Metadata.Generator != "builtin" {
		t.Fatalf("structured result = %+v, want a successful builtin answer with rows", qr)
	}
	md := text(res)
	for _, want := range []string{"```sql\n", "| status |", "generator: builtin"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	// Over stdio every notification arrives, before the result.
	checkStageOrder(t, stages(n.of(string(mcp.MethodNotificationProgress))), true)
	logs := n.of(string(mcp.MethodNotificationMessage))
	if len(logs) < 4 {
		t.Fatalf("log notifications = %d, want one per stage (level info set)", len(logs))
	}
	data, _ := logs[0].Params.AdditionalFields["data"].(map[string]any)
	if data["stage"] != "gathering" || logs[0].Params.AdditionalFields["level"] != "info" {
		t.Errorf("first log notification = %v, want the gathering stage at info", logs[0].Params.AdditionalFields)
	}
	// At level warning the stages (info) are not sent.
	if err := c.SetLevel(ctx, mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevelWarning}}); err != nil {
		t.Fatal(err)
	}
	before := len(n.of(string(mcp.MethodNotificationMessage)))
	call(t, c, "ask", map[string]any{"question": "how many orders by status"}, nil)
	if after := len(n.of(string(mcp.MethodNotificationMessage))); after != before {
		t.Errorf("log notifications at level warning: %d new, want 0", after-before)
	}
}

func TestAskOverHTTPModernProtocol(t *testing.T) {
	st := newStack(t, "")
	c, n := overHTTP(t, st, clientOptions{})
	if v := c.ProtocolVersion(); v != mcp.LATEST_PROTOCOL_VERSION {
		t.Fatalf("protocol = %q, want %q", v, mcp.LATEST_PROTOCOL_VERSION)
	}
	res := call(t, c, "ask", map[string]any{"question": "total revenue by region", "max_rows": 2},
		&mcp.Meta{ProgressToken: "http-1"})
	if res.IsError {
		t.Fatalf("ask isError: %s", text(res))
	}
	var qr orchestrator.QueryResult
	structured(t, res, &qr)
	if qr.Result == nil || len(qr.Result.Rows) != 2 || !qr.Result.Truncated {
		t.Errorf("result = %+v, want 2 rows (max_rows) and truncated", qr.Result)
	}
	// Over streamable HTTP the first notification may be lost: the ones
	// that arrive must still be in order.
	checkStageOrder(t, stages(n.of(string(mcp.MethodNotificationProgress))), false)
}

func TestAskBadInputAndDecline(t *testing.T) {
	st := newStack(t, "")
	c, _ := inProcess(t, st, clientOptions{})
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"missing question", map[string]any{}, `"question" is required`},
		{"empty question", map[string]any{"question": "  "}, `"question" must not be empty`},
		{"too long", map[string]any{"question": strings.Repeat("x", 3000)}, "longer than 2000"},
		{"bad max_rows", map[string]any{"question": "orders", "max_rows": 0}, `"max_rows" must be an integer from 1 to 10000`},
		{"declined", map[string]any{"question": "what is the airspeed velocity of an unladen swallow"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, c, "ask", tt.args, nil)
			if !res.IsError {
				t.Fatalf("ask(%v) = %s, want isError", tt.args, text(res))
			}
			if !strings.Contains(text(res), tt.want) {
				t.Errorf("ask error = %q, want %q", text(res), tt.want)
			}
		})
	}
}

func TestRunSQL(t *testing.T) {
	st := newStack(t, "")
	c, _ := inProcess(t, st, clientOptions{})
	res := call(t, c, "run_sql", map[string]any{"sql": "SELECT region, COUNT(*) AS n FROM customers GROUP BY region ORDER BY region"}, nil)
	if res.IsError {
		t.Fatalf("run_sql: %s", text(res))
	}
	var d executor.QueryData
	structured(t, res, &d)
	if len(d.Rows) != 4 || d.Columns[0] != "region" || !strings.Contains(text(res), "| region | n |") {
		t.Errorf("run_sql = %+v / %s, want 4 regions", d, text(res))
	}
	before := fileSum(t, st)
	for _, sql := range []string{"DELETE FROM orders", "UPDATE products SET unit_price = 0", "DROP TABLE sales"} {
		res := call(t, c, "run_sql", map[string]any{"sql": sql}, nil)
		if !res.IsError || !strings.Contains(text(res), "PERMISSION_ERROR") {
			t.Errorf("run_sql(%q) = %s (isError %v), want a PERMISSION_ERROR refusal", sql, text(res), res.IsError)
		}
	}
	if after := fileSum(t, st); after != before {
		t.Errorf("database changed after refused writes")
	}
}

func TestNamespacedCallAndExecute(t *testing.T) {
	st := newStack(t, "")
	c, _ := inProcess(t, st, clientOptions{})
	res := call(t, c, "database_mcp__execute_query", map[string]any{"query": "SELECT COUNT(*) AS n FROM customers"}, nil)
	if res.IsError || !strings.Contains(text(res), `"columns":["n"]`) {
		t.Fatalf("namespaced call = %s (isError %v)", text(res), res.IsError)
	}
	// A downstream tool error stays a tool error, with its category.
	res = call(t, c, "database_mcp__execute_query", map[string]any{"query": "SELECT nope FROM customers"}, nil)
	if !res.IsError || !strings.Contains(text(res), "MISSING_COLUMN") {
		t.Errorf("bad SQL = %s (isError %v), want a MISSING_COLUMN tool error", text(res), res.IsError)
	}
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"unknown server", map[string]any{"name": "nope__x", "arguments": map[string]any{}}, `unknown MCP server "nope"`},
		{"unknown tool", map[string]any{"name": "database_mcp__drop_everything"}, `has no tool "drop_everything"`},
		{"not namespaced", map[string]any{"name": "execute_query"}, "named <server>__<tool>"},
		{"bad arguments", map[string]any{"name": "database_mcp__execute_query", "arguments": "SELECT 1"}, `"arguments" must be an object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, c, "execute", tt.args, nil)
			if !res.IsError || !strings.Contains(text(res), tt.want) {
				t.Errorf("execute(%v) = %s (isError %v), want %q", tt.args, text(res), res.IsError, tt.want)
			}
		})
	}
}

func TestHealth(t *testing.T) {
	st := newStack(t, "")
	c, _ := inProcess(t, st, clientOptions{})
	call(t, c, "ask", map[string]any{"question": "how many orders"}, nil) // fills the cache
	res := call(t, c, "health", nil, nil)
	var h healthReport
	structured(t, res, &h)
	if h.Status != "healthy" || h.Generator != "builtin" || len(h.Servers) != 2 {
		t.Fatalf("health = %+v", h)
	}
	for _, s := range h.Servers {
		if s.State != "connected" || s.CacheAgeSeconds == nil {
			t.Errorf("server %s = %+v, want connected with a cache age", s.ID, s)
		}
	}
	if !strings.Contains(text(res), "| database_mcp | connected |") {
		t.Errorf("health markdown = %s", text(res))
	}
}

// TestAskCancelled cancels a question while the LLM is writing its SQL:
// the client's notifications/cancelled reaches the orchestrator, which
// stops the question (and the LLM request).
func TestAskCancelled(t *testing.T) {
	llm, started := slowLLM(t)
	st := newStack(t, llmConfig(llm.URL))
	c, _ := overHTTP(t, st, clientOptions{legacy: true})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "ask"
		req.Params.Arguments = map[string]any{"question": "how many orders"}
		_, err := c.CallTool(ctx, req)
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; err == nil {
		t.Fatal("cancelled call returned no error")
	}
	// The gateway logged the call as cancelled by the client, not as a failure.
	eventually(t, "the question to stop as cancelled", func() bool {
		for _, r := range st.logs.Events(t, "fatal_error") {
			if strings.Contains(r["error"].(string), "context canceled") && r["level"] == "INFO" {
				return true
			}
		}
		return false
	})
}

// fileSum hashes the stack's database file.
func fileSum(tb testing.TB, st *stack) string {
	tb.Helper()
	raw, err := os.ReadFile(st.dbPath)
	if err != nil {
		tb.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}
