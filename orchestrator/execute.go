package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"go.opentelemetry.io/otel/trace"

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
	exec, err := o.executor()
	if server != "" {
		exec, err = o.executorNamed(server)
		var ue *UnknownExecutorError
		if errors.As(err, &ue) {
			return nil, err
		}
	}
	if err != nil {
		if d := o.staleWhileDown(log, sql, maxRows, err); d != nil {
			return d, nil
		}
		var na *NoMCPAvailableError
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
	var ce *MCPConnectionError
	if errors.As(err, &ce) {
		return o.staleResult(log, ce.Server, sql, maxRows, err)
	}
	for _, c := range o.ordered { // no executor connected: the preferred one's results
		if c.cfg.HasCapability(CapExecuteQuery) {
			return o.staleResult(log, c.id, sql, maxRows, err)
		}
	}
	return nil
}

// executorDialect is the SQL dialect the executor's schema resource
// declares ("sqlite" when it declares none), from the resource cache, even
// an expired entry (a server does not change engines); on a cold cache it
// reads the executor's resources first.
func (o *Orchestrator) executorDialect(ctx context.Context, exec *conn, opID string) string {
	o.cache.mu.RLock()
	e, ok := o.cache.entries[exec.id]
	o.cache.mu.RUnlock()
	if ok {
		return dialectOf(e.snap)
	}
	snap, _, err := o.cache.get(ctx, exec, opID)
	if err != nil {
		return "sqlite" // the executor call that follows reports what is wrong
	}
	return dialectOf(snap)
}

// dialectOf finds {"dialect": ...} in a server's resources ("sqlite" when
// none declares it).
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
	return "sqlite"
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
		if err := sqlgen.CheckAggregation(sql); err != nil {
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
func (o *Orchestrator) runSQL(ctx context.Context, log *slog.Logger, exec *conn, dialect, sql string, maxRows int,
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
		_, span := telemetry.Start(ctx, "execute", trace.SpanKindInternal, telemetry.AttrServer.String(exec.id),
			telemetry.AttrResultCache.String(ResultCacheHit), telemetry.AttrRows.Int(cached.RowCount))
		span.End()
		return cached, nil
	}
	toolName, arg := exec.cfg.sqlTool()
	if validate && exec.hasTool("validate_query") {
		vctx, vspan := telemetry.Start(ctx, "validate", trace.SpanKindInternal, telemetry.AttrServer.String(exec.id))
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
	if exec.cfg.SQLTool == nil { // our database MCP's own contract
		args["max_rows"] = maxRows
	}
	t0 := time.Now()
	log.Info("sql execution started", "event", "sql_execution_started", "component", "orchestrator",
		"server", exec.id, "tool", toolName)
	ectx, espan := telemetry.Start(ctx, "execute", trace.SpanKindInternal, telemetry.AttrServer.String(exec.id))
	text, err := o.callSQLTool(ectx, exec, toolName, args, sql)
	if err != nil {
		telemetry.End(espan, err)
		log.Info("sql execution completed", "event", "sql_execution_completed", "component", "orchestrator",
			"server", exec.id, "duration_ms", ms(time.Since(t0)), "success", false)
		if d := o.staleOnLoss(log, exec, sql, maxRows, err); d != nil {
			return d, nil
		}
		return nil, err
	}
	data := parseQueryData(text)
	data.Executor = exec.id
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
	data = o.storeResult(key, data, len(text))
	log.Info("sql execution completed", "event", "sql_execution_completed", "component", "orchestrator",
		"server", exec.id, "duration_ms", ms(time.Since(t0)), "success", true, "row_count", data.RowCount,
		"truncated", data.Truncated)
	return data, nil
}

// staleOnLoss answers from the result cache, marked stale, when err says
// the executor was lost.
func (o *Orchestrator) staleOnLoss(log *slog.Logger, exec *conn, sql string, maxRows int, err error) *QueryData {
	var ce *MCPConnectionError
	if !errors.As(err, &ce) {
		return nil
	}
	return o.staleResult(log, exec.id, sql, maxRows, err)
}

// callSQLTool calls a SQL tool and returns its text. A tool error becomes a
// categorized *QueryExecutionError: the {category, message} body of our
// database MCP, or a foreign executor's text classified here.
func (o *Orchestrator) callSQLTool(ctx context.Context, exec *conn, tool string, args map[string]any, sql string) (string, error) {
	var res *mcp.CallToolResult
	err := exec.call(ctx, "tools/call:"+tool, func(ctx context.Context, cl *client.Client) error {
		req := mcp.CallToolRequest{}
		req.Params.Name = tool
		req.Params.Arguments = args
		var err error
		res, err = cl.CallTool(ctx, req)
		return err
	})
	if err != nil {
		var ce *MCPConnectionError
		if errors.As(err, &ce) || ctx.Err() != nil {
			return "", err
		}
		if errors.Is(err, ErrResponseTooLarge) {
			return "", o.tooLargeError(sql, err)
		}
		// A protocol error (unknown tool, bad arguments): not the SQL's fault,
		// but reported per attempt like one.
		return "", &QueryExecutionError{Reason: ReasonSQLExecution, Category: sqlerr.Classify(err.Error()),
			SQL: sql, Message: err.Error(), Err: err}
	}
	text := toolText(res)
	if res.IsError {
		se := parseToolError(text)
		return "", &QueryExecutionError{Reason: ReasonSQLExecution, Category: se.Category, SQL: sql,
			Message: se.Message, Err: se}
	}
	return text, nil
}

// toolText joins a tool result's text contents (or its structured content).
func toolText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		switch v := c.(type) {
		case mcp.TextContent:
			parts = append(parts, v.Text)
		case *mcp.TextContent:
			parts = append(parts, v.Text)
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			return string(b)
		}
	}
	return strings.Join(parts, "\n")
}

// parseToolError reads {category, message}; other text is classified.
func parseToolError(text string) *sqlerr.Error {
	var se sqlerr.Error
	if err := json.Unmarshal([]byte(text), &se); err == nil && se.Category.Valid() && se.Message != "" {
		return &se
	}
	msg := strings.TrimSpace(text)
	if msg == "" {
		msg = "the executor reported an error without a message"
	}
	return sqlerr.New(sqlerr.Classify(msg), msg)
}

// parseQueryData reads execute_query's JSON. A foreign executor's JSON array
// of objects becomes columns and rows; any other text becomes one cell.
func parseQueryData(text string) *QueryData {
	var d QueryData
	if err := json.Unmarshal([]byte(text), &d); err == nil && d.Columns != nil {
		// How a result was served is ours to say, not the executor's.
		d.ResultCache, d.AgeS, d.Stale = "", nil, false
		if d.Rows == nil {
			d.Rows = [][]any{}
		}
		if d.RowCount == 0 {
			d.RowCount = len(d.Rows)
		}
		return &d
	}
	var objs []map[string]any
	if err := json.Unmarshal([]byte(text), &objs); err == nil {
		cols := []string{}
		if len(objs) > 0 {
			for k := range objs[0] {
				cols = append(cols, k)
			}
			sort.Strings(cols)
		}
		rows := make([][]any, len(objs))
		for i, ob := range objs {
			row := make([]any, len(cols))
			for j, c := range cols {
				row[j] = ob[c]
			}
			rows[i] = row
		}
		return &QueryData{Columns: cols, Rows: rows, RowCount: len(rows)}
	}
	return &QueryData{Columns: []string{"result"}, Rows: [][]any{{text}}, RowCount: 1}
}
