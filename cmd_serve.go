package main

import (
	"context"
	"fmt"
)

// runServe is replaced by the real wiring of 'serve'.
func runServe(ctx context.Context, args []string, io stdio) error {
	return fmt.Errorf("serve: not built yet")
}
