package filetables

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// parquetFile reads a Parquet file's rows through parquet-go: each leaf
// column is a table column named by its path (a.b for nested groups),
// typed by its physical and logical type (dates, timestamps, decimals,
// strings); repeated columns are refused.
type parquetFile struct {
	f     *os.File
	r     *parquet.Reader
	name  string
	cols  []string
	conv  []func(parquet.Value) any
	buf   []parquet.Row
	pos   int
	n     int
	row   int
	total int64
}

func openParquet(path string) (rowSource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	name := filepath.Base(path)
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		f.Close()
		return nil, &FormatError{File: name, Msg: "not a readable Parquet file: " + err.Error()}
	}
	p := &parquetFile{f: f, name: name, total: pf.NumRows(), buf: make([]parquet.Row, 256)}
	schema := pf.Schema()
	for _, path := range schema.Columns() {
		leaf, _ := schema.Lookup(path...)
		if leaf.MaxRepetitionLevel > 0 {
			f.Close()
			return nil, &FormatError{File: name, Msg: fmt.Sprintf("column %s is repeated (a list): only flat columns are served as a table", strings.Join(path, "."))}
		}
		p.cols = append(p.cols, strings.Join(path, "."))
		p.conv = append(p.conv, parquetConverter(leaf.Node))
	}
	p.r = parquet.NewReader(pf)
	return p, nil
}

// parquetConverter returns how a leaf's values become loader values.
func parquetConverter(n parquet.Node) func(parquet.Value) any {
	t := n.Type()
	var lt any
	if l := t.LogicalType(); l != nil {
		lt = l.Value
	}
	switch x := lt.(type) {
	case *format.DateType:
		return func(v parquet.Value) any {
			return time.Unix(int64(v.Int32())*86400, 0).UTC().Format("2006-01-02")
		}
	case *format.TimestampType:
		unit := time.Millisecond
		switch x.Unit.Value.(type) {
		case *format.MicroSeconds:
			unit = time.Microsecond
		case *format.NanoSeconds:
			unit = time.Nanosecond
		}
		return func(v parquet.Value) any {
			return time.Unix(0, v.Int64()*int64(unit)).UTC()
		}
	case *format.DecimalType:
		scale := math.Pow10(int(x.Scale))
		return func(v parquet.Value) any {
			switch v.Kind() {
			case parquet.Int32:
				return float64(v.Int32()) / scale
			case parquet.Int64:
				return float64(v.Int64()) / scale
			}
			return decimalBytes(v.ByteArray()) / scale
		}
	}
	switch t.Kind() {
	case parquet.Boolean:
		return func(v parquet.Value) any { return v.Boolean() }
	case parquet.Int32:
		return func(v parquet.Value) any { return int64(v.Int32()) }
	case parquet.Int64:
		return func(v parquet.Value) any { return v.Int64() }
	case parquet.Float:
		return func(v parquet.Value) any { return float64(v.Float()) }
	case parquet.Double:
		return func(v parquet.Value) any { return v.Double() }
	}
	return func(v parquet.Value) any { return string(v.ByteArray()) }
}

// decimalBytes reads a big-endian two's complement unscaled decimal.
func decimalBytes(b []byte) float64 {
	var n int64
	for _, c := range b {
		n = n<<8 | int64(c)
	}
	if len(b) > 0 && len(b) < 8 && b[0]&0x80 != 0 {
		n -= 1 << (8 * len(b))
	}
	return float64(n)
}

func (p *parquetFile) columns() []string { return p.cols }

func (p *parquetFile) next() ([]any, int, error) {
	if p.pos == p.n {
		n, err := p.r.ReadRows(p.buf)
		if n == 0 {
			if err == nil || err == io.EOF {
				return nil, 0, io.EOF
			}
			return nil, 0, &FormatError{File: p.name, Line: p.row + 1, Msg: "unreadable row group: " + err.Error()}
		}
		p.pos, p.n = 0, n
	}
	row := p.buf[p.pos]
	p.pos++
	p.row++
	vals := make([]any, len(p.cols))
	for _, v := range row {
		c := v.Column()
		if c < 0 || c >= len(vals) || v.IsNull() {
			continue
		}
		vals[c] = p.conv[c](v)
	}
	return vals, p.row, nil
}

func (p *parquetFile) close() {
	p.r.Close()
	p.f.Close()
}
