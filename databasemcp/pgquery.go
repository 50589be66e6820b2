package databasemcp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"talk2tables/resultlimit"
	"talk2tables/schema"
	"talk2tables/sqlerr"
	"talk2tables/sqlscan"
)

// cursorName is the cursor each query is read through; it lives only in the
// query's own transaction.
const cursorName = "talk2tables_cursor"

// Query runs one read-only query and returns at most maxRows rows (0 means
// the default of Options; above HardMaxRows is an error). A SELECT, VALUES,
// TABLE or WITH query is read through a cursor, so PostgreSQL computes only
// the rows returned (plus one to tell truncation); EXPLAIN runs as is.
// Errors are *sqlerr.Error with the category of the failure.
func (p *Postgres) Query(ctx context.Context, query string, maxRows int) (*schema.Result, error) {
	start := time.Now()
	switch {
	case maxRows == 0:
		maxRows = p.opts.MaxRows
	case maxRows < 0 || maxRows > HardMaxRows:
		return nil, sqlerr.New(sqlerr.UnknownError,
			fmt.Sprintf("max_rows must be between 1 and %d, got %d", HardMaxRows, maxRows))
	}
	body, explain, e := p.guard(ctx, query)
	if e != nil {
		return nil, e
	}
	// Read before the statement: a write committed while it runs then
	// moves the version on past this result, never under it.
	version := p.DataVersion(ctx)
	res, err := p.run(ctx, body, explain, maxRows)
	if err != nil {
		return nil, err
	}
	res.DataVersion = version
	res.ElapsedMS = math.Round(float64(time.Since(start).Microseconds())/10) / 100
	return res, nil
}

// run executes a statement that passed the guard in one batch (one round
// trip): BEGIN READ ONLY, DECLARE a cursor for it and FETCH maxRows+1 rows
// (direct: run it as is), ROLLBACK, and release any session-level advisory
// lock a view or a mislabelled function may have taken (they outlive the
// rollback and would stay with the pooled session).
func (p *Postgres) run(ctx context.Context, body string, direct bool, maxRows int) (*schema.Result, error) {
	var res *schema.Result
	err := p.retryOnLoss(ctx, func(ctx context.Context, fresh bool) error {
		res = &schema.Result{Columns: []string{}, Rows: [][]any{}}
		return p.withConn(ctx, fresh, func(ctx context.Context, c *pgx.Conn) error {
			b := &pgx.Batch{}
			b.Queue("BEGIN READ ONLY")
			if direct {
				b.Queue(body)
			} else {
				b.Queue("DECLARE " + cursorName + " NO SCROLL CURSOR FOR " + body)
				b.Queue(fmt.Sprintf("FETCH FORWARD %d FROM %s", maxRows+1, cursorName))
			}
			b.Queue("ROLLBACK")
			if p.unlockAdvisory {
				b.Queue(unlockAdvisory)
			}
			br := c.SendBatch(ctx, b)
			err := readBatch(br, direct, p.unlockAdvisory, p.limits(maxRows), res)
			if cerr := br.Close(); err == nil {
				err = cerr
			}
			return p.endTransaction(ctx, c, err)
		})
	})
	if err != nil {
		return nil, p.categorize(err)
	}
	res.RowCount = len(res.Rows)
	return res, nil
}

// unlockAdvisory releases the session's advisory locks.
const unlockAdvisory = "SELECT pg_catalog.pg_advisory_unlock_all()"

// readBatch reads the results of run's batch: BEGIN, the statement (or
// DECLARE and FETCH), ROLLBACK, and the advisory unlock when queued.
func readBatch(br pgx.BatchResults, explain, unlock bool, lim resultlimit.Limits, res *schema.Result) error {
	if _, err := br.Exec(); err != nil {
		return err
	}
	if !explain {
		if _, err := br.Exec(); err != nil {
			return err
		}
	}
	rows, err := br.Query()
	if err != nil {
		return err
	}
	if err := collect(rows, lim, res); err != nil {
		return err
	}
	if _, err = br.Exec(); err != nil || !unlock {
		return err
	}
	_, err = br.Exec()
	return err
}

// collect reads the rows into res within the result bounds (lim: at most
// MaxRows rows, values cut to MaxCellBytes, rows past MaxBytes left out),
// converting each value to JSON (jsonValuePG); Truncated and Note say when a
// bound cut the result.
func collect(rows pgx.Rows, lim resultlimit.Limits, res *schema.Result) error {
	defer rows.Close()
	fds := rows.FieldDescriptions()
	res.Columns = make([]string, len(fds))
	kinds := make([]valueKind, len(fds))
	decode := false
	for i, fd := range fds {
		res.Columns[i] = fd.Name
		kinds[i] = kindOf(fd.DataTypeOID)
		decode = decode || kinds[i] == kindDecoded
	}
	col := resultlimit.NewCollector(lim)
	full := false
	for rows.Next() {
		if full || !col.Room() {
			full = true
			continue // read the rest of the fetch (at most one row past MaxRows) to the end of the result
		}
		raw := rows.RawValues()
		var decoded []any
		if decode {
			var err error
			if decoded, err = rows.Values(); err != nil {
				return err
			}
		}
		row := make([]any, len(raw))
		for i, b := range raw {
			var d any
			if decoded != nil {
				d = decoded[i]
			}
			row[i] = jsonValuePG(kinds[i], b, d)
		}
		ok, err := col.Add(row)
		if err != nil {
			return err
		}
		full = !ok
	}
	res.Rows, res.Truncated, res.Note = col.Rows(), col.Truncated(), col.Note()
	return rows.Err()
}

// endTransaction makes sure the session leaves the query's transaction: on
// success the batch's own ROLLBACK did; after an error it is rolled back
// (and advisory locks released) here, and if even that fails the pool
// destroys the session on release.
func (p *Postgres) endTransaction(ctx context.Context, c *pgx.Conn, err error) error {
	if err != nil && !c.IsClosed() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if c.PgConn().TxStatus() != 'I' {
			if _, rerr := c.Exec(rctx, "ROLLBACK"); rerr != nil {
				c.Close(rctx) // the pool drops it
				return err
			}
		}
		if p.unlockAdvisory {
			if _, uerr := c.Exec(rctx, unlockAdvisory); uerr != nil {
				c.Close(rctx)
			}
		}
	}
	return err
}

// Validate checks a query without running it: the same guards as Query,
// then PostgreSQL parses and analyses it (tables, columns, types,
// functions, GROUP BY) inside a read-only transaction, as PREPARE does.
func (p *Postgres) Validate(ctx context.Context, query string) error {
	body, _, e := p.guard(ctx, query)
	if e != nil {
		return e
	}
	err := p.retryOnLoss(ctx, func(ctx context.Context, fresh bool) error {
		return p.withConn(ctx, fresh, func(ctx context.Context, c *pgx.Conn) error {
			if _, err := c.Exec(ctx, "BEGIN READ ONLY"); err != nil {
				return err
			}
			_, err := c.PgConn().Prepare(ctx, "", body, nil)
			if err == nil {
				_, err = c.Exec(ctx, "ROLLBACK")
			}
			return p.endTransaction(ctx, c, err)
		})
	})
	if err != nil {
		return p.categorize(err)
	}
	return nil
}

// guard applies the statement checks and returns the statement without
// trailing semicolons and comments (ready to follow DECLARE ... FOR), and
// whether it is an EXPLAIN.
func (p *Postgres) guard(ctx context.Context, query string) (string, bool, *sqlerr.Error) {
	toks, e := checkQueryIn(sqlscan.Postgres, query, p.opts.MaxQueryLength)
	if e != nil {
		return "", false, e
	}
	for _, t := range toks {
		if t.Kind == sqlscan.Param {
			return "", false, sqlerr.New(sqlerr.SyntaxError, fmt.Sprintf(
				"the query contains the parameter placeholder %s: put the literal value in the SQL instead", t.Text))
		}
	}
	if e := p.funcs.check(ctx, p.pool, sqlscan.FunctionCalls(toks), p.lookupFailed); e != nil {
		return "", false, e
	}
	last := toks[len(toks)-1]
	for last.IsPunct(";") {
		toks = toks[:len(toks)-1]
		last = toks[len(toks)-1]
	}
	explain := false
	for _, t := range toks {
		if !t.IsPunct("(") {
			explain = t.IsWord("EXPLAIN")
			break
		}
	}
	return query[:last.Pos+len(last.Text)], explain, nil
}

// categorize turns a PostgreSQL, connection or context error into a
// *sqlerr.Error: SQLSTATE codes decide the category, and the message keeps
// PostgreSQL's own words plus its hint.
func (p *Postgres) categorize(err error) *sqlerr.Error {
	var se *sqlerr.Error
	if errors.As(err, &se) {
		return se
	}
	var cl *connLostError
	if errors.As(err, &cl) {
		return p.lost(cl.err)
	}
	if e := p.tooLongRow(err); e != nil {
		return e
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		msg := pe.Message
		if pe.Detail != "" {
			msg += " (" + pe.Detail + ")"
		}
		if pe.Hint != "" {
			msg += ": " + pe.Hint
		}
		cat := sqlerr.ClassifySQLState(pe.Code, pe.Message)
		switch {
		case pe.Code == "57014":
			return p.timeoutError()
		case pe.Code == "42883" && cat == sqlerr.SyntaxError && p.funcs.known(missingFunction(pe.Message)):
			// The function exists, not for these argument types: a cast fixes it.
			cat = sqlerr.DataTypeMismatch
		case cat == sqlerr.PermissionError:
			msg += ": " + readOnlyMessage
		}
		return sqlerr.New(cat, msg)
	}
	if pgconn.Timeout(err) {
		return p.timeoutError()
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) || errors.Is(err, pgconn.ErrConnClosed) {
		return p.unavailable(err)
	}
	return sqlerr.New(sqlerr.CategoryOf(err), err.Error())
}

// missingFunction is the name in "function round(double precision,
// integer) does not exist".
func missingFunction(msg string) string {
	rest, ok := strings.CutPrefix(msg, "function ")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "(")
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return strings.Trim(name, `"`)
}
