package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
)

// decodeJSON reads exactly one JSON object from the body into v. With
// strict set, unknown fields are refused. Every failure is an *apiError (or
// a *http.MaxBytesError, which the funnel maps to 413) naming what is wrong.
func decodeJSON(c *gin.Context, v any, strict bool) error {
	if c.Request.Body == nil {
		return errEmptyBody
	}
	dec := json.NewDecoder(c.Request.Body)
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	// Exactly one value: anything but whitespace after it is a mistake.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return mbe
		}
		return badRequest(http.StatusBadRequest, "invalid_json",
			"the body must be a single JSON object with nothing after it", "")
	}
	return nil
}

var errEmptyBody = badRequest(http.StatusBadRequest, "invalid_json",
	`the request body is empty; send a JSON object such as {"question": "..."}`, "")

// decodeError turns an encoding/json error into a message that names the
// field at fault.
func decodeError(err error) error {
	var (
		mbe    *http.MaxBytesError
		syntax *json.SyntaxError
		typ    *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &mbe):
		return mbe
	case errors.Is(err, io.EOF):
		return errEmptyBody
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest(http.StatusBadRequest, "invalid_json", "the JSON body is incomplete; check for a missing brace or quote", "")
	case errors.As(err, &syntax):
		return badRequest(http.StatusBadRequest, "invalid_json",
			fmt.Sprintf("the body is not valid JSON (at byte %d): %s", syntax.Offset, syntax.Error()), "")
	case errors.As(err, &typ):
		if typ.Field == "" {
			return badRequest(http.StatusBadRequest, "invalid_json",
				fmt.Sprintf("the body must be a JSON object, not a JSON %s", typ.Value), "")
		}
		return badRequest(http.StatusBadRequest, "invalid_field",
			fmt.Sprintf("field %q must be %s, not a JSON %s", typ.Field, describeType(typ.Type.Kind().String()), typ.Value), typ.Field)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return badRequest(http.StatusBadRequest, "unknown_field",
			fmt.Sprintf("field %q is not accepted here; remove it", field), field)
	default:
		return badRequest(http.StatusBadRequest, "invalid_json", "the body is not valid JSON: "+err.Error(), "")
	}
}

// describeType names a Go kind the way a JSON user thinks of it.
func describeType(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "int", "int64", "int32", "uint", "uint64":
		return "a number without fraction or exponent (a whole number such as 500)"
	case "float64", "float32":
		return "a number"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "an array"
	case "map", "struct":
		return "an object"
	default:
		return "a different type"
	}
}

// checkQuestion validates a question: present, not blank, not too long.
func checkQuestion(q string, field string, maxLen int) (string, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return "", badRequest(http.StatusBadRequest, "invalid_field",
			fmt.Sprintf("field %q is required and must not be empty", field), field)
	}
	if !utf8.ValidString(q) {
		return "", badRequest(http.StatusBadRequest, "invalid_field",
			fmt.Sprintf("field %q must be valid UTF-8 text", field), field)
	}
	if n := utf8.RuneCountInString(q); n > maxLen {
		return "", badRequest(http.StatusBadRequest, "invalid_field",
			fmt.Sprintf("field %q is %d characters long; the limit is %d", field, n, maxLen), field)
	}
	return q, nil
}

// checkMaxRows applies the default and bounds of max_rows.
func (a *api) checkMaxRows(v *int) (int, error) {
	if v == nil {
		return a.cfg.DefaultMaxRows, nil
	}
	if *v < 1 || *v > a.cfg.MaxRowsLimit {
		return 0, badRequest(http.StatusBadRequest, "invalid_field",
			fmt.Sprintf("field \"max_rows\" must be between 1 and %d (got %d); omit it for the default of %d",
				a.cfg.MaxRowsLimit, *v, a.cfg.DefaultMaxRows), "max_rows")
	}
	return *v, nil
}

// marshalJSON encodes v without HTML escaping, like the responses
// (c.PureJSON), so SQL such as "a >= 1" reads as written rather than as
// "a \u003e= 1".
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
