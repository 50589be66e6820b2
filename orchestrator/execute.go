package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"go.opentelemetry.io/otel/trace"

	"talk2tables/config"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/sqlerr"
	"talk2tables/telemetry"
)

// ExecuteSQL runs analyst SQL on the top-priority executor: read-only
// check, then execute. A failure is a categorized *QueryExecutionError (or
// a connection error when the executor is down).
func (o *Orchestrator) ExecuteSQL(ctx context.Context, sql string, maxRows int, operationID string) (*QueryData, error) {
	return o.ExecuteSQLOn(ctx, "", sql, maxRows, operationID)
}

// ExecuteSQLOn is ExecuteSQL on the executor with config id server ("" is
// the top-priority one). A server that is not a configured executor is an
// *UnknownExecutorError.
func (o *Orchestrator) ExecuteSQLOn(ctx context.Context, server, sql string, maxRows int, operationID string) (*QueryData, error) {
	if operationID == "" {
		operationID = newOperationID()
	}
	ctx = telemetry.WithOperationID(ctx, operationID)
	ctx, span := telemetry.Start(ctx, "sql", trace.SpanKindInternal)
	data, err := o.executeSQL(ctx, server, sql, maxRows, operationID)
	telemetry.End(span, err)
	return data, err
}

func (o *Orchestrator) executeSQL(ctx context.Context, server, sql string, maxRows int, operationID string) (*QueryData, error) {
	ctx, cancel := context.WithTimeout(ctx, o.cfg.Orchestration.QueryTimeout)
	defer cancel()
	log := o.log.With("operation_id", operationID)
	if maxRows <= 0 {
		maxRows = o.cfg.HTTP.DefaultMaxRows
	}
	exec, err := o.clients.Executor()
	if server != "" {
		exec, err = o.clients.ExecutorNamed(server)
		var ue *mcpclient.UnknownExecutorError
		if errors.As(err, &ue) {
			return nil, err
		}
	}
	if err != nil {
		if d := o.staleWhileDown(log, sql, maxRows, err); d != nil {
			return d, nil
		}
		var na *mcpclient.NoMCPAvailableError
		if errors.As(err, &na) {
			return nil, &QueryExecutionError{Reason: ReasonNoExecutor, SQL: sql, Message: err.Error(), Err: err}
		}
		return nil, err
	}
	dialect := o.executorDialect(ctx, exec, operationID)
	if err := o.checkAnalystSQL(exec, dialect, sql); err != nil {
		o.metrics.sqlError(err.Category)
		return nil, err
	}
	data, err := o.runSQL(ctx, log, exec, dialect, sql, maxRows, false, nil)
	if err != nil {
		var qe *QueryExecutionError
		if errors.As(err, &qe) {
			o.metrics.sqlError(qe.Category)
		}
		return nil, err
	}
	return data, nil
}

// staleWhileDown answers sql from the result cache, marked stale, when the
// executor is down (err from executor()).
func (o *Orchestrator) staleWhileDown(log *slog.Logger, sql string, maxRows int, err error) *QueryData {
	var ce *mcpclient.MCPConnectionError
	if errors.As(err, &ce) {
		return o.staleResult(log, ce.Server, sql, maxRows, err)
	}
	for _, c := range o.clients.Conns() { // no executor connected: the preferred one's results
		if c.Config().HasCapability(config.CapExecuteQuery) {
			return o.staleResult(log, c.ID(), sql, maxRows, err)
		}
	}
	return nil
}

// executorDialect is the executor's configured dialect, else the SQL
// dialect its schema resource (or discovered schema) declares ("" when it
// declares none: the static check then reads SQL with every dialect's
// rules, never with SQLite's alone), from the resource cache, even
// an expired entry (a server does not change engines); on a cold cache it
// reads the executor's resources first.
func (o *Orchestrator) executorDialect(ctx context.Context, exec *mcpclient.Conn, opID string) string {
	if exec.Config().Dialect != "" {
		return exec.Config().Dialect
	}
	o.cache.mu.RLock()
	e, ok := o.cache.entries[exec.ID()]
	o.cache.mu.RUnlock()
	if ok {
		return dialectOf(e.snap)
	}
	snap, _, err := o.cache.get(ctx, exec, opID)
	if err != nil {
		return "" // the executor call that follows reports what is wrong
	}
	return dialectOf(snap)
}

// dialectOf finds {"dialect": ...} in a server's resources ("" when none
// declares it).
func dialectOf(snap *serverSnapshot) string {
	if snap != nil {
		for _, v := range snap.Resources {
			if m, ok := v.(map[string]any); ok {
				if d, ok := m["dialect"].(string); ok && d != "" {
					return d
				}
			}
		}
	}
	return ""
}

// staticCheck runs the checks the database does not do itself: one
// read-only statement in the executor's dialect, and (for generated SQL)
// GROUP BY consistency.
func staticCheck(dialect, sql string, aggregation bool) *QueryExecutionError {
	if err := sqlgen.CheckReadOnlyIn(dialect, sql); err != nil {
		// CheckReadOnly carries its category (PERMISSION_ERROR or
		// SYNTAX_ERROR); reading it, rather than classifying the message,
		// keeps an echoed identifier like "timeout" from deciding it.
		cat := sqlerr.CategoryOf(err)
		if cat == sqlerr.UnknownError {
			// Not parseable as one statement: the model can fix that.
			cat = sqlerr.SyntaxError
		}
		return &QueryExecutionError{Reason: ReasonSQLExecution, Category: cat, SQL: sql, Message: err.Error(), Err: err}
	}
	if aggregation {
		if err := sqlgen.CheckAggregationIn(dialect, sql); err != nil {
			return &QueryExecutionError{Reason: ReasonSQLExecution, Category: sqlerr.CategoryOf(err), SQL: sql,
				Message: messageOf(err), Err: err}
		}
	}
	return nil
}

// messageOf returns a *sqlerr.Error's bare message, else err's text.
func messageOf(err error) string {
	var se *sqlerr.Error
	if errors.As(err, &se) {
		return se.Message
	}
	return err.Error()
}

// runSQL checks sql, answers it from the result cache when it can, else
// validates it on the executor when generated (validate true) and the
// executor has validate_query, then executes it and caches the result. When
// the executor is lost on the way, a stale cached result may answer (see
// ResultCacheConfig.MaxStale). stage, when set, is told "validating" and
// "executing".
func (o *Orchestrator) runSQL(ctx context.Context, log *slog.Logger, exec *mcpclient.Conn, dialect, sql string, maxRows int,
	validate bool, stage func(string)) (*QueryData, error) {
	if stage == nil {
		stage = func(string) {}
	}
	stage(StageValidating)
	if qe := staticCheck(dialect, sql, validate); qe != nil {
		return nil, qe
	}
	key, cached := o.cachedResult(log, exec, sql, maxRows)
	if cached != nil {
		stage(StageExecuting)
		_, span := telemetry.Start(ctx, "execute", trace.SpanKindInternal, telemetry.AttrServer.String(exec.ID()),
			telemetry.AttrResultCache.String(ResultCacheHit), telemetry.AttrRows.Int(cached.RowCount))
		span.End()
		return cached, nil
	}
	toolName, arg := exec.Config().ExecuteTool()
	if validate && exec.HasTool("validate_query") {
		vctx, vspan := telemetry.Start(ctx, "validate", trace.SpanKindInternal, telemetry.AttrServer.String(exec.ID()))
		_, err := o.callSQLTool(vctx, exec, "validate_query", map[string]any{"query": sql}, sql)
		telemetry.End(vspan, err)
		if err != nil {
			if d := o.staleOnLoss(log, exec, sql, maxRows, err); d != nil {
				return d, nil
			}
			return nil, err
		}
	}
	stage(StageExecuting)
	args := map[string]any{arg: sql}
	if name := exec.LimitArgument(toolName); name != "" {
		args[name] = maxRows
	}
	t0 := time.Now()
	log.Info("sql execution started", "event", "sql_execution_started", "component", "orchestrator",
		"server", exec.ID(), "tool", toolName)
	ectx, espan := telemetry.Start(ctx, "execute", trace.SpanKindInternal, telemetry.AttrServer.String(exec.ID()))
	data, size, err := o.querySQL(ectx, exec, toolName, args, sql)
	if err != nil {
		telemetry.End(espan, err)
		log.Info("sql execution completed", "event", "sql_execution_completed", "component", "orchestrator",
			"server", exec.ID(), "duration_ms", ms(time.Since(t0)), "success", false)
		if d := o.staleOnLoss(log, exec, sql, maxRows, err); d != nil {
			return d, nil
		}
		return nil, err
	}
	exec.ClearFault()
	data.Executor = exec.ID()
	if len(data.Rows) > maxRows {
		data.Rows = data.Rows[:maxRows]
		data.RowCount = maxRows
		data.Truncated = true
	}
	if err := o.boundResult(data, maxRows); err != nil {
		telemetry.End(espan, err)
		return nil, &QueryExecutionError{Reason: ReasonSQLExecution, Category: sqlerr.CategoryOf(err), SQL: sql,
			Message: messageOf(err), Err: err}
	}
	espan.SetAttributes(telemetry.AttrRows.Int(data.RowCount))
	espan.End()
	data = o.storeResult(key, data, size)
	log.Info("sql execution completed", "event", "sql_execution_completed", "component", "orchestrator",
		"server", exec.ID(), "duration_ms", ms(time.Since(t0)), "success", true, "row_count", data.RowCount,
		"truncated", data.Truncated)
	return data, nil
}

// staleOnLoss answers from the result cache, marked stale, when err says
// the executor was lost.
func (o *Orchestrator) staleOnLoss(log *slog.Logger, exec *mcpclient.Conn, sql string, maxRows int, err error) *QueryData {
	var ce *mcpclient.MCPConnectionError
	if !errors.As(err, &ce) {
		return nil
	}
	return o.staleResult(log, exec.ID(), sql, maxRows, err)
}

// querySQL runs a SQL tool and reads its result as a table (foreign.go),
// with the size of the answer's text for the result cache. An error the
// executor put inside a result envelope is a categorized
// *QueryExecutionError like a tool error; an answer that is no table is a
// *ResultFormatError.
func (o *Orchestrator) querySQL(ctx context.Context, exec *mcpclient.Conn, tool string, args map[string]any, sql string) (*QueryData, int, error) {
	res, err := o.callSQLTool(ctx, exec, tool, args, sql)
	if err != nil {
		return nil, 0, err
	}
	data, err := decodeResult(res)
	var ee *envelopeError
	var fe *ResultFormatError
	switch {
	case errors.As(err, &ee):
		qe := &QueryExecutionError{Reason: ReasonSQLExecution, Category: ee.category(), SQL: sql, Message: ee.message,
			Err: sqlerr.New(ee.category(), ee.message)}
		noteFault(exec, qe)
		return nil, 0, qe
	case errors.As(err, &fe):
		fe.Server, fe.Tool = exec.ID(), tool
		return nil, 0, fe
	case err != nil:
		return nil, 0, err
	}
	// How a result was served is ours to say, not the executor's.
	data.ResultCache, data.AgeS, data.Stale = "", nil, false
	if data.Columns == nil {
		data.Columns = []string{}
	}
	if data.Rows == nil {
		data.Rows = [][]any{}
	}
	data.RowCount = len(data.Rows)
	size := 0
	for _, t := range textContents(res) {
		size += len(t)
	}
	return data, size, nil
}

// callSQLTool calls a SQL tool. A tool error becomes a categorized
// *QueryExecutionError: the {category, message} body of our database MCP,
// or a foreign executor's message (inside its envelope) classified here. A
// call that timed out while the server still answers pings is a TIMEOUT
// the generator can repair (the call was cancelled); a lost or
// unresponsive executor is an *MCPConnectionError.
func (o *Orchestrator) callSQLTool(ctx context.Context, exec *mcpclient.Conn, tool string, args map[string]any, sql string) (*mcp.CallToolResult, error) {
	var res *mcp.CallToolResult
	err := exec.Call(ctx, "tools/call:"+tool, func(ctx context.Context, cl *client.Client) error {
		req := mcp.CallToolRequest{}
		req.Params.Name = tool
		req.Params.Arguments = args
		var err error
		res, err = cl.CallTool(ctx, req)
		return err
	})
	if err != nil {
		var ce *mcpclient.MCPConnectionError
		var te *mcpclient.CallTimeoutError
		switch {
		case errors.As(err, &ce) || ctx.Err() != nil:
			return nil, err
		case errors.As(err, &te):
			msg := fmt.Sprintf("the statement did not finish within %s (the mcp_call_timeout of server %q) and was cancelled; "+
				"make it cheaper: filter earlier, aggregate before joining, avoid cross joins, add a LIMIT", te.Timeout, exec.ID())
			return nil, &QueryExecutionError{Reason: ReasonSQLExecution, Category: sqlerr.Timeout, SQL: sql, Message: msg,
				Err: fmt.Errorf("%w: %w", sqlerr.New(sqlerr.Timeout, msg), err)}
		case errors.Is(err, mcpclient.ErrResponseTooLarge):
			return nil, o.tooLargeError(sql, err)
		}
		// A protocol error (unknown tool, bad arguments): not the SQL's fault,
		// but reported per attempt like one.
		return nil, &QueryExecutionError{Reason: ReasonSQLExecution, Category: sqlerr.Classify(err.Error()),
			SQL: sql, Message: err.Error(), Err: err}
	}
	if res.IsError {
		se := toolError(res)
		qe := &QueryExecutionError{Reason: ReasonSQLExecution, Category: se.Category, SQL: sql, Message: se.Message, Err: se}
		noteFault(exec, qe)
		return nil, qe
	}
	return res, nil
}

// noteFault records a DATABASE_ERROR of the executor (liveness.go).
func noteFault(c *mcpclient.Conn, qe *QueryExecutionError) {
	if qe.Category == sqlerr.DatabaseError {
		c.SetFault(qe.SQL, qe.Message)
	}
}
