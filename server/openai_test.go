package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"talk2tables/config"
	"talk2tables/internal/llmtest"
)

const chatBody = `{"model":"talk2tables","temperature":0.2,"messages":[` +
	`{"role":"system","content":"You are helpful."},` +
	`{"role":"user","content":"ignored earlier question"},` +
	`{"role":"assistant","content":"earlier answer"},` +
	`{"role":"user","content":[{"type":"text","text":"revenue by region"}]}]}`

func TestChatCompletions(t *testing.T) {
	st := newStack(t, stackOptions{})
	for _, path := range []string{"/v1/chat/completions", "/chat/completions"} {
		t.Run(path, func(t *testing.T) {
			resp, body := st.call(t, "POST", path, chatBody, nil)
			if resp.StatusCode != 200 {
				t.Fatalf("status = %d, want 200; %s", resp.StatusCode, body)
			}
			var cc chatCompletion
			if err := json.Unmarshal(body, &cc); err != nil {
				t.Fatal(err)
			}
			if cc.Object != "chat.completion" || cc.Model != ModelName || !strings.HasPrefix(cc.ID, "chatcmpl-") ||
				len(cc.Choices) != 1 || cc.Choices[0].Message == nil || cc.Choices[0].Message.Role != "assistant" ||
				cc.Choices[0].FinishReason == nil || *cc.Choices[0].FinishReason != "stop" {
				t.Fatalf("completion = %s, want the OpenAI chat.completion shape", body)
			}
			checkAnswer(t, cc.Choices[0].Message.Content)
			if cc.Usage.TotalTokens == 0 {
				t.Errorf("usage = %+v, want the LLM's token usage", cc.Usage)
			}
		})
	}
	// The question is the last user message, not an earlier one.
	reqs := st.llm.Requests()
	if len(reqs) == 0 || !strings.Contains(reqs[len(reqs)-1].User(), "revenue by region") ||
		strings.Contains(reqs[len(reqs)-1].User(), "ignored earlier question") {
		t.Error("the LLM was not asked the last user message")
	}
}

func checkAnswer(tb testing.TB, md string) {
	tb.Helper()
	for _, want := range []string{"Total revenue per region.", "```sql\n" + goodSQL + "\n```", "| region | revenue |", "| East |"} {
		if !strings.Contains(md, want) {
			tb.Errorf("answer lacks %q:\n%s", want, md)
		}
	}
}

func TestChatCompletionsStream(t *testing.T) {
	st := newStack(t, stackOptions{})
	body := strings.Replace(chatBody, `"temperature":0.2`, `"stream":true,"stream_options":{"include_usage":true}`, 1)
	req, _ := http.NewRequest("POST", st.URL+"/v1/chat/completions", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("status %d content-type %q, want 200 text/event-stream", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var (
		content   strings.Builder
		datas     []string
		finished  bool
		roleFirst bool
		usage     *chatUsage
	)
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "data: ") {
			t.Fatalf("unexpected line %q", line)
		}
		data := strings.TrimPrefix(line, "data: ")
		datas = append(datas, data)
		if data == "[DONE]" {
			continue
		}
		var ch chatChunk
		if err := json.Unmarshal([]byte(data), &ch); err != nil {
			t.Fatalf("chunk %q: %v", data, err)
		}
		if ch.Object != "chat.completion.chunk" || ch.Model != ModelName {
			t.Errorf("chunk object %q model %q, want chat.completion.chunk talk2tables", ch.Object, ch.Model)
		}
		if ch.Usage != nil {
			usage = ch.Usage
			continue
		}
		d := ch.Choices[0].Delta
		if len(datas) == 1 {
			roleFirst = d.Role == "assistant"
		}
		content.WriteString(d.Content)
		if ch.Choices[0].FinishReason != nil && *ch.Choices[0].FinishReason == "stop" {
			finished = true
		}
	}
	if len(datas) < 4 || datas[len(datas)-1] != "[DONE]" {
		t.Fatalf("stream = %d events ending %q, want chunks then [DONE]", len(datas), datas[len(datas)-1])
	}
	if !roleFirst || !finished || usage == nil || usage.TotalTokens == 0 {
		t.Errorf("role first %v, finish_reason stop %v, usage %+v; want all", roleFirst, finished, usage)
	}
	checkAnswer(t, content.String())
}

func TestChatCompletionsErrors(t *testing.T) {
	st := newStack(t, stackOptions{respond: func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "no sql"} }})
	tests := []struct {
		name      string
		body      string
		wantCode  int
		wantType  string
		wantParam string
	}{
		{name: "no messages", body: `{"model":"talk2tables","messages":[]}`, wantCode: 400, wantType: "invalid_request_error", wantParam: "messages"},
		{name: "no user message", body: `{"messages":[{"role":"system","content":"x"}]}`, wantCode: 400, wantType: "invalid_request_error", wantParam: "messages"},
		{name: "empty question", body: `{"messages":[{"role":"user","content":"  "}]}`, wantCode: 400, wantType: "invalid_request_error", wantParam: "messages"},
		{name: "bad content", body: `{"messages":[{"role":"user","content":42}]}`, wantCode: 400, wantType: "invalid_request_error", wantParam: "messages"},
		{name: "messages wrong type", body: `{"messages":"hi"}`, wantCode: 400, wantType: "invalid_request_error", wantParam: "messages"},
		{name: "malformed JSON", body: `{"messages":`, wantCode: 400, wantType: "invalid_request_error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := st.call(t, "POST", "/v1/chat/completions", tt.body, nil)
			if resp.StatusCode != tt.wantCode {
				t.Fatalf("status = %d, want %d; %s", resp.StatusCode, tt.wantCode, body)
			}
			var e openAIError
			if err := json.Unmarshal(body, &e); err != nil {
				t.Fatal(err)
			}
			param := ""
			if e.Error.Param != nil {
				param = *e.Error.Param
			}
			if e.Error.Type != tt.wantType || param != tt.wantParam || e.Error.Message == "" || e.Error.Code == "" {
				t.Errorf("error = %s, want type %q param %q with message and code", body, tt.wantType, tt.wantParam)
			}
		})
	}
}

// TestChatCompletionsRefusals (issue 24): a question that could not be
// answered for any reason the REST API answers 422 (no SQL in the LLM's
// answer, SQL refused as not read-only, SQL that still fails after the
// repairs) is a normal assistant answer on the OpenAI-compatible endpoint
// (200, finish_reason stop), whole and streamed, as the README promises:
// chat front ends show an HTTP error as a failure, and some retry it.
func TestChatCompletionsRefusals(t *testing.T) {
	tests := []struct {
		name   string
		answer string
		want   string // in the message
	}{
		{"no SQL from the LLM", "no sql", "neither the JSON response contract nor a SQL block"},
		{"SQL refused", llmtest.Plan("DELETE FROM sales", nil, "remove"), "PERMISSION_ERROR"},
		{"SQL keeps failing", llmtest.Plan("SELECT nope FROM sales", nil, "bad column"), "MISSING_COLUMN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newStack(t, stackOptions{respond: func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: tt.answer} }})
			if resp, body := st.call(t, "POST", "/api/query", `{"question":"revenue"}`, nil); resp.StatusCode != 422 {
				t.Fatalf("REST: %d %s, want 422", resp.StatusCode, body)
			}
			for _, stream := range []bool{false, true} {
				resp, body := st.call(t, "POST", "/v1/chat/completions",
					fmt.Sprintf(`{"stream":%v,"messages":[{"role":"user","content":"revenue"}]}`, stream), nil)
				if resp.StatusCode != 200 || !strings.Contains(string(body), "I could not answer that.") ||
					!strings.Contains(string(body), tt.want) || !strings.Contains(string(body), `"finish_reason":"stop"`) {
					t.Errorf("chat (stream %v) = %d %s, want 200 \"I could not answer that.\" saying %q", stream, resp.StatusCode, body, tt.want)
				}
			}
		})
	}
}

// TestChatCompletionsDecline: on the OpenAI-compatible endpoints a declined
// question is a normal assistant answer (200, finish_reason stop) saying
// why, whole and streamed; the REST API keeps its 422.
func TestChatCompletionsDecline(t *testing.T) {
	st := newStack(t, stackOptions{orch: func(c *config.Config) { c.LLM.Provider = config.ProviderBuiltin }})
	const question = "why did revenue drop"
	resp, body := st.call(t, "POST", "/v1/chat/completions",
		`{"model":"talk2tables","messages":[{"role":"user","content":"`+question+`"}]}`, nil)
	if resp.StatusCode != 200 {
		t.Fatalf("status = %d, want 200; %s", resp.StatusCode, body)
	}
	var cc chatCompletion
	if err := json.Unmarshal(body, &cc); err != nil {
		t.Fatal(err)
	}
	if len(cc.Choices) != 1 || cc.Choices[0].FinishReason == nil || *cc.Choices[0].FinishReason != "stop" ||
		!strings.HasPrefix(cc.Choices[0].Message.Content, "**I could not answer that.** ") {
		t.Errorf("completion = %s, want a stop-finished answer that declines", body)
	}

	resp, body = st.call(t, "POST", "/v1/chat/completions",
		`{"stream":true,"messages":[{"role":"user","content":"`+question+`"}]}`, nil)
	if resp.StatusCode != 200 || !strings.Contains(string(body), "I could not answer that") ||
		!strings.Contains(string(body), `"finish_reason":"stop"`) || !strings.Contains(string(body), "data: [DONE]") {
		t.Errorf("stream = %d %s, want the decline streamed and finished", resp.StatusCode, body)
	}

	resp, body = st.call(t, "POST", "/api/query", `{"question":"`+question+`"}`, nil)
	if resp.StatusCode != 422 || errorOf(t, body).Error.Code != "question_declined" {
		t.Errorf("/api/query = %d %s, want 422 question_declined", resp.StatusCode, body)
	}
}

func TestModels(t *testing.T) {
	st := newStack(t, stackOptions{})
	resp, body := st.call(t, "GET", "/v1/models", "", nil)
	var list struct {
		Object string `json:"object"`
		Data   []struct {
			ID     string `json:"id"`
			Object string `json:"object"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || list.Object != "list" || len(list.Data) != 1 || list.Data[0].ID != ModelName || list.Data[0].Object != "model" {
		t.Errorf("models = %d %s, want a list holding talk2tables", resp.StatusCode, body)
	}
}

// TestLangchaingoClient uses talk2tables as a model through the real
// langchaingo OpenAI client, streaming and not.
func TestLangchaingoClient(t *testing.T) {
	st := newStack(t, stackOptions{apiKeys: "client-key"})
	llm, err := openai.New(openai.WithBaseURL(st.URL+"/v1"), openai.WithToken("client-key"), openai.WithModel(ModelName))
	if err != nil {
		t.Fatal(err)
	}
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "Answer with data."),
		llms.TextParts(llms.ChatMessageTypeHuman, "revenue by region"),
	}
	ctx := context.Background()
	resp, err := llm.GenerateContent(ctx, msgs)
	if err != nil {
		t.Fatalf("GenerateContent: %v", err)
	}
	checkAnswer(t, resp.Choices[0].Content)

	var streamed strings.Builder
	resp, err = llm.GenerateContent(ctx, msgs, llms.WithStreamingFunc(func(_ context.Context, chunk []byte) error {
		streamed.Write(chunk)
		return nil
	}))
	if err != nil {
		t.Fatalf("GenerateContent streaming: %v", err)
	}
	checkAnswer(t, streamed.String())
	if resp.Choices[0].Content != streamed.String() {
		t.Errorf("streamed content differs from the final content")
	}

	bad, err := openai.New(openai.WithBaseURL(st.URL+"/v1"), openai.WithToken("wrong"), openai.WithModel(ModelName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bad.GenerateContent(ctx, msgs); err == nil || !strings.Contains(err.Error(), "API key") {
		t.Errorf("wrong key error = %v, want the 401 message", err)
	}
}
