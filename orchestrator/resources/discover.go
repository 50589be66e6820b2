package resources

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"talk2tables/config"
	"talk2tables/jsonval"
	"talk2tables/orchestrator/executor"
	"talk2tables/orchestrator/mcpclient"
	"talk2tables/schema"
)

// Schema discovery: a third-party executor (DBHub's execute_sql, …) often
// offers no resources at all, so neither the offline planner nor the LLM
// prompt would see a single table. When an executor's own resources hold no
// schema, one is discovered through the executor itself and cached with its
// resources (same TTL, same invalidation), under discoveredSchemaURI, in the
// shape of the schema resource (docs/contracts.md §2) so every consumer
// reads it unchanged:
//
//   - by SQL in the executor's dialect (configured, else recognised by which
//     version function answers): SQLite's sqlite_master and
//     pragma_table_info / pragma_foreign_key_list; PostgreSQL's
//     information_schema.columns, with keys from pg_constraint (its
//     information_schema shows constraints only to roles that may write the
//     table, and a read-only role should not); MySQL's information_schema;
//     row counts (capped at discoveryCountCap outside SQLite) and the values
//     of text columns with at most 10 of them, as database-mcp gives;
//   - else through the executor's search tool (a tool taking object_type
//     "table", as DBHub's search_objects does): tables, columns, types,
//     nullability, primary keys and row counts, no foreign keys.
//
// /api/servers says where each executor's schema came from (SchemaSource).

// discoveredSchemaURI is where a discovered schema sits among the
// executor's resources.
const discoveredSchemaURI = "discovered://schema"

// Discovery bounds.
const (
	discoveryMaxRows   = 1000      // rows asked of each discovery statement
	discoveryBatch     = 40        // tables per row-count statement, text columns per values statement
	discoveryCountCap  = 1_000_000 // rows counted per table outside SQLite; values listed only below it
	maxDiscoveryValues = 10        // distinct values listed for a text column (as database-mcp)
)

// discovers reports whether schema discovery applies to the server: an
// executor whose schema_discovery is not off.
func discovers(c *mcpclient.Conn) bool {
	return c.Config().HasCapability(config.CapExecuteQuery) && c.Config().SchemaDiscovery != config.DiscoveryOff
}

// discoveredDoc is the schema resource's shape (docs/contracts.md §2) plus
// where it came from; the dialect and database are left out when unknown.
type discoveredDoc struct {
	Dialect  string             `json:"dialect,omitempty"`
	Today    string             `json:"today"`
	Database string             `json:"database,omitempty"`
	Source   string             `json:"source"`
	Tables   []*discoveredTable `json:"tables"`
}

// discoveredTable is a table being discovered: its schema entry, and
// where its columns are.
type discoveredTable struct {
	schema.Table
	textCols []int          // columns whose values may be listed
	byName   map[string]int // column name → index in Columns
}

func newDiscoveredTable(name, nsp string) *discoveredTable {
	return &discoveredTable{Table: schema.Table{Name: name, Schema: nsp, Columns: []schema.Column{},
		ForeignKeys: []schema.ForeignKey{}, Indexes: []schema.Index{}}, byName: map[string]int{}}
}

// typed is the discovered schema as readers take it.
func (doc *discoveredDoc) typed() *schema.Schema {
	s := &schema.Schema{Dialect: doc.Dialect, Today: doc.Today, Database: doc.Database, Source: doc.Source,
		Tables: make([]schema.Table, len(doc.Tables))}
	for i, t := range doc.Tables {
		s.Tables[i] = t.Table
	}
	return s
}

// addSchema discovers the executor's schema into values (its resources just
// read) when none of them is a schema, and records the schema's source. It
// returns the schema parsed: the resource's, or the one discovered; nil when
// there is none. A failed discovery is logged; the resources are kept
// without it.
func (rc *Cache) addSchema(ctx context.Context, c *mcpclient.Conn, values map[string]any) *schema.Schema {
	for uri, v := range values {
		if obj, ok := v.(map[string]any); ok && schema.IsResource(obj) {
			c.SetSchemaSource("resource " + uri)
			return schema.FromResources(values)
		}
	}
	if !discovers(c) {
		c.SetSchemaSource("")
		return nil
	}
	t0 := time.Now()
	doc, err := rc.discoverSchema(ctx, c)
	if err != nil {
		c.SetSchemaSource("")
		c.Log().Warn("schema discovery failed", "event", "schema_discovery_failed", "component", "discovery",
			"duration_ms", ms(time.Since(t0)), "error", err.Error())
		return nil
	}
	var v any
	if err := convertJSON(doc, &v); err != nil {
		return nil
	}
	values[discoveredSchemaURI] = v
	c.SetSchemaSource(doc.Source)
	c.Log().Info("schema discovered", "event", "schema_discovered", "component", "discovery",
		"duration_ms", ms(time.Since(t0)), "source", doc.Source, "tables", len(doc.Tables), "dialect", doc.Dialect)
	return doc.typed()
}

// discoverSchema runs the configured way of discovery (schema_discovery).
func (rc *Cache) discoverSchema(ctx context.Context, c *mcpclient.Conn) (*discoveredDoc, error) {
	mode := c.Config().SchemaDiscovery
	var sqlErr error
	if mode == "" || mode == config.DiscoveryAuto || mode == config.DiscoverySQL {
		doc, err := rc.discoverBySQL(ctx, c)
		if err == nil || mode == config.DiscoverySQL {
			return doc, err
		}
		sqlErr = err
	}
	tool := c.SearchTool()
	if tool == "" {
		if sqlErr != nil {
			return nil, fmt.Errorf("by SQL: %w; and the server has no search tool (a tool taking object_type \"table\")", sqlErr)
		}
		return nil, errors.New("the server has no search tool (a tool taking object_type \"table\"); set schema_discovery: sql or auto")
	}
	doc, err := rc.discoverBySearch(ctx, c, tool)
	if err != nil && sqlErr != nil {
		return nil, fmt.Errorf("by SQL: %v; by %s: %w", sqlErr, tool, err)
	}
	return doc, err
}

// discoveryQuery runs one discovery statement through the executor's SQL
// tool and returns its rows as maps keyed by lower-case column name.
func (rc *Cache) discoveryQuery(ctx context.Context, c *mcpclient.Conn, sql string) ([]map[string]any, error) {
	tool, arg := c.Config().ExecuteTool()
	args := map[string]any{arg: sql}
	if name := c.LimitArgument(tool); name != "" {
		args[name] = discoveryMaxRows
	}
	d, _, err := rc.exec.Query(ctx, c, tool, args, sql)
	if err != nil {
		return nil, err
	}
	out := make([]map[string]any, len(d.Rows))
	for i, r := range d.Rows {
		m := make(map[string]any, len(d.Columns))
		for j, col := range d.Columns {
			if j < len(r) {
				m[strings.ToLower(col)] = r[j]
			}
		}
		out[i] = m
	}
	return out, nil
}

// num reads a discovery value as an integer (0 for NULL or text that is no
// number; booleans as 0/1).
func num(v any) int64 {
	switch x := v.(type) {
	case float64:
		return int64(x)
	case bool:
		if x {
			return 1
		}
	case string:
		var n int64
		if _, err := fmt.Sscan(x, &n); err == nil {
			return n
		}
	}
	return 0
}

// sqlDialect holds what discovery writes differently per engine.
type sqlDialect struct {
	name     string
	quote    func(string) string
	textType string // CAST(x AS <textType>)
	// statements
	database, columns, primaryKeys, foreignKeys, today string
	exactCounts                                        bool // COUNT(*) is cheap (SQLite)
	hiddenSchemas                                      []string
}

func quoteDouble(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
func quoteBacktick(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

var sqliteDiscovery = sqlDialect{
	name: config.DialectSQLite, quote: quoteDouble, textType: "TEXT", exactCounts: true,
	database: "SELECT file AS db FROM pragma_database_list WHERE name = 'main'",
	columns: `SELECT m.name AS table_name, '' AS table_schema, m.type AS table_type, p.name AS column_name,
 p.type AS data_type, CASE WHEN p."notnull" = 0 AND p.pk = 0 THEN 'YES' ELSE 'NO' END AS is_nullable, p.pk AS pk
FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p
WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\'
ORDER BY m.type = 'view', m.name, p.cid`,
	foreignKeys: `SELECT m.name AS table_name, '' AS table_schema, f.id AS fk_name, f."from" AS column_name,
 f."table" AS ref_table, '' AS ref_schema, f."to" AS ref_column
FROM sqlite_master AS m JOIN pragma_foreign_key_list(m.name) AS f
WHERE m.type = 'table' ORDER BY m.name, f.id, f.seq`,
	today: "SELECT date('now') AS today",
}

var postgresDiscovery = sqlDialect{
	name: config.DialectPostgres, quote: quoteDouble, textType: "TEXT", hiddenSchemas: []string{"public"},
	database: "SELECT current_database() AS db",
	columns: `SELECT c.table_schema AS table_schema, c.table_name AS table_name, t.table_type AS table_type,
 c.column_name AS column_name, CASE WHEN c.data_type IN ('USER-DEFINED', 'ARRAY') THEN c.udt_name ELSE c.data_type END AS data_type,
 c.is_nullable AS is_nullable
FROM information_schema.columns AS c
JOIN information_schema.tables AS t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema') AND c.table_schema NOT LIKE 'pg\_%'
ORDER BY c.table_schema <> 'public', c.table_schema, t.table_type <> 'BASE TABLE', c.table_name, c.ordinal_position`,
	primaryKeys: `SELECT n.nspname AS table_schema, r.relname AS table_name, a.attname AS column_name
FROM pg_constraint AS k JOIN pg_class AS r ON r.oid = k.conrelid JOIN pg_namespace AS n ON n.oid = r.relnamespace
JOIN pg_attribute AS a ON a.attrelid = k.conrelid AND a.attnum = ANY (k.conkey)
WHERE k.contype = 'p' AND n.nspname NOT IN ('pg_catalog', 'information_schema')`,
	foreignKeys: `SELECT n.nspname AS table_schema, r.relname AS table_name, k.conname AS fk_name, a.attname AS column_name,
 fn.nspname AS ref_schema, f.relname AS ref_table, fa.attname AS ref_column
FROM pg_constraint AS k
JOIN pg_class AS r ON r.oid = k.conrelid JOIN pg_namespace AS n ON n.oid = r.relnamespace
JOIN pg_class AS f ON f.oid = k.confrelid JOIN pg_namespace AS fn ON fn.oid = f.relnamespace
CROSS JOIN LATERAL unnest(k.conkey, k.confkey) WITH ORDINALITY AS u(col, refcol, i)
JOIN pg_attribute AS a ON a.attrelid = k.conrelid AND a.attnum = u.col
JOIN pg_attribute AS fa ON fa.attrelid = k.confrelid AND fa.attnum = u.refcol
WHERE k.contype = 'f' AND n.nspname NOT IN ('pg_catalog', 'information_schema')
ORDER BY 1, 2, 3, u.i`,
	today: "SELECT CAST(CURRENT_DATE AS TEXT) AS today",
}

var mysqlDiscovery = sqlDialect{
	name: config.DialectMySQL, quote: quoteBacktick, textType: "CHAR",
	database: "SELECT DATABASE() AS db",
	columns: `SELECT '' AS table_schema, c.table_name AS table_name, t.table_type AS table_type, c.column_name AS column_name,
 c.column_type AS data_type, c.is_nullable AS is_nullable, CASE WHEN c.column_key = 'PRI' THEN 1 ELSE 0 END AS pk
FROM information_schema.columns AS c
JOIN information_schema.tables AS t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
WHERE c.table_schema = DATABASE()
ORDER BY t.table_type <> 'BASE TABLE', c.table_name, c.ordinal_position`,
	foreignKeys: `SELECT '' AS table_schema, table_name AS table_name, constraint_name AS fk_name, column_name AS column_name,
 '' AS ref_schema, referenced_table_name AS ref_table, referenced_column_name AS ref_column
FROM information_schema.key_column_usage
WHERE table_schema = DATABASE() AND referenced_table_name IS NOT NULL
ORDER BY table_name, constraint_name, ordinal_position`,
	today: "SELECT CAST(CURRENT_DATE AS CHAR) AS today",
}

// dialectFor returns the discovery statements of a dialect name.
func dialectFor(name string) (sqlDialect, bool) {
	switch name {
	case config.DialectSQLite:
		return sqliteDiscovery, true
	case config.DialectPostgres:
		return postgresDiscovery, true
	case config.DialectMySQL:
		return mysqlDiscovery, true
	}
	return sqlDialect{}, false
}

// guessDialect recognises the executor's engine by the version function
// that answers: sqlite_version() is SQLite's alone; version() names
// PostgreSQL (and its wire-compatible engines), else MySQL or MariaDB.
func (rc *Cache) guessDialect(ctx context.Context, c *mcpclient.Conn) (string, error) {
	if _, err := rc.discoveryQuery(ctx, c, "SELECT sqlite_version() AS v"); err == nil {
		return config.DialectSQLite, nil
	} else if !isSQLFailure(err) {
		return "", err
	}
	rows, err := rc.discoveryQuery(ctx, c, "SELECT version() AS v")
	if err != nil {
		return "", fmt.Errorf("neither sqlite_version() nor version() answers (%v); set the server's dialect", err)
	}
	v := ""
	if len(rows) > 0 {
		v = strings.ToLower(jsonval.Text(rows[0]["v"]))
	}
	if strings.Contains(v, "postgres") || strings.Contains(v, "cockroach") || strings.Contains(v, "yugabyte") {
		return config.DialectPostgres, nil
	}
	return config.DialectMySQL, nil
}

// isSQLFailure reports whether err is the executor refusing a statement
// (as opposed to the executor being unreachable).
func isSQLFailure(err error) bool {
	var qe *executor.QueryExecutionError
	return errors.As(err, &qe)
}

// discoverBySQL reads the schema with catalog queries in the executor's
// dialect, as named steps.
func (rc *Cache) discoverBySQL(ctx context.Context, c *mcpclient.Conn) (*discoveredDoc, error) {
	name := c.Config().Dialect
	if name == "" {
		var err error
		if name, err = rc.guessDialect(ctx, c); err != nil {
			return nil, err
		}
	}
	d, _ := dialectFor(name)
	tool, _ := c.Config().ExecuteTool()
	doc := &discoveredDoc{Dialect: d.name, Source: fmt.Sprintf("discovered via %s (%s)", tool, d.name), Tables: []*discoveredTable{}}
	tables, err := rc.discoverColumns(ctx, c, d)
	if err != nil {
		return nil, fmt.Errorf("list columns: %w", err)
	}
	doc.Tables = tables
	if err := rc.discoverKeys(ctx, c, d, tables); err != nil {
		return nil, fmt.Errorf("read keys: %w", err)
	}
	rc.discoverCounts(ctx, c, d, tables)
	rc.discoverValues(ctx, c, d, tables)
	doc.Today = rc.discoverToday(ctx, c, d)
	if rows, err := rc.discoveryQuery(ctx, c, d.database); err == nil && len(rows) > 0 {
		doc.Database = path.Base(jsonval.Text(rows[0]["db"]))
	}
	return doc, nil
}

// discoverColumns lists tables and views with their columns, in the order
// the statement gives (tables, then views; PostgreSQL's public first).
func (rc *Cache) discoverColumns(ctx context.Context, c *mcpclient.Conn, d sqlDialect) ([]*discoveredTable, error) {
	rows, err := rc.discoveryQuery(ctx, c, d.columns)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errors.New("the database has no tables the executor can see")
	}
	var tables []*discoveredTable
	byKey := map[string]*discoveredTable{}
	for _, r := range rows {
		if jsonval.Text(r["table_name"]) == "" || jsonval.Text(r["column_name"]) == "" {
			return nil, fmt.Errorf("the catalog statement answered rows without table_name and column_name (%v); "+
				"the executor did not run it as %s; set the server's dialect or schema_discovery", r, d.name)
		}
		nsp := jsonval.Text(r["table_schema"])
		if slicesContains(d.hiddenSchemas, nsp) {
			nsp = ""
		}
		key := nsp + "." + jsonval.Text(r["table_name"])
		t := byKey[key]
		if t == nil {
			t = newDiscoveredTable(jsonval.Text(r["table_name"]), nsp)
			if k := strings.ToLower(jsonval.Text(r["table_type"])); k == "view" || strings.Contains(k, "view") {
				t.Kind, t.RowCount = schema.KindView, -1
			}
			byKey[key] = t
			tables = append(tables, t)
		}
		col := schema.Column{Name: jsonval.Text(r["column_name"]), Type: jsonval.Text(r["data_type"]),
			Nullable: strings.EqualFold(jsonval.Text(r["is_nullable"]), "YES"), PrimaryKey: num(r["pk"]) > 0}
		t.Columns = append(t.Columns, col)
		t.byName[col.Name] = len(t.Columns) - 1
		if t.Kind == "" && isTextType(col.Type) {
			t.textCols = append(t.textCols, len(t.Columns)-1)
		}
	}
	return tables, nil
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isTextType reports whether a declared type holds text (SQLite's affinity
// rule — CHAR, CLOB, TEXT — which also covers PostgreSQL's and MySQL's
// names), or is a PostgreSQL/MySQL enum.
func isTextType(t string) bool {
	u := strings.ToUpper(t)
	return strings.Contains(u, "CHAR") || strings.Contains(u, "CLOB") || strings.Contains(u, "TEXT") ||
		strings.HasPrefix(u, "ENUM")
}

// discoverKeys marks primary keys (when the columns statement did not) and
// reads foreign keys; a reference without a column means the referenced
// table's primary key.
func (rc *Cache) discoverKeys(ctx context.Context, c *mcpclient.Conn, d sqlDialect, tables []*discoveredTable) error {
	find := func(nsp, name string) *discoveredTable {
		if slicesContains(d.hiddenSchemas, nsp) {
			nsp = ""
		}
		for _, t := range tables {
			if t.Name == name && t.Schema == nsp {
				return t
			}
		}
		return nil
	}
	if d.primaryKeys != "" {
		rows, err := rc.discoveryQuery(ctx, c, d.primaryKeys)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if t := find(jsonval.Text(r["table_schema"]), jsonval.Text(r["table_name"])); t != nil {
				if i, ok := t.byName[jsonval.Text(r["column_name"])]; ok {
					t.Columns[i].PrimaryKey, t.Columns[i].Nullable = true, false
				}
			}
		}
	}
	rows, err := rc.discoveryQuery(ctx, c, d.foreignKeys)
	if err != nil {
		return err
	}
	type fkKey struct {
		t    *discoveredTable
		name string
	}
	var order []fkKey
	groups := map[fkKey]*schema.ForeignKey{}
	for _, r := range rows {
		t := find(jsonval.Text(r["table_schema"]), jsonval.Text(r["table_name"]))
		if t == nil {
			continue
		}
		k := fkKey{t, jsonval.Text(r["fk_name"])}
		fk := groups[k]
		refTable := jsonval.Text(r["ref_table"])
		if rs := jsonval.Text(r["ref_schema"]); rs != "" && !slicesContains(d.hiddenSchemas, rs) {
			refTable = rs + "." + refTable
		}
		if fk == nil {
			fk = &schema.ForeignKey{ReferencesTable: refTable}
			groups[k] = fk
			order = append(order, k)
		} else {
			fk.Column += ","
			fk.ReferencesColumn += ","
		}
		fk.Column += jsonval.Text(r["column_name"])
		ref := jsonval.Text(r["ref_column"])
		if ref == "" {
			ref = primaryKeyOf(find("", refTable))
		}
		fk.ReferencesColumn += ref
	}
	for _, k := range order {
		k.t.ForeignKeys = append(k.t.ForeignKeys, *groups[k])
	}
	return nil
}

// primaryKeyOf names t's primary key columns, joined by commas.
func primaryKeyOf(t *discoveredTable) string {
	if t == nil {
		return ""
	}
	return strings.Join(t.PrimaryKey(), ",")
}

// qualified is the table's name in SQL.
func (d sqlDialect) qualified(t *discoveredTable) string {
	if t.Schema != "" {
		return d.quote(t.Schema) + "." + d.quote(t.Name)
	}
	return d.quote(t.Name)
}

// discoverCounts counts the rows of every table, several tables per
// statement (exactly in SQLite, capped at discoveryCountCap elsewhere); a
// statement that fails leaves its tables at -1 (unknown).
func (rc *Cache) discoverCounts(ctx context.Context, c *mcpclient.Conn, d sqlDialect, tables []*discoveredTable) {
	var base []*discoveredTable
	for _, t := range tables {
		if t.Kind == "" {
			t.RowCount = -1
			base = append(base, t)
		}
	}
	for start := 0; start < len(base); start += discoveryBatch {
		batch := base[start:min(start+discoveryBatch, len(base))]
		parts := make([]string, len(batch))
		for i, t := range batch {
			from := d.qualified(t)
			if !d.exactCounts {
				from = fmt.Sprintf("(SELECT 1 AS x FROM %s LIMIT %d) AS capped", from, discoveryCountCap)
			}
			parts[i] = fmt.Sprintf("SELECT %d AS i, COUNT(*) AS n FROM %s", i, from)
		}
		rows, err := rc.discoveryQuery(ctx, c, strings.Join(parts, " UNION ALL "))
		if err != nil {
			c.Log().Debug("row counts not discovered", "event", "schema_discovery_failed", "component", "discovery", "error", err.Error())
			continue
		}
		for _, r := range rows {
			if i := num(r["i"]); i >= 0 && int(i) < len(batch) {
				batch[i].RowCount = num(r["n"])
			}
		}
	}
}

// discoverValues lists the distinct values of text columns that have at
// most maxDiscoveryValues of them, in tables under discoveryCountCap rows.
func (rc *Cache) discoverValues(ctx context.Context, c *mcpclient.Conn, d sqlDialect, tables []*discoveredTable) {
	for _, t := range tables {
		if t.Kind != "" || t.RowCount < 0 || t.RowCount >= discoveryCountCap || len(t.textCols) == 0 {
			continue
		}
		for start := 0; start < len(t.textCols); start += discoveryBatch {
			cols := t.textCols[start:min(start+discoveryBatch, len(t.textCols))]
			parts := make([]string, len(cols))
			for i, ci := range cols {
				q := d.quote(t.Columns[ci].Name)
				parts[i] = fmt.Sprintf("SELECT %d AS i, v FROM (SELECT DISTINCT CAST(%s AS %s) AS v FROM %s WHERE %s IS NOT NULL LIMIT %d) AS d%d",
					i, q, d.textType, d.qualified(t), q, maxDiscoveryValues+1, i)
			}
			rows, err := rc.discoveryQuery(ctx, c, strings.Join(parts, " UNION ALL "))
			if err != nil {
				c.Log().Debug("column values not discovered", "event", "schema_discovery_failed", "component", "discovery",
					"table", t.Name, "error", err.Error())
				continue
			}
			vals := make([][]string, len(cols))
			for _, r := range rows {
				if i := num(r["i"]); i >= 0 && int(i) < len(cols) {
					vals[i] = append(vals[i], jsonval.Text(r["v"]))
				}
			}
			for i, ci := range cols {
				if n := len(vals[i]); n > 0 && n <= maxDiscoveryValues {
					sort.Strings(vals[i])
					t.Columns[ci].DistinctValues = vals[i]
				}
			}
		}
	}
}

// discoverToday is the database's current date, else the clock's (UTC).
func (rc *Cache) discoverToday(ctx context.Context, c *mcpclient.Conn, d sqlDialect) string {
	if rows, err := rc.discoveryQuery(ctx, c, d.today); err == nil && len(rows) > 0 {
		if t := jsonval.Text(rows[0]["today"]); len(t) >= 10 {
			return t[:10]
		}
	}
	return time.Now().UTC().Format("2006-01-02")
}

// searchedTable is one table as a search tool describes it (DBHub's
// search_objects with detail_level full).
type searchedTable struct {
	Name     string `json:"name"`
	Schema   string `json:"schema"`
	RowCount *int64 `json:"row_count"`
	Columns  []struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		Nullable *bool  `json:"nullable"`
	} `json:"columns"`
	Indexes []struct {
		Columns []string `json:"columns"`
		Primary bool     `json:"primary"`
	} `json:"indexes"`
}

// discoverBySearch asks the search tool for every table with full detail.
// It gives no foreign keys and no column values; the dialect is the
// configured one, else the one the version functions tell.
func (rc *Cache) discoverBySearch(ctx context.Context, c *mcpclient.Conn, tool string) (*discoveredDoc, error) {
	args := map[string]any{"object_type": "table", "pattern": "%", "detail_level": "full"}
	if name := c.LimitArgument(tool); name != "" {
		args[name] = discoveryMaxRows
	}
	d, _, err := rc.exec.Query(ctx, c, tool, args, "")
	if err != nil {
		return nil, err
	}
	dialect := c.Config().Dialect
	if dialect == "" {
		dialect, _ = rc.guessDialect(ctx, c)
	}
	doc := &discoveredDoc{Dialect: dialect, Today: time.Now().UTC().Format("2006-01-02"),
		Source: "discovered via " + tool, Tables: []*discoveredTable{}}
	if sd, ok := dialectFor(dialect); ok {
		doc.Today = rc.discoverToday(ctx, c, sd)
	}
	for _, row := range d.Rows {
		obj := map[string]any{}
		for i, col := range d.Columns {
			if i < len(row) {
				obj[col] = row[i]
			}
		}
		var st searchedTable
		if convertJSON(obj, &st) != nil || st.Name == "" || len(st.Columns) == 0 {
			continue
		}
		doc.Tables = append(doc.Tables, tableFromSearch(st))
	}
	if len(doc.Tables) == 0 {
		return nil, fmt.Errorf("%s described no table with columns", tool)
	}
	return doc, nil
}

// tableFromSearch converts a searched table to the schema's shape.
func tableFromSearch(st searchedTable) *discoveredTable {
	nsp := st.Schema
	if nsp == "main" || nsp == "public" {
		nsp = ""
	}
	t := newDiscoveredTable(st.Name, nsp)
	t.RowCount = -1
	if st.RowCount != nil {
		t.RowCount = *st.RowCount
	}
	pk := map[string]bool{}
	for _, ix := range st.Indexes {
		if ix.Primary {
			for _, c := range ix.Columns {
				pk[c] = true
			}
		}
	}
	for _, c := range st.Columns {
		col := schema.Column{Name: c.Name, Type: c.Type, Nullable: c.Nullable == nil || *c.Nullable, PrimaryKey: pk[c.Name]}
		if col.PrimaryKey {
			col.Nullable = false
		}
		t.Columns = append(t.Columns, col)
	}
	return t
}

// convertJSON decodes v's JSON encoding into out.
func convertJSON(v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
