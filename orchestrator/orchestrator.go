// Package orchestrator is the MCP client side of talk2tables: it connects
// to every ranked MCP server, gathers and caches their resources, asks a
// Generator for SQL, validates and runs it on the executor server, and
// repairs failures by category.
package orchestrator

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
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

// Orchestrator answers questions with the configured MCP servers and a SQL
// generator. It is safe for concurrent use.
type Orchestrator struct {
	cfg     *config.Config
	log     *slog.Logger
	gen     sqlgen.Generator
	ownGen  bool // gen was built by New from the llm config (Close tidies it)
	metrics *Metrics

	clients *mcpclient.Pool
	cache   *resources.Cache
	exec    *executor.Executor

	// pool are the options of the MCP client pool (Option sets them).
	pool mcpclient.Options

	baseMu sync.Mutex
	base   *requestBase // last generator request base (see requestBase)

	closeOnce sync.Once
}

// Option configures New.
type Option func(*Orchestrator)

// WithGenerator uses g instead of the generator the llm config selects.
func WithGenerator(g sqlgen.Generator) Option { return func(o *Orchestrator) { o.gen = g } }

// WithMetrics records Prometheus metrics in m.
func WithMetrics(m *Metrics) Option { return func(o *Orchestrator) { o.metrics = m } }

// WithInProcessServer attaches s as the server with config id; its config
// entry must use transport "inprocess". For tests and embedders.
func WithInProcessServer(id string, s *server.MCPServer) Option {
	return func(o *Orchestrator) { o.pool.InProcess[id] = s }
}

// WithChildStderr sends the stderr of stdio children to w (default
// os.Stderr, so their logs join the process's).
func WithChildStderr(w io.Writer) Option { return func(o *Orchestrator) { o.pool.ChildStderr = w } }

// withBackoff sets the reconnect backoff bounds (tests).
func withBackoff(lo, hi time.Duration) Option {
	return func(o *Orchestrator) { o.pool.BackoffMin, o.pool.BackoffMax = lo, hi }
}

// New connects to every configured server in parallel. A required server
// (config.Config.Required) that cannot be reached fails New with an
// *mcpclient.MCPConnectionError (Phase "initial"); any other is marked
// failed and retried in the background.
func New(ctx context.Context, cfg *config.Config, logger *slog.Logger, opts ...Option) (*Orchestrator, error) {
	if cfg == nil {
		return nil, errors.New("orchestrator: nil config")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	o := &Orchestrator{
		cfg:  cfg,
		log:  logger,
		pool: mcpclient.Options{InProcess: map[string]*server.MCPServer{}, ChildStderr: os.Stderr},
	}
	for _, opt := range opts {
		opt(o)
	}
	if o.gen == nil {
		g, err := NewGenerator(cfg.LLM, logger)
		if err != nil {
			return nil, err
		}
		o.gen, o.ownGen = g, true
	}
	if c, ok := o.gen.(interface{ OnCircuitChange(func(string)) }); ok {
		c.OnCircuitChange(o.metrics.circuitState)
	}
	o.pool.Metrics = o.metrics
	o.pool.Hooks = mcpclient.Hooks{
		Connected: func(c *mcpclient.Conn) {
			o.cache.Invalidate(c.ID())
			o.exec.DataChanged(c.ID(), false)
		},
		Invalidated: func(c *mcpclient.Conn) { o.cache.Invalidate(c.ID()) },
		// A new database or catalog may be behind the change: every
		// cached SQL result goes too.
		ResourcesChanged: func(c *mcpclient.Conn) {
			o.cache.Invalidate(c.ID())
			o.exec.DataChanged(c.ID(), true)
		},
		ProbeFault: func(ctx context.Context, c *mcpclient.Conn) { o.exec.ProbeFault(ctx, c) },
	}
	o.exec = executor.New(cfg, o.metrics)
	o.clients = mcpclient.New(cfg, logger, o.pool)
	o.cache = resources.New(o.clients, o.exec, cfg, logger, o.metrics)
	if err := o.clients.Connect(ctx); err != nil {
		o.Close()
		return nil, err
	}
	return o, nil
}

// Close ends every session (stdio children are reaped), stops reconnects
// and pings. It is idempotent.
func (o *Orchestrator) Close() error {
	o.closeOnce.Do(func() {
		o.clients.Close()
		if o.ownGen {
			// The LLM client's keep-alive pool: its connection goroutines
			// would otherwise linger until the idle timeout.
			sqlgen.CloseIdleConnections(o.gen)
		}
	})
	return nil
}

// Servers returns every configured server by priority.
func (o *Orchestrator) Servers() []mcpclient.ServerStatus { return o.clients.Servers() }

// Health summarizes the servers' states (see mcpclient.Pool.Health).
func (o *Orchestrator) Health() mcpclient.Health { return o.clients.Health() }

// Executors lists the ids of the configured executors by priority (see
// mcpclient.Pool.Executors).
func (o *Orchestrator) Executors() []string { return o.clients.Executors() }

// RoutingTable maps every reachable tool name to the server id answering
// it (see mcpclient.Pool.RoutingTable).
func (o *Orchestrator) RoutingTable() map[string]string { return o.clients.RoutingTable() }

// GeneratorName names the generator answering questions.
func (o *Orchestrator) GeneratorName() string { return o.gen.Name() }

// ResourceSnapshot is one server's resources as last gathered.
type ResourceSnapshot struct {
	ServerID   string         `json:"server_id"`
	Name       string         `json:"name"`
	Priority   int            `json:"priority"`
	Resources  map[string]any `json:"resources"`
	FetchedAt  time.Time      `json:"fetched_at"`
	AgeSeconds float64        `json:"age_seconds"`
	Error      string         `json:"error,omitempty"`
}

// Resources returns every server's resources (through the cache), by
// priority; a server that is down or failing carries Error instead.
func (o *Orchestrator) Resources(ctx context.Context) ([]ResourceSnapshot, error) {
	out := make([]ResourceSnapshot, len(o.clients.Conns()))
	var wg sync.WaitGroup
	for i, c := range o.clients.Conns() {
		out[i] = ResourceSnapshot{ServerID: c.ID(), Name: c.Config().Name, Priority: c.Config().Priority}
		wg.Go(func() {
			if st := c.State(); st != mcpclient.StateConnected {
				out[i].Error = "server is " + st
				return
			}
			if !resources.Gathers(c) {
				out[i].Resources = map[string]any{}
				return
			}
			snap, _, err := o.cache.Get(ctx, c, "")
			if err != nil {
				out[i].Error = err.Error()
				return
			}
			out[i].Resources = snap.Resources
			out[i].FetchedAt = snap.FetchedAt
			out[i].AgeSeconds = time.Since(snap.FetchedAt).Seconds()
		})
	}
	wg.Wait()
	return out, ctx.Err()
}

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

// Process answers one question: gather resources, generate SQL, validate,
// execute, and repair failures by category up to max_retry_attempts. On
// failure it returns both a *QueryResult (Success false) and the typed error.
func (o *Orchestrator) Process(ctx context.Context, q Query) (*QueryResult, error) {
	start := time.Now()
	opID := q.OperationID
	if opID == "" {
		opID = newOperationID()
	}
	log := o.log.With("operation_id", opID)
	ctx = telemetry.WithOperationID(ctx, opID)
	ctx, span := telemetry.Start(ctx, "question", trace.SpanKindInternal)
	var attemptSpan trace.Span // the running attempt's (see startAttempt)
	endAttempt := func(err error) {
		if attemptSpan != nil {
			telemetry.End(attemptSpan, err)
			attemptSpan = nil
		}
	}
	gen := o.gen
	if q.Generator != nil {
		gen = q.Generator
	}
	o.metrics.queryStarted()
	res := &QueryResult{
		Query:            q.Question,
		ResolvedEntities: map[string]map[string]string{},
		Assumptions:      []string{},
		Attempts:         []Attempt{},
		Metadata: Metadata{
			Timestamp:      start.UTC().Format(time.RFC3339),
			Generator:      gen.Name(),
			MCPServersUsed: []string{},
		},
	}
	progress := func(p Progress) {
		if q.Progress != nil {
			q.Progress(p)
		}
	}
	timeout := o.cfg.Orchestration.QueryTimeout
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	log.Info("query processing started", "event", "query_processing_started", "component", "orchestrator",
		"question_length", len(q.Question))

	finish := func(err error) (*QueryResult, error) {
		res.Metadata.ExecutionTime = time.Since(start).Seconds()
		if err != nil && ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				err = fmt.Errorf("question not answered within %s: %w (last error: %v)", timeout, ctx.Err(), err)
			} else {
				err = fmt.Errorf("question cancelled: %w (last error: %v)", ctx.Err(), err)
			}
		}
		o.metrics.queryFinished(err == nil)
		if err != nil {
			res.Success = false
			res.Error = err.Error()
			log.Log(ctx, failureLevel(err), "query failed", "event", "fatal_error", "component", "orchestrator",
				"duration_ms", ms(time.Since(start)), "attempts", len(res.Attempts), "error", err.Error())
		} else {
			res.Success = true
		}
		log.Info("query processing completed", "event", "query_processing_completed", "component", "orchestrator",
			"duration_ms", ms(time.Since(start)), "success", res.Success, "attempts", len(res.Attempts),
			"cache", res.Metadata.Cache, "generator", res.Metadata.Generator)
		endAttempt(err)
		span.SetAttributes(telemetry.AttrGenerator.String(res.Metadata.Generator), telemetry.AttrAttempt.Int(len(res.Attempts)))
		telemetry.End(span, err)
		return res, err
	}

	// 1. Resources.
	progress(Progress{Stage: StageGathering})
	t0 := time.Now()
	log.Info("resource gathering started", "event", "resource_gathering_started", "component", "orchestrator")
	gctx, gspan := telemetry.Start(ctx, "gather", trace.SpanKindInternal)
	g, err := o.cache.Gather(gctx, opID)
	telemetry.End(gspan, err)
	if err != nil {
		return finish(err)
	}
	res.Metadata.Cache = g.CacheStatus()
	res.Metadata.MissingServers = g.Missing
	log.Info("resource gathering completed", "event", "resource_gathering_completed", "component", "orchestrator",
		"duration_ms", ms(time.Since(t0)), "servers", len(g.Snaps), "cache", res.Metadata.Cache,
		"missing_servers", g.Missing)

	exec, err := o.clients.Executor()
	if err != nil {
		return finish(err)
	}
	maxRows := q.MaxRows
	if maxRows <= 0 {
		maxRows = o.cfg.HTTP.DefaultMaxRows
	}
	req, base := o.buildRequest(q.Question, g, exec)
	res.Metadata.MCPServersUsed = serversUsed(g, exec)

	// 2..6. Generate, validate, execute, repair.
	var tried []string
	var triedOn []string // the database of each tried statement (several databases)
	var usage sqlgen.Usage
	var lastErr error
	maxAttempts := o.cfg.Orchestration.MaxRetryAttempts
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		endAttempt(lastErr) // the previous attempt's SQL failed; this one repairs it
		var actx context.Context
		actx, attemptSpan = startAttempt(ctx, attempt, req.Repair)
		progress(Progress{Stage: StageGenerating, Attempt: attempt})
		plan, err := o.generate(actx, log, gen, req, attempt)
		usage.PromptTokens += plan.Usage.PromptTokens
		usage.CompletionTokens += plan.Usage.CompletionTokens
		usage.TotalTokens += plan.Usage.TotalTokens
		if usage.TotalTokens > 0 {
			res.Metadata.Usage = &TokenUsage{PromptTokens: usage.PromptTokens,
				CompletionTokens: usage.CompletionTokens, TotalTokens: usage.TotalTokens}
		}
		if err != nil {
			if attempt > 1 {
				o.metrics.recoveryOutcome(OutcomeFailed)
			}
			return finish(err)
		}
		if plan.Fallback {
			res.Metadata.Fallback = true
			res.Metadata.FallbackReason = plan.FallbackReason
			o.metrics.fallback(plan.FallbackCause)
		}
		if plan.Generator != "" {
			res.Metadata.Generator = plan.Generator
		}
		if attempt > 1 && wasTriedOn(tried, triedOn, plan.SQL, plan.Server) {
			log.Warn("repair returned SQL already tried; stopping", "event", "error_occurred", "component", "orchestrator",
				"attempt", attempt)
			o.metrics.recoveryOutcome(OutcomeStoppedRepeat)
			return finish(fmt.Errorf("the generator repeated SQL it had already tried, giving up: %w", lastErr))
		}
		tried = append(tried, plan.SQL)
		triedOn = append(triedOn, plan.Server)
		res.SQL = plan.SQL
		res.Explanation = plan.Explanation
		res.Assumptions = append([]string{}, plan.Assumptions...)
		res.Metadata.Confidence = plan.Confidence
		res.ResolvedEntities = plan.ResolvedEntities
		if res.ResolvedEntities == nil {
			res.ResolvedEntities = map[string]map[string]string{}
		}

		a0 := time.Now()
		// The database the plan names (several executors), refused before
		// anything is sent when it names none or reads another's tables.
		target, dialect, err := base.route(exec, plan)
		var data *executor.QueryData
		if err == nil {
			data, err = o.exec.Run(actx, log, target, dialect, plan.SQL, maxRows, true, func(stage string) {
				progress(Progress{Stage: stage, Attempt: attempt})
			})
		}
		at := Attempt{SQL: plan.SQL, DurationMS: time.Since(a0).Milliseconds()}
		if len(base.databases) > 1 {
			at.Server = plan.Server
		}
		if err == nil {
			res.Attempts = append(res.Attempts, at)
			res.Result = data
			res.Metadata.Executor = target.ID()
			res.Metadata.MCPServersUsed = base.serversUsed(g, target)
			if attempt > 1 {
				o.metrics.recoveryOutcome(OutcomeRecovered)
			}
			return finish(nil)
		}
		lastErr = err
		var qe *executor.QueryExecutionError
		if !errors.As(err, &qe) {
			// Not a SQL error (lost executor, timeout): nothing to repair.
			at.Error = err.Error()
			res.Attempts = append(res.Attempts, at)
			return finish(err)
		}
		at.Error, at.Category = qe.Message, qe.Category
		res.Attempts = append(res.Attempts, at)
		o.metrics.sqlError(qe.Category)
		log.Warn("sql attempt failed", "event", "error_occurred", "component", "orchestrator",
			"attempt", attempt, "category", qe.Category, "error", qe.Message, "duration_ms", at.DurationMS)
		if ctx.Err() != nil {
			return finish(err)
		}
		if qe.Category == sqlerr.PermissionError {
			o.metrics.recoveryOutcome(OutcomeStoppedPermission)
			return finish(err)
		}
		if attempt == maxAttempts {
			o.metrics.recoveryOutcome(OutcomeFailed)
			return finish(err)
		}
		o.metrics.recoveryAttempt(qe.Category)
		log.Info("recovery attempted", "event", "recovery_attempted", "component", "orchestrator",
			"attempt", attempt+1, "category", qe.Category)
		progress(Progress{Stage: StageRetry, Attempt: attempt + 1, Category: qe.Category, Message: qe.Message})
		req.Repair = &sqlgen.Repair{Attempt: attempt, FailedSQL: plan.SQL, Error: qe.Message,
			Category: qe.Category, Tried: append([]string(nil), tried...), Server: plan.Server}
	}
	return finish(lastErr) // unreachable: the loop returns on its last attempt
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
		"sql", plan.SQL, "confidence", plan.Confidence, "entities", len(plan.ResolvedEntities))
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

// buildRequest turns gathered resources into the generator's request. The
// question-independent part (servers, their rendered prompt text, dialect,
// the databases) is computed once per set of resource snapshots and shared.
func (o *Orchestrator) buildRequest(question string, g *resources.Gathered, exec *mcpclient.Conn) (sqlgen.Request, *requestBase) {
	b := o.requestBase(g, exec)
	today := b.today
	if today == "" {
		today = time.Now().UTC().Format("2006-01-02")
	}
	return sqlgen.Request{Question: question, Dialect: b.dialect, Today: today, Servers: b.servers,
		Rendered: b.rendered, Databases: b.databases}, b
}

// requestBase is the part of a generator request that depends only on the
// resource snapshots and the executor. It is immutable once built.
type requestBase struct {
	snaps    []*resources.Snapshot // the identity it was built for, by priority
	exec     *mcpclient.Conn
	servers  []sqlgen.ServerContext
	rendered *sqlgen.RenderedServers
	dialect  string
	today    string // from the executor's schema; empty means the clock's
	// databases are the executors' databases with the servers describing
	// each (bindDatabases); dbs finds one by executor id.
	databases []sqlgen.Database
	dbs       map[string]*database
}

// requestBase returns the base for g and exec, reusing the last one while
// the snapshots are the same objects. Snapshots are immutable and every
// refetch (TTL expiry, change notification, reconnect) stores a new one, so
// pointer identity is exactly "the resources did not change".
func (o *Orchestrator) requestBase(g *resources.Gathered, exec *mcpclient.Conn) *requestBase {
	o.baseMu.Lock()
	b := o.base
	o.baseMu.Unlock()
	if b != nil && b.exec == exec && slices.Equal(b.snaps, g.Snaps) {
		return b
	}
	b = newRequestBase(g, exec, o.cfg.LLM.TokenBudget())
	o.baseMu.Lock()
	o.base = b
	o.baseMu.Unlock()
	return b
}

func newRequestBase(g *resources.Gathered, exec *mcpclient.Conn, budget int) *requestBase {
	b := &requestBase{snaps: slices.Clone(g.Snaps), exec: exec,
		servers: make([]sqlgen.ServerContext, len(g.Snaps))}
	for i, s := range g.Snaps {
		c := g.Conns[i]
		b.servers[i] = sqlgen.ServerContext{ID: c.ID(), Name: c.Config().Name, Priority: c.Config().Priority,
			Domains: c.Config().Domains, Capabilities: c.Config().Capabilities, Resources: s.Resources,
			Version: strconv.FormatUint(s.Version, 10), RelevantOnly: c.Config().RelevantOnly()}
		if s.Resources == nil {
			b.servers[i].Resources = map[string]any{}
		}
	}
	// Dialect and today come from the executor's schema resource when it
	// has one ({"dialect": ..., "today": ...}).
	for i, s := range g.Snaps {
		if g.Conns[i] != exec {
			continue
		}
		for _, v := range s.Resources {
			m, ok := v.(map[string]any)
			if !ok {
				continue
			}
			if d, ok := m["dialect"].(string); ok && d != "" {
				b.dialect = d
				if t, ok := m["today"].(string); ok && t != "" {
					b.today = t
				}
				break
			}
		}
	}
	if exec.Config().Dialect != "" {
		b.dialect = exec.Config().Dialect // the configured dialect wins
	}
	b.rendered = sqlgen.RenderServersWith(b.servers, sqlgen.RenderOptions{TokenBudget: budget})
	b.databases, b.dbs = bindDatabases(g)
	return b
}

// serversUsed lists the servers whose resources went into the prompt, by
// priority, plus the executor (last when it contributed no resources).
func serversUsed(g *resources.Gathered, exec *mcpclient.Conn) []string {
	var out []string
	seen := false
	for i, s := range g.Snaps {
		c := g.Conns[i]
		if c == exec {
			seen = true
			out = append(out, c.ID())
			continue
		}
		if len(s.Resources) > 0 {
			out = append(out, c.ID())
		}
	}
	if !seen {
		out = append(out, exec.ID())
	}
	return out
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
	if errors.As(err, &exec) && exec.Reason == executor.ReasonSQLExecution && exec.Category != sqlerr.Timeout {
		return slog.LevelWarn
	}
	return slog.LevelError
}

// The gateway's view of the downstream servers (see mcpclient.Pool).

// Watch calls fn on every change of a downstream server until stop is
// called (see mcpclient.Pool.Watch).
func (o *Orchestrator) Watch(fn func(mcpclient.Change)) (stop func()) { return o.clients.Watch(fn) }

// Downstreams returns every configured server with its tool and resource
// definitions (see mcpclient.Pool.Downstreams).
func (o *Orchestrator) Downstreams() []mcpclient.Downstream { return o.clients.Downstreams() }

// CallTool calls tool on the server with id serverID (see
// mcpclient.Pool.CallTool).
func (o *Orchestrator) CallTool(ctx context.Context, serverID, tool string, args any, opts mcpclient.CallOptions) (*mcp.CallToolResult, error) {
	return o.clients.CallTool(ctx, serverID, tool, args, opts)
}

// ReadResource reads uri from the server with id serverID (see
// mcpclient.Pool.ReadResource).
func (o *Orchestrator) ReadResource(ctx context.Context, serverID, uri string, opts mcpclient.CallOptions) ([]mcp.ResourceContents, error) {
	return o.clients.ReadResource(ctx, serverID, uri, opts)
}

// AuthTools returns the tools and resources the forward_auth server
// offers the caller holding authorization (see mcpclient.Pool.AuthTools).
func (o *Orchestrator) AuthTools(ctx context.Context, serverID, authorization string) ([]mcp.Tool, []mcp.Resource, error) {
	return o.clients.AuthTools(ctx, serverID, authorization)
}

// SessionsOpened returns how many per-caller sessions the forward_auth
// server serverID has opened so far.
func (o *Orchestrator) SessionsOpened(serverID string) int64 {
	return o.clients.SessionsOpened(serverID)
}
