package main

import (
	"context"
	"fmt"
)

// runGenData is replaced by the real wiring of 'gen-data'.
func runGenData(ctx context.Context, args []string, io stdio) error {
	return fmt.Errorf("gen-data: not built yet")
}
