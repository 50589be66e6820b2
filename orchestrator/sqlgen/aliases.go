package sqlgen

import "talk2tables/sqlscan"

// TableAliases maps the names a statement reads its tables by — each
// table's alias and its own name, lower case — to the table as written
// ("schema.table" when qualified, quotes removed): "w" → "Widget".
// Names of WITH clauses and table functions are left out; an alias given
// to two tables keeps the first.
func TableAliases(dialect, sql string) map[string]string {
	out := map[string]string{}
	d, err := sqlscan.ParseDialect(dialect)
	if err != nil {
		d = sqlscan.SQLite
	}
	toks, err := d.Tokenize(sql)
	if err != nil {
		return out
	}
	ctes := cteNames(toks)
	ident := identName
	if d == sqlscan.Postgres {
		ident = sqlscan.Token.Ident // PostgreSQL folds bare names to lower case
	}
	add := func(k, table string) {
		if _, ok := out[k]; !ok {
			out[k] = table
		}
	}
	for i, t := range toks {
		if !t.IsWord("FROM") && !t.IsWord("JOIN") {
			continue
		}
		j := i + 1
		for j < len(toks) && toks[j].IsIdent() && !toks[j].IsWord("LATERAL") {
			name := ident(toks[j])
			j++
			for j+1 < len(toks) && toks[j].IsPunct(".") && toks[j+1].IsIdent() {
				name += "." + ident(toks[j+1])
				j += 2
			}
			if j < len(toks) && toks[j].IsPunct("(") || ctes[lowerASCII(name)] {
				break
			}
			add(lowerASCII(name), name)
			if k := lastPart(name); k != name {
				add(lowerASCII(k), name)
			}
			switch {
			case j+1 < len(toks) && toks[j].IsWord("AS") && toks[j+1].IsIdent():
				add(lowerASCII(ident(toks[j+1])), name)
				j += 2
			case j < len(toks) && toks[j].IsIdent() && !clauseWords[toks[j].Upper]:
				add(lowerASCII(ident(toks[j])), name)
				j++
			}
			if !t.IsWord("FROM") || j >= len(toks) || !toks[j].IsPunct(",") {
				break
			}
			j++
		}
	}
	return out
}

// lastPart is the table of "schema.table".
func lastPart(name string) string {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '.' {
			return name[i+1:]
		}
	}
	return name
}
