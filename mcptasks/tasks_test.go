package mcptasks

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// client speaks 2026-07-28 JSON-RPC over HTTP to a fixture server, with or
// without the tasks extension, as one caller (its Authorization header).
type client struct {
	url, auth  string
	extensions bool
	n          int
}

// reply is one JSON-RPC response.
type reply struct {
	status int
	Result map[string]any `json:"result"`
	Error  *struct {
		Code    int            `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	} `json:"error"`
}

func (c *client) call(tb testing.TB, method, name string, params map[string]any) reply {
	tb.Helper()
	caps := map[string]any{}
	if c.extensions {
		caps["extensions"] = map[string]any{Extension: map[string]any{}}
	}
	params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": caps}
	c.n++
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.n, "method": method, "params": params})
	if err != nil {
		tb.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, c.url, strings.NewReader(string(body)))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	if c.auth != "" {
		req.Header.Set("Authorization", c.auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	text := strings.TrimSpace(string(raw))
	if i := strings.Index(text, "data: "); i >= 0 { // an SSE answer
		text = strings.TrimSpace(text[i+len("data: "):])
	}
	r := reply{status: resp.StatusCode}
	if err := json.Unmarshal([]byte(text), &r); err != nil {
		tb.Fatalf("%s: response %q: %v", method, raw, err)
	}
	return r
}

func (c *client) tool(tb testing.TB, name string, args map[string]any) reply {
	tb.Helper()
	return c.call(tb, "tools/call", name, map[string]any{"name": name, "arguments": args})
}

func (c *client) task(tb testing.TB, method, id string) reply {
	tb.Helper()
	return c.call(tb, method, id, map[string]any{"taskId": id})
}

// waitStatus polls tasks/get until the task leaves "working".
func (c *client) waitStatus(tb testing.TB, id string) reply {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second) // a hang guard, not a speed check
	for {
		r := c.task(tb, MethodGet, id)
		if r.Error != nil {
			tb.Fatalf("tasks/get %s: %+v", id, r.Error)
		}
		if r.Result["status"] != StatusWorking {
			return r
		}
		if time.Now().After(deadline) {
			tb.Fatalf("task %s still working", id)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTaskLifecycle(t *testing.T) {
	url, _ := fixtureServer(t, Options{TTL: time.Minute, PollInterval: 250 * time.Millisecond})
	c := &client{url: url, auth: "Bearer one", extensions: true}

	created := c.tool(t, "slow_compute", map[string]any{"seconds": 0.3, "label": "x"})
	if created.Error != nil || created.Result["resultType"] != "task" || created.Result["status"] != StatusWorking {
		t.Fatalf("tools/call = %+v, want a working task handle", created)
	}
	for _, k := range []string{"taskId", "createdAt", "lastUpdatedAt"} {
		if s, _ := created.Result[k].(string); s == "" {
			t.Errorf("CreateTaskResult lacks %s: %+v", k, created.Result)
		}
	}
	if created.Result["ttlMs"] != float64(60000) || created.Result["pollIntervalMs"] != float64(250) {
		t.Errorf("ttlMs %v pollIntervalMs %v, want 60000 and 250", created.Result["ttlMs"], created.Result["pollIntervalMs"])
	}
	id := created.Result["taskId"].(string)
	// Durable at once, with the tool's progress as its status message.
	working := c.task(t, MethodGet, id)
	if working.Error != nil || working.Result["resultType"] != "complete" {
		t.Fatalf("tasks/get right after creation = %+v", working)
	}
	for working.Result["status"] == StatusWorking && working.Result["statusMessage"] == nil {
		working = c.task(t, MethodGet, id)
	}
	if working.Result["status"] == StatusWorking && working.Result["statusMessage"] != "computing x" {
		t.Errorf("statusMessage = %v, want the tool's progress", working.Result["statusMessage"])
	}
	done := c.waitStatus(t, id)
	res, _ := done.Result["result"].(map[string]any)
	if done.Result["status"] != StatusCompleted || res == nil || !strings.Contains(fmt.Sprint(res["content"]), "computed x") {
		t.Errorf("finished task = %+v, want completed with the tool's result", done.Result)
	}

	// A tool error completes the task with isError; a broken call fails it.
	failing := c.waitStatus(t, c.tool(t, "failing_job", nil).Result["taskId"].(string))
	if r, _ := failing.Result["result"].(map[string]any); failing.Result["status"] != StatusCompleted || r["isError"] != true {
		t.Errorf("failing_job task = %+v, want completed with result.isError", failing.Result)
	}
	broken := c.waitStatus(t, c.tool(t, "protocol_error_job", nil).Result["taskId"].(string))
	if e, _ := broken.Result["error"].(map[string]any); broken.Result["status"] != StatusFailed || e["code"] == nil || broken.Result["result"] != nil {
		t.Errorf("protocol_error_job task = %+v, want failed with an error and no result", broken.Result)
	}

	// Cancel: an empty ack, then cancelled; again on a finished task, the same ack.
	long := c.tool(t, "slow_compute", map[string]any{"seconds": 60}).Result["taskId"].(string)
	for range 2 {
		if ack := c.task(t, MethodCancel, long); ack.Error != nil || len(ack.Result) != 1 || ack.Result["resultType"] != "complete" {
			t.Errorf("tasks/cancel = %+v, want {resultType: complete}", ack)
		}
	}
	if got := c.task(t, MethodGet, long).Result["status"]; got != StatusCancelled {
		t.Errorf("status after cancel = %v, want cancelled", got)
	}
}

func TestTaskErrors(t *testing.T) {
	url, _ := fixtureServer(t, Options{})
	owner := &client{url: url, auth: "Bearer one", extensions: true}
	id := owner.tool(t, "slow_compute", map[string]any{"seconds": 5}).Result["taskId"].(string)

	tests := []struct {
		name   string
		c      *client
		method string
		taskID string
		header string // Mcp-Name sent
		code   int
		status int
	}{
		{"unknown task", owner, MethodGet, "NOPE", "NOPE", -32602, 400},
		{"another caller's task", &client{url: url, auth: "Bearer two", extensions: true}, MethodGet, id, id, -32602, 400},
		{"cancel unknown", owner, MethodCancel, "NOPE", "NOPE", -32602, 400},
		{"without the extension", &client{url: url, auth: "Bearer one"}, MethodGet, id, id, -32021, 400},
		{"Mcp-Name not the task", owner, MethodGet, id, "other", -32020, 400},
		{"no input to give", owner, MethodUpdate, id, id, -32602, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := map[string]any{"taskId": tt.taskID}
			if tt.method == MethodUpdate {
				p["inputResponses"] = map[string]any{}
			}
			r := tt.c.call(t, tt.method, tt.header, p)
			if r.Error == nil || r.Error.Code != tt.code || r.status != tt.status {
				t.Fatalf("%s = HTTP %d %+v, want error %d and HTTP %d", tt.method, r.status, r.Error, tt.code, tt.status)
			}
			if tt.code == -32021 && r.Error.Data["requiredCapabilities"] == nil {
				t.Errorf("error data = %v, want requiredCapabilities naming the extension", r.Error.Data)
			}
		})
	}
}

// TestWithoutTheExtension: a client that does not declare the extension
// gets the tool's result, synchronously.
func TestWithoutTheExtension(t *testing.T) {
	url, _ := fixtureServer(t, Options{})
	c := &client{url: url}
	r := c.tool(t, "slow_compute", map[string]any{"seconds": 0, "label": "now"})
	if r.Error != nil || r.Result["resultType"] != "complete" || r.Result["taskId"] != nil ||
		!strings.Contains(fmt.Sprint(r.Result["content"]), "computed now") {
		t.Errorf("tools/call = %+v, want the synchronous result", r)
	}
}

// TestTaskExpiry: a finished task is readable for its TTL, then forgotten;
// a running one is never forgotten.
func TestTaskExpiry(t *testing.T) {
	url, tasks := fixtureServer(t, Options{TTL: time.Hour, MaxTasks: 2})
	c := &client{url: url, extensions: true}
	var clock time.Time
	tasks.mu.Lock()
	tasks.now = func() time.Time { return clock }
	clock = time.Now()
	tasks.mu.Unlock()
	setClock := func(d time.Duration) {
		tasks.mu.Lock()
		clock = clock.Add(d)
		tasks.mu.Unlock()
	}
	finished := c.waitStatus(t, c.tool(t, "slow_compute", map[string]any{"seconds": 0}).Result["taskId"].(string))
	running := c.tool(t, "slow_compute", map[string]any{"seconds": 60}).Result["taskId"].(string)
	// Both slots are taken: the next call runs synchronously.
	if r := c.tool(t, "slow_compute", map[string]any{"seconds": 0}); r.Result["resultType"] != "complete" {
		t.Errorf("call with every slot taken = %+v, want a synchronous result", r.Result)
	}
	setClock(59 * time.Minute)
	if r := c.task(t, MethodGet, finished.Result["taskId"].(string)); r.Error != nil {
		t.Errorf("finished task within its TTL: %+v", r.Error)
	}
	setClock(2 * time.Minute)
	if r := c.task(t, MethodGet, finished.Result["taskId"].(string)); r.Error == nil || r.Error.Code != -32602 {
		t.Errorf("finished task past its TTL = %+v, want unknown (-32602)", r)
	}
	if r := c.task(t, MethodGet, running); r.Error != nil || r.Result["status"] != StatusWorking {
		t.Errorf("running task past its TTL = %+v, want still working", r)
	}
}

// Close cancels a task that is still running and waits for it; a call after
// Close runs synchronously.
func TestCloseCancelsRunningTasks(t *testing.T) {
	url, tasks := fixtureServer(t, Options{})
	c := &client{url: url, auth: "Bearer one", extensions: true}
	created := c.tool(t, "slow_compute", map[string]any{"seconds": 600})
	if created.Result["status"] != StatusWorking {
		t.Fatalf("tools/call = %+v, want a working task", created)
	}
	closed := make(chan struct{})
	go func() { tasks.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(30 * time.Second): // a hang guard, not a speed check
		t.Fatal("Close did not return: the running task was not cancelled")
	}
	if r := c.tool(t, "slow_compute", map[string]any{"seconds": 0}); r.Result["resultType"] == "task" {
		t.Errorf("tools/call after Close = %+v, want a synchronous result", r.Result)
	}
}
