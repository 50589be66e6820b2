package databasemcp

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-sql-driver/mysql"

	"talk2tables/resultlimit"
	"talk2tables/schema"
	"talk2tables/sqlerr"
	"talk2tables/sqlscan"
)

// Query runs one read-only query and returns at most maxRows rows (0 means
// the default of Options; above HardMaxRows is an error). The rows are read
// as they arrive; once the result holds maxRows rows and one more arrives,
// the session is closed, which ends the query in the server. Errors are
// *sqlerr.Error with the category of the failure.
func (m *MySQL) Query(ctx context.Context, query string, maxRows int) (*schema.Result, error) {
	start := time.Now()
	switch {
	case maxRows == 0:
		maxRows = m.opts.MaxRows
	case maxRows < 0 || maxRows > HardMaxRows:
		return nil, sqlerr.New(sqlerr.UnknownError,
			fmt.Sprintf("max_rows must be between 1 and %d, got %d", HardMaxRows, maxRows))
	}
	body, e := m.guard(query)
	if e != nil {
		return nil, e
	}
	res, err := m.run(ctx, body, maxRows)
	if err != nil {
		return nil, err
	}
	res.DataVersion = m.DataVersion(ctx)
	res.ElapsedMS = math.Round(float64(time.Since(start).Microseconds())/10) / 100
	return res, nil
}

// guard applies the statement checks and returns the statement without
// trailing semicolons and comments.
func (m *MySQL) guard(query string) (string, *sqlerr.Error) {
	toks, e := checkQueryIn(sqlscan.MySQL, query, m.opts.MaxQueryLength)
	if e != nil {
		return "", e
	}
	for _, t := range toks {
		if t.Kind == sqlscan.Param && t.Text == "?" {
			return "", sqlerr.New(sqlerr.SyntaxError,
				"the query contains the parameter placeholder ?: put the literal value in the SQL instead")
		}
	}
	last := toks[len(toks)-1]
	for last.IsPunct(";") {
		toks = toks[:len(toks)-1]
		last = toks[len(toks)-1]
	}
	return query[:last.Pos+len(last.Text)], nil
}

// run executes a statement that passed the guard: START TRANSACTION READ
// ONLY, the statement, ROLLBACK, and the release of named locks a stored
// function may have taken (they outlive the transaction and would stay
// with the pooled session).
func (m *MySQL) run(ctx context.Context, body string, maxRows int) (*schema.Result, error) {
	res := &schema.Result{Columns: []string{}, Rows: [][]any{}}
	err := m.withConn(ctx, func(ctx context.Context, c *sql.Conn) error {
		return m.inReadOnly(ctx, c, func(ctx context.Context) error {
			qctx, cancel := context.WithCancel(ctx)
			defer cancel()
			rows, err := c.QueryContext(qctx, body)
			if err != nil {
				return err
			}
			more, err := collectMySQL(rows, resultLimits(m.opts, maxRows), res)
			if more {
				// Rows remain: closing the session ends the query instead of
				// reading the rest of the result.
				cancel()
				rows.Close()
				discard(c)
				return nil
			}
			if cerr := rows.Close(); err == nil {
				err = cerr
			}
			return err
		})
	})
	if err != nil {
		return nil, m.categorize(err)
	}
	res.RowCount = len(res.Rows)
	return res, nil
}

// inReadOnly runs fn inside START TRANSACTION READ ONLY on c and rolls back
// after it; a session that cannot be rolled back is dropped from the pool.
func (m *MySQL) inReadOnly(ctx context.Context, c *sql.Conn, fn func(ctx context.Context) error) error {
	if _, err := c.ExecContext(ctx, "START TRANSACTION READ ONLY"); err != nil {
		discard(c)
		return err
	}
	err := fn(ctx)
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if _, rerr := c.ExecContext(rctx, "ROLLBACK"); rerr != nil {
		discard(c)
		return err
	}
	if m.releaseLocks {
		if _, uerr := c.ExecContext(rctx, "DO RELEASE_ALL_LOCKS()"); uerr != nil {
			discard(c)
		}
	}
	return err
}

// collectMySQL reads the rows into res within the result bounds (lim),
// converting each value to JSON by its column type (jsonValueMySQL). more is
// true when a row past the bounds arrived (the rest was not read); the
// caller closes rows.
func collectMySQL(rows *sql.Rows, lim resultlimit.Limits, res *schema.Result) (more bool, err error) {
	cts, err := rows.ColumnTypes()
	if err != nil {
		return false, err
	}
	res.Columns = make([]string, len(cts))
	types := make([]string, len(cts))
	for i, ct := range cts {
		res.Columns[i], types[i] = ct.Name(), ct.DatabaseTypeName()
	}
	col := resultlimit.NewCollector(lim)
	vals := make([]any, len(cts))
	ptrs := make([]any, len(cts))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if !col.Room() {
			more = true
			break
		}
		if err := rows.Scan(ptrs...); err != nil {
			return false, err
		}
		row := make([]any, len(vals))
		for i, v := range vals {
			row[i] = jsonValueMySQL(types[i], v)
		}
		ok, err := col.Add(row)
		if err != nil {
			return false, err
		}
		if !ok {
			more = true
			break
		}
	}
	res.Rows, res.Truncated, res.Note = col.Rows(), col.Truncated() || more, col.Note()
	if more {
		return true, nil
	}
	return false, rows.Err()
}

// jsonValueMySQL converts one value of the text protocol to JSON:
// integers and floats are numbers, DECIMAL a number (text when longer than
// 15 digits, so no digit is lost), DATE, DATETIME, TIMESTAMP and TIME stay
// MySQL's text ('2026-11-21', '2026-11-21 10:00:00'), JSON is embedded,
// BIT an integer, binary strings base64 (as SQLite's blobs), everything else
// text.
func jsonValueMySQL(typ string, v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case int64, uint64:
		return x
	case float32:
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
		return jsonValue(f)
	case float64:
		return jsonValue(x)
	case []byte:
		switch typ {
		case "DECIMAL":
			s := string(x)
			if strings.Contains(s, ".") {
				s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".") // DECIMAL(38,10)'s zeros are no digits
			}
			digits := strings.TrimLeft(strings.NewReplacer("-", "", ".", "").Replace(s), "0")
			if f, err := strconv.ParseFloat(s, 64); err == nil && len(digits) <= 15 {
				return f
			}
			return s
		case "JSON":
			if json.Valid(x) {
				return json.RawMessage(append([]byte(nil), x...))
			}
			return string(x)
		case "BIT":
			var n uint64
			for _, b := range x {
				n = n<<8 | uint64(b)
			}
			return n
		case "BLOB", "BINARY", "VARBINARY", "GEOMETRY":
			if typ != "GEOMETRY" && utf8.Valid(x) {
				return string(x)
			}
			return append([]byte(nil), x...)
		}
		return string(x)
	case time.Time:
		return x.Format("2006-01-02 15:04:05")
	}
	return fmt.Sprint(v)
}

// Validate checks a query without running it: the same guards as Query,
// then the server prepares it (parses it and resolves its tables, columns
// and functions) inside a read-only transaction, and the statement is
// deallocated.
func (m *MySQL) Validate(ctx context.Context, query string) error {
	body, e := m.guard(query)
	if e != nil {
		return e
	}
	err := m.withConn(ctx, func(ctx context.Context, c *sql.Conn) error {
		return m.inReadOnly(ctx, c, func(ctx context.Context) error {
			st, err := c.PrepareContext(ctx, body)
			if err != nil {
				return err
			}
			return st.Close()
		})
	})
	if err != nil {
		return m.categorize(err)
	}
	return nil
}

// categorize turns a server, connection or context error into a
// *sqlerr.Error: the error number decides the category, and the message
// keeps the server's own words.
func (m *MySQL) categorize(err error) *sqlerr.Error {
	var se *sqlerr.Error
	if errors.As(err, &se) {
		return se
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		cat := sqlerr.ClassifyMySQL(me.Number, string(me.SQLState[:]), me.Message)
		msg := me.Message
		switch {
		case cat == sqlerr.Timeout && (me.Number == 1969 || me.Number == 3024 || me.Number == 1317):
			return m.timeoutError()
		case cat == sqlerr.PermissionError:
			msg += ": " + readOnlyMessage
		case me.Number == 1153 || me.Number == 1301:
			msg += ": select a part of long values (LEFT(), SUBSTRING()) or their LENGTH() instead of the whole values"
		}
		return sqlerr.New(cat, msg)
	}
	var ne net.Error
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, mysql.ErrInvalidConn) || errors.As(err, &ne) {
		return m.unavailable(err)
	}
	return sqlerr.New(sqlerr.CategoryOf(err), err.Error())
}
