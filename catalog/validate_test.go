package catalog_test

import (
	"errors"
	"strings"
	"testing"

	"talk2tables/catalog"
)

// goodV2 is a small valid catalog in every feature; the bad cases edit it.
const goodV2 = `{
  "version": 2,
  "last_updated": "2026-11-01T00:00:00Z",
  "source": {"database": "shop.db", "dialect": "sqlite", "drafted_by": "test", "drafted_at": "2026-11-01T00:00:00Z", "notes": ["hand-made"]},
  "tables": {
    "Order Lines": {
      "words": ["order line", "order lines"], "role": "fact", "key": "LineId", "date_column": "SoldAt",
      "default_filter": {"column": "Status", "exclude": ["void"], "why": "void lines never count"},
      "columns": {
        "LineId": {"kind": "identifier", "why": "primary key"},
        "ItemId": {"kind": "identifier", "references": "Items.ItemId"},
        "UnitPrice": {"words": ["unit price"], "kind": "measure", "measure": "non_additive", "unit": "money"},
        "Qty": {"words": ["quantity"], "kind": "measure", "measure": "additive"},
        "Status": {"kind": "attribute"},
        "SoldAt": {"kind": "date", "date_format": "datetime"}
      }
    },
    "Items": {
      "words": ["items", "item"], "role": "dimension", "key": "ItemId", "label": ["Name"],
      "columns": {
        "ItemId": {"kind": "identifier"},
        "Name": {"kind": "label"},
        "Country": {"kind": "attribute"}
      }
    }
  },
  "measures": {
    "line amount": {"table": "Order Lines", "expression": "{UnitPrice} * {Qty}", "aggregate": "sum", "unit": "money", "words": ["sales"]},
    "items per line": {"table": "Order Lines", "formula": "SUM({Qty}) * 1.0 / COUNT(DISTINCT {LineId})"}
  },
  "entities": [
    {"table": "Items", "key": "ItemId", "columns": ["Name"], "note": "all 4 rows",
     "shared": [{"name": "Wrench", "keys": [9, "10"]}],
     "values": [{"name": "Acme Anvil", "key": 7, "aliases": ["anvil"], "attributes": {"weight": 50}, "tags": ["heavy"]},
                {"name": "Rocket Skates", "key": "8"}]},
    {"table": "Items", "columns": ["Country"], "values": [{"name": "Portugal"}, {"name": "Germany", "aliases": ["deutschland"]}]}
  ],
  "vocabulary": {"synonyms": {"clients": "customers"}, "aggregation_terms": {"turnover": "SUM"}}
}`

func TestParseV2Good(t *testing.T) {
	s, err := catalog.Parse("good.json", []byte(goodV2))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if s.Version != 2 || len(s.Tables) != 2 || len(s.Measures) != 2 || len(s.Entities) != 2 {
		t.Fatalf("parsed %+v", s)
	}
	e := s.Entities[0].Values[0]
	if e.Key != int64(7) || e.Attributes["weight"] != int64(50) {
		t.Errorf("entity key %#v weight %#v, want int64 7 and 50", e.Key, e.Attributes["weight"])
	}
	if k := s.Entities[0].Shared[0].Keys; len(k) != 2 || k[0] != int64(9) || k[1] != "10" {
		t.Errorf("shared keys = %#v, want int64 9 and \"10\"", k)
	}
	if k := s.Entities[0].Values[1].Key; k != "8" {
		t.Errorf("string key = %#v, want \"8\"", k)
	}
	if err := s.Validate(); err != nil {
		t.Errorf("Validate on the parsed catalog: %v", err)
	}
	// Marshal then Parse gives the same catalog back.
	data, err := catalog.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	again, err := catalog.Parse("again.json", data)
	if err != nil {
		t.Fatalf("Parse(Marshal): %v", err)
	}
	data2, _ := catalog.Marshal(again)
	if string(data) != string(data2) {
		t.Errorf("Marshal is not stable across a round trip:\n%s\n---\n%s", data, data2)
	}
}

func TestParseV2Bad(t *testing.T) {
	tests := []struct {
		name string
		old  string // replaced in goodV2 by new
		new  string
		want []string // substrings of the error, all required
	}{
		{"unknown top-level key", `"last_updated"`, `"lastUpdated": "x", "last_updated"`,
			[]string{"bad.json: lastUpdated: unknown field (allowed: version, last_updated, source, tables, measures, entities, vocabulary)"}},
		{"no version", `"version": 2,`, ``,
			[]string{"bad.json: version: missing"}},
		{"version 1 written", `"version": 2`, `"version": 1`,
			[]string{`version: must be 2; a version-1 product catalog has no "version" key (convert it with: talk2tables catalog migrate`}},
		{"future version", `"version": 2`, `"version": 3`,
			[]string{"version: unsupported catalog version 3"}},
		{"version a string", `"version": 2`, `"version": "2"`,
			[]string{"version: must be the number 2, got a string"}},
		{"bad last_updated", `"last_updated": "2026-11-01T00:00:00Z"`, `"last_updated": "yesterday"`,
			[]string{"last_updated: must be an RFC 3339 time"}},
		{"bad dialect", `"dialect": "sqlite"`, `"dialect": "oracle"`,
			[]string{`source.dialect: must be one of sqlite, postgres, mysql, got "oracle"`}},
		{"no tables", `"tables": {`, `"tablez": {`,
			[]string{"tables: missing", "tablez: unknown field"}},
		{"unknown table key", `"role": "dimension"`, `"role": "dimension", "colour": "red"`,
			[]string{"tables.Items.colour: unknown field (allowed: words, description, role, key, label, date_column, default_filter, columns, why)"}},
		{"bad role", `"role": "dimension"`, `"role": "lookup"`,
			[]string{`tables.Items.role: must be one of fact, dimension, bridge, view, got "lookup"`}},
		{"role missing", `"role": "dimension", `, ``,
			[]string{"tables.Items.role: missing"}},
		{"key not a column", `"key": "ItemId", "label"`, `"key": "ItemNo", "label"`,
			[]string{`tables.Items.key: "ItemNo" is not a column of table "Items"; use one of its columns (Country, ItemId, Name) or declare it under tables.Items.columns`}},
		{"label not a column", `"label": ["Name"]`, `"label": ["Title"]`,
			[]string{`tables.Items.label[0]: "Title" is not a column of table "Items"`}},
		{"label wrong type", `"label": ["Name"]`, `"label": "Name"`,
			[]string{"tables.Items.label: must be an array of strings, got a string"}},
		{"date column not a column", `"date_column": "SoldAt"`, `"date_column": "SoldOn"`,
			[]string{`tables["Order Lines"].date_column: "SoldOn" is not a column of table "Order Lines"`}},
		{"date column not a date", `"date_column": "SoldAt"`, `"date_column": "Status"`,
			[]string{`tables["Order Lines"].date_column: column "Status" has kind attribute; a table's date column must have kind date (set tables["Order Lines"].columns.Status.kind to date`}},
		{"default filter column", `"column": "Status", "exclude"`, `"column": "State", "exclude"`,
			[]string{`tables["Order Lines"].default_filter.column: "State" is not a column of table "Order Lines"`}},
		{"default filter both", `"exclude": ["void"]`, `"exclude": ["void"], "include": ["ok"]`,
			[]string{`tables["Order Lines"].default_filter: has both include and exclude; keep one`}},
		{"default filter neither", `, "exclude": ["void"]`, ``,
			[]string{`tables["Order Lines"].default_filter: needs include (only these values count) or exclude`}},
		{"shared name with one key", `"keys": [9, "10"]`, `"keys": [9]`,
			[]string{`entities[0].shared[0].keys: must be an array of two or more key values`}},
		{"shared names in a value set", `"columns": ["Country"],`, `"columns": ["Country"], "shared": [{"name": "X", "keys": [1, 2]}],`,
			[]string{`entities[1].shared: names rows share belong to a keyed set`}},
		{"shared key not a value", `"keys": [9, "10"]`, `"keys": [9, true]`,
			[]string{`entities[0].shared[0].keys[1]: must be a number or a string, got a boolean`}},
		{"default filter empty", `"exclude": ["void"]`, `"exclude": []`,
			[]string{`tables["Order Lines"].default_filter.exclude: must not be empty`}},
		{"no columns", `"columns": {
        "ItemId": {"kind": "identifier"},
        "Name": {"kind": "label"},
        "Country": {"kind": "attribute"}
      }`, `"columns": {}`,
			[]string{`tables.Items.columns: must declare at least one column of table "Items"`}},
		{"bad kind", `"Status": {"kind": "attribute"}`, `"Status": {"kind": "category"}`,
			[]string{`tables["Order Lines"].columns.Status.kind: must be one of identifier, measure, attribute, label, date, text, flag, got "category"`}},
		{"kind missing", `"Status": {"kind": "attribute"}`, `"Status": {"words": ["status"]}`,
			[]string{`tables["Order Lines"].columns.Status.kind: missing`}},
		{"kind wrong type", `"Status": {"kind": "attribute"}`, `"Status": {"kind": 3}`,
			[]string{`tables["Order Lines"].columns.Status.kind: must be a string, got a number`}},
		{"measure type missing", `"kind": "measure", "measure": "additive"`, `"kind": "measure"`,
			[]string{`tables["Order Lines"].columns.Qty.measure: missing: a measure column says whether sums are meaningful (additive or non_additive)`}},
		{"bad measure type", `"measure": "additive"}`, `"measure": "summable"}`,
			[]string{`tables["Order Lines"].columns.Qty.measure: must be one of additive, non_additive, got "summable"`}},
		{"measure type on attribute", `"Status": {"kind": "attribute"}`, `"Status": {"kind": "attribute", "measure": "additive"}`,
			[]string{`tables["Order Lines"].columns.Status.measure: only columns of kind measure have a measure type; remove it, or set kind to measure`}},
		{"date format missing", `"kind": "date", "date_format": "datetime"`, `"kind": "date"`,
			[]string{`tables["Order Lines"].columns.SoldAt.date_format: missing: a date column says how it is stored (date, datetime, unix_seconds, unix_millis, year)`}},
		{"bad date format", `"date_format": "datetime"`, `"date_format": "iso"`,
			[]string{`tables["Order Lines"].columns.SoldAt.date_format: must be one of date, datetime, unix_seconds, unix_millis, year, got "iso"`}},
		{"date format on measure", `"kind": "measure", "measure": "additive"`, `"kind": "measure", "measure": "additive", "date_format": "date"`,
			[]string{`tables["Order Lines"].columns.Qty.date_format: only columns of kind date have a date format`}},
		{"references unknown", `"references": "Items.ItemId"`, `"references": "Products.ItemId"`,
			[]string{`tables["Order Lines"].columns.ItemId.references: "Products.ItemId" names no column declared in this catalog; write "table.column"`}},
		{"unknown column key", `"unit": "money"}`, `"unit": "money", "currency": "EUR"}`,
			[]string{`tables["Order Lines"].columns.UnitPrice.currency: unknown field (allowed: words, kind, measure, unit, date_format, references, why)`}},
		{"words not lowercase", `["unit price"]`, `["Unit  Price"]`,
			[]string{`tables["Order Lines"].columns.UnitPrice.words[0]: "Unit  Price" must be lowercase words separated by single spaces: write "unit price"`}},
		{"words twice", `["items", "item"]`, `["items", "item", "items"]`,
			[]string{`tables.Items.words[2]: "items" is listed twice`}},
		{"measure table unknown", `"table": "Order Lines", "formula"`, `"table": "Lines", "formula"`,
			[]string{`measures["items per line"].table: table "Lines" is not declared under tables`}},
		{"measure both", `"formula": "SUM({Qty}) * 1.0 / COUNT(DISTINCT {LineId})"`, `"formula": "SUM({Qty})", "expression": "{Qty}"`,
			[]string{`measures["items per line"]: has both expression and formula; keep one`}},
		{"measure neither", `, "formula": "SUM({Qty}) * 1.0 / COUNT(DISTINCT {LineId})"`, ``,
			[]string{`measures["items per line"]: needs an expression (a per-row value over {Column} placeholders, with an aggregate) or a formula`}},
		{"expression without aggregate", `"aggregate": "sum", `, ``,
			[]string{`measures["line amount"].aggregate: missing: an expression is combined over rows by an aggregate (sum, avg, min, max)`}},
		{"bad aggregate", `"aggregate": "sum"`, `"aggregate": "count"`,
			[]string{`measures["line amount"].aggregate: must be one of sum, avg, min, max, got "count"`}},
		{"aggregate with formula", `"formula": "SUM({Qty}) * 1.0 / COUNT(DISTINCT {LineId})"`, `"formula": "SUM({Qty})", "aggregate": "sum"`,
			[]string{`measures["items per line"].aggregate: a formula is already a whole aggregate; remove aggregate`}},
		{"placeholder not a column", `"{UnitPrice} * {Qty}"`, `"{Price} * {Qty}"`,
			[]string{`measures["line amount"].expression: placeholder {Price} names no column of table "Order Lines"; use one of its columns (ItemId, LineId, Qty, SoldAt, Status, UnitPrice)`}},
		{"unbalanced placeholder", `"{UnitPrice} * {Qty}"`, `"{UnitPrice * {Qty}"`,
			[]string{`measures["line amount"].expression: has an unbalanced { or }`}},
		{"semicolon", `"{UnitPrice} * {Qty}"`, `"{UnitPrice} * {Qty}; DROP TABLE x"`,
			[]string{`measures["line amount"].expression: must be one SQL expression (no ';')`}},
		{"entities not an array", `"entities": [`, `"entities": {"x": [`,
			[]string{"bad.json: $: invalid JSON"}},
		{"entity set table unknown", `{"table": "Items", "key": "ItemId"`, `{"table": "Item", "key": "ItemId"`,
			[]string{`entities[0].table: table "Item" is not declared under tables`}},
		{"entity key column unknown", `"key": "ItemId", "columns": ["Name"]`, `"key": "Id", "columns": ["Name"]`,
			[]string{`entities[0].key: "Id" is not a column of table "Items"`}},
		{"entity column unknown", `"columns": ["Country"]`, `"columns": ["Nation"]`,
			[]string{`entities[1].columns[0]: "Nation" is not a column of table "Items"`}},
		{"value set two columns", `"columns": ["Country"]`, `"columns": ["Country", "Name"]`,
			[]string{`entities[1].columns: a value set (no key) names values of one column; list exactly one column`}},
		{"entity without key in keyed set", `{"name": "Rocket Skates", "key": "8"}`, `{"name": "Rocket Skates"}`,
			[]string{`entities[0].values[1].key: missing: every entity of a keyed set gives its row's key value`}},
		{"key in value set", `{"name": "Portugal"}`, `{"name": "Portugal", "key": 1}`,
			[]string{`entities[1].values[0].key: a value set (no key) names values of its column; remove key`}},
		{"key wrong type", `"key": "8"}`, `"key": true}`,
			[]string{`entities[0].values[1].key: must be a number or a string, got a boolean`}},
		{"duplicate key", `"key": "8"}`, `"key": 7}`,
			[]string{`entities[0].values[1].key: key 7 is also used by entities[0].values[0]`}},
		{"alias names two entities", `"aliases": ["anvil"]`, `"aliases": ["anvil", "rocket skates"]`,
			[]string{`entities[0].values[1].name: "Rocket Skates" also names entities[0].values[0]; a name or alias must name one entity of the set`}},
		{"duplicate name in keyed set", `{"name": "Rocket Skates", "key": "8"}`, `{"name": "Acme anvil", "key": "8"}`,
			[]string{`entities[0].values[1].name: "Acme anvil" also names entities[0].values[0]`}},
		{"value listed twice", `{"name": "Portugal"}`, `{"name": "Portugal"}, {"name": "portugal"}`,
			[]string{`entities[1].values[1].name: value "portugal" is listed twice (also entities[1].values[0])`}},
		{"alias listed twice", `"aliases": ["anvil"]`, `"aliases": ["anvil", "Anvil"]`,
			[]string{`entities[0].values[0].aliases[1]: alias "Anvil" is listed twice`}},
		{"entity name empty", `{"name": "Portugal"}`, `{"name": " "}`,
			[]string{`entities[1].values[0].name: must not be empty`}},
		{"attributes wrong type", `"attributes": {"weight": 50}`, `"attributes": [50]`,
			[]string{`entities[0].values[0].attributes: must be an object, got an array`}},
		{"bad aggregation term", `"turnover": "SUM"`, `"turnover": "TOTAL"`,
			[]string{`vocabulary.aggregation_terms.turnover: must be one of SUM, COUNT, AVG, MIN, MAX, got "TOTAL"`}},
		{"empty synonym", `"clients": "customers"`, `"clients": ""`,
			[]string{`vocabulary.synonyms.clients: must not be empty`}},
		{"every problem at once", `"role": "dimension"`, `"role": "lookup", "description": 5`,
			[]string{`tables.Items.role: must be one of`, `tables.Items.description: must be a string, got a number`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(goodV2, tt.old) {
				t.Fatalf("test fixture: %q not found in the good catalog", tt.old)
			}
			data := strings.Replace(goodV2, tt.old, tt.new, 1)
			s, err := catalog.Parse("bad.json", []byte(data))
			if err == nil {
				t.Fatalf("Parse = %+v, nil; want an error", s)
			}
			var ve *catalog.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error %T %v, want *catalog.ValidationError", err, err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error spans lines: %q", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error = %q\nwant it to contain %q", msg, w)
				}
			}
		})
	}
}

// TestValidateInMemory checks a catalog built in code with the file rules.
func TestValidateInMemory(t *testing.T) {
	s := &catalog.Semantic{Version: 2, Tables: map[string]*catalog.Table{
		"t": {Role: catalog.RoleFact, DateColumn: "d", Columns: map[string]*catalog.Column{
			"d": {Kind: catalog.KindDate, DateFormat: catalog.DateISO},
			"n": {Kind: catalog.KindMeasure, Measure: catalog.MeasureAdditive},
		}},
	}}
	if err := s.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	s.Tables["t"].Columns["n"].Measure = ""
	s.Measures = map[string]*catalog.Measure{"m": {Table: "t", Expression: "{x}", Aggregate: catalog.AggSum}}
	err := s.Validate()
	for _, want := range []string{"catalog: tables.t.columns.n.measure: missing", "catalog: measures.m.expression: placeholder {x} names no column"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate = %v, want it to contain %q", err, want)
		}
	}
}
