package orchestrator

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"talk2tables/config"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/orchestrator/resources"
	"talk2tables/orchestrator/sqlgen"
	"talk2tables/sqlerr"
)

// Several databases. Every server with capability execute_query is an
// executor over a database of its own: its schema stays its own, and the
// catalog of a metadata server belongs to one executor — the one named by
// the server's catalog_for key, else the one whose schema holds most of the
// catalog's tables (ties go to the lower priority number). A question is
// answered on one database, the one the generator names in Plan.Server.

// tableSet holds a schema's table names, lower case, both as "schema.table"
// and bare.
type tableSet map[string]bool

func (ts tableSet) has(name string) bool { return ts[strings.ToLower(strings.TrimSpace(name))] }

// schemaOf reads a server's schema resource ({"dialect", "today",
// "tables": [...]}, docs/contracts.md §2): its dialect ("" when it
// declares none), today and table names; ok is false without one.
func schemaOf(res map[string]any) (dialect, today string, tables tableSet, ok bool) {
	for _, uri := range sortedKeys(res) {
		m, isObj := res[uri].(map[string]any)
		if !isObj {
			continue
		}
		list, isList := m["tables"].([]any)
		if !isList {
			continue
		}
		tables = tableSet{}
		for _, t := range list {
			tm, _ := t.(map[string]any)
			name, _ := tm["name"].(string)
			if name == "" {
				continue
			}
			tables[strings.ToLower(name)] = true
			if s, _ := tm["schema"].(string); s != "" {
				tables[strings.ToLower(s+"."+name)] = true
			}
		}
		dialect, _ = m["dialect"].(string)
		today, _ = m["today"].(string)
		return dialect, today, tables, true
	}
	return "", "", nil, false
}

// catalogTables lists the tables a server's catalog resources name,
// recognised by shape (docs/contracts.md §1): the tables of a semantic
// model, the tables of entity lists, and the table.column references of a
// version-1 catalog. Empty when the server serves no catalog.
func catalogTables(res map[string]any) []string {
	var out []string
	add := func(name string) {
		if name = strings.TrimSpace(name); name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	addRef := func(ref string) { // "table.column" or "schema.table.column"
		if i := strings.LastIndexByte(ref, '.'); i > 0 {
			add(ref[:i])
		}
	}
	for _, uri := range sortedKeys(res) {
		m, ok := res[uri].(map[string]any)
		if !ok {
			continue
		}
		if tables, ok := m["tables"].(map[string]any); ok {
			for _, t := range sortedKeys(tables) {
				add(t)
			}
		}
		if ents, ok := m["entities"].([]any); ok {
			for _, e := range ents {
				em, _ := e.(map[string]any)
				t, _ := em["table"].(string)
				add(t)
			}
		}
		// Version 1: column mappings and product aliases.
		if terms, ok := m["user_friendly_terms"].(map[string]any); ok {
			for _, k := range sortedKeys(terms) {
				s, _ := terms[k].(string)
				addRef(s)
			}
		}
		for _, key := range []string{"date_columns", "table_aliases"} {
			if tm, ok := m[key].(map[string]any); ok {
				for _, t := range sortedKeys(tm) {
					add(t)
				}
			}
		}
		for _, k := range sortedKeys(m) {
			p, _ := m[k].(map[string]any)
			refs, _ := p["database_references"].(map[string]any)
			for _, r := range sortedKeys(refs) {
				addRef(r)
			}
		}
	}
	return out
}

// database is one executor's database in a request base.
type database struct {
	conn    *mcpclient.Conn
	dialect string
	tables  tableSet // nil when the executor has no schema resource
}

// bindDatabases lists the executors among the gathered servers (by
// priority) as databases, each with the servers describing it: itself and
// the metadata servers whose catalog belongs to it. Servers that are
// neither, or whose catalog matches no executor's schema, describe none.
func bindDatabases(g *resources.Gathered) ([]sqlgen.Database, map[string]*database) {
	var dbs []sqlgen.Database
	byID := map[string]*database{}
	for i, s := range g.Snaps {
		c := g.Conns[i]
		if !c.Config().HasCapability(config.CapExecuteQuery) {
			continue
		}
		dialect, today, tables, _ := schemaOf(s.Resources)
		if c.Config().Dialect != "" {
			dialect = c.Config().Dialect // the configured dialect wins, as for one executor
		}
		byID[c.ID()] = &database{conn: c, dialect: dialect, tables: tables}
		dbs = append(dbs, sqlgen.Database{Server: c.ID(), Name: c.Config().Name, Dialect: dialect, Today: today,
			Domains: slices.Clone(c.Config().Domains), Sources: []string{c.ID()}})
	}
	for i, s := range g.Snaps {
		c := g.Conns[i]
		if c.Config().HasCapability(config.CapExecuteQuery) {
			continue
		}
		owner := catalogOwner(c, s.Resources, dbs, byID)
		for j := range dbs {
			if dbs[j].Server == owner {
				dbs[j].Sources = append(dbs[j].Sources, c.ID())
				for _, d := range c.Config().Domains {
					if !slices.Contains(dbs[j].Domains, d) {
						dbs[j].Domains = append(dbs[j].Domains, d)
					}
				}
			}
		}
	}
	return dbs, byID
}

// catalogOwner is the executor a server's catalog belongs to: its
// catalog_for, else the executor whose schema holds most of the catalog's
// tables (the first by priority on a tie; the only executor when there is
// one); "" when it serves no catalog or names no table of any schema.
func catalogOwner(c *mcpclient.Conn, res map[string]any, dbs []sqlgen.Database, byID map[string]*database) string {
	if c.Config().CatalogFor != "" {
		return c.Config().CatalogFor
	}
	tables := catalogTables(res)
	if len(tables) == 0 {
		return ""
	}
	if len(dbs) == 1 {
		return dbs[0].Server
	}
	owner, best := "", 0
	for _, d := range dbs {
		n := 0
		for _, t := range tables {
			if byID[d.Server].tables.has(t) {
				n++
			}
		}
		if n > best {
			owner, best = d.Server, n
		}
	}
	return owner
}

// route returns the database a plan's SQL runs on. With one database it
// is the executor (plan.Server is optional); with several the plan must
// name one, and its SQL may read no table that only another database has
// — such answers are failed attempts whose error the repair prompt
// explains, and nothing is sent.
func (b *requestBase) route(exec *mcpclient.Conn, plan sqlgen.Plan) (*mcpclient.Conn, string, error) {
	if len(b.databases) < 2 {
		return exec, b.dialect, nil
	}
	d := b.dbs[plan.Server]
	if d == nil {
		msg := fmt.Sprintf("the answer names no database in \"server\"; there are several: name the one the SQL "+
			"runs on, one of %s", sqlgen.DatabaseNames(b.databases))
		if plan.Server != "" {
			msg = fmt.Sprintf("the answer names the unknown database %q in \"server\"; name the one the SQL runs on, "+
				"one of %s", plan.Server, sqlgen.DatabaseNames(b.databases))
		}
		return nil, "", &executor.QueryExecutionError{Reason: executor.ReasonSQLExecution, Category: sqlerr.UnknownError, SQL: plan.SQL,
			Message: msg, Err: sqlerr.New(sqlerr.UnknownError, msg)}
	}
	if err := b.checkOneDatabase(d, plan.SQL); err != nil {
		return nil, "", err
	}
	return d.conn, d.dialect, nil
}

// checkOneDatabase refuses SQL for database d that reads a table only
// another database has: no statement ever spans two databases.
func (b *requestBase) checkOneDatabase(d *database, sql string) error {
	if d.tables == nil {
		return nil
	}
	for _, t := range sqlgen.TablesRead(d.dialect, sql) {
		if d.tables.has(t) {
			continue
		}
		for _, other := range b.databases {
			od := b.dbs[other.Server]
			if od == d || !od.tables.has(t) {
				continue
			}
			msg := fmt.Sprintf("table %s is in database %q, not in %q where this SQL was to run: a statement runs on "+
				"one database. Write the SQL over the tables of one database and name it in \"server\"; if the "+
				"question needs both, answer with \"sql\": \"\" and name both databases in \"explanation\"",
				t, other.Server, d.conn.ID())
			return &executor.QueryExecutionError{Reason: executor.ReasonSQLExecution, Category: sqlerr.MissingTable, SQL: sql,
				Message: msg, Err: sqlerr.New(sqlerr.MissingTable, msg)}
		}
	}
	return nil
}

// sortedKeys returns m's keys in order (stable output from JSON objects).
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// checkAnalystSQL refuses analyst SQL for exec that reads a table only
// another executor's database has, saying which server to send it to. It
// reads the schemas already cached (it never fetches), so it only helps:
// without them the database reports the missing table itself.
func (o *Orchestrator) checkAnalystSQL(exec *mcpclient.Conn, dialect, sql string) *executor.QueryExecutionError {
	if len(o.clients.Executors()) < 2 {
		return nil
	}
	schemas := map[string]tableSet{}
	for _, id := range o.clients.Executors() {
		if snap, ok := o.cache.Cached(id); ok {
			_, _, schemas[id], _ = schemaOf(snap.Resources)
		}
	}
	own := schemas[exec.ID()]
	if own == nil {
		return nil
	}
	for _, t := range sqlgen.TablesRead(dialect, sql) {
		if own.has(t) {
			continue
		}
		for _, id := range o.clients.Executors() {
			if id == exec.ID() || !schemas[id].has(t) {
				continue
			}
			msg := fmt.Sprintf("table %s is in database %q, not in %q: send the SQL with \"server\": %q "+
				"(a statement runs on one database)", t, id, exec.ID(), id)
			return &executor.QueryExecutionError{Reason: executor.ReasonSQLExecution, Category: sqlerr.MissingTable, SQL: sql,
				Message: msg, Err: sqlerr.New(sqlerr.MissingTable, msg)}
		}
	}
	return nil
}

// wasTriedOn is wasTried for a statement on a database: the same SQL named
// for another database is a new try (it may now run where it belongs).
func wasTriedOn(tried, on []string, sql, server string) bool {
	for i, t := range tried {
		if on[i] == server && wasTried([]string{t}, sql) {
			return true
		}
	}
	return false
}

// serversUsed lists the servers that answered: with several databases,
// the target executor and the servers that did not describe another
// database (other executors and the catalogs bound to them are left out).
func (b *requestBase) serversUsed(g *resources.Gathered, target *mcpclient.Conn) []string {
	if len(b.databases) < 2 {
		return serversUsed(g, target)
	}
	var out []string
	for _, id := range serversUsed(g, target) {
		if !b.describesOther(id, target.ID()) {
			out = append(out, id)
		}
	}
	return out
}

// describesOther reports whether server id describes a database other
// than the one of executor target.
func (b *requestBase) describesOther(id, target string) bool {
	for _, d := range b.databases {
		if d.Server != target && slices.Contains(d.Sources, id) {
			return true
		}
	}
	return false
}
