// Package schema is the typed JSON contract of a database MCP server: the
// database://schema resource (docs/contracts.md §2) and the result of
// execute_query (§6). database-mcp serves these types; the planner, the
// prompt builder, schema discovery and the catalog drafter read them. It
// imports nothing of the project, so a reader does not link a database
// driver.
package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Schema is the JSON of the database://schema resource.
type Schema struct {
	Dialect  string `json:"dialect"`
	Today    string `json:"today"`
	Database string `json:"database"`
	// Source says how a discovered schema was found ("discovered via
	// execute_sql"); omitted for a schema a server serves.
	Source string  `json:"source,omitempty"`
	Tables []Table `json:"tables"`
}

// KindView marks a view in Table.Kind.
const KindView = "view"

// Table describes one user table or view (docs/contracts.md §2).
type Table struct {
	Name string `json:"name"`
	// Schema is the table's schema; omitted for SQLite (and PostgreSQL's public).
	Schema string `json:"schema,omitempty"`
	// Kind is "view" for views; omitted for tables.
	Kind string `json:"kind,omitempty"`
	// RowCount is -1 when unknown: for views (counting would run the
	// view), and when a parsed schema leaves it out.
	RowCount    int64        `json:"row_count"`
	Comment     string       `json:"comment,omitempty"`
	Columns     []Column     `json:"columns"`
	ForeignKeys []ForeignKey `json:"foreign_keys"`
	Indexes     []Index      `json:"indexes"`
}

// Column describes one column. DistinctValues is set only for text columns
// with at most 10 distinct non-null values.
type Column struct {
	Name           string `json:"name"`
	Type           string `json:"type"`
	Nullable       bool   `json:"nullable"`
	PrimaryKey     bool   `json:"primary_key"`
	DistinctValues Values `json:"distinct_values,omitempty"`
	Comment        string `json:"comment,omitempty"`
}

// Values are a column's distinct values. The contract lists strings; when a
// foreign server lists other JSON values, parsing keeps only the strings.
type Values []string

// ForeignKey is one column reference to another table. A composite key is
// one entry whose Column and ReferencesColumn list the columns joined by
// commas, in order.
type ForeignKey struct {
	Column           string `json:"column"`
	ReferencesTable  string `json:"references_table"`
	ReferencesColumn string `json:"references_column"`
}

// Index is an explicitly created index (SQLite's automatic indexes for
// PRIMARY KEY and UNIQUE constraints are left out).
type Index struct {
	Name    string   `json:"name"`
	Columns []string `json:"columns"`
	Unique  bool     `json:"unique"`
}

// Result is the answer of a query, the JSON text of a successful
// execute_query (docs/contracts.md §6).
type Result struct {
	Columns   []string `json:"columns"`
	Rows      [][]any  `json:"rows"`
	RowCount  int      `json:"row_count"`
	Truncated bool     `json:"truncated"`
	// Note says which size bound cut the result (rows left out, long cells
	// cut) and how to see the rest; empty when none did.
	Note      string  `json:"note,omitempty"`
	ElapsedMS float64 `json:"elapsed_ms"`
	// DataVersion identifies the database file's content the result was
	// read from (file identity, size and modification time): a client may
	// cache the result until it changes.
	DataVersion string `json:"data_version,omitempty"`
}

// ErrNoTables is the error of Parse for JSON without a "tables" array.
var ErrNoTables = errors.New(`schema has no "tables" array`)

// Parse decodes a schema resource's JSON.
func Parse(data []byte) (*Schema, error) {
	var s Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("parse schema: %w", err)
	}
	if s.Tables == nil {
		return nil, ErrNoTables
	}
	return &s, nil
}

// FromValue decodes a schema resource already decoded as generic JSON
// (map[string]any), as MCP clients hold resources.
func FromValue(v any) (*Schema, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("parse schema: %w", err)
	}
	return Parse(data)
}

// IsResource reports whether a resource decoded as generic JSON is a
// schema by its shape: an object whose "tables" is a non-empty array of
// objects, the first with "columns".
func IsResource(obj map[string]any) bool {
	tbls, ok := obj["tables"].([]any)
	if !ok || len(tbls) == 0 {
		return false
	}
	t0, ok := tbls[0].(map[string]any)
	if !ok {
		return false
	}
	_, ok = t0["columns"]
	return ok
}

// FromResources returns the first of a server's resources (URI → generic
// JSON), in URI order, that is a schema (IsResource) and parses; nil when
// none is.
func FromResources(res map[string]any) *Schema {
	uris := make([]string, 0, len(res))
	for u := range res {
		uris = append(uris, u)
	}
	sort.Strings(uris)
	for _, u := range uris {
		obj, ok := res[u].(map[string]any)
		if !ok || !IsResource(obj) {
			continue
		}
		if s, err := FromValue(obj); err == nil {
			return s
		}
	}
	return nil
}

// UnmarshalJSON decodes a schema; a source that is not a string is left
// empty.
func (s *Schema) UnmarshalJSON(data []byte) error {
	type plain Schema
	var p struct {
		plain
		Source json.RawMessage `json:"source"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*s = Schema(p.plain)
	s.Source = lenientString(p.Source)
	return nil
}

// UnmarshalJSON decodes a table. Servers other than database-mcp vary in
// the parts no reader relies on, so those are read leniently: a missing or
// null row_count is -1 (unknown), a whole-valued float is taken as a count,
// and a comment or indexes of another shape are left empty.
func (t *Table) UnmarshalJSON(data []byte) error {
	type plain Table
	var p struct {
		plain
		RowCount json.RawMessage `json:"row_count"`
		Comment  json.RawMessage `json:"comment"`
		Indexes  json.RawMessage `json:"indexes"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*t = Table(p.plain)
	t.RowCount = -1
	if len(p.RowCount) > 0 && string(p.RowCount) != "null" {
		if json.Unmarshal(p.RowCount, &t.RowCount) != nil {
			var f float64
			if json.Unmarshal(p.RowCount, &f) != nil || f != math.Trunc(f) {
				return fmt.Errorf("table %q: row_count %s is not a whole number", t.Name, p.RowCount)
			}
			t.RowCount = int64(f)
		}
	}
	t.Comment = lenientString(p.Comment)
	if json.Unmarshal(p.Indexes, &t.Indexes) != nil {
		t.Indexes = nil
	}
	return nil
}

// UnmarshalJSON decodes a column; a comment that is not a string is left
// empty.
func (c *Column) UnmarshalJSON(data []byte) error {
	type plain Column
	var p struct {
		plain
		Comment json.RawMessage `json:"comment"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*c = Column(p.plain)
	c.Comment = lenientString(p.Comment)
	return nil
}

// lenientString is a JSON string's value, "" for anything else.
func lenientString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// UnmarshalJSON decodes a list of values, keeping the strings.
func (v *Values) UnmarshalJSON(data []byte) error {
	var raw []any
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if raw == nil {
		*v = nil
		return nil
	}
	out := make(Values, 0, len(raw))
	for _, x := range raw {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	*v = out
	return nil
}

// QualifiedName is the name the table goes by in SQL and in catalogs:
// "schema.table" when it has a schema, else its name.
func (t *Table) QualifiedName() string {
	if t.Schema == "" {
		return t.Name
	}
	return t.Schema + "." + t.Name
}

// View reports whether the table is a view.
func (t *Table) View() bool { return t.Kind == KindView }

// Table returns the table named name — its qualified name, else its bare
// name — matched exactly first, then ignoring case; nil when none is.
func (s *Schema) Table(name string) *Table {
	for _, exact := range []bool{true, false} {
		same := strings.EqualFold
		if exact {
			same = func(a, b string) bool { return a == b }
		}
		for i := range s.Tables {
			if same(s.Tables[i].QualifiedName(), name) {
				return &s.Tables[i]
			}
		}
		for i := range s.Tables {
			if same(s.Tables[i].Name, name) {
				return &s.Tables[i]
			}
		}
	}
	return nil
}

// Column returns the column named name, matched exactly first, then
// ignoring case; nil when none is.
func (t *Table) Column(name string) *Column {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	for i := range t.Columns {
		if strings.EqualFold(t.Columns[i].Name, name) {
			return &t.Columns[i]
		}
	}
	return nil
}

// PrimaryKey is the names of the table's primary-key columns, in order.
func (t *Table) PrimaryKey() []string {
	var out []string
	for _, c := range t.Columns {
		if c.PrimaryKey {
			out = append(out, c.Name)
		}
	}
	return out
}

// Composite reports whether the key joins on more than one column.
func (fk ForeignKey) Composite() bool { return strings.Contains(fk.Column, ",") }

// Edge is a foreign key with both its ends resolved to tables of the
// schema.
type Edge struct {
	From, To *Table
	Key      ForeignKey
}

// Edges are the schema's foreign keys whose referenced table is in the
// schema (Referenced), in table order then key order.
func (s *Schema) Edges() []Edge {
	var out []Edge
	for i := range s.Tables {
		t := &s.Tables[i]
		for _, fk := range t.ForeignKeys {
			if to := s.Referenced(t, fk.ReferencesTable); to != nil {
				out = append(out, Edge{From: t, To: to, Key: fk})
			}
		}
	}
	return out
}

// Referenced resolves the table a foreign key of from names: the table of
// that qualified name, else the one of that name in from's own schema,
// else one of that bare name (Table); nil when none is.
func (s *Schema) Referenced(from *Table, name string) *Table {
	for i := range s.Tables {
		if s.Tables[i].QualifiedName() == name {
			return &s.Tables[i]
		}
	}
	if from != nil && from.Schema != "" {
		for i := range s.Tables {
			if s.Tables[i].Schema == from.Schema && s.Tables[i].Name == name {
				return &s.Tables[i]
			}
		}
	}
	return s.Table(name)
}
