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
//
// A column tagged `null:"..."` is nullable: the files hold NULL where its
// value does not apply (the comments below say NaN or -1, the value the Go
// code uses in memory, which the readers give back); a column tagged
// `unit:"..."` has a unit, recorded in every file's KeyUnits metadata.
// docs/results-units-and-nulls.md lists them (UnitsTable).
package schema

import (
	"encoding/json"
	"fmt"
	"math"
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
	KeyUnits   = "schedlab.units"   // JSON object: column name → unit (Units)
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
	Submit          float64 `parquet:"submit_time" unit:"time"`
	Start           float64 `parquet:"start_time" unit:"time"` // first start
	End             float64 `parquet:"end_time" unit:"time"`
	Wait            float64 `parquet:"wait_time" unit:"time"`     // start − submit
	Response        float64 `parquet:"response_time" unit:"time"` // end − submit
	Slowdown        float64 `parquet:"slowdown"`                  // metrics.Slowdown
	BoundedSlowdown float64 `parquet:"bounded_slowdown"`          // metrics.BoundedSlowdown at the run's τ
	ReqProcs        int64   `parquet:"req_procs"`
	AllocProcs      float64 `parquet:"alloc_procs"` // processors held (time average when the share changed)
	Load            float64 `parquet:"load" schema:"optional" null:"-1"`
	Run             float64 `parquet:"run_time" schema:"optional" unit:"time"`
	Estimate        float64 `parquet:"estimate" schema:"optional" unit:"time"`
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
	MeanResponse float64 `parquet:"mean_response" unit:"time"`
	SDResponse   float64 `parquet:"sd_response" unit:"time"`
	MeanWait     float64 `parquet:"mean_wait" unit:"time"`
	MeanSlowdown float64 `parquet:"mean_slowdown"`
	MeanBSLD     float64 `parquet:"mean_bsld"`
	Utilization  float64 `parquet:"utilization"`
	Makespan     float64 `parquet:"makespan" unit:"time"`
	Throughput   float64 `parquet:"throughput" unit:"1/time"`
	Power        float64 `parquet:"power"`
	MaxQueue     int64   `parquet:"max_queue"`
	MeanQueue    float64 `parquet:"mean_queue"`
	Load         float64 `parquet:"load" schema:"optional" null:"-1"` // the trace's offered load, -1 when unknown
	Procs        int64   `parquet:"procs" schema:"optional"`
	BSLDTau      float64 `parquet:"bsld_tau" schema:"optional" unit:"time"`
	Filtered     int64   `parquet:"filtered" schema:"optional"` // jobs left out by filters
	MaxWait      float64 `parquet:"max_wait" schema:"optional" unit:"time"`
	MeanRun      float64 `parquet:"mean_run" schema:"optional" unit:"time"`
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
	WindowEnd         float64 `parquet:"window_end" schema:"optional" null:"0" unit:"time"`
	WindowGenerated   int64   `parquet:"window_generated" schema:"optional" null:"when:window_end"`
	WindowCompleted   int64   `parquet:"window_completed" schema:"optional" null:"when:window_end"`
	WindowAllocated   int64   `parquet:"window_allocated" schema:"optional" null:"when:window_end"`
	WindowDelay       float64 `parquet:"window_delay" schema:"optional" null:"NaN" unit:"time"`
	WindowThroughput  float64 `parquet:"window_throughput" schema:"optional" null:"NaN" unit:"1/time"`
	WindowUtilization float64 `parquet:"window_util" schema:"optional" null:"NaN"`
	WindowPower       float64 `parquet:"window_power" schema:"optional" null:"NaN"`
	WindowOffered     float64 `parquet:"window_offered" schema:"optional" null:"NaN"`
	// Deadlines and preemption (pcw; Ghoneim & Fahmy 2003): the counted
	// jobs with a deadline and those of them that ended after it; the
	// run's suspensions and migrations (every job's) and the time spent
	// in migration delays (engine.Result.MigrationTime).
	DeadlineJobs   int64 `parquet:"deadline_jobs" schema:"optional"`
	DeadlineMissed int64 `parquet:"deadline_missed" schema:"optional"`
	// DeadlineMissRate is DeadlineMissed / DeadlineJobs (metrics.MissRate;
	// NaN without a deadline).
	DeadlineMissRate float64 `parquet:"deadline_miss_rate" schema:"optional" null:"NaN"`
	Preemptions      int64   `parquet:"preemptions" schema:"optional"`
	Migrations       int64   `parquet:"migrations" schema:"optional"`
	MigrationTime    float64 `parquet:"migration_time" schema:"optional" unit:"time"`
	// Percentiles of the counted jobs' wait, response and bounded
	// slowdown (metrics.JobStats; metrics.Percentile: linear
	// interpolation, Hyndman & Fan type 7); NaN with no job counted.
	P50Wait     float64 `parquet:"p50_wait" schema:"optional" unit:"time"`
	P90Wait     float64 `parquet:"p90_wait" schema:"optional" unit:"time"`
	P95Wait     float64 `parquet:"p95_wait" schema:"optional" unit:"time"`
	P99Wait     float64 `parquet:"p99_wait" schema:"optional" unit:"time"`
	P50Response float64 `parquet:"p50_response" schema:"optional" unit:"time"`
	P90Response float64 `parquet:"p90_response" schema:"optional" unit:"time"`
	P95Response float64 `parquet:"p95_response" schema:"optional" unit:"time"`
	P99Response float64 `parquet:"p99_response" schema:"optional" unit:"time"`
	P50BSLD     float64 `parquet:"p50_bsld" schema:"optional"`
	P90BSLD     float64 `parquet:"p90_bsld" schema:"optional"`
	P95BSLD     float64 `parquet:"p95_bsld" schema:"optional"`
	P99BSLD     float64 `parquet:"p99_bsld" schema:"optional"`
	// Dynamic space sharing (model/metrics): the time-averaged number of
	// jobs running (in malleable mode, the active list, jobs holding a
	// share of 0 included), and the share of allocations bounded by the
	// jobs' parallelism caps N_i (Guha 1995 §7.5; NaN in rigid mode and
	// when no job has a cap).
	MeanActive  float64 `parquet:"mean_active" schema:"optional"`
	CappedShare float64 `parquet:"capped_share" schema:"optional" null:"NaN"`
	// Placements and communication (model/metrics.CommTotals;
	// Bani-Mohammad et al. 2006): over the counted jobs, the mean pairwise
	// hop distance between a job's processors (its machine family's Dispersion:
	// Manhattan on a mesh, Hamming on a hypercube) and the mean number of
	// pieces (both NaN on a flat machine, which has no topology); under a communication model
	// (replay --comm), the mean communication time per job, the mean
	// latency and blocking time per packet, and the mean hop-flits per job
	// (hops × P_len, the hop-bytes of a packet of P_len flits), NaN when
	// off.
	Dispersion  float64 `parquet:"dispersion" schema:"optional" null:"NaN"`
	Pieces      float64 `parquet:"pieces" schema:"optional" null:"NaN"`
	CommTime    float64 `parquet:"comm_time" schema:"optional" null:"NaN" unit:"time"`
	PktLatency  float64 `parquet:"pkt_latency" schema:"optional" null:"NaN" unit:"time"`
	PktBlocking float64 `parquet:"pkt_blocking" schema:"optional" null:"NaN" unit:"time"`
	HopFlits    float64 `parquet:"hop_flits" schema:"optional" null:"NaN"`
	// Placement locality (model/metrics.Locality; policy.Family.Locality),
	// over the counted jobs: the mean of the largest hop distance between
	// two of a job's processors (jobs of two or more), of the switches,
	// groups or planes it touches, and of the hop-bytes of an all-to-all
	// exchange of one byte between its processors; NaN on a machine whose
	// family measures no locality (flat). The mean pairwise hop distance
	// is the dispersion column.
	MaxHops  float64 `parquet:"max_hops" schema:"optional" null:"NaN"`
	Span     float64 `parquet:"span" schema:"optional" null:"NaN"`
	HopBytes float64 `parquet:"hop_bytes" schema:"optional" null:"NaN"`
	// Comm names the run's communication model in its canonical form
	// (model/network.Spec.String: "off", "wormhole:ts=3,plen=8,msgs=5"):
	// a sweep's cell dimension, like machine, alloc and sched. Empty in
	// files written before the column existed.
	Comm string `parquet:"comm,dict" schema:"optional"`
}

// SetPercentiles sets the percentile columns from the p50, p90, p95 and
// p99 of wait, response and bounded slowdown (metrics.JobStats).
func (s *Summary) SetPercentiles(wait, response, bsld [4]float64) {
	s.P50Wait, s.P90Wait, s.P95Wait, s.P99Wait = wait[0], wait[1], wait[2], wait[3]
	s.P50Response, s.P90Response, s.P95Response, s.P99Response = response[0], response[1], response[2], response[3]
	s.P50BSLD, s.P90BSLD, s.P95BSLD, s.P99BSLD = bsld[0], bsld[1], bsld[2], bsld[3]
}

// SizeClass is one element of a summary's size_classes: the counted jobs
// requesting lo..hi processors, their mean response and its SD (n − 1
// divisor; NaN below two jobs, the mean NaN with none).
type SizeClass struct {
	Lo           int64   `parquet:"lo"`
	Hi           int64   `parquet:"hi"`
	Jobs         int64   `parquet:"jobs"`
	MeanResponse float64 `parquet:"mean_response" unit:"time"`
	SDResponse   float64 `parquet:"sd_response" unit:"time"`
}

// Series is one row of series.parquet: the state after all events at one
// instant of one (trace, pair).
type Series struct {
	Trace   string  `parquet:"trace,dict"`
	Machine string  `parquet:"machine,dict"`
	Alloc   string  `parquet:"alloc,dict"`
	Sched   string  `parquet:"sched,dict"`
	Rep     int64   `parquet:"rep"`
	Time    float64 `parquet:"time" unit:"time"`
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
	Optional bool // readers accept files without it
	// Null, when set, makes the column nullable: the files hold NULL
	// where the value does not apply, and readers give the value in
	// memory the Go code uses for it (NullValue). "NaN", "-1" or "0": NULL
	// for that value; "when:C": NULL on the rows where column C is NULL
	// (NaN, or 0 for an integer, in memory).
	Null string
	// Unit is the column's unit: "time" (the traces' time unit: seconds
	// for real logs, the model's time unit for synthetic traces; see
	// TimeUnit), "1/time", or "" for a count, a ratio or a label.
	Unit   string
	Elem   []Column // List: the fields of an element, in order
	field  int
	goName string // the Go field's name
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
		c := Column{Name: name, Optional: f.Tag.Get("schema") == "optional", Null: f.Tag.Get("null"), Unit: f.Tag.Get("unit"), field: i, goName: f.Name}
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

// NullValue is the value in memory of a NULL in column c (see Null).
func (c *Column) NullValue() float64 {
	switch c.Null {
	case "-1":
		return -1
	case "0":
		return 0
	}
	if c.Kind == Int {
		return 0
	}
	return math.NaN()
}

// isNull reports whether v, the column's value in memory, is written as
// NULL (the "when:" columns are decided by their row).
func (c *Column) isNull(v float64) bool {
	switch c.Null {
	case "NaN":
		return math.IsNaN(v)
	case "-1":
		return v == -1
	case "0":
		return v == 0
	}
	return false
}

// Time units (Column.Unit "time"): seconds for real logs, the model's
// abstract unit for synthetic traces.
const (
	Seconds   = "s"
	TimeUnits = "time units"
)

// TimeUnit is the time unit of results on traces: Seconds when every
// trace is a real log (TraceInfo.Real), TimeUnits otherwise (a synthetic
// trace, or none known).
func TimeUnit(traces []TraceInfo) string {
	if len(traces) == 0 {
		return TimeUnits
	}
	for i := range traces {
		if !traces[i].Real() {
			return TimeUnits
		}
	}
	return Seconds
}

// Units returns the units of row's columns that have one, by column name
// (a list's element columns as "list.element", e.g.
// "size_classes.mean_response"), with "time" made timeUnit: the JSON of
// the KeyUnits metadata.
func Units(row any, timeUnit string) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, cs []Column)
	walk = func(prefix string, cs []Column) {
		for _, c := range cs {
			if c.Kind == List {
				walk(prefix+c.Name+".", c.Elem)
				continue
			}
			switch c.Unit {
			case "":
			case "time":
				out[prefix+c.Name] = timeUnit
			case "1/time":
				if timeUnit == Seconds {
					out[prefix+c.Name] = "1/s"
				} else {
					out[prefix+c.Name] = "per time unit"
				}
			default:
				out[prefix+c.Name] = c.Unit
			}
		}
	}
	walk("", Columns(row))
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
	Events   string   `json:"events,omitempty"`  // "sequential" event semantics (replay --events; omitted: instant)
	Stretch  string   `json:"stretch,omitempty"` // the run-time stretch model (replay --stretch; omitted: off)
	// WarmupFinished is the fraction of the completed jobs left out by
	// finish time (replay --warmup-finished; omitted: 0).
	WarmupFinished float64 `json:"warmup_finished,omitempty"`
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
	// MachineFrom says where the machine came from: "header" (MaxProcs),
	// "inferred" (a log without a size: its largest job), "given"
	// (--machine); omitted when unrecorded (a generator's machine).
	MachineFrom string `json:"machine_from,omitempty"`
	// SHA256 is the hex SHA-256 of Source's bytes as stored; omitted for a
	// generated trace.
	SHA256 string `json:"sha256,omitempty"`
	// Input and InputSHA256 name the file replayed and its SHA-256 when it
	// is not Source (a Parquet trace converted from it).
	Input       string `json:"input,omitempty"`
	InputSHA256 string `json:"input_sha256,omitempty"`
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
