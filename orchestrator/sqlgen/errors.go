package sqlgen

import (
	"errors"
	"fmt"
)

// Causes of a ReasonLLMCommunication failure that a caller may tell its
// client about in their own words (errors.Is on the SQLGenerationError).
var (
	// ErrLLMTimeout: the LLM did not answer in time: within llm.timeout
	// (after the retries), or within its share of the question's time.
	ErrLLMTimeout = errors.New("the LLM did not answer in time")
	// ErrLLMResponseTooLarge: the LLM's HTTP answer was longer than
	// llm.max_response_bytes; it was not read further.
	ErrLLMResponseTooLarge = errors.New("the LLM's answer is over the size limit")
	// ErrLLMInvalidResponse: the LLM answered with a success status but a
	// body that is not a valid chat completion (invalid JSON).
	ErrLLMInvalidResponse = errors.New("the LLM answered with invalid JSON")
)

// Reason says why SQL generation failed.
type Reason string

// Reasons for a SQLGenerationError.
const (
	// ReasonLLMCommunication: the LLM could not be reached or kept failing
	// (timeouts, 429, 5xx after the retry budget).
	ReasonLLMCommunication Reason = "llm_communication"
	// ReasonInvalidSQL: the answer held no usable SQL, or SQL that is not a
	// single read-only statement.
	ReasonInvalidSQL Reason = "invalid_sql"
	// ReasonNotConfigured: no LLM is configured (message says how to).
	ReasonNotConfigured Reason = "not_configured"
	// ReasonDeclined: the generator understood the question too poorly to
	// answer with confidence and refuses to guess.
	ReasonDeclined Reason = "declined"
)

// SQLGenerationError is the seed's SQLGenerationError. Message is safe to
// show to a user and says what to do; Err is the cause, for logs.
type SQLGenerationError struct {
	Reason  Reason
	Message string
	// Hint, when set, suggests how to rephrase a declined question (e.g.
	// "try: total Total by BillingCountry"); safe to show to a user.
	Hint string
	Err  error
}

func (e *SQLGenerationError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("sql generation (%s): %s: %v", e.Reason, e.Message, e.Err)
	}
	return fmt.Sprintf("sql generation (%s): %s", e.Reason, e.Message)
}

// Unwrap returns the cause.
func (e *SQLGenerationError) Unwrap() error { return e.Err }
