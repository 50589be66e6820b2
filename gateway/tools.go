package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"talk2tables/answer"
	"talk2tables/orchestrator"
	"talk2tables/orchestrator/executor"
)

// Names of the gateway's own tools.
const (
	ToolAsk     = "ask"
	ToolRunSQL  = "run_sql"
	ToolHealth  = "health"
	ToolSearch  = "search"
	ToolExecute = "execute"
)

// readOnly are the annotations of tools that change nothing.
var readOnly = []mcp.ToolOption{
	mcp.WithReadOnlyHintAnnotation(true),
	mcp.WithDestructiveHintAnnotation(false),
	mcp.WithOpenWorldHintAnnotation(false),
}

// builtinTools returns the gateway's own tools with their handlers.
func (g *Gateway) builtinTools() []server.ServerTool {
	h := g.cfg.HTTP
	return []server.ServerTool{
		{Tool: mcp.NewTool(ToolAsk, append([]mcp.ToolOption{
			mcp.WithTitleAnnotation("Ask a business question"),
			mcp.WithDescription("Answer a business question in plain language with SQL over the connected database: " +
				"the catalog resolves names and terms, SQL is generated, validated, run read-only and repaired when it fails. " +
				"Returns a short markdown answer (explanation, assumptions, SQL, up to 20 rows) and the full result as structured content. " +
				"Send a progressToken to follow the stages (gathering, generating, validating, executing, retry)."),
			mcp.WithString("question", mcp.Required(), mcp.Description("the question, e.g. \"total revenue by region this year\""),
				mcp.MinLength(1), mcp.MaxLength(h.MaxQuestionLength)),
			mcp.WithInteger("max_rows", mcp.Description(fmt.Sprintf("rows to return (default %d)", h.DefaultMaxRows)),
				mcp.Min(1), mcp.Max(float64(h.MaxRowsLimit))),
			mcp.WithOutputSchema[orchestrator.QueryResult](),
		}, readOnly...)...), Handler: g.handleAsk},
		{Tool: mcp.NewTool(ToolRunSQL, append([]mcp.ToolOption{
			mcp.WithTitleAnnotation("Run read-only SQL"),
			mcp.WithDescription("Run one read-only SQL statement (SELECT, WITH ... SELECT) through the same checks and executor as ask. " +
				"Writes are refused. Returns the rows as a markdown table and {columns, rows, row_count, truncated} as structured content."),
			mcp.WithString("sql", mcp.Required(), mcp.Description("one read-only SQL statement"), mcp.MinLength(1)),
			mcp.WithInteger("max_rows", mcp.Description(fmt.Sprintf("rows to return (default %d)", h.DefaultMaxRows)),
				mcp.Min(1), mcp.Max(float64(h.MaxRowsLimit))),
			mcp.WithString("server", mcp.Description("the id of the database server (an executor in the health tool) to run on; "+
				"default the top-priority one")),
			mcp.WithOutputSchema[executor.QueryData](),
		}, readOnly...)...), Handler: g.handleRunSQL},
		{Tool: mcp.NewTool(ToolHealth, append([]mcp.ToolOption{
			mcp.WithTitleAnnotation("Health of talk2tables"),
			mcp.WithDescription("Each MCP server's state, tools, last error and resource cache age, and the SQL generator in use."),
			mcp.WithOutputSchema[healthReport](),
		}, readOnly...)...), Handler: g.handleHealth},
		{Tool: mcp.NewTool(ToolSearch, append([]mcp.ToolOption{
			mcp.WithTitleAnnotation("Search tools, resources and data"),
			mcp.WithDescription("Find the downstream tools, resources, database tables and columns and catalog entities that match " +
				"keywords, best first (stemming and typo tolerant). Call a found tool with execute."),
			mcp.WithArray("keywords", mcp.Required(), mcp.Description("words to look for, e.g. [\"revenue\", \"region\"]"),
				mcp.WithStringItems(), mcp.MinItems(1)),
			mcp.WithOutputSchema[searchResult](),
		}, readOnly...)...), Handler: g.handleSearch},
		{Tool: mcp.NewTool(ToolExecute,
			mcp.WithTitleAnnotation("Execute a downstream tool"),
			mcp.WithDescription("Call any downstream tool by its namespaced name (<server>__<tool>, as search returns it) with its arguments. "+
				"The same policies apply as to a direct call (allow/deny, rate limits, approval)."),
			mcp.WithString("name", mcp.Required(), mcp.Description("namespaced tool name, e.g. database_mcp__execute_query")),
			mcp.WithObject("arguments", mcp.Description("the tool's arguments")),
			mcp.WithDestructiveHintAnnotation(true),
			mcp.WithOpenWorldHintAnnotation(true),
		), Handler: g.handleExecute},
	}
}

// stringArg returns a required string argument or a tool error saying how
// to fix it.
func stringArg(req mcp.CallToolRequest, name string, maxLen int) (string, *mcp.CallToolResult) {
	raw, ok := req.GetArguments()[name]
	if !ok || raw == nil {
		return "", mcp.NewToolResultError(fmt.Sprintf("%q is required", name))
	}
	s, ok := raw.(string)
	if !ok {
		return "", mcp.NewToolResultError(fmt.Sprintf("%q must be a string, got %T", name, raw))
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return "", mcp.NewToolResultError(fmt.Sprintf("%q must not be empty", name))
	}
	if maxLen > 0 && len([]rune(s)) > maxLen {
		return "", mcp.NewToolResultError(fmt.Sprintf("%q is longer than %d characters; shorten it", name, maxLen))
	}
	return s, nil
}

// maxRowsArg returns max_rows (0 when absent) or a tool error.
func (g *Gateway) maxRowsArg(req mcp.CallToolRequest) (int, *mcp.CallToolResult) {
	raw, ok := req.GetArguments()["max_rows"]
	if !ok || raw == nil {
		return 0, nil
	}
	limit := g.cfg.HTTP.MaxRowsLimit
	f, ok := raw.(float64)
	if n, isNum := raw.(json.Number); isNum {
		var err error
		f, err = n.Float64()
		ok = err == nil
	}
	if !ok || f != math.Trunc(f) || f < 1 || f > float64(limit) {
		return 0, mcp.NewToolResultError(fmt.Sprintf(`"max_rows" must be an integer from 1 to %d, got %v`, limit, raw))
	}
	return int(f), nil
}

// handleRunSQL runs analyst SQL through the orchestrator's read-only path.
func (g *Gateway) handleRunSQL(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	opID := operationID(ctx)
	if res := g.limits.check(ToolRunSQL, ""); res != nil {
		return res, nil
	}
	sql, bad := stringArg(req, "sql", 0)
	if bad != nil {
		return bad, nil
	}
	maxRows, bad := g.maxRowsArg(req)
	if bad != nil {
		return bad, nil
	}
	var server string
	if raw, ok := req.GetArguments()["server"]; ok && raw != nil {
		if server, bad = stringArg(req, "server", 200); bad != nil {
			return bad, nil
		}
	}
	start := time.Now()
	data, err := g.orch.ExecuteSQLOn(ctx, server, sql, maxRows, opID)
	if err != nil {
		return g.fail(ctx, ToolRunSQL, opID, err), nil
	}
	g.log.Info("tool call completed", "event", "tool_call_completed", "tool", ToolRunSQL, "operation_id", opID,
		"duration_ms", msSince(start), "row_count", data.RowCount)
	var b strings.Builder
	writeTable(&b, data)
	return mcp.NewToolResultStructured(data, b.String()), nil
}

// healthReport is the health tool's structured result.
type healthReport struct {
	Status    string         `json:"status"` // healthy | degraded
	Generator string         `json:"generator"`
	Sampling  bool           `json:"sampling" jsonschema:"ask would use this client's model: no LLM is configured and the client can sample"`
	Servers   []serverHealth `json:"servers"`
}

// serverHealth is one server in the health report.
type serverHealth struct {
	ID                 string   `json:"id"`
	Name               string   `json:"name"`
	State              string   `json:"state"`
	Priority           int      `json:"priority"`
	Tools              []string `json:"tools"`
	Resources          []string `json:"resources"`
	LastError          string   `json:"last_error,omitempty"`
	CacheAgeSeconds    *float64 `json:"cache_age_seconds,omitempty"`
	ForwardAuth        bool     `json:"forward_auth,omitempty"`
	ResourcesAvailable bool     `json:"resources_available"`
}

// handleHealth reports per-server state, the generator and cache ages.
func (g *Gateway) handleHealth(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if res := g.limits.check(ToolHealth, ""); res != nil {
		return res, nil
	}
	h := g.orch.Health()
	rep := healthReport{Status: h.Status, Generator: g.orch.GeneratorName(), Sampling: g.useSampling(ctx), Servers: []serverHealth{}}
	ages := map[string]float64{}
	if snaps, err := g.orch.Resources(ctx); err == nil {
		for _, s := range snaps {
			if s.Error == "" && !s.FetchedAt.IsZero() {
				ages[s.ServerID] = s.AgeSeconds
			}
		}
	}
	for _, d := range g.orch.Downstreams() {
		sh := serverHealth{ID: d.ID, Name: d.Name, State: d.State, Priority: d.Priority, LastError: d.LastError,
			ForwardAuth: d.ForwardAuth, Tools: []string{}, Resources: []string{}}
		for _, t := range d.Tools {
			sh.Tools = append(sh.Tools, t.Name)
		}
		for _, r := range d.Resources {
			sh.Resources = append(sh.Resources, r.URI)
		}
		if age, ok := ages[d.ID]; ok {
			sh.CacheAgeSeconds = &age
			sh.ResourcesAvailable = true
		}
		rep.Servers = append(rep.Servers, sh)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** — generator %s\n\n| server | state | tools | cache age |\n| --- | --- | --- | --- |\n", rep.Status, rep.Generator)
	for _, s := range rep.Servers {
		age := "—"
		if s.CacheAgeSeconds != nil {
			age = fmt.Sprintf("%.0f s", *s.CacheAgeSeconds)
		}
		state := s.State
		if s.LastError != "" {
			state += " (" + answer.OneLine(s.LastError) + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", s.ID, answer.Cell(state), answer.Cell(strings.Join(s.Tools, ", ")), age)
	}
	return mcp.NewToolResultStructured(rep, b.String()), nil
}

// msSince returns the milliseconds since start, for logs.
func msSince(start time.Time) float64 { return float64(time.Since(start).Microseconds()) / 1000 }
