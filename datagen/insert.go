package datagen

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// rowWriter receives the rows of one table, in order.
type rowWriter interface {
	add(ctx context.Context, values ...any) error
	// close writes what is buffered; the rows are all in the target (or
	// queued to be) once it returns nil.
	close(ctx context.Context) error
}

// target is where generated rows go: a SQLite transaction or a PostgreSQL
// COPY stream.
type target interface {
	table(ctx context.Context, name string, cols int) (rowWriter, error)
}

// sqliteTarget writes with multi-row INSERTs in one transaction.
type sqliteTarget struct{ tx *sql.Tx }

func (t sqliteTarget) table(ctx context.Context, name string, cols int) (rowWriter, error) {
	return newInserter(ctx, t.tx, name, cols)
}

// batchRows rows go into one multi-row INSERT: far fewer statement executions
// than row-at-a-time inserts, well under SQLite's variable limit.
const batchRows = 200

// inserter buffers rows and writes them with a prepared multi-row INSERT.
type inserter struct {
	tx    *sql.Tx
	table string
	cols  int
	full  *sql.Stmt
	buf   []any
}

func newInserter(ctx context.Context, tx *sql.Tx, table string, cols int) (*inserter, error) {
	stmt, err := tx.PrepareContext(ctx, insertSQL(table, cols, batchRows))
	if err != nil {
		return nil, fmt.Errorf("prepare insert into %s: %w", table, err)
	}
	return &inserter{tx: tx, table: table, cols: cols, full: stmt, buf: make([]any, 0, cols*batchRows)}, nil
}

func insertSQL(table string, cols, rows int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", cols), ",") + ")"
	return "INSERT INTO " + table + " VALUES " + strings.TrimSuffix(strings.Repeat(row+",", rows), ",")
}

func (in *inserter) add(ctx context.Context, values ...any) error {
	in.buf = append(in.buf, values...)
	if len(in.buf) < in.cols*batchRows {
		return nil
	}
	if _, err := in.full.ExecContext(ctx, in.buf...); err != nil {
		return fmt.Errorf("insert into %s: %w", in.table, err)
	}
	in.buf = in.buf[:0]
	return nil
}

// close writes the remaining rows and releases the statement.
func (in *inserter) close(ctx context.Context) error {
	defer in.full.Close()
	if len(in.buf) == 0 {
		return nil
	}
	if _, err := in.tx.ExecContext(ctx, insertSQL(in.table, in.cols, len(in.buf)/in.cols), in.buf...); err != nil {
		return fmt.Errorf("insert into %s: %w", in.table, err)
	}
	in.buf = in.buf[:0]
	return nil
}
