package executor

import (
	"context"

	"talk2tables/orchestrator/mcpclient"
)

// Validate checks that sql still holds on the executor's database without
// running it: the static checks, then the executor's validate_query
// (prepare only). An executor without validate_query runs it for one row
// instead. A failure is a categorized *QueryExecutionError (or a
// connection error when the executor is down).
func (ex *Executor) Validate(ctx context.Context, exec *mcpclient.Conn, dialect, sql string) error {
	if qe := staticCheck(dialect, sql, false); qe != nil {
		return qe
	}
	if exec.HasTool("validate_query") {
		_, err := ex.callSQLTool(ctx, exec, "validate_query", map[string]any{"query": sql}, sql)
		return err
	}
	toolName, arg := exec.Config().ExecuteTool()
	args := map[string]any{arg: sql}
	if name := exec.LimitArgument(toolName); name != "" {
		args[name] = 1
	}
	_, _, err := ex.Query(ctx, exec, toolName, args, sql)
	return err
}
