package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// floorScript runs the mix with Python's sqlite3 module — the C SQLite
// library of the distribution with its default settings — on one connection
// per thread, the same way the Go clients run it (client i starts at item i,
// the point lookup walks the same keys), and prints the counts and
// latencies as JSON. sqlite3 releases the GIL while a statement runs, so the
// threads run SQLite in parallel like the C library allows.
const floorScript = `
import json, sqlite3, sys, threading, time
db, conc, dur, keys = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
mix = json.loads(sys.stdin.read())
lat = [[[] for _ in mix] for _ in range(conc)]
ready = threading.Barrier(conc + 1)
def work(c):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, check_same_thread=False)
    con.execute(mix[0][1]).fetchall()
    ready.wait()
    n = 0
    while True:
        t = time.perf_counter()
        if t >= end:
            break
        i = (c + n) % len(mix)
        con.execute(mix[i][1].replace("{key}", str(1 + (n * 7919) % keys))).fetchall()
        lat[c][i].append(time.perf_counter() - t)
        n += 1
    con.close()
ts = [threading.Thread(target=work, args=(c,)) for c in range(conc)]
for t in ts:
    t.start()
start = time.perf_counter()
end = start + dur
ready.wait()
for t in ts:
    t.join()
elapsed = time.perf_counter() - start
out = {"elapsed": elapsed, "version": sqlite3.sqlite_version,
       "latencies": [[x for c in range(conc) for x in lat[c][i]] for i in range(len(mix))]}
json.dump(out, sys.stdout)
`

// floorRun is what one run of the floor measured.
type floorRun struct {
	Elapsed   float64     `json:"elapsed"`
	Version   string      `json:"version"`
	Allocator string      `json:"allocator,omitempty"` // the Go floor's SQLite allocator
	CPU       float64     `json:"cpu,omitempty"`       // the Go floor's CPU seconds over the run
	Latencies [][]float64 `json:"latencies"`           // seconds, per mix item
}

// findPython returns Debian's python3 if present, else python3 on PATH.
func findPython(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	for _, p := range []string{"/usr/bin/python3"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("python3")
	if err != nil {
		return "", errors.New("the C floor needs python3 with its sqlite3 module (Debian: apt-get install python3); pass -python")
	}
	return p, nil
}

// runFloor runs the mix on the floor for d with conc threads.
func runFloor(ctx context.Context, python, db string, conc int, d time.Duration) (*floorRun, error) {
	items := make([][2]string, len(mix))
	for i, it := range mix {
		items[i] = [2]string{it.name, it.sql}
	}
	in, err := json.Marshal(items)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, python, "-c", floorScript, db, fmt.Sprint(conc),
		fmt.Sprint(d.Seconds()), fmt.Sprint(pointKeys))
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("floor (%s): %w: %s", python, err, strings.TrimSpace(stderr.String()))
	}
	var r floorRun
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return nil, fmt.Errorf("floor output: %w", err)
	}
	if len(r.Latencies) != len(mix) {
		return nil, fmt.Errorf("floor output has %d latency lists, want %d", len(r.Latencies), len(mix))
	}
	return &r, nil
}

// durations converts the floor's seconds to durations.
func durations(secs []float64) []time.Duration {
	out := make([]time.Duration, len(secs))
	for i, s := range secs {
		out[i] = time.Duration(s * float64(time.Second))
	}
	return out
}
