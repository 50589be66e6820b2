// Package state is talk2tables' own small database: the verified questions
// analysts taught it (question, SQL, the slots found in them, who verified
// them and when, how often they were used, whether they still hold). It is
// an embedded SQLite file by default, or a PostgreSQL database that several
// serve replicas share. It is never the user's data database, which stays
// read-only.
//
// The schema is versioned: each migration runs once, in a transaction,
// recorded in state_schema_version; a database migrated by a newer
// talk2tables is refused rather than misread. Every write that changes what
// questions match bumps one revision counter in the same transaction, so a
// replica learns with a one-row read whether another replica changed
// anything.
package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"talk2tables/config"
	"talk2tables/pgconfig"
)

// Engines of a state database.
const (
	EngineSQLite   = "sqlite"
	EnginePostgres = "postgres"
)

// Statuses of an entry.
const (
	StatusVerified = "verified" // checked against the current schema (or not yet re-checked): used
	StatusStale    = "stale"    // no longer validates against the schema: not used, shown as such
)

// Store is an open state database. It is safe for concurrent use.
type Store struct {
	db     *sql.DB
	engine string
	where  string // the file, or the PostgreSQL target without password
	log    *slog.Logger
}

// Open opens (creating when needed) the state database cfg names and
// brings its schema up to date.
func Open(ctx context.Context, cfg config.StateConfig, logger *slog.Logger) (*Store, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var s *Store
	var err error
	switch {
	case cfg.DSN != "":
		s, err = openPostgres(ctx, cfg)
	case cfg.Path != "":
		s, err = openSQLite(ctx, cfg.Path)
	default:
		return nil, errors.New("state: no database named: set state.path (an SQLite file) or state.dsn (PostgreSQL)")
	}
	if err != nil {
		return nil, err
	}
	s.log = logger
	if err := s.migrate(ctx); err != nil {
		s.db.Close()
		return nil, err
	}
	return s, nil
}

func openSQLite(ctx context.Context, path string) (*Store, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("state.path %s is a directory; name the state database file, e.g. %s",
			path, filepath.Join(path, config.DefaultStateFile))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("state.path %s: create its directory: %w", path, err)
	}
	// WAL lets readers go on while one writer writes; immediate
	// transactions take the write lock at BEGIN, so two processes never
	// both read-then-write (migrations, imports); busy_timeout waits for
	// the other writer instead of failing at once.
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("state.path %s: %w", path, err)
	}
	if err := pingSQLite(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("state.path %s: %w", path, err)
	}
	return &Store{db: db, engine: EngineSQLite, where: path}, nil
}

// pingSQLite opens the first connection. Setting WAL on a new file needs
// the file to itself, and SQLite fails that at once with SQLITE_BUSY
// (its busy timeout does not apply) while another process opens the same
// file (replicas starting together): try again for up to ten seconds.
func pingSQLite(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := db.PingContext(ctx)
		if err == nil || !strings.Contains(err.Error(), "SQLITE_BUSY") || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func openPostgres(ctx context.Context, cfg config.StateConfig) (*Store, error) {
	cc, err := pgconfig.Parse(cfg.DSN, cfg.PasswordEnv)
	if err != nil {
		return nil, fmt.Errorf("state.dsn: %w", err)
	}
	t := pgconfig.TargetOf(cc)
	db := stdlib.OpenDB(*cc)
	db.SetMaxOpenConns(4)
	db.SetConnMaxIdleTime(5 * time.Minute)
	pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("state.dsn: %w", pgconfig.ConnectError(t, err))
	}
	return &Store{db: db, engine: EnginePostgres, where: t.String()}, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Engine is EngineSQLite or EnginePostgres.
func (s *Store) Engine() string { return s.engine }

// Where names the database for people: the file, or the PostgreSQL target
// (never a password).
func (s *Store) Where() string { return s.where }

// rebind turns the ? placeholders of q into PostgreSQL's $n. The queries of
// this package hold no ? anywhere else.
func (s *Store) rebind(q string) string {
	if s.engine != EnginePostgres {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// timeFormat is how times are stored: UTC, fixed width, so text order is
// time order.
const timeFormat = "2006-01-02T15:04:05.000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func parseTime(s string) (time.Time, error) { return time.Parse(timeFormat, s) }
