// Package pgtest runs a throwaway PostgreSQL cluster for the tests of one
// test binary: initdb in a temporary directory, postgres on a free
// 127.0.0.1 port as an unprivileged user, a fresh database per test, and a
// stop at the end, also when the binary dies (the server gets SIGQUIT when
// its parent goes away, and the next run removes directories left behind).
//
// Use it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
//
// and in a test:
//
//	db := pgtest.NewDB(t)               // skips loudly when PostgreSQL is not installed and CI is unset
//	pgtest.LoadSample(t, db, 5000)      // the sample data, as gen-data --dsn loads it
//	dsn := db.ReadOnlyRole(t).DSN()     // the least-privilege role of the README
//
// The cluster starts on the first NewDB, so binaries whose tests never ask
// for one pay nothing. Binaries are found through $T2T_PG_BINDIR, then
// initdb and postgres on $PATH, then /usr/lib/postgresql/*/bin.
package pgtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Superuser is the name of the cluster's superuser.
const Superuser = "pgtest"

// dirPrefix names the cluster directories under os.TempDir().
const dirPrefix = "talk2tables-pgtest-"

// startTimeout bounds initdb plus the server becoming ready.
const startTimeout = 2 * time.Minute

var (
	mu      sync.Mutex
	shared  *Cluster
	initErr error
	tried   bool
	skips   atomic.Int32
)

// Main runs the tests and stops the cluster if one was started. Tests that
// were skipped because PostgreSQL is missing are counted in a banner on
// stderr, so a green run cannot hide them.
func Main(m *testing.M) int {
	code := m.Run()
	mu.Lock()
	c := shared
	shared = nil
	mu.Unlock()
	if c != nil {
		if err := c.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: stop cluster: %v\n", err)
			if code == 0 {
				code = 1
			}
		}
	}
	if n := skips.Load(); n > 0 {
		fmt.Fprintf(os.Stderr, "\n*** pgtest: %d PostgreSQL test(s) SKIPPED: PostgreSQL is not installed "+
			"(run scripts/ensure-test-deps.sh or apt-get install postgresql) ***\n\n", n)
	}
	return code
}

// Cluster is a running throwaway PostgreSQL server.
type Cluster struct {
	Host     string // 127.0.0.1
	Port     int
	Password string // of Superuser
	Dir      string // base directory: data/, the socket, the log
	Version  string // server_version, e.g. "15.18 (Debian 15.18-0+deb12u1)"
	BinDir   string

	cmd    *exec.Cmd
	exited chan struct{}
	seq    atomic.Int64
}

// Start returns the cluster of this test binary, starting it on first use.
// Without PostgreSQL binaries it skips tb with a loud message, or fails it
// when the CI environment variable is set (CI must run these tests).
func Start(tb testing.TB) *Cluster {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	if !tried {
		tried = true
		shared, initErr = startCluster()
	}
	if errors.Is(initErr, errNoBinaries) {
		if os.Getenv("CI") != "" {
			tb.Fatalf("pgtest: %v; CI must run the PostgreSQL tests: scripts/ensure-test-deps.sh installs PostgreSQL", initErr)
		}
		skips.Add(1)
		tb.Skipf("SKIPPING PostgreSQL test: %v (install with scripts/ensure-test-deps.sh or apt-get install postgresql)", initErr)
	}
	if initErr != nil {
		tb.Fatalf("pgtest: start PostgreSQL: %v", initErr)
	}
	return shared
}

var errNoBinaries = errors.New("PostgreSQL server binaries (initdb, postgres) not found")

// findBinDir returns the directory holding initdb and postgres.
func findBinDir() (string, error) {
	if d := os.Getenv("T2T_PG_BINDIR"); d != "" {
		if hasServer(d) {
			return d, nil
		}
		return "", fmt.Errorf("%w in T2T_PG_BINDIR=%s", errNoBinaries, d)
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil && hasServer(filepath.Dir(real)) {
			return filepath.Dir(real), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, d := range dirs {
		if hasServer(d) {
			return d, nil
		}
	}
	return "", errNoBinaries
}

func versionOf(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func hasServer(dir string) bool {
	for _, b := range []string{"initdb", "postgres"} {
		if fi, err := os.Stat(filepath.Join(dir, b)); err != nil || fi.IsDir() {
			return false
		}
	}
	return true
}

// runAs is the account the server runs as: initdb and postgres refuse root,
// so root tests use the postgres account the Debian package creates
// ($T2T_PG_USER overrides it).
func runAs() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	name := os.Getenv("T2T_PG_USER")
	if name == "" {
		name = "postgres"
	}
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("tests run as root and PostgreSQL refuses root: need the unprivileged account %q (the postgresql package creates it; or set T2T_PG_USER): %w", name, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}, nil
}

func startCluster() (*Cluster, error) {
	bin, err := findBinDir()
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
	c := &Cluster{Host: "127.0.0.1", Dir: dir, BinDir: bin, Password: randomHex(16)}
	ok := false
	defer func() {
		if !ok {
			c.Stop()
		}
	}()
	if err := os.WriteFile(filepath.Join(dir, "owner.pid"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "pwfile"), []byte(c.Password+"\n"), 0o600); err != nil {
		return nil, err
	}
	if cred != nil {
		for _, p := range []string{dir, filepath.Join(dir, "pwfile")} {
			if err := os.Chown(p, int(cred.Uid), int(cred.Gid)); err != nil {
				return nil, err
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := c.initdb(ctx, cred); err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		err := c.start(ctx, cred, 0)
		if err == nil {
			break
		}
		// Another process may take the free port between the probe and
		// the bind: try another one.
		if attempt < 4 && strings.Contains(err.Error(), "could not bind") {
			continue
		}
		return nil, err
	}
	ok = true
	return c, nil
}

func (c *Cluster) initdb(ctx context.Context, cred *syscall.Credential) error {
	cmd := exec.CommandContext(ctx, filepath.Join(c.BinDir, "initdb"),
		"-D", filepath.Join(c.Dir, "data"), "-U", Superuser, "--pwfile", filepath.Join(c.Dir, "pwfile"),
		"--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--locale=C.UTF-8",
		"--no-sync", "--no-instructions")
	cmd.Dir = c.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
	cmd.Env = cleanEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("initdb: %w\n%s", err, lastLines(out, 15))
	}
	return nil
}

// start runs postgres on port (0: a free one) and waits until it accepts
// the superuser's connections.
func (c *Cluster) start(ctx context.Context, cred *syscall.Credential, port int) error {
	if port == 0 {
		p, err := freePort()
		if err != nil {
			return err
		}
		port = p
	}
	logPath := filepath.Join(c.Dir, "server.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.Command(filepath.Join(c.BinDir, "postgres"),
		"-D", filepath.Join(c.Dir, "data"), "-p", strconv.Itoa(port), "-k", c.Dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=200", "-c", "shared_buffers=32MB",
		"-c", "logging_collector=off", "-c", "log_min_messages=warning", "-c", "log_connections=off")
	cmd.Dir = c.Dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = cleanEnv()
	// SIGQUIT (immediate shutdown) when this test binary dies without
	// stopping the server: a panic, a -timeout, a kill.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start postgres: %w", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	c.cmd, c.exited, c.Port = cmd, exited, port

	for {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		conn, err := pgx.Connect(cctx, c.dsn("postgres", Superuser, c.Password))
		cancel()
		if err == nil {
			err = conn.QueryRow(ctx, "SHOW server_version").Scan(&c.Version)
			conn.Close(context.Background())
			return err
		}
		select {
		case <-exited:
			log, _ := os.ReadFile(logPath)
			c.cmd = nil
			return fmt.Errorf("postgres exited at start: %s", lastLines(log, 15))
		case <-ctx.Done():
			log, _ := os.ReadFile(logPath)
			return fmt.Errorf("postgres not ready within %s: %v\n%s", startTimeout, err, lastLines(log, 15))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Stop shuts the server down (fast shutdown, then SIGKILL after 30 s) and
// removes the cluster directory.
func (c *Cluster) Stop() error {
	err := c.shutdown()
	if c.Dir != "" {
		if rerr := os.RemoveAll(c.Dir); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}

// shutdown stops the server (fast shutdown: sessions are terminated, then
// SIGKILL after 30 s), keeping its data.
func (c *Cluster) shutdown() error {
	var err error
	if c.cmd != nil && c.cmd.Process != nil {
		select {
		case <-c.exited:
		default:
			c.cmd.Process.Signal(syscall.SIGINT)
			select {
			case <-c.exited:
			case <-time.After(30 * time.Second):
				c.cmd.Process.Kill()
				<-c.exited
				err = errors.New("postgres did not stop within 30 s after SIGINT; killed")
			}
		}
		c.cmd = nil
	}
	return err
}

// NewCluster starts a cluster of tb's own, which tb may stop and start
// again (Pause, Resume) without disturbing other tests; it is removed when
// tb ends. It skips or fails tb like Start when PostgreSQL is missing.
func NewCluster(tb testing.TB) *Cluster {
	tb.Helper()
	Start(tb) // the same skip rule; the shared cluster also cleans stale directories
	c, err := startCluster()
	if err != nil {
		tb.Fatalf("pgtest: start a cluster of its own: %v", err)
	}
	tb.Cleanup(func() {
		if err := c.Stop(); err != nil {
			tb.Errorf("pgtest: stop cluster: %v", err)
		}
	})
	return c
}

// Pause stops the server as an operator's "pg_ctl stop -m fast" does: its
// sessions are terminated (clients read 57P01) and new connections are
// refused until Resume. The data stays.
func (c *Cluster) Pause(tb testing.TB) {
	tb.Helper()
	if err := c.shutdown(); err != nil {
		tb.Fatalf("pgtest: pause: %v", err)
	}
}

// Resume starts a paused server again on the same port and waits until it
// accepts connections.
func (c *Cluster) Resume(tb testing.TB) {
	tb.Helper()
	cred, err := runAs()
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := c.start(ctx, cred, c.Port); err != nil {
		tb.Fatalf("pgtest: resume: %v", err)
	}
}

// removeStale removes cluster directories of test binaries that are gone,
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
		if pb, err := os.ReadFile(filepath.Join(d, "data", "postmaster.pid")); err == nil {
			first, _, _ := strings.Cut(string(pb), "\n")
			if pid, err := strconv.Atoi(strings.TrimSpace(first)); err == nil && alive(pid) {
				syscall.Kill(pid, syscall.SIGQUIT)
			}
		}
		os.RemoveAll(d)
	}
}

func alive(pid int) bool {
	return pid > 0 && syscall.Kill(pid, 0) == nil
}

// cleanEnv is the environment of the server processes, without the PG*
// variables of the developer's shell.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
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

// dsn is a URL to database db as user with password.
func (c *Cluster) dsn(db, user, password string) string {
	u := url.URL{Scheme: "postgres", User: url.UserPassword(user, password),
		Host: net.JoinHostPort(c.Host, strconv.Itoa(c.Port)), Path: "/" + db, RawQuery: "sslmode=disable"}
	return u.String()
}

// Admin connects to the cluster's postgres database as the superuser.
func (c *Cluster) Admin(tb testing.TB) *pgx.Conn {
	tb.Helper()
	return connect(tb, c.dsn("postgres", Superuser, c.Password))
}

func connect(tb testing.TB, dsn string) *pgx.Conn {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		tb.Fatalf("pgtest: connect: %v", err)
	}
	tb.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// DB is a database of its own on the shared cluster.
type DB struct {
	Cluster *Cluster
	Name    string
}

// NewDB creates an empty database for tb (owned by the superuser) and drops
// it, its sessions and the roles made for it when tb ends.
func NewDB(tb testing.TB) *DB {
	tb.Helper()
	return Start(tb).NewDB(tb)
}

// NewDB creates an empty database on c for tb, as the package's NewDB does
// on the shared cluster.
func (c *Cluster) NewDB(tb testing.TB) *DB {
	tb.Helper()
	name := fmt.Sprintf("t%d_%s", c.seq.Add(1), randomHex(3))
	admin := c.Admin(tb)
	mustExec(tb, admin, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	db := &DB{Cluster: c, Name: name}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		conn, err := pgx.Connect(ctx, c.dsn("postgres", Superuser, c.Password))
		if err != nil {
			tb.Errorf("pgtest: drop database %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP DATABASE "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			tb.Errorf("pgtest: drop database %s: %v", name, err)
		}
		rows, err := conn.Query(ctx, "SELECT rolname FROM pg_roles WHERE rolname LIKE $1", name+`\_%`)
		if err == nil {
			roles, _ := pgx.CollectRows(rows, pgx.RowTo[string])
			for _, r := range roles {
				if _, err := conn.Exec(ctx, "DROP ROLE "+pgx.Identifier{r}.Sanitize()); err != nil {
					tb.Errorf("pgtest: drop role %s: %v", r, err)
				}
			}
		}
	})
	return db
}

// DSN is a URL to the database as the superuser.
func (d *DB) DSN() string { return d.Cluster.dsn(d.Name, Superuser, d.Cluster.Password) }

// DSNAs is a URL to the database as user with password.
func (d *DB) DSNAs(user, password string) string { return d.Cluster.dsn(d.Name, user, password) }

// Conn connects to the database as the superuser, closed when tb ends.
func (d *DB) Conn(tb testing.TB) *pgx.Conn {
	tb.Helper()
	return connect(tb, d.DSN())
}

// Exec runs each statement on the database as the superuser.
func (d *DB) Exec(tb testing.TB, stmts ...string) {
	tb.Helper()
	conn := d.Conn(tb)
	for _, s := range stmts {
		mustExec(tb, conn, s)
	}
}

func mustExec(tb testing.TB, conn *pgx.Conn, sql string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := conn.Exec(ctx, sql); err != nil {
		tb.Fatalf("pgtest: %s: %v", firstLine(sql), err)
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// Role is a login role made for one database.
type Role struct {
	db       *DB
	Name     string
	Password string
}

// DSN is a URL to the role's database as the role.
func (r Role) DSN() string { return r.db.DSNAs(r.Name, r.Password) }

// ReadOnlyRole creates the least-privilege role the README recommends for
// database-mcp: LOGIN, CONNECT on the database, USAGE and SELECT on every
// schema with tables (and their future tables), no CREATE anywhere,
// default_transaction_read_only on. Run it after loading the data.
func (d *DB) ReadOnlyRole(tb testing.TB) Role {
	tb.Helper()
	r := Role{db: d, Name: d.Name + "_" + "reader" + randomHex(2), Password: randomHex(12)}
	conn := d.Conn(tb)
	role := pgx.Identifier{r.Name}.Sanitize()
	mustExec(tb, conn, fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s'", role, r.Password))
	for _, s := range ReadOnlyGrants(d.Name, r.Name, d.schemas(tb, conn)) {
		mustExec(tb, conn, s)
	}
	return r
}

// schemas lists the database's user schemas.
func (d *DB) schemas(tb testing.TB, conn *pgx.Conn) []string {
	tb.Helper()
	rows, err := conn.Query(context.Background(),
		`SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\_%' AND nspname <> 'information_schema' ORDER BY 1`)
	if err != nil {
		tb.Fatalf("pgtest: list schemas: %v", err)
	}
	s, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		tb.Fatalf("pgtest: list schemas: %v", err)
	}
	return s
}

// ReadOnlyGrants are the statements that make role a least-privilege
// reader of database db's schemas (the README shows the same SQL).
func ReadOnlyGrants(db, role string, schemas []string) []string {
	r, d := pgx.Identifier{role}.Sanitize(), pgx.Identifier{db}.Sanitize()
	out := []string{
		fmt.Sprintf("REVOKE ALL ON DATABASE %s FROM PUBLIC", d),
		fmt.Sprintf("GRANT CONNECT ON DATABASE %s TO %s", d, r),
		fmt.Sprintf("ALTER ROLE %s SET default_transaction_read_only = on", r),
		fmt.Sprintf("ALTER ROLE %s SET statement_timeout = '30s'", r),
	}
	for _, s := range schemas {
		q := pgx.Identifier{s}.Sanitize()
		out = append(out,
			fmt.Sprintf("REVOKE CREATE ON SCHEMA %s FROM PUBLIC", q),
			fmt.Sprintf("GRANT USAGE ON SCHEMA %s TO %s", q, r),
			fmt.Sprintf("GRANT SELECT ON ALL TABLES IN SCHEMA %s TO %s", q, r),
			fmt.Sprintf("ALTER DEFAULT PRIVILEGES IN SCHEMA %s GRANT SELECT ON TABLES TO %s", q, r))
	}
	return out
}

// Sessions counts the server sessions on the database other than the
// caller's own (pg_stat_activity), by application_name when app is set.
func (d *DB) Sessions(tb testing.TB, app string) int {
	tb.Helper()
	conn := d.Cluster.Admin(tb)
	var n int
	q := "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()"
	args := []any{d.Name}
	if app != "" {
		q += " AND application_name = $2"
		args = append(args, app)
	}
	if err := conn.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		tb.Fatalf("pgtest: count sessions: %v", err)
	}
	return n
}

// LogTail returns the last n lines of the server log, for failure messages.
func (c *Cluster) LogTail(n int) string {
	b, _ := os.ReadFile(filepath.Join(c.Dir, "server.log"))
	return lastLines(bytes.TrimSpace(b), n)
}
