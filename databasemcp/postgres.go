package databasemcp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"talk2tables/pgconfig"
	"talk2tables/schema"
	"talk2tables/sqlerr"
)

// DefaultPostgresConns is the default size of the PostgreSQL connection pool.
const DefaultPostgresConns = 8

// ApplicationName is the application_name of database-mcp's PostgreSQL
// sessions (pg_stat_activity), unless the DSN sets one.
const ApplicationName = "talk2tables-database-mcp"

// PostgresConfig says how OpenPostgres connects.
type PostgresConfig struct {
	// Conn is the connection configuration, from pgconfig.Parse.
	Conn *pgx.ConnConfig
	// MaxConns is the pool size; 0 means DefaultPostgresConns.
	MaxConns int
}

// Postgres is a PostgreSQL database served read-only. Every query runs in
// its own READ ONLY transaction on a pooled session whose defaults are
// read-only too (default_transaction_read_only), bounded by
// statement_timeout and idle_in_transaction_session_timeout, and is rolled
// back at the end, so even a session setting changed by a function would
// not survive it. Before that, the statement passes sqlscan's PostgreSQL
// rules and the function guard (only immutable and stable functions, plus a
// few harmless volatile ones).
type Postgres struct {
	pool   *pgxpool.Pool
	opts   Options
	target pgconfig.Target
	conns  int

	funcs *funcGuard
	// unlockAdvisory: the role may run pg_advisory_unlock_all, and every
	// query ends with it.
	unlockAdvisory bool

	schemaMu     sync.Mutex
	schema       *schema.Schema // cached without Today
	schemaLoaded time.Time

	verMu sync.Mutex // the data version (pgversion.go), reused for dataVersionTTL
	ver   string
	verAt time.Time
}

// schemaTTL is how long the schema resource is reused before pg_catalog is
// read again (the database may change under a read-only server).
const schemaTTL = time.Minute

// OpenPostgres connects to PostgreSQL, checks the session settings it relies
// on, and reads the schema once (so a role without the needed privileges
// fails here, not on the first question). Connection failures are one-line
// errors naming host, port, database and user (pgconfig.ConnectError).
func OpenPostgres(ctx context.Context, pc PostgresConfig, opts Options) (*Postgres, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if pc.Conn == nil {
		return nil, errors.New("no PostgreSQL connection configuration given")
	}
	if pc.MaxConns < 0 {
		return nil, fmt.Errorf("max connections must not be negative, got %d", pc.MaxConns)
	}
	if pc.MaxConns == 0 {
		pc.MaxConns = DefaultPostgresConns
	}
	target := pgconfig.TargetOf(pc.Conn)
	poolCfg, err := pgxpool.ParseConfig("")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", target, err)
	}
	poolCfg.ConnConfig = sessionConfig(pc.Conn, opts)
	poolCfg.MaxConns = int32(pc.MaxConns)
	poolCfg.MinConns = 0
	poolCfg.MaxConnIdleTime = 5 * time.Minute
	poolCfg.HealthCheckPeriod = time.Minute
	poolCfg.AfterConnect = checkSession
	pool, err := pgxpool.NewWithConfig(ctx, poolCfg)
	if err != nil {
		return nil, pgconfig.ConnectError(target, err)
	}
	p := &Postgres{pool: pool, opts: opts, target: target, conns: pc.MaxConns, funcs: newFuncGuard()}
	ctx, cancel := context.WithTimeout(ctx, schemaTimeout)
	defer cancel()
	c, err := pool.Acquire(ctx)
	if err != nil {
		pool.Close()
		return nil, pgconfig.ConnectError(target, err)
	}
	err = p.funcs.load(ctx, c.Conn())
	if err == nil {
		err = c.Conn().QueryRow(ctx,
			"SELECT has_function_privilege('pg_catalog.pg_advisory_unlock_all()', 'EXECUTE')").Scan(&p.unlockAdvisory)
	}
	c.Release()
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("%s: read the function catalog: %w", target, err)
	}
	if _, err := p.loadSchema(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("%s: read the schema: %w", target, err)
	}
	return p, nil
}

// sessionConfig is cfg with the session defaults every pooled connection
// starts with. The security-relevant ones override the DSN's; the others
// (time zone, application name) only fill gaps.
func sessionConfig(cfg *pgx.ConnConfig, opts Options) *pgx.ConnConfig {
	c := cfg.Copy()
	// No prepared statements are kept per session: every query text is
	// different, and an unnamed statement leaves nothing behind.
	c.DefaultQueryExecMode = pgx.QueryExecModeExec
	if c.RuntimeParams == nil {
		c.RuntimeParams = map[string]string{}
	}
	rp := c.RuntimeParams
	ms := func(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }
	rp["default_transaction_read_only"] = "on"
	rp["statement_timeout"] = ms(opts.QueryTimeout)
	rp["lock_timeout"] = ms(opts.QueryTimeout)
	rp["idle_in_transaction_session_timeout"] = ms(max(2*opts.QueryTimeout, 5*time.Second))
	// sqlscan's PostgreSQL lexer assumes standard strings: a backslash in
	// '...' is an ordinary character.
	rp["standard_conforming_strings"] = "on"
	// Cursors (Query reads through one) are planned for the whole result,
	// not for the first rows: analyst queries need all of it.
	rp["cursor_tuple_fraction"] = "1"
	rp["datestyle"] = "ISO, MDY"
	rp["intervalstyle"] = "postgres"
	setDefault(rp, "application_name", ApplicationName)
	setDefault(rp, "timezone", "UTC") // today and timestamps as SQLite's date('now') sees them
	boundMessages(c, opts)
	return c
}

// setDefault sets a runtime parameter unless the DSN gave it (in any case).
func setDefault(rp map[string]string, key, value string) {
	for k := range rp {
		if strings.EqualFold(k, key) {
			return
		}
	}
	rp[key] = value
}

// checkSession refuses a session whose server ignored a setting the guards
// rely on (fail closed).
func checkSession(ctx context.Context, c *pgx.Conn) error {
	pc := c.PgConn()
	if v := pc.ParameterStatus("standard_conforming_strings"); v != "on" {
		return fmt.Errorf("the server reports standard_conforming_strings=%q; database-mcp needs it on", v)
	}
	var ro string
	if err := c.QueryRow(ctx, "SHOW default_transaction_read_only").Scan(&ro); err != nil {
		return fmt.Errorf("check default_transaction_read_only: %w", err)
	}
	if ro != "on" {
		return fmt.Errorf("the server reports default_transaction_read_only=%q; database-mcp needs it on", ro)
	}
	return nil
}

// Close closes every session of the pool.
func (p *Postgres) Close() error {
	p.pool.Close()
	return nil
}

// Options are the effective options (defaults applied).
func (p *Postgres) Options() Options { return p.opts }

// Dialect is "postgres".
func (p *Postgres) Dialect() string { return "postgres" }

// Target is where the pool connects (never the password).
func (p *Postgres) Target() pgconfig.Target { return p.target }

// MaxConns is the pool size.
func (p *Postgres) MaxConns() int { return p.conns }

// withConn runs fn on a pooled session under the statement timeout (plus a
// margin for the server's own statement_timeout to fire first). Waiting for
// a free session is bounded separately and reported as the database being
// busy, as for SQLite. A database that cannot be reached is DATABASE_ERROR;
// a session that died under fn is a *connLostError (see retryOnLoss).
// fresh: the session must first answer a ping (dead ones are dropped, at
// most one per pooled session), for running a statement again after a loss.
func (p *Postgres) withConn(ctx context.Context, fresh bool, fn func(ctx context.Context, c *pgx.Conn) error) error {
	c, err := p.acquire(ctx, fresh)
	if err != nil {
		return err
	}
	defer c.Release() // the pool destroys a session left in a transaction, busy or closed
	// Half a second past the server's statement_timeout: the server's own
	// cancel comes first, and a single long function call, which PostgreSQL
	// does not interrupt, still answers within the timeout plus a second.
	qctx, cancel := context.WithTimeout(ctx, p.opts.QueryTimeout+500*time.Millisecond)
	defer cancel()
	err = fn(qctx, c.Conn())
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return cancelledError()
	case errors.Is(qctx.Err(), context.DeadlineExceeded):
		return p.timeoutError()
	case sessionLost(c.Conn(), err):
		return &connLostError{err: err}
	}
	return err
}

// acquire takes a session from the pool within the statement timeout;
// fresh: one that answers a ping.
func (p *Postgres) acquire(ctx context.Context, fresh bool) (*pgxpool.Conn, error) {
	waitCtx, cancelWait := context.WithTimeout(ctx, p.opts.QueryTimeout)
	defer cancelWait()
	for tries := 0; ; tries++ {
		c, err := p.pool.Acquire(waitCtx)
		if err != nil && tries < p.conns && ctx.Err() == nil && terminatedWhileConnecting(err) {
			continue // the new session was killed, the server is up: dial again
		}
		if err != nil {
			// A dial that failed (refused, or no answer in time) is the
			// database's; a wait that timed out with every session busy is
			// the load's.
			var ce *pgconn.ConnectError
			if busy := waitError(ctx, err, p.conns, p.opts.QueryTimeout); busy != nil && (ctx.Err() != nil || !errors.As(err, &ce)) {
				return nil, busy
			}
			return nil, p.unavailable(err)
		}
		if !fresh {
			return c, nil
		}
		perr := c.Ping(waitCtx)
		if perr == nil {
			return c, nil
		}
		// A dead session: closed, so the pool drops it on release.
		c.Conn().Close(context.WithoutCancel(ctx))
		c.Release()
		if tries >= p.conns || ctx.Err() != nil {
			return nil, p.unavailable(perr)
		}
	}
}

func (p *Postgres) timeoutError() *sqlerr.Error { return statementTimeoutError(p.opts.QueryTimeout) }
