package databasemcp

import (
	"errors"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"

	"talk2tables/resultlimit"
	"talk2tables/sqlerr"
)

// resultLimits are the bounds of a result of at most maxRows rows under
// opts, the same for every backend.
func resultLimits(opts Options, maxRows int) resultlimit.Limits {
	return resultlimit.Limits{MaxRows: maxRows, MaxCellBytes: opts.MaxCellBytes, MaxBytes: opts.MaxResultBytes}
}

// limits are the result bounds of Query.
func (p *Postgres) limits(maxRows int) resultlimit.Limits { return resultLimits(p.opts, maxRows) }

// pgRowOverhead is what a row message may hold beyond its values' bytes.
const pgRowOverhead = 1 << 20

// boundMessages is PostgreSQL's counterpart of SQLite's length limit: a
// message from the server (one row) longer than MaxValueBytes plus 1 MiB is
// refused as it arrives, before its body is read into memory. The session
// cannot go on mid-message: it is closed and the pool opens another.
func boundMessages(c *pgx.ConnConfig, opts Options) {
	max := opts.MaxValueBytes + pgRowOverhead
	c.BuildFrontend = func(r io.Reader, w io.Writer) *pgproto3.Frontend {
		f := pgproto3.NewFrontend(r, w)
		f.SetMaxBodyLen(max)
		return f
	}
}

// tooLongRow is the RESOURCE_LIMIT error of a row refused by
// boundMessages, or nil when err is something else.
func (p *Postgres) tooLongRow(err error) *sqlerr.Error {
	var long *pgproto3.ExceededMaxBodyLenErr
	if !errors.As(err, &long) {
		return nil
	}
	return sqlerr.New(sqlerr.ResourceLimit, fmt.Sprintf(
		"a row of the result is %s, over the %s limit on values (and %s per row): select a part of long values "+
			"(substr(), left()) or their length() instead of the whole values",
		resultlimit.Size(long.ActualBodyLen), resultlimit.Size(p.opts.MaxValueBytes),
		resultlimit.Size(p.opts.MaxValueBytes+pgRowOverhead)))
}
