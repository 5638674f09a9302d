// Package schema declares, once, the results contract of schedlab: the
// files a replay writes (jobs, summary, series), their columns in order, the
// file names, the metadata keys and the JSON documents they hold. The
// replay (model/experiment) writes these types, the analysis packages read
// them, and docs/results.md describes them (docs/metrics.md is generated
// from the column declarations).
//
// Column names and order are a public contract: DuckDB, pyarrow and polars
// read the files by name. A column tagged `schema:"optional"` was added
// after the first release; readers accept files without it and take its
// zero value.
package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// File names inside a results directory.
const (
	JobsFile    = "jobs.parquet"
	SummaryFile = "summary.parquet"
	SeriesFile  = "series.parquet"
)

// Files lists the results files in the order they are committed.
var Files = []string{JobsFile, SummaryFile, SeriesFile}

// Metadata keys of the results files (the same on every file of one run).
const (
	KeyVersion = "schedlab.version" // tool version
	KeyOptions = "schedlab.options" // JSON of Options
	KeyTraces  = "schedlab.traces"  // JSON array of TraceInfo
)

// Piece is one block of a job's placement, as policy.Piece: a flat range
// (x .. x+w−1), a mesh submesh (lower-left corner (x, y), w × h) or a
// subcube ({x | s : s ⊆ mask}, w = 2^popcount(mask)). It holds w·h nodes.
type Piece struct {
	X    int32 `parquet:"x"`
	Y    int32 `parquet:"y"`
	W    int32 `parquet:"w"`
	H    int32 `parquet:"h"`
	Mask int32 `parquet:"mask"`
}

// Job is one row of jobs.parquet: one accepted, replayed job of one
// (trace, pair).
type Job struct {
	Trace           string  `parquet:"trace,dict"`
	Machine         string  `parquet:"machine,dict"`
	Alloc           string  `parquet:"alloc,dict"`
	Sched           string  `parquet:"sched,dict"`
	Rep             int64   `parquet:"rep"`
	JobID           int64   `parquet:"job_id"`
	Submit          float64 `parquet:"submit_time"`
	Start           float64 `parquet:"start_time"` // first start
	End             float64 `parquet:"end_time"`
	Wait            float64 `parquet:"wait_time"`        // start − submit
	Response        float64 `parquet:"response_time"`    // end − submit
	Slowdown        float64 `parquet:"slowdown"`         // metrics.Slowdown
	BoundedSlowdown float64 `parquet:"bounded_slowdown"` // metrics.BoundedSlowdown at the run's τ
	ReqProcs        int64   `parquet:"req_procs"`
	AllocProcs      float64 `parquet:"alloc_procs"` // processors held (time average when the share changed)
	Load            float64 `parquet:"load" schema:"optional"`
	Run             float64 `parquet:"run_time" schema:"optional"`
	Estimate        float64 `parquet:"estimate" schema:"optional"`
	User            int64   `parquet:"user_id" schema:"optional"`
	Placement       []Piece `parquet:"placement,list" schema:"optional"` // where the job ran last; empty when not recorded
	Suspensions     int64   `parquet:"suspensions" schema:"optional"`
	Migrations      int64   `parquet:"migrations" schema:"optional"`
	Comm            string  `parquet:"comm,dict" schema:"optional"` // as Summary.Comm
}

// Summary is one row of summary.parquet: the statistics of one (trace,
// pair). The job-level statistics are metrics.JobStats, the system-level
// ones metrics.SystemStats.
type Summary struct {
	Trace        string  `parquet:"trace,dict"`
	Machine      string  `parquet:"machine,dict"`
	Alloc        string  `parquet:"alloc,dict"`
	Sched        string  `parquet:"sched,dict"`
	Rep          int64   `parquet:"rep"`
	Jobs         int64   `parquet:"jobs"`     // jobs counted in the statistics
	Rejected     int64   `parquet:"rejected"` // jobs the replay refused
	MeanResponse float64 `parquet:"mean_response"`
	SDResponse   float64 `parquet:"sd_response"`
	MeanWait     float64 `parquet:"mean_wait"`
	MeanSlowdown float64 `parquet:"mean_slowdown"`
	MeanBSLD     float64 `parquet:"mean_bsld"`
	Utilization  float64 `parquet:"utilization"`
	Makespan     float64 `parquet:"makespan"`
	Throughput   float64 `parquet:"throughput"`
	Power        float64 `parquet:"power"`
	MaxQueue     int64   `parquet:"max_queue"`
	MeanQueue    float64 `parquet:"mean_queue"`
	Load         float64 `parquet:"load" schema:"optional"` // the trace's offered load, -1 when unknown
	Procs        int64   `parquet:"procs" schema:"optional"`
	BSLDTau      float64 `parquet:"bsld_tau" schema:"optional"`
	Filtered     int64   `parquet:"filtered" schema:"optional"` // jobs left out by filters
	MaxWait      float64 `parquet:"max_wait" schema:"optional"`
	MeanRun      float64 `parquet:"mean_run" schema:"optional"`
	// Fragmentation (model/metrics): the share of allocated processor-time
	// not requested, the fraction of the makespan during which the
	// earliest waiting job had enough free processors, and the number of
	// event instants after which it had.
	InternalFrag      float64 `parquet:"internal_frag" schema:"optional"`
	ExternalFrag      float64 `parquet:"external_frag" schema:"optional"`
	ExternalFragCount int64   `parquet:"external_frag_instants" schema:"optional"`
	// Response per size class: the jobs counted, by processors requested,
	// in the quarters of the machine (metrics.SizeQuarters: Chu 1995 §5.3's
	// four groups 1–256, 257–512, 513–768, 769–1024 on 32×32).
	SizeClasses []SizeClass `parquet:"size_classes,list" schema:"optional"`
	// Observation window [0, T] (replay --until T; Mohapatra, Yu & Das
	// 1995 §4.2, metrics.Window): its end T (0 without a window), the jobs
	// generated, completed and allocated by T, the mean queueing delay
	// M = R/A, throughput X = C/T, utilization U, power P = X/M and the
	// measured request rate S/(2^n·T); NaN without a window.
	WindowEnd         float64 `parquet:"window_end" schema:"optional"`
	WindowGenerated   int64   `parquet:"window_generated" schema:"optional"`
	WindowCompleted   int64   `parquet:"window_completed" schema:"optional"`
	WindowAllocated   int64   `parquet:"window_allocated" schema:"optional"`
	WindowDelay       float64 `parquet:"window_delay" schema:"optional"`
	WindowThroughput  float64 `parquet:"window_throughput" schema:"optional"`
	WindowUtilization float64 `parquet:"window_util" schema:"optional"`
	WindowPower       float64 `parquet:"window_power" schema:"optional"`
	WindowOffered     float64 `parquet:"window_offered" schema:"optional"`
	// Deadlines and preemption (pcw; Ghoneim & Fahmy 2003): the counted
	// jobs with a deadline and those of them that ended after it; the
	// run's suspensions and migrations (every job's) and the time spent
	// in migration delays (engine.Result.MigrationTime).
	DeadlineJobs   int64 `parquet:"deadline_jobs" schema:"optional"`
	DeadlineMissed int64 `parquet:"deadline_missed" schema:"optional"`
	// DeadlineMissRate is DeadlineMissed / DeadlineJobs (metrics.MissRate;
	// NaN without a deadline).
	DeadlineMissRate float64 `parquet:"deadline_miss_rate" schema:"optional"`
	Preemptions      int64   `parquet:"preemptions" schema:"optional"`
	Migrations       int64   `parquet:"migrations" schema:"optional"`
	MigrationTime    float64 `parquet:"migration_time" schema:"optional"`
	// Dynamic space sharing (model/metrics): the time-averaged number of
	// jobs running (in malleable mode, the active list, jobs holding a
	// share of 0 included), and the share of allocations bounded by the
	// jobs' parallelism caps N_i (Guha 1995 §7.5; NaN in rigid mode and
	// when no job has a cap).
	MeanActive  float64 `parquet:"mean_active" schema:"optional"`
	CappedShare float64 `parquet:"capped_share" schema:"optional"`
	// Placements and communication (model/metrics.CommTotals;
	// Bani-Mohammad et al. 2006): over the counted jobs, the mean pairwise
	// hop distance between a job's processors (its machine family's Dispersion:
	// Manhattan on a mesh, Hamming on a hypercube) and the mean number of
	// pieces (both NaN on a flat machine, which has no topology); under a communication model
	// (replay --comm), the mean communication time per job, the mean
	// latency and blocking time per packet, and the mean hop-flits per job
	// (hops × P_len, the hop-bytes of a packet of P_len flits), NaN when
	// off.
	Dispersion  float64 `parquet:"dispersion" schema:"optional"`
	Pieces      float64 `parquet:"pieces" schema:"optional"`
	CommTime    float64 `parquet:"comm_time" schema:"optional"`
	PktLatency  float64 `parquet:"pkt_latency" schema:"optional"`
	PktBlocking float64 `parquet:"pkt_blocking" schema:"optional"`
	HopFlits    float64 `parquet:"hop_flits" schema:"optional"`
	// Comm names the run's communication model in its canonical form
	// (model/network.Spec.String: "off", "wormhole:ts=3,plen=8,msgs=5"):
	// a sweep's cell dimension, like machine, alloc and sched. Empty in
	// files written before the column existed.
	Comm string `parquet:"comm,dict" schema:"optional"`
}

// SizeClass is one element of a summary's size_classes: the counted jobs
// requesting lo..hi processors, their mean response and its SD (n − 1
// divisor; NaN below two jobs, the mean NaN with none).
type SizeClass struct {
	Lo           int64   `parquet:"lo"`
	Hi           int64   `parquet:"hi"`
	Jobs         int64   `parquet:"jobs"`
	MeanResponse float64 `parquet:"mean_response"`
	SDResponse   float64 `parquet:"sd_response"`
}

// Series is one row of series.parquet: the state after all events at one
// instant of one (trace, pair).
type Series struct {
	Trace   string  `parquet:"trace,dict"`
	Machine string  `parquet:"machine,dict"`
	Alloc   string  `parquet:"alloc,dict"`
	Sched   string  `parquet:"sched,dict"`
	Rep     int64   `parquet:"rep"`
	Time    float64 `parquet:"time"`
	Busy    float64 `parquet:"busy"`                        // processors held (fractional for malleable runs)
	Running int64   `parquet:"running"`                     // jobs running
	Queue   int64   `parquet:"queue"`                       // jobs waiting
	Comm    string  `parquet:"comm,dict" schema:"optional"` // as Summary.Comm
}

// Kind is a column's type in the contract.
type Kind int

// Column kinds.
const (
	String Kind = iota // BYTE_ARRAY (UTF-8)
	Int                // INT64 (INT32 accepted on read)
	Double             // DOUBLE (FLOAT accepted on read)
	List               // LIST of Piece
)

func (k Kind) String() string {
	return [...]string{"string", "int64", "double", "list<struct>"}[k]
}

// Column is one column of a results file.
type Column struct {
	Name     string
	Kind     Kind
	Optional bool     // readers accept files without it
	Elem     []Column // List: the fields of an element, in order
	field    int
}

// Columns returns the columns of a row type (Job, Summary or Series), in
// file order.
func Columns(row any) []Column {
	t := reflect.TypeOf(row)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []Column
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		c := Column{Name: name, Optional: f.Tag.Get("schema") == "optional", field: i}
		switch f.Type.Kind() {
		case reflect.String:
			c.Kind = String
		case reflect.Int64, reflect.Int32:
			c.Kind = Int
		case reflect.Float64:
			c.Kind = Double
		case reflect.Slice:
			c.Kind = List
			c.Elem = Columns(reflect.New(f.Type.Elem()).Elem().Interface())
		default:
			panic(fmt.Sprintf("schema: %s.%s: unsupported type %s", t.Name(), f.Name, f.Type))
		}
		out = append(out, c)
	}
	return out
}

// Names returns the column names of a row type, in file order.
func Names(row any) []string {
	cs := Columns(row)
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}

var summaryField = func() map[string]int {
	m := map[string]int{}
	for _, c := range Columns(Summary{}) {
		if c.Kind == Int || c.Kind == Double {
			m[c.Name] = c.field
		}
	}
	return m
}()

// Metric returns the value of a numeric summary column by name (integer
// columns as float64) and whether the column exists.
func (s *Summary) Metric(column string) (float64, bool) {
	i, ok := summaryField[column]
	if !ok {
		return 0, false
	}
	v := reflect.ValueOf(s).Elem().Field(i)
	if v.Kind() == reflect.Int64 {
		return float64(v.Int()), true
	}
	return v.Float(), true
}

// Options is the JSON document of the schedlab.options metadata: the
// replay options that shape the results.
type Options struct {
	Machine          string   `json:"machine"`
	Allocs           []string `json:"allocs"`
	Scheds           []string `json:"scheds"`
	Estimates        string   `json:"estimates"`
	BsldTau          float64  `json:"bsld_tau"`
	Warmup           int      `json:"warmup"`
	UntilLastArrival bool     `json:"until_last_arrival"`
	Check            bool     `json:"check"`
	Filters          []string `json:"filters"`
	Placement        bool     `json:"placement"`
	// A sweep's cells (replay sweep) also record the sweep's name and its
	// machines (Machine is then empty).
	Sweep    string   `json:"sweep,omitempty"`
	Machines []string `json:"machines,omitempty"`
	NoJobs   bool     `json:"no_jobs,omitempty"` // the sweep wrote no jobs table
	Shape    string   `json:"shape,omitempty"`   // mesh shaping rule of jobs with a processor count only
	Until    float64  `json:"until,omitempty"`   // the observation window [0, until] (replay --until), 0 for none
	Mode     string   `json:"mode,omitempty"`    // "malleable" for dynamic space sharing (omitted: rigid)
	Comm     string   `json:"comm,omitempty"`    // the communication model (replay --comm; omitted: off)
	// Comms lists the communication models of a sweep that varies them
	// (canonical forms, in plan order; Comm is then empty): each cell's is
	// its files' comm column and its comm= partition.
	Comms []string `json:"comms,omitempty"`
}

// TraceInfo is one element of the schedlab.traces metadata: the
// provenance of one replayed trace.
type TraceInfo struct {
	Name      string          `json:"name"`
	Source    string          `json:"source"`
	Generator string          `json:"generator"`
	Params    json.RawMessage `json:"params,omitempty"`
	Seed      int64           `json:"seed"`
	Load      float64         `json:"load"`
	Rep       int64           `json:"rep"`
	Machine   string          `json:"machine"`
	Jobs      int64           `json:"jobs"`
}

// ParamString renders Params as "k=v, k=v" in key order ("" when absent).
func (t *TraceInfo) ParamString() string {
	if len(t.Params) == 0 {
		return ""
	}
	var m map[string]any
	if err := json.Unmarshal(t.Params, &m); err != nil {
		return string(t.Params)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// Real reports whether the trace is a converted real log (times in
// seconds) rather than a synthetic one (abstract time units): its
// generator is "swf" or its source is an SWF file.
func (t *TraceInfo) Real() bool {
	g := strings.ToLower(t.Generator)
	s := strings.ToLower(t.Source)
	return g == "swf" || strings.HasSuffix(s, ".swf") || strings.HasSuffix(s, ".swf.gz")
}

// JSON encodes v compactly without HTML escaping, as the metadata holds it.
func JSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // plain strings, numbers, maps: cannot fail
	}
	return strings.TrimSuffix(b.String(), "\n")
}
