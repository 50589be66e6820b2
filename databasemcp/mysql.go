package databasemcp

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"

	"talk2tables/mysqlconfig"
	"talk2tables/schema"
	"talk2tables/sqlerr"
)

// DefaultMySQLConns is the default size of the MySQL connection pool.
const DefaultMySQLConns = 8

// MySQLConfig says how OpenMySQL connects.
type MySQLConfig struct {
	// Conn is the connection configuration, from mysqlconfig.Parse.
	Conn *mysql.Config
	// MaxConns is the pool size; 0 means DefaultMySQLConns.
	MaxConns int
}

// MySQL is a MySQL or MariaDB database served read-only. Every query runs in
// its own START TRANSACTION READ ONLY on a pooled session whose
// transactions are read-only by default too (tx_read_only /
// transaction_read_only), bounded by the server's statement timeout
// (max_statement_time on MariaDB, max_execution_time on MySQL) and
// lock_wait_timeout, and is rolled back at the end, after which any named
// lock a stored function may have taken is released. Before that, the
// statement passes sqlscan's MySQL rules (every sql_mode reading, the deny
// list of functions and statements with effects).
type MySQL struct {
	db      *sql.DB
	opts    Options
	target  mysqlconfig.Target
	conns   int
	mariadb bool
	version string
	// releaseLocks: the server has RELEASE_ALL_LOCKS (MySQL 5.7, MariaDB
	// 10.5), and every query ends with it.
	releaseLocks bool

	schemaMu     sync.Mutex
	schema       *schema.Schema // cached without Today
	schemaLoaded time.Time

	verMu sync.Mutex
	ver   string
	verAt time.Time
}

var _ Backend = (*MySQL)(nil)

// ConnectionProgram names database-mcp's sessions in the server's
// processlist (performance_schema.session_connect_attrs program_name).
const ConnectionProgram = "talk2tables-database-mcp"

// OpenMySQL connects to MySQL or MariaDB, recognises which one it is,
// configures every pooled session for read-only work (below) and checks one,
// and reads the schema once, so a user without the needed privileges fails
// here, not on the first question. Connection failures are one-line errors
// naming host, port, database and user (mysqlconfig.ConnectError).
func OpenMySQL(ctx context.Context, mc MySQLConfig, opts Options) (*MySQL, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if mc.Conn == nil {
		return nil, errors.New("no MySQL connection configuration given")
	}
	if mc.MaxConns < 0 {
		return nil, fmt.Errorf("max connections must not be negative, got %d", mc.MaxConns)
	}
	if mc.MaxConns == 0 {
		mc.MaxConns = DefaultMySQLConns
	}
	m := &MySQL{opts: opts, target: mysqlconfig.TargetOf(mc.Conn), conns: mc.MaxConns}
	base, err := baseSessionConfig(mc.Conn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.target, err)
	}
	ctx, cancel := context.WithTimeout(ctx, schemaTimeout)
	defer cancel()
	mode, err := m.probe(ctx, base)
	if err != nil {
		return nil, err
	}
	cfg := base.Clone()
	m.sessionParams(cfg, mode)
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.target, err)
	}
	m.db = sql.OpenDB(conn)
	m.db.SetMaxOpenConns(mc.MaxConns)
	m.db.SetMaxIdleConns(mc.MaxConns)
	m.db.SetConnMaxIdleTime(5 * time.Minute)
	if err := m.checkSession(ctx); err != nil {
		m.db.Close()
		return nil, err
	}
	if _, err := m.loadSchema(ctx); err != nil {
		m.db.Close()
		return nil, fmt.Errorf("%s: read the schema: %w", m.target, err)
	}
	return m, nil
}

// baseSessionConfig is cfg with what every connection needs whatever the
// server: one statement per query, no LOAD DATA LOCAL, the text protocol
// (no client-side interpolation), utf8mb4 (in which a backslash byte is
// always a backslash: sqlscan's reading of escapes holds), and a program
// name in the processlist.
func baseSessionConfig(cfg *mysql.Config) (*mysql.Config, error) {
	c := cfg.Clone()
	c.MultiStatements, c.AllowAllFiles, c.InterpolateParams, c.ParseTime = false, false, false, false
	c.CheckConnLiveness = true
	if c.ConnectionAttributes == "" {
		c.ConnectionAttributes = "program_name:" + ConnectionProgram
	}
	if err := c.Apply(mysql.Charset("utf8mb4", "")); err != nil {
		return nil, err
	}
	return c, nil
}

// probe connects once to learn the server (MariaDB or MySQL, its version)
// and its default sql_mode.
func (m *MySQL) probe(ctx context.Context, cfg *mysql.Config) (string, error) {
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return "", fmt.Errorf("%s: %w", m.target, err)
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	var mode string
	if err := db.QueryRowContext(ctx, "SELECT VERSION(), @@SESSION.sql_mode").Scan(&m.version, &mode); err != nil {
		return "", mysqlconfig.ConnectError(m.target, err)
	}
	m.mariadb = strings.Contains(strings.ToLower(m.version), "mariadb")
	major, minor := versionNumbers(m.version)
	m.releaseLocks = (m.mariadb && (major > 10 || major == 10 && minor >= 5)) || (!m.mariadb && (major > 5 || major == 5 && minor >= 7))
	return mode, nil
}

// versionNumbers reads "10.11.6-MariaDB-..." or "8.0.36" as (10, 11) or
// (8, 0).
func versionNumbers(v string) (major, minor int) {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) >= 2 {
		major, _ = strconv.Atoi(parts[0])
		minor, _ = strconv.Atoi(strings.TrimFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' }))
	}
	return major, minor
}

// sessionParams sets the session variables every pooled connection starts
// with (go-sql-driver sends them as SET at connect; a server that refuses
// one refuses the connection). The security-relevant ones override the
// DSN's; the time zone only fills a gap.
func (m *MySQL) sessionParams(cfg *mysql.Config, serverMode string) {
	if cfg.Params == nil {
		cfg.Params = map[string]string{}
	}
	p := cfg.Params
	// Double quotes are strings and backslashes escape, as MySQL's default
	// and as an analyst (or a model) writes MySQL; the other flags stay the
	// server's.
	var flags []string
	for _, f := range strings.Split(serverMode, ",") {
		switch f {
		case "", "ANSI_QUOTES", "NO_BACKSLASH_ESCAPES", "ANSI":
		default:
			flags = append(flags, f)
		}
	}
	p["sql_mode"] = "'" + strings.Join(flags, ",") + "'"
	secs := int(math.Ceil(m.opts.QueryTimeout.Seconds()))
	p["lock_wait_timeout"] = strconv.Itoa(max(secs, 1))
	if m.mariadb {
		p["max_statement_time"] = strconv.FormatFloat(m.opts.QueryTimeout.Seconds(), 'f', 3, 64)
		p["tx_read_only"] = "1"
	} else {
		p["max_execution_time"] = strconv.FormatInt(m.opts.QueryTimeout.Milliseconds(), 10)
		p["transaction_read_only"] = "1"
		if major, _ := versionNumbers(m.version); major >= 8 {
			// information_schema.TABLES caches UPDATE_TIME for a day by
			// default: the data version needs it fresh.
			p["information_schema_stats_expiry"] = "0"
		}
	}
	if !hasParam(p, "time_zone") {
		p["time_zone"] = "'+00:00'" // today and timestamps as SQLite's date('now') sees them
	}
}

// hasParam reports whether the DSN set a session variable (in any case).
func hasParam(p map[string]string, key string) bool {
	for k := range p {
		if strings.EqualFold(k, key) {
			return true
		}
	}
	return false
}

// readOnlyVar is the session variable that makes transactions read-only.
func (m *MySQL) readOnlyVar() string {
	if m.mariadb {
		return "tx_read_only"
	}
	return "transaction_read_only"
}

// timeoutVar is the session variable of the statement timeout.
func (m *MySQL) timeoutVar() string {
	if m.mariadb {
		return "max_statement_time"
	}
	return "max_execution_time"
}

// checkSession refuses a session whose server ignored a setting the guards
// rely on (fail closed).
func (m *MySQL) checkSession(ctx context.Context) error {
	var mode string
	var ro int
	var limit float64
	q := fmt.Sprintf("SELECT @@SESSION.sql_mode, @@SESSION.%s, @@SESSION.%s", m.readOnlyVar(), m.timeoutVar())
	if err := m.db.QueryRowContext(ctx, q).Scan(&mode, &ro, &limit); err != nil {
		return mysqlconfig.ConnectError(m.target, err)
	}
	switch {
	case ro != 1:
		return fmt.Errorf("%s: the server reports %s=%d; database-mcp needs read-only transactions", m.target, m.readOnlyVar(), ro)
	case limit <= 0:
		return fmt.Errorf("%s: the server reports %s=%v; database-mcp needs a statement timeout", m.target, m.timeoutVar(), limit)
	}
	for _, f := range strings.Split(mode, ",") {
		if f == "ANSI_QUOTES" || f == "NO_BACKSLASH_ESCAPES" {
			return fmt.Errorf("%s: the session kept sql_mode %s; database-mcp needs MySQL's default quoting", m.target, f)
		}
	}
	return nil
}

// Close closes every session of the pool.
func (m *MySQL) Close() error { return m.db.Close() }

// Options are the effective options (defaults applied).
func (m *MySQL) Options() Options { return m.opts }

// Dialect is "mysql".
func (m *MySQL) Dialect() string { return "mysql" }

// Target is where the pool connects (never the password).
func (m *MySQL) Target() mysqlconfig.Target { return m.target }

// MaxConns is the pool size.
func (m *MySQL) MaxConns() int { return m.conns }

// Server is the server's version string, e.g. "10.11.6-MariaDB-0+deb12u1".
func (m *MySQL) Server() string { return m.version }

// MariaDB reports whether the server is MariaDB (else MySQL).
func (m *MySQL) MariaDB() bool { return m.mariadb }

// withConn runs fn on a pooled session under the statement timeout (plus a
// margin for the server's own timeout to fire first). Waiting for a free
// session is bounded separately and reported as the database being busy.
func (m *MySQL) withConn(ctx context.Context, fn func(ctx context.Context, c *sql.Conn) error) error {
	waitCtx, cancelWait := context.WithTimeout(ctx, m.opts.QueryTimeout)
	c, err := m.db.Conn(waitCtx)
	cancelWait()
	if err != nil {
		if busy := waitError(ctx, err, m.conns, m.opts.QueryTimeout); busy != nil {
			return busy
		}
		return m.unavailable(err)
	}
	defer c.Close()
	qctx, cancel := context.WithTimeout(ctx, m.opts.QueryTimeout+500*time.Millisecond)
	defer cancel()
	err = fn(qctx, c)
	if err != nil && ctx.Err() != nil {
		return cancelledError()
	}
	if err != nil && errors.Is(qctx.Err(), context.DeadlineExceeded) {
		return m.timeoutError()
	}
	return err
}

// unavailable is the error of a query that could not reach the database:
// DATABASE_ERROR, which no SQL fixes and which marks the executor unhealthy
// until a statement works again.
func (m *MySQL) unavailable(err error) *sqlerr.Error {
	return sqlerr.New(sqlerr.DatabaseError, "database unavailable: "+mysqlconfig.ConnectError(m.target, err).Error()+"; try again")
}

func (m *MySQL) timeoutError() *sqlerr.Error { return statementTimeoutError(m.opts.QueryTimeout) }

// discard makes the pool drop c (its session state is unknown: a
// cancelled read, a failed rollback).
func discard(c *sql.Conn) {
	c.Raw(func(any) error { return driver.ErrBadConn })
}
