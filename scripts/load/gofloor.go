package main

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the bare engine: the project's modernc version, its own driver

	"talk2tables/databasemcp"
)

// The Go floor is the bare engine: modernc's database/sql driver (the
// version talk2tables links) on the same file opened the way database-mcp
// opens it (read-only, the same memory map), one connection per goroutine
// and as many goroutines as clients, each running the mix as the HTTP
// clients do and reading every value of every row. It is this program
// re-executed ($envFloor set), so each run gets a fresh process whose
// SQLite allocator is chosen by its environment like database-mcp's.
const (
	envFloor     = "TALK2TABLES_LOAD_FLOOR"      // db path: run the floor and print a floorRun as JSON
	envFloorConc = "TALK2TABLES_LOAD_FLOOR_CONC" // goroutines
	envFloorDur  = "TALK2TABLES_LOAD_FLOOR_DUR"  // run length (a Go duration)
)

// floorDSN opens path with database-mcp's settings (databasemcp.readOnlyDSN
// and mmapSize): read-only, defensive, query_only, busy timeout, and a
// memory map of twice the file, at least 64 MiB. (With modernc's default
// DSN the mix runs slower: the floor would flatter the stack.)
func floorDSN(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_defensive", "1")
	q.Set("_query_only", "1")
	q.Add("_pragma", "busy_timeout(2000)")
	q.Add("_pragma", fmt.Sprintf("mmap_size(%d)", max(2*fi.Size(), 64<<20)))
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode(), nil
}

// serveGoFloor runs the floor in this process and writes the floorRun.
// Like database-mcp, it first installs the SQLite allocator that
// AllocatorEnv chooses.
func serveGoFloor(path string) error {
	databasemcp.InstallAllocator(nil)
	conc, err := strconv.Atoi(os.Getenv(envFloorConc))
	if err != nil || conc < 1 {
		return fmt.Errorf("%s: %q is not a positive number", envFloorConc, os.Getenv(envFloorConc))
	}
	d, err := time.ParseDuration(os.Getenv(envFloorDur))
	if err != nil {
		return fmt.Errorf("%s: %w", envFloorDur, err)
	}
	dsn, err := floorDSN(path)
	if err != nil {
		return err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(conc)
	db.SetMaxIdleConns(conc)
	ctx := context.Background()
	conns := make([]*sql.Conn, conc)
	for c := range conns {
		if conns[c], err = db.Conn(ctx); err != nil {
			return err
		}
		defer conns[c].Close()
		if err := readAll(ctx, conns[c], mix[0].sql); err != nil { // warm: open, parse the schema, page in
			return err
		}
	}
	lat := make([][][]float64, conc)
	errs := make([]error, conc)
	var wg sync.WaitGroup
	cpu0 := cpuTime()
	start := time.Now()
	end := start.Add(d)
	for c := range conc {
		lat[c] = make([][]float64, len(mix))
		wg.Go(func() {
			for n := 0; ; n++ {
				t := time.Now()
				if !t.Before(end) {
					return
				}
				i := (c + n) % len(mix)
				if err := readAll(ctx, conns[c], sqlFor(i, n)); err != nil {
					errs[c] = err
					return
				}
				lat[c][i] = append(lat[c][i], time.Since(t).Seconds())
			}
		})
	}
	wg.Wait()
	out := floorRun{Elapsed: time.Since(start).Seconds(), CPU: (cpuTime() - cpu0).Seconds(), Version: floorVersion(ctx, conns[0]),
		Allocator: databasemcp.AllocatorState(), Latencies: make([][]float64, len(mix))}
	for i := range mix {
		for c := range conc {
			out.Latencies[i] = append(out.Latencies[i], lat[c][i]...)
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}

// readAll runs query on conn and reads every value of every row, straight
// through the driver as database-mcp does (database/sql's scanning is not
// part of the engine).
func readAll(ctx context.Context, conn *sql.Conn, query string) error {
	return conn.Raw(func(dc any) error {
		rows, err := dc.(driver.QueryerContext).QueryContext(ctx, query, nil)
		if err != nil {
			return err
		}
		dest := make([]driver.Value, len(rows.Columns()))
		for {
			if err := rows.Next(dest); err != nil {
				if errors.Is(err, io.EOF) {
					return rows.Close()
				}
				rows.Close()
				return err
			}
		}
	})
}

func floorVersion(ctx context.Context, conn *sql.Conn) string {
	var v string
	if err := conn.QueryRowContext(ctx, "SELECT sqlite_version()").Scan(&v); err != nil {
		return "?"
	}
	return v
}

// runGoFloor runs the Go floor for d with conc goroutines, in a child
// process with the given SQLite allocator ("" inherits this process's
// environment).
func runGoFloor(ctx context.Context, db string, conc int, d time.Duration, allocator string) (*floorRun, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, self)
	cmd.Env = append(os.Environ(), envFloor+"="+db, envFloorConc+"="+strconv.Itoa(conc), envFloorDur+"="+d.String())
	cmd.Env = withAllocator(cmd.Env, allocator)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go floor: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	var r floorRun
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return nil, fmt.Errorf("go floor output: %w", err)
	}
	if len(r.Latencies) != len(mix) {
		return nil, fmt.Errorf("go floor output has %d latency lists, want %d", len(r.Latencies), len(mix))
	}
	return &r, nil
}
