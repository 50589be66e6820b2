package evaluation

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/config"
	"talk2tables/databasemcp"
	"talk2tables/internal/fixtures"
	"talk2tables/mcpserve"
	"talk2tables/metadatamcp"
	"talk2tables/orchestrator"
)

// Transports the servers of an Env are reached over.
const (
	InProcess      = "inprocess"       // mcp-go in-process clients
	StreamableHTTP = "streamable_http" // real HTTP servers on 127.0.0.1:0
)

// Server ids in the orchestrator's configuration, as in mcp_config.yaml.
const (
	databaseID = "database_mcp"
	metadataID = "product_metadata_mcp"
)

// maxRows bounds every result: far above any gold result, so a truncated
// answer shows up as a row-count difference.
const maxRows = 10000

// Env is one fixture database served by the real MCP servers — database-mcp
// with today pinned to the fixture's as-of date and, when a catalog is
// given, metadata-mcp over it — behind an orchestrator with the built-in
// generator.
type Env struct {
	orch *orchestrator.Orchestrator
	db   databasemcp.Backend
	stop []func()
}

// EnvOptions configures Start.
type EnvOptions struct {
	DBPath      string
	CatalogPath string    // "" runs without metadata-mcp (gold checks only)
	Today       time.Time // the fixture's as-of date
	Transport   string    // InProcess (default) or StreamableHTTP
	Logger      *slog.Logger
	// Postgres, when set, serves this PostgreSQL database (database-mcp's
	// --dsn backend) instead of the SQLite file at DBPath.
	Postgres *pgx.ConnConfig
	// MySQL, when set, serves this MySQL or MariaDB database instead.
	MySQL *mysql.Config
}

// Start opens the database, starts the servers and connects an orchestrator
// to them. Close stops everything it started.
func Start(ctx context.Context, opts EnvOptions) (_ *Env, err error) {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	e := &Env{}
	defer func() {
		if err != nil {
			e.Close()
		}
	}()
	dbOpts := databasemcp.Options{Today: opts.Today.Format(time.DateOnly), MaxRows: maxRows}
	if opts.Postgres != nil {
		pg, err := databasemcp.OpenPostgres(ctx, databasemcp.PostgresConfig{Conn: opts.Postgres}, dbOpts)
		if err != nil {
			return nil, err
		}
		e.db = pg
		e.stop = append(e.stop, func() { pg.Close() })
	} else if opts.MySQL != nil {
		my, err := databasemcp.OpenMySQL(ctx, databasemcp.MySQLConfig{Conn: opts.MySQL}, dbOpts)
		if err != nil {
			return nil, err
		}
		e.db = my
		e.stop = append(e.stop, func() { my.Close() })
	} else {
		lite, err := databasemcp.Open(ctx, opts.DBPath, dbOpts)
		if err != nil {
			return nil, err
		}
		e.db = lite
		e.stop = append(e.stop, func() { lite.Close() })
	}
	servers := map[string]*server.MCPServer{databaseID: databasemcp.NewServer(e.db, logger)}
	if opts.CatalogPath != "" {
		ms, err := metadatamcp.New(opts.CatalogPath, logger)
		if err != nil {
			return nil, err
		}
		servers[metadataID] = ms.MCPServer()
	}

	cfg := config.DefaultConfig()
	cfg.LLM.Provider = config.ProviderBuiltin
	cfg.Orchestration.PingInterval = 0
	cfg.HTTP.MaxRowsLimit = maxRows
	var inproc []orchestrator.Option
	for id, s := range servers {
		sc := config.ServerConfig{Name: id, Priority: 10,
			Capabilities: []string{config.CapListResources}}
		if id == databaseID {
			sc.Capabilities = append(sc.Capabilities, config.CapExecuteQuery, config.CapValidateQuery)
		} else {
			sc.Priority = 1 // the catalog wins names over the schema
		}
		switch opts.Transport {
		case "", InProcess:
			sc.Transport = config.TransportInProcess
			inproc = append(inproc, orchestrator.WithInProcessServer(id, s))
		case StreamableHTTP:
			url, stop, err := serveHTTP(s, logger)
			if err != nil {
				return nil, fmt.Errorf("serve %s over streamable HTTP: %w", id, err)
			}
			e.stop = append(e.stop, stop)
			sc.Transport, sc.URL = "streamable_http", url
		default:
			return nil, fmt.Errorf("unknown transport %q (want %s or %s)", opts.Transport, InProcess, StreamableHTTP)
		}
		cfg.MCPServers[id] = sc
	}
	e.orch, err = orchestrator.New(ctx, cfg, logger, inproc...)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// serveHTTP serves s over streamable HTTP on a free local port until stop.
func serveHTTP(s *server.MCPServer, logger *slog.Logger) (url string, stop func(), err error) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- mcpserve.Serve(ctx, s, mcpserve.Options{Transport: mcpserve.StreamableHTTP, Addr: "127.0.0.1:0",
			Logger: logger, Ready: func(a net.Addr) { ready <- a }})
	}()
	select {
	case a := <-ready:
		var once sync.Once
		return "http://" + a.String() + "/mcp", func() {
			once.Do(func() {
				cancel()
				<-done
			})
		}, nil
	case err := <-done:
		cancel()
		if err == nil {
			err = errors.New("server stopped before listening")
		}
		return "", nil, err
	}
}

// Close stops the orchestrator, the servers and the database.
func (e *Env) Close() {
	if e.orch != nil {
		e.orch.Close()
		e.orch = nil
	}
	for i := len(e.stop) - 1; i >= 0; i-- {
		e.stop[i]()
	}
	e.stop = nil
}

// Gold runs hand-written SQL through the executor (execute_query over MCP),
// so gold and answers come back the same way.
func (e *Env) Gold(ctx context.Context, sql string) (*Table, error) {
	d, err := e.orch.ExecuteSQL(ctx, sql, maxRows, "")
	if err != nil {
		return nil, err
	}
	if d.Truncated {
		return nil, fmt.Errorf("gold result truncated at %d rows", maxRows)
	}
	return &Table{Columns: d.Columns, Rows: d.Rows}, nil
}

// Ask answers a question with the orchestrator.
func (e *Env) Ask(ctx context.Context, question string) (*orchestrator.QueryResult, error) {
	return e.orch.Process(ctx, orchestrator.Query{Question: question, MaxRows: maxRows})
}

// FixtureEnv builds a fixture into dir and starts an Env over it with the
// given catalog file (may be "").
func FixtureEnv(ctx context.Context, name, dir, catalogPath, transport string, logger *slog.Logger) (*Env, string, error) {
	dbPath, err := fixtures.Build(ctx, name, dir)
	if err != nil {
		return nil, "", err
	}
	e, err := Start(ctx, EnvOptions{DBPath: dbPath, CatalogPath: catalogPath, Today: fixtures.AsOf(name),
		Transport: transport, Logger: logger})
	return e, dbPath, err
}
