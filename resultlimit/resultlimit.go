// Package resultlimit bounds the size of a query result while it is read:
// at most so many rows, no cell longer than so many bytes (longer text and
// blobs are cut), and no more than so many bytes of JSON in all. It is shared
// by every backend of the database MCP server and by the orchestrator, which
// bounds what it accepts from any executor the same way.
//
// A result that passes a bound is cut, never dropped: Collector.Truncated
// reports it and Collector.Note says which bound and how to get the rest. A
// single row too large for the whole result is refused with a
// RESOURCE_LIMIT error instead, since nothing useful would remain.
package resultlimit

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"talk2tables/sqlerr"
)

// Defaults of Limits, used where a limit is left at zero by a caller that
// wants the default (Limits.WithDefaults).
const (
	// DefaultMaxCellBytes bounds one text or blob value in a result.
	DefaultMaxCellBytes = 64 << 10
	// DefaultMaxBytes bounds the JSON of all rows of a result.
	DefaultMaxBytes = 16 << 20
)

// Ellipsis ends a cut cell.
const Ellipsis = "…"

// Limits bound one result. A zero field is no bound.
type Limits struct {
	MaxRows      int // rows returned; one more row seen marks the result truncated
	MaxCellBytes int // bytes of one text or blob value; longer ones are cut
	MaxBytes     int // JSON bytes of all rows (as encoding/json writes them)
}

// WithDefaults fills MaxCellBytes and MaxBytes left at zero with the
// defaults.
func (l Limits) WithDefaults() Limits {
	if l.MaxCellBytes == 0 {
		l.MaxCellBytes = DefaultMaxCellBytes
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	return l
}

// Collector gathers the rows of one result under Limits. It is not safe for
// concurrent use.
type Collector struct {
	lim      Limits
	rows     [][]any
	size     int // JSON bytes of rows so far, brackets and commas included
	cutCells int
	byRows   bool // a row past MaxRows exists
	byBytes  bool // rows were left out to stay under MaxBytes
}

// NewCollector returns an empty Collector.
func NewCollector(lim Limits) *Collector {
	return &Collector{lim: lim, rows: [][]any{}, size: 2}
}

// Room reports whether another row may be added. Call it before reading a
// row: when MaxRows rows are already kept it marks the result truncated (a
// further row exists) and returns false, so the caller stops reading.
func (c *Collector) Room() bool {
	if c.byBytes {
		return false
	}
	if c.lim.MaxRows > 0 && len(c.rows) >= c.lim.MaxRows {
		c.byRows = true
		return false
	}
	return true
}

// Add converts a row's values to their JSON form ([]byte becomes a string),
// cuts cells over MaxCellBytes, and keeps the row when the result stays
// within MaxBytes. It returns false when the row was not kept and reading
// should stop; err is a RESOURCE_LIMIT *sqlerr.Error when the very first row
// is already over MaxBytes. The row slice is kept, not copied.
func (c *Collector) Add(row []any) (bool, error) {
	n := 0
	for i, v := range row {
		row[i] = c.cell(v)
		n += JSONSize(row[i])
	}
	n += 2 + max(len(row)-1, 0) // [ , ]
	if len(c.rows) > 0 {
		n++ // the comma before this row
	}
	if c.lim.MaxBytes > 0 && c.size+n > c.lim.MaxBytes {
		if len(c.rows) == 0 {
			return false, sqlerr.New(sqlerr.ResourceLimit, fmt.Sprintf(
				"one row of the result is %s of JSON, over the %s result limit: select fewer or shorter columns "+
					"(substr(), length()) instead of whole large values", Size(n), Size(c.lim.MaxBytes)))
		}
		c.byBytes = true
		return false, nil
	}
	c.size += n
	c.rows = append(c.rows, row)
	return true, nil
}

// cell returns v in its JSON form, cut so that its JSON is at most
// MaxCellBytes (escapes count: a blob of zero bytes is 6 bytes of JSON per
// byte).
func (c *Collector) cell(v any) any {
	var s string
	long := false
	switch x := v.(type) {
	case []byte:
		if c.lim.MaxCellBytes > 0 && len(x) > c.lim.MaxCellBytes {
			// No need to copy more than the budget can hold.
			x, long = x[:c.lim.MaxCellBytes], true
		}
		s = string(x)
	case string:
		s = x
	default:
		return v
	}
	if c.lim.MaxCellBytes <= 0 {
		return s
	}
	if !long && jsonStringSize(s) <= c.lim.MaxCellBytes {
		return s
	}
	c.cutCells++
	return s[:fitJSON(s, c.lim.MaxCellBytes-len(Ellipsis))] + Ellipsis
}

// Rows returns the kept rows (never nil).
func (c *Collector) Rows() [][]any { return c.rows }

// Bytes is the JSON size of the kept rows.
func (c *Collector) Bytes() int { return c.size }

// Truncated reports whether rows were left out or cells were cut.
func (c *Collector) Truncated() bool { return c.byRows || c.byBytes || c.cutCells > 0 }

// Note says which size bound cut the result and how to see the rest; it is
// empty when only MaxRows (the caller's own choice) or nothing cut it.
func (c *Collector) Note() string {
	var parts []string
	if c.byBytes {
		parts = append(parts, fmt.Sprintf(
			"the result was cut after %d rows to stay under the %s result limit: add a LIMIT, aggregate, "+
				"or select fewer columns", len(c.rows), Size(c.lim.MaxBytes)))
	}
	if c.cutCells > 0 {
		what := "cell was"
		if c.cutCells > 1 {
			what = "cells were"
		}
		parts = append(parts, fmt.Sprintf(
			"%d %s longer than %s and cut (ending in %s): select substr() or length() of large values",
			c.cutCells, what, Size(c.lim.MaxCellBytes), Ellipsis))
	}
	return strings.Join(parts, "; ")
}

// JSONSize is the number of bytes encoding/json writes for v, exact for
// strings (with its HTML-safe escaping) and an upper bound for numbers.
func JSONSize(v any) int {
	switch x := v.(type) {
	case nil:
		return 4
	case bool:
		return 5
	case string:
		return jsonStringSize(x)
	case []byte:
		return jsonStringSize(string(x))
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return 20
	case float32, float64:
		return 24
	}
	return 64 // other scalars the drivers return (time as text, decimals)
}

// jsonStringSize counts the bytes of s as a JSON string: quotes, two-byte
// escapes, \u00XX for other control characters and for <, > and &, \ufffd
// for invalid UTF-8, and \u2028/\u2029.
func jsonStringSize(s string) int {
	n := 2
	for i := 0; i < len(s); {
		size, enc := jsonRune(s, i)
		n += enc
		i += size
	}
	return n
}

// fitJSON returns the length of the longest prefix of s, ending on a rune
// boundary, whose JSON string (quotes included) is at most budget bytes.
func fitJSON(s string, budget int) int {
	n := 2
	for i := 0; i < len(s); {
		size, enc := jsonRune(s, i)
		if n+enc > budget {
			return i
		}
		n += enc
		i += size
	}
	return len(s)
}

// jsonRune returns the size in s of the rune at i and the number of bytes
// encoding/json writes for it.
func jsonRune(s string, i int) (size, enc int) {
	b := s[i]
	if b < utf8.RuneSelf {
		switch {
		case b == '"' || b == '\\' || b == '\n' || b == '\r' || b == '\t' || b == '\b' || b == '\f':
			return 1, 2
		case b < 0x20 || b == '<' || b == '>' || b == '&':
			return 1, 6
		}
		return 1, 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return 1, 6
	case r == '\u2028' || r == '\u2029':
		return size, 6
	}
	return size, size
}

// Size formats a byte count for messages: "64 KiB", "16 MiB", "2000 bytes".
func Size(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
