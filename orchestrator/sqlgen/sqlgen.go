// Package sqlgen turns a question plus the resources gathered from the MCP
// servers into one read-only SQL statement. It defines the Generator contract
// shared by the LLM generator (langchaingo) and the built-in offline one.
package sqlgen

import (
	"context"

	"talk2tables/schema"
	"talk2tables/sqlerr"
)

// Generator writes SQL for a request. Implementations must be safe for
// concurrent use.
type Generator interface {
	Generate(ctx context.Context, req Request) (Plan, error)
	// Name identifies the generator in results and logs, e.g.
	// "openai:gpt-4o-mini" or "builtin".
	Name() string
}

// Request is everything a generator may use.
type Request struct {
	Question string
	Dialect  string // "sqlite"
	Today    string // YYYY-MM-DD, as the database sees it
	// Servers are sorted by priority, lowest number (most preferred) first.
	Servers []ServerContext
	// Databases are the executors' databases, by priority, when several
	// are configured: separate sources, each with its own dialect, date and
	// resources (Database.Sources). The plan names the one its SQL runs on
	// in Plan.Server. With one database (or none listed) Dialect and Today
	// describe it and Plan.Server may be empty.
	Databases []Database
	// Repair is set on a retry after a failed attempt; nil on the first.
	Repair *Repair
	// Rendered, when set, is RenderServers(Servers) computed once by the
	// caller for this very Servers slice (e.g. once per resource snapshot),
	// so prompt building does not re-encode every resource per question.
	// It is ignored unless it was made from the same slice (same backing
	// array and length); the prompt is byte-identical either way.
	Rendered *RenderedServers
	// Examples are questions analysts verified with their SQL, the most
	// like this one first (FitExamples keeps them within the budget).
	Examples []Example
}

// ServerContext is one MCP server as the generator sees it.
type ServerContext struct {
	ID           string   `json:"id"`   // config key, e.g. "database_mcp"
	Name         string   `json:"name"` // human name
	Priority     int      `json:"priority"`
	Domains      []string `json:"domains"`
	Capabilities []string `json:"capabilities"`
	// Resources maps a resource URI to its parsed JSON value (map[string]any,
	// []any, ...), or to the raw text when the resource is not JSON.
	Resources map[string]any `json:"resources"`
	// Schema is the schema among Resources, parsed once where the
	// resources are gathered; nil when there is none, or when the caller
	// did not parse it (TypedSchema parses it then).
	Schema *schema.Schema `json:"-"`
	// RelevantOnly: resources that are neither a database schema nor a
	// catalog (docs/contracts.md §1-§2) go into the LLM prompt only when
	// the question is about them (RenderedServers.Select); false: all of
	// them, always.
	RelevantOnly bool `json:"-"`
	// Version identifies this snapshot of Resources: it changes whenever
	// the orchestrator refetches them (a counter bumped on every fetch), so
	// generators may cache what they derive from Resources by (ID,
	// Version). Empty means unknown: derive afresh every time.
	Version string `json:"-"`
}

// TypedSchema is the server's schema resource parsed: Schema when the
// gatherer set it, else the first schema among Resources
// (schema.FromResources); nil when it serves none.
func (sc *ServerContext) TypedSchema() *schema.Schema {
	if sc.Schema != nil {
		return sc.Schema
	}
	return schema.FromResources(sc.Resources)
}

// Repair describes the failed attempt a retry must fix.
type Repair struct {
	Attempt   int             // 1-based number of the attempt that failed
	FailedSQL string          // the SQL that failed
	Error     string          // the exact error message
	Category  sqlerr.Category // its category
	Tried     []string        // every SQL tried so far, oldest first
	// Server is the database the failed SQL was for (several databases).
	Server string
}

// Plan is a generator's answer: the response contract
// {server, sql, resolved_entities, explanation, assumptions, confidence}.
type Plan struct {
	// Server is the executor id of the database the SQL runs on: required
	// when the request lists several databases, optional otherwise.
	Server           string                       `json:"server,omitempty"`
	SQL              string                       `json:"sql"`
	ResolvedEntities map[string]map[string]string `json:"resolved_entities"`
	Explanation      string                       `json:"explanation"`
	Confidence       float64                      `json:"confidence"`
	// Assumptions say, in words a business user reads, what the answer
	// took for granted: the date range as dates ("2026-07-01 to
	// 2026-09-30"), which statuses were counted, which row a name resolved
	// to. Shown with the result in the API, the UI and chat answers.
	Assumptions []string `json:"assumptions,omitempty"`
	// Generator is the Name of the generator that produced the plan (a
	// fallback chain reports the member that answered).
	Generator string `json:"-"`
	Usage     Usage  `json:"-"`
	// Fallback is set when the plan came from a fallback generator because
	// the primary one could not be reached or was not configured;
	// FallbackCause says which (Fallback* constants) and FallbackReason, in
	// words, why.
	Fallback       bool   `json:"-"`
	FallbackCause  string `json:"-"`
	FallbackReason string `json:"-"`
}

// Causes of a fallback plan.
const (
	FallbackLLMFailed     = "llm_failed"     // the LLM could not be reached or kept failing
	FallbackCircuitOpen   = "circuit_open"   // the LLM was skipped: it failed repeatedly just before
	FallbackNotConfigured = "not_configured" // the LLM refused the configuration (e.g. a rejected key)
)

// Usage is token usage normalised across providers.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}
