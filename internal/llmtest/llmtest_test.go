package llmtest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"talk2tables/internal/llmtest"
)

func newClient(tb testing.TB, s *llmtest.Server) *openai.LLM {
	tb.Helper()
	llm, err := openai.New(openai.WithBaseURL(s.URL), openai.WithToken("test"), openai.WithModel("m"))
	if err != nil {
		tb.Fatalf("openai.New: %v", err)
	}
	return llm
}

func ask(ctx context.Context, llm *openai.LLM, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "you write SQL"),
		llms.TextParts(llms.ChatMessageTypeHuman, "total sales"),
	}
	return llm.GenerateContent(ctx, msgs, opts...)
}

func TestSuccessRecordsRequest(t *testing.T) {
	want := llmtest.Plan("SELECT 1", map[string]map[string]string{"abra": {"products.product_id": "123"}}, "one")
	s := llmtest.New(t, llmtest.Step{Content: want, PromptTokens: 7, CompletionTokens: 5})
	resp, err := ask(context.Background(), newClient(t, s), llms.WithJSONMode())
	if err != nil {
		t.Fatalf("GenerateContent: %v", err)
	}
	if got := resp.Choices[0].Content; got != want {
		t.Errorf("content = %q, want %q", got, want)
	}
	gi := resp.Choices[0].GenerationInfo
	if gi["PromptTokens"] != 7 || gi["CompletionTokens"] != 5 || gi["TotalTokens"] != 12 {
		t.Errorf("usage = %v/%v/%v, want 7/5/12", gi["PromptTokens"], gi["CompletionTokens"], gi["TotalTokens"])
	}
	reqs := s.Requests()
	if len(reqs) != 1 {
		t.Fatalf("requests = %d, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Model != "m" || !r.JSONMode || r.Stream {
		t.Errorf("request = model %q json %v stream %v, want m true false", r.Model, r.JSONMode, r.Stream)
	}
	if r.System() != "you write SQL" || r.User() != "total sales" {
		t.Errorf("messages = %+v", r.Messages)
	}
	if r.Authorization != "Bearer test" {
		t.Errorf("authorization = %q, want %q", r.Authorization, "Bearer test")
	}
	if r.Path != "/v1/chat/completions" {
		t.Errorf("path = %q", r.Path)
	}
	var p map[string]any
	if err := json.Unmarshal([]byte(want), &p); err != nil || p["sql"] != "SELECT 1" || p["confidence"] != 0.9 {
		t.Errorf("Plan() = %s (%v)", want, err)
	}
}

func TestJSONModeOffAndEstimatedUsage(t *testing.T) {
	s := llmtest.New(t, llmtest.Step{Content: "SELECT 1"})
	resp, err := ask(context.Background(), newClient(t, s))
	if err != nil {
		t.Fatalf("GenerateContent: %v", err)
	}
	if s.Requests()[0].JSONMode {
		t.Error("JSONMode = true, want false")
	}
	if got := resp.Choices[0].GenerationInfo["TotalTokens"]; got == 0 {
		t.Errorf("TotalTokens = %v, want > 0", got)
	}
}

func TestErrorSteps(t *testing.T) {
	tests := []struct {
		name    string
		step    llmtest.Step
		wantErr string
	}{
		{"rate limited", llmtest.Step{Status: 429, RetryAfter: "1"}, "429"},
		{"server error", llmtest.Step{Status: 500, Content: "boom"}, "500: boom"},
		{"unauthorized", llmtest.Step{Status: 401}, "Incorrect API key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t, tt.step)
			_, err := ask(context.Background(), newClient(t, s))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestRawErrorBodyAndRetryAfter(t *testing.T) {
	s := llmtest.New(t, llmtest.Step{Status: 429, RetryAfter: "2", Content: "slow down"})
	body := strings.NewReader(`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`)
	resp, err := http.Post(s.URL+"/chat/completions", "application/json", body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" {
		t.Errorf("status %d retry-after %q, want 429 \"2\"", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	var e struct {
		Error struct{ Message, Type, Code string } `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
		t.Fatal(err)
	}
	if e.Error.Message != "slow down" || e.Error.Code != "rate_limit_exceeded" || e.Error.Type == "" {
		t.Errorf("error body = %+v", e.Error)
	}
	if got := s.Requests()[0].User(); got != "hi" {
		t.Errorf("multi-part content = %q, want hi", got)
	}
}

func TestScriptExhausted(t *testing.T) {
	s := llmtest.New(t, llmtest.Step{Content: "a"})
	llm := newClient(t, s)
	if _, err := ask(context.Background(), llm); err != nil {
		t.Fatal(err)
	}
	_, err := ask(context.Background(), llm)
	if err == nil || !strings.Contains(err.Error(), "script exhausted") {
		t.Fatalf("err = %v, want script exhausted", err)
	}
	if got := len(s.Requests()); got != 2 {
		t.Errorf("requests = %d, want 2", got)
	}
	if s.Remaining() != 0 {
		t.Errorf("Remaining = %d, want 0", s.Remaining())
	}
}

func TestDelayHonoursCancellation(t *testing.T) {
	s := llmtest.New(t, llmtest.Step{Content: "late", Delay: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := ask(ctx, newClient(t, s))
	if err == nil {
		t.Fatal("err = nil, want a timeout")
	}
	if ctx.Err() == nil {
		t.Errorf("ctx.Err() = nil, want deadline exceeded")
	}
}

func TestStreaming(t *testing.T) {
	text := llmtest.Plan("SELECT region, SUM(total_amount) FROM sales GROUP BY region", nil, "streamed")
	s := llmtest.New(t, llmtest.Step{Content: text, PromptTokens: 3, CompletionTokens: 4})
	var mu sync.Mutex
	var chunks []string
	resp, err := ask(context.Background(), newClient(t, s), llms.WithStreamingFunc(func(_ context.Context, b []byte) error {
		mu.Lock()
		defer mu.Unlock()
		chunks = append(chunks, string(b))
		return nil
	}))
	if err != nil {
		t.Fatalf("GenerateContent: %v", err)
	}
	if got := resp.Choices[0].Content; got != text {
		t.Errorf("content = %q, want %q", got, text)
	}
	mu.Lock()
	joined := strings.Join(chunks, "")
	n := len(chunks)
	mu.Unlock()
	if joined != text || n < 2 {
		t.Errorf("chunks = %d joined %q, want several joining to the text", n, joined)
	}
	if !s.Requests()[0].Stream {
		t.Error("Stream = false, want true")
	}
	if got := resp.Choices[0].GenerationInfo["TotalTokens"]; got != 7 {
		t.Errorf("TotalTokens = %v, want 7", got)
	}
}

func TestResponderConcurrent(t *testing.T) {
	s := llmtest.NewResponder(t, func(r llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: "echo:" + r.User()}
	})
	llm := newClient(t, s)
	const n = 16
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := fmt.Sprintf("q%d", i)
			resp, err := llm.GenerateContent(context.Background(),
				[]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, q)})
			if err != nil {
				errs <- err
				return
			}
			if got := resp.Choices[0].Content; got != "echo:"+q {
				errs <- fmt.Errorf("content = %q, want %q", got, "echo:"+q)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := len(s.Requests()); got != n {
		t.Errorf("requests = %d, want %d", got, n)
	}
}

// Message content arrives as a string (langchaingo's single text part) or
// as an array of parts, whose texts are joined; each connection is counted.
func TestContentShapesAndConns(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{name: "string", content: `"total \"sales\" <= 5"`, want: `total "sales" <= 5`},
		{name: "parts", content: `[{"type":"text","text":"total "},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"sales"}]`, want: "total sales"},
		{name: "null", content: `null`, want: ""},
		{name: "object", content: `{"a":1}`, want: `{"a":1}`},
	}
	s := llmtest.NewResponder(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "ok"} })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"model":"m","messages":[{"role":"user","content":` + tt.content + `}]}`
			resp, err := http.Post(s.URL+"/chat/completions", "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatalf("POST: %v", err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status = %d, want 200", resp.StatusCode)
			}
			reqs := s.Requests()
			if got := reqs[len(reqs)-1].User(); got != tt.want {
				t.Errorf("user content = %q, want %q", got, tt.want)
			}
		})
	}
	if got := s.Conns(); got < 1 || got > len(tests) {
		t.Errorf("Conns() = %d, want 1..%d", got, len(tests))
	}
	http.DefaultClient.CloseIdleConnections()
}
