package sqlgen

import (
	"fmt"
	"slices"
	"strings"
)

// Database is one executor's database as a generator sees it when several
// executors are configured: a separate, named source. Its own resources
// are those of the servers in Sources (the executor's schema, and the
// catalogs of the metadata servers bound to it); a statement runs on one
// database only.
type Database struct {
	// Server is the executor's server id: a Plan names it in Server.
	Server  string   `json:"server"`
	Name    string   `json:"name,omitempty"`
	Dialect string   `json:"dialect"`         // "sqlite", "postgres"
	Today   string   `json:"today,omitempty"` // YYYY-MM-DD, as this database sees it
	Domains []string `json:"domains,omitempty"`
	// Sources are the ids of the servers in Request.Servers whose resources
	// describe this database: the executor first, then the metadata
	// servers whose catalog belongs to it, by priority.
	Sources []string `json:"sources"`
}

// MultiDatabase reports whether the request has several databases to
// choose from: the plan must then name its database in Plan.Server.
func (r Request) MultiDatabase() bool { return len(r.Databases) > 1 }

// Database returns the request's database whose executor is server.
func (r Request) Database(server string) (Database, bool) {
	for _, d := range r.Databases {
		if d.Server == server {
			return d, true
		}
	}
	return Database{}, false
}

// ServersOf returns the servers of req that describe db, in the order of
// req.Servers.
func (r Request) ServersOf(db Database) []ServerContext {
	var out []ServerContext
	for _, s := range r.Servers {
		if slices.Contains(db.Sources, s.ID) {
			out = append(out, s)
		}
	}
	return out
}

// DatabaseNames lists the databases' server ids, quoted, joined with
// commas and "or", for messages: `"a", "b" or "c"`.
func DatabaseNames(dbs []Database) string {
	q := make([]string, len(dbs))
	for i, d := range dbs {
		q[i] = fmt.Sprintf("%q", d.Server)
	}
	switch len(q) {
	case 0:
		return ""
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// multiContract is the response contract with several databases: the
// answer names the database its SQL runs on.
const multiContract = `{"server": "<id of the one database the SQL runs on>", ` +
	`"sql": "<one read-only SELECT statement over that database's tables, in its dialect>", ` +
	`"resolved_entities": {"<phrase from the question>": {"<table.column>": "<value>"}}, ` +
	`"explanation": "<one or two sentences on what the query does>", ` +
	`"assumptions": ["<what the answer takes for granted, e.g. the date range as dates, the statuses counted>"], ` +
	`"confidence": <0.0-1.0>}`

// multiRules are the system prompt's rules for several databases.
func multiRules() []string {
	return []string{
		"There are several databases, listed under \"Databases\" in the user message. Each is a separate " +
			"source described only by the servers listed with it (its schema, and the catalog bound to it): the " +
			"tables, words, entities and default filters of one database say nothing about another.",
		"Pick the one database whose tables, catalog and domains answer the question, write the SQL over its " +
			"tables only, in its own dialect, and put its id in \"server\". A statement runs on one database: " +
			"never join, union or compare tables of two databases.",
		"If the question needs tables of two databases at once, do not write SQL: answer with \"sql\": \"\" " +
			"and say in \"explanation\" which databases it needs (name both) and that each part can be asked " +
			"on its own.",
	}
}

// writeDatabases lists the databases in the user prompt.
func writeDatabases(u *strings.Builder, dbs []Database) {
	u.WriteString("Databases (each a separate source; the SQL runs on exactly one, named in \"server\"):\n")
	for _, d := range dbs {
		fmt.Fprintf(u, "- %s", d.Server)
		if d.Name != "" {
			fmt.Fprintf(u, " (%s)", d.Name)
		}
		dialect := d.Dialect
		if dialect == "" {
			dialect = "sqlite"
		}
		fmt.Fprintf(u, ": dialect %s", dialect)
		if d.Today != "" {
			fmt.Fprintf(u, ", today %s", d.Today)
		}
		if len(d.Domains) > 0 {
			fmt.Fprintf(u, ", domains %s", strings.Join(d.Domains, ", "))
		}
		fmt.Fprintf(u, "; described by servers %s\n", strings.Join(d.Sources, ", "))
	}
	u.WriteString("\n")
}

// dialectsOf lists the distinct dialects of dbs, sorted.
func dialectsOf(dbs []Database) []string {
	var out []string
	for _, d := range dbs {
		dialect := strings.ToLower(d.Dialect)
		if dialect == "" {
			dialect = "sqlite"
		}
		if !slices.Contains(out, dialect) {
			out = append(out, dialect)
		}
	}
	slices.Sort(out)
	return out
}

// declineCrossDatabase turns a multi-database answer without SQL into the
// decline it is: the model says the question needs two databases.
func declineCrossDatabase(req Request, plan Plan, err error) (Plan, error) {
	if err == nil || !req.MultiDatabase() || strings.TrimSpace(plan.Explanation) == "" {
		return plan, err
	}
	return plan, &SQLGenerationError{Reason: ReasonDeclined, Message: plan.Explanation,
		Hint: "ask about one database at a time (" + DatabaseNames(req.Databases) + ")"}
}
