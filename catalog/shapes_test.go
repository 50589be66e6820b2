package catalog_test

import (
	"encoding/json"
	"testing"

	"talk2tables/catalog"
)

func TestResourceShapes(t *testing.T) {
	for _, c := range []struct {
		name, json string
		want       string // which recogniser says yes; "" for none
	}{
		{"schema", `{"tables":[{"name":"t","columns":[]}]}`, "schema"},
		{"empty schema", `{"tables":[]}`, ""},
		{"semantic", `{"version":2,"tables":{"t":{}}}`, "semantic"},
		{"version 1 tables object", `{"version":1,"tables":{"t":{}}}`, ""},
		{"entities", `{"entities":[]}`, "entities"},
		{"v1 mappings", `{"date_terms":{}}`, "mappings"},
		{"v1 products", `{"p1":{"aliases":[],"database_references":{}}}`, "products"},
		{"product without references", `{"p1":{"aliases":[]}}`, ""},
		{"empty object", `{}`, ""},
	} {
		var obj map[string]any
		if err := json.Unmarshal([]byte(c.json), &obj); err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{
			"schema":   catalog.IsSchemaResource(obj),
			"semantic": catalog.IsSemanticResource(obj),
			"entities": catalog.IsEntityListResource(obj),
			"mappings": catalog.IsV1Mappings(obj),
			"products": catalog.IsV1Products(obj),
		}
		for k, v := range got {
			if v != (k == c.want) {
				t.Errorf("%s: %s recogniser says %v", c.name, k, v)
			}
		}
	}
}
