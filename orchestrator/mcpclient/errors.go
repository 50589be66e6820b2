package mcpclient

import (
	"fmt"
	"time"
)

// Connection phases of an MCPConnectionError.
const (
	PhaseInitial = "initial" // the server could not be reached at start
	PhaseLost    = "lost"    // the server was reached once and then lost
	// PhaseUnresponsive: the session is up but the server stopped
	// answering (its ping timed out); calls fail at once until it answers
	// again or is restarted.
	PhaseUnresponsive = "unresponsive"
)

// MCPConnectionError says an MCP server could not be reached.
type MCPConnectionError struct {
	Server string // config id
	Phase  string // PhaseInitial | PhaseLost | PhaseUnresponsive
	Err    error
	// RetryAfter is when to try again (PhaseUnresponsive): the server is
	// probed again by then.
	RetryAfter time.Duration
}

func (e *MCPConnectionError) Error() string {
	switch e.Phase {
	case PhaseLost:
		return fmt.Sprintf("mcp server %q connection lost: %v", e.Server, e.Err)
	case PhaseUnresponsive:
		return fmt.Sprintf("mcp server %q is unresponsive: %v", e.Server, e.Err)
	}
	return fmt.Sprintf("mcp server %q unreachable: %v", e.Server, e.Err)
}

// Unwrap returns the cause.
func (e *MCPConnectionError) Unwrap() error { return e.Err }

// NoMCPAvailableError says no connected server offers a needed capability.
type NoMCPAvailableError struct {
	Capability string
}

func (e *NoMCPAvailableError) Error() string {
	return fmt.Sprintf("no connected mcp server has capability %q", e.Capability)
}
