// Package long says whether the long statistical checks run: the
// simulations of millions of jobs that confirm a policy against queueing
// theory or a paper's table at full precision. They take minutes, so
// `go test ./...` runs their quick versions and they run only with
// SCHEDLAB_LONG=1 (CI runs them in a step of their own, .ci/run).
package long

import "os"

// Env is the environment variable that turns the long checks on.
const Env = "SCHEDLAB_LONG"

// Enabled reports whether SCHEDLAB_LONG=1.
func Enabled() bool { return os.Getenv(Env) == "1" }
