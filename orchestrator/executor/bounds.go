package executor

import (
	"fmt"

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
