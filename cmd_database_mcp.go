package main

import (
	"context"
	"fmt"
)

// runDatabaseMCP is replaced by the real wiring of 'database-mcp'.
func runDatabaseMCP(ctx context.Context, args []string, io stdio) error {
	return fmt.Errorf("database-mcp: not built yet")
}
