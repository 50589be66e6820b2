package sqlgen

import "testing"

func TestDecodeSchemas(t *testing.T) {
	servers := []ServerContext{{ID: "db", Resources: map[string]any{
		"database://schema": map[string]any{"dialect": "sqlite", "tables": []any{
			map[string]any{"name": "orders", "schema": "sales", "row_count": 3.0, "columns": []any{
				map[string]any{"name": "status", "type": "TEXT", "distinct_values": []any{"open", 1.0}}}},
			map[string]any{"name": 7, "columns": []any{}},
			"not a table",
			map[string]any{"name": "customers", "columns": []any{}},
		}},
		"catalog://semantic": map[string]any{"version": 2.0, "tables": map[string]any{}},
		"notes://text":       "free text",
	}}}
	got := decodeSchemas(servers)
	if len(got) != 1 {
		t.Fatalf("decoded %d resources, want the schema only", len(got))
	}
	tables := got["db\x00database://schema"]
	if len(tables) != 4 {
		t.Fatalf("decoded %d tables, want 4 (aligned with the array)", len(tables))
	}
	if tables[0] == nil || tables[0].QualifiedName() != "sales.orders" || tables[0].RowCount != 3 ||
		len(tables[0].Columns[0].DistinctValues) != 1 {
		t.Errorf("tables[0] = %+v, want sales.orders with 3 rows and one text value", tables[0])
	}
	if tables[1] != nil || tables[2] != nil {
		t.Errorf("odd entries decoded: %+v, %+v; want nil", tables[1], tables[2])
	}
	if tables[3] == nil || tables[3].Name != "customers" || tables[3].RowCount != -1 {
		t.Errorf("tables[3] = %+v, want customers with an unknown row count", tables[3])
	}
}
