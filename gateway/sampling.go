package gateway

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/orchestrator"
	"talk2tables/orchestrator/sqlgen"
)

// SamplingGeneratorName is the generator a result names when the client's
// own model wrote its SQL.
const SamplingGeneratorName = "sampling"

// sampleFunc asks the client's model for one completion.
type sampleFunc func(ctx context.Context, p mcp.CreateMessageParams) (*mcp.CreateMessageResult, error)

// samplingGen writes SQL with the calling client's model through
// sampling/createMessage: the same prompt (sqlgen.BuildPrompt) and JSON
// contract (sqlgen.ParseResponse) as the configured LLM.
type samplingGen struct {
	sample    sampleFunc
	maxTokens int
}

var _ sqlgen.Generator = (*samplingGen)(nil)

// samplingGenerator returns the sampling generator with the offline
// generator behind it for when the client's model cannot answer.
func (g *Gateway) samplingGenerator(sample sampleFunc) sqlgen.Generator {
	return sqlgen.Fallback(&samplingGen{sample: sample, maxTokens: g.cfg.LLM.MaxTokens}, g.offline)
}

// Name is "sampling" (a plan names the client's model too).
func (s *samplingGen) Name() string { return SamplingGeneratorName }

// Generate asks the client's model for the plan.
func (s *samplingGen) Generate(ctx context.Context, req sqlgen.Request) (sqlgen.Plan, error) {
	system, user := sqlgen.BuildPrompt(req)
	params := mcp.CreateMessageParams{
		Messages:       []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(user)}},
		SystemPrompt:   system,
		MaxTokens:      s.maxTokens,
		IncludeContext: "none",
		ModelPreferences: &mcp.ModelPreferences{
			IntelligencePriority: 0.8, SpeedPriority: 0.5, CostPriority: 0.3,
		},
	}
	res, err := s.sample(ctx, params)
	if err != nil {
		if ctx.Err() != nil {
			return sqlgen.Plan{}, ctx.Err()
		}
		return sqlgen.Plan{Generator: SamplingGeneratorName}, &sqlgen.SQLGenerationError{
			Reason: sqlgen.ReasonLLMCommunication, Message: "the client's model did not answer the sampling request", Err: err}
	}
	plan, err := sqlgen.ParseAnswer(req, samplingText(res))
	plan.Generator = SamplingGeneratorName
	if res.Model != "" {
		plan.Generator += ":" + res.Model
	}
	return plan, err
}

// samplingText returns the text of a sampling answer.
func samplingText(res *mcp.CreateMessageResult) string {
	if res == nil {
		return ""
	}
	var parts []string
	add := func(c any) {
		switch v := c.(type) {
		case mcp.TextContent:
			parts = append(parts, v.Text)
		case *mcp.TextContent:
			parts = append(parts, v.Text)
		case map[string]any:
			if t, ok := v["text"].(string); ok {
				parts = append(parts, t)
			}
		}
	}
	switch c := res.Content.(type) {
	case []mcp.Content:
		for _, x := range c {
			add(x)
		}
	case []any:
		for _, x := range c {
			add(x)
		}
	default:
		add(c)
	}
	return strings.Join(parts, "\n")
}

// On the 2026-07-28 protocol a server cannot send the client a request: a
// tool returns an input_required result and the client calls again with the
// answer. A question that needs the client's model therefore runs in the
// background (an askRun) across those calls: each call hands the model's
// answer in and waits for the next sampling request or the result.

// askRun is a question answered with the client's model over several
// calls.
type askRun struct {
	id      string
	rep     *reporter
	need    chan mcp.CreateMessageParams // the generator needs a completion
	answers chan sampleAnswer            // the client's answer
	done    chan struct{}                // closed when Process returned
	out     askOutcome                   // set before done is closed
	cancel  context.CancelFunc
	asked   atomic.Int64 // sampling requests so far
}

type sampleAnswer struct {
	res *mcp.CreateMessageResult
	err error
}

type askOutcome struct {
	res *orchestrator.QueryResult
	err error
}

// runs holds the questions waiting on a client's model.
type runs struct {
	mu     sync.Mutex
	m      map[string]*askRun
	seq    atomic.Uint64
	closed bool // closeAll ran: a run added later is stopped at once
}

func newRuns() *runs { return &runs{m: map[string]*askRun{}} }

func (r *runs) add(run *askRun) {
	r.mu.Lock()
	r.m[run.id] = run
	if r.closed {
		run.cancel()
	}
	r.mu.Unlock()
}

func (r *runs) get(id string) *askRun {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[id]
}

func (r *runs) remove(id string) {
	r.mu.Lock()
	delete(r.m, id)
	r.mu.Unlock()
}

func (r *runs) closeAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	for _, run := range r.m {
		run.cancel()
	}
}

// startSampledAsk starts q in the background with the client's model as
// generator and waits for its first sampling request or its result.
func (g *Gateway) startSampledAsk(ctx context.Context, q orchestrator.Query, rep *reporter) *mcp.CallToolResult {
	// The question outlives this call (the client answers its sampling
	// requests in later calls); Close stops it (runs.closeAll).
	runCtx, cancel := context.WithCancel(context.Background())
	run := &askRun{id: strconv.FormatUint(g.runs.seq.Add(1), 10) + "-" + q.OperationID, rep: rep,
		need: make(chan mcp.CreateMessageParams), answers: make(chan sampleAnswer), done: make(chan struct{}),
		cancel: cancel}
	q.Generator = g.samplingGenerator(func(ctx context.Context, p mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
		select {
		case run.need <- p:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		select {
		case a := <-run.answers:
			return a.res, a.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	g.runs.add(run)
	g.wg.Go(func() {
		defer cancel()
		res, err := g.orch.Process(runCtx, q)
		run.out = askOutcome{res, err}
		// A client that never comes back leaves nothing behind: Process
		// ends within the query timeout and the run is forgotten.
		g.runs.remove(run.id)
		close(run.done)
	})
	return g.waitRun(ctx, run)
}

// resumeAsk hands the client's sampling answer to its question and waits
// for the next request or the result.
func (g *Gateway) resumeAsk(ctx context.Context, req mcp.CallToolRequest) *mcp.CallToolResult {
	parts, ok := g.verifyState(req.Params.RequestState, g.cfg.Orchestration.QueryTimeout+g.cfg.Gateway.ApprovalTimeout)
	if !ok || len(parts) != 3 || parts[0] != ToolAsk {
		return mcp.NewToolResultError("the requestState is not one this server issued (or it expired); ask the question again")
	}
	run := g.runs.get(parts[1])
	if run == nil {
		return mcp.NewToolResultError("this question is no longer running (it finished, timed out or was cancelled); ask it again")
	}
	run.rep.attach(ctx, progressToken(req))
	ans := sampleAnswer{res: server.SamplingResponse(req.Params.InputResponses, parts[2])}
	if ans.res == nil {
		ans.err = errors.New("the client sent no answer to the sampling request " + parts[2])
	}
	select {
	case run.answers <- ans:
	case <-run.done:
		return g.askResult(ctx, run.rep.opID, run.out.res, run.out.err)
	case <-ctx.Done():
		g.abandon(run)
		return mcp.NewToolResultError("cancelled")
	}
	return g.waitRun(ctx, run)
}

// waitRun waits for the run's next sampling request (returned as an
// input_required result) or its outcome; a cancelled call stops it.
func (g *Gateway) waitRun(ctx context.Context, run *askRun) *mcp.CallToolResult {
	select {
	case p := <-run.need:
		id := fmt.Sprintf("sql_%d", run.asked.Add(1))
		return server.NewInputRequestBuilder(g.signState(ToolAsk, run.id, id)).Sample(id, p).ToolResult()
	case <-run.done:
		return g.askResult(ctx, run.rep.opID, run.out.res, run.out.err)
	case <-ctx.Done():
		g.abandon(run)
		return mcp.NewToolResultError("cancelled")
	}
}

// abandon stops a run whose client went away and waits for it to end.
func (g *Gateway) abandon(run *askRun) {
	run.cancel()
	<-run.done
	g.log.Info("question cancelled by the client", "event", "query_cancelled", "operation_id", run.rep.opID)
}
