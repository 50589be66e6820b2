package draft

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"talk2tables/catalog"
	"talk2tables/schema"
)

var placeholderRe = regexp.MustCompile(`\{([^{}]*)\}`)

// Check compares a catalog with a database's live schema: every table and
// column the catalog declares exists, and every derived measure runs (over
// no rows: WHERE 1 = 0). Each problem names the catalog path and what to
// do; an error means the schema could not be read.
func Check(ctx context.Context, s *catalog.Semantic, src Source) ([]catalog.Problem, error) {
	sch, err := src.Schema(ctx)
	if err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	q := quoterFor(sch.Dialect)
	live := map[string]*schema.Table{}
	for i := range sch.Tables {
		t := &sch.Tables[i]
		live[t.QualifiedName()] = t
	}
	var problems []catalog.Problem
	add := func(path, format string, args ...any) {
		problems = append(problems, catalog.Problem{Path: path, Message: fmt.Sprintf(format, args...)})
	}
	for _, name := range slices.Sorted(maps.Keys(s.Tables)) {
		t := s.Tables[name]
		path := catalog.PathKey("tables", name)
		lt := live[name]
		if lt == nil {
			add(path, "the database has no table or view %q; rename the entry to one of its tables or remove it", name)
			continue
		}
		cols := map[string]bool{}
		for _, c := range lt.Columns {
			cols[c.Name] = true
		}
		for _, cname := range slices.Sorted(maps.Keys(t.Columns)) {
			if !cols[cname] {
				add(catalog.PathKey(path+".columns", cname), "table %q has no column %q; rename the entry to one of its columns or remove it", name, cname)
			}
		}
		if lt.Kind == schema.KindView && t.Role != catalog.RoleView {
			add(path+".role", "%q is a view in the database; set role to view", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Measures)) {
		m := s.Measures[name]
		lt := live[m.Table]
		if lt == nil {
			continue // reported with the table
		}
		expr := m.Formula
		if m.Expression != "" {
			expr = strings.ToUpper(m.Aggregate) + "(" + m.Expression + ")"
		}
		expr = placeholderRe.ReplaceAllStringFunc(expr, func(p string) string { return q.quote(p[1 : len(p)-1]) })
		query := fmt.Sprintf("SELECT %s FROM %s WHERE 1 = 0", expr, q.from(lt))
		qctx, cancel := context.WithTimeout(ctx, DefaultQueryTimeout)
		_, err := src.Query(qctx, query, 1)
		cancel()
		if err != nil {
			add(catalog.PathKey("measures", name), "does not run on the database (%v); fix its SQL", err)
		}
	}
	return problems, ctx.Err()
}
