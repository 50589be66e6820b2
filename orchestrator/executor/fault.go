package executor

import (
	"context"
	"errors"

	"talk2tables/orchestrator/mcpclient"
)

// ProbeFault re-runs, at most one row, the statement that found the
// executor's database broken: when it runs (or fails for a reason of its
// own) the database is back.
func (ex *Executor) ProbeFault(ctx context.Context, c *mcpclient.Conn) {
	sql := c.FaultySQL()
	if sql == "" {
		return
	}
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
