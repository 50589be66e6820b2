package orchestrator

// checkAggregation is sqlgen.CheckAggregation.
func checkAggregation(sql string) error { return nil }
