package datagen

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// MySQLSchema is the DDL of the sample database in MySQL and MariaDB: the
// same tables and columns as Schema, with MySQL's types (dates are DATE,
// money is DECIMAL, text is VARCHAR), primary keys, comments, InnoDB and
// utf8mb4. Foreign keys and indexes come after the data
// (MySQLConstraints, mysqlIndexes).
const MySQLSchema = `
CREATE TABLE products (
  product_id   INT NOT NULL PRIMARY KEY,
  product_name VARCHAR(200) NOT NULL UNIQUE,
  category     VARCHAR(100) NOT NULL,
  unit_price   DECIMAL(12,2) NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='Products for sale, one row per product';
CREATE TABLE customers (
  customer_id   INT NOT NULL PRIMARY KEY,
  customer_name VARCHAR(200) NOT NULL,
  email         VARCHAR(200) UNIQUE,
  region        VARCHAR(50) NOT NULL,
  segment       VARCHAR(50) NOT NULL,
  signup_date   DATE NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='Customers, one row per customer';
CREATE TABLE orders (
  order_id    INT NOT NULL PRIMARY KEY,
  customer_id INT NOT NULL,
  order_date  DATE NOT NULL,
  status      VARCHAR(20) NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='Orders, one row per order; status is completed, pending, cancelled or returned';
CREATE TABLE sales (
  sale_id      INT NOT NULL PRIMARY KEY,
  order_id     INT NOT NULL,
  product_id   INT NOT NULL,
  quantity     INT NOT NULL,
  unit_price   DECIMAL(12,2) NOT NULL,
  discount     DECIMAL(4,2) NOT NULL COMMENT 'Fraction of the price taken off, 0 to 0.2',
  total_amount DECIMAL(12,2) NOT NULL COMMENT 'quantity * unit_price * (1 - discount), rounded to cents',
  sale_date    DATE NOT NULL,
  region       VARCHAR(50) NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='Order lines: one row per product in an order, with the amount after discount'`

// MySQLConstraints are the foreign keys of the sample database in MySQL,
// added after the inserts.
const MySQLConstraints = `
ALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customers(customer_id);
ALTER TABLE sales ADD FOREIGN KEY (order_id) REFERENCES orders(order_id),
  ADD FOREIGN KEY (product_id) REFERENCES products(product_id)`

// MySQLTarget says where GenerateMySQL loads the sample.
type MySQLTarget struct {
	// Replace drops the sample's four tables (and only those) first.
	// Without it, an existing table of the same name is an error and
	// nothing is changed.
	Replace bool
}

// GenerateMySQL loads the sample database into the MySQL or MariaDB
// database db is connected to (one connection is used): the same rows as
// Generate for the same options (Path is not used), with MySQL types, keys,
// foreign keys, indexes, comments and fresh statistics (ANALYZE TABLE). The
// rows go in one transaction; MySQL commits DDL at once, so a failed or
// interrupted load drops the tables it created, and the database is left
// as it was (with Replace, without the sample's old tables).
func GenerateMySQL(ctx context.Context, db *sql.DB, opts Options, dst MySQLTarget) (st Stats, err error) {
	start := time.Now()
	opts.Path = "-"
	products, asOf, err := opts.check()
	if err != nil {
		return Stats{}, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return Stats{}, err
	}
	defer conn.Close()
	if err := prepareMySQL(ctx, conn, dst); err != nil {
		return Stats{}, err
	}
	created := false
	defer func() {
		if err != nil && created {
			dropMySQLSample(context.WithoutCancel(ctx), conn)
		}
	}()
	for _, stmt := range splitStatements(MySQLSchema) {
		created = true
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			return Stats{}, fmt.Errorf("create tables: %w", err)
		}
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return Stats{}, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	st, err = newGenerator(opts, products, asOf).fill(ctx, sqliteTarget{tx})
	if err != nil {
		return Stats{}, err
	}
	if err := tx.Commit(); err != nil {
		return Stats{}, fmt.Errorf("commit: %w", err)
	}
	for _, stmt := range append(splitStatements(MySQLConstraints), splitStatements(Indexes)...) {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			return Stats{}, fmt.Errorf("%s: %w", strings.TrimSpace(stmt), err)
		}
	}
	if _, err := conn.ExecContext(ctx, "ANALYZE TABLE products, customers, orders, sales"); err != nil {
		return Stats{}, fmt.Errorf("analyze: %w", err)
	}
	if err := conn.QueryRowContext(ctx, "SELECT DATABASE()").Scan(&st.Path); err != nil {
		return Stats{}, err
	}
	st.Duration = time.Since(start)
	return st, nil
}

// prepareMySQL makes room for the sample's tables: dropping them with
// Replace, refusing when one exists otherwise.
func prepareMySQL(ctx context.Context, conn *sql.Conn, dst MySQLTarget) error {
	if dst.Replace {
		return dropMySQLSample(ctx, conn)
	}
	rows, err := conn.QueryContext(ctx, `SELECT TABLE_NAME FROM information_schema.TABLES
		WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN ('products', 'customers', 'orders', 'sales') ORDER BY TABLE_NAME`)
	if err != nil {
		return fmt.Errorf("look for existing tables: %w", err)
	}
	defer rows.Close()
	var existing []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return err
		}
		existing = append(existing, name)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("look for existing tables: %w", err)
	}
	if len(existing) > 0 {
		return fmt.Errorf("the database already has %s: nothing was changed; use --replace to drop and reload the sample tables",
			strings.Join(existing, ", "))
	}
	return nil
}

// dropMySQLSample drops the sample's four tables, children first.
func dropMySQLSample(ctx context.Context, conn *sql.Conn) error {
	for _, t := range sampleTables {
		if _, err := conn.ExecContext(ctx, "DROP TABLE IF EXISTS "+t); err != nil {
			return fmt.Errorf("drop table %s (to replace it): %w", t, err)
		}
	}
	return nil
}

// splitStatements splits DDL whose statements end with ';' at the end of a
// line, for servers that take one statement per call.
func splitStatements(ddl string) []string {
	var out []string
	for _, s := range strings.Split(ddl+"\n", ";\n") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
