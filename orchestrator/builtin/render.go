package builtin

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"talk2tables/catalog"
	"talk2tables/jsonval"
)

// Dialects the planner writes.
const (
	dialectSQLite   = "sqlite"
	dialectPostgres = "postgres"
	dialectMySQL    = "mysql"
)

// renderer writes one plan as SQL for one dialect, step by step: select,
// from and joins, where, group by, having, order, limit.
type renderer struct {
	dialect   string
	qualify   bool // qualify columns with their table (joins or subqueries)
	b         strings.Builder
	err       error
	aliasRefs bool // ORDER BY may name select aliases
	used      map[*table]bool
	// refs are the tables a key column counted points at
	refs map[*table]bool
}

// sub is a renderer for a subquery, sharing the tables used.
func (r *renderer) sub() *renderer {
	return &renderer{dialect: r.dialect, qualify: true, used: r.used, refs: r.refs}
}

// render returns the SQL of p in the dialect and the tables it reads.
func render(p *plan, dialect string) (string, map[*table]bool, error) {
	r := &renderer{dialect: dialect, qualify: len(p.joins.edges) > 0 || hasSemi(p.where), aliasRefs: true,
		used: map[*table]bool{}, refs: map[*table]bool{}}
	r.query(p)
	if r.err != nil {
		return "", nil, r.err
	}
	if err := unsureLinks(r.used, r.refs); err != nil {
		return "", nil, err
	}
	return r.b.String(), r.used, nil
}

// unsureLinks declines a query that relates a table with a link column no
// table's name matches ("tallied_by_id" where no keys are declared) to a table
// it has no key of its own to, nor the other way: the rows may be linked
// by that column, not through the tables between them.
func unsureLinks(used, refs map[*table]bool) error {
	var ts []*table
	for t := range used {
		ts = append(ts, t)
	}
	for t := range refs {
		if !used[t] {
			ts = append(ts, t) // the crates of COUNT(DISTINCT hauls.crate_id)
		}
	}
	slices.SortFunc(ts, func(a, b *table) int { return strings.Compare(a.name, b.name) })
	for _, x := range ts {
		if len(x.unsure) == 0 {
			continue
		}
		for _, y := range ts {
			if y == x || direct(x, y) {
				continue
			}
			return &declineError{why: fmt.Sprintf("%s may link to %s by %s, which the database does not declare as a key", x.name, y.name, x.unsure[0].name),
				hint: "a catalog can say what the column refers to (references: table.column)"}
		}
	}
	return nil
}

// direct: one of the two tables has a key to the other.
func direct(a, b *table) bool {
	for _, e := range a.out {
		if e.to == b {
			return true
		}
	}
	for _, e := range b.out {
		if e.to == a {
			return true
		}
	}
	return false
}

func hasSemi(cs []*cond) bool {
	for _, c := range cs {
		if c.kind == cSemi {
			return true
		}
	}
	return false
}

func (r *renderer) w(parts ...string) {
	for _, p := range parts {
		r.b.WriteString(p)
	}
}

func (r *renderer) query(p *plan) {
	if p.countGroups {
		r.w("SELECT COUNT(*) AS ", r.ident("count"), " FROM (")
		inner := *p
		inner.countGroups, inner.order, inner.limit, inner.offset = false, nil, 0, 0
		r.selectList(&inner)
		r.from(inner.joins)
		r.where(inner.where)
		r.groupBy(inner.groupBy)
		r.having(inner.having)
		r.w(") AS ", r.ident("groups"))
		return
	}
	r.selectList(p)
	r.from(p.joins)
	r.where(p.where)
	r.groupBy(p.groupBy)
	r.having(p.having)
	r.orderBy(p)
	if p.limit > 0 {
		r.w(" LIMIT ", strconv.Itoa(p.limit))
		if p.offset > 0 {
			r.w(" OFFSET ", strconv.Itoa(p.offset))
		}
	}
}

func (r *renderer) selectList(p *plan) {
	r.w("SELECT ")
	if p.distinct {
		r.w("DISTINCT ")
	}
	for i, s := range p.sels {
		if i > 0 {
			r.w(", ")
		}
		e := r.expr(s.e)
		r.w(e)
		if s.e.kind != eCol || s.alias != s.e.col.name {
			r.w(" AS ", r.ident(s.alias))
		}
	}
}

func (r *renderer) from(j *joinSet) {
	r.w(" FROM ", r.table(j.root))
	for _, e := range j.edges {
		r.w(" JOIN ", r.table(e.to), " ON ", r.col(e.ref), " = ", r.col(e.col))
	}
}

func (r *renderer) where(cs []*cond) {
	for i, c := range cs {
		if i == 0 {
			r.w(" WHERE ")
		} else {
			r.w(" AND ")
		}
		r.w(r.cond(c))
	}
}

func (r *renderer) groupBy(es []expr) {
	for i, e := range es {
		if i == 0 {
			r.w(" GROUP BY ")
		} else {
			r.w(", ")
		}
		r.w(r.expr(e))
	}
}

func (r *renderer) having(cs []*cond) {
	for i, c := range cs {
		if i == 0 {
			r.w(" HAVING ")
		} else {
			r.w(" AND ")
		}
		r.w(r.cond(c))
	}
}

func (r *renderer) orderBy(p *plan) {
	for i, o := range p.order {
		if i == 0 {
			r.w(" ORDER BY ")
		} else {
			r.w(", ")
		}
		switch {
		case o.sel >= 0 && o.sel < len(p.sels) && p.sels[o.sel].e.kind == eCol:
			// numbers stored as text order as numbers ('9.50' below '20.00')
			e := p.sels[o.sel].e
			e.cast = e.cast || e.col.textNumber()
			r.w(r.expr(e))
		case o.sel >= 0 && o.sel < len(p.sels):
			r.w(r.ident(p.sels[o.sel].alias))
		default:
			r.w(r.expr(o.e))
		}
		if o.desc {
			r.w(" DESC")
		}
	}
	if k := tieKey(p); k != nil {
		// rows equal on every key asked for come in the same order on
		// every engine: by the rows' own key last
		r.w(", ", r.col(k))
	}
}

// tieKey is the root's key, to end a list's ORDER BY with when it is not
// already there (nil for aggregates, DISTINCT lists and keyless tables).
func tieKey(p *plan) *column {
	k := p.root.key
	if len(p.order) == 0 || p.kind != pList || p.distinct || k == nil {
		return nil
	}
	for _, o := range p.order {
		if e := p.orderExpr(o); e.kind == eCol && e.col == k {
			return nil
		}
	}
	return k
}

// table is a table reference: schema.table, each part quoted when needed.
func (r *renderer) table(t *table) string {
	r.used[t] = true
	if t.schema != "" {
		return r.ident(t.schema) + "." + r.ident(t.bare)
	}
	return r.ident(t.bare)
}

// qualified is a column with its table, whatever the query's joins.
func (r *renderer) qualified(c *column) string {
	return r.table(c.t) + "." + r.ident(c.name)
}

func (r *renderer) col(c *column) string {
	if r.qualify {
		return r.table(c.t) + "." + r.ident(c.name)
	}
	return r.ident(c.name)
}

var plainIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
var lowerIdent = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// ident quotes an identifier when the dialect needs it: spaces, symbols,
// reserved words, and (PostgreSQL) capitals. MySQL quotes with backticks
// (double quotes are strings there).
func (r *renderer) ident(s string) string {
	ok := plainIdent.MatchString(s)
	if r.dialect == dialectPostgres {
		ok = lowerIdent.MatchString(s)
	}
	lower := strings.ToLower(s)
	if ok && !reserved[lower] && !(r.dialect == dialectMySQL && mysqlReserved[lower]) {
		return s
	}
	if r.dialect == dialectMySQL {
		return "`" + strings.ReplaceAll(s, "`", "``") + "`"
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// mysqlReserved are the reserved words of MySQL 8 and MariaDB (the
// documented lists: an identifier among them needs backticks).
var mysqlReserved = setOf(
	"accessible", "add", "all", "alter", "analyze", "and", "as", "asc", "asensitive", "before", "between",
	"bigint", "binary", "blob", "both", "by", "call", "cascade", "case", "change", "char", "character", "check",
	"collate", "column", "condition", "constraint", "continue", "convert", "create", "cross", "cube",
	"cume_dist", "current_date", "current_time", "current_timestamp", "current_user", "cursor", "database",
	"databases", "day_hour", "day_microsecond", "day_minute", "day_second", "dec", "decimal", "declare",
	"default", "delayed", "delete", "dense_rank", "desc", "describe", "deterministic", "distinct",
	"distinctrow", "div", "double", "drop", "dual", "each", "else", "elseif", "empty", "enclosed", "escaped",
	"except", "exists", "exit", "explain", "false", "fetch", "first_value", "float", "float4", "float8", "for",
	"force", "foreign", "from", "fulltext", "function", "generated", "get", "grant", "group", "grouping",
	"groups", "having", "high_priority", "hour_microsecond", "hour_minute", "hour_second", "if", "ignore", "in",
	"index", "infile", "inner", "inout", "insensitive", "insert", "int", "int1", "int2", "int3", "int4", "int8",
	"integer", "intersect", "interval", "into", "io_after_gtids", "io_before_gtids", "is", "iterate", "join",
	"json_table", "key", "keys", "kill", "lag", "last_value", "lateral", "lead", "leading", "leave", "left",
	"like", "limit", "linear", "lines", "load", "localtime", "localtimestamp", "lock", "long", "longblob",
	"longtext", "loop", "low_priority", "master_bind", "master_ssl_verify_server_cert", "match", "maxvalue",
	"mediumblob", "mediumint", "mediumtext", "middleint", "minute_microsecond", "minute_second", "mod",
	"modifies", "natural", "not", "no_write_to_binlog", "nth_value", "ntile", "null", "numeric", "of", "offset",
	"on", "optimize", "optimizer_costs", "option", "optionally", "or", "order", "out", "outer", "outfile",
	"over", "partition", "percent_rank", "precision", "primary", "procedure", "purge", "range", "rank", "read",
	"reads", "read_write", "real", "recursive", "references", "regexp", "release", "rename", "repeat",
	"replace", "require", "resignal", "restrict", "return", "returning", "revoke", "right", "rlike", "row",
	"rows", "row_number", "schema", "schemas", "second_microsecond", "select", "sensitive", "separator", "set",
	"show", "signal", "smallint", "spatial", "specific", "sql", "sqlexception", "sqlstate", "sqlwarning",
	"sql_big_result", "sql_calc_found_rows", "sql_small_result", "ssl", "starting", "stored", "straight_join",
	"system", "table", "terminated", "then", "tinyblob", "tinyint", "tinytext", "to", "trailing", "trigger",
	"true", "undo", "union", "unique", "unlock", "unsigned", "update", "usage", "use", "using", "utc_date",
	"utc_time", "utc_timestamp", "values", "varbinary", "varchar", "varcharacter", "varying", "virtual", "when",
	"where", "while", "window", "with", "write", "xor", "year_month", "zerofill",
)

// quote writes a string literal: a doubled quote is a quote, and in MySQL
// a backslash is doubled too (it escapes there).
func (r *renderer) quote(s string) string {
	if r.dialect == dialectMySQL {
		s = strings.ReplaceAll(s, `\`, `\\`)
	}
	return quote(s)
}

func (r *renderer) expr(e expr) string {
	if e.div != 0 {
		inner := e
		inner.div = 0
		return "(" + r.expr(inner) + " / " + strconv.FormatFloat(e.div, 'f', 1, 64) + ")"
	}
	switch e.kind {
	case eCol:
		if e.cast {
			switch r.dialect {
			case dialectPostgres:
				return "CAST(" + r.col(e.col) + " AS double precision)"
			case dialectMySQL:
				return "CAST(" + r.col(e.col) + " AS DOUBLE)"
			}
			return "CAST(" + r.col(e.col) + " AS REAL)"
		}
		return r.col(e.col)
	case eCountAll:
		return "COUNT(*)"
	case ePercent:
		parts := make([]string, len(e.conds))
		for i, c := range e.conds {
			parts[i] = r.cond(c)
		}
		sum := "SUM(CASE WHEN " + strings.Join(parts, " AND ") + " THEN 1 ELSE 0 END)"
		if r.dialect == dialectMySQL {
			// a DECIMAL quotient keeps four places in MySQL: a double gives
			// the figure the other engines give
			sum = "CAST(" + sum + " AS DOUBLE)"
		}
		return "100.0 * " + sum + " / COUNT(*)"
	case eAgg:
		if e.col.fk != nil && r.refs != nil {
			r.refs[e.col.fk.to] = true // the rows a key counted stands for
		}
		arg := r.col(e.col)
		if e.col.numberAsText() || e.fn == "AVG" && r.dialect == dialectMySQL && !e.distinct {
			// MySQL averages integers as DECIMAL with four places: a
			// double gives the same figure as the other engines
			arg = r.expr(expr{kind: eCol, col: e.col, cast: true})
		}
		if e.distinct {
			return e.fn + "(DISTINCT " + arg + ")"
		}
		return e.fn + "(" + arg + ")"
	case eDerived:
		if e.d.formula != "" {
			return "(" + r.placeholders(e.d.formula, e.d.t) + ")"
		}
		return e.fn + "(" + r.placeholders(e.d.expr, e.d.t) + ")"
	case eGrain:
		return r.grain(e.col, e.grain)
	case eSubCount:
		sub := r.sub()
		return "(SELECT COUNT(*) FROM " + sub.table(e.col.t) + " WHERE " + sub.col(e.col) + " = " + r.qualified(e.cols[0]) + ")"
	case eRefLabel:
		sub := r.sub()
		name := sub.expr(expr{kind: eLabel, cols: e.cols})
		if len(e.cols) == 1 {
			name = sub.col(e.cols[0])
		}
		return "(SELECT " + name + " FROM " + sub.table(e.col.fk.to) + " WHERE " + sub.col(e.col.fk.ref) + " = " + r.qualified(e.col) + ")"
	case eLabel:
		parts := make([]string, len(e.cols))
		for i, c := range e.cols {
			parts[i] = r.col(c)
		}
		if r.dialect == dialectMySQL {
			return "CONCAT(" + strings.Join(parts, ", ' ', ") + ")" // || is OR in MySQL
		}
		return strings.Join(parts, " || ' ' || ")
	}
	r.err = fmt.Errorf("unknown expression kind %d", e.kind)
	return ""
}

// placeholders replaces {Column} with the column's reference.
func (r *renderer) placeholders(s string, t *table) string {
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		c := t.column(m[1 : len(m)-1])
		if c == nil {
			r.err = fmt.Errorf("measure names unknown column %s", m)
			return m
		}
		return r.col(c)
	})
}

func (r *renderer) cond(c *cond) string {
	switch c.kind {
	case cValues:
		lhs := r.expr(c.e)
		vals := make([]string, len(c.values))
		for i, v := range c.values {
			vals[i] = r.literal(v, c.e.col)
		}
		switch {
		case len(vals) == 1 && c.neg:
			return lhs + " <> " + vals[0]
		case len(vals) == 1:
			return lhs + " = " + vals[0]
		case c.neg:
			return lhs + " NOT IN (" + strings.Join(vals, ", ") + ")"
		}
		return lhs + " IN (" + strings.Join(vals, ", ") + ")"
	case cNotNull:
		if c.neg {
			return r.expr(c.e) + " IS NULL"
		}
		return r.expr(c.e) + " IS NOT NULL"
	case cFlag:
		v := "1"
		switch {
		case c.e.col.boolean && c.neg:
			v = "FALSE"
		case c.e.col.boolean:
			v = "TRUE"
		case c.neg:
			v = "0"
		}
		return r.expr(c.e) + " = " + v
	case cRange:
		return r.dateRange(c.e.col, c.rng)
	case cColCmp:
		return r.expr(c.e) + " " + c.op + " " + r.expr(c.e2)
	case cNth:
		sub := r.sub()
		v := sub.expr(c.e)
		dir := ""
		if c.op == "desc" {
			dir = " DESC"
		}
		sub.w("SELECT DISTINCT ", v, " FROM ", sub.table(c.e.col.t), " WHERE ", sub.col(c.e.col), " IS NOT NULL ORDER BY ", v, dir,
			" LIMIT 1 OFFSET ", strconv.Itoa(int(c.a)))
		return r.expr(c.e) + " = (" + sub.b.String() + ")"
	case cSubAgg:
		sub := r.sub()
		sub.w("SELECT ", c.fn, "(", sub.expr(c.e2), ") FROM ", sub.table(c.e2.col.t))
		return r.expr(c.e) + " " + c.op + " (" + sub.b.String() + ")"
	case cLike:
		switch r.dialect {
		case dialectPostgres:
			return r.expr(c.e) + " ILIKE " + quote(jsonval.Text(c.values[0]))
		case dialectMySQL:
			// Case-insensitive as SQLite's LIKE whatever the collation; a
			// backslash is LIKE's escape in MySQL, so one in the pattern is
			// doubled for LIKE and again for the string.
			pattern := strings.ReplaceAll(jsonval.Text(c.values[0]), `\`, `\\`)
			return "LOWER(" + r.expr(c.e) + ") LIKE LOWER(" + r.quote(pattern) + ")"
		}
		return r.expr(c.e) + " LIKE " + quote(jsonval.Text(c.values[0]))
	case cOr:
		parts := make([]string, len(c.subs))
		for i, s := range c.subs {
			parts[i] = r.cond(s)
		}
		return "(" + strings.Join(parts, " OR ") + ")"
	case cCmp:
		lhs := r.expr(c.e)
		if c.op == "between" {
			return lhs + " BETWEEN " + num(c.a) + " AND " + num(c.b)
		}
		return lhs + " " + c.op + " " + num(c.a)
	case cSemi:
		s := c.semi
		sub := r.sub()
		sub.w("SELECT ", sub.col(s.sel))
		sub.from(s.joins)
		sub.where(s.where)
		sub.groupBy(s.groupBy)
		sub.having(s.having)
		if sub.err != nil {
			r.err = sub.err
		}
		op := " IN ("
		if c.neg {
			op = " NOT IN ("
		}
		return r.col(s.outer) + op + sub.b.String() + ")"
	}
	r.err = fmt.Errorf("unknown condition kind %d", c.kind)
	return ""
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// literal renders a value for a column: numbers for numeric columns,
// quoted text otherwise.
func (r *renderer) literal(v any, c *column) string {
	switch x := v.(type) {
	case float64:
		if c != nil && !c.numeric && !c.boolean {
			return r.quote(num(x))
		}
		return num(x)
	case string:
		if c != nil && c.numeric {
			if _, err := strconv.ParseFloat(x, 64); err == nil {
				return x
			}
		}
		return r.quote(x)
	case bool:
		if x {
			return "1"
		}
		return "0"
	}
	return r.quote(jsonval.Text(v))
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// dateRange renders [start, end) on a date column in its storage format.
func (r *renderer) dateRange(c *column, rng *dateRange) string {
	if c.numeric && !numericDate(c.dateFmt) {
		r.err = &declineError{why: fmt.Sprintf("I don't know how %s stores dates (a number: unix seconds or milliseconds?)", c.ref()),
			hint: "a catalog can say it (date_format unix_seconds or unix_millis)"}
	}
	lit := func(t time.Time) string {
		switch c.dateFmt {
		case catalog.DateUnixSeconds:
			return strconv.FormatInt(t.Unix(), 10)
		case catalog.DateUnixMillis:
			return strconv.FormatInt(t.UnixMilli(), 10)
		case catalog.DateYear:
			if t.Month() != 1 || t.Day() != 1 {
				r.err = &declineError{why: fmt.Sprintf("%s holds years only; ask for whole years", c.ref())}
			}
			return strconv.Itoa(t.Year())
		}
		return r.quote(day(t))
	}
	col := r.col(c)
	var parts []string
	if !rng.start.IsZero() {
		parts = append(parts, col+" >= "+lit(rng.start))
	}
	if !rng.end.IsZero() {
		parts = append(parts, col+" < "+lit(rng.end))
	}
	return strings.Join(parts, " AND ")
}

// grain truncates a date column to a day, week, month, quarter or year,
// as text that sorts in time order.
func (r *renderer) grain(c *column, g string) string {
	col := r.col(c)
	if c.numeric && !numericDate(c.dateFmt) {
		r.err = &declineError{why: fmt.Sprintf("I don't know how %s stores dates (a number: unix seconds or milliseconds?)", c.ref()),
			hint: "a catalog can say it (date_format unix_seconds or unix_millis)"}
	}
	if c.dateFmt == catalog.DateYear {
		if g != "year" {
			r.err = &declineError{why: fmt.Sprintf("%s holds years only; group by year", c.ref())}
		}
		return col
	}
	switch r.dialect {
	case dialectPostgres:
		return r.pgGrain(c, col, g)
	case dialectMySQL:
		return mysqlGrain(c, col, g)
	}
	switch c.dateFmt {
	case catalog.DateUnixSeconds:
		col = "datetime(" + col + ", 'unixepoch')"
	case catalog.DateUnixMillis:
		col = "datetime(" + col + " / 1000, 'unixepoch')"
	}
	return textGrain(col, g, "date("+"substr("+col+", 1, 10), 'weekday 0', '-6 days')")
}

func numericDate(f string) bool {
	return f == catalog.DateUnixSeconds || f == catalog.DateUnixMillis || f == catalog.DateYear
}

// textGrain cuts an ISO date text ('YYYY-MM-DD...').
func textGrain(col, g, week string) string {
	switch g {
	case "day":
		return "substr(" + col + ", 1, 10)"
	case "week":
		return week
	case "month":
		return "substr(" + col + ", 1, 7)"
	case "quarter":
		return "substr(" + col + ", 1, 4) || '-Q' || ((CAST(substr(" + col + ", 6, 2) AS INTEGER) + 2) / 3)"
	}
	return "substr(" + col + ", 1, 4)"
}

func (r *renderer) pgGrain(c *column, col, g string) string {
	switch {
	case c.dateFmt == catalog.DateUnixSeconds:
		col = "to_timestamp(" + col + ")"
	case c.dateFmt == catalog.DateUnixMillis:
		col = "to_timestamp(" + col + " / 1000.0)"
	case !c.dateType:
		return textGrain(col, g, "to_char(date_trunc('week', CAST(substr("+col+", 1, 10) AS date)), 'YYYY-MM-DD')")
	}
	switch g {
	case "day":
		return "to_char(" + col + ", 'YYYY-MM-DD')"
	case "week":
		return "to_char(date_trunc('week', " + col + "), 'YYYY-MM-DD')"
	case "month":
		return "to_char(" + col + ", 'YYYY-MM')"
	case "quarter":
		return "to_char(" + col + ", 'YYYY-\"Q\"Q')"
	}
	return "to_char(" + col + ", 'YYYY')"
}

// mysqlGrain cuts a date in MySQL: unix times through FROM_UNIXTIME (the
// session is UTC), then the ISO text MySQL gives DATE, DATETIME and text
// dates alike, as for SQLite; weeks start on Monday, quarters read
// 'YYYY-Qn'.
func mysqlGrain(c *column, col, g string) string {
	switch c.dateFmt {
	case catalog.DateUnixSeconds:
		col = "FROM_UNIXTIME(" + col + ")"
	case catalog.DateUnixMillis:
		col = "FROM_UNIXTIME(" + col + " DIV 1000)"
	}
	day := "SUBSTR(" + col + ", 1, 10)"
	switch g {
	case "day":
		return day
	case "week":
		return "DATE_FORMAT(DATE_SUB(" + day + ", INTERVAL WEEKDAY(" + day + ") DAY), '%Y-%m-%d')"
	case "month":
		return "SUBSTR(" + col + ", 1, 7)"
	case "quarter":
		return "CONCAT(SUBSTR(" + col + ", 1, 4), '-Q', (CAST(SUBSTR(" + col + ", 6, 2) AS UNSIGNED) + 2) DIV 3)"
	}
	return "SUBSTR(" + col + ", 1, 4)"
}

// reserved words are quoted in both dialects (quoting more than needed is harmless).
var reserved = setOf(
	"all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "authorization",
	"between", "binary", "both", "by", "case", "cast", "check", "collate", "column", "constraint",
	"create", "cross", "current_date", "current_role", "current_time", "current_timestamp",
	"current_user", "date", "default", "deferrable", "delete", "desc", "distinct", "do", "drop", "else",
	"end", "except", "exists", "false", "fetch", "for", "foreign", "from", "full", "grant", "group",
	"having", "if", "ilike", "in", "index", "initially", "inner", "insert", "intersect", "into", "is",
	"isnull", "join", "key", "lateral", "leading", "left", "like", "limit", "localtime",
	"localtimestamp", "natural", "not", "notnull", "null", "offset", "on", "only", "or", "order",
	"outer", "over", "partition", "placing", "primary", "range", "references", "returning", "right",
	"rows", "select", "session_user", "similar", "some", "symmetric", "table", "tablesample", "then",
	"time", "timestamp", "to", "trailing", "transaction", "true", "union", "unique", "update", "user",
	"using", "values", "variadic", "verbose", "when", "where", "window", "with", "year", "month", "day",
	"count", "sum", "min", "max", "avg", "position", "value", "groups",
)
