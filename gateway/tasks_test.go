package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"talk2tables/mcptasks"
)

// taskHost is an MCP host on protocol 2026-07-28 that declares the tasks
// extension, speaking JSON-RPC over streamable HTTP to the gateway.
type taskHost struct {
	url string
	n   int
}

func newTaskHost(tb testing.TB, st *stack) *taskHost {
	tb.Helper()
	h, err := st.gw.HTTPHandlers()
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(h.Streamable)
	tb.Cleanup(func() { h.Close(); srv.Close() })
	return &taskHost{url: srv.URL + "/mcp"}
}

// rpc sends one request and returns its result (failing the test on an
// error response).
func (h *taskHost) rpc(tb testing.TB, method, name string, params map[string]any, extension bool) map[string]any {
	tb.Helper()
	caps := map[string]any{}
	if extension {
		caps["extensions"] = map[string]any{mcptasks.Extension: map[string]any{}}
	}
	params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": caps}
	h.n++
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": h.n, "method": method, "params": params})
	req, err := http.NewRequest(http.MethodPost, h.url, strings.NewReader(string(body)))
	if err != nil {
		tb.Fatal(err)
	}
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, "Mcp-Name": name} {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	text := strings.TrimSpace(string(raw))
	if i := strings.Index(text, "data: "); i >= 0 {
		text = strings.TrimSpace(text[i+len("data: "):])
	}
	var msg struct {
		Result map[string]any  `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal([]byte(text), &msg); err != nil || msg.Result == nil {
		tb.Fatalf("%s: %s (%v)", method, raw, err)
	}
	return msg.Result
}

func (h *taskHost) start(tb testing.TB, tool string, args map[string]any) string {
	tb.Helper()
	res := h.rpc(tb, "tools/call", tool, map[string]any{"name": tool, "arguments": args}, true)
	id, _ := res["taskId"].(string)
	if res["resultType"] != "task" || id == "" {
		tb.Fatalf("tools/call %s = %v, want a task handle", tool, res)
	}
	return id
}

func (h *taskHost) get(tb testing.TB, id string) map[string]any {
	tb.Helper()
	return h.rpc(tb, "tasks/get", id, map[string]any{"taskId": id}, true)
}

// until polls tasks/get until cond holds (a hang guard of a minute).
func (h *taskHost) until(tb testing.TB, id, what string, cond func(map[string]any) bool) map[string]any {
	tb.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		t := h.get(tb, id)
		if cond(t) {
			return t
		}
		if time.Now().After(deadline) {
			tb.Fatalf("task %s: never %s; last %v", id, what, t)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestAskAsTask: a host that declares the tasks extension starts a
// question as a task, polls it and reads the answer from tasks/get; the
// answer is the data's.
func TestAskAsTask(t *testing.T) {
	st := newStack(t, "")
	h := newTaskHost(t, st)
	id := h.start(t, ToolAsk, map[string]any{"question": "how many orders"})
	done := h.until(t, id, "completed", func(t map[string]any) bool { return t["status"] != "working" })
	res, _ := done["result"].(map[string]any)
	if done["status"] != "completed" || res == nil || res["isError"] == true {
		t.Fatalf("task = %v, want completed with the answer", done)
	}
	var answer struct {
		Result struct {
			Rows [][]any `json:"rows"`
		} `json:"result"`
	}
	raw, _ := json.Marshal(res["structuredContent"])
	if err := json.Unmarshal(raw, &answer); err != nil || len(answer.Result.Rows) != 1 {
		t.Fatalf("structured answer = %s, want one row", raw)
	}
	direct, err := st.db.Query(context.Background(), "SELECT COUNT(*) FROM orders", 1)
	if err != nil || len(direct.Rows) != 1 {
		t.Fatalf("direct count: %v", err)
	}
	want := direct.Rows[0][0]
	if fmt.Sprint(answer.Result.Rows[0][0]) != fmt.Sprint(want) {
		t.Errorf("answer = %v, want %v (the data's)", answer.Result.Rows[0][0], want)
	}

	// run_sql too; and without the extension the same call answers at once.
	sqlTask := h.until(t, h.start(t, ToolRunSQL, map[string]any{"sql": "SELECT COUNT(*) AS n FROM orders"}), "completed",
		func(t map[string]any) bool { return t["status"] != "working" })
	if r, _ := sqlTask["result"].(map[string]any); sqlTask["status"] != "completed" || !strings.Contains(fmt.Sprint(r["content"]), fmt.Sprint(want)) {
		t.Errorf("run_sql task = %v, want the count %v", sqlTask, want)
	}
	sync := h.rpc(t, "tools/call", ToolRunSQL, map[string]any{"name": ToolRunSQL, "arguments": map[string]any{"sql": "SELECT 1 AS one"}}, false)
	if sync["resultType"] != "complete" || sync["taskId"] != nil {
		t.Errorf("run_sql without the extension = %v, want a synchronous result", sync)
	}
}

// TestAskTaskProgressAndCancel: while a question runs, tasks/get shows its
// stage; cancelling it stops the question (the LLM call it waits on is
// abandoned) and the task reads cancelled.
func TestAskTaskProgressAndCancel(t *testing.T) {
	llm, started := slowLLM(t)
	st := newStack(t, llmConfig(llm.URL))
	h := newTaskHost(t, st)
	id := h.start(t, ToolAsk, map[string]any{"question": "how many orders"})
	<-started
	h.until(t, id, "at the generating stage", func(t map[string]any) bool {
		msg, _ := t["statusMessage"].(string)
		return strings.HasPrefix(msg, "generating")
	})
	ack := h.rpc(t, "tasks/cancel", id, map[string]any{"taskId": id}, true)
	if len(ack) != 1 || ack["resultType"] != "complete" {
		t.Errorf("tasks/cancel = %v, want an empty ack", ack)
	}
	if got := h.get(t, id); got["status"] != "cancelled" || got["result"] != nil {
		t.Errorf("task after cancel = %v, want cancelled without a result", got)
	}
	eventually(t, "the cancelled question to end", func() bool { return st.logs.Contains(`"event":"query_processing_completed"`) })
}
