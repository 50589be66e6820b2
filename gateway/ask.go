package gateway

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"talk2tables/answer"
	"talk2tables/config"
	"talk2tables/mcptasks"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/mcpclient"
)

// handleAsk answers a question through the orchestrator. Every stage is a
// progress notification (when the client sent a progress token) and a log
// notification (at the level the client set); cancelling the call stops
// the question. Declines and failures are tool results with isError.
func (g *Gateway) handleAsk(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if req.Params.RequestState != "" {
		// The client answers a sampling request of a question in progress.
		return g.resumeAsk(ctx, req), nil
	}
	if res := g.limits.check(ToolAsk, ""); res != nil {
		return res, nil
	}
	question, bad := stringArg(req, "question", g.cfg.HTTP.MaxQuestionLength)
	if bad != nil {
		return bad, nil
	}
	maxRows, bad := g.maxRowsArg(req)
	if bad != nil {
		return bad, nil
	}
	opID := operationID(ctx)
	rep := newReporter(g, opID)
	rep.attach(ctx, progressToken(req))
	q := orchestrator.Query{Question: question, MaxRows: maxRows, OperationID: opID, Progress: rep.stage}
	g.log.Info("tool call received", "event", "query_received", "tool", ToolAsk, "operation_id", opID,
		"question_length", len(question))
	if g.useSampling(ctx) {
		if modern(ctx) {
			return g.startSampledAsk(ctx, q, rep), nil
		}
		// Before 2026-07-28 the server may ask the client directly.
		q.Generator = g.samplingGenerator(func(ctx context.Context, p mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
			return g.srv.RequestSampling(ctx, mcp.CreateMessageRequest{CreateMessageParams: p})
		})
	}
	res, err := g.orch.Process(ctx, q)
	return g.askResult(ctx, opID, res, err), nil
}

// useSampling reports whether ask should have the calling client's model
// write SQL: sampling is on, no LLM is configured and the client can
// sample.
func (g *Gateway) useSampling(ctx context.Context) bool {
	return g.cfg.Gateway.Sampling == config.SamplingAuto &&
		g.orch.GeneratorName() == config.ProviderBuiltin &&
		clientCapabilities(ctx).Sampling != nil
}

// askResult renders a question's outcome: markdown in content, the whole
// QueryResult as structured content; isError with the reason on failure.
func (g *Gateway) askResult(ctx context.Context, opID string, res *orchestrator.QueryResult, err error) *mcp.CallToolResult {
	if err != nil {
		out := g.fail(ctx, ToolAsk, opID, err)
		if res != nil {
			safe := *res
			safe.Error = classify(err).message
			out.StructuredContent = &safe
			if failed := attemptsMarkdown(res); failed != "" {
				out.Content = append(out.Content, mcp.NewTextContent(failed))
			}
		}
		return out
	}
	return mcp.NewToolResultStructured(res, answerMarkdown(res, mcpclient.SeveralExecutors(g.orch.Servers())))
}

// reporter turns the orchestrator's stages into progress and log
// notifications to the client. A question answered over several calls
// (sampling round trips) reports through the call currently waiting.
type reporter struct {
	g    *Gateway
	opID string

	mu   sync.Mutex
	call *waitingCall // nil until a call attaches
	n    int
}

// waitingCall is where a question's notifications go: the tool call
// currently waiting for it (mcp-go finds the client session, and over
// streamable HTTP the call's own stream, from the call's context, so the
// send functions are bound to it).
type waitingCall struct {
	notify func(method string, params map[string]any) error
	log    func(mcp.LoggingMessageNotification) error
	status func(msg string) // the call's task status message, when it runs as a task
	token  mcp.ProgressToken
}

func newReporter(g *Gateway, opID string) *reporter { return &reporter{g: g, opID: opID} }

// attach makes the call with ctx and token the one notifications go to.
func (r *reporter) attach(ctx context.Context, token mcp.ProgressToken) {
	srv := r.g.srv
	call := &waitingCall{
		notify: func(method string, params map[string]any) error {
			return srv.SendNotificationToClient(ctx, method, params)
		},
		log:    func(n mcp.LoggingMessageNotification) error { return srv.SendLogMessageToClient(ctx, n) },
		status: func(msg string) { mcptasks.SetStatusMessage(ctx, msg) },
		token:  token,
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.call = call
}

// stage reports one stage of Process.
func (r *reporter) stage(p orchestrator.Progress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	msg := stageMessage(p)
	if r.call == nil {
		return
	}
	// A question run as a task shows its stage in tasks/get.
	r.call.status(msg)
	if r.call.token != nil {
		// The progress value must grow: it counts the stages so far.
		_ = r.call.notify(string(mcp.MethodNotificationProgress), map[string]any{
			"progressToken": r.call.token, "progress": r.n, "message": msg})
	}
	level := mcp.LoggingLevelInfo
	if p.Stage == orchestrator.StageRetry {
		level = mcp.LoggingLevelWarning
	}
	data := map[string]any{"stage": p.Stage, "attempt": p.Attempt, "message": msg, "operation_id": r.opID}
	if p.Category != "" {
		data["category"] = string(p.Category)
	}
	_ = r.call.log(mcp.NewLoggingMessageNotification(level, "talk2tables.ask", data))
}

// stageMessage describes a stage for a person.
func stageMessage(p orchestrator.Progress) string {
	switch p.Stage {
	case orchestrator.StageGathering:
		return "gathering: reading the servers' schema and catalog"
	case orchestrator.StageGenerating:
		return fmt.Sprintf("generating: writing SQL (attempt %d)", p.Attempt)
	case orchestrator.StageValidating:
		return fmt.Sprintf("validating: checking the SQL (attempt %d)", p.Attempt)
	case orchestrator.StageExecuting:
		return fmt.Sprintf("executing: running the SQL (attempt %d)", p.Attempt)
	case orchestrator.StageRetry:
		return fmt.Sprintf("retry: attempt %d after %s: %s", p.Attempt, p.Category, answer.OneLine(p.Message))
	}
	return p.Stage
}

// answerMarkdown renders a result for an MCP client: the explanation, the
// assumptions, the SQL in a fenced block, the first rows as a table and the
// repaired attempts.
func answerMarkdown(res *orchestrator.QueryResult, severalDBs bool) string {
	var b strings.Builder
	answer.WriteHead(&b, res, severalDBs)
	writeTable(&b, res.Result)
	b.WriteString(attemptsMarkdown(res))
	fmt.Fprintf(&b, "\n_generator: %s · %.0f ms_\n", res.Metadata.Generator, res.Metadata.ExecutionTime*1000)
	return b.String()
}

// attemptsMarkdown lists the failed attempts, or "".
func attemptsMarkdown(res *orchestrator.QueryResult) string {
	var b strings.Builder
	n := 0
	for _, at := range res.Attempts {
		if at.Error == "" {
			continue
		}
		n++
		if n == 1 {
			b.WriteString("\nFailed attempts:\n")
		}
		fmt.Fprintf(&b, "%d. %s: %s\n", n, orDefault(string(at.Category), "ERROR"), answer.OneLine(at.Error))
	}
	return b.String()
}

// msOf converts a duration to milliseconds for logs.
func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
