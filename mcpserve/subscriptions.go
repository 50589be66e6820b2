package mcpserve

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The subscription acknowledgement comes first.
//
// A 2026-07-28 subscriptions/listen request is answered on an SSE stream
// whose first message must be notifications/subscriptions/acknowledged. In
// mcp-go v1.2.1 the handler queues that notification on the request's
// session and returns; when it asked for nothing the server offers, it
// returns at once. The streamable HTTP transport then drains the queue and
// writes the result, while a forwarder goroutine also reads the queue: if
// the forwarder has taken the acknowledgement but not yet written it when
// the drain runs, the drain finds the queue empty, writes the result and
// ends the request, and the forwarder drops the acknowledgement
// (server/streamable_http.go, handlePost: the forwarder's "case <-done"
// after the drain's close(done)). About 1 request in 20 lost it.
//
// mcpserve works around it without changing mcp-go: a listen request's
// response writer records its first write, and a hook that runs after the
// handler, before the transport drains the queue, waits for that write —
// the forwarder writing the acknowledgement — so the drain always starts
// with the acknowledgement on the wire.

// ackWait bounds how long the hook waits for the acknowledgement to be
// written (the forwarder writes it within microseconds; a client gone or a
// response that cannot stream must not hold the request).
const ackWait = 2 * time.Second

type firstWriteKey struct{}

// firstWrite is closed by the response writer's first write.
type firstWrite struct {
	once sync.Once
	ch   chan struct{}
}

func (f *firstWrite) wrote() { f.once.Do(func() { close(f.ch) }) }

// trackingWriter reports its first write; it streams like the writer it wraps.
type trackingWriter struct {
	http.ResponseWriter
	first *firstWrite
}

func (w *trackingWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	w.first.wrote()
	return n, err
}

func (w *trackingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *trackingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// trackListen wraps the writer of a subscriptions/listen request (the
// 2026-07-28 Mcp-Method header names it) and puts its first-write signal in
// the request's context, where the hook finds it.
func trackListen(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, *http.Request) {
	if r.Method != http.MethodPost || r.Header.Get("Mcp-Method") != string(mcp.MethodSubscriptionsListen) {
		return w, r
	}
	if _, ok := w.(http.Flusher); !ok {
		return w, r // no stream, no acknowledgement to wait for
	}
	f := &firstWrite{ch: make(chan struct{})}
	return &trackingWriter{ResponseWriter: w, first: f}, r.WithContext(context.WithValue(r.Context(), firstWriteKey{}, f))
}

// ackHooked remembers the servers whose hooks wait for the acknowledgement,
// so a server behind several handlers gets the hook once.
var ackHooked sync.Map // *server.MCPServer → struct{}

// hookAckFirst adds to s the hook that waits, after subscriptions/listen
// returns, until the acknowledgement is written. It must run before s
// serves: mcp-go's hooks are not safe to add while requests run.
func hookAckFirst(s *server.MCPServer) {
	if _, done := ackHooked.LoadOrStore(s, struct{}{}); done {
		return
	}
	hooks := s.GetHooks()
	if hooks == nil {
		hooks = &server.Hooks{}
		server.WithHooks(hooks)(s)
	}
	hooks.AddAfterSubscriptionsListen(func(ctx context.Context, _ any, _ *mcp.SubscriptionsListenRequest, _ *mcp.SubscriptionsListenResult) {
		f, ok := ctx.Value(firstWriteKey{}).(*firstWrite)
		if !ok {
			return
		}
		t := time.NewTimer(ackWait)
		defer t.Stop()
		select {
		case <-f.ch:
		case <-ctx.Done():
		case <-t.C:
		}
	})
}
