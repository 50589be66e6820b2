package resources

import "fmt"

// Resource fetch phases of a ResourceFetchError.
const (
	PhaseList = "list" // resources/list failed
	PhaseData = "data" // resources/read failed
)

// ResourceFetchError says resources of a server could not be listed or read.
type ResourceFetchError struct {
	Server string
	URI    string // empty for PhaseList
	Phase  string // PhaseList | PhaseData
	Err    error
}

func (e *ResourceFetchError) Error() string {
	if e.URI != "" {
		return fmt.Sprintf("mcp server %q: read resource %s: %v", e.Server, e.URI, e.Err)
	}
	return fmt.Sprintf("mcp server %q: list resources: %v", e.Server, e.Err)
}

// Unwrap returns the cause.
func (e *ResourceFetchError) Unwrap() error { return e.Err }
