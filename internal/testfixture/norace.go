//go:build !race

package testfixture

// Race reports whether the race detector is on: it slows SQLite (transpiled
// to Go) and JSON work about tenfold, which bounds on answer times allow for.
const Race = false
