package executor

import (
	"context"
	"errors"
	"math"
	"time"

	"talk2tables/orchestrator/mcpclient"
	"talk2tables/sqlerr"
)

// probeSQL is the liveness probe's statement: it needs a working database
// and nothing else, in every dialect an executor speaks.
const probeSQL = "SELECT 1"

// ProbeDatabase checks an executor's database after its MCP server answered
// a ping (the server may answer while its database is down). When no
// statement ran on it for a ping interval, or it has a fault, a trivial
// statement is checked (validate_query when it has one, which runs
// nothing; else the SQL tool with one row): DATABASE_ERROR makes the
// executor down (statements fail at once, /health is red); an answer makes
// it reachable, and then the statement that found the fault is re-tried,
// at most one row: once it runs (or fails for a reason of its own) the
// database is back.
func (ex *Executor) ProbeDatabase(ctx context.Context, c *mcpclient.Conn) {
	faulty := c.FaultySQL()
	if faulty == "" && c.SQLIdle() < ex.cfg.Orchestration.PingInterval {
		return // a statement ran meanwhile: the database answers
	}
	err := ex.probe(ctx, c)
	var qe *QueryExecutionError
	switch {
	case errors.As(err, &qe) && qe.Category == sqlerr.DatabaseError:
		c.SetDown(probeSQL, qe.Message)
		return
	case err != nil && (!errors.As(err, &qe) || qe.Category == ""):
		return // the MCP session's trouble: liveness handles it
	}
	c.SetReachable()
	if faulty == "" || faulty == probeSQL {
		c.ClearFault()
		return
	}
	ex.retryFaulty(ctx, c, faulty)
}

// probe runs the trivial statement on c.
func (ex *Executor) probe(ctx context.Context, c *mcpclient.Conn) error {
	if c.HasTool("validate_query") {
		_, err := ex.callSQLTool(ctx, c, "validate_query", map[string]any{"query": probeSQL}, probeSQL)
		return err
	}
	tool, arg := c.Config().ExecuteTool()
	args := map[string]any{arg: probeSQL}
	if name := c.LimitArgument(tool); name != "" {
		args[name] = 1
	}
	_, err := ex.callSQLTool(ctx, c, tool, args, probeSQL)
	return err
}

// retryFaulty re-runs, at most one row, the statement that found the
// executor's database broken: when it runs (or fails for a reason of its
// own) the database is back.
func (ex *Executor) retryFaulty(ctx context.Context, c *mcpclient.Conn, sql string) {
	tool, arg := c.Config().ExecuteTool()
	args := map[string]any{arg: sql}
	if name := c.LimitArgument(tool); name != "" {
		args[name] = 1
	}
	_, err := ex.callSQLTool(ctx, c, tool, args, sql)
	var qe *QueryExecutionError
	switch {
	case err == nil:
		c.ClearFault()
	case errors.As(err, &qe) && qe.Category != "" && qe.Category.Repairable():
		c.ClearFault()
	}
}

// DownError is the error of a statement for executor c while the liveness
// probe finds its database running nothing (nil otherwise): it is
// answered at once, without a round trip to a database that cannot run it.
func (ex *Executor) DownError(c *mcpclient.Conn, sql string) *QueryExecutionError {
	msg, down := c.Down()
	if !down {
		return nil
	}
	return &QueryExecutionError{Reason: ReasonSQLExecution, Category: sqlerr.DatabaseError, SQL: sql, Message: msg,
		Err: sqlerr.New(sqlerr.DatabaseError, msg), RetryAfter: ex.retryAfter()}
}

// retryAfter is when a client should try again after a DATABASE_ERROR: the
// next liveness probe has looked by then (5 s when the probes are off).
func (ex *Executor) retryAfter() time.Duration {
	iv := ex.cfg.Orchestration.PingInterval
	if iv <= 0 {
		return 5 * time.Second
	}
	return time.Duration(math.Ceil(iv.Seconds())) * time.Second
}

// Reach checks that executor c's database runs a trivial statement, for a
// caller that could not read c's resources: when the database is the
// cause (DATABASE_ERROR), c is marked down and the error returned, so the
// client is told the database is unavailable rather than that a resource
// could not be fetched. nil when the database answers or the check itself
// could not tell.
func (ex *Executor) Reach(ctx context.Context, c *mcpclient.Conn) *QueryExecutionError {
	err := ex.probe(ctx, c)
	var qe *QueryExecutionError
	if errors.As(err, &qe) && qe.Category == sqlerr.DatabaseError {
		c.SetDown(probeSQL, qe.Message)
		return qe
	}
	return nil
}
