// Package pgcopy copies a SQLite database into PostgreSQL under the same
// names, for running the same questions on both engines (the evaluation
// harness and the planner's cross-engine tests).
package pgcopy

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// FromSQLite copies the SQLite database lite into the (empty)
// PostgreSQL database conn is connected to, under the same table and column
// names: primary and foreign keys, the rows, the views, then ANALYZE. A view
// whose SQLite SQL PostgreSQL rejects (a SQLite-only function over a
// column PostgreSQL types as a date) is left out and named in skipped. Declared types
// map as database-mcp reads them back: INTEGER → bigint, DATETIME and
// TIMESTAMP → timestamp, DATE → date, REAL → double precision,
// NUMERIC/DECIMAL → numeric, anything else → text (so ISO dates kept as
// TEXT stay text, unix seconds stay integers).
func FromSQLite(ctx context.Context, lite *sql.DB, conn *pgx.Conn) (skipped []string, err error) {
	tables, err := queryAll(ctx, lite, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
	if err != nil {
		return nil, err
	}
	var fks []string
	for _, t := range tables {
		name := t[0].(string)
		more, err := copyTable(ctx, lite, conn, name)
		if err != nil {
			return nil, fmt.Errorf("copy table %s: %w", name, err)
		}
		fks = append(fks, more...)
	}
	for _, fk := range fks {
		if _, err := conn.Exec(ctx, fk); err != nil {
			return nil, fmt.Errorf("%s: %w", fk, err)
		}
	}
	// Views as SQLite has them, where PostgreSQL reads their SQL.
	views, err := queryAll(ctx, lite, "SELECT name, sql FROM sqlite_master WHERE type = 'view' ORDER BY name")
	if err != nil {
		return nil, err
	}
	for _, v := range views {
		// A savepoint-free retry is not needed: outside a transaction a
		// failed CREATE VIEW leaves nothing behind.
		if _, err := conn.Exec(ctx, v[1].(string)); err != nil {
			skipped = append(skipped, fmt.Sprintf("view %s: %v", v[0], err))
		}
	}
	_, err = conn.Exec(ctx, "ANALYZE")
	return skipped, err
}

// copyTable creates one table in PostgreSQL and copies its rows; it returns
// the statements adding its foreign keys (run once every table exists).
func copyTable(ctx context.Context, lite *sql.DB, conn *pgx.Conn, table string) ([]string, error) {
	cols, err := queryAll(ctx, lite, `SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY cid`, table)
	if err != nil {
		return nil, err
	}
	var defs, pks, names []string
	for _, c := range cols {
		name, typ := c[0].(string), c[1].(string)
		def := pgIdent(name) + " " + pgType(typ)
		if c[2].(int64) == 1 {
			def += " NOT NULL"
		}
		defs, names = append(defs, def), append(names, name)
		if c[3].(int64) > 0 {
			pks = append(pks, pgIdent(name))
		}
	}
	if len(pks) > 0 {
		defs = append(defs, "PRIMARY KEY ("+strings.Join(pks, ", ")+")")
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE "+pgIdent(table)+" ("+strings.Join(defs, ", ")+")"); err != nil {
		return nil, err
	}
	refs, err := queryAll(ctx, lite, `SELECT "table", "from", "to" FROM pragma_foreign_key_list(?)`, table)
	if err != nil {
		return nil, err
	}
	var fks []string
	for _, f := range refs {
		to, _ := f[2].(string)
		fks = append(fks, fmt.Sprintf("ALTER TABLE %s ADD FOREIGN KEY (%s) REFERENCES %s (%s)",
			pgIdent(table), pgIdent(f[1].(string)), pgIdent(f[0].(string)), pgIdent(to)))
	}
	rows, err := queryAll(ctx, lite, "SELECT * FROM "+pgIdent(table))
	if err != nil {
		return nil, err
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{table}, names, pgx.CopyFromRows(rows)); err != nil {
		return nil, err
	}
	return fks, nil
}

func queryAll(ctx context.Context, db *sql.DB, q string, args ...any) ([][]any, error) {
	rs, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", q, err)
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]any
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, vals)
	}
	return out, rs.Err()
}

func pgIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// pgType maps a SQLite declared type to PostgreSQL's.
func pgType(t string) string {
	u := strings.ToUpper(t)
	switch {
	case strings.Contains(u, "INT"):
		return "bigint"
	case strings.Contains(u, "DATETIME"), strings.Contains(u, "TIMESTAMP"):
		return "timestamp"
	case u == "DATE":
		return "date"
	case strings.Contains(u, "REAL"), strings.Contains(u, "DOUB"), strings.Contains(u, "FLOA"):
		return "double precision"
	case strings.Contains(u, "NUM"), strings.Contains(u, "DEC"):
		return "numeric"
	}
	return "text"
}
