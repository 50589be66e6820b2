// Package jsonval reads the values encoding/json decodes into an any (nil,
// bool, float64, json.Number, string, []any, map[string]any) and the Go
// integers found beside them, for the code that takes text out of decoded
// resources, tool results and model answers.
package jsonval

import (
	"encoding/json"
	"strconv"
)

// Text renders a decoded JSON value as text: "" for null, strings as they
// are, numbers in plain decimal (never an exponent: 1e-7 is "0.0000001", 3.0
// is "3"), booleans as true/false, and anything else as compact JSON.
func Text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return x.String()
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}
