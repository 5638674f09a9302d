// A module outside schedlab that adds a scheduler and runs the replay CLI
// with it (TestExternalModule builds it with this replace pointed at the
// repository).
module example.com/myreplay

go 1.26.8

require github.com/schedlab/schedlab v0.0.0

replace github.com/schedlab/schedlab => ../../../../..
