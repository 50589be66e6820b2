package server

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"talk2tables/orchestrator"
)

// serviceName is the "service" field of /health.
const serviceName = "talk2tables"

// healthBody is the body of GET /health.
type healthBody struct {
	Status    string            `json:"status"`
	Service   string            `json:"service"`
	Servers   map[string]string `json:"servers"`
	Generator string            `json:"generator"`
}

// handleHealth answers GET /health: 200 when healthy, 503 when a server
// the configuration needs is down, reconnecting, unresponsive or reports its
// database broken ("database_error").
func (a *api) handleHealth(c *gin.Context) {
	h := a.orch.Health()
	status := http.StatusOK
	if h.Status != "healthy" {
		status = http.StatusServiceUnavailable
	}
	servers := h.Servers
	if servers == nil {
		servers = map[string]string{}
	}
	c.PureJSON(status, healthBody{Status: h.Status, Service: serviceName, Servers: servers, Generator: a.orch.GeneratorName()})
}

// serversBody is the body of GET /api/servers.
type serversBody struct {
	Servers []serverJSON `json:"servers"`
}

// serverJSON is one server in GET /api/servers.
type serverJSON struct {
	ID           string     `json:"id"`
	Name         string     `json:"name"`
	Transport    string     `json:"transport"`
	State        string     `json:"state"`
	Priority     int        `json:"priority"`
	Required     bool       `json:"required"`
	Domains      []string   `json:"domains"`
	Capabilities []string   `json:"capabilities"`
	Tools        []string   `json:"tools"`
	Resources    []string   `json:"resources"`
	LastError    string     `json:"last_error,omitempty"`
	LastContact  *time.Time `json:"last_contact,omitempty"`
	// UnresponsiveSince is set while the server is unresponsive.
	UnresponsiveSince *time.Time `json:"unresponsive_since,omitempty"`
	// DatabaseError is an executor's database failure, until a statement
	// runs again.
	DatabaseError      string     `json:"database_error,omitempty"`
	DatabaseErrorSince *time.Time `json:"database_error_since,omitempty"`
	// SchemaSource says where an executor's schema comes from
	// ("resource database://schema", "discovered via execute_sql (sqlite)").
	SchemaSource string `json:"schema_source,omitempty"`
}

// handleServers answers GET /api/servers with every configured server, by
// priority.
func (a *api) handleServers(c *gin.Context) {
	statuses := a.orch.Servers()
	out := serversBody{Servers: make([]serverJSON, 0, len(statuses))}
	for _, s := range statuses {
		j := serverJSON{
			ID: s.ID, Name: s.Name, Transport: s.Transport, State: s.State, Priority: s.Priority, Required: s.Required,
			Domains: nonNil(s.Domains), Capabilities: nonNil(s.Capabilities), Tools: nonNil(s.Tools),
			Resources: nonNil(s.Resources), LastError: s.LastError, DatabaseError: s.DatabaseError,
			SchemaSource: s.SchemaSource,
		}
		j.LastContact = utcOrNil(s.LastContact)
		j.UnresponsiveSince = utcOrNil(s.UnresponsiveSince)
		j.DatabaseErrorSince = utcOrNil(s.DatabaseErrorSince)
		out.Servers = append(out.Servers, j)
	}
	c.PureJSON(http.StatusOK, out)
}

// utcOrNil is t in UTC, or nil for the zero time (omitted).
func utcOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

// nonNil makes a nil slice encode as [] rather than null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// resourcesBody is the body of GET /api/resources.
type resourcesBody struct {
	Resources []orchestrator.ResourceSnapshot `json:"resources"`
}

// handleResources answers GET /api/resources with the gathered resources
// and their cache age per server.
func (a *api) handleResources(c *gin.Context) {
	r, err := a.orch.Resources(c.Request.Context())
	if err != nil {
		a.fail(c, err, nil)
		return
	}
	if r == nil {
		r = []orchestrator.ResourceSnapshot{}
	}
	c.PureJSON(http.StatusOK, resourcesBody{Resources: r})
}
