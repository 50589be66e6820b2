// Package mcptasks adds the MCP Tasks extension (io.modelcontextprotocol/tasks,
// SEP-2663, protocol 2026-07-28) to an mcp-go server served over streamable
// HTTP: a tools/call of a task tool from a client that declares the
// extension answers at once with a task handle (CreateTaskResult) while the
// call runs in the background; the client polls tasks/get for its status,
// its progress (statusMessage) and, once it is over, its result, and may
// stop it with tasks/cancel.
//
// mcp-go v1.2.1 implements only the tasks of protocol 2025-11-25 (client
// opt-in, nested task, tasks/result, tasks/list), whose wire shapes
// SEP-2663 replaced, so the extension sits in front of its HTTP handler:
// task creation and the tasks/* methods are answered here; the call itself
// runs through the server's own HandleMessage, so its validation, filters,
// middleware and handler are unchanged.
//
// A task never asks its client for input (no input_required status, no
// tasks/update): its call runs without the client's sampling, elicitation
// and roots capabilities. Tasks live in memory, in the process that
// created them, and belong to the Authorization header that created them.
package mcptasks

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Extension is the extension's identifier in capabilities.extensions.
const Extension = "io.modelcontextprotocol/tasks"

// Task statuses.
const (
	StatusWorking   = "working"
	StatusCompleted = "completed"
	StatusFailed    = "failed"
	StatusCancelled = "cancelled"
)

// Defaults of Options.
const (
	DefaultTTL          = time.Hour
	DefaultPollInterval = time.Second
	DefaultMaxTasks     = 1000
)

// Options configures New.
type Options struct {
	// Tools are the names of the tools whose calls become tasks.
	Tools []string
	// Required are the names of task tools that only run as tasks: a call
	// from a client without the extension is refused with -32021 (Missing
	// Required Client Capability).
	Required []string
	// TTL is how long a task can be read after it is created (its ttlMs);
	// a task still running is kept until it ends. Default DefaultTTL.
	TTL time.Duration
	// PollInterval is the polling interval suggested to clients.
	PollInterval time.Duration
	// MaxTasks bounds the tasks kept at once; when every slot holds a task
	// that is still readable, a call runs synchronously instead (allowed:
	// the server decides). Default DefaultMaxTasks.
	MaxTasks int
	// ContextFunc adds what the call needs from its HTTP request to the
	// task's context (the same function the transport uses).
	ContextFunc func(ctx context.Context, r *http.Request) context.Context
	Logger      *slog.Logger
}

// Tasks holds the tasks of one MCP server. Close it when done.
type Tasks struct {
	srv  *server.MCPServer
	opts Options
	log  *slog.Logger
	now  func() time.Time
	wg   sync.WaitGroup

	mu     sync.Mutex
	closed bool // Close was called: no task starts any more
	tasks  map[string]*task
}

// task is one call running or run as a task.
type task struct {
	id, owner, tool string
	created         time.Time
	cancel          context.CancelFunc

	// guarded by Tasks.mu
	status, message string
	updated         time.Time
	result          json.RawMessage // completed: the call's result
	err             json.RawMessage // failed: the JSON-RPC error
}

// New adds the extension to srv: it advertises it in srv's capabilities,
// which must happen before srv serves. Serve srv's streamable HTTP handler
// through Handler.
func New(srv *server.MCPServer, opts Options) *Tasks {
	if opts.TTL <= 0 {
		opts.TTL = DefaultTTL
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = DefaultPollInterval
	}
	if opts.MaxTasks <= 0 {
		opts.MaxTasks = DefaultMaxTasks
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	server.WithExtensions(map[string]any{Extension: map[string]any{}})(srv)
	return &Tasks{srv: srv, opts: opts, log: log.With("component", "mcp_tasks"), now: time.Now, tasks: map[string]*task{}}
}

// Close cancels the tasks still running and waits for them to end.
func (t *Tasks) Close() {
	t.mu.Lock()
	t.closed = true
	for _, tk := range t.tasks {
		tk.cancel() // a task still working is kept in t.tasks until it ends
	}
	t.mu.Unlock()
	t.wg.Wait()
}

type taskKey struct{}

// SetStatusMessage sets the statusMessage of the task whose call ctx
// belongs to (what tasks/get reports while it runs, e.g. its progress); it
// does nothing outside a task.
func SetStatusMessage(ctx context.Context, msg string) {
	h, ok := ctx.Value(taskKey{}).(*taskHandle)
	if !ok {
		return
	}
	h.t.mu.Lock()
	defer h.t.mu.Unlock()
	if h.task.status == StatusWorking {
		h.task.message, h.task.updated = msg, h.t.now()
	}
}

type taskHandle struct {
	t    *Tasks
	task *task
}

// isTaskTool reports whether calls of the tool become tasks.
func (t *Tasks) isTaskTool(name string) bool {
	return slices.Contains(t.opts.Tools, name) || slices.Contains(t.opts.Required, name)
}

// ownerOf is who may read a task created by r: its Authorization header,
// hashed (never kept in clear).
func ownerOf(r *http.Request) string {
	a := r.Header.Get("Authorization")
	if a == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(a))
	return hex.EncodeToString(sum[:])
}

// start stores a new task for a call, runs the call through the server's
// HandleMessage and returns the task as created; false when the server is
// closing or no slot is free (the call then runs synchronously).
func (t *Tasks) start(r *http.Request, tool string, inner []byte) (task, bool) {
	now := t.now()
	tk := &task{id: rand.Text(), owner: ownerOf(r), tool: tool, created: now, updated: now, status: StatusWorking}
	t.mu.Lock()
	t.sweepLocked(now)
	if t.closed {
		t.mu.Unlock()
		return task{}, false
	}
	if len(t.tasks) >= t.opts.MaxTasks {
		t.mu.Unlock()
		t.log.Warn("task not created: every slot holds a readable task; the call runs synchronously",
			"event", "task_slots_full", "tool", tool, "max_tasks", t.opts.MaxTasks)
		return task{}, false
	}
	ctx := context.WithoutCancel(r.Context())
	if t.opts.ContextFunc != nil {
		ctx = t.opts.ContextFunc(ctx, r)
	}
	ctx, tk.cancel = context.WithCancel(ctx)
	ctx = context.WithValue(ctx, taskKey{}, &taskHandle{t: t, task: tk})
	t.tasks[tk.id] = tk
	created := *tk
	t.wg.Add(1)
	t.mu.Unlock()
	t.log.Info("task created", "event", "task_created", "task_id", tk.id, "tool", tool)

	go func() {
		defer t.wg.Done()
		defer tk.cancel()
		resp := t.call(ctx, inner)
		t.finish(tk, resp)
	}()
	return created, true
}

// call runs one JSON-RPC request through the server, turning a panic into
// an internal error.
func (t *Tasks) call(ctx context.Context, inner []byte) (resp mcp.JSONRPCMessage) {
	defer func() {
		if p := recover(); p != nil {
			t.log.Error("task call panicked", "event", "task_panic", "panic", p)
			resp = mcp.NewJSONRPCError(mcp.NewRequestId(nil), mcp.INTERNAL_ERROR, "the call failed inside the server", nil)
		}
	}()
	return t.srv.HandleMessage(ctx, inner)
}

// finish records the outcome of a task's call, unless it was cancelled.
func (t *Tasks) finish(tk *task, resp mcp.JSONRPCMessage) {
	raw, err := json.Marshal(resp)
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err == nil {
		err = json.Unmarshal(raw, &msg)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if tk.status != StatusWorking {
		return // cancelled meanwhile: its outcome is not reported
	}
	tk.updated, tk.message = t.now(), ""
	switch {
	case err == nil && len(msg.Error) > 0:
		tk.status, tk.err = StatusFailed, msg.Error
	case err == nil && len(msg.Result) > 0:
		tk.status, tk.result = StatusCompleted, msg.Result
	default:
		tk.status, tk.err = StatusFailed, mustJSON(mcp.JSONRPCErrorDetails{Code: mcp.INTERNAL_ERROR, Message: "the call gave no result"})
	}
	t.log.Info("task finished", "event", "task_finished", "task_id", tk.id, "tool", tk.tool, "status", tk.status,
		"duration_ms", float64(tk.updated.Sub(tk.created).Microseconds())/1000)
}

// get returns a copy of the task the owner may read, or false.
func (t *Tasks) get(id, owner string) (task, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sweepLocked(t.now())
	tk, ok := t.tasks[id]
	if !ok || tk.owner != owner {
		return task{}, false
	}
	return *tk, true
}

// cancelTask stops a working task (it becomes cancelled at once); a task
// already over is left as it is. False when the owner has no such task.
func (t *Tasks) cancelTask(id, owner string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	tk, ok := t.tasks[id]
	if !ok || tk.owner != owner {
		return false
	}
	if tk.status == StatusWorking {
		tk.status, tk.message, tk.updated = StatusCancelled, "cancelled by the client", t.now()
		tk.cancel()
		t.log.Info("task cancelled", "event", "task_cancelled", "task_id", tk.id, "tool", tk.tool)
	}
	return true
}

// sweepLocked forgets the tasks that are over and past their TTL.
func (t *Tasks) sweepLocked(now time.Time) {
	for id, tk := range t.tasks {
		if tk.status != StatusWorking && now.Sub(tk.created) > t.opts.TTL {
			delete(t.tasks, id)
		}
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only fixed shapes are marshalled
	}
	return b
}
