package orchestrator

import (
	"context"
	"errors"
	"log/slog"

	"go.opentelemetry.io/otel/trace"

	"talk2tables/config"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/resources"
	"talk2tables/telemetry"
)

// ExecuteSQL runs analyst SQL on the top-priority executor: read-only
// check, then execute. A failure is a categorized *QueryExecutionError (or
// a connection error when the executor is down).
func (o *Orchestrator) ExecuteSQL(ctx context.Context, sql string, maxRows int, operationID string) (*executor.QueryData, error) {
	return o.ExecuteSQLOn(ctx, "", sql, maxRows, operationID)
}

// ExecuteSQLOn is ExecuteSQL on the executor with config id server ("" is
// the top-priority one). A server that is not a configured executor is an
// *UnknownExecutorError.
func (o *Orchestrator) ExecuteSQLOn(ctx context.Context, server, sql string, maxRows int, operationID string) (*executor.QueryData, error) {
	if operationID == "" {
		operationID = newOperationID()
	}
	ctx = telemetry.WithOperationID(ctx, operationID)
	ctx, span := telemetry.Start(ctx, "sql", trace.SpanKindInternal)
	data, err := o.executeSQL(ctx, server, sql, maxRows, operationID)
	telemetry.End(span, err)
	return data, err
}

func (o *Orchestrator) executeSQL(ctx context.Context, server, sql string, maxRows int, operationID string) (*executor.QueryData, error) {
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
			return nil, &executor.QueryExecutionError{Reason: executor.ReasonNoExecutor, SQL: sql, Message: err.Error(), Err: err}
		}
		return nil, err
	}
	dialect := o.executorDialect(ctx, exec, operationID)
	if err := o.checkAnalystSQL(exec, dialect, sql); err != nil {
		o.metrics.sqlError(err.Category)
		return nil, err
	}
	data, err := o.exec.Run(ctx, log, exec, dialect, sql, maxRows, false, nil)
	if err != nil {
		var qe *executor.QueryExecutionError
		if errors.As(err, &qe) {
			o.metrics.sqlError(qe.Category)
		}
		return nil, err
	}
	return data, nil
}

// staleWhileDown answers sql from the result cache, marked stale, when the
// executor is down (err from executor()).
func (o *Orchestrator) staleWhileDown(log *slog.Logger, sql string, maxRows int, err error) *executor.QueryData {
	var ce *mcpclient.MCPConnectionError
	if errors.As(err, &ce) {
		return o.exec.Stale(log, ce.Server, sql, maxRows, err)
	}
	for _, c := range o.clients.Conns() { // no executor connected: the preferred one's results
		if c.Config().HasCapability(config.CapExecuteQuery) {
			return o.exec.Stale(log, c.ID(), sql, maxRows, err)
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
	if snap, ok := o.cache.Cached(exec.ID()); ok {
		return dialectOf(snap)
	}
	snap, _, err := o.cache.Get(ctx, exec, opID)
	if err != nil {
		return "" // the executor call that follows reports what is wrong
	}
	return dialectOf(snap)
}

// dialectOf finds {"dialect": ...} in a server's resources ("" when none
// declares it).
func dialectOf(snap *resources.Snapshot) string {
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
