package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"talk2tables/orchestrator"
	"talk2tables/sqlerr"
)

// queryRequest is the body of POST /api/query.
type queryRequest struct {
	Question string `json:"question"`
	MaxRows  *int   `json:"max_rows"`
}

// sqlRequest is the body of POST /api/sql.
type sqlRequest struct {
	SQL     string `json:"sql"`
	MaxRows *int   `json:"max_rows"`
	// Server names the executor to run on; empty is the top-priority one.
	Server string `json:"server"`
}

// maxSQLLength bounds the SQL of POST /api/sql (characters).
const maxSQLLength = 20000

// progressEvent is the data of an SSE progress event.
type progressEvent struct {
	Stage    string          `json:"stage"`
	Attempt  int             `json:"attempt,omitempty"`
	Category sqlerr.Category `json:"category,omitempty"`
	Message  string          `json:"message,omitempty"`
}

// sseStages are the progress stages sent as their own event names.
var sseStages = map[string]bool{"gathering": true, "generating": true, "validating": true, "executing": true, "retry": true}

// sseHeartbeat is how often a comment line keeps an idle stream open
// through proxies.
const sseHeartbeat = 15 * time.Second

// handleQuery answers POST /api/query: a QueryResult as JSON, or progress
// events then the result as SSE when the client accepts text/event-stream.
func (a *api) handleQuery(c *gin.Context) {
	var req queryRequest
	if err := decodeJSON(c, &req, true); err != nil {
		a.fail(c, err, nil)
		return
	}
	q, err := a.parseQuery(req)
	if err != nil {
		a.fail(c, err, nil)
		return
	}
	q.OperationID = requestIDOf(c)
	a.logQueryReceived(c, q, "api")
	if wantsEventStream(c.Request) {
		a.streamQuery(c, q)
		return
	}
	res, err := a.orch.Process(c.Request.Context(), q)
	if err != nil {
		a.fail(c, err, res)
		return
	}
	c.PureJSON(http.StatusOK, res)
}

// parseQuery validates a query request.
func (a *api) parseQuery(req queryRequest) (orchestrator.Query, error) {
	question, err := checkQuestion(req.Question, "question", a.cfg.MaxQuestionLength)
	if err != nil {
		return orchestrator.Query{}, err
	}
	maxRows, err := a.checkMaxRows(req.MaxRows)
	if err != nil {
		return orchestrator.Query{}, err
	}
	return orchestrator.Query{Question: question, MaxRows: maxRows}, nil
}

// logQueryReceived logs the query_received event (the question, capped;
// never rows or credentials).
func (a *api) logQueryReceived(c *gin.Context, q orchestrator.Query, via string) {
	question := q.Question
	if r := []rune(question); len(r) > 200 {
		question = string(r[:200]) + "…"
	}
	a.logger.Info("query received", "event", "query_received", "operation_id", q.OperationID,
		"via", via, "client", clientOf(c), "question", question, "max_rows", q.MaxRows)
}

// wantsEventStream reports whether the client asked for SSE.
func wantsEventStream(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// sseWriter writes SSE events, one at a time, flushing each.
type sseWriter struct {
	mu     sync.Mutex
	c      *gin.Context
	closed bool
}

// event writes one event; after close it does nothing.
func (w *sseWriter) event(name string, data any) {
	b, err := marshalJSON(data)
	if err != nil { // our own types: cannot happen
		b = []byte(`{}`)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	_, _ = w.c.Writer.WriteString("event: " + name + "\ndata: ")
	_, _ = w.c.Writer.Write(b)
	_, _ = w.c.Writer.WriteString("\n\n")
	w.c.Writer.Flush()
}

// comment writes an SSE comment line (a heartbeat).
func (w *sseWriter) comment(text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	_, _ = w.c.Writer.WriteString(": " + text + "\n\n")
	w.c.Writer.Flush()
}

// close stops further writes (late progress callbacks are dropped).
func (w *sseWriter) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
}

// streamQuery runs q and streams its progress as SSE, ending with a "done"
// event carrying the QueryResult or an "error" event carrying the error
// body.
func (a *api) streamQuery(c *gin.Context, q orchestrator.Query) {
	h := c.Writer.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	c.Status(http.StatusOK)
	w := &sseWriter{c: c}
	w.comment("talk2tables " + q.OperationID)

	q.Progress = func(p orchestrator.Progress) {
		name := p.Stage
		if !sseStages[name] {
			name = "progress"
		}
		w.event(name, progressEvent{Stage: p.Stage, Attempt: p.Attempt, Category: p.Category, Message: p.Message})
	}
	stop := make(chan struct{})
	var heartbeats sync.WaitGroup
	heartbeats.Go(func() {
		t := time.NewTicker(sseHeartbeat)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				w.comment("ping")
			}
		}
	})
	res, err := a.orch.Process(c.Request.Context(), q)
	close(stop)
	heartbeats.Wait()
	if ctx := c.Request.Context(); ctx.Err() != nil && !errors.Is(context.Cause(ctx), ErrShuttingDown) {
		// The client went away mid-stream: the 200 header is long gone, but
		// the access log should say what happened, as it does for JSON.
		c.Set(statusClientClosed, true)
		return
	}
	if err != nil {
		w.event("error", a.errorEvent(c, err, res))
	} else {
		w.event("done", res)
	}
	w.close()
}

// handleSQL answers POST /api/sql: analyst-written read-only SQL run on the
// executor named by "server", else the top-priority one.
func (a *api) handleSQL(c *gin.Context) {
	var req sqlRequest
	if err := decodeJSON(c, &req, true); err != nil {
		a.fail(c, err, nil)
		return
	}
	sql, err := checkQuestion(req.SQL, "sql", maxSQLLength)
	if err != nil {
		a.fail(c, err, nil)
		return
	}
	maxRows, err := a.checkMaxRows(req.MaxRows)
	if err != nil {
		a.fail(c, err, nil)
		return
	}
	data, err := a.orch.ExecuteSQLOn(c.Request.Context(), strings.TrimSpace(req.Server), sql, maxRows, requestIDOf(c))
	if err != nil {
		a.fail(c, err, nil)
		return
	}
	c.PureJSON(http.StatusOK, data)
}
