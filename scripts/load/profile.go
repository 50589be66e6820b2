package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"time"
)

// envProfileDir, when set, makes every floor run and database-mcp child
// write a CPU profile into that directory (floor-PID.prof, child-PID.prof),
// so the engine alone and database-mcp can be compared sample by sample:
//
//	TALK2TABLES_LOAD_PROFILE_DIR=/tmp/prof TALK2TABLES_LOAD_PROFILE_FOR=60s go run ./scripts/load -levels 1 -sides sql
//	go tool pprof -top /tmp/prof/child-*.prof
//
// The child is killed when the stack stops, so its profile covers the
// first $envProfileFor of its life (default 60s) and is written then.
const (
	envProfileDir = "TALK2TABLES_LOAD_PROFILE_DIR"
	envProfileFor = "TALK2TABLES_LOAD_PROFILE_FOR"
)

// profileSelf starts this process's CPU profile when $envProfileDir is set
// and returns the function that stops it (a no-op otherwise).
func profileSelf(kind string) func() {
	dir := os.Getenv(envProfileDir)
	if dir == "" {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s-%d.prof", kind, os.Getpid())))
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "load: profile:", err)
		return func() {}
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			pprof.StopCPUProfile()
			f.Close()
		})
	}
	if kind == "child" {
		d, err := time.ParseDuration(os.Getenv(envProfileFor))
		if err != nil {
			d = time.Minute
		}
		time.AfterFunc(d, stop)
	}
	return stop
}
