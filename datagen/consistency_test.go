package datagen_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"talk2tables/catalog"
	"talk2tables/internal/testfixture"
)

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// TestCatalogMatchesDatabase proves the catalog and a generated database agree:
// every reference, mapped column, table alias and date term works against it.
func TestCatalogMatchesDatabase(t *testing.T) {
	cat := loadCatalog(t)
	db := openDB(t, testfixture.SalesDB(t, 5000))

	columns := map[string]map[string]bool{} // table -> column set
	rows, err := db.Query(`SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var table, col string
		if err := rows.Scan(&table, &col); err != nil {
			t.Fatal(err)
		}
		if columns[table] == nil {
			columns[table] = map[string]bool{}
		}
		columns[table][col] = true
	}
	rows.Close()
	hasColumn := func(ref string) bool {
		table, col, ok := strings.Cut(ref, ".")
		return ok && columns[table][col]
	}

	t.Run("database references", func(t *testing.T) {
		for _, p := range cat.Products() {
			for ref, raw := range p.DatabaseReferences {
				if !hasColumn(ref) {
					t.Errorf("%s: database_references.%s: no such column", p.Key, ref)
					continue
				}
				var v any
				if err := json.Unmarshal(raw, &v); err != nil {
					t.Fatal(err)
				}
				table, col, _ := strings.Cut(ref, ".")
				if table != "products" {
					q := fmt.Sprintf("SELECT count(*) FROM %s WHERE %s = ?", table, col)
					if n := queryInt(t, db, q, v); n == 0 {
						t.Errorf("%s: %s = %v matches no row", p.Key, ref, v)
					}
					continue
				}
				q := fmt.Sprintf("SELECT count(*) FROM products WHERE product_id = ? AND %s = ?", col)
				if n := queryInt(t, db, q, p.ID(), v); n != 1 {
					t.Errorf("%s: product %d has no %s = %v", p.Key, p.ID(), ref, v)
				}
			}
			var name, category string
			err := db.QueryRow("SELECT product_name, category FROM products WHERE product_id = ?", p.ID()).Scan(&name, &category)
			if err != nil {
				t.Errorf("%s: product %d: %v", p.Key, p.ID(), err)
				continue
			}
			if name != p.CanonicalName || category != p.Category() {
				t.Errorf("%s: product %d is %q in %q, catalog says %q in %q", p.Key, p.ID(), name, category, p.CanonicalName, p.Category())
			}
		}
		if got, want := queryInt(t, db, "SELECT count(*) FROM products"), len(cat.ProductAliases); got != want {
			t.Errorf("products table has %d rows, catalog %d products", got, want)
		}
	})

	t.Run("user friendly terms", func(t *testing.T) {
		for term, ref := range cat.ColumnMappings.UserFriendlyTerms {
			if !hasColumn(ref) {
				t.Errorf("user_friendly_terms[%q] = %q: no such column", term, ref)
			}
		}
	})

	t.Run("date columns and table aliases", func(t *testing.T) {
		for table, col := range cat.ColumnMappings.DateColumns {
			if !columns[table][col] {
				t.Errorf("date_columns[%q] = %q: no such column", table, col)
			}
		}
		for table := range cat.ColumnMappings.TableAliases {
			if columns[table] == nil {
				t.Errorf("table_aliases names table %q, which does not exist", table)
			}
		}
	})

	t.Run("date terms run", func(t *testing.T) {
		for term, expr := range cat.ColumnMappings.DateTerms {
			for table, col := range cat.ColumnMappings.DateColumns {
				if !identRe.MatchString(table) || !identRe.MatchString(col) {
					t.Fatalf("bad identifier %s.%s", table, col)
				}
				cond := strings.ReplaceAll(expr, catalog.DateColumnPlaceholder, col)
				var n int
				if err := db.QueryRow(fmt.Sprintf("SELECT count(*) FROM %s WHERE %s", table, cond)).Scan(&n); err != nil {
					t.Errorf("date term %q on %s.%s: %v\n  SQL condition: %s", term, table, col, err, cond)
				}
			}
		}
		for _, term := range []string{"this month", "last 30 days", "today", "this year", "last month", "last year", "this quarter", "last quarter", "year to date"} {
			expr, ok := cat.ColumnMappings.DateTerms[term]
			if !ok {
				t.Errorf("date term %q missing", term)
				continue
			}
			q := "SELECT count(*) FROM sales WHERE " + strings.ReplaceAll(expr, catalog.DateColumnPlaceholder, "sale_date")
			if n := queryInt(t, db, q); n == 0 {
				t.Errorf("date term %q finds no sales; want some (%s)", term, q)
			}
		}
		// Independent check of the quarter arithmetic against a Go-computed start.
		now := testfixture.AsOf()
		qStart := fmt.Sprintf("%04d-%02d-01", now.Year(), (int(now.Month())-1)/3*3+1)
		want := queryInt(t, db, "SELECT count(*) FROM sales WHERE sale_date >= ?", qStart)
		got := queryInt(t, db, "SELECT count(*) FROM sales WHERE "+strings.ReplaceAll(cat.ColumnMappings.DateTerms["this quarter"], catalog.DateColumnPlaceholder, "sale_date"))
		if got != want {
			t.Errorf("this quarter: %d sales, want %d (since %s)", got, want, qStart)
		}
	})

	t.Run("aliases resolve to exactly one product", func(t *testing.T) {
		owners := map[string][]string{}
		for _, p := range cat.Products() {
			for _, a := range p.Aliases {
				owners[a] = append(owners[a], p.Key)
			}
		}
		for alias, keys := range owners {
			if len(keys) != 1 {
				t.Errorf("alias %q belongs to %v, want exactly one product", alias, keys)
			}
			p, ok := cat.Lookup(strings.ToUpper(alias))
			if !ok || p.Key != keys[0] {
				t.Errorf("Lookup(%q) = %q, %v; want %q", strings.ToUpper(alias), p.Key, ok, keys[0])
			}
		}
	})
}
