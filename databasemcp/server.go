package databasemcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"talk2tables/resultlimit"
	"talk2tables/schema"
	"talk2tables/sqlerr"
	"talk2tables/sqlscan"
	"talk2tables/telemetry"
)

// ServerName is the MCP server name.
const ServerName = "talk2tables-database"

// Version is reported to MCP clients.
const Version = "0.1.0"

// SchemaURI is the URI of the schema resource.
const SchemaURI = "database://schema"

// Backend is a read-only database the server serves: SQLite (*DB),
// PostgreSQL (*Postgres) or MySQL/MariaDB (*MySQL). All give the same contracts: Query and Validate
// return *sqlerr.Error for SQL failures, Schema the database://schema JSON.
type Backend interface {
	Query(ctx context.Context, query string, maxRows int) (*schema.Result, error)
	Validate(ctx context.Context, query string) error
	Schema(ctx context.Context) (*schema.Schema, error)
	// Options are the effective limits (defaults applied).
	Options() Options
	// Dialect is "sqlite", "postgres" or "mysql" (sqlscan.Dialect's names).
	Dialect() string
}

var (
	_ Backend = (*DB)(nil)
	_ Backend = (*Postgres)(nil)
)

// Dialect is "sqlite".
func (db *DB) Dialect() string { return "sqlite" }

// engineName is the dialect as prose.
func engineName(dialect string) string {
	d, err := sqlscan.ParseDialect(dialect)
	if err != nil {
		return "SQL"
	}
	return d.Engine()
}

// NewServer returns the MCP server over db with the tools execute_query and
// validate_query and the resource database://schema. A nil logger discards.
func NewServer(db Backend, logger *slog.Logger) *server.MCPServer {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	h := &handlers{db: db, logger: logger.With("mcp_server", ServerName)}
	engine := engineName(db.Dialect())
	opts := db.Options()
	srvOpts := append([]server.ServerOption{
		server.WithToolCapabilities(false),
		// Subscribe: database://schema is reported updated when the file's
		// content changes (NotifyDataChanges).
		server.WithResourceCapabilities(true, false),
		server.WithRecovery(),
		// logging/setLevel is answered (MCP clients and the conformance suite expect it).
		server.WithLogging(),
		server.WithInstructions("Read-only SQL over a " + engine + " database. Read database://schema first " +
			"(tables, columns, foreign keys, indexes, row counts, low-cardinality values, today's date), " +
			"check a statement with validate_query, run it with execute_query. Only one SELECT / WITH ... SELECT / EXPLAIN statement per call."),
	}, telemetry.MCPServerOptions()...)
	s := server.NewMCPServer(ServerName, Version, srvOpts...)
	readOnly := []mcp.ToolOption{
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	}
	s.AddTool(mcp.NewTool("execute_query", append([]mcp.ToolOption{
		mcp.WithDescription(fmt.Sprintf("Run one read-only "+engine+" query (SELECT, WITH ... SELECT, VALUES or EXPLAIN) and return "+
			`{"columns":[...],"rows":[[...]],"row_count":N,"truncated":bool,"note":"...","elapsed_ms":F,"data_version":"..."}. `+
			"Rows are capped at max_rows (default %d, at most %d); truncated tells that more rows exist or that values were cut: "+
			"a value longer than %s of JSON is cut (ending in …) and rows past %s in all are left out, and note says so. "+
			"The statement is interrupted after %s. data_version, when present, changes when the database's content does. "+
			`Errors come back as {"category","message"}.`, opts.MaxRows, HardMaxRows,
			resultlimit.Size(opts.MaxCellBytes), resultlimit.Size(opts.MaxResultBytes), opts.QueryTimeout)),
		mcp.WithString("query", mcp.Required(), mcp.Description("one "+engine+" SELECT statement"),
			mcp.MaxLength(opts.MaxQueryLength)),
		mcp.WithInteger("max_rows", mcp.Description(fmt.Sprintf("maximum rows to return (default %d)", opts.MaxRows)),
			mcp.Min(1), mcp.Max(HardMaxRows)),
		mcp.WithRawOutputSchema(resultSchema),
	}, readOnly...)...), h.executeQuery)
	s.AddTool(mcp.NewTool("validate_query", append([]mcp.ToolOption{
		mcp.WithDescription(`Check one ` + engine + ` query without running it (the same guards as execute_query, then ` + engine + ` prepares it). ` +
			`Returns {"valid":true} or the error execute_query would give, as {"category","message"}.`),
		mcp.WithString("query", mcp.Required(), mcp.Description("one "+engine+" SELECT statement"),
			mcp.MaxLength(opts.MaxQueryLength)),
		mcp.WithRawOutputSchema(validSchema),
	}, readOnly...)...), h.validateQuery)
	s.AddResource(mcp.NewResource(SchemaURI, "database schema",
		mcp.WithResourceDescription("Tables and views with columns (name, type, nullable, primary key, comment), foreign keys, indexes, "+
			"row counts and the distinct values of low-cardinality text columns; plus the SQL dialect and today's date as the database sees it."),
		mcp.WithMIMEType("application/json"),
	), h.readSchema)
	return s
}

// resultSchema is execute_query's outputSchema: the JSON of Result.
var resultSchema = json.RawMessage(`{"type":"object",
 "properties":{
  "columns":{"type":"array","items":{"type":"string"},"description":"column labels, in the SELECT's order"},
  "rows":{"type":"array","items":{"type":"array"},"description":"one array of values per row, in the columns' order"},
  "row_count":{"type":"integer","minimum":0},
  "truncated":{"type":"boolean","description":"true when rows were left out or values cut"},
  "note":{"type":"string","description":"which size bound cut the result, and how to see the rest"},
  "elapsed_ms":{"type":"number"},
  "data_version":{"type":"string","description":"changes whenever the database's content may have changed"}},
 "required":["columns","rows","row_count","truncated"]}`)

// validSchema is validate_query's outputSchema.
var validSchema = json.RawMessage(`{"type":"object","properties":{"valid":{"type":"boolean"}},"required":["valid"]}`)

type handlers struct {
	db     Backend
	logger *slog.Logger
}

// errorResult is a tool error whose text is the JSON of e.
func errorResult(e *sqlerr.Error) *mcp.CallToolResult {
	b, _ := json.Marshal(e)
	return mcp.NewToolResultError(string(b))
}

// argError reports a bad tool argument.
func argError(msg string) *mcp.CallToolResult {
	return errorResult(sqlerr.New(sqlerr.UnknownError, "invalid arguments: "+msg))
}

func queryArg(req mcp.CallToolRequest) (string, *mcp.CallToolResult) {
	raw, ok := req.GetArguments()["query"]
	if !ok || raw == nil {
		return "", argError(`"query" is required: pass one SQL SELECT statement as a string`)
	}
	q, ok := raw.(string)
	if !ok {
		return "", argError(fmt.Sprintf(`"query" must be a string, got %T`, raw))
	}
	return q, nil
}

func maxRowsArg(req mcp.CallToolRequest) (int, *mcp.CallToolResult) {
	raw, ok := req.GetArguments()["max_rows"]
	if !ok || raw == nil {
		return 0, nil
	}
	var f float64
	switch v := raw.(type) {
	case float64:
		f = v
	case int:
		f = float64(v)
	case int64:
		f = float64(v)
	case json.Number:
		var err error
		if f, err = v.Float64(); err != nil {
			return 0, argError(fmt.Sprintf(`"max_rows" must be a positive integer, got %q`, v))
		}
	default:
		return 0, argError(fmt.Sprintf(`"max_rows" must be a positive integer, got %v`, raw))
	}
	if f != math.Trunc(f) || f < 1 || f > HardMaxRows {
		return 0, argError(fmt.Sprintf(`"max_rows" must be an integer from 1 to %d, got %v`, HardMaxRows, raw))
	}
	return int(f), nil
}

func (h *handlers) executeQuery(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	q, bad := queryArg(req)
	if bad != nil {
		return bad, nil
	}
	maxRows, bad := maxRowsArg(req)
	if bad != nil {
		return bad, nil
	}
	start := time.Now()
	h.logger.Debug("sql execution started", "event", "sql_execution_started", "query_length", len(q), "max_rows", maxRows)
	res, err := h.db.Query(ctx, q, maxRows)
	if err != nil {
		return h.queryError("execute_query", err, start)
	}
	h.logger.Info("sql execution completed", "event", "sql_execution_completed",
		"row_count", res.RowCount, "truncated", res.Truncated, "duration_ms", ms(start))
	trace.SpanFromContext(ctx).SetAttributes(telemetry.AttrRows.Int(res.RowCount),
		attribute.Bool("talk2tables.truncated", res.Truncated))
	b, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	// structuredContent for clients that read it (declared by the tool's
	// outputSchema), the same JSON as text for those that do not; the
	// structured copy is written from b rather than encoded a second time.
	out := mcp.NewToolResultStructured(res, string(b))
	out.RawStructuredContent = b
	return out, nil
}

func (h *handlers) validateQuery(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	q, bad := queryArg(req)
	if bad != nil {
		return bad, nil
	}
	start := time.Now()
	if err := h.db.Validate(ctx, q); err != nil {
		return h.queryError("validate_query", err, start)
	}
	h.logger.Debug("query validated", "event", "query_validated", "duration_ms", ms(start))
	return mcp.NewToolResultStructured(map[string]any{"valid": true}, `{"valid":true}`), nil
}

func (h *handlers) queryError(tool string, err error, start time.Time) (*mcp.CallToolResult, error) {
	var se *sqlerr.Error
	if !errors.As(err, &se) {
		se = sqlerr.New(sqlerr.CategoryOf(err), err.Error())
	}
	h.logger.Info("sql error", "event", "error_occurred", "tool", tool,
		"category", string(se.Category), "error", se.Message, "duration_ms", ms(start))
	return errorResult(se), nil
}

func (h *handlers) readSchema(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	s, err := h.db.Schema(ctx)
	if err != nil {
		h.logger.Error("read schema", "event", "error_occurred", "error", err.Error())
		return nil, fmt.Errorf("read schema: %w", err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("encode schema: %w", err)
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: SchemaURI, MIMEType: "application/json", Text: string(b)}}, nil
}

// DataWatchInterval is how often NotifyDataChanges looks at a SQLite file.
const DataWatchInterval = time.Second

// Watcher is a backend that can tell when its data changed: SQLite (*DB)
// by its file, every DataWatchInterval; PostgreSQL (*Postgres) and MySQL
// (*MySQL) by their data version, every PostgresWatchInterval and
// MySQLWatchInterval.
type Watcher interface {
	Watch(ctx context.Context, interval time.Duration, changed func(version string))
	watchInterval() time.Duration
}

func (db *DB) watchInterval() time.Duration { return DataWatchInterval }

func (m *MySQL) watchInterval() time.Duration { return MySQLWatchInterval }

var (
	_ Watcher = (*DB)(nil)
	_ Watcher = (*MySQL)(nil)
)

// NotifyDataChanges watches db until ctx is done and,
// whenever its content changes (a file written or replaced by a newly
// generated database; a PostgreSQL or MySQL table written), sends
// notifications/resources/updated for database://schema to every client:
// row counts and values change with the data, and clients that cache
// results drop them.
func NotifyDataChanges(ctx context.Context, db Watcher, s *server.MCPServer, logger *slog.Logger) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	db.Watch(ctx, db.watchInterval(), func(version string) {
		logger.Info("database content changed", "event", "database_changed", "data_version", version)
		s.SendNotificationToAllClients(string(mcp.MethodNotificationResourceUpdated), map[string]any{"uri": SchemaURI})
	})
}

func ms(start time.Time) float64 {
	return math.Round(float64(time.Since(start).Microseconds())/10) / 100
}
