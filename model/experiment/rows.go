package experiment

// JobRow is one row of jobs.parquet: one accepted, replayed job of one
// (trace, pair). The column names and order are a public contract
// (results.md).
type JobRow struct {
	Trace           string  `parquet:"trace"`
	Machine         string  `parquet:"machine"`
	Alloc           string  `parquet:"alloc"`
	Sched           string  `parquet:"sched"`
	Rep             int64   `parquet:"rep"`
	JobID           int64   `parquet:"job_id"`
	SubmitTime      float64 `parquet:"submit_time"`
	StartTime       float64 `parquet:"start_time"`
	EndTime         float64 `parquet:"end_time"`
	WaitTime        float64 `parquet:"wait_time"`
	ResponseTime    float64 `parquet:"response_time"`
	Slowdown        float64 `parquet:"slowdown"`
	BoundedSlowdown float64 `parquet:"bounded_slowdown"`
	ReqProcs        int64   `parquet:"req_procs"`
	AllocProcs      int64   `parquet:"alloc_procs"`
	Load            float64 `parquet:"load"`
	RunTime         float64 `parquet:"run_time"`
	Estimate        float64 `parquet:"estimate"`
	UserID          int64   `parquet:"user_id"`
	Nodes           string  `parquet:"nodes"`
}

// SummaryRow is one row of summary.parquet: the statistics of one (trace,
// pair). Column names and order are a public contract (results.md).
type SummaryRow struct {
	Trace        string  `parquet:"trace"`
	Machine      string  `parquet:"machine"`
	Alloc        string  `parquet:"alloc"`
	Sched        string  `parquet:"sched"`
	Rep          int64   `parquet:"rep"`
	Jobs         int64   `parquet:"jobs"`          // jobs counted in the statistics
	Rejected     int64   `parquet:"rejected"`      // jobs the engine refused (engine.Jobs)
	MeanResponse float64 `parquet:"mean_response"` // mean of end − submit
	SDResponse   float64 `parquet:"sd_response"`   // sample standard deviation (n − 1)
	MeanWait     float64 `parquet:"mean_wait"`
	MeanSlowdown float64 `parquet:"mean_slowdown"`
	MeanBsld     float64 `parquet:"mean_bsld"`
	Utilization  float64 `parquet:"utilization"` // busy processor-time / (procs × makespan)
	Makespan     float64 `parquet:"makespan"`    // last completion − first arrival
	Throughput   float64 `parquet:"throughput"`  // jobs / makespan
	Power        float64 `parquet:"power"`       // throughput / mean_wait (+Inf when mean_wait is 0)
	MaxQueue     int64   `parquet:"max_queue"`
	MeanQueue    float64 `parquet:"mean_queue"` // time-averaged number of waiting jobs
	Load         float64 `parquet:"load"`       // the trace's offered load, -1 when unknown
	Procs        int64   `parquet:"procs"`      // machine size
	BsldTau      float64 `parquet:"bsld_tau"`
	Filtered     int64   `parquet:"filtered"` // jobs left out by filters (partial, warm-up, until-last-arrival)
	MaxWait      float64 `parquet:"max_wait"`
	MeanRun      float64 `parquet:"mean_run"`
}

// SeriesRow is one row of series.parquet: the state after all events at
// one instant of one (trace, pair).
type SeriesRow struct {
	Trace   string  `parquet:"trace"`
	Machine string  `parquet:"machine"`
	Alloc   string  `parquet:"alloc"`
	Sched   string  `parquet:"sched"`
	Rep     int64   `parquet:"rep"`
	Time    float64 `parquet:"time"`
	Busy    int64   `parquet:"busy"`    // processors held
	Running int64   `parquet:"running"` // jobs running
	Queue   int64   `parquet:"queue"`   // jobs waiting
}
