package databasemcp

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"talk2tables/schema"
)

// maxDistinctValues is the most distinct values a TEXT column may have for
// the schema to list them.
const maxDistinctValues = 10

// Schema returns the database schema. Everything but Today is read once and
// cached (the database is read-only); Today is SQLite's date('now'), or
// Options.Today when set.
func (db *DB) Schema(ctx context.Context) (*schema.Schema, error) {
	s, err := db.loadSchema(ctx)
	if err != nil {
		return nil, err
	}
	out := *s
	if db.opts.Today != "" {
		out.Today = db.opts.Today
		return &out, nil
	}
	ctx, cancel := context.WithTimeout(ctx, db.opts.QueryTimeout)
	defer cancel()
	if err := db.sql.QueryRowContext(ctx, "SELECT date('now')").Scan(&out.Today); err != nil {
		return nil, fmt.Errorf("read today's date: %w", err)
	}
	return &out, nil
}

func (db *DB) loadSchema(ctx context.Context) (*schema.Schema, error) {
	db.schemaMu.Lock()
	defer db.schemaMu.Unlock()
	if db.schema != nil {
		return db.schema, nil
	}
	s := &schema.Schema{Dialect: "sqlite", Database: filepath.Base(db.path), Tables: []schema.Table{}}
	if db.opts.Name != "" {
		s.Database = db.opts.Name
	}
	names, err := db.strings(ctx,
		"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	views, err := db.strings(ctx, "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")
	if err != nil {
		return nil, fmt.Errorf("list views: %w", err)
	}
	for _, name := range names {
		t, err := db.table(ctx, name, false)
		if err != nil {
			return nil, fmt.Errorf("read table %s: %w", name, err)
		}
		s.Tables = append(s.Tables, *t)
	}
	for _, name := range views {
		t, err := db.table(ctx, name, true)
		if err != nil {
			return nil, fmt.Errorf("read view %s: %w", name, err)
		}
		s.Tables = append(s.Tables, *t)
	}
	db.schema = s
	return s, nil
}

func (db *DB) table(ctx context.Context, name string, view bool) (*schema.Table, error) {
	t := &schema.Table{Name: name, Columns: []schema.Column{}, ForeignKeys: []schema.ForeignKey{}, Indexes: []schema.Index{}}
	qn := quoteIdent(name)
	if view {
		t.Kind, t.RowCount = schema.KindView, -1
	} else if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM "+qn).Scan(&t.RowCount); err != nil {
		return nil, err
	}

	rows, err := db.sql.QueryContext(ctx, `SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY cid`, name)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var c schema.Column
		var notNull, pk int
		if err := rows.Scan(&c.Name, &c.Type, &notNull, &pk); err != nil {
			rows.Close()
			return nil, err
		}
		c.PrimaryKey = pk > 0
		c.Nullable = notNull == 0 && !c.PrimaryKey
		t.Columns = append(t.Columns, c)
	}
	if err := closeRows(rows); err != nil {
		return nil, err
	}
	for i := range t.Columns {
		c := &t.Columns[i]
		// A view's values would mean running the view: its tables list them.
		if view || !textAffinity(c.Type) {
			continue
		}
		vals, err := db.strings(ctx, fmt.Sprintf("SELECT DISTINCT %[1]s FROM %[2]s WHERE %[1]s IS NOT NULL LIMIT %[3]d",
			quoteIdent(c.Name), qn, maxDistinctValues+1))
		if err != nil {
			return nil, err
		}
		if len(vals) > 0 && len(vals) <= maxDistinctValues {
			sort.Strings(vals)
			c.DistinctValues = vals
		}
	}

	rows, err = db.sql.QueryContext(ctx, `SELECT "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq`, name)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var fk schema.ForeignKey
		var to *string
		if err := rows.Scan(&fk.ReferencesTable, &fk.Column, &to); err != nil {
			rows.Close()
			return nil, err
		}
		if to != nil {
			fk.ReferencesColumn = *to
		}
		t.ForeignKeys = append(t.ForeignKeys, fk)
	}
	if err := closeRows(rows); err != nil {
		return nil, err
	}
	// "REFERENCES customers" with no column means the referenced table's
	// primary key.
	for i := range t.ForeignKeys {
		fk := &t.ForeignKeys[i]
		if fk.ReferencesColumn != "" {
			continue
		}
		pks, err := db.strings(ctx, "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", fk.ReferencesTable)
		if err != nil {
			return nil, err
		}
		fk.ReferencesColumn = strings.Join(pks, ",")
	}

	idx, err := db.strings(ctx, "SELECT name FROM pragma_index_list(?) WHERE origin = 'c' ORDER BY name", name)
	if err != nil {
		return nil, err
	}
	for _, in := range idx {
		ix := schema.Index{Name: in}
		if err := db.sql.QueryRowContext(ctx, `SELECT "unique" FROM pragma_index_list(?) WHERE name = ?`, name, in).Scan(&ix.Unique); err != nil {
			return nil, err
		}
		if ix.Columns, err = db.strings(ctx, "SELECT coalesce(name, '<expression>') FROM pragma_index_info(?) ORDER BY seqno", in); err != nil {
			return nil, err
		}
		t.Indexes = append(t.Indexes, ix)
	}
	return t, nil
}

// strings runs a query whose first column is text and returns its values.
func (db *DB) strings(ctx context.Context, q string, args ...any) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	var out []string
	for rows.Next() {
		var v any
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return nil, err
		}
		if b, ok := v.([]byte); ok {
			v = string(b)
		}
		out = append(out, fmt.Sprint(v))
	}
	return out, closeRows(rows)
}

func closeRows(rows interface {
	Err() error
	Close() error
}) error {
	if err := rows.Err(); err != nil {
		rows.Close()
		return err
	}
	return rows.Close()
}

// textAffinity reports whether a declared type has TEXT affinity (SQLite's
// rule: it contains CHAR, CLOB or TEXT).
func textAffinity(declType string) bool {
	t := strings.ToUpper(declType)
	return strings.Contains(t, "CHAR") || strings.Contains(t, "CLOB") || strings.Contains(t, "TEXT")
}

// quoteIdent quotes an SQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
