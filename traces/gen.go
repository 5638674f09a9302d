package traces

// The flat family: flat:128, uniform sizes 1..128, Mohapatra, Yu & Das 1995's H2 service
// (α = 0.95, C_x = 4) with mean 10, loads 0.3..0.9, 2000 jobs, three
// replications, common random numbers across loads, sweep seed 1 (see the
// package doc).
// FlatSpec and FlatSweep below must match these flags; TestRegenerate
// checks that they produce the embedded files byte for byte.
//go:generate go run ../cmd/synth sweep --machine flat:128 --size uniform --service h2 --mean 10 --cv 4 --h2-alpha 0.95 --load 0.3:0.9:0.1 --reps 3 --crn --jobs 2000 --seed 1 --name flat128-h2 -o flat
