package jsonval

import (
	"encoding/json"
	"testing"
)

func TestText(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"null", nil, ""},
		{"string", "as is", "as is"},
		{"integral float", 3.0, "3"},
		{"fraction", 0.25, "0.25"},
		{"tiny float without exponent", 1e-7, "0.0000001"},
		{"big float without exponent", 1e21, "1000000000000000000000"},
		{"json number", json.Number("12.50"), "12.50"},
		{"int", 42, "42"},
		{"int64", int64(-7), "-7"},
		{"bool", true, "true"},
		{"list", []any{1.0, "a"}, `[1,"a"]`},
		{"object", map[string]any{"k": 1.0}, `{"k":1}`},
		{"unmarshalable", func() {}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.in); got != tt.want {
				t.Errorf("Text(%#v) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
