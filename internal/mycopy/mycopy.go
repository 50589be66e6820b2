// Package mycopy copies a SQLite database into MySQL or MariaDB under the
// same names, for running the same questions on both engines (the
// evaluation harness's MariaDB mode).
package mycopy

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// FromSQLite copies the SQLite database lite into the (empty) MySQL
// database my is connected to, under the same table and column names:
// primary keys, the rows, foreign keys, the views, then ANALYZE TABLE.
// Declared types map as database-mcp reads them back: INTEGER → BIGINT,
// DATETIME and TIMESTAMP → DATETIME, DATE → DATE, REAL → DOUBLE,
// NUMERIC/DECIMAL → DECIMAL(38,10), BOOLEAN → BOOLEAN, anything else →
// text (VARCHAR as long as the longest value, or LONGTEXT). Text uses the
// utf8mb4_bin collation, so comparisons, grouping and ordering are binary
// as in SQLite (MySQL's default collations ignore case). A foreign key or a
// view MySQL refuses is left out and named in skipped; views are created
// with ANSI_QUOTES and PIPES_AS_CONCAT, so SQLite's "identifiers" and ||
// keep their meaning.
func FromSQLite(ctx context.Context, lite *sql.DB, my *sql.DB) (skipped []string, err error) {
	conn, err := my.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	tables, err := strs(ctx, lite, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
	if err != nil {
		return nil, err
	}
	var fks []string
	for _, t := range tables {
		more, err := copyTable(ctx, lite, conn, t)
		if err != nil {
			return nil, fmt.Errorf("copy table %s: %w", t, err)
		}
		fks = append(fks, more...)
	}
	for _, fk := range fks {
		if _, err := conn.ExecContext(ctx, fk); err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", fk, err))
		}
	}
	if _, err := conn.ExecContext(ctx, "SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES,PIPES_AS_CONCAT')"); err != nil {
		return nil, err
	}
	rows, err := lite.QueryContext(ctx, "SELECT name, sql FROM sqlite_master WHERE type = 'view' ORDER BY name")
	if err != nil {
		return nil, err
	}
	var views [][2]string
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			rows.Close()
			return nil, err
		}
		views = append(views, [2]string{name, def})
	}
	rows.Close()
	for _, v := range views {
		if _, err := conn.ExecContext(ctx, v[1]); err != nil {
			skipped = append(skipped, fmt.Sprintf("view %s: %v", v[0], err))
		}
	}
	if len(tables) > 0 {
		names := make([]string, len(tables))
		for i, t := range tables {
			names[i] = ident(t)
		}
		if _, err := conn.ExecContext(ctx, "ANALYZE TABLE "+strings.Join(names, ", ")); err != nil {
			return nil, err
		}
	}
	return skipped, nil
}

// copyTable creates one table and copies its rows; it returns the
// statements adding its foreign keys (run once every table exists).
func copyTable(ctx context.Context, lite *sql.DB, my *sql.Conn, table string) ([]string, error) {
	type col struct {
		name, typ    string
		notNull, key bool
	}
	rows, err := lite.QueryContext(ctx, `SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY cid`, table)
	if err != nil {
		return nil, err
	}
	var cols []col
	for rows.Next() {
		var c col
		var notNull, pk int
		if err := rows.Scan(&c.name, &c.typ, &notNull, &pk); err != nil {
			rows.Close()
			return nil, err
		}
		c.notNull, c.key = notNull == 1, pk > 0
		cols = append(cols, c)
	}
	rows.Close()
	var defs, pks, names []string
	for _, c := range cols {
		typ := myType(c.typ)
		if typ == "" { // text: as long as its longest value
			var n sql.NullInt64
			if err := lite.QueryRowContext(ctx, fmt.Sprintf("SELECT max(length(CAST(%s AS TEXT))) FROM %s", dq(c.name), dq(table))).Scan(&n); err != nil {
				return nil, err
			}
			typ = "LONGTEXT"
			if n.Int64 <= 700 {
				typ = fmt.Sprintf("VARCHAR(%d)", max(n.Int64, 1))
			}
			typ += " COLLATE utf8mb4_bin"
		}
		def := ident(c.name) + " " + typ
		if c.notNull {
			def += " NOT NULL"
		}
		defs, names = append(defs, def), append(names, ident(c.name))
		if c.key {
			pks = append(pks, ident(c.name))
		}
	}
	if len(pks) > 0 {
		defs = append(defs, "PRIMARY KEY ("+strings.Join(pks, ", ")+")")
	}
	if _, err := my.ExecContext(ctx, "CREATE TABLE "+ident(table)+" ("+strings.Join(defs, ", ")+") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"); err != nil {
		return nil, err
	}
	refs, err := lite.QueryContext(ctx, `SELECT id, "table", "from", coalesce("to", '') FROM pragma_foreign_key_list(?) ORDER BY id, seq`, table)
	if err != nil {
		return nil, err
	}
	// one constraint per SQLite foreign key id: a composite key stays one
	// key of several columns, not several keys of one column each
	type fkey struct {
		to            string
		from, at, raw []string
	}
	var keys []*fkey
	byID := map[int]*fkey{}
	for refs.Next() {
		var id int
		var to, from, toCol string
		if err := refs.Scan(&id, &to, &from, &toCol); err != nil {
			refs.Close()
			return nil, err
		}
		k := byID[id]
		if k == nil {
			k = &fkey{to: to}
			byID[id] = k
			keys = append(keys, k)
		}
		k.from, k.at, k.raw = append(k.from, ident(from)), append(k.at, ident(toCol)), append(k.raw, toCol)
	}
	refs.Close()
	var fks []string
	for _, k := range keys {
		if slices.Contains(k.raw, "") {
			continue // a key to the other table's primary key, unnamed: not copied
		}
		pk, err := strs(ctx, lite, `SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk`, k.to)
		if err != nil {
			return nil, err
		}
		if !slices.Equal(pk, k.raw) {
			// InnoDB wants the referenced columns indexed: a key to a
			// unique code, not the primary key, needs an index of its own
			fks = append(fks, fmt.Sprintf("ALTER TABLE %s ADD UNIQUE INDEX (%s)", ident(k.to), strings.Join(k.at, ", ")))
		}
		fks = append(fks, fmt.Sprintf("ALTER TABLE %s ADD FOREIGN KEY (%s) REFERENCES %s (%s)", ident(table), strings.Join(k.from, ", "), ident(k.to), strings.Join(k.at, ", ")))
	}
	return fks, copyRows(ctx, lite, my, table, names)
}

// copyRows inserts the rows in batches of multi-row INSERTs in one
// transaction.
func copyRows(ctx context.Context, lite *sql.DB, my *sql.Conn, table string, names []string) error {
	rows, err := lite.QueryContext(ctx, "SELECT * FROM "+dq(table))
	if err != nil {
		return err
	}
	defer rows.Close()
	tx, err := my.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	const batch = 200
	head := "INSERT INTO " + ident(table) + " (" + strings.Join(names, ", ") + ") VALUES "
	tuple := "(" + strings.TrimSuffix(strings.Repeat("?,", len(names)), ",") + ")"
	var args []any
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		n := len(args) / len(names)
		_, err := tx.ExecContext(ctx, head+strings.TrimSuffix(strings.Repeat(tuple+",", n), ","), args...)
		args = args[:0]
		return err
	}
	for rows.Next() {
		vals := make([]any, len(names))
		ptrs := make([]any, len(names))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		args = append(args, vals...)
		if len(args) >= batch*len(names) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if err := flush(); err != nil {
		return err
	}
	return tx.Commit()
}

func strs(ctx context.Context, db *sql.DB, q string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

func ident(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

func dq(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// myType maps a SQLite declared type to MySQL's; "" means text.
func myType(t string) string {
	u := strings.ToUpper(t)
	switch {
	case strings.Contains(u, "INT"):
		return "BIGINT"
	case strings.Contains(u, "DATETIME"), strings.Contains(u, "TIMESTAMP"):
		return "DATETIME"
	case u == "DATE":
		return "DATE"
	case strings.Contains(u, "BOOL"):
		return "BOOLEAN"
	case strings.Contains(u, "REAL"), strings.Contains(u, "DOUB"), strings.Contains(u, "FLOA"):
		return "DOUBLE"
	case strings.Contains(u, "NUM"), strings.Contains(u, "DEC"):
		return "DECIMAL(38,10)"
	}
	return ""
}
