package executor

// QueryData is a result set, as execute_query returns it, plus where it
// came from.
type QueryData struct {
	Columns   []string `json:"columns"`
	Rows      [][]any  `json:"rows"`
	RowCount  int      `json:"row_count"`
	Truncated bool     `json:"truncated"`
	// Note says which size bound cut the result, when one did.
	Note      string  `json:"note,omitempty"`
	ElapsedMS float64 `json:"elapsed_ms,omitempty"`
	// DataVersion is the executor's name for the data the result was read
	// from (database-mcp: file identity, size and time), when it gives one.
	DataVersion string `json:"data_version,omitempty"`
	// ResultCache is hit, miss or stale (absent when the result cache is
	// off); AgeS is how old a cached result is, in seconds; Stale marks a
	// result served from the cache because the executor is down.
	ResultCache string   `json:"result_cache,omitempty"`
	AgeS        *float64 `json:"age_s,omitempty"`
	Stale       bool     `json:"stale,omitempty"`
	// Executor is the id of the executor server that ran the SQL.
	Executor string `json:"executor,omitempty"`
}
