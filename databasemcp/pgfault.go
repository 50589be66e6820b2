package databasemcp

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"talk2tables/pgconfig"
	"talk2tables/sqlerr"
)

// A PostgreSQL that cannot serve (stopped, restarting, refusing logins, out
// of connection slots, a standby replaying its primary) is the database's
// fault, not the statement's: such errors are DATABASE_ERROR, which the
// orchestrator answers with 503 database_unavailable and shows in /health.
// A statement whose session died (a backend killed, a restart the pool has
// not noticed yet) is run once more on a session
// that answers a ping: every statement is read-only, so running it again
// changes nothing.

// sessionLost reports whether err ended the session rather than the
// statement: the network failed, or the server closed the session (a
// FATAL error, such as 57P01 from a shutdown or pg_terminate_backend).
// A statement or cancel timeout is not a loss.
func sessionLost(c *pgx.Conn, err error) bool {
	var long *pgproto3.ExceededMaxBodyLenErr
	if err == nil || pgconn.Timeout(err) || errors.Is(err, context.Canceled) || errors.As(err, &long) {
		return false // a row over the bound closes the session on purpose (boundMessages)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Severity == "FATAL" || pe.Severity == "PANIC" || strings.HasPrefix(pe.Code, "08") ||
			pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	return c != nil && c.IsClosed()
}

// terminatedWhileConnecting reports whether a dial failed because the new
// session was terminated (57P01, 57P02: pg_terminate_backend, a fast
// shutdown) rather than refused: a server that is shutting down refuses
// the next dial, one that is up accepts it.
func terminatedWhileConnecting(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "57P01" || pe.Code == "57P02")
}

// unavailable is the error of a statement that could not reach the
// database, in pgconfig's one-line words (host, port, database, user,
// never the password).
func (p *Postgres) unavailable(err error) *sqlerr.Error {
	msg := "database unavailable: " + pgconfig.ConnectError(p.target, err).Error()
	if !strings.Contains(msg, "try again") {
		msg += "; try again"
	}
	return sqlerr.New(sqlerr.DatabaseError, msg)
}

// lost is the error of a statement whose session died under it.
func (p *Postgres) lost(err error) *sqlerr.Error {
	msg := err.Error()
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		msg = pe.Message + " (SQLSTATE " + pe.Code + ")"
	}
	return sqlerr.New(sqlerr.DatabaseError, "database unavailable: the session with "+p.target.String()+
		" ended during the statement: "+msg+"; try again")
}

// connLostError marks an error of withConn whose session died, so the
// caller may run the statement again.
type connLostError struct{ err error }

func (e *connLostError) Error() string { return e.err.Error() }
func (e *connLostError) Unwrap() error { return e.err }

// retryOnLoss runs attempt and, when its session died, runs it once more
// on a session that answers a ping. Rows are read whole before a result is
// handed out, so a statement whose session died after some rows arrived
// (before its ROLLBACK) is run again whole, like one that died before any.
func (p *Postgres) retryOnLoss(ctx context.Context, attempt func(ctx context.Context, fresh bool) error) error {
	err := attempt(ctx, false)
	var cl *connLostError
	if err == nil || !errors.As(err, &cl) || ctx.Err() != nil {
		return err
	}
	return attempt(ctx, true)
}

// lookupFailed is the error of a catalog lookup on the pool outside
// withConn (the function guard's).
func (p *Postgres) lookupFailed(err error) *sqlerr.Error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		if c := sqlerr.ClassifySQLState(pe.Code, pe.Message); c != sqlerr.DatabaseError {
			return sqlerr.New(c, "check the query's functions: "+pe.Message)
		}
	}
	if pgconn.Timeout(err) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return sqlerr.New(sqlerr.Timeout, "query interrupted while checking its functions: "+err.Error())
	}
	return p.unavailable(err)
}
