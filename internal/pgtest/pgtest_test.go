package pgtest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

const envCrashChild = "PGTEST_CRASH_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(envCrashChild) != "" {
		crashChild()
		return
	}
	os.Exit(Main(m))
}

// crashChild starts a cluster, reports where, and dies of a panic without
// stopping it, as a test binary does on a test panic or -timeout.
func crashChild() {
	c, err := startCluster()
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	b, err := os.ReadFile(filepath.Join(c.Dir, "data", "postmaster.pid"))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	pid, _, _ := strings.Cut(string(b), "\n")
	fmt.Printf("cluster %s %s\n", c.Dir, pid)
	panic("test binary dies with its cluster running")
}

func TestDatabasesAreSeparateAndDropped(t *testing.T) {
	var first string
	t.Run("create", func(t *testing.T) {
		a, b := NewDB(t), NewDB(t)
		first = a.Name
		a.Exec(t, "CREATE TABLE t (x int)", "INSERT INTO t VALUES (1)")
		conn := b.Conn(t)
		var n int
		err := conn.QueryRow(context.Background(), "SELECT count(*) FROM pg_class WHERE relname = 't'").Scan(&n)
		if err != nil || n != 0 {
			t.Errorf("table of database a seen in database b: %d, %v", n, err)
		}
	})
	c := Start(t)
	var n int
	if err := c.Admin(t).QueryRow(context.Background(), "SELECT count(*) FROM pg_database WHERE datname = $1", first).Scan(&n); err != nil || n != 0 {
		t.Errorf("database %s still exists after its test: %d, %v", first, n, err)
	}
}

// TestReadOnlyRole: the README's least-privilege role reads every table and
// can change nothing, not even with its own transaction settings.
func TestReadOnlyRole(t *testing.T) {
	db := NewDB(t)
	db.Exec(t, "CREATE TABLE t (x int)", "INSERT INTO t VALUES (1), (2)")
	r := db.ReadOnlyRole(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, r.DSN())
	if err != nil {
		t.Fatalf("connect as %s: %v", r.Name, err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 2 {
		t.Fatalf("SELECT as the role = %d, %v; want 2", n, err)
	}
	for _, q := range []string{
		"INSERT INTO t VALUES (3)",
		"CREATE TABLE evil (x int)",
		"CREATE TEMP TABLE evil (x int)",
		"BEGIN READ WRITE; INSERT INTO t VALUES (3); COMMIT",
		"SET default_transaction_read_only = off; CREATE TABLE public.evil (x int)",
	} {
		if _, err := conn.Exec(ctx, q); err == nil {
			t.Errorf("%q as the read-only role succeeded", q)
		}
		conn.Exec(ctx, "ROLLBACK")
	}
	if err := db.Conn(t).QueryRow(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 2 {
		t.Errorf("rows after the role's attempts = %d, %v; want 2", n, err)
	}
	if got := db.Sessions(t, ""); got < 1 {
		t.Errorf("Sessions = %d, want at least the role's open session", got)
	}
}

// TestClusterDiesWithItsTestBinary re-runs this test binary as a child that
// starts a cluster and panics: the server must go away on its own, and the
// next start removes the directory left behind.
func TestClusterDiesWithItsTestBinary(t *testing.T) {
	Start(t) // skips when PostgreSQL is missing
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envCrashChild+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = nil
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var dir string
	var pid int
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && f[0] == "cluster" {
			dir = f[1]
			pid, _ = strconv.Atoi(f[2])
		} else if len(f) > 0 && f[0] == "error" {
			t.Fatalf("child: %s", sc.Text())
		}
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("child exited cleanly, want a panic")
	}
	if dir == "" || pid == 0 {
		t.Fatal("child did not report its cluster")
	}
	deadline := time.Now().Add(30 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("postgres %d still running 30 s after its test binary died", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The directory stays behind for the next start to sweep (another test
	// binary running meanwhile may have swept it already).
	removeStale()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("stale cluster directory %s not removed: %v", dir, err)
	}
}

func TestReadOnlyGrantsQuoteNames(t *testing.T) {
	got := strings.Join(ReadOnlyGrants("my db", `we"ird`, []string{"public", "Sales Data"}), "\n")
	for _, want := range []string{
		`GRANT CONNECT ON DATABASE "my db" TO "we""ird"`,
		`GRANT SELECT ON ALL TABLES IN SCHEMA "Sales Data" TO "we""ird"`,
		`ALTER ROLE "we""ird" SET default_transaction_read_only = on`,
		`REVOKE CREATE ON SCHEMA "public" FROM PUBLIC`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("ReadOnlyGrants lacks %q:\n%s", want, got)
		}
	}
}
