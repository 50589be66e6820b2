// Command fileload measures how fast files become tables: it writes a CSV
// of about -size megabytes (order lines: integers, decimals, dates, text),
// loads it with filetables (database-mcp --db FILE.csv) and with the sqlite3
// shell's .import into a fresh database, and prints rows per second of each
// and their ratio. The floor is measured in the same run, on the same file,
// alternating with the load -rounds times; the best round of each is
// compared (on a shared machine the others measure its neighbours).
//
//	go run ./scripts/fileload -size 1024 -rounds 3
//
// The CSV and both databases are written under -dir (default a temporary
// directory) and removed at the end unless -keep.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"talk2tables/filetables"
)

func main() {
	size := flag.Int("size", 1024, "size of the generated CSV in MB")
	dir := flag.String("dir", "", "where to write the CSV and the databases (default: a temporary directory)")
	keep := flag.Bool("keep", false, "keep the files")
	rounds := flag.Int("rounds", 3, "loads of each kind, alternating; the best of each is compared")
	flag.Parse()
	if err := run(*size, *dir, *keep, max(*rounds, 1)); err != nil {
		fmt.Fprintln(os.Stderr, "fileload:", err)
		os.Exit(1)
	}
}

func run(sizeMB int, dir string, keep bool, rounds int) error {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		return fmt.Errorf("the sqlite3 shell is the floor and is not installed (apt-get install sqlite3): %w", err)
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "talk2tables-fileload-")
		if err != nil {
			return err
		}
		dir = d
	}
	if !keep {
		defer os.RemoveAll(dir)
	}
	csvPath := filepath.Join(dir, "lines.csv")
	rows, err := writeCSV(csvPath, int64(sizeMB)<<20)
	if err != nil {
		return err
	}
	fi, _ := os.Stat(csvPath)
	fmt.Printf("CSV: %.0f MB, %d rows, %d rounds\n", float64(fi.Size())/(1<<20), rows, rounds)
	var ours, floor []time.Duration
	var types []string
	for i := range rounds {
		cache := filepath.Join(dir, fmt.Sprintf("cache%d", i))
		start := time.Now()
		l, err := filetables.Load(context.Background(), csvPath, filetables.Options{CacheDir: cache})
		if err != nil {
			return err
		}
		ours = append(ours, time.Since(start))
		if l.Tables[0].Rows != rows {
			return fmt.Errorf("filetables loaded %d rows, want %d", l.Tables[0].Rows, rows)
		}
		types = l.Tables[0].Types
		os.RemoveAll(cache)

		dbPath := filepath.Join(dir, fmt.Sprintf("import%d.db", i))
		start = time.Now()
		cmd := exec.Command("sqlite3", dbPath)
		cmd.Stdin = strings.NewReader(".mode csv\n.import " + csvPath + " lines\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("sqlite3 .import: %v: %s", err, out)
		}
		floor = append(floor, time.Since(start))
		os.Remove(dbPath)
		fmt.Printf("round %d: filetables %s, sqlite3 .import %s\n", i+1, ours[i].Round(time.Millisecond), floor[i].Round(time.Millisecond))
	}
	o, f := slices.Min(ours), slices.Min(floor)
	r1, r2 := float64(rows)/o.Seconds(), float64(rows)/f.Seconds()
	fmt.Printf("filetables.Load (types inferred: %s): best %s, %.0f rows/s\n", strings.Join(types, ","), o.Round(time.Millisecond), r1)
	fmt.Printf("sqlite3 .import (every column TEXT):  best %s, %.0f rows/s\n", f.Round(time.Millisecond), r2)
	fmt.Printf("ratio: %.2f of the sqlite3 shell's rows/s\n", r1/r2)
	return nil
}

// writeCSV writes order lines until the file reaches size bytes and returns
// the number of rows.
func writeCSV(path string, size int64) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("line_id,order_id,product_code,sku,quantity,unit_price,discount,line_total,order_date,shipped_at,region,note\n")
	rng := rand.New(rand.NewPCG(1, 2))
	regions := []string{"North", "South", "East", "West"}
	var rows, written int64
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for written < size {
		rows++
		q := 1 + rng.IntN(9)
		price := float64(100+rng.IntN(99900)) / 100
		disc := float64(rng.IntN(20)) / 100
		d := day.AddDate(0, 0, rng.IntN(730))
		note := ""
		if rng.IntN(4) == 0 {
			note = fmt.Sprintf("\"gift, wrap %d\"", rng.IntN(100))
		}
		n, _ := fmt.Fprintf(w, "%d,%d,%05d,SKU-%d,%d,%.2f,%.2f,%.2f,%s,%s,%s,%s\n", rows, rows/3+1, rng.IntN(20000), rng.IntN(1e6), q,
			price, disc, float64(q)*price*(1-disc), d.Format("2006-01-02"), d.Add(time.Duration(rng.IntN(86400))*time.Second).Format("2006-01-02 15:04:05"),
			regions[rng.IntN(4)], note)
		written += int64(n)
	}
	return rows, w.Flush()
}
