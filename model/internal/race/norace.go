//go:build !race

// Package race reports whether the race detector is on, so that long
// statistical tests skip under it (they would take ten times as long and
// hit go test's timeout) as they do under -short.
package race

// Enabled is true when built with -race.
const Enabled = false
