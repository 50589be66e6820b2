package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"talk2tables/catalog"
	"talk2tables/config"
	"talk2tables/databasemcp"
	"talk2tables/datagen"
	"talk2tables/mcpserve"
	"talk2tables/metadatamcp"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/server"
)

// Environment of the load tool re-executed as database-mcp over stdio (the
// topology of the default mcp_config.yaml: serve with a stdio child).
const (
	envChildDB          = "TALK2TABLES_LOAD_CHILD_DB"
	envChildConnections = "TALK2TABLES_LOAD_CHILD_CONNECTIONS"
	keyEnv              = "TALK2TABLES_LOAD_LLM_KEY"
)

// serveChild serves the database in $envChildDB over stdio, as
// `talk2tables database-mcp --db FILE` does.
func serveChild(path string) error {
	databasemcp.InstallAllocator(nil) // as database-mcp does, before opening
	conns, _ := strconv.Atoi(os.Getenv(envChildConnections))
	db, err := databasemcp.Open(context.Background(), path, databasemcp.Options{Connections: conns})
	if err != nil {
		return err
	}
	defer db.Close()
	return mcpserve.Serve(context.Background(), databasemcp.NewServer(db, nil),
		mcpserve.Options{Transport: mcpserve.Stdio, Stdin: os.Stdin, Stdout: os.Stdout})
}

// stack is the running service under test.
type stack struct {
	base   string
	dbPath string
	gen    sqlgen.Generator
	orch   *orchestrator.Orchestrator
	stop   func()
}

// stackOptions tune startStack.
type stackOptions struct {
	transport string // stdio | inprocess
	cache     bool   // result cache on
	allocator string // the stdio child's SQLite allocator ("" inherits this process's)
}

// startStack builds the database (or uses -db), the MCP servers, the LLM
// responder, the orchestrator and the HTTP server on a loopback port with
// rate limiting off.
func startStack(ctx context.Context, o options, so stackOptions) (*stack, error) {
	var cleanups []func()
	st := &stack{stop: func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}}
	fail := func(err error) (*stack, error) { st.stop(); return nil, err }

	logger, err := stackLogger(o.logLevel)
	if err != nil {
		return fail(err)
	}
	st.dbPath = o.dbPath
	meta, err := metadatamcp.New(o.catalogPath, logger)
	if err != nil {
		return fail(err)
	}
	llmURL, stopLLM, err := startResponder()
	if err != nil {
		return fail(err)
	}
	cleanups = append(cleanups, stopLLM)
	os.Setenv(keyEnv, "load-test")

	cfg := config.DefaultConfig()
	opts := []orchestrator.Option{orchestrator.WithInProcessServer("product_metadata_mcp", meta.MCPServer())}
	dbCfg, dbOpt, closeDB, err := databaseServer(o, so, st.dbPath, logger)
	if err != nil {
		return fail(err)
	}
	if dbOpt != nil {
		opts = append(opts, dbOpt)
		cleanups = append(cleanups, closeDB)
	}
	cfg.MCPServers = map[string]config.ServerConfig{
		"database_mcp": dbCfg,
		"product_metadata_mcp": {Name: "Product Metadata MCP", Transport: config.TransportInProcess, Priority: 1,
			Domains:      []string{"products", "customers", "orders", "sales", "entities", "semantic_model"},
			Capabilities: []string{config.CapListResources}},
	}
	cfg.LLM = config.LLMConfig{Provider: config.ProviderOpenAI, Model: "load", BaseURL: llmURL,
		APIKeyEnv: keyEnv, Timeout: 10 * time.Second, MaxTokens: 512}
	cfg.Orchestration.PingInterval = 0
	cfg.Orchestration.LogLevel = o.logLevel
	cfg.HTTP.RateLimit = 0
	cfg.HTTP.MaxRowsLimit = 100000
	configureCache(cfg, so.cache)
	if err := cfg.Validate(); err != nil {
		return fail(err)
	}

	gen, err := orchestrator.NewGenerator(cfg.LLMSettings(), logger)
	if err != nil {
		return fail(err)
	}
	st.gen = gen
	reg := prometheus.NewRegistry()
	opts = append(opts, orchestrator.WithGenerator(gen), orchestrator.WithMetrics(orchestrator.NewMetrics(reg)),
		orchestrator.WithChildStderr(os.Stderr))
	orch, err := orchestrator.New(ctx, cfg, logger, opts...)
	if err != nil {
		return fail(fmt.Errorf("start orchestrator: %w", err))
	}
	st.orch = orch
	cleanups = append(cleanups, func() { orch.Close() })

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fail(err)
	}
	srv := &http.Server{Handler: server.New(orch, cfg.HTTP, nil, logger, reg), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	cleanups = append(cleanups, func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	})
	st.base = "http://" + ln.Addr().String()
	return st, nil
}

// databaseServer configures database-mcp over the sample at path: a stdio
// child (this program re-executed) or an in-process server, whose option
// and closer it returns too.
func databaseServer(o options, so stackOptions, path string, logger *slog.Logger) (config.ServerConfig, orchestrator.Option, func(), error) {
	cfg := config.ServerConfig{Name: "Database MCP Server", Priority: 10,
		Domains:      []string{"sales", "transactions", "orders", "products", "customers"},
		Capabilities: []string{config.CapExecuteQuery, config.CapValidateQuery, config.CapListResources}}
	switch so.transport {
	case "stdio":
		self, err := os.Executable()
		if err != nil {
			return cfg, nil, nil, err
		}
		cfg.Transport = config.TransportStdio
		cfg.Command = self
		cfg.Env = map[string]string{envChildDB: path, envChildConnections: strconv.Itoa(o.connections)}
		// The child gets this process's choice of SQLite allocator, so
		// TALK2TABLES_SQLITE_ALLOCATOR=libc compares both transports alike.
		if v, ok := os.LookupEnv(databasemcp.AllocatorEnv); ok {
			cfg.Env[databasemcp.AllocatorEnv] = v
		}
		if so.allocator != "" {
			cfg.Env[databasemcp.AllocatorEnv] = so.allocator
		}
		for _, k := range []string{envProfileDir, envProfileFor} { // serve passes only its own list on
			if v, ok := os.LookupEnv(k); ok {
				cfg.Env[k] = v
			}
		}
		return cfg, nil, nil, nil
	case "inprocess":
		db, err := databasemcp.Open(context.Background(), path, databasemcp.Options{Connections: o.connections})
		if err != nil {
			return cfg, nil, nil, err
		}
		cfg.Transport = config.TransportInProcess
		return cfg, orchestrator.WithInProcessServer("database_mcp", databasemcp.NewServer(db, logger)), func() { db.Close() }, nil
	}
	return cfg, nil, nil, fmt.Errorf("-transport %q: want stdio or inprocess", so.transport)
}

// generateDB writes the sample database with o.rows sales rows into a
// temporary directory and returns its path and a function removing it.
func generateDB(ctx context.Context, o options) (string, func(), error) {
	cat, err := catalog.Load(o.catalogPath)
	if err != nil {
		return "", nil, fmt.Errorf("%w (run from the repository root or pass -catalog)", err)
	}
	dir, err := os.MkdirTemp("", "talk2tables-load-")
	if err != nil {
		return "", nil, err
	}
	path := filepath.Join(dir, "sales.db")
	fmt.Fprintf(os.Stderr, "load: generating %d sales rows in %s\n", o.rows, path)
	if _, err := datagen.Generate(ctx, datagen.Options{Path: path, Catalog: cat, Seed: 1, AsOf: time.Now().UTC(), Rows: o.rows}); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("generate database: %w", err)
	}
	return path, func() { os.RemoveAll(dir) }, nil
}

func stackLogger(level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("-log-level: %w", err)
	}
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: l})), nil
}

// startResponder serves a zero-latency OpenAI-compatible chat-completions
// endpoint playing the analyst's model: it answers each question of the mix
// with that item's SQL. (internal/llmtest needs a testing.TB and records
// every request, which a long load run cannot afford.)
func startResponder() (string, func(), error) {
	answers := make([][]byte, len(mix))
	for i := range mix {
		plan, err := json.Marshal(map[string]any{
			"sql":               sqlFor(i, 0),
			"resolved_entities": map[string]map[string]string{},
			"explanation":       "The answer, as the scripted model wrote it.",
			"confidence":        0.9,
		})
		if err != nil {
			return "", nil, err
		}
		answers[i], err = json.Marshal(map[string]any{
			"id": "chatcmpl-load", "object": "chat.completion", "created": time.Now().Unix(), "model": "load",
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": string(plan)}}},
			"usage": map[string]int{"prompt_tokens": 1500, "completion_tokens": 80, "total_tokens": 1580},
		})
		if err != nil {
			return "", nil, err
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		answer := answers[0]
		for i, it := range mix {
			if strings.Contains(string(body), it.question) {
				answer = answers[i]
				break
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/v1", func() { srv.Close() }, nil
}
