package mcptasks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// Methods of the extension.
const (
	MethodGet    = "tasks/get"
	MethodUpdate = "tasks/update"
	MethodCancel = "tasks/cancel"
)

// request is what the extension reads of a JSON-RPC request.
type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

type params struct {
	Name   string `json:"name"`
	TaskID string `json:"taskId"`
	Meta   *struct {
		ProtocolVersion    string                     `json:"io.modelcontextprotocol/protocolVersion"`
		ClientCapabilities map[string]json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
	} `json:"_meta"`
}

// Handler serves next (the server's streamable HTTP handler) with the
// extension in front: 2026-07-28 requests of clients that declare it are
// answered here when they create or concern a task; everything else goes to
// next unchanged.
func (t *Tasks) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
		if err != nil || !t.serve(w, r, body) {
			next.ServeHTTP(w, r)
		}
	})
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err == nil {
		return 0, io.EOF
	}
	return 0, e.err
}

// serve answers a request that creates or concerns a task; false leaves it
// to the server.
func (t *Tasks) serve(w http.ResponseWriter, r *http.Request, body []byte) bool {
	var req request
	if json.Unmarshal(body, &req) != nil || req.JSONRPC != mcp.JSONRPC_VERSION || len(req.ID) == 0 {
		return false
	}
	switch req.Method {
	case string(mcp.MethodToolsCall), MethodGet, MethodUpdate, MethodCancel:
	default:
		return false
	}
	var p params
	if json.Unmarshal(req.Params, &p) != nil || p.Meta == nil || p.Meta.ClientCapabilities == nil ||
		!mcp.IsModernProtocol(p.Meta.ProtocolVersion) || !mcp.IsValidProtocolVersion(p.Meta.ProtocolVersion) {
		return false // another protocol revision, or malformed: the server answers
	}
	if v := r.Header.Get(mcp.HeaderProtocolVersion); v != "" && v != p.Meta.ProtocolVersion {
		return false // the server reports the mismatch
	}
	negotiated := hasExtension(p.Meta.ClientCapabilities)
	if req.Method == string(mcp.MethodToolsCall) {
		if !negotiated && slices.Contains(t.opts.Required, p.Name) {
			writeMissingExtension(w, req.ID, fmt.Sprintf("tool %q runs only as a task", p.Name))
			return true
		}
		if !negotiated || !t.isTaskTool(p.Name) ||
			mcp.ValidateStandardHeaders(r.Header.Get, p.Meta.ProtocolVersion, mcp.MethodToolsCall, req.Params) != nil {
			return false // a synchronous call, or one the server rejects
		}
		tk, ok := t.start(r, p.Name, withoutClientInput(body))
		if !ok {
			return false
		}
		writeResult(w, req.ID, t.envelope(tk, "task"))
		return true
	}
	if err := taskHeaders(r, req.Method, p.TaskID); err != nil {
		writeError(w, req.ID, mcp.HEADER_MISMATCH, err.Error(), nil)
		return true
	}
	if !negotiated {
		writeMissingExtension(w, req.ID, req.Method+" is part of the tasks extension")
		return true
	}
	owner := ownerOf(r)
	switch req.Method {
	case MethodGet:
		tk, ok := t.get(p.TaskID, owner)
		if !ok {
			writeError(w, req.ID, mcp.INVALID_PARAMS, unknownTask(p.TaskID), nil)
			return true
		}
		writeResult(w, req.ID, t.detailed(tk))
	case MethodCancel:
		if !t.cancelTask(p.TaskID, owner) {
			writeError(w, req.ID, mcp.INVALID_PARAMS, unknownTask(p.TaskID), nil)
			return true
		}
		writeResult(w, req.ID, map[string]any{"resultType": "complete"})
	case MethodUpdate:
		if _, ok := t.get(p.TaskID, owner); !ok {
			writeError(w, req.ID, mcp.INVALID_PARAMS, unknownTask(p.TaskID), nil)
			return true
		}
		writeError(w, req.ID, mcp.INVALID_PARAMS, fmt.Sprintf("task %s is not waiting for input: this server's tasks never ask for any", p.TaskID), nil)
	}
	return true
}

// writeMissingExtension refuses a request that needs the extension the
// client did not declare.
func writeMissingExtension(w http.ResponseWriter, id json.RawMessage, why string) {
	writeError(w, id, mcp.MISSING_REQUIRED_CLIENT_CAPABILITY,
		fmt.Sprintf("%s: declare the client capability extensions[%q] in the request's _meta", why, Extension),
		map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{Extension: map[string]any{}}}})
}

func unknownTask(id string) string {
	return fmt.Sprintf("unknown task %q: it never existed, expired, or belongs to another caller", id)
}

// hasExtension reports whether client capabilities declare the extension.
func hasExtension(caps map[string]json.RawMessage) bool {
	var ext map[string]json.RawMessage
	if json.Unmarshal(caps["extensions"], &ext) != nil {
		return false
	}
	_, ok := ext[Extension]
	return ok
}

// taskHeaders checks the routing headers of a tasks/* request: Mcp-Method
// names the method and Mcp-Name the task (SEP-2243, SEP-2663).
func taskHeaders(r *http.Request, method, taskID string) error {
	if m := r.Header.Get(mcp.HeaderMethod); m != method {
		return fmt.Errorf("header mismatch: %s %q must be the body's method %q", mcp.HeaderMethod, m, method)
	}
	name := r.Header.Get(mcp.HeaderName)
	decoded, ok := mcp.DecodeHeaderValue(name)
	if name == "" || !ok || decoded != taskID {
		return fmt.Errorf("header mismatch: %s %q must be the body's taskId %q", mcp.HeaderName, name, taskID)
	}
	return nil
}

// withoutClientInput returns the call with the client's sampling,
// elicitation, roots and tasks capabilities removed: a task runs to its end
// without asking the client anything, and is not a task again inside.
func withoutClientInput(body []byte) []byte {
	var msg map[string]json.RawMessage
	var p map[string]json.RawMessage
	var meta map[string]json.RawMessage
	var caps map[string]json.RawMessage
	if json.Unmarshal(body, &msg) != nil || json.Unmarshal(msg["params"], &p) != nil ||
		json.Unmarshal(p["_meta"], &meta) != nil || json.Unmarshal(meta["io.modelcontextprotocol/clientCapabilities"], &caps) != nil {
		return body
	}
	for _, k := range []string{"sampling", "elicitation", "roots", "extensions"} {
		delete(caps, k)
	}
	meta["io.modelcontextprotocol/clientCapabilities"] = mustJSON(caps)
	p["_meta"] = mustJSON(meta)
	msg["params"] = mustJSON(p)
	return mustJSON(msg)
}

// envelope is the task's wire shape: the Task fields, with resultType
// "task" (CreateTaskResult) or "complete" (tasks/get).
func (t *Tasks) envelope(tk task, resultType string) map[string]any {
	out := map[string]any{
		"resultType":     resultType,
		"taskId":         tk.id,
		"status":         tk.status,
		"createdAt":      tk.created.UTC().Format(time.RFC3339Nano),
		"lastUpdatedAt":  tk.updated.UTC().Format(time.RFC3339Nano),
		"ttlMs":          t.opts.TTL.Milliseconds(),
		"pollIntervalMs": t.opts.PollInterval.Milliseconds(),
	}
	if tk.message != "" {
		out["statusMessage"] = tk.message
	}
	return out
}

// detailed is tasks/get's answer: the task with its result (completed) or
// error (failed) inlined.
func (t *Tasks) detailed(tk task) map[string]any {
	out := t.envelope(tk, "complete")
	switch tk.status {
	case StatusCompleted:
		out["result"] = tk.result
	case StatusFailed:
		out["error"] = tk.err
	}
	return out
}

func writeResult(w http.ResponseWriter, id json.RawMessage, result any) {
	write(w, http.StatusOK, map[string]any{"jsonrpc": mcp.JSONRPC_VERSION, "id": id, "result": result})
}

// writeError answers with a JSON-RPC error and the HTTP status 2026-07-28
// gives its code.
func writeError(w http.ResponseWriter, id json.RawMessage, code int, msg string, data any) {
	e := map[string]any{"code": code, "message": msg}
	if data != nil {
		e["data"] = data
	}
	status := http.StatusBadRequest
	if code == mcp.METHOD_NOT_FOUND {
		status = http.StatusNotFound
	}
	write(w, status, map[string]any{"jsonrpc": mcp.JSONRPC_VERSION, "id": id, "error": e})
}

func write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
