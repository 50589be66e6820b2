package executor

import (
	"fmt"
	"unicode/utf8"

	"talk2tables/orchestrator/mcpclient"
	"talk2tables/resultlimit"
	"talk2tables/sqlerr"
)

// boundResult applies the result bounds to data read from an executor (any
// executor: a third-party one has bounds of its own, or none). Cut cells and
// rows set Truncated and add to Note; a single row over the whole bound is a
// RESOURCE_LIMIT error.
func (ex *Executor) boundResult(data *QueryData, maxRows int) error {
	col := resultlimit.NewCollector(ex.cfg.ResultLimits(maxRows))
	for _, row := range data.Rows {
		if !col.Room() {
			break
		}
		ok, err := col.Add(row)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
	}
	if !col.Truncated() {
		return nil
	}
	data.Rows = col.Rows()
	data.RowCount = len(data.Rows)
	data.Truncated = true
	if n := col.Note(); n != "" {
		if data.Note != "" {
			data.Note += "; "
		}
		data.Note += n
	}
	return nil
}

// tooLargeError is the RESOURCE_LIMIT error of a message over the bound.
func (ex *Executor) tooLargeError(sql string, err error) *QueryExecutionError {
	msg := fmt.Sprintf("the executor's answer is over the %s message limit (orchestration.max_result_bytes %s): "+
		"add a LIMIT, aggregate, or select fewer or shorter columns",
		resultlimit.Size(int(ex.cfg.MaxMessageBytes())), resultlimit.Size(ex.cfg.Orchestration.MaxResultBytes))
	return &QueryExecutionError{Reason: ReasonSQLExecution, Category: sqlerr.ResourceLimit, SQL: sql, Message: msg,
		Err: fmt.Errorf("%w: %w", sqlerr.New(sqlerr.ResourceLimit, msg), err)}
}

// MaxEchoSQL bounds, in bytes, the SQL echoed in results, errors, attempts
// and logs: above any executor's statement length limit (database-mcp's is
// 20,000 characters), so a statement that can run is always echoed whole.
const MaxEchoSQL = 32 << 10

// EchoSQL returns sql as it may be echoed: whole when at most MaxEchoSQL
// bytes, else its beginning (cut on a character boundary) followed by how
// long it was.
func EchoSQL(sql string) string {
	if len(sql) <= MaxEchoSQL {
		return sql
	}
	cut := MaxEchoSQL
	for cut > 0 && !utf8.RuneStart(sql[cut]) {
		cut--
	}
	return sql[:cut] + fmt.Sprintf(" … [SQL cut: %d bytes in all]", len(sql))
}

// tooLong is the RESOURCE_LIMIT error of a statement longer than what the
// executor's SQL tool accepts (the maxLength of its input schema), found
// before anything is sent; nil when it fits or the tool states no limit.
func tooLong(exec *mcpclient.Conn, tool, arg, sql string) *QueryExecutionError {
	limit := exec.ArgumentMaxLength(tool, arg)
	if limit <= 0 || len(sql) <= limit {
		return nil // bytes ≥ characters: it fits
	}
	n := utf8.RuneCountInString(sql)
	if n <= limit {
		return nil
	}
	msg := fmt.Sprintf("the SQL is %d characters long; executor %q accepts at most %d: write a shorter statement "+
		"(aggregate instead of listing values, no repeated expressions)", n, exec.ID(), limit)
	return &QueryExecutionError{Reason: ReasonSQLExecution, Category: sqlerr.ResourceLimit, SQL: EchoSQL(sql),
		Message: msg, Err: sqlerr.New(sqlerr.ResourceLimit, msg)}
}
