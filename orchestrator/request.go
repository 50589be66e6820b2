package orchestrator

import (
	"slices"
	"strconv"
	"sync"
	"time"

	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/resources"
	"talk2tables/orchestrator/sqlgen"
)

// buildRequest turns gathered resources into the generator's request. The
// question-independent part (servers, their rendered prompt text, dialect,
// the databases) is computed once per set of resource snapshots and shared.
func (o *Orchestrator) buildRequest(question string, g *resources.Gathered, exec *mcpclient.Conn) (sqlgen.Request, *requestBase) {
	b := o.requestBase(g, exec)
	today := b.today
	if today == "" {
		today = time.Now().UTC().Format("2006-01-02")
	}
	return sqlgen.Request{Question: question, Dialect: b.dialect, Today: today, Servers: b.servers,
		Rendered: b.rendered, Databases: b.databases}, b
}

// requestBase is the part of a generator request that depends only on the
// resource snapshots and the executor. It is immutable once built.
type requestBase struct {
	snaps    []*resources.Snapshot // the identity it was built for, by priority
	exec     *mcpclient.Conn
	servers  []sqlgen.ServerContext
	rendered *sqlgen.RenderedServers
	dialect  string
	today    string // from the executor's schema; empty means the clock's
	// databases are the executors' databases with the servers describing
	// each (bindDatabases); dbs finds one by executor id.
	databases []sqlgen.Database
	dbs       map[string]*database

	// know is each database's knowledge for the verified questions
	// (knowledge), built on first use.
	knowMu sync.Mutex
	know   map[string]*dbKnowledge
}

// requestBase returns the base for g and exec, reusing the last one while
// the snapshots are the same objects. Snapshots are immutable and every
// refetch (TTL expiry, change notification, reconnect) stores a new one, so
// pointer identity is exactly "the resources did not change".
func (o *Orchestrator) requestBase(g *resources.Gathered, exec *mcpclient.Conn) *requestBase {
	o.baseMu.Lock()
	b := o.base
	o.baseMu.Unlock()
	if b != nil && b.exec == exec && slices.Equal(b.snaps, g.Snaps) {
		return b
	}
	b = newRequestBase(g, exec, o.cfg.LLM.TokenBudget())
	o.baseMu.Lock()
	o.base = b
	o.baseMu.Unlock()
	return b
}

func newRequestBase(g *resources.Gathered, exec *mcpclient.Conn, budget int) *requestBase {
	b := &requestBase{snaps: slices.Clone(g.Snaps), exec: exec,
		servers: make([]sqlgen.ServerContext, len(g.Snaps))}
	for i, s := range g.Snaps {
		c := g.Conns[i]
		b.servers[i] = sqlgen.ServerContext{ID: c.ID(), Name: c.Config().Name, Priority: c.Config().Priority,
			Domains: c.Config().Domains, Capabilities: c.Config().Capabilities, Resources: s.Resources, Schema: s.Schema,
			Version: strconv.FormatUint(s.Version, 10), RelevantOnly: c.Config().RelevantOnly()}
		if s.Resources == nil {
			b.servers[i].Resources = map[string]any{}
		}
	}
	// Dialect and today come from the executor's schema resource when it
	// has one ({"dialect": ..., "today": ...}).
	for i, s := range g.Snaps {
		if g.Conns[i] != exec {
			continue
		}
		for _, v := range s.Resources {
			m, ok := v.(map[string]any)
			if !ok {
				continue
			}
			if d, ok := m["dialect"].(string); ok && d != "" {
				b.dialect = d
				if t, ok := m["today"].(string); ok && t != "" {
					b.today = t
				}
				break
			}
		}
	}
	if exec.Config().Dialect != "" {
		b.dialect = exec.Config().Dialect // the configured dialect wins
	}
	b.rendered = sqlgen.RenderServersWith(b.servers, sqlgen.RenderOptions{TokenBudget: budget})
	b.databases, b.dbs = bindDatabases(g)
	return b
}

// serversUsed lists the servers whose resources went into the prompt, by
// priority, plus the executor (last when it contributed no resources).
func serversUsed(g *resources.Gathered, exec *mcpclient.Conn) []string {
	var out []string
	seen := false
	for i, s := range g.Snaps {
		c := g.Conns[i]
		if c == exec {
			seen = true
			out = append(out, c.ID())
			continue
		}
		if len(s.Resources) > 0 {
			out = append(out, c.ID())
		}
	}
	if !seen {
		out = append(out, exec.ID())
	}
	return out
}
