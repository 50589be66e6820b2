package databasemcp

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"talk2tables/schema"
)

// Schema returns the database schema read from information_schema: every
// table and view of the DSN's database the user may see. It is cached for
// schemaTTL; Today is the server's CURRENT_DATE (UTC unless the DSN sets
// time_zone), or Options.Today when set.
func (m *MySQL) Schema(ctx context.Context) (*schema.Schema, error) {
	s, err := m.loadSchema(ctx)
	if err != nil {
		return nil, err
	}
	out := *s
	if m.opts.Today != "" {
		out.Today = m.opts.Today
		return &out, nil
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.QueryTimeout)
	defer cancel()
	if err := m.db.QueryRowContext(ctx, "SELECT DATE_FORMAT(CURRENT_DATE, '%Y-%m-%d')").Scan(&out.Today); err != nil {
		return nil, fmt.Errorf("read today's date: %w", err)
	}
	return &out, nil
}

func (m *MySQL) loadSchema(ctx context.Context) (*schema.Schema, error) {
	m.schemaMu.Lock()
	defer m.schemaMu.Unlock()
	if m.schema != nil && time.Since(m.schemaLoaded) < schemaTTL {
		return m.schema, nil
	}
	c, err := m.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	r := &mySchemaReader{m: m, conn: c, tables: map[string]*myTable{}}
	s, err := r.read(ctx)
	if err != nil {
		return nil, err
	}
	m.schema, m.schemaLoaded = s, time.Now()
	return s, nil
}

// myTable is a table being read, with what the later steps need.
type myTable struct {
	schema.Table
	view     bool
	estimate int64
	textCols []int
	enums    map[int][]string
}

// mySchemaReader reads the schema resource from information_schema in a
// handful of queries (one per kind of thing, not one per table).
type mySchemaReader struct {
	m      *MySQL
	conn   *sql.Conn
	order  []*myTable
	tables map[string]*myTable
}

func (r *mySchemaReader) read(ctx context.Context) (*schema.Schema, error) {
	s := &schema.Schema{Dialect: "mysql", Tables: []schema.Table{}}
	if err := r.conn.QueryRowContext(ctx, "SELECT DATABASE()").Scan(&s.Database); err != nil {
		return nil, err
	}
	steps := []struct {
		what string
		fn   func(context.Context) error
	}{
		{"list tables", r.listTables},
		{"read columns", r.readColumns},
		{"read keys", r.readKeys},
		{"read indexes", r.readIndexes},
		{"count rows", r.countRows},
		{"read distinct values", r.readDistinctValues},
	}
	for _, st := range steps {
		if err := st.fn(ctx); err != nil {
			return nil, fmt.Errorf("%s: %w", st.what, err)
		}
	}
	for _, t := range r.order {
		s.Tables = append(s.Tables, t.Table)
	}
	return s, nil
}

// listTables lists the tables and views of the database (MariaDB's
// sequences are left out).
func (r *mySchemaReader) listTables(ctx context.Context) error {
	rows, err := r.conn.QueryContext(ctx, r.catalog(`
SELECT TABLE_NAME, TABLE_TYPE, COALESCE(TABLE_ROWS, -1), COALESCE(TABLE_COMMENT, '')
FROM information_schema.TABLES
WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE IN ('BASE TABLE', 'VIEW', 'SYSTEM VERSIONED')
ORDER BY TABLE_NAME`))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var name, kind, comment string
		var est int64
		if err := rows.Scan(&name, &kind, &est, &comment); err != nil {
			return err
		}
		t := &myTable{estimate: est, enums: map[int][]string{},
			Table: schema.Table{Name: name, Columns: []schema.Column{}, ForeignKeys: []schema.ForeignKey{}, Indexes: []schema.Index{}}}
		if kind == "VIEW" {
			t.view, t.Kind, t.RowCount = true, schema.KindView, -1
		} else {
			t.Comment = comment
		}
		r.order = append(r.order, t)
		r.tables[name] = t
	}
	return rows.Err()
}

// readColumns reads the columns with their types, nullability, keys and
// comments; text columns are marked for distinct values, ENUM columns keep
// their labels.
func (r *mySchemaReader) readColumns(ctx context.Context) error {
	rows, err := r.conn.QueryContext(ctx, r.catalog(`
SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, DATA_TYPE, IS_NULLABLE, COLUMN_KEY, COALESCE(COLUMN_COMMENT, '')
FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var table, name, typ, dataType, nullable, key, comment string
		if err := rows.Scan(&table, &name, &typ, &dataType, &nullable, &key, &comment); err != nil {
			return err
		}
		t, ok := r.tables[table]
		if !ok {
			continue
		}
		c := schema.Column{Name: name, Type: typ, Nullable: nullable == "YES", PrimaryKey: key == "PRI" && !t.view, Comment: comment}
		t.Columns = append(t.Columns, c)
		i := len(t.Columns) - 1
		switch strings.ToLower(dataType) {
		case "enum":
			t.enums[i] = enumLabels(typ)
		case "char", "varchar", "tinytext", "text", "mediumtext", "longtext":
			t.textCols = append(t.textCols, i)
		}
	}
	return rows.Err()
}

// enumLabels reads the labels of an ENUM column type, such as enum('a','b'),
// where a doubled quote is a quote.
func enumLabels(colType string) []string {
	open, end := strings.IndexByte(colType, '('), strings.LastIndexByte(colType, ')')
	if open < 0 || end <= open {
		return nil
	}
	var out []string
	body := colType[open+1 : end]
	for i := 0; i < len(body); i++ {
		if body[i] != '\'' {
			continue
		}
		var b strings.Builder
		for i++; i < len(body); i++ {
			if body[i] == '\'' {
				if i+1 < len(body) && body[i+1] == '\'' {
					b.WriteByte('\'')
					i++
					continue
				}
				break
			}
			b.WriteByte(body[i])
		}
		out = append(out, b.String())
	}
	return out
}

// readKeys reads the foreign keys between listed tables (composite ones as
// "a,b").
func (r *mySchemaReader) readKeys(ctx context.Context) error {
	rows, err := r.conn.QueryContext(ctx, r.catalog(`
SELECT TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME
FROM information_schema.KEY_COLUMN_USAGE
WHERE TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME IS NOT NULL
ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`))
	if err != nil {
		return err
	}
	defer rows.Close()
	type key struct{ table, name string }
	fks := map[key]*schema.ForeignKey{}
	var order []key
	for rows.Next() {
		var table, name, col, refTable, refCol string
		if err := rows.Scan(&table, &name, &col, &refTable, &refCol); err != nil {
			return err
		}
		if r.tables[table] == nil || r.tables[refTable] == nil {
			continue
		}
		k := key{table, name}
		if fk, ok := fks[k]; ok {
			fk.Column += "," + col
			fk.ReferencesColumn += "," + refCol
			continue
		}
		fks[k] = &schema.ForeignKey{Column: col, ReferencesTable: refTable, ReferencesColumn: refCol}
		order = append(order, k)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, k := range order {
		t := r.tables[k.table]
		t.ForeignKeys = append(t.ForeignKeys, *fks[k])
	}
	return nil
}

// readIndexes reads the indexes other than the primary key and those that
// back a UNIQUE or FOREIGN KEY constraint (as SQLite's automatic indexes are
// left out); an expression part shows as "<expression>".
func (r *mySchemaReader) readIndexes(ctx context.Context) error {
	rows, err := r.conn.QueryContext(ctx, r.catalog(`
SELECT s.TABLE_NAME, s.INDEX_NAME, s.NON_UNIQUE, COALESCE(s.COLUMN_NAME, '<expression>')
FROM information_schema.STATISTICS s
WHERE s.TABLE_SCHEMA = DATABASE() AND s.INDEX_NAME <> 'PRIMARY'
  AND NOT EXISTS (SELECT 1 FROM information_schema.TABLE_CONSTRAINTS k
    WHERE k.TABLE_SCHEMA = s.TABLE_SCHEMA AND k.TABLE_NAME = s.TABLE_NAME AND k.CONSTRAINT_NAME = s.INDEX_NAME
      AND k.CONSTRAINT_TYPE IN ('UNIQUE', 'FOREIGN KEY'))
ORDER BY s.TABLE_NAME, s.INDEX_NAME, s.SEQ_IN_INDEX`))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var table, name, col string
		var nonUnique int
		if err := rows.Scan(&table, &name, &nonUnique, &col); err != nil {
			return err
		}
		t := r.tables[table]
		if t == nil {
			continue
		}
		if n := len(t.Indexes); n > 0 && t.Indexes[n-1].Name == name {
			t.Indexes[n-1].Columns = append(t.Indexes[n-1].Columns, col)
			continue
		}
		t.Indexes = append(t.Indexes, schema.Index{Name: name, Columns: []string{col}, Unique: nonUnique == 0})
	}
	return rows.Err()
}

// countRows counts each table's rows exactly, up to countLimit and within
// distinctTimeout; a larger or slower table reports InnoDB's estimate.
func (r *mySchemaReader) countRows(ctx context.Context) error {
	for _, t := range r.order {
		if t.view {
			continue
		}
		t.RowCount = t.estimate
		q := fmt.Sprintf("SELECT COUNT(*) FROM (SELECT 1 FROM %s LIMIT %d) s", quoteMySQL(t.Name), countLimit+1)
		var n int64
		if err := r.bounded(ctx, q, func(rows *sql.Rows) error { return rows.Scan(&n) }); err == nil && n <= countLimit {
			t.RowCount = n
		}
	}
	return nil
}

// readDistinctValues lists the values of low-cardinality text columns: ENUM
// labels, else SELECT DISTINCT bounded by distinctTimeout. Views get none:
// sampling one runs its whole query (as for SQLite's views).
func (r *mySchemaReader) readDistinctValues(ctx context.Context) error {
	for _, t := range r.order {
		for i, labels := range t.enums {
			if len(labels) > 0 && len(labels) <= maxDistinctValues {
				sort.Strings(labels)
				t.Columns[i].DistinctValues = labels
			}
		}
		if t.view {
			continue
		}
		for _, i := range t.textCols {
			c := &t.Columns[i]
			q := fmt.Sprintf("SELECT DISTINCT %[1]s FROM %[2]s WHERE %[1]s IS NOT NULL LIMIT %[3]d",
				quoteMySQL(c.Name), quoteMySQL(t.Name), maxDistinctValues+1)
			var vals []string
			err := r.bounded(ctx, q, func(rows *sql.Rows) error {
				var v string
				if err := rows.Scan(&v); err != nil {
					return err
				}
				vals = append(vals, v)
				return nil
			})
			if err == nil && len(vals) > 0 && len(vals) <= maxDistinctValues {
				sort.Strings(vals)
				c.DistinctValues = vals
			}
		}
	}
	return nil
}

// catalog is an information_schema query under the schema timeout instead
// of the session's statement timeout (which is the analysts' queries').
func (r *mySchemaReader) catalog(q string) string { return r.m.withTimeout(q, schemaTimeout) }

// withTimeout is the SELECT q with its own statement timeout d.
func (m *MySQL) withTimeout(q string, d time.Duration) string {
	if m.mariadb {
		return fmt.Sprintf("SET STATEMENT max_statement_time = %g FOR %s", d.Seconds(), strings.TrimSpace(q))
	}
	return strings.Replace(q, "SELECT", fmt.Sprintf("SELECT /*+ MAX_EXECUTION_TIME(%d) */", d.Milliseconds()), 1)
}

// bounded runs one of the reader's own SELECTs in a read-only transaction
// whose statement stops after distinctTimeout, calling each for every row.
func (r *mySchemaReader) bounded(ctx context.Context, q string, each func(*sql.Rows) error) error {
	q = r.m.withTimeout(q, distinctTimeout)
	return r.m.inReadOnly(ctx, r.conn, func(ctx context.Context) error {
		rows, err := r.conn.QueryContext(ctx, q)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if err := each(rows); err != nil {
				return err
			}
		}
		return rows.Err()
	})
}

// quoteMySQL quotes an identifier with backticks.
func quoteMySQL(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// dataVersionTTL is how long a data version is reused before
// information_schema is read again.
const dataVersionTTL = time.Second

// dataVersionTimeout bounds reading the data version.
const dataVersionTimeout = 5 * time.Second

// DataVersion names the database's content as far as the server tells it
// without reading the data: a hash of every table's name, creation time,
// last update time (information_schema.TABLES.UPDATE_TIME) and row
// estimate, plus the server's GTID position when it keeps one. It changes
// when a table is written, created, dropped or replaced. Its limits: the
// update time has a one-second resolution and, for InnoDB, lives in memory
// (after a restart it is NULL until the next write), so two writes within
// the same second as the previous reading can go unnoticed until the next
// write or the cache's TTL; a table without UPDATE_TIME support changes the
// version only through its estimate. "" when it cannot be read (results
// are then cached by TTL only). It is read at most once per second.
func (m *MySQL) DataVersion(ctx context.Context) string {
	m.verMu.Lock()
	defer m.verMu.Unlock()
	if m.ver != "" && time.Since(m.verAt) < dataVersionTTL {
		return m.ver
	}
	ctx, cancel := context.WithTimeout(ctx, dataVersionTimeout)
	defer cancel()
	gtid := "@@GLOBAL.gtid_executed"
	if m.mariadb {
		gtid = "@@GLOBAL.gtid_binlog_pos"
	}
	h := sha256.New()
	var pos sql.NullString
	if err := m.db.QueryRowContext(ctx, "SELECT "+gtid).Scan(&pos); err != nil {
		return ""
	}
	h.Write([]byte(pos.String))
	rows, err := m.db.QueryContext(ctx, m.withTimeout(`SELECT TABLE_NAME, COALESCE(CAST(CREATE_TIME AS CHAR), ''),
  COALESCE(CAST(UPDATE_TIME AS CHAR), ''), COALESCE(TABLE_ROWS, -1)
FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE <> 'VIEW' ORDER BY TABLE_NAME`, dataVersionTimeout))
	if err != nil {
		return ""
	}
	defer rows.Close()
	for rows.Next() {
		var name, created, updated string
		var est int64
		if err := rows.Scan(&name, &created, &updated, &est); err != nil {
			return ""
		}
		fmt.Fprintf(h, "|%s:%s:%s:%d", name, created, updated, est)
	}
	if rows.Err() != nil {
		return ""
	}
	m.ver, m.verAt = hex.EncodeToString(h.Sum(nil)[:8]), time.Now()
	return m.ver
}

// MySQLWatchInterval is how often NotifyDataChanges reads a MySQL data
// version (a query on information_schema, so less often than a file stat).
const MySQLWatchInterval = 5 * time.Second

// Watch reads the data version every interval until ctx is done and calls
// changed with it whenever it differs from the last one read.
func (m *MySQL) Watch(ctx context.Context, interval time.Duration, changed func(version string)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	last := m.DataVersion(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if v := m.DataVersion(ctx); v != "" && v != last {
			last = v
			m.schemaMu.Lock()
			m.schema = nil // row counts and values change with the data
			m.schemaMu.Unlock()
			changed(v)
		}
	}
}
