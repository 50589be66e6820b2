package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"talk2tables/catalog"
	"talk2tables/catalog/draft"
	"talk2tables/config"
	"talk2tables/databasemcp"
	"talk2tables/metadatamcp"
	"talk2tables/mysqlconfig"
	"talk2tables/orchestrator"
	"talk2tables/pgconfig"
)

// Your database in one command: `serve --db FILE` (or --dsn URL) and
// `mcp --db FILE` start everything for one database with no YAML —
// database-mcp over it and metadata-mcp over a catalog drafted on the first
// start (both in-process), the verified questions' state database, and the
// offline planner unless an LLM key is in the environment. The catalog and
// the state live in a directory of their own per database (--state-dir,
// default under the user's configuration directory).

// Server ids of the one-database configuration.
const (
	oneDBExecutor = "database_mcp"
	oneDBCatalog  = "metadata_mcp"
)

// oneDBFlags are serve's and mcp's --db, --dsn, --password-env and
// --state-dir.
type oneDBFlags struct{ db, dsn, passwordEnv, stateDir *string }

func addOneDBFlags(fs *flag.FlagSet) oneDBFlags {
	return oneDBFlags{
		db: fs.String("db", "", "answer questions about this database with no configuration file: a SQLite file, or CSV, TSV, "+
			"JSON Lines or Parquet files (a file or a directory of them); a catalog is drafted on the first start"),
		dsn: fs.String("dsn", "", "the same for a PostgreSQL (postgres://user@host:5432/dbname) or MySQL/MariaDB (mysql://user@host:3306/dbname) "+
			"database; the password from PGPASSWORD, ~/.pgpass, "+mysqlconfig.EnvPassword+" or --password-env"),
		passwordEnv: fs.String("password-env", "", "name of the environment variable holding the --dsn password"),
		stateDir: fs.String("state-dir", "", "where --db/--dsn keep the drafted catalog and the verified questions "+
			"(default: a directory per database under the user's configuration directory)"),
	}
}

// given reports whether a database was named.
func (f oneDBFlags) given() bool { return *f.db != "" || *f.dsn != "" }

// check refuses what cannot go together.
func (f oneDBFlags) check(fs *flag.FlagSet) error {
	explicit := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { explicit[fl.Name] = true })
	switch {
	case *f.db != "" && *f.dsn != "":
		return errors.New("give --db (a file) or --dsn (PostgreSQL, MySQL), not both")
	case f.given() && explicit["config"]:
		return errors.New("give --config (a configuration file) or --db/--dsn (one database, no file), not both; " +
			"to use a file, name the database in its mcp_servers")
	case *f.passwordEnv != "" && *f.dsn == "":
		return errors.New("--password-env applies to --dsn only")
	case *f.stateDir != "" && !f.given():
		return errors.New("--state-dir applies to --db and --dsn only; with --config, set state.path")
	}
	return nil
}

// oneDB is what serve --db or mcp --db started for one database.
type oneDB struct {
	cfg         *config.Config
	opts        []orchestrator.Option
	db          *servedDB
	catalogPath string
	label       string // the database for people (never a password)
	again       string // the flags naming it (for catalog validate)
	cancel      context.CancelFunc
	wg          sync.WaitGroup
}

// Close stops the watchers and closes the database.
func (d *oneDB) Close() {
	d.cancel()
	d.wg.Wait()
	d.db.Close()
}

// startOneDB opens the database and its catalog (drafted when missing),
// serves both in-process and returns the configuration that uses them.
// What it did and where things are is written to w.
func startOneDB(ctx context.Context, f oneDBFlags, level, format string, logger *slog.Logger, w io.Writer) (*oneDB, error) {
	dir, name, label, again, err := oneDBPlace(f)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("--state-dir %s: %w", dir, err)
	}
	d := &oneDB{label: label, again: again, catalogPath: filepath.Join(dir, "catalog.json")}
	dbLog := logger.With("mcp_server", databasemcp.ServerName)
	d.db, err = openServed(ctx, dbLog, *f.db, *f.dsn, *f.passwordEnv, databasemcp.DefaultPostgresConns,
		databasemcp.DefaultConnections(), databasemcp.Options{})
	if err != nil {
		return nil, err
	}
	wctx, cancel := context.WithCancel(context.Background())
	d.cancel = cancel
	drafted, took, err := ensureCatalog(ctx, d.db, d.catalogPath, name)
	if err != nil {
		d.Close()
		return nil, err
	}
	meta, err := metadatamcp.New(d.catalogPath, logger.With("mcp_server", "metadata"))
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("catalog %s: %w (fix it, or delete it to draft a new one)", d.catalogPath, err)
	}
	dbSrv := databasemcp.NewServer(d.db.servedBackend, logger)
	d.db.watch(wctx, &d.wg, dbSrv, dbLog)
	d.wg.Go(func() {
		if err := meta.Watch(wctx); err != nil {
			logger.Warn("catalog reloads disabled", "event", "catalog_watch_failed", "error", err.Error())
		}
	})

	cfg := config.DefaultConfig()
	cfg.MCPServers = map[string]config.ServerConfig{
		oneDBExecutor: {Name: "Database MCP Server (" + name + ")", Transport: config.TransportInProcess, Priority: 10,
			Domains: []string{"data"}, Capabilities: []string{config.CapExecuteQuery, config.CapValidateQuery, config.CapListResources}},
		oneDBCatalog: {Name: "Catalog MCP Server", Transport: config.TransportInProcess, Priority: 1,
			Domains: []string{"semantic_model", "entities"}, Capabilities: []string{config.CapListResources}},
	}
	cfg.LLM = oneDBLLM(cfg.LLM)
	cfg.State.Path = filepath.Join(dir, "state.db")
	if level != "" {
		cfg.Orchestration.LogLevel = level
	}
	if format != "" {
		cfg.Orchestration.LogFormat = format
	}
	if err := cfg.Validate(); err != nil {
		d.Close()
		return nil, err
	}
	d.cfg = cfg
	d.opts = []orchestrator.Option{orchestrator.WithInProcessServer(oneDBExecutor, dbSrv),
		orchestrator.WithInProcessServer(oneDBCatalog, meta.MCPServer())}
	d.describe(w, meta.Catalog(), drafted, took, dir)
	return d, nil
}

// oneDBLLM is the LLM settings of one-database mode: OpenAI or Anthropic
// when its key is in the environment (the offline planner answers when it
// cannot be reached), else the offline planner.
func oneDBLLM(l config.LLMConfig) config.LLMConfig {
	switch {
	case os.Getenv("OPENAI_API_KEY") != "":
		l.Provider, l.Model, l.APIKeyEnv, l.Fallback = config.ProviderOpenAI, "gpt-4o-mini", "OPENAI_API_KEY", config.ProviderBuiltin
	case os.Getenv("ANTHROPIC_API_KEY") != "":
		l.Provider, l.Model, l.APIKeyEnv, l.Fallback = config.ProviderAnthropic, "claude-sonnet-4-5", "ANTHROPIC_API_KEY", config.ProviderBuiltin
	default:
		l.Provider = config.ProviderBuiltin
	}
	return l
}

// oneDBPlace returns where a database's catalog and state live (--state-dir,
// else <user config dir>/talk2tables/<name>-<hash of where it is>), its
// name, how to name it for people and the flags naming it again.
func oneDBPlace(f oneDBFlags) (dir, name, label, again string, err error) {
	var id string
	switch {
	case *f.db != "":
		abs, err := filepath.Abs(*f.db)
		if err != nil {
			return "", "", "", "", err
		}
		if _, err := os.Stat(abs); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return "", "", "", "", fmt.Errorf("--db %s does not exist; name a SQLite file, or CSV, TSV, JSON Lines or Parquet files "+
					"(a file or a directory of them)", *f.db)
			}
			return "", "", "", "", fmt.Errorf("--db %s: %w", *f.db, err)
		}
		id, label, again = abs, *f.db, "--db "+*f.db
		name = strings.TrimSuffix(filepath.Base(abs), filepath.Ext(abs))
	case mysqlconfig.Is(*f.dsn):
		cfg, err := mysqlconfig.Parse(*f.dsn, *f.passwordEnv)
		if err != nil {
			return "", "", "", "", fmt.Errorf("--dsn: %w", err)
		}
		t := mysqlconfig.TargetOf(cfg)
		id, label, again, name = t.URL(), t.String(), "--dsn "+t.URL(), t.Database
	default:
		cfg, err := pgconfig.Parse(*f.dsn, *f.passwordEnv)
		if err != nil {
			return "", "", "", "", fmt.Errorf("--dsn: %w", err)
		}
		t := pgconfig.TargetOf(cfg)
		id, label, again, name = t.URL(), t.String(), "--dsn "+t.URL(), t.Database
	}
	if *f.passwordEnv != "" {
		again += " --password-env " + *f.passwordEnv
	}
	if *f.stateDir != "" {
		return *f.stateDir, name, label, again, nil
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", "", "", "", fmt.Errorf("no configuration directory to keep the catalog and verified questions in (%v): name one with --state-dir", err)
	}
	sum := sha256.Sum256([]byte(id))
	return filepath.Join(base, "talk2tables", safeName(name)+"-"+hex.EncodeToString(sum[:4])), name, label, again, nil
}

// safeName keeps letters, digits, '-' and '_' of a name for a directory.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "database"
	}
	return b.String()
}

// ensureCatalog drafts the catalog at path from db unless it exists.
func ensureCatalog(ctx context.Context, db draft.Source, path, name string) (drafted bool, took time.Duration, err error) {
	if _, err := os.Stat(path); err == nil {
		return false, 0, nil
	}
	start := time.Now()
	s, err := draft.Draft(ctx, db, draft.Options{Database: name})
	if err != nil {
		return false, 0, fmt.Errorf("draft a catalog for the database: %w", err)
	}
	if err := writeCatalog(path, s); err != nil {
		return false, 0, err
	}
	return true, time.Since(start), nil
}

// describe says what one-database mode runs and where its files are.
func (d *oneDB) describe(w io.Writer, s *catalog.Semantic, drafted bool, took time.Duration, dir string) {
	fmt.Fprintf(w, "talk2tables: answering questions about %s (%s)\n", d.label, d.db.Dialect())
	how := "kept from an earlier start; delete it to draft a new one"
	if drafted {
		how = fmt.Sprintf("drafted now in %s", took.Round(time.Millisecond))
	}
	if s != nil {
		cols := 0
		for _, t := range s.Tables {
			cols += len(t.Columns)
		}
		how += fmt.Sprintf(": %d tables, %d columns, %d entity sets", len(s.Tables), cols, len(s.Entities))
	}
	fmt.Fprintf(w, "  catalog:  %s (%s)\n", d.catalogPath, how)
	fmt.Fprintf(w, "            edit it to teach business words and names (reloaded on save; see docs/verified-questions.md), check it with\n")
	fmt.Fprintf(w, "            talk2tables catalog validate --catalog %s %s\n", d.catalogPath, d.again)
	fmt.Fprintf(w, "  verified: %s (questions analysts verified)\n", d.cfg.State.Path)
	if d.cfg.LLM.Provider == config.ProviderBuiltin {
		fmt.Fprintf(w, "  answers:  the offline planner (export OPENAI_API_KEY or ANTHROPIC_API_KEY before starting for an LLM)\n")
	} else {
		fmt.Fprintf(w, "  answers:  %s %s (the offline planner when it cannot be reached)\n", d.cfg.LLM.Provider, d.cfg.LLM.Model)
	}
	fmt.Fprintf(w, "  files:    %s\n", dir)
}
