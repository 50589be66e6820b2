package databasemcp

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"talk2tables/schema"
)

// Schema returns the database schema read from pg_catalog: every table,
// view and materialized view the session may read, in every schema but the
// system ones and objects of extensions. It is cached for schemaTTL; Today
// is the server's current_date (UTC unless the DSN sets a time zone), or
// Options.Today when set.
func (p *Postgres) Schema(ctx context.Context) (*schema.Schema, error) {
	s, err := p.loadSchema(ctx)
	if err != nil {
		return nil, err
	}
	out := *s
	if p.opts.Today != "" {
		out.Today = p.opts.Today
		return &out, nil
	}
	ctx, cancel := context.WithTimeout(ctx, p.opts.QueryTimeout)
	defer cancel()
	if err := p.pool.QueryRow(ctx, "SELECT current_date::text").Scan(&out.Today); err != nil {
		return nil, fmt.Errorf("read today's date: %w", err)
	}
	return &out, nil
}

func (p *Postgres) loadSchema(ctx context.Context) (*schema.Schema, error) {
	p.schemaMu.Lock()
	defer p.schemaMu.Unlock()
	if p.schema != nil && time.Since(p.schemaLoaded) < schemaTTL {
		return p.schema, nil
	}
	c, err := p.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	r := &schemaReader{conn: c.Conn(), tables: map[uint32]*pgTable{}}
	s, err := r.read(ctx)
	if err != nil {
		return nil, err
	}
	p.schema, p.schemaLoaded = s, time.Now()
	return s, nil
}

// pgTable is a table being read, with what the later steps need.
type pgTable struct {
	schema.Table
	oid      uint32
	relkind  string
	attnames map[int16]string
	textCols []int // indexes into Columns of text-like columns
	enums    map[int][]string
}

// schemaReader reads the schema resource from pg_catalog in a handful of
// catalog queries (one per kind of thing, not one per table).
type schemaReader struct {
	conn   *pgx.Conn
	order  []*pgTable
	tables map[uint32]*pgTable
}

// read runs the steps in order.
func (r *schemaReader) read(ctx context.Context) (*schema.Schema, error) {
	s := &schema.Schema{Dialect: "postgres", Tables: []schema.Table{}}
	if err := r.conn.QueryRow(ctx, "SELECT current_database()").Scan(&s.Database); err != nil {
		return nil, err
	}
	steps := []struct {
		what string
		fn   func(context.Context) error
	}{
		{"list tables", r.listTables},
		{"read columns", r.readColumns},
		{"read keys", r.readConstraints},
		{"read indexes", r.readIndexes},
		{"count rows", r.countUnanalyzed},
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

// listTables lists the readable relations: public's first, then the other
// schemas by name. Partitions are left out (their parent is listed), and so
// are objects that belong to an extension.
func (r *schemaReader) listTables(ctx context.Context) error {
	rows, err := r.conn.Query(ctx, `
SELECT c.oid, n.nspname::text, c.relname::text, c.relkind::text, c.reltuples::float8,
       coalesce(obj_description(c.oid, 'pg_class'), '')
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
  AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\_%'
  AND has_schema_privilege(n.oid, 'USAGE') AND has_any_column_privilege(c.oid, 'SELECT')
  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
ORDER BY n.nspname <> 'public', n.nspname, c.relname`)
	if err != nil {
		return err
	}
	var oid uint32
	var nsp, name, kind, comment string
	var tuples float64
	_, err = pgx.ForEachRow(rows, []any{&oid, &nsp, &name, &kind, &tuples, &comment}, func() error {
		t := &pgTable{oid: oid, relkind: kind, attnames: map[int16]string{}, enums: map[int][]string{},
			Table: schema.Table{Name: name, Comment: comment, Columns: []schema.Column{}, ForeignKeys: []schema.ForeignKey{}, Indexes: []schema.Index{}}}
		if nsp != "public" {
			t.Schema = nsp
		}
		switch kind {
		case "v", "m":
			t.Kind = schema.KindView
		}
		switch {
		case kind == "v" || kind == "f":
			t.RowCount = -1 // counting would run the view or reach the remote server
		case tuples < 0:
			t.RowCount = -2 // never analyzed: counted later
		default:
			t.RowCount = int64(math.Round(tuples))
		}
		r.order = append(r.order, t)
		r.tables[oid] = t
		return nil
	})
	return err
}

func (r *schemaReader) oids() []uint32 {
	out := make([]uint32, len(r.order))
	for i, t := range r.order {
		out[i] = t.oid
	}
	return out
}

// readColumns reads the readable columns with their types, nullability and
// comments; text-like and enum columns are marked for distinct values.
func (r *schemaReader) readColumns(ctx context.Context) error {
	rows, err := r.conn.Query(ctx, `
SELECT a.attrelid, a.attnum, a.attname::text, format_type(a.atttypid, a.atttypmod), a.attnotnull,
       coalesce(col_description(a.attrelid, a.attnum), ''), t.typcategory::text,
       CASE WHEN t.typtype = 'e' THEN ARRAY(SELECT e.enumlabel::text FROM pg_enum e WHERE e.enumtypid = t.oid) END
FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
WHERE a.attrelid = ANY($1) AND a.attnum > 0 AND NOT a.attisdropped
  AND has_column_privilege(a.attrelid, a.attnum, 'SELECT')
ORDER BY a.attrelid, a.attnum`, r.oids())
	if err != nil {
		return err
	}
	var rel uint32
	var num int16
	var name, typ, comment, category string
	var notNull bool
	var labels []string
	_, err = pgx.ForEachRow(rows, []any{&rel, &num, &name, &typ, &notNull, &comment, &category, &labels}, func() error {
		t := r.tables[rel]
		t.attnames[num] = name
		t.Columns = append(t.Columns, schema.Column{Name: name, Type: typ, Nullable: !notNull, Comment: comment})
		i := len(t.Columns) - 1
		switch {
		case labels != nil:
			t.enums[i] = append([]string(nil), labels...)
		case category == "S":
			t.textCols = append(t.textCols, i)
		}
		labels = nil
		return nil
	})
	return err
}

// readConstraints marks primary key columns and reads the foreign keys to
// listed tables (a key to a table the role cannot read is left out).
func (r *schemaReader) readConstraints(ctx context.Context) error {
	rows, err := r.conn.Query(ctx, `
SELECT conrelid, contype::text, conkey, coalesce(confrelid, 0), coalesce(confkey, '{}')
FROM pg_constraint WHERE conrelid = ANY($1) AND contype IN ('p', 'f') ORDER BY conrelid, contype DESC, conname`, r.oids())
	if err != nil {
		return err
	}
	var rel, ref uint32
	var kind string
	var keys, refKeys []int16
	_, err = pgx.ForEachRow(rows, []any{&rel, &kind, &keys, &ref, &refKeys}, func() error {
		t := r.tables[rel]
		cols, ok := names(t.attnames, keys)
		if !ok {
			return nil
		}
		if kind == "p" {
			for i := range t.Columns {
				for _, c := range cols {
					if t.Columns[i].Name == c {
						t.Columns[i].PrimaryKey = true
					}
				}
			}
			return nil
		}
		rt, listed := r.tables[ref]
		if !listed {
			return nil
		}
		refCols, ok := names(rt.attnames, refKeys)
		if !ok {
			return nil
		}
		t.ForeignKeys = append(t.ForeignKeys, schema.ForeignKey{Column: strings.Join(cols, ","),
			ReferencesTable: rt.Table.QualifiedName(), ReferencesColumn: strings.Join(refCols, ",")})
		return nil
	})
	return err
}

// names maps attribute numbers to readable column names.
func names(attnames map[int16]string, nums []int16) ([]string, bool) {
	out := make([]string, len(nums))
	for i, n := range nums {
		name, ok := attnames[n]
		if !ok {
			return nil, false
		}
		out[i] = name
	}
	return out, true
}

// readIndexes reads the indexes not made for a primary key, unique or
// exclusion constraint (as SQLite's automatic indexes are left out);
// expression columns appear as their expression.
func (r *schemaReader) readIndexes(ctx context.Context) error {
	rows, err := r.conn.Query(ctx, `
SELECT i.indrelid, ic.relname::text, i.indisunique,
       ARRAY(SELECT pg_get_indexdef(i.indexrelid, k, true) FROM generate_series(1, i.indnkeyatts) k ORDER BY k)
FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
WHERE i.indrelid = ANY($1)
  AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.contype IN ('p', 'u', 'x'))
ORDER BY i.indrelid, ic.relname`, r.oids())
	if err != nil {
		return err
	}
	var rel uint32
	var name string
	var unique bool
	var cols []string
	_, err = pgx.ForEachRow(rows, []any{&rel, &name, &unique, &cols}, func() error {
		t := r.tables[rel]
		t.Indexes = append(t.Indexes, schema.Index{Name: name, Columns: append([]string(nil), cols...), Unique: unique})
		return nil
	})
	return err
}

// countLimit bounds the exact count of a table that was never analyzed.
const countLimit = 100000

// countUnanalyzed counts the rows of tables without statistics, up to
// countLimit (more is reported as -1, unknown: run ANALYZE for an estimate).
func (r *schemaReader) countUnanalyzed(ctx context.Context) error {
	for _, t := range r.order {
		if t.RowCount != -2 {
			continue
		}
		t.RowCount = -1
		q := fmt.Sprintf("SELECT count(*) FROM (SELECT 1 FROM %s LIMIT %d) s", r.ident(t), countLimit+1)
		var n int64
		if err := r.bounded(ctx, func(ctx context.Context) error { return r.conn.QueryRow(ctx, q).Scan(&n) }); err == nil && n <= countLimit {
			t.RowCount = n
		}
	}
	return nil
}

// ident is the table's name for SQL, schema-qualified and quoted.
func (r *schemaReader) ident(t *pgTable) string {
	if t.Schema == "" {
		return pgx.Identifier{"public", t.Name}.Sanitize()
	}
	return pgx.Identifier{t.Schema, t.Name}.Sanitize()
}

// distinctTimeout bounds each distinct-values query on a column without
// statistics: the schema is best effort, not a full scan of every table.
const distinctTimeout = 2 * time.Second

// readDistinctValues lists the values of low-cardinality text columns:
// enum labels; otherwise pg_stats (n_distinct and the most common values,
// when those are all of them); otherwise, for table columns without
// statistics (never analyzed), SELECT DISTINCT with a time limit. Views get
// none without statistics: sampling one runs its whole query (as for
// SQLite's views).
func (r *schemaReader) readDistinctValues(ctx context.Context) error {
	type key struct {
		nsp, table, column string
	}
	stats := map[key][]string{}
	rows, err := r.conn.Query(ctx, `
SELECT schemaname::text, tablename::text, attname::text, n_distinct::float8,
       coalesce(most_common_vals::text::text[], '{}'), (SELECT c.reltuples::float8 FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = s.schemaname AND c.relname = s.tablename)
FROM pg_stats s WHERE NOT inherited AND schemaname <> 'information_schema' AND schemaname NOT LIKE 'pg\_%'`)
	if err != nil {
		return err
	}
	var nsp, table, column string
	var nd, tuples float64
	var mcv []string
	_, err = pgx.ForEachRow(rows, []any{&nsp, &table, &column, &nd, &mcv, &tuples}, func() error {
		k := key{nsp, table, column}
		distinct := nd
		if nd < 0 {
			distinct = -nd * tuples
		}
		if distinct >= 1 && math.Round(distinct) <= maxDistinctValues && len(mcv) == int(math.Round(distinct)) {
			stats[k] = append([]string(nil), mcv...)
		} else if nd == 0 && len(mcv) == 0 {
			stats[k] = nil // all NULL
		} else {
			stats[k] = []string{} // too many values
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, t := range r.order {
		nsp := t.Schema
		if nsp == "" {
			nsp = "public"
		}
		for i, labels := range t.enums {
			if len(labels) <= maxDistinctValues {
				sort.Strings(labels)
				t.Columns[i].DistinctValues = labels
			}
		}
		for _, i := range t.textCols {
			c := &t.Columns[i]
			vals, ok := stats[key{nsp, t.Name, c.Name}]
			if !ok && (t.relkind == "r" || t.relkind == "p") {
				vals = r.sampleDistinct(ctx, t, c.Name)
			}
			if len(vals) > 0 && len(vals) <= maxDistinctValues {
				vals = append([]string(nil), vals...)
				sort.Strings(vals)
				c.DistinctValues = vals
			}
		}
	}
	return nil
}

// sampleDistinct runs SELECT DISTINCT on a column without statistics,
// within distinctTimeout; nil when it has more than maxDistinctValues values
// or takes too long.
func (r *schemaReader) sampleDistinct(ctx context.Context, t *pgTable, column string) []string {
	q := fmt.Sprintf("SELECT DISTINCT %[1]s::text FROM %[2]s WHERE %[1]s IS NOT NULL LIMIT %[3]d",
		pgx.Identifier{column}.Sanitize(), r.ident(t), maxDistinctValues+1)
	var vals []string
	err := r.bounded(ctx, func(ctx context.Context) error {
		rows, err := r.conn.Query(ctx, q)
		if err != nil {
			return err
		}
		vals, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	if err != nil || len(vals) > maxDistinctValues {
		return nil
	}
	return vals
}

// bounded runs fn in a read-only transaction whose statements stop after
// distinctTimeout; a failure leaves the session usable.
func (r *schemaReader) bounded(ctx context.Context, fn func(ctx context.Context) error) error {
	tx, err := r.conn.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, fmt.Sprintf("SET LOCAL statement_timeout = %d", distinctTimeout.Milliseconds())); err != nil {
		return err
	}
	return fn(ctx)
}
