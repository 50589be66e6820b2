package resultlimit

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"talk2tables/sqlerr"
)

func TestJSONSizeMatchesEncodingJSON(t *testing.T) {
	strs := []string{"", "plain", `quote " and \ backslash`, "tab\tnl\nret\r", "ctl \x01\x1f",
		"<html> & friends", "héllo wörld ✓ 😀", "bad \xff\xfe utf8", "line\u2028sep\u2029", strings.Repeat("é", 100)}
	for _, s := range strs {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := JSONSize(s); got != len(b) {
			t.Errorf("JSONSize(%q) = %d, want %d (%s)", s, got, len(b), b)
		}
		if got := JSONSize([]byte(s)); got != len(b) {
			t.Errorf("JSONSize([]byte(%q)) = %d, want %d", s, got, len(b))
		}
	}
	for _, v := range []any{nil, true, false, int64(-9223372036854775808), 1.7976931348623157e308, -1.5e-300, 12} {
		b, _ := json.Marshal(v)
		if got := JSONSize(v); got < len(b) {
			t.Errorf("JSONSize(%v) = %d, below the encoded %d bytes", v, got, len(b))
		}
	}
}

func FuzzJSONSize(f *testing.F) {
	f.Add("a<b>&\"\\\n\x00\xff€")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := json.Marshal(s)
		if err != nil {
			t.Skip()
		}
		if got := JSONSize(s); got != len(b) {
			t.Fatalf("JSONSize(%q) = %d, want %d", s, got, len(b))
		}
	})
}

// collect runs rows through a Collector the way a backend does.
func collect(t testing.TB, lim Limits, rows [][]any) (*Collector, error) {
	t.Helper()
	c := NewCollector(lim)
	for _, r := range rows {
		if !c.Room() {
			break
		}
		ok, err := c.Add(r)
		if err != nil {
			return c, err
		}
		if !ok {
			break
		}
	}
	return c, nil
}

func TestCollector(t *testing.T) {
	big := strings.Repeat("x", 5000)
	tests := []struct {
		name      string
		lim       Limits
		rows      [][]any
		wantRows  int
		truncated bool
		note      string // substring; "" means no note
	}{
		{name: "under every bound", lim: Limits{MaxRows: 10, MaxCellBytes: 100, MaxBytes: 1000},
			rows: [][]any{{int64(1), "a"}, {int64(2), "b"}}, wantRows: 2},
		{name: "max rows: truncated, no note", lim: Limits{MaxRows: 2},
			rows: [][]any{{1}, {2}, {3}}, wantRows: 2, truncated: true},
		{name: "exactly max rows is not truncated", lim: Limits{MaxRows: 2},
			rows: [][]any{{1}, {2}}, wantRows: 2},
		{name: "long cell cut", lim: Limits{MaxCellBytes: 1000},
			rows: [][]any{{big}, {"short"}}, wantRows: 2, truncated: true, note: "1 cell was longer than 1000 bytes"},
		{name: "long blob cut", lim: Limits{MaxCellBytes: 1024},
			rows: [][]any{{[]byte(big)}, {[]byte(big)}}, wantRows: 2, truncated: true, note: "2 cells were longer than 1 KiB"},
		{name: "byte budget stops rows", lim: Limits{MaxBytes: 3000},
			rows:     [][]any{{strings.Repeat("y", 1000)}, {strings.Repeat("y", 1000)}, {strings.Repeat("y", 1000)}},
			wantRows: 2, truncated: true, note: "cut after 2 rows to stay under the 3000 bytes result limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := collect(t, tt.lim, tt.rows)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(c.Rows()); got != tt.wantRows {
				t.Errorf("rows = %d, want %d", got, tt.wantRows)
			}
			if c.Truncated() != tt.truncated {
				t.Errorf("truncated = %v, want %v", c.Truncated(), tt.truncated)
			}
			note := c.Note()
			if (tt.note == "") != (note == "") || !strings.Contains(note, tt.note) {
				t.Errorf("note = %q, want it to contain %q", note, tt.note)
			}
			b, _ := json.Marshal(c.Rows())
			if len(b) > c.Bytes() {
				t.Errorf("Bytes() = %d, below the encoded rows' %d bytes", c.Bytes(), len(b))
			}
			if tt.lim.MaxBytes > 0 && len(b) > tt.lim.MaxBytes {
				t.Errorf("encoded rows are %d bytes, over MaxBytes %d", len(b), tt.lim.MaxBytes)
			}
			for _, r := range c.Rows() {
				for _, v := range r {
					if b, _ := json.Marshal(v); tt.lim.MaxCellBytes > 0 && len(b) > tt.lim.MaxCellBytes {
						t.Errorf("cell of %d JSON bytes kept, over MaxCellBytes %d", len(b), tt.lim.MaxCellBytes)
					}
				}
			}
		})
	}
}

func TestCollectorRefusesOneHugeRow(t *testing.T) {
	_, err := collect(t, Limits{MaxBytes: 100}, [][]any{{strings.Repeat("z", 500)}})
	var se *sqlerr.Error
	if !errors.As(err, &se) || se.Category != sqlerr.ResourceLimit {
		t.Fatalf("err = %v, want a RESOURCE_LIMIT *sqlerr.Error", err)
	}
	if !strings.Contains(se.Message, "select fewer or shorter columns") {
		t.Errorf("message %q does not say how to fix it", se.Message)
	}
}

func TestCellCutKeepsRunesAndBudget(t *testing.T) {
	inputs := []any{strings.Repeat("€", 10), strings.Repeat("<&>", 10), []byte(strings.Repeat("\x00", 40)), strings.Repeat("a\"", 10)}
	for _, in := range inputs {
		for n := 8; n < 60; n++ {
			c := NewCollector(Limits{MaxCellBytes: n})
			row := []any{in}
			if _, err := c.Add(row); err != nil {
				t.Fatal(err)
			}
			got := row[0].(string)
			if !utf8.ValidString(got) {
				t.Fatalf("MaxCellBytes %d: cell %q is not valid UTF-8", n, got)
			}
			if b, _ := json.Marshal(got); len(b) > n {
				t.Fatalf("MaxCellBytes %d: cell %s is %d bytes of JSON", n, b, len(b))
			}
		}
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int]string{900: "900 bytes", 1024: "1 KiB", 1536: "1536 bytes", 16 << 20: "16 MiB", 3 << 19: "1536 KiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
