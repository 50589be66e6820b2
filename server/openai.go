package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"talk2tables/answer"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
)

// chatRowLimit is how many result rows a chat answer shows as a table.
const chatRowLimit = 20

// chatRequest is the part of an OpenAI chat-completions request we read;
// other fields (temperature, max_tokens, ...) are accepted and ignored.
type chatRequest struct {
	Model         string        `json:"model"`
	Messages      []chatMessage `json:"messages"`
	Stream        bool          `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// chatMessage is one message; content is a string or an array of parts.
type chatMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// text returns the message text: the string, or the text parts joined.
func (m chatMessage) text() (string, error) {
	raw := strings.TrimSpace(string(m.Content))
	if raw == "" || raw == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(m.Content, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(m.Content, &parts); err != nil {
		return "", err
	}
	var texts []string
	for _, p := range parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}

// lastUserMessage returns the question: the text of the last user message.
func lastUserMessage(msgs []chatMessage) (string, error) {
	if len(msgs) == 0 {
		return "", badRequest(http.StatusBadRequest, "invalid_field",
			`field "messages" is required and must hold at least one user message`, "messages")
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		t, err := msgs[i].text()
		if err != nil {
			return "", badRequest(http.StatusBadRequest, "invalid_field",
				fmt.Sprintf(`field "messages[%d].content" must be a string or an array of text parts`, i), "messages")
		}
		if strings.TrimSpace(t) == "" {
			return "", badRequest(http.StatusBadRequest, "invalid_field",
				fmt.Sprintf(`field "messages[%d].content" holds no text; the last user message is the question`, i), "messages")
		}
		return t, nil
	}
	return "", badRequest(http.StatusBadRequest, "invalid_field",
		`field "messages" holds no message with role "user"; the last user message is the question`, "messages")
}

// chatCompletion is a non-streaming response.
type chatCompletion struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []chatChoice `json:"choices"`
	Usage   chatUsage    `json:"usage"`
}

type chatChoice struct {
	Index        int      `json:"index"`
	Message      *chatOut `json:"message,omitempty"`
	Delta        *chatOut `json:"delta,omitempty"`
	FinishReason *string  `json:"finish_reason"`
	Logprobs     any      `json:"logprobs"`
}

type chatOut struct {
	Role    string `json:"role,omitempty"`
	Content string `json:"content"`
}

type chatUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// chatChunk is one streaming event.
type chatChunk struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []chatChoice `json:"choices"`
	Usage   *chatUsage   `json:"usage,omitempty"`
}

// handleChatCompletions answers POST /v1/chat/completions (and
// /chat/completions): the last user message is the question, the answer is
// markdown. Errors use the OpenAI error shape.
func (a *api) handleChatCompletions(c *gin.Context) {
	var req chatRequest
	if err := decodeJSON(c, &req, false); err != nil {
		a.fail(c, err, nil)
		return
	}
	text, err := lastUserMessage(req.Messages)
	if err != nil {
		a.fail(c, err, nil)
		return
	}
	question, err := checkQuestion(text, "messages", a.cfg.MaxQuestionLength)
	if err != nil {
		a.fail(c, err, nil)
		return
	}
	q := orchestrator.Query{Question: question, MaxRows: a.cfg.DefaultMaxRows, OperationID: requestIDOf(c)}
	a.logQueryReceived(c, q, "openai")
	res, err := a.orch.Process(c.Request.Context(), q)
	var answer string
	var gen *orchestrator.SQLGenerationError
	switch {
	case err != nil && errors.As(err, &gen) && gen.Reason == orchestrator.ReasonDeclined:
		// A chat front end shows an HTTP error as a failure (and some
		// retry it): a declined question is an answer saying why.
		answer = declineMarkdown(gen)
	case err != nil && classify(err).status == http.StatusUnprocessableEntity:
		// So is any other question that could not be answered (the SQL was
		// refused or still failed after the repairs, no valid SQL came
		// back): only the system's failures stay errors.
		answer = refusalMarkdown(classify(err), res)
	case err != nil:
		a.fail(c, err, res)
		return
	default:
		answer = answerMarkdown(res, mcpclient.SeveralExecutors(a.orch.Servers()))
	}
	a.writeChatAnswer(c, req, "chatcmpl-"+q.OperationID, answer, usageOf(res))
}

// writeChatAnswer sends answer as a chat completion, whole or streamed.
func (a *api) writeChatAnswer(c *gin.Context, req chatRequest, id, answer string, usage chatUsage) {
	created := time.Now().Unix()
	stop := "stop"
	if !req.Stream {
		c.PureJSON(http.StatusOK, chatCompletion{
			ID: id, Object: "chat.completion", Created: created, Model: ModelName,
			Choices: []chatChoice{{Message: &chatOut{Role: "assistant", Content: answer}, FinishReason: &stop}},
			Usage:   usage,
		})
		return
	}

	h := c.Writer.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	h.Set("X-Accel-Buffering", "no")
	c.Status(http.StatusOK)
	send := func(ch chatChunk) {
		ch.ID, ch.Object, ch.Created, ch.Model = id, "chat.completion.chunk", created, ModelName
		b, _ := marshalJSON(ch) // our own types: cannot fail
		_, _ = c.Writer.WriteString("data: ")
		_, _ = c.Writer.Write(b)
		_, _ = c.Writer.WriteString("\n\n")
		c.Writer.Flush()
	}
	send(chatChunk{Choices: []chatChoice{{Delta: &chatOut{Role: "assistant"}}}})
	for _, piece := range splitLines(answer) {
		send(chatChunk{Choices: []chatChoice{{Delta: &chatOut{Content: piece}}}})
	}
	send(chatChunk{Choices: []chatChoice{{Delta: &chatOut{}, FinishReason: &stop}}})
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage {
		send(chatChunk{Choices: []chatChoice{}, Usage: &usage})
	}
	_, _ = c.Writer.WriteString("data: [DONE]\n\n")
	c.Writer.Flush()
}

// handleModels answers GET /v1/models.
func (a *api) handleModels(c *gin.Context) {
	c.PureJSON(http.StatusOK, gin.H{
		"object": "list",
		"data": []gin.H{{
			"id": ModelName, "object": "model", "created": a.started.Unix(), "owned_by": "talk2tables",
		}},
	})
}

// openAIError is the OpenAI error body.
type openAIError struct {
	Error openAIErrorDetail `json:"error"`
}

type openAIErrorDetail struct {
	Message   string  `json:"message"`
	Type      string  `json:"type"`
	Param     *string `json:"param"`
	Code      string  `json:"code"`
	RequestID string  `json:"request_id,omitempty"`
}

// openAIErrorBody renders a classified error in the OpenAI shape.
func openAIErrorBody(out classified) openAIError {
	typ := "server_error"
	switch {
	case out.status == http.StatusUnauthorized:
		typ = "authentication_error"
	case out.status == http.StatusTooManyRequests:
		typ = "rate_limit_error"
	case out.status < 500:
		typ = "invalid_request_error"
	}
	var param *string
	if out.detail.Field != "" {
		param = &out.detail.Field
	}
	return openAIError{Error: openAIErrorDetail{
		Message: out.detail.Message, Type: typ, Param: param, Code: out.detail.Code, RequestID: out.detail.RequestID,
	}}
}

// usageOf returns the LLM token usage of a result.
func usageOf(res *orchestrator.QueryResult) chatUsage {
	if res == nil || res.Metadata.Usage == nil {
		return chatUsage{}
	}
	u := res.Metadata.Usage
	return chatUsage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
}

// splitLines splits s into lines, each keeping its newline.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// declineMarkdown renders a declined question for a chat client: that it
// could not be answered, why, and how to rephrase it.
func declineMarkdown(gen *orchestrator.SQLGenerationError) string {
	var b strings.Builder
	b.WriteString("**I could not answer that.** ")
	b.WriteString(strings.TrimSpace(gen.Message))
	b.WriteString("\n")
	if h := strings.TrimSpace(gen.Hint); h != "" {
		b.WriteString("\n_Try:_ ")
		b.WriteString(strings.TrimSpace(strings.TrimPrefix(h, "try:")))
		b.WriteString("\n")
	}
	return b.String()
}

// refusalMarkdown renders a question that could not be answered (a 422 of
// the REST API) for a chat client: why, and the SQL last tried.
func refusalMarkdown(out classified, res *orchestrator.QueryResult) string {
	var b strings.Builder
	b.WriteString("**I could not answer that.** ")
	b.WriteString(strings.TrimSpace(out.detail.Message))
	b.WriteString("\n")
	if res != nil && len(res.Attempts) > 0 {
		if sql := strings.TrimSpace(res.Attempts[len(res.Attempts)-1].SQL); sql != "" {
			b.WriteString("\n_The SQL tried:_\n\n```sql\n")
			b.WriteString(sql)
			b.WriteString("\n```\n")
		}
	}
	return b.String()
}

// answerMarkdown renders a result for a chat client: the explanation, the
// assumptions, the SQL in a fenced block, the first rows as a table and, when recovery
// happened, the failed attempts. With several databases it says which one
// answered.
func answerMarkdown(res *orchestrator.QueryResult, severalDBs bool) string {
	var b strings.Builder
	answer.WriteHead(&b, res, severalDBs)
	writeTable(&b, res.Result)
	var failed []orchestrator.Attempt
	for _, at := range res.Attempts {
		if at.Error != "" {
			failed = append(failed, at)
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(&b, "\n_Answered after %d attempts; the failed ones were repaired:_\n", len(res.Attempts))
		for i, at := range failed {
			fmt.Fprintf(&b, "%d. %s: %s\n", i+1, orDefault(string(at.Category), "ERROR"), answer.OneLine(at.Error))
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// writeTable renders up to chatRowLimit rows as a markdown table.
func writeTable(b *strings.Builder, d *executor.QueryData) {
	shown, total := answer.WriteTable(b, d, chatRowLimit)
	if total == 0 {
		return
	}
	switch {
	case shown < total && d.Truncated:
		fmt.Fprintf(b, "\n_Showing %d of %d rows (the result was capped at %d rows)._\n", shown, total, total)
	case shown < total:
		fmt.Fprintf(b, "\n_Showing %d of %d rows._\n", shown, total)
	case d.Truncated:
		fmt.Fprintf(b, "\n_The result was capped at %d rows._\n", total)
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
