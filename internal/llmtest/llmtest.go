// Package llmtest runs a scripted OpenAI-compatible chat-completions server
// over real HTTP (httptest) for tests. The real langchaingo openai client
// talks to it exactly as it would talk to OpenAI, vLLM or llama.cpp:
//
//	s := llmtest.New(t, llmtest.Step{Content: llmtest.Plan("SELECT 1", nil, "one")})
//	llm, _ := openai.New(openai.WithBaseURL(s.URL), openai.WithToken("test"), openai.WithModel("m"))
//
// Steps are answered in order; a request after the last step gets a 500
// "script exhausted" so a test notices unexpected calls. NewResponder answers
// every request with a function instead, for unbounded or concurrent use.
// Everything is safe for concurrent use.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Step is one scripted answer.
type Step struct {
	// Content is the assistant message for a 200 answer, or the error message
	// for a non-200 one (a default message is used when empty).
	Content string
	// Status is the HTTP status; 0 means 200.
	Status int
	// RetryAfter, when set, is sent as the Retry-After header (seconds or an
	// HTTP date).
	RetryAfter string
	// Delay is waited before answering. The wait ends early when the client
	// cancels the request (or the server is closed).
	Delay time.Duration
	// PromptTokens and CompletionTokens override the usage reported for a 200
	// answer. Zero means an estimate (about four characters per token).
	PromptTokens     int
	CompletionTokens int
	// Raw, when set, is sent as the whole body of a 200 answer (JSON
	// content type), whatever it holds: a broken or foreign answer.
	Raw string
	// PadBytes, when positive, makes a 200 chat completion that many bytes
	// longer: spaces after Content inside the message, written in chunks
	// as they go, so the server never holds them (an LLM answering 200 MB).
	PadBytes int64
}

// Message is one chat message of a recorded request.
type Message struct {
	Role    string
	Content string
}

// Request is a recorded chat-completions request.
type Request struct {
	Model    string
	Messages []Message
	// JSONMode reports whether response_format {"type":"json_object"} was asked.
	JSONMode bool
	// Stream reports whether "stream": true was asked.
	Stream bool
	// Authorization is the Authorization header as received.
	Authorization string
	// Path is the URL path the request was sent to.
	Path string
}

// System returns the content of the request's system messages, joined by
// newlines.
func (r Request) System() string { return r.joined("system") }

// User returns the content of the request's user messages, joined by
// newlines.
func (r Request) User() string { return r.joined("user") }

func (r Request) joined(role string) string {
	var parts []string
	for _, m := range r.Messages {
		if m.Role == role {
			parts = append(parts, m.Content)
		}
	}
	return strings.Join(parts, "\n")
}

// Server is a scripted OpenAI-compatible server.
type Server struct {
	// URL is the base URL to configure as base_url; it ends in /v1.
	URL string

	srv     *httptest.Server
	done    chan struct{}
	respond func(Request) Step
	seq     atomic.Int64
	conns   atomic.Int64 // TCP connections accepted

	mu       sync.Mutex
	steps    []Step
	next     int
	requests []Request
}

// New starts a server that answers with steps in order. It is closed when the
// test ends.
func New(tb testing.TB, steps ...Step) *Server {
	tb.Helper()
	s := &Server{steps: append([]Step(nil), steps...)}
	s.start(tb)
	return s
}

// NewResponder starts a server that answers every request with fn(request).
// fn must be safe for concurrent use. The server is closed when the test ends.
func NewResponder(tb testing.TB, fn func(r Request) Step) *Server {
	tb.Helper()
	if fn == nil {
		tb.Fatal("llmtest.NewResponder: nil responder")
	}
	s := &Server{respond: fn}
	s.start(tb)
	return s
}

func (s *Server) start(tb testing.TB) {
	tb.Helper()
	s.done = make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", s.handleChat)
	mux.HandleFunc("/chat/completions", s.handleChat)
	mux.HandleFunc("/v1/models", s.handleModels)
	s.srv = httptest.NewUnstartedServer(mux)
	s.srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.srv.Start()
	s.URL = s.srv.URL + "/v1"
	tb.Cleanup(s.Close)
}

// Close stops the server. Pending delays end at once. It is safe to call more
// than once.
func (s *Server) Close() {
	s.mu.Lock()
	select {
	case <-s.done:
		s.mu.Unlock()
		return
	default:
		close(s.done)
	}
	s.mu.Unlock()
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Requests returns a copy of every request received so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, r := range s.requests {
		r.Messages = append([]Message(nil), r.Messages...)
		out[i] = r
	}
	return out
}

// Conns returns how many TCP connections clients have opened to the server
// so far, to check that a client keeps its connections alive.
func (s *Server) Conns() int { return int(s.conns.Load()) }

// Remaining returns how many scripted steps have not been consumed yet (0 for
// a responder server).
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.steps) - s.next
}

// Plan returns the text of the response contract
// {"sql", "resolved_entities", "explanation", "confidence"} (confidence 0.9).
func Plan(sql string, entities map[string]map[string]string, explanation string) string {
	if entities == nil {
		entities = map[string]map[string]string{}
	}
	b, err := json.Marshal(struct {
		SQL              string                       `json:"sql"`
		ResolvedEntities map[string]map[string]string `json:"resolved_entities"`
		Explanation      string                       `json:"explanation"`
		Confidence       float64                      `json:"confidence"`
	}{sql, entities, explanation, 0.9})
	if err != nil { // cannot happen for these types
		panic(err)
	}
	return string(b)
}

// wireRequest is the part of an OpenAI chat request the server reads.
// Content is decoded as any in the same pass as the rest of the body (a
// json.RawMessage decoded again afterwards would scan the prompt twice more).
type wireRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"messages"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format"`
	Stream        bool `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// content returns a decoded message content: a string, or the joined
// "text" members of an array of parts; null is empty, anything else its
// JSON text.
func content(v any) string {
	switch c := v.(type) {
	case nil:
		return ""
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, p := range c {
			if m, ok := p.(map[string]any); ok {
				if t, ok := m["text"].(string); ok {
					b.WriteString(t)
				}
			}
		}
		return b.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func (s *Server) handleModels(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"object": "list",
		"data":   []map[string]any{{"id": "scripted", "object": "model", "owned_by": "llmtest"}},
	})
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		writeError(w, http.StatusMethodNotAllowed, "", "method "+r.Method+" not allowed; use POST")
		return
	}
	var wr wireRequest
	if err := json.NewDecoder(r.Body).Decode(&wr); err != nil {
		writeError(w, http.StatusBadRequest, "", "invalid JSON body: "+err.Error())
		return
	}
	req := Request{
		Model:         wr.Model,
		JSONMode:      wr.ResponseFormat != nil && wr.ResponseFormat.Type == "json_object",
		Stream:        wr.Stream,
		Authorization: r.Header.Get("Authorization"),
		Path:          r.URL.Path,
	}
	for _, m := range wr.Messages {
		req.Messages = append(req.Messages, Message{Role: m.Role, Content: content(m.Content)})
	}

	step, ok := s.step(req)
	if !ok {
		writeError(w, http.StatusInternalServerError, "", "script exhausted")
		return
	}
	if step.Delay > 0 && !s.delay(r, step.Delay) {
		return
	}
	status := step.Status
	if status == 0 {
		status = http.StatusOK
	}
	if status != http.StatusOK {
		if step.RetryAfter != "" {
			w.Header().Set("Retry-After", step.RetryAfter)
		}
		writeError(w, status, step.Content, "")
		return
	}

	s.writeAnswer(w, wr, req, step)
}

// delay waits d before answering; false when the request or the server
// ended first.
func (s *Server) delay(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		t.Stop()
		return false
	case <-s.done:
		t.Stop()
		return false
	}
}

// writeAnswer writes a successful step: its raw body, a padded answer, a
// stream of chunks, or one chat completion.
func (s *Server) writeAnswer(w http.ResponseWriter, wr wireRequest, req Request, step Step) {
	if step.Raw != "" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, step.Raw)
		return
	}
	if step.PadBytes > 0 {
		writePadded(w, wr.Model, step.Content, step.PadBytes)
		return
	}
	id := fmt.Sprintf("chatcmpl-llmtest-%d", s.seq.Add(1))
	usage := usageFor(req, step)
	model := wr.Model
	if model == "" {
		model = "scripted"
	}
	if wr.Stream {
		includeUsage := wr.StreamOptions != nil && wr.StreamOptions.IncludeUsage
		writeStream(w, id, model, step.Content, usage, includeUsage)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id":      id,
		"object":  "chat.completion",
		"created": time.Now().Unix(),
		"model":   model,
		"choices": []map[string]any{{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": step.Content},
			"finish_reason": "stop",
		}},
		"usage": usage,
	})
}

// step records req and picks its answer.
func (s *Server) step(req Request) (Step, bool) {
	s.mu.Lock()
	s.requests = append(s.requests, req)
	if s.respond != nil {
		s.mu.Unlock()
		return s.respond(req), true
	}
	defer s.mu.Unlock()
	if s.next >= len(s.steps) {
		return Step{}, false
	}
	st := s.steps[s.next]
	s.next++
	return st, true
}

type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func usageFor(req Request, st Step) usage {
	p, c := st.PromptTokens, st.CompletionTokens
	if p == 0 {
		n := 0
		for _, m := range req.Messages {
			n += len(m.Content)
		}
		p = n/4 + 1
	}
	if c == 0 {
		c = len(st.Content)/4 + 1
	}
	return usage{PromptTokens: p, CompletionTokens: c, TotalTokens: p + c}
}

// writePadded answers a chat completion whose message is content followed
// by pad spaces, streamed in 64 KiB chunks with no Content-Length (the
// client cannot tell the size before reading); it stops when the client
// goes away.
func writePadded(w http.ResponseWriter, model, content string, pad int64) {
	text, _ := json.Marshal(content)
	head := `{"id":"chatcmpl-llmtest-padded","object":"chat.completion","created":` + fmt.Sprint(time.Now().Unix()) +
		`,"model":` + strconvQuote(model) + `,"choices":[{"index":0,"message":{"role":"assistant","content":` +
		string(text[:len(text)-1])
	tail := `"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if _, err := io.WriteString(w, head); err != nil {
		return
	}
	chunk := []byte(strings.Repeat(" ", 64<<10))
	for pad > 0 {
		n := min(pad, int64(len(chunk)))
		if _, err := w.Write(chunk[:n]); err != nil {
			return
		}
		pad -= n
	}
	_, _ = io.WriteString(w, tail)
}

// strconvQuote is s as a JSON string.
func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// writeStream answers in server-sent events the way OpenAI streams: a role
// chunk, content chunks, a finish chunk, an optional usage chunk, [DONE].
func writeStream(w http.ResponseWriter, id, model, text string, u usage, includeUsage bool) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	created := time.Now().Unix()
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}},
		}
	}
	send(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for _, piece := range split(text, 16) {
		send(chunk(map[string]any{"content": piece}, nil))
	}
	send(chunk(map[string]any{}, "stop"))
	if includeUsage {
		send(map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{}, "usage": u,
		})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}

// split cuts s into pieces of at most n runes.
func split(s string, n int) []string {
	var out []string
	r := []rune(s)
	for len(r) > n {
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	if len(r) > 0 {
		out = append(out, string(r))
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError writes an OpenAI-style error body {"error":{"message","type","code"}}.
func writeError(w http.ResponseWriter, status int, msg, fallback string) {
	typ, code, def := "server_error", "server_error", "The server had an error while processing your request."
	switch {
	case status == http.StatusUnauthorized:
		typ, code, def = "invalid_request_error", "invalid_api_key", "Incorrect API key provided."
	case status == http.StatusForbidden:
		typ, code, def = "invalid_request_error", "forbidden", "You are not allowed to use this model."
	case status == http.StatusNotFound:
		typ, code, def = "invalid_request_error", "model_not_found", "The model does not exist."
	case status == http.StatusTooManyRequests:
		typ, code, def = "requests", "rate_limit_exceeded", "Rate limit reached for requests."
	case status >= 400 && status < 500:
		typ, code, def = "invalid_request_error", "invalid_request", "Invalid request."
	case status == http.StatusServiceUnavailable:
		def = "The server is overloaded or not ready yet."
	}
	if fallback != "" {
		def = fallback
	}
	if msg == "" {
		msg = def
	}
	writeJSON(w, status, map[string]any{
		"error": map[string]any{"message": msg, "type": typ, "code": code},
	})
}
