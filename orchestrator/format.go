package orchestrator

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// FormatValue renders one result cell for people (the markdown answers of
// the OpenAI-compatible endpoints and the MCP ask tool): NULL, text as is,
// integers as such, other numbers rounded for reading (two decimals from 1
// up, four significant digits below).
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return x
	case float64:
		return formatNumber(x)
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return formatNumber(f)
		}
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	default:
		return fmt.Sprint(x)
	}
}

func formatNumber(f float64) string {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return strconv.FormatFloat(f, 'g', -1, 64)
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		return strconv.FormatFloat(f, 'f', 0, 64)
	case math.Abs(f) >= 1:
		return strconv.FormatFloat(f, 'f', 2, 64)
	default:
		return strconv.FormatFloat(f, 'g', 4, 64)
	}
}
