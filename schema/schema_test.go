package schema

import (
	"encoding/json"
	"errors"
	"testing"
)

// served is a schema resource as database-mcp writes it (docs/contracts.md §2).
const served = `{"dialect":"postgres","today":"2026-01-31","database":"shop","tables":[` +
	`{"name":"orders","schema":"sales","row_count":3,"comment":"one row per order","columns":[` +
	`{"name":"id","type":"integer","nullable":false,"primary_key":true},` +
	`{"name":"status","type":"text","nullable":true,"primary_key":false,"distinct_values":["open","shipped"],"comment":"state"},` +
	`{"name":"customer_id","type":"integer","nullable":true,"primary_key":false}],` +
	`"foreign_keys":[{"column":"customer_id","references_table":"customers","references_column":"id"}],` +
	`"indexes":[{"name":"orders_status","columns":["status"],"unique":false}]},` +
	`{"name":"customers","schema":"sales","row_count":2,"columns":[{"name":"id","type":"integer","nullable":false,"primary_key":true}],"foreign_keys":[],"indexes":[]},` +
	`{"name":"customers","row_count":0,"columns":[{"name":"id","type":"integer","nullable":false,"primary_key":true}],"foreign_keys":[],"indexes":[]},` +
	`{"name":"big_orders","kind":"view","row_count":-1,"columns":[],"foreign_keys":[],"indexes":[]}]}`

func TestParseRoundTrip(t *testing.T) {
	s, err := Parse([]byte(served))
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != served {
		t.Errorf("marshal(parse(x)) =\n%s\nwant\n%s", got, served)
	}
}

func TestParseForeign(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		rows    int64
		values  Values
		wantErr bool
	}{
		{name: "row_count left out is unknown", json: `{"tables":[{"name":"t","columns":[{"name":"c"}]}]}`, rows: -1},
		{name: "row_count null is unknown", json: `{"tables":[{"name":"t","row_count":null,"columns":[{"name":"c"}]}]}`, rows: -1},
		{name: "values other than strings are dropped", rows: 5,
			json:   `{"tables":[{"name":"t","row_count":5,"columns":[{"name":"c","distinct_values":["a",1,null,true,"b"]}]}]}`,
			values: Values{"a", "b"}},
		{name: "a whole float is a count", json: `{"tables":[{"name":"t","row_count":830.0,"columns":[{"name":"c"}]}]}`, rows: 830},
		{name: "a large count is exact", json: `{"tables":[{"name":"t","row_count":9007199254740993,"columns":[{"name":"c"}]}]}`, rows: 9007199254740993},
		{name: "comments, indexes and source of another shape are left out", rows: 1,
			json: `{"source":{"x":1},"tables":[{"name":"t","row_count":1,"comment":7,"indexes":["ix"],"columns":[{"name":"c","comment":[]}]}]}`},
		{name: "a fractional count", json: `{"tables":[{"name":"t","row_count":1.5,"columns":[]}]}`, wantErr: true},
		{name: "a name that is not a string", json: `{"tables":[{"name":1,"columns":[]}]}`, wantErr: true},
		{name: "no tables", json: `{"dialect":"sqlite"}`, wantErr: true},
		{name: "not an object", json: `[1]`, wantErr: true},
		{name: "a table that is not an object", json: `{"tables":[1]}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.json))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("Parse(%s) = nil error, want one", tt.json)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tb := s.Tables[0]
			if tb.RowCount != tt.rows {
				t.Errorf("row count = %d, want %d", tb.RowCount, tt.rows)
			}
			if got := tb.Columns[0].DistinctValues; len(got) != len(tt.values) || (len(got) > 0 && got[1] != tt.values[1]) {
				t.Errorf("distinct values = %q, want %q", got, tt.values)
			}
		})
	}
	if _, err := Parse([]byte(`{}`)); !errors.Is(err, ErrNoTables) {
		t.Errorf("Parse({}) error = %v, want ErrNoTables", err)
	}
}

func TestFromValue(t *testing.T) {
	var v any
	if err := json.Unmarshal([]byte(served), &v); err != nil {
		t.Fatal(err)
	}
	s, err := FromValue(v)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tables) != 4 || s.Tables[0].Columns[1].DistinctValues[1] != "shipped" {
		t.Errorf("FromValue = %+v", s)
	}
}

func TestLookups(t *testing.T) {
	s, err := Parse([]byte(served))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, table, want string
	}{
		{"qualified", "sales.orders", "sales.orders"},
		{"bare", "orders", "sales.orders"},
		{"exact bare before another schema's", "customers", "customers"},
		{"case ignored", "SALES.Customers", "sales.customers"},
		{"missing", "nope", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if tb := s.Table(tt.table); tb != nil {
				got = tb.QualifiedName()
			}
			if got != tt.want {
				t.Errorf("Table(%q) = %q, want %q", tt.table, got, tt.want)
			}
		})
	}
	orders := s.Table("sales.orders")
	if c := orders.Column("STATUS"); c == nil || c.Name != "status" {
		t.Errorf("Column(STATUS) = %v, want status", c)
	}
	if c := orders.Column("nope"); c != nil {
		t.Errorf("Column(nope) = %v, want nil", c)
	}
	if got := orders.PrimaryKey(); len(got) != 1 || got[0] != "id" {
		t.Errorf("PrimaryKey = %q, want [id]", got)
	}
	if !s.Table("big_orders").View() || orders.View() {
		t.Error("View() does not tell the view from the table")
	}
	// "customers" is the unqualified table when there is one (database-mcp
	// qualifies a reference outside the default schema) …
	edges := s.Edges()
	if len(edges) != 1 || edges[0].From != orders || edges[0].To != &s.Tables[2] {
		t.Errorf("Edges = %+v, want orders → customers", edges)
	}
	// … else the one of the referencing table's own schema.
	s.Tables = s.Tables[:2]
	if to := s.Referenced(&s.Tables[0], "customers"); to != &s.Tables[1] {
		t.Errorf("Referenced(customers) = %v, want sales.customers", to)
	}
	if to := s.Referenced(&s.Tables[0], "nope"); to != nil {
		t.Errorf("Referenced(nope) = %v, want nil", to)
	}
}

func TestFromResources(t *testing.T) {
	var good any
	if err := json.Unmarshal([]byte(served), &good); err != nil {
		t.Fatal(err)
	}
	bad := map[string]any{"tables": []any{map[string]any{"name": 1, "columns": []any{}}}}
	tests := []struct {
		name string
		res  map[string]any
		want string // the database of the schema found, "" for none
	}{
		{"none", map[string]any{"a://x": "text", "b://catalog": map[string]any{"version": 2.0, "tables": map[string]any{}}}, ""},
		{"empty tables is no schema", map[string]any{"a://s": map[string]any{"tables": []any{}}}, ""},
		{"one", map[string]any{"z://schema": good, "a://text": "x"}, "shop"},
		{"the first that parses, in URI order", map[string]any{"a://bad": bad, "b://schema": good}, "shop"},
		{"only one that does not parse", map[string]any{"a://bad": bad}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if s := FromResources(tt.res); s != nil {
				got = s.Database
			}
			if got != tt.want {
				t.Errorf("FromResources = %q, want %q", got, tt.want)
			}
		})
	}
}
