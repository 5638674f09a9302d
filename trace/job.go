// Package trace holds the job record of a parallel workload, its container
// (a Trace with header metadata and provenance), and the readers and writers
// that move traces between the Standard Workload Format (SWF), Parquet and
// Arrow.
//
// Every field follows the SWF convention that -1 means unknown or
// irrelevant. Times are seconds for real logs and abstract time units for
// synthetic traces; the trace's provenance says which.
//
// # Parquet I/O
//
// Parquet traces are read and written column by column through parquet-go's
// page-level API, never row by row, by the module's one columnar codec
// (internal/columnar), with Job's tags as its schema. Reading, each column chunk of a row
// group has a goroutine that decompresses its pages ahead of the consumer,
// and the consumer copies the values straight from the decoded page buffers
// into the jobs, 512 rows at a time (a block stays in cache while its 23
// columns are written, and is validated before the next). Writing, the rows
// are split into columns in 8192-row batches and every column writer encodes
// and compresses its own pages, in parallel; pages depend only on the values,
// so the bytes do not depend on the cores or on how rows reach the writer
// (the streaming converter writes the same bytes as WriteParquet).
//
// Two designs were measured on a 1,000,000-job synthetic trace and the KTH
// SP2 log (28,476 jobs), reading in memory on 2 cores, with the CPU time in
// parentheses (go test -bench Read ./trace has the figures for files):
// parquet-go's row reader (GenericReader[Job], the former code) 2.5 s
// (2.8 s) and 49 ms; arrow/go v17's pqarrow, columns decoded in parallel
// into Arrow arrays and then copied into jobs block by block, 0.35 s
// (0.36 s) and 9.9 ms; parquet-go pages as above, 0.15 s (0.25 s) and
// 5.4 ms (7.6 ms). pqarrow is slower because it builds a complete Arrow
// array of every column (as large again as the jobs) and copies it once
// more, with a decoder no faster than parquet-go's; parquet-go's pages are
// used in place. zstd decoding is about two thirds of the CPU time.
package trace

import (
	"math"

	"github.com/schedlab/schedlab/internal/columnar"
)

// Unknown is the SWF marker for a missing or irrelevant value.
const Unknown = -1

// Job is one job: the 18 fields of the Standard Workload Format, in order,
// followed by the fields that the mesh, hypercube and malleable models need,
// and a job's priority and deadline (Ghoneim & Fahmy 2003's execution
// window: pcw).
// The Parquet column name of each field is given in its tag; those names are
// a public contract (see docs/traces.md). The tag `trace:"procs"` marks a
// processor count (bounded by MaxProcCount). Every list of the fields (the
// SWF field names and kinds, the Parquet and Arrow columns) derives from
// these tags, through jobFields.
type Job struct {
	ID         int64   `parquet:"job_id"`                    // 1: job number
	Submit     float64 `parquet:"submit_time"`               // 2: submit time
	Wait       float64 `parquet:"wait_time"`                 // 3: wait time in the log
	Run        float64 `parquet:"run_time"`                  // 4: run time (actual)
	AllocProcs int64   `parquet:"alloc_procs" trace:"procs"` // 5: allocated processors
	AvgCPU     float64 `parquet:"avg_cpu_time"`              // 6: average CPU time used
	UsedMem    float64 `parquet:"used_memory"`               // 7: used memory (KB per processor)
	ReqProcs   int64   `parquet:"req_procs" trace:"procs"`   // 8: requested processors
	ReqTime    float64 `parquet:"req_time"`                  // 9: requested time (user estimate)
	ReqMem     float64 `parquet:"req_memory"`                // 10: requested memory (KB per processor)
	Status     int64   `parquet:"status"`                    // 11: 1 completed, 0 failed, 5 cancelled, else partial
	User       int64   `parquet:"user_id"`                   // 12: user
	Group      int64   `parquet:"group_id"`                  // 13: group
	Executable int64   `parquet:"executable"`                // 14: application number
	Queue      int64   `parquet:"queue"`                     // 15: queue number
	Partition  int64   `parquet:"partition"`                 // 16: partition number
	Preceding  int64   `parquet:"preceding_job"`             // 17: preceding job number
	ThinkTime  float64 `parquet:"think_time"`                // 18: think time from preceding job

	ReqWidth       int64   `parquet:"req_width" trace:"procs"`       // requested mesh width (columns)
	ReqHeight      int64   `parquet:"req_height" trace:"procs"`      // requested mesh height (rows)
	Work           float64 `parquet:"work"`                          // malleable: total work W
	Efficiency     float64 `parquet:"efficiency"`                    // malleable: effective efficiency ε in percent
	MaxParallelism int64   `parquet:"max_parallelism" trace:"procs"` // malleable: parallelism cap N_i
	Priority       int64   `parquet:"priority"`                      // priority class, ≥ 0, higher is more urgent
	Deadline       float64 `parquet:"deadline"`                      // absolute deadline (end of the execution window)
}

// MaxInt is the largest magnitude of an integer field read from SWF text or
// from a Parquet double column: 2^53, beyond which a float64 no longer
// holds every integer (a larger value would silently become another one).
const MaxInt = 1 << 53

// jobFields is the schema table of Job, from its tags: in order, the 18
// SWF fields, then the others (ExtraFieldNames).
var jobFields = columnar.SchemaOf[Job]().Fields

// unknownJob is a job whose every field is Unknown.
var unknownJob = func() (j Job) {
	for i := range jobFields {
		columnar.Set(&j, &jobFields[i], Unknown)
	}
	return j
}()

// NewJob returns a job whose every field is Unknown except its ID.
func NewJob(id int64) Job {
	j := unknownJob
	j.ID = id
	return j
}

// isProcs reports whether field f is a processor count.
func isProcs(f *columnar.Field) bool { return f.Tag.Get("trace") == "procs" }

// Partial reports whether the archive marks the record as a partial one
// (a status other than 0 failed, 1 completed, 5 cancelled, or unknown).
// Partial records are kept; the replay filter decides what to do with them.
func (j *Job) Partial() bool {
	switch j.Status {
	case 0, 1, 5, Unknown:
		return false
	}
	return true
}

// Procs is the number of processors a job needs: its requested processors
// when known (> 0), else its allocated processors, else Unknown.
func (j *Job) Procs() int64 {
	if j.ReqProcs > 0 {
		return j.ReqProcs
	}
	if j.AllocProcs > 0 {
		return j.AllocProcs
	}
	return Unknown
}

// Estimate is the user's runtime estimate: the requested time when known
// (>= 0; only -1 and other negative values mean unknown), else the actual run
// time. A zero estimate is kept: Chu's EET noise model (§7.3) clips negative
// draws to 0, and those jobs must look short to estimate-based policies.
func (j *Job) Estimate() float64 {
	if j.ReqTime >= 0 {
		return j.ReqTime
	}
	return j.Run
}

// NumFields is the number of fields of an SWF data line.
const NumFields = 18

// Fields returns the 18 SWF fields of j in order, as float64.
func (j *Job) Fields() (out [NumFields]float64) {
	for i := range out {
		out[i] = columnar.Get(j, &jobFields[i])
	}
	return out
}

// intFields returns the integer SWF fields of j at their positions (0 at
// the others).
func (j *Job) intFields() (out [NumFields]int64) {
	for i := range out {
		if f := &jobFields[i]; f.Kind == columnar.Int64 {
			out[i] = *columnar.Int(j, f)
		}
	}
	return out
}

// FieldNames are the Parquet column names of the 18 SWF fields, in order.
var FieldNames = func() (out [NumFields]string) {
	for i := range out {
		out[i] = jobFields[i].Name
	}
	return out
}()

// ExtraFieldNames are the Parquet column names of the fields beyond SWF.
var ExtraFieldNames = func() (out []string) {
	for _, f := range jobFields[NumFields:] {
		out = append(out, f.Name)
	}
	return out
}()

// isInt reports whether SWF field i (0-based) holds an integer.
func isInt(i int) bool { return jobFields[i].Kind == columnar.Int64 }

// setField sets SWF field i (0-based) of j from v. Integer fields must hold
// whole numbers; the caller checks that.
func (j *Job) setField(i int, v float64) { columnar.Set(j, &jobFields[i], v) }

func isWhole(v float64) bool { return v == math.Trunc(v) && !math.IsInf(v, 0) }
