package databasemcp

import (
	"database/sql/driver"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

// valueKind says how a result column's text is turned into JSON.
type valueKind int

const (
	kindText        valueKind = iota // as the server wrote it: text, dates, times, intervals, uuid, enums, unknown types
	kindBool                         // true / false
	kindInt                          // JSON integer
	kindFloat                        // JSON number; NaN null, infinities as text
	kindNumeric                      // JSON number when a float64 holds it, text for longer integers
	kindTimestamp                    // ISO 8601 without zone: 2026-11-21T10:00:00
	kindTimestamptz                  // RFC 3339: 2026-11-21T10:00:00Z
	kindJSON                         // embedded as JSON
	kindBytea                        // base64 text
	kindDecoded                      // arrays and composites: pgx decodes, elements converted alike
)

// typeMap knows PostgreSQL's built-in types; only its codec kinds are read.
var typeMap = pgtype.NewMap()

// kindOf is the kind of a result column of type oid.
func kindOf(oid uint32) valueKind {
	switch oid {
	case pgtype.BoolOID:
		return kindBool
	case pgtype.Int2OID, pgtype.Int4OID, pgtype.Int8OID, pgtype.OIDOID:
		return kindInt
	case pgtype.Float4OID, pgtype.Float8OID:
		return kindFloat
	case pgtype.NumericOID:
		return kindNumeric
	case pgtype.TimestampOID:
		return kindTimestamp
	case pgtype.TimestamptzOID:
		return kindTimestamptz
	case pgtype.JSONOID, pgtype.JSONBOID:
		return kindJSON
	case pgtype.ByteaOID:
		return kindBytea
	}
	if t, ok := typeMap.TypeForOID(oid); ok {
		if _, isArray := t.Codec.(*pgtype.ArrayCodec); isArray {
			return kindDecoded
		}
	}
	return kindText
}

// maxExactDigits is the longest integer a float64 (and a JavaScript number)
// holds exactly, roughly: 2^53 has 16 digits.
const maxExactDigits = 15

// jsonValuePG converts one value of a result row, given in PostgreSQL's
// text format (raw, nil for NULL) and, for kindDecoded, as pgx decoded it.
func jsonValuePG(k valueKind, raw []byte, decoded any) any {
	if raw == nil {
		return nil
	}
	s := string(raw)
	switch k {
	case kindBool:
		return s == "t"
	case kindInt:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n
		}
	case kindFloat:
		return floatText(s)
	case kindNumeric:
		return numericText(s)
	case kindTimestamp:
		if t, err := time.Parse("2006-01-02 15:04:05.999999999", s); err == nil {
			return t.Format("2006-01-02T15:04:05.999999999")
		}
	case kindTimestamptz:
		for _, layout := range []string{"2006-01-02 15:04:05.999999999-07", "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999-07:00:00"} {
			if t, err := time.Parse(layout, s); err == nil {
				return t.Format(time.RFC3339Nano)
			}
		}
	case kindJSON:
		if json.Valid(raw) {
			return json.RawMessage(s)
		}
	case kindBytea:
		if h, ok := strings.CutPrefix(s, `\x`); ok {
			if b, err := hex.DecodeString(h); err == nil {
				return base64.StdEncoding.EncodeToString(b)
			}
		}
	case kindDecoded:
		return decodedJSON(decoded)
	}
	return s
}

// floatText converts a float4/float8 text: NaN is null (as SQLite's NULL
// for 0.0/0.0), the infinities stay text.
func floatText(s string) any {
	switch s {
	case "NaN":
		return nil
	case "Infinity", "-Infinity":
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return f
}

// numericText converts a numeric text to a JSON number when a float64 is
// exact enough for it: every fraction (a float64 keeps 15-17 significant
// digits, more than money or ratios need) and integers of up to 15 digits.
// Longer integers (ids, exact counts of huge tables) stay text so no digit
// is lost.
func numericText(s string) any {
	switch s {
	case "NaN":
		return nil
	case "Infinity", "-Infinity":
		return s
	}
	if !strings.ContainsAny(s, ".eE") && len(strings.TrimLeft(s, "-")) > maxExactDigits {
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return s
	}
	return f
}

// decodedJSON converts a value pgx decoded (array elements, composite
// fields) the same way as the column values.
func decodedJSON(v any) any {
	switch x := v.(type) {
	case nil, bool, string, int16, int32, int64:
		return x
	case float32:
		return floatText(strconv.FormatFloat(float64(x), 'g', -1, 32))
	case float64:
		if math.IsNaN(x) {
			return nil
		}
		if math.IsInf(x, 0) {
			return floatText(fmt.Sprint(x))
		}
		return x
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case [16]byte:
		return fmt.Sprintf("%x-%x-%x-%x-%x", x[0:4], x[4:6], x[6:8], x[8:10], x[10:16])
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = decodedJSON(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = decodedJSON(e)
		}
		return out
	case driver.Valuer: // pgtype.Numeric, Interval, Date, ...
		dv, err := x.Value()
		if err != nil {
			return fmt.Sprint(x)
		}
		if s, ok := dv.(string); ok {
			if _, isNum := x.(pgtype.Numeric); isNum {
				return numericText(s)
			}
		}
		return decodedJSON(dv)
	}
	return fmt.Sprint(v)
}
