package datagen_test

import (
	"database/sql"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"talk2tables/catalog"
	"talk2tables/internal/testfixture"
)

// quote quotes an SQLite identifier.
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

var distinctClaim = regexp.MustCompile(`(\d+) distinct values`)

// TestCatalogMatchesDatabase proves the sample catalog and a generated
// database agree: every table, column, key, reference, date column,
// derived measure, entity and "why" claim holds against the data.
func TestCatalogMatchesDatabase(t *testing.T) {
	cat := loadCatalog(t)
	db := openDB(t, testfixture.SalesDB(t, 5000))

	type colInfo struct {
		typ string
		pk  bool
	}
	columns := map[string]map[string]colInfo{} // table -> column -> info
	rows, err := db.Query(`SELECT m.name, p.name, p.type, p.pk FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var table, col, typ string
		var pk int
		if err := rows.Scan(&table, &col, &typ, &pk); err != nil {
			t.Fatal(err)
		}
		if columns[table] == nil {
			columns[table] = map[string]colInfo{}
		}
		columns[table][col] = colInfo{typ: typ, pk: pk > 0}
	}
	rows.Close()

	t.Run("tables and columns", func(t *testing.T) {
		for tname, tb := range cat.Tables {
			if columns[tname] == nil {
				t.Errorf("table %s: not in the database", tname)
				continue
			}
			if len(tb.Columns) != len(columns[tname]) {
				t.Errorf("table %s: catalog has %d columns, database %d", tname, len(tb.Columns), len(columns[tname]))
			}
			if tb.Key != "" && !columns[tname][tb.Key].pk {
				t.Errorf("table %s: key %s is not its primary key", tname, tb.Key)
			}
			for cname, c := range tb.Columns {
				_, ok := columns[tname][cname]
				if !ok {
					t.Errorf("%s.%s: no such column", tname, cname)
					continue
				}
				checkColumn(t, db, tname, cname, c)
			}
		}
	})

	t.Run("derived measures run", func(t *testing.T) {
		for name, m := range cat.Measures {
			expr := m.Formula
			if m.Expression != "" {
				expr = strings.ToUpper(m.Aggregate) + "(" + m.Expression + ")"
			}
			for _, col := range regexp.MustCompile(`\{([^{}]*)\}`).FindAllStringSubmatch(expr, -1) {
				expr = strings.ReplaceAll(expr, col[0], quote(col[1]))
			}
			var v sql.NullFloat64
			if err := db.QueryRow("SELECT " + expr + " FROM " + quote(m.Table)).Scan(&v); err != nil || !v.Valid || v.Float64 <= 0 {
				t.Errorf("measure %q: SELECT %s FROM %s = %v, %v; want a positive number", name, expr, m.Table, v, err)
			}
		}
	})

	t.Run("entities", func(t *testing.T) {
		for _, set := range cat.Entities {
			for _, e := range set.Values {
				if set.Key != "" {
					label := make([]string, len(set.Columns))
					for i, c := range set.Columns {
						label[i] = "coalesce(" + quote(c) + ", '')"
					}
					q := fmt.Sprintf("SELECT %s FROM %s WHERE %s = ?", strings.Join(label, " || ' ' || "), quote(set.Table), quote(set.Key))
					var name string
					if err := db.QueryRow(q, e.Key).Scan(&name); err != nil || name != e.Name {
						t.Errorf("%s %v: name %q (%v), catalog says %q", set.Table, e.Key, name, err, e.Name)
					}
					for attr, want := range e.Attributes {
						if _, isCol := columns[set.Table][attr]; !isCol {
							continue
						}
						var got any
						db.QueryRow(fmt.Sprintf("SELECT %s FROM %s WHERE %s = ?", quote(attr), quote(set.Table), quote(set.Key)), e.Key).Scan(&got)
						if fmt.Sprint(got) != fmt.Sprint(want) {
							t.Errorf("%s %v: %s = %v, catalog attribute says %v", set.Table, e.Key, attr, got, want)
						}
					}
					continue
				}
				q := fmt.Sprintf("SELECT count(*) FROM %s WHERE %s = ?", quote(set.Table), quote(set.Columns[0]))
				if queryInt(t, db, q, e.Name) == 0 {
					t.Errorf("%s.%s has no value %q", set.Table, set.Columns[0], e.Name)
				}
			}
		}
	})
}

// checkColumn checks what the catalog says about one column against the data.
func checkColumn(t testing.TB, db *sql.DB, table, name string, c *catalog.Column) {
	t.Helper()
	qt, qc := quote(table), quote(name)
	switch c.Kind {
	case catalog.KindMeasure:
		if n := queryInt(t, db, fmt.Sprintf("SELECT count(*) FROM %s WHERE typeof(%s) NOT IN ('integer', 'real')", qt, qc)); n > 0 {
			t.Errorf("%s.%s: measure with %d non-numeric values", table, name, n)
		}
	case catalog.KindDate:
		if c.DateFormat != catalog.DateISO {
			t.Errorf("%s.%s: date format %s, the sample stores ISO dates", table, name, c.DateFormat)
		}
		if n := queryInt(t, db, fmt.Sprintf("SELECT count(*) FROM %s WHERE %s NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'", qt, qc)); n > 0 {
			t.Errorf("%s.%s: %d values are not YYYY-MM-DD", table, name, n)
		}
	}
	if c.References != "" {
		rt, rc, _ := strings.Cut(c.References, ".")
		q := fmt.Sprintf("SELECT count(*) FROM %s WHERE %s NOT IN (SELECT %s FROM %s)", qt, qc, quote(rc), quote(rt))
		if n := queryInt(t, db, q); n > 0 {
			t.Errorf("%s.%s: %d values are missing from %s", table, name, n, c.References)
		}
	}
	if m := distinctClaim.FindStringSubmatch(c.Why); m != nil {
		want, _ := strconv.Atoi(m[1])
		if got := queryInt(t, db, fmt.Sprintf("SELECT count(DISTINCT %s) FROM %s", qc, qt)); got != want {
			t.Errorf("%s.%s: why says %d distinct values, the data has %d", table, name, want, got)
		}
	}
}
