package main

import (
	"os"
	"testing"

	"talk2tables/internal/mariadbtest"
	"talk2tables/internal/pgtest"
)

// runMainEnv makes the test binary act as the talk2tables binary (main with
// its arguments), so tests can start it as a stdio MCP child of serve
// without a prebuilt binary: the TestMain re-exec trick.
const runMainEnv = "TALK2TABLES_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) != "" {
		main()
		os.Exit(0)
	}
	os.Exit(mariadbtest.Stop(pgtest.Main(m)))
}
