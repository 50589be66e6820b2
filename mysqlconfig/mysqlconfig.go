// Package mysqlconfig turns a MySQL or MariaDB connection string and the
// environment into a go-sql-driver/mysql configuration, describes the
// target without its password, and turns connection failures into one-line
// errors that say what to fix. database-mcp, gen-data and catalog init share
// it, as they share pgconfig for PostgreSQL.
package mysqlconfig

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// DefaultConnectTimeout bounds a connection attempt when the DSN sets no
// timeout.
const DefaultConnectTimeout = 10 * time.Second

// EnvPassword is the variable the password comes from when neither the DSN
// nor --password-env gives one (the mysql client's own convention).
const EnvPassword = "MYSQL_PWD"

// IsURL reports whether dsn is a mysql:// or mariadb:// URL.
func IsURL(dsn string) bool {
	d := strings.ToLower(strings.TrimSpace(dsn))
	return strings.HasPrefix(d, "mysql://") || strings.HasPrefix(d, "mariadb://")
}

// Parse reads dsn: a URL (mysql://user:pass@host:3306/db?tls=true, also
// mariadb://) or the driver's own form (user:pass@tcp(host:3306)/db?...).
// A password the DSN leaves out comes from the variable passwordEnv names
// (which must then be set), else from MYSQL_PWD. The returned error never
// contains the password. The configuration never allows several
// statements per query nor LOAD DATA LOCAL; Parse refuses a DSN that asks
// for either.
func Parse(dsn, passwordEnv string) (*mysql.Config, error) {
	if strings.TrimSpace(dsn) == "" {
		return nil, errors.New("empty DSN: give one like mysql://user@host:3306/dbname or user@tcp(host:3306)/dbname")
	}
	driverDSN := strings.TrimSpace(dsn)
	if IsURL(driverDSN) {
		var err error
		if driverDSN, err = fromURL(driverDSN); err != nil {
			return nil, err
		}
	}
	cfg, err := mysql.ParseDSN(driverDSN)
	if err != nil {
		return nil, fmt.Errorf("the DSN is not a valid MySQL connection string (mysql://user@host:3306/dbname or user@tcp(host:3306)/dbname): %s",
			withoutPassword(err.Error(), dsn))
	}
	if cfg.MultiStatements || cfg.AllowAllFiles {
		return nil, errors.New("the DSN allows several statements per query or LOAD DATA LOCAL (multiStatements, allowAllFiles): remove those parameters; database-mcp runs one statement at a time")
	}
	if cfg.DBName == "" {
		return nil, errors.New("the DSN names no database: add it after the host, e.g. mysql://user@host:3306/sales")
	}
	switch {
	case passwordEnv != "":
		pw, ok := os.LookupEnv(passwordEnv)
		if !ok || pw == "" {
			return nil, fmt.Errorf("the password variable %s is not set or empty: export it, or drop --password-env to use %s or the DSN", passwordEnv, EnvPassword)
		}
		cfg.Passwd = pw
	case cfg.Passwd == "":
		cfg.Passwd = os.Getenv(EnvPassword)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultConnectTimeout
	}
	return cfg, nil
}

// fromURL turns mysql://user:pass@host:port/db?params into the driver's
// user:pass@tcp(host:port)/db?params.
func fromURL(dsn string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", fmt.Errorf("the DSN is not a valid MySQL URL (mysql://user@host:3306/dbname): %s", withoutPassword(err.Error(), dsn))
	}
	host := u.Hostname()
	if host == "" {
		host = "127.0.0.1"
	}
	port := u.Port()
	if port == "" {
		port = "3306"
	}
	var b strings.Builder
	if u.User != nil {
		b.WriteString(u.User.Username())
		if pw, ok := u.User.Password(); ok {
			b.WriteString(":" + pw)
		}
		b.WriteString("@")
	}
	b.WriteString("tcp(" + net.JoinHostPort(host, port) + ")/")
	b.WriteString(strings.TrimPrefix(u.Path, "/"))
	if u.RawQuery != "" {
		b.WriteString("?" + u.RawQuery)
	}
	return b.String(), nil
}

// withoutPassword removes the DSN's password from a message that quotes it.
func withoutPassword(msg, dsn string) string {
	if pw := inlinePassword(dsn); pw != "" {
		msg = strings.ReplaceAll(msg, pw, "***")
	}
	return msg
}

// inlinePassword is the password written into dsn, or "".
func inlinePassword(dsn string) string {
	if IsURL(dsn) {
		if u, err := url.Parse(dsn); err == nil && u.User != nil {
			pw, _ := u.User.Password()
			return pw
		}
		return ""
	}
	at := strings.LastIndex(dsn, "@")
	if at < 0 {
		return ""
	}
	if _, pw, ok := strings.Cut(dsn[:at], ":"); ok {
		return pw
	}
	return ""
}

// HasInlinePassword reports whether dsn itself holds a password (which then
// shows in process listings and shell history).
func HasInlinePassword(dsn string) bool { return inlinePassword(dsn) != "" }

// Target is where a configuration connects, for logs and messages: host,
// port, database and user, never the password.
type Target struct {
	Host     string `json:"host"`
	Port     int    `json:"port"`
	Database string `json:"database"`
	User     string `json:"user"`
	Socket   string `json:"socket,omitempty"`
}

// TargetOf returns the target of cfg.
func TargetOf(cfg *mysql.Config) Target {
	t := Target{Database: cfg.DBName, User: cfg.User}
	if cfg.Net == "unix" {
		t.Socket = cfg.Addr
		return t
	}
	host, port, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		host, port = cfg.Addr, "3306"
	}
	t.Host = host
	t.Port, _ = strconv.Atoi(port)
	return t
}

// Address is host:port, or the socket path.
func (t Target) Address() string {
	if t.Socket != "" {
		return t.Socket + " (socket)"
	}
	return net.JoinHostPort(t.Host, strconv.Itoa(t.Port))
}

// String is "mysql <host:port> database <db> user <user>".
func (t Target) String() string {
	return fmt.Sprintf("mysql %s database %q user %q", t.Address(), t.Database, t.User)
}

// LogAttrs are the target as slog key/values.
func (t Target) LogAttrs() []any {
	if t.Socket != "" {
		return []any{"socket", t.Socket, "database", t.Database, "user", t.User}
	}
	return []any{"host", t.Host, "port", t.Port, "database", t.Database, "user", t.User}
}

// ConnectError explains a failed connection attempt to t in one line: what
// went wrong and what to fix. It never contains the password.
func ConnectError(t Target, err error) error {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		switch me.Number {
		case 1045:
			return fmt.Errorf("%s: access denied: check the user and password (%s, --password-env or the DSN) and that the user may connect from this host", t, EnvPassword)
		case 1044:
			return fmt.Errorf("%s: the user may not use database %q: GRANT SELECT ON %s.* to it", t, t.Database, t.Database)
		case 1049:
			return fmt.Errorf("%s: database %q does not exist: check the database name in the DSN", t, t.Database)
		case 1040, 1203, 1226:
			return fmt.Errorf("%s: the server has no free connection for this user: try again later or raise max_connections / the user's limits", t)
		case 1129, 1130:
			return fmt.Errorf("%s: the server refuses connections from this host: %s", t, me.Message)
		}
		return fmt.Errorf("%s: the server refused the connection: %s (error %d)", t, me.Message, me.Number)
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
		return fmt.Errorf("%s: cannot reach the server (%s): check host and port in the DSN and that MySQL/MariaDB is running and listening there",
			t, netReason(oe))
	}
	msg := err.Error()
	if strings.Contains(msg, "tls") || strings.Contains(msg, "TLS") || strings.Contains(msg, "x509") {
		return fmt.Errorf("%s: TLS negotiation failed: check the tls parameter of the DSN", t)
	}
	return fmt.Errorf("%s: cannot connect: %s", t, msg)
}

// netReason is the operating system's reason of a dial error.
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

// Is reports whether dsn names a MySQL or MariaDB database: a mysql:// or
// mariadb:// URL, or the driver's form (user@tcp(host:3306)/db,
// user@unix(/path)/db). Anything else is left to the other engines.
func Is(dsn string) bool {
	d := strings.TrimSpace(dsn)
	if IsURL(d) {
		return true
	}
	for _, net := range []string{"tcp(", "tcp6(", "unix("} {
		if strings.HasPrefix(d, net) || strings.Contains(d, "@"+net) {
			return true
		}
	}
	return false
}

// URL is mysql://user@host:port/database, without a password (a socket as
// the driver's form user@unix(/path)/database).
func (t Target) URL() string {
	if t.Socket != "" {
		return t.User + "@unix(" + t.Socket + ")/" + t.Database
	}
	u := url.URL{Scheme: "mysql", User: url.User(t.User), Host: net.JoinHostPort(t.Host, strconv.Itoa(t.Port)), Path: "/" + t.Database}
	return u.String()
}
