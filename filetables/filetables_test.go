package filetables

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

func write(tb testing.TB, dir, name, body string) string {
	tb.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

func load(tb testing.TB, path string) *Loaded {
	tb.Helper()
	l, err := Load(context.Background(), path, Options{CacheDir: filepath.Join(filepath.Dir(path), "cache")})
	if err != nil {
		tb.Fatalf("Load(%s): %v", path, err)
	}
	return l
}

// rowsOf reads a table of a loaded database: declared types, then rows as
// SQLite returns them.
func rowsOf(tb testing.TB, l *Loaded, table string) ([]string, [][]any) {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+l.Path+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	types := []string{}
	tr, err := db.Query(`SELECT type FROM pragma_table_info(?) ORDER BY cid`, table)
	if err != nil {
		tb.Fatal(err)
	}
	for tr.Next() {
		var t string
		tr.Scan(&t)
		types = append(types, t)
	}
	tr.Close()
	rs, err := db.Query(`SELECT * FROM "` + table + `" ORDER BY rowid`)
	if err != nil {
		tb.Fatal(err)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var out [][]any
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			tb.Fatal(err)
		}
		for i, v := range vals { // the driver reads DATE/DATETIME text as times
			if tm, ok := v.(time.Time); ok {
				vals[i] = tm.Format("2006-01-02 15:04:05")
				if tm.Hour() == 0 && tm.Minute() == 0 && tm.Second() == 0 && types[i] == "DATE" {
					vals[i] = tm.Format("2006-01-02")
				}
			}
		}
		out = append(out, vals)
	}
	return types, out
}

// TestInference: integers, decimals, dates in several layouts, date-times,
// leading zeros kept as text, mixed columns as text, empty cells as NULL.
func TestInference(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "people.csv", "id,zip,amount,iso,us,eu,dotted,at,mixed,empty,note\n"+
		"1,02134,12.50,2024-01-31,01/31/2024,31/01/2024,31.01.2024,2024-01-31 10:00:00,7,,hello\n"+
		"2,10001,-3,2024-02-29,02/29/2024,29/02/2024,29.02.2024,2024-02-29T23:59:59Z,x,,\"a, b\"\n"+
		"3,,1e3,,12/01/2024,13/01/2024,,,,,\n")
	l := load(t, p)
	types, rows := rowsOf(t, l, "people")
	want := []string{"INTEGER", "TEXT", "REAL", "DATE", "DATE", "DATE", "DATE", "DATETIME", "TEXT", "TEXT", "TEXT"}
	if !reflect.DeepEqual(types, want) {
		t.Errorf("types = %v\nwant %v", types, want)
	}
	if got := fmt.Sprint(rows[0]); got != "[1 02134 12.5 2024-01-31 2024-01-31 2024-01-31 2024-01-31 2024-01-31 10:00:00 7 <nil> hello]" {
		t.Errorf("row 1 = %s", got)
	}
	if got := fmt.Sprint(rows[1]); got != "[2 10001 -3 2024-02-29 2024-02-29 2024-02-29 2024-02-29 2024-02-29 23:59:59 x <nil> a, b]" {
		t.Errorf("row 2 = %s", got)
	}
	if got := fmt.Sprint(rows[2]); got != "[3 <nil> 1000 <nil> 2024-12-01 2024-01-13 <nil> <nil> <nil> <nil> <nil>]" {
		t.Errorf("row 3 = %s", got)
	}
}

// TestMixedColumnPastTheSample: a value the sample did not show that does
// not fit the column's type makes the column text, every row kept as
// written.
func TestMixedColumnPastTheSample(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("code,n\n")
	for i := range 50 {
		fmt.Fprintf(&b, "%d,%d\n", 100+i, i)
	}
	b.WriteString("A-7,50\n")
	p := write(t, dir, "codes.csv", b.String())
	l, err := Load(context.Background(), p, Options{CacheDir: filepath.Join(dir, "cache"), SampleRows: 10})
	if err != nil {
		t.Fatal(err)
	}
	types, rows := rowsOf(t, l, "codes")
	if types[0] != "TEXT" || types[1] != "INTEGER" || len(rows) != 51 || rows[50][0] != "A-7" || rows[0][0] != "100" {
		t.Errorf("types %v, %d rows, first %v, last %v", types, len(rows), rows[0], rows[50])
	}
}

// TestRoundTrips: the same table as CSV, TSV, JSON Lines and Parquet loads
// to the same rows and types.
func TestRoundTrips(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.csv", "id,name,price,day\n1,Ann,9.5,2024-03-01\n2,\"Bo \"\"B\"\"\",10,2024-03-02\n")
	write(t, dir, "b.tsv", "id\tname\tprice\tday\r\n1\tAnn\t9.5\t2024-03-01\r\n2\tBo \"B\"\t10\t2024-03-02\r\n")
	write(t, dir, "c.jsonl", `{"id":1,"name":"Ann","price":9.5,"day":"2024-03-01"}`+"\n\n"+`{"id":2,"name":"Bo \"B\"","price":10,"day":"2024-03-02"}`+"\n")
	type rec struct {
		ID    int64   `parquet:"id"`
		Name  string  `parquet:"name"`
		Price float64 `parquet:"price"`
		Day   int32   `parquet:"day,date"`
	}
	day := func(s string) int32 { d, _ := time.Parse("2006-01-02", s); return int32(d.Unix() / 86400) }
	if err := parquet.WriteFile(filepath.Join(dir, "d.parquet"), []rec{{1, "Ann", 9.5, day("2024-03-01")}, {2, `Bo "B"`, 10, day("2024-03-02")}}); err != nil {
		t.Fatal(err)
	}
	l := load(t, dir)
	if len(l.Tables) != 4 {
		t.Fatalf("tables = %+v", l.Tables)
	}
	wantTypes := []string{"INTEGER", "TEXT", "REAL", "DATE"}
	want := "[[1 Ann 9.5 2024-03-01] [2 Bo \"B\" 10 2024-03-02]]"
	for _, table := range []string{"a", "b", "c", "d"} {
		types, rows := rowsOf(t, l, table)
		if !reflect.DeepEqual(types, wantTypes) || fmt.Sprint(rows) != want {
			t.Errorf("%s: types %v rows %v\nwant %v %s", table, types, rows, wantTypes, want)
		}
	}
}

// TestMalformedFiles: each is an error naming the file, line and column,
// and nothing is left in the cache.
func TestMalformedFiles(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"short.csv", "a,b,c\n1,2,3\n4,5\n", `short.csv: line 3, column 3: column "c" is missing: 2 fields, but the header names 3 columns (a, b, c)`},
		{"long.csv", "a,b\n1,2\n3,4,5\n", `long.csv: line 3, column 3: a field past the last column "b"`},
		{"quote.csv", "a,b\n1,\"x\n2,3\n", `the record starts on line 2`},
		{"latin1.csv", "a,b\n1,caf\xe9\n", `latin1.csv: line 2, column 3: the value is not UTF-8 text`},
		{"dup.csv", "a,A\n1,2\n", `dup.csv: line 1, column 2: column name "A" repeats column 1`},
		{"empty.csv", "", "empty.csv: the file is empty"},
		{"short.tsv", "a\tb\n1\t2\n3\n", `short.tsv: line 3, column 2: column "b" is missing`},
		{"blank.jsonl", "\n\n", "blank.jsonl: no columns"},
		{"bad.jsonl", "{\"a\":1}\n{\"a\":2,}\n", "bad.jsonl: line 2, column"},
		{"array.jsonl", "{\"a\":1}\n[1,2]\n", "array.jsonl: line 2, column 1: the line is not a JSON object"},
		{"bad.parquet", "PAR1 not really", "bad.parquet: not a readable Parquet file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := write(t, dir, tt.name, tt.body)
			cache := filepath.Join(dir, "cache")
			_, err := Load(context.Background(), p, Options{CacheDir: cache})
			var fe *FormatError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load = %v, want a FormatError containing %q", err, tt.want)
			}
			if entries, _ := os.ReadDir(cache); len(entries) != 0 {
				t.Errorf("cache holds %d files after a failed load", len(entries))
			}
		})
	}
}

// TestChangedFileReloaded: the cached database is reused while the file is
// unchanged (even touched), and replaced when it changes; a file that turns
// malformed is an error and the last good database stays.
func TestChangedFileReloaded(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "sales.csv", "id,amount\n1,10\n")
	first := load(t, p)
	if first.Reused {
		t.Fatal("first load reused a cache")
	}
	future := time.Now().Add(time.Hour)
	os.Chtimes(p, future, future)
	if again := load(t, p); !again.Reused || again.Path != first.Path {
		t.Errorf("touched file: reused %v at %s, want the cached %s", again.Reused, again.Path, first.Path)
	}
	write(t, dir, "sales.csv", "id,amount\n1,10\n2,20\n")
	changed := load(t, p)
	if changed.Reused || changed.Tables[0].Rows != 2 {
		t.Fatalf("changed file: reused %v, %d rows", changed.Reused, changed.Tables[0].Rows)
	}
	if _, rows := rowsOf(t, changed, "sales"); len(rows) != 2 {
		t.Errorf("rows after reload = %v", rows)
	}
	write(t, dir, "sales.csv", "id,amount\n1,10,9\n")
	if _, err := Load(context.Background(), p, Options{CacheDir: filepath.Join(dir, "cache")}); err == nil {
		t.Fatal("malformed file loaded")
	}
	if _, rows := rowsOf(t, changed, "sales"); len(rows) != 2 {
		t.Errorf("the last good database changed: %v", rows)
	}
}
