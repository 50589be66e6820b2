package main

import (
	"context"
	"fmt"
)

// runMetadataMCP is replaced by the real wiring of 'metadata-mcp'.
func runMetadataMCP(ctx context.Context, args []string, io stdio) error {
	return fmt.Errorf("metadata-mcp: not built yet")
}
