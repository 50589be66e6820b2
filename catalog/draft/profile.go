package draft

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"talk2tables/schema"
	"talk2tables/sqlscan"
)

// typeClass is what a declared column type says, in either dialect.
type typeClass int

const (
	typeUnknown  typeClass = iota // SQLite's untyped columns: the values decide
	typeInteger                   // INTEGER, BIGINT, SERIAL ...
	typeReal                      // REAL, FLOAT, DOUBLE PRECISION
	typeDecimal                   // NUMERIC, DECIMAL, MONEY: exact numbers, often money
	typeText                      // TEXT, VARCHAR, CHAR, CLOB, UUID
	typeBool                      // BOOLEAN, BOOL, BIT
	typeDate                      // DATE
	typeDateTime                  // DATETIME, TIMESTAMP (with or without time zone)
	typeTime                      // TIME of day
	typeBinary                    // BLOB, BYTEA
	typeOther                     // JSON, XML, arrays, geometry: neither compared nor grouped
)

// classifyType reads a declared type the way SQLite's affinity rules and
// PostgreSQL's type names both allow.
func classifyType(declared string) typeClass {
	t := strings.ToUpper(strings.TrimSpace(declared))
	switch {
	case t == "":
		return typeUnknown
	case strings.Contains(t, "[]") || strings.HasPrefix(t, "ARRAY") || strings.Contains(t, "JSON") || strings.Contains(t, "XML") ||
		strings.Contains(t, "POINT") || strings.Contains(t, "POLYGON") || strings.Contains(t, "GEOM") || strings.Contains(t, "TSVECTOR") ||
		strings.Contains(t, "INTERVAL") || strings.Contains(t, "RANGE"):
		return typeOther
	case strings.HasPrefix(t, "BOOL") || t == "BIT":
		return typeBool
	case strings.HasPrefix(t, "TIMESTAMP") || strings.HasPrefix(t, "DATETIME"):
		return typeDateTime
	case t == "DATE":
		return typeDate
	case strings.HasPrefix(t, "TIME"):
		return typeTime
	case strings.Contains(t, "INT") || strings.Contains(t, "SERIAL"):
		return typeInteger
	case strings.Contains(t, "CHAR") || strings.Contains(t, "CLOB") || strings.Contains(t, "TEXT") || t == "UUID" || t == "NAME" || t == "CITEXT":
		return typeText
	case strings.Contains(t, "BLOB") || t == "BYTEA" || strings.Contains(t, "BINARY"):
		return typeBinary
	case strings.Contains(t, "REAL") || strings.Contains(t, "FLOA") || strings.Contains(t, "DOUB"):
		return typeReal
	case strings.Contains(t, "NUMERIC") || strings.Contains(t, "DECIMAL") || strings.Contains(t, "MONEY") || strings.Contains(t, "NUMBER"):
		return typeDecimal
	}
	return typeUnknown
}

// orderable reports whether MIN and MAX work on the type in both dialects
// (PostgreSQL has no MIN(boolean)).
func (c typeClass) orderable() bool { return c != typeBool && c != typeOther && c != typeBinary }

// distinctable reports whether COUNT(DISTINCT) works (json has no equality).
func (c typeClass) distinctable() bool { return c != typeOther }

// profile is what sampling found about one column.
type profile struct {
	nonNull  int64 // non-null values in the sample
	distinct int64 // distinct non-null values in the sample (-1: not counted)
	min, max any   // over the sample (nil: not computed)
	samples  []any // non-null values from the first sampled rows
	maxLen   int   // longest sampled text
	sumLen   int   // total length of sampled texts
	texts    int   // sampled text values
}

// tableProfile is what sampling found about one table.
type tableProfile struct {
	sampled int64 // rows the statistics cover (at most Options.SampleRows)
	ok      bool  // the statistics query succeeded
	cols    map[string]*profile
	err     string // why sampling failed, for the notes
}

// quoter quotes identifiers for one dialect: double quotes (SQLite,
// PostgreSQL) or backticks (MySQL, where double quotes are strings).
type quoter byte

// quoterFor returns the quoter of a schema's dialect.
func quoterFor(dialect string) quoter {
	if d, err := sqlscan.ParseDialect(dialect); err == nil && d == sqlscan.MySQL {
		return '`'
	}
	return '"'
}

// quote quotes an identifier.
func (q quoter) quote(s string) string {
	if q == 0 {
		q = '"'
	}
	c := string(rune(q))
	return c + strings.ReplaceAll(s, c, c+c) + c
}

// from names a table in FROM: "schema"."table" when it has a schema.
func (q quoter) from(t *schema.Table) string {
	if t.Schema != "" {
		return q.quote(t.Schema) + "." + q.quote(t.Name)
	}
	return q.quote(t.Name)
}

// maxQueryChars keeps each sampling statement well under database-mcp's
// query length limit (20,000 characters by default).
const maxQueryChars = 12000

// profileTable samples one table: one statistics query per chunk of columns
// over the first SampleRows rows, then the first rows themselves.
func (d *drafter) profileTable(ctx context.Context, t *schema.Table) *tableProfile {
	p := &tableProfile{cols: map[string]*profile{}}
	for _, c := range t.Columns {
		p.cols[c.Name] = &profile{distinct: -1}
	}
	if len(t.Columns) == 0 {
		return p
	}
	limit := d.opts.SampleRows
	if t.Kind == schema.KindView {
		limit = min(limit, d.opts.ViewSampleRows)
	}
	p.ok = true
	for _, chunk := range chunkColumns(t.Columns) {
		// A type without MIN/MAX or equality in this database (a PostgreSQL
		// extension type, say) costs only those figures: ask again without them.
		var err error
		for _, level := range []statLevel{statFull, statNoMinMax, statCounts} {
			if err = d.statistics(ctx, t, chunk, limit, level, p); err == nil || ctx.Err() != nil {
				break
			}
		}
		if err != nil {
			p.ok, p.err = false, err.Error()
			break
		}
	}
	if err := d.sampleRows(ctx, t, p); err != nil && p.err == "" {
		p.err = err.Error()
	}
	return p
}

// chunkColumns splits columns so each statistics query stays short.
func chunkColumns(cols []schema.Column) [][]schema.Column {
	var out [][]schema.Column
	var cur []schema.Column
	size := 0
	for _, c := range cols {
		n := 4*len(quoter('"').quote(c.Name)) + 64
		if len(cur) > 0 && (size+n > maxQueryChars || len(cur) >= 100) {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, c)
		size += n
	}
	return append(out, cur)
}

// statLevel is how much the statistics query asks.
type statLevel int

const (
	statFull     statLevel = iota // counts, distinct counts, MIN and MAX
	statNoMinMax                  // counts and distinct counts
	statCounts                    // counts only
)

// statistics counts rows, non-null and distinct values and reads MIN/MAX of
// each column in the first limit rows:
//
//	SELECT COUNT(*), COUNT("a"), COUNT(DISTINCT "a"), MIN("a"), MAX("a"), ...
//	FROM (SELECT "a", ... FROM "t" LIMIT 10000) AS s
func (d *drafter) statistics(ctx context.Context, t *schema.Table, cols []schema.Column, limit int, level statLevel, p *tableProfile) error {
	sel := []string{"COUNT(*)"}
	inner := make([]string, len(cols))
	type slot struct{ count, distinct, min, max int } // positions in the select list, -1: not asked
	slots := make([]slot, len(cols))
	for i, c := range cols {
		q := d.q.quote(c.Name)
		inner[i] = q
		tc := classifyType(c.Type)
		slots[i] = slot{len(sel), -1, -1, -1}
		sel = append(sel, "COUNT("+q+")")
		if tc.distinctable() && level <= statNoMinMax {
			slots[i].distinct = len(sel)
			sel = append(sel, "COUNT(DISTINCT "+q+")")
		}
		if tc.orderable() && level == statFull && !strings.EqualFold(strings.TrimSpace(c.Type), "uuid") {
			slots[i].min = len(sel)
			sel = append(sel, "MIN("+q+")")
			slots[i].max = len(sel)
			sel = append(sel, "MAX("+q+")")
		}
	}
	query := fmt.Sprintf("SELECT %s FROM (SELECT %s FROM %s LIMIT %d) AS s",
		strings.Join(sel, ", "), strings.Join(inner, ", "), d.q.from(t), limit)
	res, err := d.query(ctx, query, 1)
	if err != nil {
		return err
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != len(sel) {
		return fmt.Errorf("statistics of %s: unexpected result shape", t.Name)
	}
	row := res.Rows[0]
	p.sampled = toInt(row[0])
	for i, c := range cols {
		cp := p.cols[c.Name]
		s := slots[i]
		cp.nonNull = toInt(row[s.count])
		if s.distinct >= 0 {
			cp.distinct = toInt(row[s.distinct])
		}
		if s.min >= 0 {
			cp.min, cp.max = row[s.min], row[s.max]
		}
	}
	return nil
}

// sampleSize is how many rows sampleRows reads for value patterns.
const sampleSize = 50

// sampleRows reads the first rows for value patterns (dates, emails, decimal
// places); a column that is NULL in all of them but has values gets a
// targeted query for its first non-null values.
func (d *drafter) sampleRows(ctx context.Context, t *schema.Table, p *tableProfile) error {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = d.q.quote(c.Name)
	}
	res, err := d.query(ctx, fmt.Sprintf("SELECT %s FROM %s LIMIT %d", strings.Join(names, ", "), d.q.from(t), sampleSize), sampleSize)
	if err != nil {
		return err
	}
	for _, row := range res.Rows {
		for i, c := range t.Columns {
			if i < len(row) && row[i] != nil {
				p.cols[c.Name].add(row[i])
			}
		}
	}
	for _, c := range t.Columns {
		cp := p.cols[c.Name]
		// Without statistics (they failed or timed out) a targeted query
		// might scan a huge table: the column is drafted from its name.
		if len(cp.samples) > 0 || !p.ok || cp.nonNull == 0 {
			continue
		}
		q := d.q.quote(c.Name)
		res, err := d.query(ctx, fmt.Sprintf("SELECT %s FROM %s WHERE %s IS NOT NULL LIMIT %d", q, d.q.from(t), q, sampleSize), sampleSize)
		if err != nil {
			return err
		}
		for _, row := range res.Rows {
			if len(row) == 1 && row[0] != nil {
				cp.add(row[0])
			}
		}
	}
	return nil
}

func (cp *profile) add(v any) {
	cp.samples = append(cp.samples, v)
	if s, ok := v.(string); ok {
		n := len([]rune(s))
		cp.texts++
		cp.sumLen += n
		cp.maxLen = max(cp.maxLen, n)
	}
}

// avgLen is the mean length of the sampled texts.
func (cp *profile) avgLen() float64 {
	if cp.texts == 0 {
		return 0
	}
	return float64(cp.sumLen) / float64(cp.texts)
}

// toInt reads a count.
func toInt(v any) int64 {
	f, ok := toFloat(v)
	if !ok {
		return 0
	}
	return int64(f)
}

// toFloat reads a number, also one a driver returned as text.
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

// isNumber reports a numeric value (not text that looks like one).
func isNumber(v any) bool {
	switch v.(type) {
	case int64, int, float64:
		return true
	}
	return false
}
