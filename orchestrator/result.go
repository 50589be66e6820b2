package orchestrator

import (
	"talk2tables/orchestrator/executor"
	"talk2tables/sqlerr"
)

// QueryResult is the answer to one question, with the attempts that led to
// it.
type QueryResult struct {
	Success     bool                `json:"success"`
	Query       string              `json:"query"`
	SQL         string              `json:"sql"`
	Result      *executor.QueryData `json:"result,omitempty"`
	Error       string              `json:"error,omitempty"`
	Explanation string              `json:"explanation"`
	// Assumptions say in plain words what the answer took for granted (the
	// date range as dates, the statuses counted, which row a name meant);
	// always present, empty when the generator stated none.
	Assumptions      []string                     `json:"assumptions"`
	ResolvedEntities map[string]map[string]string `json:"resolved_entities"`
	Attempts         []Attempt                    `json:"attempts"`
	Metadata         Metadata                     `json:"metadata"`
	// Verified is set when a question an analyst verified answered (no
	// generator was asked): which, by whom, when, with what substituted.
	Verified *VerifiedAnswer `json:"verified,omitempty"`
}

// Attempt is one try at running generated SQL.
type Attempt struct {
	SQL        string          `json:"sql"`
	Error      string          `json:"error,omitempty"`
	Category   sqlerr.Category `json:"category,omitempty"`
	DurationMS int64           `json:"duration_ms"`
	// Server is the database the SQL was for, when there are several.
	Server string `json:"server,omitempty"`
}

// Metadata describes how a result was produced.
type Metadata struct {
	ExecutionTime  float64  `json:"execution_time"` // seconds, whole Process call
	MCPServersUsed []string `json:"mcp_servers_used"`
	// MissingServers lists configured servers that were down and skipped
	// (fail_fast: false only).
	MissingServers []string `json:"missing_servers,omitempty"`
	Timestamp      string   `json:"timestamp"` // RFC 3339, UTC
	Generator      string   `json:"generator"`
	// Executor is the id of the executor server whose database answered.
	Executor string `json:"executor,omitempty"`
	// Fallback is set when the configured LLM failed and llm.fallback answered.
	Fallback bool `json:"fallback,omitempty"`
	// FallbackReason says why the fallback answered (the LLM's failure, or
	// that its circuit breaker is open).
	FallbackReason string      `json:"fallback_reason,omitempty"`
	Cache          string      `json:"cache"` // hit | miss | partial
	Confidence     float64     `json:"confidence,omitempty"`
	Usage          *TokenUsage `json:"usage,omitempty"`
}

// TokenUsage is the LLM token usage of all attempts of one question.
type TokenUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}
