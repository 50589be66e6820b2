package orchestrator

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"

	"talk2tables/config"
	"talk2tables/orchestrator/builtin"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/resources"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/sqlerr"
	"talk2tables/telemetry"
)

// Query is one question.
type Query struct {
	Question    string
	MaxRows     int    // 0: http.default_max_rows
	OperationID string // generated when empty
	// Progress, when set, is called at each stage (from the Process
	// goroutine).
	Progress func(Progress)
	// Generator, when set, writes this question's SQL instead of the
	// configured one (e.g. the MCP client's own model through sampling).
	Generator sqlgen.Generator
}

// Progress stages.
const (
	StageGathering  = "gathering"
	StageGenerating = "generating"
	StageValidating = executor.StageValidating
	StageExecuting  = executor.StageExecuting
	StageRetry      = "retry"
)

// Progress reports a stage of Process.
type Progress struct {
	Stage    string // gathering | generating | validating | executing | retry
	Attempt  int
	Category sqlerr.Category
	Message  string
}

// newOperationID returns a random 16-hex-digit id.
func newOperationID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ms converts a duration to fractional milliseconds for logs.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Process answers one question in named steps: gather the servers'
// resources, recall a verified question that answers it (then no
// generator is asked), else per attempt generate SQL, check it was not tried before,
// execute it on the database it names, and on failure repair it by
// category, up to max_retry_attempts. On failure it returns both a
// *QueryResult (Success false) and the typed error.
func (o *Orchestrator) Process(ctx context.Context, q Query) (*QueryResult, error) {
	ctx, run, cancel := o.begin(ctx, q)
	defer cancel()
	if err := run.gather(ctx); err != nil {
		return run.finish(ctx, err)
	}
	if run.recall(ctx) {
		return run.finish(ctx, nil)
	}
	if run.gen.Name() != builtin.Name {
		run.req.Examples = run.examples(ctx)
	}
	for attempt := 1; attempt <= o.cfg.Orchestration.MaxRetryAttempts; attempt++ {
		actx := run.startAttempt(ctx, attempt)
		plan, err := run.generate(actx, attempt)
		if err == nil {
			err = run.check(attempt, plan)
		}
		if err != nil {
			return run.finish(ctx, err)
		}
		err = run.execute(actx, attempt, plan)
		if err == nil {
			return run.finish(ctx, nil)
		}
		if err := run.repair(ctx, attempt, plan, err); err != nil {
			return run.finish(ctx, err)
		}
	}
	return run.finish(ctx, run.lastErr) // unreachable: repair stops on the last attempt
}

// question is one Process call in progress: what its steps share.
type question struct {
	o        *Orchestrator
	q        Query
	log      *slog.Logger
	opID     string
	start    time.Time
	timeout  time.Duration
	gen      sqlgen.Generator
	res      *QueryResult
	span     trace.Span // the question's
	attempt  trace.Span // the running attempt's (see startAttempt)
	progress func(Progress)
	stage    string // the step under way (the last Progress stage)

	// From gather on.
	g       *resources.Gathered
	exec    *mcpclient.Conn // the executor (the first of several)
	req     sqlgen.Request
	base    *requestBase
	maxRows int

	tried   []string
	triedOn []string // the database of each tried statement (several databases)
	usage   sqlgen.Usage
	lastErr error // the last attempt's
}

// begin starts a question: its operation id, logger, span, metrics and
// result, and its query_timeout.
func (o *Orchestrator) begin(ctx context.Context, q Query) (context.Context, *question, context.CancelFunc) {
	run := &question{o: o, q: q, start: time.Now(), opID: q.OperationID, gen: o.gen,
		timeout: o.cfg.Orchestration.QueryTimeout}
	if run.opID == "" {
		run.opID = newOperationID()
	}
	run.log = o.log.With("operation_id", run.opID)
	ctx = telemetry.WithOperationID(ctx, run.opID)
	ctx, run.span = telemetry.Start(ctx, "question", trace.SpanKindInternal)
	if q.Generator != nil {
		run.gen = q.Generator
	}
	o.metrics.queryStarted()
	run.res = &QueryResult{
		Query:            q.Question,
		ResolvedEntities: map[string]map[string]string{},
		Assumptions:      []string{},
		Attempts:         []Attempt{},
		Metadata: Metadata{
			Timestamp:      run.start.UTC().Format(time.RFC3339),
			Generator:      run.gen.Name(),
			MCPServersUsed: []string{},
		},
	}
	run.progress = func(p Progress) {
		run.stage = p.Stage
		if q.Progress != nil {
			q.Progress(p)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, run.timeout)
	run.log.Info("query processing started", "event", "query_processing_started", "component", "orchestrator",
		"question_length", len(q.Question))
	return ctx, run, cancel
}

// endAttempt ends the running attempt's span.
func (run *question) endAttempt(err error) {
	if run.attempt != nil {
		telemetry.End(run.attempt, err)
		run.attempt = nil
	}
}

// startAttempt ends the previous attempt's span (its SQL failed; this
// attempt repairs it) and starts this one's.
func (run *question) startAttempt(ctx context.Context, attempt int) context.Context {
	run.endAttempt(run.lastErr)
	var actx context.Context
	actx, run.attempt = startAttempt(ctx, attempt, run.req.Repair)
	return actx
}

// finish completes the result and the logs, metrics and spans of the
// question; err (nil: answered) is said in terms of the question's
// timeout or cancellation when that is what stopped it.
func (run *question) finish(ctx context.Context, err error) (*QueryResult, error) {
	res, log := run.res, run.log
	res.Metadata.ExecutionTime = time.Since(run.start).Seconds()
	switch {
	case err == nil || ctx.Err() == nil:
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		te := &TimeoutError{Timeout: run.timeout, Stage: run.stage, Generator: res.Metadata.Generator}
		if run.stage == StageValidating || run.stage == StageExecuting {
			te.Server = res.Metadata.Executor
			if te.Server == "" && run.exec != nil {
				te.Server = run.exec.ID()
			}
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			te.Last = err
		}
		err = te
	case !errors.Is(err, ctx.Err()):
		err = fmt.Errorf("question cancelled: %w (last error: %v)", ctx.Err(), err)
	}
	run.o.metrics.queryFinished(err == nil)
	if err != nil {
		res.Success = false
		res.Error = err.Error()
		log.Log(ctx, failureLevel(err), "query failed", "event", "fatal_error", "component", "orchestrator",
			"duration_ms", ms(time.Since(run.start)), "attempts", len(res.Attempts), "error", err.Error())
	} else {
		res.Success = true
	}
	log.Info("query processing completed", "event", "query_processing_completed", "component", "orchestrator",
		"duration_ms", ms(time.Since(run.start)), "success", res.Success, "attempts", len(res.Attempts),
		"cache", res.Metadata.Cache, "generator", res.Metadata.Generator)
	run.endAttempt(err)
	run.span.SetAttributes(telemetry.AttrGenerator.String(res.Metadata.Generator), telemetry.AttrAttempt.Int(len(res.Attempts)))
	telemetry.End(run.span, err)
	return res, err
}

// gather is step 1: the servers' resources (through the cache), the
// executor, and the generator's request built from them.
func (run *question) gather(ctx context.Context) error {
	o := run.o
	run.progress(Progress{Stage: StageGathering})
	t0 := time.Now()
	run.log.Info("resource gathering started", "event", "resource_gathering_started", "component", "orchestrator")
	gctx, gspan := telemetry.Start(ctx, "gather", trace.SpanKindInternal)
	if qe := o.everyExecutorDown(); qe != nil {
		telemetry.End(gspan, qe)
		return qe
	}
	g, err := o.cache.Gather(gctx, run.opID)
	telemetry.End(gspan, err)
	if err != nil {
		return o.resourceFault(gctx, err)
	}
	run.res.Metadata.Cache = g.CacheStatus()
	run.res.Metadata.MissingServers = g.Missing
	run.log.Info("resource gathering completed", "event", "resource_gathering_completed", "component", "orchestrator",
		"duration_ms", ms(time.Since(t0)), "servers", len(g.Snaps), "cache", run.res.Metadata.Cache,
		"missing_servers", g.Missing)

	exec, err := o.clients.Executor()
	if err != nil {
		return err
	}
	run.g, run.exec = g, exec
	run.maxRows = run.q.MaxRows
	if run.maxRows <= 0 {
		run.maxRows = o.cfg.HTTP.DefaultMaxRows
	}
	run.req, run.base = o.buildRequest(run.q.Question, g, exec)
	run.res.Metadata.MCPServersUsed = serversUsed(g, exec)
	o.sweepStale(run.base)
	return nil
}

// everyExecutorDown is the database fault of the executors when the
// liveness probe finds every one's database running nothing: the
// question cannot be answered, and is not worth an LLM call.
func (o *Orchestrator) everyExecutorDown() *executor.QueryExecutionError {
	var first *executor.QueryExecutionError
	for _, c := range o.clients.Conns() {
		if !c.Config().HasCapability(config.CapExecuteQuery) || c.State() != mcpclient.StateConnected {
			continue
		}
		qe := o.exec.DownError(c, "")
		if qe == nil {
			return nil
		}
		if first == nil {
			first = qe
		}
	}
	return first
}

// resourceFault says why resources could not be gathered when an
// executor's database is the cause: reading its resources (a schema) needs
// the database.
func (o *Orchestrator) resourceFault(ctx context.Context, err error) error {
	var fe *resources.ResourceFetchError
	if !errors.As(err, &fe) || ctx.Err() != nil {
		return err
	}
	c := o.clients.Conn(fe.Server)
	if c == nil || !c.Config().HasCapability(config.CapExecuteQuery) {
		return err
	}
	if qe := o.exec.Reach(ctx, c); qe != nil {
		return qe
	}
	return err
}

// generate is step 2: the generator writes SQL (or repairs the last
// attempt's); its token usage and fallback are recorded.
func (run *question) generate(ctx context.Context, attempt int) (sqlgen.Plan, error) {
	o, res := run.o, run.res
	run.progress(Progress{Stage: StageGenerating, Attempt: attempt})
	plan, err := o.generate(ctx, run.log, run.gen, run.req, attempt)
	run.usage.PromptTokens += plan.Usage.PromptTokens
	run.usage.CompletionTokens += plan.Usage.CompletionTokens
	run.usage.TotalTokens += plan.Usage.TotalTokens
	if run.usage.TotalTokens > 0 {
		res.Metadata.Usage = &TokenUsage{PromptTokens: run.usage.PromptTokens,
			CompletionTokens: run.usage.CompletionTokens, TotalTokens: run.usage.TotalTokens}
	}
	if err != nil {
		if attempt > 1 {
			o.metrics.recoveryOutcome(OutcomeFailed)
		}
		return plan, err
	}
	if plan.Fallback {
		res.Metadata.Fallback = true
		res.Metadata.FallbackReason = plan.FallbackReason
		o.metrics.fallback(plan.FallbackCause)
	}
	if plan.Generator != "" {
		res.Metadata.Generator = plan.Generator
	}
	return plan, nil
}

// check is step 3: a repair that returns SQL already tried on the same
// database stops the question; otherwise the plan becomes the answer's
// SQL, explanation and entities.
func (run *question) check(attempt int, plan sqlgen.Plan) error {
	res := run.res
	if attempt > 1 && wasTriedOn(run.tried, run.triedOn, plan.SQL, plan.Server) {
		run.log.Warn("repair returned SQL already tried; stopping", "event", "error_occurred", "component", "orchestrator",
			"attempt", attempt)
		run.o.metrics.recoveryOutcome(OutcomeStoppedRepeat)
		return fmt.Errorf("the generator repeated SQL it had already tried, giving up: %w", run.lastErr)
	}
	run.tried = append(run.tried, plan.SQL)
	run.triedOn = append(run.triedOn, plan.Server)
	res.SQL = executor.EchoSQL(plan.SQL)
	res.Explanation = plan.Explanation
	res.Assumptions = append([]string{}, plan.Assumptions...)
	res.Metadata.Confidence = plan.Confidence
	res.ResolvedEntities = plan.ResolvedEntities
	if res.ResolvedEntities == nil {
		res.ResolvedEntities = map[string]map[string]string{}
	}
	return nil
}

// execute is step 4: the plan's SQL runs on the database it names
// (refused before anything is sent when it names none or reads another
// database's tables) and the attempt is recorded; on success the result
// is the answer's.
func (run *question) execute(ctx context.Context, attempt int, plan sqlgen.Plan) error {
	o, res, base := run.o, run.res, run.base
	a0 := time.Now()
	target, dialect, err := base.route(run.exec, plan)
	var data *executor.QueryData
	if err == nil {
		data, err = o.exec.Run(ctx, run.log, target, dialect, plan.SQL, run.maxRows, true, func(stage string) {
			run.progress(Progress{Stage: stage, Attempt: attempt})
		})
	}
	at := Attempt{SQL: executor.EchoSQL(plan.SQL), DurationMS: time.Since(a0).Milliseconds()}
	if len(base.databases) > 1 {
		at.Server = plan.Server
	}
	if err != nil {
		run.lastErr = err
		var qe *executor.QueryExecutionError
		if errors.As(err, &qe) {
			at.Error, at.Category = qe.Message, qe.Category
		} else {
			at.Error = err.Error()
		}
		res.Attempts = append(res.Attempts, at)
		return err
	}
	res.Attempts = append(res.Attempts, at)
	res.Result = data
	res.Metadata.Executor = target.ID()
	res.Metadata.MCPServersUsed = base.serversUsed(run.g, target)
	if attempt > 1 {
		o.metrics.recoveryOutcome(OutcomeRecovered)
	}
	return nil
}

// repair is step 5: a failed SQL attempt is categorized, and the next
// attempt asked to repair it; it returns the error that stops the
// question instead: not a SQL error (a lost executor, a timeout),
// a PERMISSION_ERROR, the question's own timeout, or the last attempt.
func (run *question) repair(ctx context.Context, attempt int, plan sqlgen.Plan, err error) error {
	o := run.o
	var qe *executor.QueryExecutionError
	if !errors.As(err, &qe) {
		return err // nothing to repair
	}
	o.metrics.sqlError(qe.Category)
	level := slog.LevelWarn
	if qe.Category == sqlerr.DatabaseError {
		level = slog.LevelInfo // logged at ERROR once per fault (mcpclient's SetFault)
	}
	run.log.Log(ctx, level, "sql attempt failed", "event", "error_occurred", "component", "orchestrator",
		"attempt", attempt, "category", qe.Category, "error", qe.Message, "duration_ms", run.res.Attempts[len(run.res.Attempts)-1].DurationMS)
	if ctx.Err() != nil {
		return err
	}
	if qe.Category == sqlerr.PermissionError {
		o.metrics.recoveryOutcome(OutcomeStoppedPermission)
		return err
	}
	if !qe.Category.Repairable() {
		// The database itself failed: no other SQL fixes that.
		o.metrics.recoveryOutcome(OutcomeFailed)
		return err
	}
	if attempt == o.cfg.Orchestration.MaxRetryAttempts {
		o.metrics.recoveryOutcome(OutcomeFailed)
		return err
	}
	o.metrics.recoveryAttempt(qe.Category)
	run.log.Info("recovery attempted", "event", "recovery_attempted", "component", "orchestrator",
		"attempt", attempt+1, "category", qe.Category)
	run.progress(Progress{Stage: StageRetry, Attempt: attempt + 1, Category: qe.Category, Message: qe.Message})
	tried := make([]string, len(run.tried))
	for i, t := range run.tried {
		tried[i] = executor.EchoSQL(t)
	}
	run.req.Repair = &sqlgen.Repair{Attempt: attempt, FailedSQL: executor.EchoSQL(plan.SQL), Error: qe.Message,
		Category: qe.Category, Tried: tried, Server: plan.Server}
	return nil
}

// startAttempt starts the span of one attempt at the question: "attempt"
// for the first, "repair" with the category being repaired for the others.
func startAttempt(ctx context.Context, attempt int, repair *sqlgen.Repair) (context.Context, trace.Span) {
	if repair == nil {
		return telemetry.Start(ctx, "attempt", trace.SpanKindInternal, telemetry.AttrAttempt.Int(attempt))
	}
	return telemetry.Start(ctx, "repair", trace.SpanKindInternal, telemetry.AttrAttempt.Int(attempt),
		telemetry.AttrCategory.String(string(repair.Category)))
}

// generate calls the generator with logs, metrics and a span carrying the
// token counts.
func (o *Orchestrator) generate(ctx context.Context, log *slog.Logger, gen sqlgen.Generator, req sqlgen.Request, attempt int) (sqlgen.Plan, error) {
	attrs := []any{"event", "llm_prompt_created", "component", "sqlgen",
		"attempt", attempt, "servers", len(req.Servers), "repair", req.Repair != nil, "generator", gen.Name()}
	if gen.Name() != builtin.Name {
		// The question's share of the resources is chosen once here; the
		// LLM generator builds its prompt from this rendering as it is.
		req.Rendered = req.Rendered.Select(req)
		st := sqlgen.MeasurePrompt(req)
		o.metrics.observePrompt(st.TokensEst)
		attrs = append(attrs, "prompt_chars", st.Chars, "prompt_tokens_est", st.TokensEst,
			"tables_selected", st.TablesSelected, "tables_total", st.TablesTotal,
			"selection_ms", float64(st.SelectTime.Microseconds())/1000)
	}
	log.Info("llm prompt created", attrs...)
	ctx, span := telemetry.Start(ctx, "generate", trace.SpanKindInternal, telemetry.AttrAttempt.Int(attempt),
		telemetry.AttrGenerator.String(gen.Name()))
	t0 := time.Now()
	plan, err := gen.Generate(ctx, req)
	d := time.Since(t0)
	span.SetAttributes(telemetry.AttrPromptToks.Int(plan.Usage.PromptTokens), telemetry.AttrOutputToks.Int(plan.Usage.CompletionTokens))
	telemetry.End(span, err)
	o.metrics.observeLLM(d, plan.Usage.PromptTokens, plan.Usage.CompletionTokens)
	if err != nil {
		log.Log(ctx, failureLevel(errors.Join(err, context.Cause(ctx))), "sql generation failed",
			"event", "error_occurred", "component", "sqlgen",
			"attempt", attempt, "duration_ms", ms(d), "error", err.Error())
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			return plan, fmt.Errorf("%w: %w", ctx.Err(), err)
		}
		return plan, err
	}
	log.Info("llm response received", "event", "llm_response_received", "component", "sqlgen",
		"attempt", attempt, "duration_ms", ms(d), "prompt_tokens", plan.Usage.PromptTokens,
		"completion_tokens", plan.Usage.CompletionTokens, "generator", plan.Generator)
	log.Info("sql generated", "event", "sql_generated", "component", "sqlgen", "attempt", attempt,
		"sql", executor.EchoSQL(plan.SQL), "sql_length", len(plan.SQL), "confidence", plan.Confidence, "entities", len(plan.ResolvedEntities))
	return plan, nil
}

// wasTried reports whether sql matches a tried statement, ignoring case,
// whitespace and a trailing semicolon.
func wasTried(tried []string, sql string) bool {
	n := normalizeSQL(sql)
	for _, t := range tried {
		if normalizeSQL(t) == n {
			return true
		}
	}
	return false
}

func normalizeSQL(s string) string {
	s = strings.TrimSpace(strings.ToLower(s))
	s = strings.TrimRight(s, "; \t\n")
	return strings.Join(strings.Fields(s), " ")
}

// failureLevel is the log level of a question that was not answered: INFO
// when it was cancelled, WARN when the question itself was the problem (the generator declined it, or
// its SQL still failed after the repairs), ERROR when a part of the system
// failed (an MCP server, the LLM, a timeout). Operators alert on ERROR.
func failureLevel(err error) slog.Level {
	if errors.Is(err, context.Canceled) {
		// The client went away (or the server is shutting down): nobody
		// is waiting for an answer, and nothing is broken.
		return slog.LevelInfo
	}
	var gen *SQLGenerationError
	if errors.As(err, &gen) && (gen.Reason == sqlgen.ReasonDeclined || gen.Reason == sqlgen.ReasonInvalidSQL) {
		return slog.LevelWarn
	}
	var exec *executor.QueryExecutionError
	if errors.As(err, &exec) && exec.Category == sqlerr.DatabaseError {
		// The executor's fault is logged at ERROR once, when it starts
		// (mcpclient's SetFault), not once per question it fails.
		return slog.LevelInfo
	}
	if errors.As(err, &exec) && exec.Reason == executor.ReasonSQLExecution && exec.Category != sqlerr.Timeout {
		return slog.LevelWarn
	}
	return slog.LevelError
}
