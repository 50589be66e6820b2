package executor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"go.opentelemetry.io/otel/trace"

	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/sqlerr"
	"talk2tables/telemetry"
)

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

// Run checks sql, answers it from the result cache when it can, else
// validates it on the executor when generated (validate true) and the
// executor has validate_query, then executes it and caches the result. When
// the executor is lost on the way, a stale cached result may answer (see
// ResultCacheConfig.MaxStale). stage, when set, is told "validating" and
// "executing".
func (ex *Executor) Run(ctx context.Context, log *slog.Logger, exec *mcpclient.Conn, dialect, sql string, maxRows int,
	validate bool, stage func(string)) (*QueryData, error) {
	if stage == nil {
		stage = func(string) {}
	}
	stage(StageValidating)
	toolName, arg := exec.Config().ExecuteTool()
	if qe := tooLong(exec, toolName, arg, sql); qe != nil {
		return nil, qe
	}
	if qe := staticCheck(dialect, sql, validate); qe != nil {
		return nil, qe
	}
	key, cached := ex.cachedResult(log, exec, sql, maxRows)
	if cached != nil {
		stage(StageExecuting)
		_, span := telemetry.Start(ctx, "execute", trace.SpanKindInternal, telemetry.AttrServer.String(exec.ID()),
			telemetry.AttrResultCache.String(ResultCacheHit), telemetry.AttrRows.Int(cached.RowCount))
		span.End()
		return cached, nil
	}
	if qe := ex.DownError(exec, sql); qe != nil {
		// The liveness probe finds the database running nothing: answer at
		// once rather than queue on it.
		if d := ex.Stale(log, exec.ID(), sql, maxRows, qe); d != nil {
			return d, nil
		}
		return nil, qe
	}
	if validate && exec.HasTool("validate_query") {
		vctx, vspan := telemetry.Start(ctx, "validate", trace.SpanKindInternal, telemetry.AttrServer.String(exec.ID()))
		_, err := ex.callSQLTool(vctx, exec, "validate_query", map[string]any{"query": sql}, sql)
		telemetry.End(vspan, err)
		if err != nil {
			if d := ex.staleOnLoss(log, exec, sql, maxRows, err); d != nil {
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
	data, size, err := ex.Query(ectx, exec, toolName, args, sql)
	if err != nil {
		telemetry.End(espan, err)
		log.Info("sql execution completed", "event", "sql_execution_completed", "component", "orchestrator",
			"server", exec.ID(), "duration_ms", ms(time.Since(t0)), "success", false)
		if d := ex.staleOnLoss(log, exec, sql, maxRows, err); d != nil {
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
	if err := ex.boundResult(data, maxRows); err != nil {
		telemetry.End(espan, err)
		return nil, &QueryExecutionError{Reason: ReasonSQLExecution, Category: sqlerr.CategoryOf(err), SQL: sql,
			Message: messageOf(err), Err: err}
	}
	espan.SetAttributes(telemetry.AttrRows.Int(data.RowCount))
	espan.End()
	data = ex.storeResult(key, data, size)
	log.Info("sql execution completed", "event", "sql_execution_completed", "component", "orchestrator",
		"server", exec.ID(), "duration_ms", ms(time.Since(t0)), "success", true, "row_count", data.RowCount,
		"truncated", data.Truncated)
	return data, nil
}

// staleOnLoss answers from the result cache, marked stale, when err says
// the executor was lost or its database cannot serve.
func (ex *Executor) staleOnLoss(log *slog.Logger, exec *mcpclient.Conn, sql string, maxRows int, err error) *QueryData {
	var ce *mcpclient.MCPConnectionError
	var qe *QueryExecutionError
	if !errors.As(err, &ce) && (!errors.As(err, &qe) || qe.Category != sqlerr.DatabaseError) {
		return nil
	}
	return ex.Stale(log, exec.ID(), sql, maxRows, err)
}

// Query runs a SQL tool and reads its result as a table (foreign.go),
// with the size of the answer's text for the result cache. An error the
// executor put inside a result envelope is a categorized
// *QueryExecutionError like a tool error; an answer that is no table is a
// *ResultFormatError.
func (ex *Executor) Query(ctx context.Context, exec *mcpclient.Conn, tool string, args map[string]any, sql string) (*QueryData, int, error) {
	res, err := ex.callSQLTool(ctx, exec, tool, args, sql)
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
		ex.noteFault(exec, qe)
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
func (ex *Executor) callSQLTool(ctx context.Context, exec *mcpclient.Conn, tool string, args map[string]any, sql string) (*mcp.CallToolResult, error) {
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
			return nil, ex.tooLargeError(sql, err)
		}
		// A protocol error (unknown tool, bad arguments): not the SQL's fault,
		// but reported per attempt like one.
		return nil, &QueryExecutionError{Reason: ReasonSQLExecution, Category: sqlerr.Classify(err.Error()),
			SQL: sql, Message: err.Error(), Err: err}
	}
	if res.IsError {
		se := toolError(res)
		qe := &QueryExecutionError{Reason: ReasonSQLExecution, Category: se.Category, SQL: sql, Message: se.Message, Err: se}
		ex.noteFault(exec, qe)
		return nil, qe
	}
	return res, nil
}

// noteFault records a DATABASE_ERROR of the executor (mcpclient's
// liveness.go) and when to try again.
func (ex *Executor) noteFault(c *mcpclient.Conn, qe *QueryExecutionError) {
	if qe.Category == sqlerr.DatabaseError {
		c.SetFault(qe.SQL, qe.Message)
		qe.RetryAfter = ex.retryAfter()
	}
}
