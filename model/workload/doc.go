// Package workload generates synthetic parallel workloads from the
// stochastic models of the source papers, as trace.Trace values.
//
// Three generators are provided, one per model family:
//
//   - Workload (workload.go): rigid jobs for a flat machine, a 2-D mesh or a
//     hypercube, with Poisson, uniform or deterministic arrivals, the mesh
//     size distributions of Chu (1995) §3 / Zhu (uniform, increasing,
//     decreasing, square, exponential sides), the hypercube dimension
//     distributions of Mohapatra, Yu and Das (1995, §4: uniform and the
//     truncated "normal" table), flat sizes (uniform, exponential,
//     power-of-two), and service times that are exponential, uniform,
//     deterministic or two-stage hyperexponential (Mohapatra, Yu & Das's α/C_x form or
//     balanced means), with dependent or independent size–demand coupling.
//   - Malleable (malleable.go): Guha's (1995, York CS-95-03) malleable jobs,
//     with work W from a balanced-means H2, effective efficiency ε, and an
//     optional bounded-geometric parallelism cap N_i.
//   - Lublin (lublin.go): the Lublin–Feitelson (JPDC 2003) rigid-job model
//     with batch and interactive jobs and a daily arrival cycle.
//
// Each model is also described like a policy (models.go): a name, a doc
// line and typed parameters with defaults and valid values, from which
// synth's flags, a sweep plan's keys, their validation (Model.Validate,
// typed ParamError) and docs/workloads.md derive.
//
// Every generator is deterministic: a seed gives the same trace, and each
// random quantity (arrivals, sizes, service, estimates, ...) has its own
// PCG stream, so that changing one part of the model does not change the
// others (common random numbers, as Chu §3 does). Sweep derives independent
// seeds for every (load, replication) pair of a load sweep.
package workload
