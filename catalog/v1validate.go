package catalog

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

var (
	columnRef  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$`)
	identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	numericID  = regexp.MustCompile(`^[1-9][0-9]{0,17}$`)
)

// aggregateFunctions are the SQL aggregates aggregation_terms may map to.
var aggregateFunctions = []string{"SUM", "COUNT", "AVG", "MAX", "MIN"}

// validator walks the generic JSON tree and collects every problem.
type validator struct {
	problems []Problem
	// namesTable: some product reference or column mapping names a table.
	namesTable bool
}

func (v *validator) addf(path, format string, args ...any) {
	v.problems = append(v.problems, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

func typeName(x any) string {
	switch x.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", x)
}

// object checks x is an object whose keys are all in allowed (nil: any key),
// reporting unknown ones, and that required keys are present.
func (v *validator) object(path string, x any, allowed, required []string) (map[string]any, bool) {
	m, ok := x.(map[string]any)
	if !ok {
		v.addf(pathOrRoot(path), "must be an object, got %s", typeName(x))
		return nil, false
	}
	if allowed != nil {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !slices.Contains(allowed, k) {
				v.addf(join(path, k), "unknown field (allowed: %s)", strings.Join(allowed, ", "))
			}
		}
	}
	for _, k := range required {
		if _, ok := m[k]; !ok {
			v.addf(join(path, k), "missing")
		}
	}
	return m, true
}

func pathOrRoot(p string) string {
	if p == "" {
		return "$"
	}
	return p
}

func (v *validator) str(path string, x any, nonEmpty bool) (string, bool) {
	s, ok := x.(string)
	if !ok {
		v.addf(path, "must be a string, got %s", typeName(x))
		return "", false
	}
	if nonEmpty && strings.TrimSpace(s) == "" {
		v.addf(path, "must not be empty")
		return "", false
	}
	return s, true
}

func (v *validator) stringList(path string, x any) ([]string, bool) {
	arr, ok := v.stringArray(path, x)
	if ok && len(arr) == 0 {
		v.addf(path, "must not be empty")
		return nil, false
	}
	return arr, ok
}

// stringArray checks an array, possibly empty, of non-empty strings.
func (v *validator) stringArray(path string, x any) ([]string, bool) {
	arr, ok := x.([]any)
	if !ok {
		v.addf(path, "must be an array of strings, got %s", typeName(x))
		return nil, false
	}
	out := make([]string, 0, len(arr))
	good := true
	for i, e := range arr {
		s, ok := v.str(index(path, i), e, true)
		if !ok {
			good = false
			continue
		}
		out = append(out, s)
	}
	return out, good
}

// product is what cross-product checks need to know about an entry.
type productInfo struct {
	key, id, name string
}

func (v *validator) document(doc any) {
	top, ok := v.object("", doc, []string{"last_updated", "product_aliases", "column_mappings"}, nil)
	if !ok {
		return
	}
	_, pa := top["product_aliases"]
	_, cm := top["column_mappings"]
	if !pa && !cm {
		v.addf("$", "a version-1 catalog has product_aliases, column_mappings or both; neither is here")
	}
	if lu, present := top["last_updated"]; present {
		if s, ok := v.str("last_updated", lu, true); ok {
			if _, err := time.Parse(time.RFC3339, s); err != nil {
				v.addf("last_updated", "must be an RFC 3339 time like 2026-11-01T00:00:00Z, got %q", s)
			}
		}
	}
	if pa, present := top["product_aliases"]; present {
		v.productAliases(pa)
	}
	if cm, present := top["column_mappings"]; present {
		v.columnMappings(cm)
	}
	if (pa || cm) && !v.namesTable && len(v.problems) == 0 {
		v.addf("$", "names no table: add products with database_references, or column_mappings naming columns as table.column")
	}
}

func (v *validator) productAliases(x any) {
	m, ok := v.object("product_aliases", x, nil, nil)
	if !ok {
		return
	}
	aliasOwner := map[string]productInfo{} // alias -> first product claiming it
	idOwner := map[string]string{}         // canonical id -> key
	nameOwner := map[string]string{}       // lowercase canonical name -> key
	for _, key := range slices.Sorted(maps.Keys(m)) {
		path := join("product_aliases", key)
		info, aliases := v.product(path, key, m[key])
		if info.id != "" {
			if other, dup := idOwner[info.id]; dup {
				v.addf(join(path, "canonical_id"), "id %s is also used by product_aliases.%s", info.id, other)
			} else {
				idOwner[info.id] = key
			}
		}
		if info.name != "" {
			ln := strings.ToLower(info.name)
			if other, dup := nameOwner[ln]; dup {
				v.addf(join(path, "canonical_name"), "name %q is also used by product_aliases.%s", info.name, other)
			} else {
				nameOwner[ln] = key
			}
		}
		for i, a := range aliases {
			la := normalize(a)
			if owner, dup := aliasOwner[la]; dup && owner.key != key {
				v.addf(index(join(path, "aliases"), i), "alias %q is shared by product_aliases.%s (%s) and product_aliases.%s (%s); an alias must name one product",
					a, owner.key, describe(owner), key, describe(info))
				continue
			}
			aliasOwner[la] = productInfo{key: key, id: info.id, name: info.name}
		}
	}
}

func describe(p productInfo) string {
	switch {
	case p.name != "" && p.id != "":
		return fmt.Sprintf("%q, id %s", p.name, p.id)
	case p.name != "":
		return fmt.Sprintf("%q", p.name)
	case p.id != "":
		return "id " + p.id
	}
	return "no canonical id"
}

func (v *validator) product(path, key string, x any) (productInfo, []string) {
	info := productInfo{key: key}
	if strings.TrimSpace(key) == "" {
		v.addf(path, "product key must not be empty")
	}
	m, ok := v.object(path, x, []string{"canonical_id", "canonical_name", "aliases", "database_references", "categories"},
		[]string{"canonical_id", "canonical_name", "database_references"})
	if !ok {
		return info, nil
	}
	if raw, present := m["canonical_id"]; present {
		if s, ok := v.str(join(path, "canonical_id"), raw, true); ok {
			info.id = s
		}
	}
	if raw, present := m["canonical_name"]; present {
		if s, ok := v.str(join(path, "canonical_name"), raw, true); ok {
			info.name = s
		}
	}
	var aliases []string
	if raw, present := m["aliases"]; present {
		ap := join(path, "aliases")
		list, _ := v.stringArray(ap, raw)
		seen := map[string]bool{}
		for i, a := range list {
			if seen[normalize(a)] {
				v.addf(index(ap, i), "alias %q is listed twice", a)
				continue
			}
			seen[normalize(a)] = true
			aliases = append(aliases, a)
		}
	}
	if !slices.ContainsFunc(aliases, func(a string) bool { return normalize(a) == normalize(key) }) && key != "" {
		aliases = append(aliases, key) // the key resolves to the product too
	}
	if raw, present := m["database_references"]; present {
		v.databaseReferences(join(path, "database_references"), raw, info)
	}
	if raw, present := m["categories"]; present {
		v.stringArray(join(path, "categories"), raw)
	}
	return info, aliases
}

func (v *validator) databaseReferences(path string, x any, info productInfo) {
	m, ok := v.object(path, x, nil, nil)
	if !ok {
		return
	}
	// The product's row: a key reference (the canonical id) and a name
	// reference (the canonical name) of one table, products.product_id and
	// products.product_name in the sample catalog.
	keyRef, nameRef := v1RowRefs(m, info.id, info.name)
	switch {
	case keyRef == "" && numericID.MatchString(info.id):
		v.addf(join(path, RefProductID), "missing: add the product's key column as \"table.column\": %s (e.g. %q)", info.id, RefProductID)
	case keyRef == "" && info.id != "":
		v.addf(join(path, RefProductID), "missing: add the product's row key as \"table.column\": value (e.g. \"%s\": 123); canonical_id %q is not a key the database has", RefProductID, info.id)
	case nameRef == "" && info.name != "":
		v.addf(join(path, RefProductName), "missing: add the product's name column as \"table.column\": %q (e.g. %q)", info.name, RefProductName)
	case keyRef != "" && nameRef != "":
		if kt, _, _ := strings.Cut(keyRef, "."); !strings.HasPrefix(nameRef, kt+".") {
			v.addf(path, "the key reference %s and the name reference %s must be columns of one table", keyRef, nameRef)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		p := join(path, k)
		if !columnRef.MatchString(k) {
			v.addf(p, "key must be table.column")
			continue
		}
		v.namesTable = true
		switch val := m[k].(type) {
		case json.Number:
			switch k {
			case RefProductID:
				n, err := strconv.ParseInt(val.String(), 10, 64)
				if err != nil || n <= 0 {
					v.addf(p, "must be a positive integer, got %s", val)
				} else if numericID.MatchString(info.id) && strconv.FormatInt(n, 10) != info.id {
					v.addf(p, "is %d but canonical_id is %q; they must name the same product", n, info.id)
				}
			case RefUnitPrice:
				f, err := val.Float64()
				if err != nil || f <= 0 {
					v.addf(p, "must be a positive price, got %s", val)
				}
			case RefProductName:
				v.addf(p, "must be a string, got a number")
			}
		case string:
			switch k {
			case RefProductName:
				if info.name != "" && val != info.name {
					v.addf(p, "is %q but canonical_name is %q; they must match", val, info.name)
				}
			case RefProductID, RefUnitPrice:
				v.addf(p, "must be a number, got a string")
			}
		case bool:
			if k == RefProductID || k == RefProductName || k == RefUnitPrice {
				v.addf(p, "has the wrong type: a boolean")
			}
		default:
			v.addf(p, "must be a string, number or boolean, got %s", typeName(val))
		}
	}
}

func (v *validator) columnMappings(x any) {
	const path = "column_mappings"
	m, ok := v.object(path, x,
		[]string{"user_friendly_terms", "aggregation_terms", "date_terms", "date_columns", "table_aliases"}, nil)
	if !ok {
		return
	}
	if raw, present := m["user_friendly_terms"]; present {
		v.stringMap(join(path, "user_friendly_terms"), raw, func(p, s string) {
			if columnRef.MatchString(strings.TrimSpace(s)) {
				v.namesTable = true
				return
			}
			if !strings.ContainsAny(s, "({") {
				v.addf(p, "must name a column as table.column, or be an SQL expression (e.g. a date condition over %s), got %q", DateColumnPlaceholder, s)
				return
			}
			v.expression(p, s)
		})
	}
	if raw, present := m["aggregation_terms"]; present {
		v.stringMap(join(path, "aggregation_terms"), raw, func(p, s string) {
			if !slices.Contains(aggregateFunctions, s) {
				v.addf(p, "must be one of %s, got %q", strings.Join(aggregateFunctions, ", "), s)
			}
		})
	}
	if raw, present := m["date_terms"]; present {
		v.stringMap(join(path, "date_terms"), raw, func(p, s string) {
			if !strings.Contains(s, DateColumnPlaceholder) {
				v.addf(p, "must use the %s placeholder for the column", DateColumnPlaceholder)
			}
			v.expression(p, s)
		})
	}
	if raw, present := m["date_columns"]; present {
		v.stringMap(join(path, "date_columns"), raw, func(p, s string) {
			if !identifier.MatchString(s) {
				v.addf(p, "must be a column name, got %q", s)
			}
			v.namesTable = true
		})
	}
	if raw, present := m["table_aliases"]; present {
		tp := join(path, "table_aliases")
		if tm, ok := v.object(tp, raw, nil, nil); ok {
			for _, k := range slices.Sorted(maps.Keys(tm)) {
				if !identifier.MatchString(k) {
					v.addf(join(tp, k), "key must be a table name")
				}
				v.namesTable = true
				v.stringList(join(tp, k), tm[k])
			}
		}
	}
}

// expression checks a version-1 SQL expression: one expression (no ';'),
// balanced parentheses and quotes, and no placeholder but {date_column}.
func (v *validator) expression(path, s string) {
	if strings.Contains(s, ";") {
		v.addf(path, "must be a single SQL expression (no ';')")
	}
	depth, quoted := 0, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
		case quoted:
		case r == '(':
			depth++
		case r == ')':
			depth--
		}
		if depth < 0 {
			break
		}
	}
	switch {
	case quoted:
		v.addf(path, "has an unterminated quote: %q", s)
	case depth != 0:
		v.addf(path, "has unbalanced parentheses: %q", s)
	}
	for _, ph := range placeholder.FindAllString(s, -1) {
		if ph != DateColumnPlaceholder {
			v.addf(path, "unknown placeholder %s: the only placeholder is %s (the table's date column)", ph, DateColumnPlaceholder)
		}
	}
}

// stringMap checks an object of non-empty strings, calling check on each value.
func (v *validator) stringMap(path string, x any, check func(path, value string)) {
	m, ok := v.object(path, x, nil, nil)
	if !ok {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		p := join(path, k)
		if strings.TrimSpace(k) == "" {
			v.addf(p, "key must not be empty")
		}
		if s, ok := v.str(p, m[k], true); ok {
			check(p, s)
		}
	}
}

// v1RowRefs finds a version-1 product's key reference (products.product_id,
// else a number or string equal to the canonical id) and name reference
// (products.product_name, else a string equal to the canonical name).
func v1RowRefs(refs map[string]any, id, name string) (keyRef, nameRef string) {
	if _, ok := refs[RefProductID]; ok {
		keyRef = RefProductID
	}
	if _, ok := refs[RefProductName]; ok {
		nameRef = RefProductName
	}
	for _, k := range slices.Sorted(maps.Keys(refs)) {
		switch val := refs[k].(type) {
		case json.Number:
			if keyRef == "" && id != "" && val.String() == id {
				keyRef = k
			}
		case string:
			switch {
			case keyRef == "" && id != "" && val == id && k != nameRef:
				keyRef = k
			case nameRef == "" && name != "" && val == name && k != keyRef:
				nameRef = k
			}
		}
	}
	return keyRef, nameRef
}
