package datagen

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// PostgresSchema is the DDL of the sample database in PostgreSQL: the same
// tables and columns as Schema, with PostgreSQL's types (dates are date,
// money is numeric). Keys, foreign keys and indexes come after the data
// (PostgresConstraints, Indexes).
const PostgresSchema = `
CREATE TABLE products (
  product_id   integer NOT NULL,
  product_name text NOT NULL,
  category     text NOT NULL,
  unit_price   numeric(12,2) NOT NULL
);
CREATE TABLE customers (
  customer_id   integer NOT NULL,
  customer_name text NOT NULL,
  email         text,
  region        text NOT NULL,
  segment       text NOT NULL,
  signup_date   date NOT NULL
);
CREATE TABLE orders (
  order_id    integer NOT NULL,
  customer_id integer NOT NULL,
  order_date  date NOT NULL,
  status      text NOT NULL
);
CREATE TABLE sales (
  sale_id      integer NOT NULL,
  order_id     integer NOT NULL,
  product_id   integer NOT NULL,
  quantity     integer NOT NULL,
  unit_price   numeric(12,2) NOT NULL,
  discount     numeric(4,2) NOT NULL,
  total_amount numeric(12,2) NOT NULL,
  sale_date    date NOT NULL,
  region       text NOT NULL
);`

// PostgresConstraints are the keys of the sample database in PostgreSQL,
// added after the COPY (faster than checking them row by row).
const PostgresConstraints = `
ALTER TABLE products  ADD PRIMARY KEY (product_id), ADD UNIQUE (product_name);
ALTER TABLE customers ADD PRIMARY KEY (customer_id), ADD UNIQUE (email);
ALTER TABLE orders    ADD PRIMARY KEY (order_id),
  ADD FOREIGN KEY (customer_id) REFERENCES customers(customer_id);
ALTER TABLE sales     ADD PRIMARY KEY (sale_id),
  ADD FOREIGN KEY (order_id) REFERENCES orders(order_id),
  ADD FOREIGN KEY (product_id) REFERENCES products(product_id);`

// postgresComments describe the sample tables in the catalog, where the
// schema resource reads them.
const postgresComments = `
COMMENT ON TABLE products IS 'Products for sale, one row per product';
COMMENT ON TABLE customers IS 'Customers, one row per customer';
COMMENT ON TABLE orders IS 'Orders, one row per order; status is completed, pending, cancelled or returned';
COMMENT ON TABLE sales IS 'Order lines: one row per product in an order, with the amount after discount';
COMMENT ON COLUMN sales.total_amount IS 'quantity * unit_price * (1 - discount), rounded to cents';
COMMENT ON COLUMN sales.discount IS 'Fraction of the price taken off, 0 to 0.2';`

// sampleTables are the sample's tables, in drop order.
var sampleTables = []string{"sales", "orders", "customers", "products"}

// PostgresTarget says where GeneratePostgres loads the sample.
type PostgresTarget struct {
	// Schema receives the tables; it is created when missing. Empty means
	// the connection's current schema (usually public).
	Schema string
	// Replace drops the sample's four tables (and only those) first, in the
	// same transaction. Without it, an existing table of the same name is
	// an error and nothing is changed.
	Replace bool
}

// GeneratePostgres loads the sample database into PostgreSQL over conn with
// COPY: the same rows as Generate for the same options (Path is not used),
// with PostgreSQL types, keys, foreign keys, indexes, comments and fresh
// statistics (ANALYZE). Everything happens in one transaction, so a failed
// or interrupted load leaves the database as it was.
func GeneratePostgres(ctx context.Context, conn *pgx.Conn, opts Options, dst PostgresTarget) (Stats, error) {
	start := time.Now()
	opts.Path = "-"
	products, asOf, err := opts.check()
	if err != nil {
		return Stats{}, err
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		return Stats{}, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if err := prepareSchema(ctx, tx, dst); err != nil {
		return Stats{}, err
	}
	if _, err := tx.Exec(ctx, PostgresSchema); err != nil {
		return Stats{}, fmt.Errorf("create tables: %w", err)
	}
	pt := &pgTarget{conn: conn.PgConn()}
	st, err := newGenerator(opts, products, asOf).fill(ctx, pt)
	if err == nil {
		err = pt.finish(ctx)
	}
	pt.cleanup()
	if err != nil {
		return Stats{}, err
	}
	for _, step := range []struct{ what, sql string }{
		{"add keys", PostgresConstraints},
		{"create indexes", Indexes},
		{"comment", postgresComments},
		{"analyze", "ANALYZE products, customers, orders, sales"},
	} {
		if _, err := tx.Exec(ctx, step.sql); err != nil {
			return Stats{}, fmt.Errorf("%s: %w", step.what, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return Stats{}, fmt.Errorf("commit: %w", err)
	}
	st.Path = conn.Config().Database
	if dst.Schema != "" {
		st.Path += " schema " + dst.Schema
	}
	st.Duration = time.Since(start)
	return st, nil
}

// prepareSchema points the transaction at the target schema and makes room
// for the tables: dropping the sample's own tables with Replace, refusing
// when one exists otherwise.
func prepareSchema(ctx context.Context, tx pgx.Tx, dst PostgresTarget) error {
	if dst.Schema != "" {
		s := pgx.Identifier{dst.Schema}.Sanitize()
		if _, err := tx.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+s); err != nil {
			return fmt.Errorf("create schema %s: %w", dst.Schema, err)
		}
		if _, err := tx.Exec(ctx, "SET LOCAL search_path TO "+s); err != nil {
			return fmt.Errorf("use schema %s: %w", dst.Schema, err)
		}
	}
	if dst.Replace {
		for _, t := range sampleTables {
			if _, err := tx.Exec(ctx, "DROP TABLE IF EXISTS "+t); err != nil {
				return fmt.Errorf("drop table %s (to replace it): %w", t, err)
			}
		}
		return nil
	}
	var schema string
	var existing []string
	rows, err := tx.Query(ctx, `SELECT current_schema(), c.relname FROM pg_class c
		WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND c.relname = ANY($1) ORDER BY 2`, sampleTables)
	if err != nil {
		return fmt.Errorf("look for existing tables: %w", err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&schema, &name); err != nil {
			return err
		}
		existing = append(existing, name)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("look for existing tables: %w", err)
	}
	if len(existing) > 0 {
		return fmt.Errorf("schema %s already has %s: nothing was changed; use --replace to drop and reload the sample tables, or --schema NAME to load into another schema",
			schema, strings.Join(existing, ", "))
	}
	return nil
}

// pgTarget streams rows into PostgreSQL with COPY ... FROM STDIN in text
// format. One connection runs one COPY at a time: the first table opened
// streams, a table opened while it streams is spooled to a temporary file
// and copied once the stream ends.
type pgTarget struct {
	conn    *pgconn.PgConn
	stream  *copyWriter
	pending []*copyWriter // spooled and closed, waiting for the stream to end
	spools  []*os.File
}

func (t *pgTarget) table(ctx context.Context, name string, cols int) (rowWriter, error) {
	w := &copyWriter{t: t, table: name}
	if t.stream == nil {
		pr, pw := io.Pipe()
		w.pipe, w.out, w.done = pw, bufio.NewWriterSize(pw, 256<<10), make(chan error, 1)
		go func() {
			_, err := t.conn.CopyFrom(ctx, pr, copySQL(name))
			pr.CloseWithError(err) // nil: later writes get io.ErrClosedPipe
			w.done <- err
		}()
		t.stream = w
		return w, nil
	}
	f, err := os.CreateTemp("", "talk2tables-copy-"+name+"-*")
	if err != nil {
		return nil, fmt.Errorf("spool %s: %w", name, err)
	}
	t.spools = append(t.spools, f)
	w.spool, w.out = f, bufio.NewWriterSize(f, 256<<10)
	return w, nil
}

// finish copies the spooled tables whose stream has ended.
func (t *pgTarget) finish(ctx context.Context) error {
	if t.stream != nil {
		return fmt.Errorf("copy into %s: rows still open", t.stream.table)
	}
	for len(t.pending) > 0 {
		w := t.pending[0]
		t.pending = t.pending[1:]
		if _, err := w.spool.Seek(0, io.SeekStart); err != nil {
			return err
		}
		if _, err := t.conn.CopyFrom(ctx, bufio.NewReaderSize(w.spool, 256<<10), copySQL(w.table)); err != nil {
			return fmt.Errorf("copy into %s: %w", w.table, err)
		}
	}
	return nil
}

// cleanup ends a stream still open (the load failed: its COPY is aborted,
// so the connection can roll back) and removes the spool files.
func (t *pgTarget) cleanup() {
	if w := t.stream; w != nil {
		w.fail(errors.New("load aborted"))
	}
	for _, f := range t.spools {
		f.Close()
		os.Remove(f.Name())
	}
	t.spools = nil
}

func copySQL(table string) string {
	return "COPY " + pgx.Identifier{table}.Sanitize() + " FROM STDIN"
}

// copyWriter encodes rows in COPY text format into the stream or a spool.
type copyWriter struct {
	t     *pgTarget
	table string
	out   *bufio.Writer
	line  []byte
	// streaming
	pipe *io.PipeWriter
	done chan error // the COPY's result; nil once received into err
	err  error
	// spooled
	spool *os.File
}

func (w *copyWriter) add(ctx context.Context, values ...any) error {
	w.line = appendCopyRow(w.line[:0], values)
	if _, err := w.out.Write(w.line); err != nil {
		return w.fail(err)
	}
	return nil
}

// fail ends the stream (if any) and returns the COPY's own error when the
// stream broke because the server refused the data.
func (w *copyWriter) fail(err error) error {
	if w.pipe != nil {
		w.pipe.CloseWithError(err)
		if cerr := w.wait(); cerr != nil {
			err = cerr
		}
	}
	return fmt.Errorf("copy into %s: %w", w.table, err)
}

// wait waits for the streaming COPY to end and returns its error; later
// calls return the same.
func (w *copyWriter) wait() error {
	if w.done != nil {
		w.err = <-w.done
		w.done = nil
		if w.t.stream == w {
			w.t.stream = nil
		}
	}
	return w.err
}

func (w *copyWriter) close(ctx context.Context) error {
	if err := w.out.Flush(); err != nil {
		return w.fail(err)
	}
	if w.spool != nil {
		w.t.pending = append(w.t.pending, w)
		return nil
	}
	w.pipe.Close()
	if err := w.wait(); err != nil {
		return fmt.Errorf("copy into %s: %w", w.table, err)
	}
	return nil
}

// appendCopyRow appends one row in COPY text format: tab-separated, \N for
// NULL, backslash escapes for backslash, tab, newline and carriage return.
func appendCopyRow(b []byte, values []any) []byte {
	for i, v := range values {
		if i > 0 {
			b = append(b, '\t')
		}
		switch x := v.(type) {
		case nil:
			b = append(b, `\N`...)
		case int64:
			b = strconv.AppendInt(b, x, 10)
		case int:
			b = strconv.AppendInt(b, int64(x), 10)
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				b = append(b, `\N`...)
			} else {
				b = strconv.AppendFloat(b, x, 'f', -1, 64)
			}
		case string:
			for j := 0; j < len(x); j++ {
				switch c := x[j]; c {
				case '\\':
					b = append(b, `\\`...)
				case '\t':
					b = append(b, `\t`...)
				case '\n':
					b = append(b, `\n`...)
				case '\r':
					b = append(b, `\r`...)
				default:
					b = append(b, c)
				}
			}
		default:
			b = append(b, fmt.Sprint(x)...)
		}
	}
	return append(b, '\n')
}
