package sqlgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"talk2tables/internal/llmtest"
	"talk2tables/sqlerr"
)

const goodSQL = "SELECT SUM(s.total_amount) FROM sales s WHERE s.product_id = 123"

// newTestLLM builds an openai generator against s with fast retries.
func newTestLLM(tb testing.TB, s *llmtest.Server, mod func(*LLMOptions)) *LLM {
	tb.Helper()
	o := LLMOptions{Provider: "openai", Model: "m", BaseURL: s.URL, APIKey: "sk-test", MaxRetries: 2,
		RetryBaseDelay: time.Millisecond, Timeout: 5 * time.Second}
	if mod != nil {
		mod(&o)
	}
	l, err := NewLLM(o, nil)
	if err != nil {
		tb.Fatalf("NewLLM: %v", err)
	}
	return l
}

// recordSleeps replaces l's sleep with one that records waits and returns at
// once, so Retry-After handling is observable without waiting.
func recordSleeps(l *LLM) func() []time.Duration {
	var mu sync.Mutex
	var waits []time.Duration
	l.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		waits = append(waits, d)
		mu.Unlock()
		return ctx.Err()
	}
	return func() []time.Duration {
		mu.Lock()
		defer mu.Unlock()
		return append([]time.Duration(nil), waits...)
	}
}

func wantGenErr(tb testing.TB, err error, reason Reason, msgPart string) *SQLGenerationError {
	tb.Helper()
	var ge *SQLGenerationError
	if !errors.As(err, &ge) {
		tb.Fatalf("err = %v, want *SQLGenerationError(%s)", err, reason)
	}
	if ge.Reason != reason {
		tb.Fatalf("reason = %s (%v), want %s", ge.Reason, err, reason)
	}
	if !strings.Contains(ge.Message, msgPart) {
		tb.Errorf("message = %q, want containing %q", ge.Message, msgPart)
	}
	return ge
}

func TestLLMSuccess(t *testing.T) {
	s := llmtest.New(t, llmtest.Step{
		Content:      llmtest.Plan(goodSQL, map[string]map[string]string{"abracadabra": {"products.product_id": "123"}}, "sum for 123"),
		PromptTokens: 120, CompletionTokens: 30,
	})
	l := newTestLLM(t, s, nil)
	if l.Name() != "openai:m" {
		t.Errorf("Name = %q, want openai:m", l.Name())
	}
	p, err := l.Generate(context.Background(), sampleRequest())
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if p.SQL != goodSQL || p.ResolvedEntities["abracadabra"]["products.product_id"] != "123" || p.Explanation != "sum for 123" {
		t.Errorf("plan = %+v", p)
	}
	if p.Confidence != 0.9 || p.Generator != "openai:m" || p.Fallback {
		t.Errorf("confidence %v generator %q fallback %v", p.Confidence, p.Generator, p.Fallback)
	}
	if want := (Usage{PromptTokens: 120, CompletionTokens: 30, TotalTokens: 150}); p.Usage != want {
		t.Errorf("usage = %+v, want %+v", p.Usage, want)
	}
	reqs := s.Requests()
	if len(reqs) != 1 {
		t.Fatalf("requests = %d, want 1", len(reqs))
	}
	r := reqs[0]
	if !r.JSONMode || r.Model != "m" || r.Authorization != "Bearer sk-test" {
		t.Errorf("request json=%v model=%q auth=%q", r.JSONMode, r.Model, r.Authorization)
	}
	system, user := BuildPrompt(sampleRequest())
	if r.System() != system || r.User() != user {
		t.Error("request messages are not the built prompt")
	}
}

func TestLLMResponseShapes(t *testing.T) {
	tests := []struct {
		name    string
		content string
		wantSQL string
		reason  Reason
	}{
		{"json inside prose", "Here is my answer:\n" + llmtest.Plan(goodSQL, nil, "x") + "\nThanks.", goodSQL, ""},
		{"fenced sql", "I could not do JSON.\n```sql\n" + goodSQL + ";\n```", goodSQL, ""},
		{"garbage", "The weather is nice today.", "", ReasonInvalidSQL},
		// A write is returned as SQL: the orchestrator's attempt loop records
		// and refuses it (PERMISSION_ERROR) without executing it.
		{"write statement", llmtest.Plan("DROP TABLE sales", nil, "oops"), "DROP TABLE sales", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t, llmtest.Step{Content: tt.content, PromptTokens: 10, CompletionTokens: 2})
			p, err := newTestLLM(t, s, nil).Generate(context.Background(), sampleRequest())
			if tt.reason != "" {
				wantGenErr(t, err, tt.reason, "")
				if p.Usage.TotalTokens != 12 || p.Generator != "openai:m" {
					t.Errorf("failed plan usage %+v generator %q, want tokens kept", p.Usage, p.Generator)
				}
			} else if err != nil || p.SQL != tt.wantSQL {
				t.Fatalf("Generate = %q, %v; want %q", p.SQL, err, tt.wantSQL)
			}
			if n := len(s.Requests()); n != 1 {
				t.Errorf("requests = %d, want 1 (parse failures are not retried here)", n)
			}
		})
	}
}

func TestLLMRetryAfterThenOK(t *testing.T) {
	s := llmtest.New(t,
		llmtest.Step{Status: http.StatusTooManyRequests, RetryAfter: "1"},
		llmtest.Step{Content: llmtest.Plan(goodSQL, nil, "ok")},
	)
	l := newTestLLM(t, s, nil)
	waits := recordSleeps(l)
	p, err := l.Generate(context.Background(), sampleRequest())
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if p.SQL != goodSQL {
		t.Errorf("SQL = %q", p.SQL)
	}
	if n := len(s.Requests()); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
	if got := waits(); len(got) != 1 || got[0] != time.Second {
		t.Errorf("waits = %v, want [1s] from Retry-After", got)
	}
}

func TestLLMRetryAfterRealWait(t *testing.T) {
	// The real sleep path: a Retry-After of 0.05 s, then success.
	s := llmtest.New(t,
		llmtest.Step{Status: http.StatusServiceUnavailable, RetryAfter: "0.05"},
		llmtest.Step{Content: llmtest.Plan(goodSQL, nil, "ok")},
	)
	if _, err := newTestLLM(t, s, nil).Generate(context.Background(), sampleRequest()); err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if n := len(s.Requests()); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
}

func TestLLMRetryAfterCappedAndDate(t *testing.T) {
	date := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
	s := llmtest.New(t,
		llmtest.Step{Status: http.StatusTooManyRequests, RetryAfter: "120"},
		llmtest.Step{Status: http.StatusTooManyRequests, RetryAfter: date},
		llmtest.Step{Content: llmtest.Plan(goodSQL, nil, "ok")},
	)
	l := newTestLLM(t, s, func(o *LLMOptions) { o.MaxRetryDelay = 2 * time.Second })
	waits := recordSleeps(l)
	if _, err := l.Generate(context.Background(), sampleRequest()); err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if got := waits(); len(got) != 2 || got[0] != 2*time.Second || got[1] != 2*time.Second {
		t.Errorf("waits = %v, want [2s 2s] (capped)", got)
	}
}

func TestLLMRetryAfterPastDeadline(t *testing.T) {
	s := llmtest.New(t, llmtest.Step{Status: http.StatusTooManyRequests, RetryAfter: "20"})
	l := newTestLLM(t, s, nil)
	waits := recordSleeps(l)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err := l.Generate(ctx, sampleRequest())
	wantGenErr(t, err, ReasonLLMCommunication, "deadline")
	if got := waits(); len(got) != 0 {
		t.Errorf("waits = %v, want none (the wait would pass the deadline)", got)
	}
	if n := len(s.Requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

func TestLLMServerErrorsExhaustRetries(t *testing.T) {
	const maxRetries = 2
	steps := make([]llmtest.Step, maxRetries+1)
	for i := range steps {
		steps[i] = llmtest.Step{Status: http.StatusInternalServerError, Content: "overloaded"}
	}
	s := llmtest.New(t, steps...)
	l := newTestLLM(t, s, func(o *LLMOptions) { o.MaxRetries = maxRetries })
	waits := recordSleeps(l)
	_, err := l.Generate(context.Background(), sampleRequest())
	ge := wantGenErr(t, err, ReasonLLMCommunication, "3 attempt(s)")
	if !strings.Contains(ge.Err.Error(), "500") || !strings.Contains(ge.Err.Error(), "overloaded") {
		t.Errorf("cause = %v, want the last HTTP 500 error", ge.Err)
	}
	if n := len(s.Requests()); n != maxRetries+1 {
		t.Errorf("requests = %d, want %d", n, maxRetries+1)
	}
	got := waits()
	if len(got) != maxRetries {
		t.Fatalf("waits = %v, want %d backoffs", got, maxRetries)
	}
	for i, w := range got {
		lo, hi := time.Millisecond<<i/2, time.Millisecond<<i
		if w < lo || w > hi {
			t.Errorf("backoff %d = %v, want in [%v, %v]", i, w, lo, hi)
		}
	}
}

func TestLLMNoRetries(t *testing.T) {
	s := llmtest.New(t, llmtest.Step{Status: http.StatusBadGateway})
	l := newTestLLM(t, s, func(o *LLMOptions) { o.MaxRetries = -1 })
	_, err := l.Generate(context.Background(), sampleRequest())
	wantGenErr(t, err, ReasonLLMCommunication, "1 attempt(s)")
	if n := len(s.Requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

func TestLLMPerCallTimeout(t *testing.T) {
	s := llmtest.New(t,
		llmtest.Step{Content: "late", Delay: time.Minute},
		llmtest.Step{Content: "late", Delay: time.Minute},
	)
	l := newTestLLM(t, s, func(o *LLMOptions) { o.Timeout = 50 * time.Millisecond; o.MaxRetries = 1 })
	_, err := l.Generate(context.Background(), sampleRequest())
	ge := wantGenErr(t, err, ReasonLLMCommunication, "did not answer within 50ms (llm.timeout)")
	if !errors.Is(ge, ErrLLMTimeout) || errors.Is(ge, context.DeadlineExceeded) {
		// Not the question's own deadline: the caller tells its client
		// the LLM was slow, not that the question took too long.
		t.Errorf("err = %v, want it to wrap ErrLLMTimeout and not context.DeadlineExceeded", err)
	}
	if n := len(s.Requests()); n != 2 {
		t.Errorf("requests = %d, want 2 (timeout retried once)", n)
	}
}

func TestLLMQueryDeadline(t *testing.T) {
	s := llmtest.New(t, llmtest.Step{Content: "late", Delay: time.Minute})
	l := newTestLLM(t, s, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := l.Generate(ctx, sampleRequest())
	wantGenErr(t, err, ReasonLLMCommunication, "cancelled or ran out of time")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want it to wrap context.DeadlineExceeded", err)
	}
}

func TestLLMClientErrors(t *testing.T) {
	tests := []struct {
		name   string
		step   llmtest.Step
		reason Reason
		msg    []string
	}{
		{"unauthorized", llmtest.Step{Status: 401}, ReasonNotConfigured, []string{"API key", "OPENAI_API_KEY", "llm.api_key_env"}},
		{"forbidden", llmtest.Step{Status: 403}, ReasonNotConfigured, []string{"API key"}},
		{"model not found", llmtest.Step{Status: 404, Content: "The model `m` does not exist"}, ReasonLLMCommunication, []string{"HTTP 404", "does not exist", "llm.model"}},
		{"bad request", llmtest.Step{Status: 400, Content: "max_tokens is too large"}, ReasonLLMCommunication, []string{"HTTP 400", "max_tokens is too large"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t, tt.step)
			_, err := newTestLLM(t, s, nil).Generate(context.Background(), sampleRequest())
			ge := wantGenErr(t, err, tt.reason, "")
			for _, m := range tt.msg {
				if !strings.Contains(ge.Message, m) {
					t.Errorf("message = %q, want containing %q", ge.Message, m)
				}
			}
			if strings.Contains(err.Error(), "sk-test") {
				t.Error("error contains the API key")
			}
			if n := len(s.Requests()); n != 1 {
				t.Errorf("requests = %d, want 1 (not retried)", n)
			}
		})
	}
}

func TestLLMJSONModeRefused(t *testing.T) {
	s := llmtest.New(t,
		llmtest.Step{Status: 400, Content: "'response_format.type' must be 'json_schema' or 'text'"},
		llmtest.Step{Content: llmtest.Plan(goodSQL, nil, "ok")},
		llmtest.Step{Content: llmtest.Plan(goodSQL, nil, "ok")},
	)
	l := newTestLLM(t, s, func(o *LLMOptions) { o.MaxRetries = -1 })
	for i := range 2 {
		if _, err := l.Generate(context.Background(), sampleRequest()); err != nil {
			t.Fatalf("Generate %d: %v", i, err)
		}
	}
	reqs := s.Requests()
	if len(reqs) != 3 || !reqs[0].JSONMode || reqs[1].JSONMode || reqs[2].JSONMode {
		t.Errorf("json modes = %v, want [true false false]", jsonModes(reqs))
	}
}

func jsonModes(reqs []llmtest.Request) []bool {
	out := make([]bool, len(reqs))
	for i, r := range reqs {
		out[i] = r.JSONMode
	}
	return out
}

func TestLLMUnreachable(t *testing.T) {
	s := llmtest.New(t)
	url := s.URL
	s.Close()
	l := newTestLLM(t, s, func(o *LLMOptions) { o.BaseURL = url; o.MaxRetries = 1 })
	_, err := l.Generate(context.Background(), sampleRequest())
	ge := wantGenErr(t, err, ReasonLLMCommunication, url)
	if !strings.Contains(ge.Err.Error(), "cannot reach") {
		t.Errorf("cause = %v, want 'cannot reach'", ge.Err)
	}
}

func TestLLMRepairPromptSent(t *testing.T) {
	s := llmtest.New(t, llmtest.Step{Content: llmtest.Plan(goodSQL, nil, "fixed")})
	req := sampleRequest()
	req.Repair = &Repair{Attempt: 1, FailedSQL: "SELECT region, SUM(total_amount) FROM sales", Error: "column region ...",
		Category: sqlerr.AggregationError, Tried: []string{"SELECT region, SUM(total_amount) FROM sales"}}
	if _, err := newTestLLM(t, s, nil).Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	user := s.Requests()[0].User()
	if !strings.Contains(user, "REPAIR") || !strings.Contains(user, RepairInstruction(sqlerr.AggregationError)) {
		t.Errorf("repair prompt not sent:\n%s", user)
	}
}

func TestLLMConcurrent(t *testing.T) {
	s := llmtest.NewResponder(t, func(r llmtest.Request) llmtest.Step {
		_, after, _ := strings.Cut(r.User(), questionNote+":\n")
		var q string
		if err := json.Unmarshal([]byte(strings.SplitN(after, "\n", 2)[0]), &q); err != nil {
			return llmtest.Step{Status: 500, Content: "no question in the prompt"}
		}
		return llmtest.Step{Content: llmtest.Plan("SELECT '"+q+"'", nil, q)}
	})
	l := newTestLLM(t, s, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := sampleRequest()
			req.Question = fmt.Sprintf("q%d", i)
			p, err := l.Generate(context.Background(), req)
			if err == nil && p.SQL != "SELECT 'q"+fmt.Sprint(i)+"'" {
				err = fmt.Errorf("SQL = %q for q%d", p.SQL, i)
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// Concurrent questions reuse the generator's keep-alive connections: a
// second wave as wide as the first opens (almost) no new ones, where Go's
// default transport keeps only two idle connections per host. After
// CloseIdleConnections the next call dials again.
func TestLLMKeepsConnectionsAlive(t *testing.T) {
	const n = 16
	s := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step {
		// Long enough that a wave's calls overlap and each needs a connection.
		return llmtest.Step{Content: llmtest.Plan(goodSQL, nil, "ok"), Delay: 20 * time.Millisecond}
	})
	l := newTestLLM(t, s, nil)
	wave := func() {
		t.Helper()
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for range n {
			wg.Go(func() {
				if _, err := l.Generate(context.Background(), sampleRequest()); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("Generate: %v", err)
		}
	}
	wave()
	first := s.Conns()
	if first < 2 {
		t.Fatalf("first wave opened %d connections, want several (calls did not overlap)", first)
	}
	wave()
	// The second wave may overlap more than the first did on a busy
	// machine: the connections the first never needed are new by right;
	// beyond those, at most a quarter may be, or the idle pool dropped
	// connections the first wave left.
	if got, allowed := s.Conns()-first, max(n-first, 0)+n/4; got > allowed {
		t.Errorf("second wave opened %d new connections after the first opened %d, want <= %d (idle pool too small)",
			got, first, allowed)
	}
	before := s.Conns()
	l.CloseIdleConnections()
	if _, err := l.Generate(context.Background(), sampleRequest()); err != nil {
		t.Fatalf("Generate after CloseIdleConnections: %v", err)
	}
	if got := s.Conns() - before; got != 1 {
		t.Errorf("connections opened after CloseIdleConnections = %d, want 1", got)
	}
}

func TestNewLLMConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		opts LLMOptions
		msg  []string
	}{
		{"missing openai key", LLMOptions{Provider: "openai", Model: "gpt-4o-mini"}, []string{"OPENAI_API_KEY", "llm.api_key_env", "llm.provider: builtin"}},
		{"missing key local server", LLMOptions{Provider: "openai", Model: "m", BaseURL: "http://localhost:8000/v1", APIKeyEnv: "VLLM_KEY"}, []string{"VLLM_KEY", "any non-empty value"}},
		{"missing anthropic key", LLMOptions{Provider: "anthropic", Model: "claude"}, []string{"ANTHROPIC_API_KEY"}},
		{"no provider", LLMOptions{}, []string{"llm.provider", "builtin"}},
		{"unknown provider", LLMOptions{Provider: "googleai", Model: "x", APIKey: "k"}, []string{`"googleai"`, "openai", "builtin"}},
		{"missing model", LLMOptions{Provider: "ollama"}, []string{"llm.model is required"}},
		{"bad base url", LLMOptions{Provider: "ollama", Model: "x", BaseURL: "localhost:11434"}, []string{"llm.base_url", "not an http(s) URL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewLLM(tt.opts, nil)
			ge := wantGenErr(t, err, ReasonNotConfigured, "")
			for _, m := range tt.msg {
				if !strings.Contains(ge.Message, m) {
					t.Errorf("message = %q, want containing %q", ge.Message, m)
				}
			}
		})
	}
}

func TestNormaliseBaseURL(t *testing.T) {
	tests := []struct{ provider, in, want string }{
		{"openai", "", ""},
		{"openai", "http://localhost:8000", "http://localhost:8000/v1"},
		{"openai", "http://localhost:8000/", "http://localhost:8000/v1"},
		{"openai", "https://openrouter.ai/api/v1/", "https://openrouter.ai/api/v1"},
		{"anthropic", "https://api.anthropic.com", "https://api.anthropic.com/v1"},
		{"ollama", "http://localhost:11434/", "http://localhost:11434"},
	}
	for _, tt := range tests {
		got, err := normaliseBaseURL(tt.provider, tt.in)
		if err != nil || got != tt.want {
			t.Errorf("normaliseBaseURL(%s, %q) = %q, %v; want %q", tt.provider, tt.in, got, err, tt.want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0}, {"3", 3 * time.Second}, {"0.5", 500 * time.Millisecond}, {"-1", 0}, {"soon", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0},
	}
	for _, tt := range tests {
		if got := parseRetryAfter(tt.in, now); got != tt.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestAnthropicUsage speaks a minimal Anthropic Messages API.
func TestAnthropicUsage(t *testing.T) {
	var mu sync.Mutex
	var gotKey, gotSystem string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/messages" {
			http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"no route"}}`, 404)
			return
		}
		var body struct {
			System any `json:"system"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		gotKey = r.Header.Get("x-api-key")
		gotSystem = fmt.Sprint(body.System)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
			"content":     []any{map[string]any{"type": "text", "text": llmtest.Plan(goodSQL, nil, "anthropic")}},
			"stop_reason": "end_turn",
			"usage":       map[string]any{"input_tokens": 11, "output_tokens": 7},
		})
	}))
	defer srv.Close()
	l, err := NewLLM(LLMOptions{Provider: "anthropic", Model: "claude-test", BaseURL: srv.URL, APIKey: "ak"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := l.Generate(context.Background(), sampleRequest())
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if p.SQL != goodSQL || p.Generator != "anthropic:claude-test" {
		t.Errorf("plan = %+v", p)
	}
	if want := (Usage{PromptTokens: 11, CompletionTokens: 7, TotalTokens: 18}); p.Usage != want {
		t.Errorf("usage = %+v, want %+v", p.Usage, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if gotKey != "ak" || !strings.Contains(gotSystem, "JSON object") {
		t.Errorf("key %q system %q", gotKey, gotSystem)
	}
}

// TestOllamaUsage speaks a minimal Ollama /api/chat.
func TestOllamaUsage(t *testing.T) {
	var mu sync.Mutex
	var format any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/chat" {
			http.NotFound(w, r)
			return
		}
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		format = body["format"]
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"model": "qwen", "created_at": "2026-11-22T10:00:00Z", "done": true,
			"message":           map[string]any{"role": "assistant", "content": llmtest.Plan(goodSQL, nil, "ollama")},
			"prompt_eval_count": 13, "eval_count": 5,
		})
	}))
	defer srv.Close()
	l, err := NewLLM(LLMOptions{Provider: "ollama", Model: "qwen", BaseURL: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := l.Generate(context.Background(), sampleRequest())
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if want := (Usage{PromptTokens: 13, CompletionTokens: 5, TotalTokens: 18}); p.Usage != want || p.SQL != goodSQL {
		t.Errorf("plan = %+v, want usage %+v", p, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if format != "json" {
		t.Errorf("format = %v, want json (JSON mode)", format)
	}
}

func TestUsageFrom(t *testing.T) {
	tests := []struct {
		name string
		gi   map[string]any
		want Usage
	}{
		{"nil", nil, Usage{}},
		{"openai", map[string]any{"PromptTokens": 3, "CompletionTokens": 4, "TotalTokens": 7}, Usage{3, 4, 7}},
		{"anthropic", map[string]any{"InputTokens": 5, "OutputTokens": 6}, Usage{5, 6, 11}},
		{"float values", map[string]any{"PromptTokens": 2.0, "CompletionTokens": int64(1)}, Usage{2, 1, 3}},
	}
	for _, tt := range tests {
		if got := usageFrom(tt.gi); got != tt.want {
			t.Errorf("%s: usageFrom = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
