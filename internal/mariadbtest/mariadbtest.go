// Package mariadbtest runs a throwaway MariaDB server for the tests of one
// test binary: mariadb-install-db into a temporary directory, mariadbd on a
// free 127.0.0.1 port as an unprivileged user, a fresh database per test,
// and a stop at the end, also when the binary dies (the server gets SIGKILL
// when its parent goes away, and the next run removes directories left
// behind).
//
// Use it from TestMain (beside pgtest.Main, if the binary has both):
//
//	func TestMain(m *testing.M) { os.Exit(mariadbtest.Main(m)) }
//
// and in a test:
//
//	db := mariadbtest.NewDB(t)               // skips loudly when MariaDB is not installed and CI is unset
//	mariadbtest.LoadSample(t, db, 5000)      // the sample data, as gen-data --dsn mysql://... loads it
//	dsn := db.ReadOnlyUser(t).DSN()          // the least-privilege user of docs/engines.md
//
// The server starts on the first NewDB, so binaries whose tests never ask
// for one pay nothing. Binaries are found through $T2T_MARIADB_BINDIR, then
// mariadbd and mariadb-install-db on $PATH, /usr/sbin and /usr/bin.
package mariadbtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Superuser is the name of the server's test superuser (all privileges,
// from 127.0.0.1).
const Superuser = "t2t_root"

// dirPrefix names the server directories under os.TempDir().
const dirPrefix = "talk2tables-mariadbtest-"

// startTimeout bounds mariadb-install-db plus the server becoming ready.
const startTimeout = 2 * time.Minute

var (
	mu      sync.Mutex
	shared  *Server
	initErr error
	tried   bool
	skips   atomic.Int32
)

// Main runs the tests and stops the server if one was started. Tests that
// were skipped because MariaDB is missing are counted in a banner on
// stderr, so a green run cannot hide them.
func Main(m interface{ Run() int }) int {
	code := m.Run()
	return Stop(code)
}

// Stop stops the server if one was started and prints the skip banner; it
// returns code, or 1 when stopping failed. Main calls it; a TestMain that
// also runs pgtest calls it after pgtest.Main.
func Stop(code int) int {
	mu.Lock()
	s := shared
	shared = nil
	mu.Unlock()
	if s != nil {
		if err := s.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "mariadbtest: stop server: %v\n", err)
			if code == 0 {
				code = 1
			}
		}
	}
	if n := skips.Load(); n > 0 {
		fmt.Fprintf(os.Stderr, "\n*** mariadbtest: %d MariaDB test(s) SKIPPED: MariaDB is not installed "+
			"(run scripts/ensure-test-deps.sh or apt-get install mariadb-server mariadb-client) ***\n\n", n)
	}
	return code
}

// Server is a running throwaway MariaDB server.
type Server struct {
	Host     string // 127.0.0.1
	Port     int
	Password string // of Superuser
	Dir      string // base directory: data/, the socket, the log
	Version  string // VERSION(), e.g. "10.11.6-MariaDB-0+deb12u1"

	serverBin, installBin string
	cmd                   *exec.Cmd
	exited                chan struct{}
	seq                   atomic.Int64
}

// Start returns the server of this test binary, starting it on first use.
// Without MariaDB binaries it skips tb with a loud message, or fails it
// when the CI environment variable is set (CI must run these tests).
func Start(tb testing.TB) *Server {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	if !tried {
		tried = true
		shared, initErr = startServer()
	}
	if errors.Is(initErr, errNoBinaries) {
		if os.Getenv("CI") != "" {
			tb.Fatalf("mariadbtest: %v; CI must run the MariaDB tests: scripts/ensure-test-deps.sh installs MariaDB", initErr)
		}
		skips.Add(1)
		tb.Skipf("SKIPPING MariaDB test: %v (install with scripts/ensure-test-deps.sh or apt-get install mariadb-server mariadb-client)", initErr)
	}
	if initErr != nil {
		tb.Fatalf("mariadbtest: start MariaDB: %v", initErr)
	}
	return shared
}

var errNoBinaries = errors.New("MariaDB server binaries (mariadbd, mariadb-install-db) not found")

// findBinaries returns the paths of mariadbd and mariadb-install-db.
func findBinaries() (server, install string, err error) {
	dirs := []string{"/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"}
	if d := os.Getenv("T2T_MARIADB_BINDIR"); d != "" {
		dirs = []string{d}
	}
	find := func(name string) string {
		for _, d := range dirs {
			if fi, err := os.Stat(filepath.Join(d, name)); err == nil && !fi.IsDir() {
				return filepath.Join(d, name)
			}
		}
		if p, err := exec.LookPath(name); err == nil && os.Getenv("T2T_MARIADB_BINDIR") == "" {
			return p
		}
		return ""
	}
	server, install = find("mariadbd"), find("mariadb-install-db")
	if server == "" || install == "" {
		return "", "", errNoBinaries
	}
	return server, install, nil
}

// runAs is the account the server runs as: mariadbd refuses root without
// --user, so root tests use the mysql account the Debian package creates
// ($T2T_MARIADB_USER overrides it).
func runAs() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	name := os.Getenv("T2T_MARIADB_USER")
	if name == "" {
		name = "mysql"
	}
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("tests run as root and MariaDB should not: need the unprivileged account %q (the mariadb-server package creates it; or set T2T_MARIADB_USER): %w", name, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}, nil
}

func startServer() (*Server, error) {
	serverBin, installBin, err := findBinaries()
	if err != nil {
		return nil, err
	}
	cred, err := runAs()
	if err != nil {
		return nil, err
	}
	removeStale()
	dir, err := os.MkdirTemp("", dirPrefix)
	if err != nil {
		return nil, err
	}
	s := &Server{Host: "127.0.0.1", Dir: dir, Password: randomHex(16), serverBin: serverBin, installBin: installBin}
	ok := false
	defer func() {
		if !ok {
			s.Stop()
		}
	}()
	if err := os.WriteFile(filepath.Join(dir, "owner.pid"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return nil, err
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := s.install(ctx, cred); err != nil {
		// mariadb-install-db has failed now and then when several test
		// binaries start servers at once (seen once in CI, not reproduced
		// alone): a second try in an emptied data directory, and the error
		// of the first kept if that fails too.
		if rerr := os.RemoveAll(filepath.Join(dir, "data")); rerr != nil {
			return nil, errors.Join(err, rerr)
		}
		if err2 := s.install(ctx, cred); err2 != nil {
			return nil, fmt.Errorf("%w (and again: %w)", err, err2)
		}
	}
	for attempt := 0; ; attempt++ {
		err := s.start(ctx, cred)
		if err == nil {
			break
		}
		// Another process may take the free port between the probe and
		// the bind: try another one.
		if attempt < 4 && strings.Contains(err.Error(), "Address already in use") {
			continue
		}
		return nil, err
	}
	ok = true
	return s, nil
}

func (s *Server) install(ctx context.Context, cred *syscall.Credential) error {
	cmd := exec.CommandContext(ctx, s.installBin, "--no-defaults", "--datadir="+filepath.Join(s.Dir, "data"),
		"--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve")
	cmd.Dir = s.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
	cmd.Env = cleanEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("mariadb-install-db: %w\n%s", err, lastLines(out, 40))
	}
	return nil
}

// start runs mariadbd on a free port and waits until it accepts
// connections on its socket, then creates the test superuser.
func (s *Server) start(ctx context.Context, cred *syscall.Credential) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	logPath := filepath.Join(s.Dir, "server.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	sock := filepath.Join(s.Dir, "sock")
	cmd := exec.Command(s.serverBin, "--no-defaults", "--datadir="+filepath.Join(s.Dir, "data"),
		"--port="+strconv.Itoa(port), "--bind-address=127.0.0.1", "--socket="+sock, "--pid-file="+filepath.Join(s.Dir, "pid"),
		"--skip-name-resolve", "--skip-log-bin", "--innodb-buffer-pool-size=64M", "--innodb-log-file-size=16M",
		"--innodb-flush-log-at-trx-commit=0", "--innodb-doublewrite=0", "--character-set-server=utf8mb4",
		"--collation-server=utf8mb4_general_ci", "--max-connections=200", "--secure-file-priv=", "--local-infile=0",
		"--log-error="+logPath)
	cmd.Dir = s.Dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = cleanEnv()
	// SIGKILL when this test binary dies without stopping the server: a
	// panic, a -timeout, a kill.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start mariadbd: %w", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	s.cmd, s.exited, s.Port = cmd, exited, port

	rootCfg := mysql.NewConfig()
	rootCfg.User, rootCfg.Net, rootCfg.Addr = "root", "unix", sock
	for {
		err := s.bootstrap(ctx, rootCfg)
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			log, _ := os.ReadFile(logPath)
			s.cmd = nil
			return fmt.Errorf("mariadbd exited at start: %s", lastLines(log, 15))
		case <-ctx.Done():
			log, _ := os.ReadFile(logPath)
			return fmt.Errorf("mariadbd not ready within %s: %v\n%s", startTimeout, err, lastLines(log, 15))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// bootstrap connects as root over the socket and creates the superuser
// the tests connect as over TCP.
func (s *Server) bootstrap(ctx context.Context, rootCfg *mysql.Config) error {
	conn, err := mysql.NewConnector(rootCfg)
	if err != nil {
		return err
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := db.PingContext(cctx); err != nil {
		return err
	}
	for _, q := range []string{
		fmt.Sprintf("CREATE USER IF NOT EXISTS '%s'@'127.0.0.1' IDENTIFIED BY '%s'", Superuser, s.Password),
		fmt.Sprintf("GRANT ALL PRIVILEGES ON *.* TO '%s'@'127.0.0.1' WITH GRANT OPTION", Superuser),
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return db.QueryRowContext(ctx, "SELECT VERSION()").Scan(&s.Version)
}

// Stop shuts the server down (SIGTERM, then SIGKILL after 30 s) and removes
// its directory.
func (s *Server) Stop() error {
	var err error
	if s.cmd != nil && s.cmd.Process != nil {
		select {
		case <-s.exited:
		default:
			s.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-s.exited:
			case <-time.After(30 * time.Second):
				s.cmd.Process.Kill()
				<-s.exited
				err = errors.New("mariadbd did not stop within 30 s after SIGTERM; killed")
			}
		}
		s.cmd = nil
	}
	if s.Dir != "" {
		if rerr := os.RemoveAll(s.Dir); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}

// removeStale removes server directories of test binaries that are gone,
// killing a server still running in one.
func removeStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), dirPrefix+"*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "owner.pid"))
		if err != nil {
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && alive(pid) {
			continue
		}
		if pb, err := os.ReadFile(filepath.Join(d, "pid")); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(pb))); err == nil && alive(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		os.RemoveAll(d)
	}
}

func alive(pid int) bool { return pid > 0 && syscall.Kill(pid, 0) == nil }

// cleanEnv is the environment of the server processes, without the MYSQL_*
// variables of the developer's shell.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MYSQL") && !strings.HasPrefix(kv, "MARIADB") {
			env = append(env, kv)
		}
	}
	return append(env, "LC_ALL=C.UTF-8")
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// DSN is a mysql:// URL to database db as user with password.
func (s *Server) DSN(db, user, password string) string {
	return fmt.Sprintf("mysql://%s:%s@%s/%s", user, password, net.JoinHostPort(s.Host, strconv.Itoa(s.Port)), db)
}

// Config is a driver configuration for database db as user with password.
func (s *Server) Config(db, user, password string) *mysql.Config {
	c := mysql.NewConfig()
	c.User, c.Passwd, c.Net, c.Addr, c.DBName = user, password, "tcp", net.JoinHostPort(s.Host, strconv.Itoa(s.Port)), db
	return c
}

// Admin connects to the server as the superuser (no default database),
// closed when tb ends.
func (s *Server) Admin(tb testing.TB) *sql.DB {
	tb.Helper()
	return open(tb, s.Config("", Superuser, s.Password))
}

func open(tb testing.TB, cfg *mysql.Config) *sql.DB {
	tb.Helper()
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		tb.Fatalf("mariadbtest: %v", err)
	}
	db := sql.OpenDB(conn)
	tb.Cleanup(func() { db.Close() })
	return db
}

// DB is a database of its own on the shared server.
type DB struct {
	Server *Server
	Name   string
}

// NewDB creates an empty database for tb and drops it, and the users made
// for it, when tb ends.
func NewDB(tb testing.TB) *DB {
	tb.Helper()
	return NewDBNamed(tb, "")
}

// NewDBNamed is NewDB with a database whose name starts with base (as a
// user's database is named after what it holds: the planner reads that
// name as a word of the domain).
func NewDBNamed(tb testing.TB, base string) *DB {
	tb.Helper()
	s := Start(tb)
	name := fmt.Sprintf("t%d_%s", s.seq.Add(1), randomHex(3))
	if base != "" {
		name = base + "_" + name
	}
	mustExec(tb, s.Admin(tb), "CREATE DATABASE `"+name+"` CHARACTER SET utf8mb4")
	d := &DB{Server: s, Name: name}
	tb.Cleanup(func() {
		admin := s.Admin(tb)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE `"+name+"`"); err != nil {
			tb.Errorf("mariadbtest: drop database %s: %v", name, err)
		}
		rows, err := admin.QueryContext(ctx, "SELECT User, Host FROM mysql.user WHERE User LIKE ?", name+`\_%`)
		if err != nil {
			return
		}
		defer rows.Close()
		var users [][2]string
		for rows.Next() {
			var u, h string
			if rows.Scan(&u, &h) == nil {
				users = append(users, [2]string{u, h})
			}
		}
		for _, u := range users {
			if _, err := admin.ExecContext(ctx, fmt.Sprintf("DROP USER '%s'@'%s'", u[0], u[1])); err != nil {
				tb.Errorf("mariadbtest: drop user %s: %v", u[0], err)
			}
		}
	})
	return d
}

// DSN is a mysql:// URL to the database as the superuser.
func (d *DB) DSN() string { return d.Server.DSN(d.Name, Superuser, d.Server.Password) }

// Config is a driver configuration for the database as the superuser.
func (d *DB) Config() *mysql.Config { return d.Server.Config(d.Name, Superuser, d.Server.Password) }

// Conn opens the database as the superuser, closed when tb ends.
func (d *DB) Conn(tb testing.TB) *sql.DB {
	tb.Helper()
	return open(tb, d.Config())
}

// Exec runs each statement on the database as the superuser.
func (d *DB) Exec(tb testing.TB, stmts ...string) {
	tb.Helper()
	db := d.Conn(tb)
	for _, s := range stmts {
		mustExec(tb, db, s)
	}
}

func mustExec(tb testing.TB, db *sql.DB, q string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := db.ExecContext(ctx, q); err != nil {
		tb.Fatalf("mariadbtest: %s: %v", firstLine(q), err)
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// User is a login user made for one database.
type User struct {
	db       *DB
	Name     string
	Password string
}

// DSN is a mysql:// URL to the user's database as the user.
func (u User) DSN() string { return u.db.Server.DSN(u.db.Name, u.Name, u.Password) }

// ReadOnlyUser creates the least-privilege user docs/engines.md recommends
// for database-mcp (ReadOnlyGrants): SELECT on the database and nothing
// else.
func (d *DB) ReadOnlyUser(tb testing.TB) User {
	tb.Helper()
	u := User{db: d, Name: d.Name + "_reader" + randomHex(2), Password: randomHex(12)}
	admin := d.Server.Admin(tb)
	for _, s := range ReadOnlyGrants(d.Name, u.Name, "127.0.0.1", u.Password) {
		mustExec(tb, admin, s)
	}
	return u
}

// ReadOnlyGrants are the statements that make user@host a least-privilege
// reader of database db (docs/engines.md shows the same SQL).
func ReadOnlyGrants(db, user, host, password string) []string {
	return []string{
		fmt.Sprintf("CREATE USER '%s'@'%s' IDENTIFIED BY '%s' WITH MAX_USER_CONNECTIONS 20", user, host, password),
		fmt.Sprintf("GRANT SELECT, SHOW VIEW ON `%s`.* TO '%s'@'%s'", db, user, host),
	}
}
