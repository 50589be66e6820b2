package evaluation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
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
	"talk2tables/orchestrator/verified"
	apiserver "talk2tables/server"
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
// generator and, in front of it, the real HTTP API (server.New), which
// questions are asked through as a client asks them.
type Env struct {
	orch *orchestrator.Orchestrator
	api  http.Handler
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
	// Verified, when set, are the verified questions the orchestrator
	// recalls before its generator.
	Verified *verified.Book
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
	if err := e.openDB(ctx, opts); err != nil {
		return nil, err
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
	inproc, err := e.addServers(cfg, servers, opts.Transport, logger)
	if err != nil {
		return nil, err
	}
	if opts.Verified != nil {
		inproc = append(inproc, orchestrator.WithVerified(opts.Verified))
	}
	e.orch, err = orchestrator.New(ctx, cfg, logger, inproc...)
	if err != nil {
		return nil, err
	}
	// The API as served, but without the limits meant for strangers: the
	// harness asks hundreds of questions a second, from one client, with
	// no API key.
	cfg.HTTP.RateLimit, cfg.HTTP.APIKeysEnv = 0, ""
	e.api = apiserver.New(e.orch, cfg.HTTP, nil, logger, nil)
	return e, nil
}

// openDB opens the database opts names (PostgreSQL, MySQL or the SQLite
// file) read-only as the one database-mcp serves.
func (e *Env) openDB(ctx context.Context, opts EnvOptions) error {
	dbOpts := databasemcp.Options{Today: opts.Today.Format(time.DateOnly), MaxRows: maxRows}
	if opts.Postgres != nil {
		pg, err := databasemcp.OpenPostgres(ctx, databasemcp.PostgresConfig{Conn: opts.Postgres}, dbOpts)
		if err != nil {
			return err
		}
		e.db = pg
		e.stop = append(e.stop, func() { pg.Close() })
	} else if opts.MySQL != nil {
		my, err := databasemcp.OpenMySQL(ctx, databasemcp.MySQLConfig{Conn: opts.MySQL}, dbOpts)
		if err != nil {
			return err
		}
		e.db = my
		e.stop = append(e.stop, func() { my.Close() })
	} else {
		lite, err := databasemcp.Open(ctx, opts.DBPath, dbOpts)
		if err != nil {
			return err
		}
		e.db = lite
		e.stop = append(e.stop, func() { lite.Close() })
	}
	return nil
}

// addServers puts each server in cfg, reached over transport: in process
// (the options returned connect them) or streamable HTTP on a local port.
func (e *Env) addServers(cfg *config.Config, servers map[string]*server.MCPServer, transport string,
	logger *slog.Logger) ([]orchestrator.Option, error) {
	var inproc []orchestrator.Option
	for id, s := range servers {
		sc := config.ServerConfig{Name: id, Priority: 10,
			Capabilities: []string{config.CapListResources}}
		if id == databaseID {
			sc.Capabilities = append(sc.Capabilities, config.CapExecuteQuery, config.CapValidateQuery)
		} else {
			sc.Priority = 1 // the catalog wins names over the schema
		}
		switch transport {
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
			return nil, fmt.Errorf("unknown transport %q (want %s or %s)", transport, InProcess, StreamableHTTP)
		}
		cfg.MCPServers[id] = sc
	}
	return inproc, nil
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

// HTTPError is an answer other than 200 from the API: its status and the
// error object of its body.
type HTTPError struct {
	Status  int
	Code    string // "question_declined", "internal_error", …
	Message string
	Hint    string
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("HTTP %d %s: %s", e.Status, e.Code, e.Message)
}

// Declined reports whether the planner refused the question.
func (e *HTTPError) Declined() bool { return e.Code == "question_declined" }

// Ask answers a question as a client of the API gets it: POST /api/query
// on the real handler, in memory. A status other than 200 is an
// *HTTPError, with the body's result (the SQL tried) when it has one.
func (e *Env) Ask(ctx context.Context, question string) (*orchestrator.QueryResult, error) {
	body, err := json.Marshal(map[string]any{"question": question, "max_rows": maxRows})
	if err != nil {
		return nil, err
	}
	return e.post(ctx, body)
}

// post sends a raw /api/query body and decodes the answer.
func (e *Env) post(ctx context.Context, body []byte) (*orchestrator.QueryResult, error) {
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/api/query", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	e.api.ServeHTTP(rec, req)
	if rec.Code == http.StatusOK {
		var res orchestrator.QueryResult
		if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
			return nil, fmt.Errorf("HTTP 200 with a body that is not a result: %w", err)
		}
		return &res, nil
	}
	var eb struct {
		Error struct {
			Code, Message, Hint string
		} `json:"error"`
		Result *orchestrator.QueryResult `json:"result"`
	}
	he := &HTTPError{Status: rec.Code}
	if err := json.Unmarshal(rec.Body.Bytes(), &eb); err == nil {
		he.Code, he.Message, he.Hint = eb.Error.Code, eb.Error.Message, eb.Error.Hint
	} else {
		he.Message = fmt.Sprintf("(a body that is not an error object: %.200q)", rec.Body.String())
	}
	return eb.Result, he
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
