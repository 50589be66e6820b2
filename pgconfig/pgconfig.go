// Package pgconfig turns a PostgreSQL connection string and the
// environment into a pgx connection configuration, describes the target
// without its password, and turns connection failures into one-line errors
// that say what to fix. database-mcp and gen-data share it.
package pgconfig

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// DefaultConnectTimeout bounds a connection attempt when the DSN sets no
// connect_timeout.
const DefaultConnectTimeout = 10 * time.Second

// Parse reads dsn, a URL (postgres://user@host:5432/db?sslmode=disable) or
// key=value pairs (host=... dbname=...). Anything the DSN leaves out comes
// from the usual PG* environment variables (PGHOST, PGUSER, PGPASSWORD, ...)
// and ~/.pgpass, as with psql. When passwordEnv is set, the password is
// read from that environment variable instead, and it must be set. The
// returned error never contains the password.
func Parse(dsn, passwordEnv string) (*pgx.ConnConfig, error) {
	if strings.TrimSpace(dsn) == "" {
		return nil, errors.New("empty DSN: give one like postgres://user@host:5432/dbname or 'host=... dbname=...'")
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("the DSN is not a valid PostgreSQL connection string (postgres://user@host:5432/dbname or 'host=... dbname=...'): %s",
			parseReason(err))
	}
	if passwordEnv != "" {
		pw, ok := os.LookupEnv(passwordEnv)
		if !ok || pw == "" {
			return nil, fmt.Errorf("the password variable %s is not set or empty: export it, or drop --password-env to use PGPASSWORD or ~/.pgpass", passwordEnv)
		}
		cfg.Password = pw
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
		d := &net.Dialer{Timeout: DefaultConnectTimeout, KeepAlive: 5 * time.Minute}
		cfg.DialFunc = d.DialContext
	}
	return cfg, nil
}

// parseReason is pgx's reason for refusing a connection string, without the
// connection string itself (pgx masks passwords in it only on a best-effort
// basis).
func parseReason(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "`: "); strings.HasPrefix(msg, "cannot parse `") && i > 0 {
		return msg[i+3:]
	}
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) {
		return "it cannot be parsed"
	}
	return msg
}

// HasInlinePassword reports whether dsn itself holds a password (which then
// shows in process listings and shell history), as opposed to one from
// PGPASSWORD, ~/.pgpass or --password-env.
func HasInlinePassword(dsn string) bool {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return strings.Contains(dsn, "@") // unparseable: assume the worst
		}
		if _, ok := u.User.Password(); ok {
			return true
		}
		return u.Query().Get("password") != ""
	}
	return inlinePasswordKV.MatchString(dsn)
}

var inlinePasswordKV = regexp.MustCompile(`(^|\s)password\s*=`)

// Target is where a configuration connects, for logs and messages: host,
// port, database and user, never the password.
type Target struct {
	Host     string `json:"host"`
	Port     uint16 `json:"port"`
	Database string `json:"database"`
	User     string `json:"user"`
}

// TargetOf returns the target of cfg.
func TargetOf(cfg *pgx.ConnConfig) Target {
	return Target{Host: cfg.Host, Port: cfg.Port, Database: cfg.Database, User: cfg.User}
}

// Address is host:port (a Unix socket directory shows as the directory).
func (t Target) Address() string {
	if strings.HasPrefix(t.Host, "/") {
		return t.Host + " (socket, port " + strconv.Itoa(int(t.Port)) + ")"
	}
	return net.JoinHostPort(t.Host, strconv.Itoa(int(t.Port)))
}

// URL is postgres://user@host:port/database, without a password (a socket
// directory host goes in the host= parameter).
func (t Target) URL() string {
	u := url.URL{Scheme: "postgres", User: url.User(t.User), Path: "/" + t.Database}
	if strings.HasPrefix(t.Host, "/") {
		u.RawQuery = url.Values{"host": {t.Host}, "port": {strconv.Itoa(int(t.Port))}}.Encode()
	} else {
		u.Host = net.JoinHostPort(t.Host, strconv.Itoa(int(t.Port)))
	}
	return u.String()
}

// String is "postgres <host:port> database <db> user <user>".
func (t Target) String() string {
	return fmt.Sprintf("postgres %s database %q user %q", t.Address(), t.Database, t.User)
}

// LogAttrs are the target as slog key/values.
func (t Target) LogAttrs() []any {
	return []any{"host", t.Host, "port", t.Port, "database", t.Database, "user", t.User}
}

// ConnectError explains a failed connection attempt to t in one line:
// what went wrong and what to fix. It never contains the password.
func ConnectError(t Target, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01":
			return fmt.Errorf("%s: password authentication failed: check the password (PGPASSWORD, --password-env or the DSN)", t)
		case "28000":
			return fmt.Errorf("%s: the server refused this user from this host (pg_hba.conf): %s", t, pe.Message)
		case "3D000":
			return fmt.Errorf("%s: database %q does not exist: check the database name in the DSN", t, t.Database)
		case "53300":
			return fmt.Errorf("%s: the server has no free connection slots: try again later or raise max_connections", t)
		case "57P03":
			return fmt.Errorf("%s: the server is starting up or shutting down: try again shortly", t)
		}
		return fmt.Errorf("%s: the server refused the connection: %s (SQLSTATE %s)", t, pe.Message, pe.Code)
	}
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return fmt.Errorf("%s: no answer within the connect timeout: check host and port in the DSN, and any firewall in between", t)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("%s: connecting was cancelled", t)
	}
	var de *net.DNSError
	if errors.As(err, &de) {
		return fmt.Errorf("%s: cannot resolve host %q (%s): check the host in the DSN", t, de.Name, de.Err)
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		return fmt.Errorf("%s: cannot reach the server (%s): check host and port in the DSN and that PostgreSQL is running and listening there",
			t, netReason(oe))
	}
	msg := err.Error()
	if strings.Contains(msg, "tls") || strings.Contains(msg, "SSL") || strings.Contains(msg, "x509") {
		return fmt.Errorf("%s: TLS negotiation failed: check sslmode in the DSN", t)
	}
	return fmt.Errorf("%s: cannot connect: %s", t, lastLine(msg))
}

// netReason is the operating system's reason of a dial error
// ("connection refused").
func netReason(oe *net.OpError) string {
	if oe.Err != nil {
		var se *os.SyscallError
		if errors.As(oe.Err, &se) {
			return se.Err.Error()
		}
		return oe.Err.Error()
	}
	return oe.Error()
}

// lastLine keeps the last line of a multi-line message.
func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[i+1:])
	}
	return s
}
