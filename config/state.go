package config

import (
	"path/filepath"
	"strings"
	"time"
)

// DefaultStateFile is the name of the state database LoadConfig puts beside
// the configuration file when the state section names none.
const DefaultStateFile = "talk2tables-state.db"

// StateConfig is talk2tables' own small database, where the verified
// questions live: an SQLite file (Path) by default, or a PostgreSQL
// database (DSN) that several serve replicas share. It is never the user's
// data database.
type StateConfig struct {
	// Path is the SQLite file; relative paths are read from the
	// configuration file's directory. Default: talk2tables-state.db beside
	// the configuration file.
	Path string `yaml:"path"`
	// DSN is a PostgreSQL URL or keyword string; its password, when it has
	// none, comes from PasswordEnv, PGPASSWORD or ~/.pgpass.
	DSN         string `yaml:"dsn"`
	PasswordEnv string `yaml:"password_env"`
	// Refresh is how long a replica may go without looking for entries
	// another replica added or changed (a one-row read); 0 looks before
	// every question. Default 2s.
	Refresh *time.Duration `yaml:"refresh"`
	// Disabled turns verified questions off (no state database).
	Disabled bool `yaml:"disabled"`
}

// DefaultStateRefresh is StateConfig.Refresh when it is not set.
const DefaultStateRefresh = 2 * time.Second

// RefreshInterval is Refresh, or its default.
func (s StateConfig) RefreshInterval() time.Duration {
	if s.Refresh == nil {
		return DefaultStateRefresh
	}
	return *s.Refresh
}

// Configured reports whether a state database is named.
func (s StateConfig) Configured() bool { return !s.Disabled && (s.Path != "" || s.DSN != "") }

// resolve applies the default path and reads a relative path from dir,
// the configuration file's directory.
func (s *StateConfig) resolve(dir string) {
	if s.Disabled || s.DSN != "" {
		return
	}
	if s.Path == "" {
		s.Path = DefaultStateFile
	}
	if !filepath.IsAbs(s.Path) {
		s.Path = filepath.Join(dir, s.Path)
	}
}

// validate checks the state section.
func (s StateConfig) validate(add func(format string, args ...any)) {
	if s.Path != "" && s.DSN != "" {
		add("state: give path (an SQLite file) or dsn (PostgreSQL), not both")
	}
	if s.PasswordEnv != "" && s.DSN == "" {
		add("state.password_env: applies to state.dsn only")
	}
	if s.DSN != "" && strings.HasPrefix(strings.ToLower(s.DSN), "mysql") {
		add("state.dsn: the state database is an SQLite file (state.path) or PostgreSQL (postgres://...)")
	}
	if s.Refresh != nil && *s.Refresh < 0 {
		add("state.refresh: must be 0 or a positive duration such as 2s")
	}
}
