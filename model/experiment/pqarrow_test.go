package experiment

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"

	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

// TestReadWithArrow opens the three results files with Apache Arrow's
// Parquet reader (an implementation independent of the writer's) and
// checks the column names and types of the contract.
func TestReadWithArrow(t *testing.T) {
	dir := t.TempDir()
	if _, err := Run([]*trace.Trace{tiny()}, Options{Out: dir, Allocs: []string{"count"}, Scheds: []string{"fcfs", "easy"}}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		schema.JobsFile: "trace:utf8 machine:utf8 alloc:utf8 sched:utf8 rep:int64 job_id:int64 submit_time:float64 start_time:float64 " +
			"end_time:float64 wait_time:float64 response_time:float64 slowdown:float64 bounded_slowdown:float64 req_procs:int64 " +
			"alloc_procs:float64 load:float64 run_time:float64 estimate:float64 user_id:int64 " +
			"placement:list<list: struct<x: int32, y: int32, w: int32, h: int32, mask: int32>, nullable> suspensions:int64 migrations:int64 comm:utf8 ",
		schema.SummaryFile: "trace:utf8 machine:utf8 alloc:utf8 sched:utf8 rep:int64 jobs:int64 rejected:int64 mean_response:float64 " +
			"sd_response:float64 mean_wait:float64 mean_slowdown:float64 mean_bsld:float64 utilization:float64 makespan:float64 " +
			"throughput:float64 power:float64 max_queue:int64 mean_queue:float64 load:float64 procs:int64 bsld_tau:float64 " +
			"filtered:int64 max_wait:float64 mean_run:float64 internal_frag:float64 external_frag:float64 external_frag_instants:int64 " +
			"size_classes:list<list: struct<lo: int64, hi: int64, jobs: int64, mean_response: float64, sd_response: float64>, nullable> " +
			"window_end:float64 window_generated:int64 window_completed:int64 window_allocated:int64 window_delay:float64 " +
			"window_throughput:float64 window_util:float64 window_power:float64 window_offered:float64 " +
			"deadline_jobs:int64 deadline_missed:int64 deadline_miss_rate:float64 preemptions:int64 migrations:int64 migration_time:float64 p50_wait:float64 p90_wait:float64 p95_wait:float64 p99_wait:float64 p50_response:float64 p90_response:float64 p95_response:float64 p99_response:float64 p50_bsld:float64 p90_bsld:float64 p95_bsld:float64 p99_bsld:float64 mean_active:float64 capped_share:float64 " +
			"dispersion:float64 pieces:float64 comm_time:float64 pkt_latency:float64 pkt_blocking:float64 hop_flits:float64 max_hops:float64 span:float64 hop_bytes:float64 comm:utf8 ",
		schema.SeriesFile: "trace:utf8 machine:utf8 alloc:utf8 sched:utf8 rep:int64 time:float64 busy:float64 running:int64 queue:int64 comm:utf8 ",
	}
	rowsWant := map[string]int64{schema.JobsFile: 6, schema.SummaryFile: 2, schema.SeriesFile: 8}
	for name, cols := range want {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		pr, err := file.NewParquetReader(f)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := fr.ReadTable(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := ""
		for _, fd := range tbl.Schema().Fields() {
			got += fd.Name + ":" + fd.Type.String() + " "
		}
		if got != cols {
			t.Errorf("%s columns\n got %s\nwant %s", name, got, cols)
		}
		if tbl.NumRows() != rowsWant[name] {
			t.Errorf("%s: %d rows, want %d", name, tbl.NumRows(), rowsWant[name])
		}
		if v := pr.MetaData().KeyValueMetadata().FindValue(schema.KeyVersion); v == nil || *v != "dev" {
			t.Errorf("%s: version metadata %v", name, v)
		}
		tbl.Release()
		pr.Close()
	}
}
