package orchestrator

import (
	"talk2tables/orchestrator/sqlgen"
)

// SQLGenerationError is sqlgen's error, re-exported so callers of the
// orchestrator need only this package.
type SQLGenerationError = sqlgen.SQLGenerationError

// Reasons of a SQLGenerationError, re-exported with it.
const (
	ReasonLLMCommunication = sqlgen.ReasonLLMCommunication
	ReasonInvalidSQL       = sqlgen.ReasonInvalidSQL
	ReasonNotConfigured    = sqlgen.ReasonNotConfigured
	ReasonDeclined         = sqlgen.ReasonDeclined
)
