package experiment

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

// tiny is a hand-worked trace on flat:4 (header MaxProcs 4).
//
//	J1 submit 0, run 10, 4 procs        → FCFS: 0..10
//	J2 submit 5, run 5, 2 procs         → 10..15 (waits 5)
//	J3 submit 5, run 0, 1 proc          → 10..10 (waits 5)
//	J4 submit 6, no processor count     → rejected
//	J5 submit 7, status 2 (partial)     → filtered, not replayed
//
// wait 0, 5, 5 (mean 10/3); response 10, 10, 5 (mean 25/3, sample SD
// √(50/6)); slowdown 1, 2, max(1, 5) = 5 (mean 8/3); bounded slowdown
// (τ = 10) 1, 1, 1. Makespan 15; busy area 4×10 + 2×5 = 50, utilization
// 50/60; queue 2 on [5,10): mean queue 10/15, max 2; throughput 3/15;
// power 0.2 / (10/3) = 0.06.
func tiny() *trace.Trace {
	t := &trace.Trace{Name: "tiny", Header: trace.Header{{Key: "MaxProcs", Value: "4"}}}
	t.Provenance.Load = -1
	add := func(id int64, submit, run float64, procs, status int64) {
		j := trace.NewJob(id)
		j.Submit, j.Run, j.ReqProcs, j.Status = submit, run, procs, status
		t.Jobs = append(t.Jobs, j)
	}
	add(1, 0, 10, 4, 1)
	add(2, 5, 5, 2, 1)
	add(3, 5, 0, 1, 1)
	add(4, 6, 3, -1, 1)
	add(5, 7, 4, 2, 2)
	return t
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestSummaryHandWorked(t *testing.T) {
	rows, err := Run([]*trace.Trace{tiny()}, Options{Allocs: []string{"count"}, Scheds: []string{"fcfs"}, Check: true, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	if r.Trace != "tiny" || r.Machine != "flat:4" || r.Alloc != "count" || r.Sched != "fcfs" || r.Procs != 4 {
		t.Errorf("labels %+v", r)
	}
	if r.Jobs != 3 || r.Rejected != 1 || r.Filtered != 1 || r.MaxQueue != 2 || r.Load != -1 || r.BSLDTau != 10 {
		t.Errorf("counts %+v", r)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"mean_wait", r.MeanWait, 10.0 / 3},
		{"mean_response", r.MeanResponse, 25.0 / 3},
		{"sd_response", r.SDResponse, math.Sqrt(50.0 / 6)},
		{"mean_slowdown", r.MeanSlowdown, 8.0 / 3},
		{"mean_bsld", r.MeanBSLD, 1},
		{"makespan", r.Makespan, 15},
		{"utilization", r.Utilization, 50.0 / 60},
		{"mean_queue", r.MeanQueue, 10.0 / 15},
		{"throughput", r.Throughput, 0.2},
		{"power", r.Power, 0.06},
		{"max_wait", r.MaxWait, 5},
		{"mean_run", r.MeanRun, 5},
		// waits 0 5 5, responses 5 10 10 (type 7: h = 2p/100)
		{"p50_wait", r.P50Wait, 5},
		{"p50_response", r.P50Response, 10},
		{"p90_bsld", r.P90BSLD, 1},
	} {
		if !near(c.got, c.want) {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	// Warm-up 1 drops J1 from the statistics: waits 5, 5.
	rows, err = Run([]*trace.Trace{tiny()}, Options{Allocs: []string{"count"}, Scheds: []string{"fcfs"}, Warmup: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r := rows[0]; r.Jobs != 2 || r.Filtered != 2 || r.MeanWait != 5 {
		t.Errorf("warmup 1: jobs %d filtered %d mean wait %g, want 2 2 5", r.Jobs, r.Filtered, r.MeanWait)
	}
	// pyss's warm-up by finish time: ⌊0.34·3⌋ = 1 job, J1 (ends at 10
	// with J3, but arrived first): waits 5, 5 again.
	rows, err = Run([]*trace.Trace{tiny()}, Options{Allocs: []string{"count"}, Scheds: []string{"fcfs"}, WarmupFinished: 0.34})
	if err != nil {
		t.Fatal(err)
	}
	if r := rows[0]; r.Jobs != 2 || r.Filtered != 2 || r.MeanWait != 5 {
		t.Errorf("warmup-finished 0.34: jobs %d filtered %d mean wait %g, want 2 2 5", r.Jobs, r.Filtered, r.MeanWait)
	}
	// Until last arrival, with the partial J5 replayed: the last arrival is
	// 7 and every job ends after it (J1, J3 at 10, J5 at 14, J2 at 15), so
	// nothing is counted: the per-job statistics are undefined (NaN), not 0;
	// utilization still covers every replayed job (busy area 40+10+8 = 58)
	// (a mean bounded slowdown of 0 is impossible).
	rows, err = Run([]*trace.Trace{tiny()}, Options{Allocs: []string{"count"}, Scheds: []string{"fcfs"}, UntilLastArrival: true, KeepPartial: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := rows[0]; r.Jobs != 0 || r.Filtered != 4 || !math.IsNaN(r.Power) || !math.IsNaN(r.MeanBSLD) || !math.IsNaN(r.MeanWait) || r.Throughput != 0 || !near(r.Utilization, 58.0/60) {
		t.Errorf("until-last-arrival: %+v", r)
	}
	// A zero mean wait over counted jobs gives power +Inf (Mohapatra, Yu &
	// Das 1995 §4.2); the SD of one response is undefined (NaN).
	one := tiny()
	one.Jobs = one.Jobs[:1]
	rows, err = Run([]*trace.Trace{one}, Options{Allocs: []string{"count"}, Scheds: []string{"fcfs"}})
	if err != nil {
		t.Fatal(err)
	}
	if r := rows[0]; r.Jobs != 1 || r.MeanWait != 0 || r.Power != math.Inf(1) || !math.IsNaN(r.SDResponse) || r.Throughput != 0.1 {
		t.Errorf("single job: %+v", r)
	}
}

// synthetic returns a random trace of n jobs for flat:32, with a few holes.
func synthetic(name string, n int, seed uint64) *trace.Trace {
	r := rand.New(rand.NewPCG(seed, 5))
	t := &trace.Trace{Name: name, Machine: "flat:32"}
	t.Provenance.Load = 0.8
	s := 0.0
	for i := 0; i < n; i++ {
		j := trace.NewJob(int64(i + 1))
		s += math.Round(r.ExpFloat64() * 30)
		j.Submit = s
		j.Run = math.Round(r.ExpFloat64() * 300)
		j.ReqProcs = int64(1 + r.IntN(32))
		j.ReqTime = math.Round(j.Run * (0.5 + 2*r.Float64()))
		j.User = int64(r.IntN(10))
		j.Status = 1
		switch i % 97 {
		case 13:
			j.ReqProcs = -1 // rejected
		case 42:
			j.Status = 3 // partial
		}
		t.Jobs = append(t.Jobs, j)
	}
	return t
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	// Small batches and row groups: runs span several of each.
	defer func(b, g int) { batchRows, rowGroupRows = b, g }(batchRows, rowGroupRows)
	batchRows, rowGroupRows = 256, 3000
	traces := []*trace.Trace{synthetic("b", 600, 1), synthetic("a", 400, 2)}
	dirs := []string{t.TempDir(), t.TempDir()}
	var tables []string
	for i, w := range []int{1, 4} {
		rows, err := Run(traces, Options{Workers: w, Out: dirs[i], Check: true, Placement: true, Allocs: []string{AllAllocs}})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := FormatSummary(&b, rows, nil, TableFull); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, b.String())
	}
	if tables[0] != tables[1] {
		t.Errorf("summary tables differ")
	}
	for _, f := range []string{schema.JobsFile, schema.SummaryFile, schema.SeriesFile} {
		a, err1 := os.ReadFile(filepath.Join(dirs[0], f))
		b, err2 := os.ReadFile(filepath.Join(dirs[1], f))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between -j 1 and -j 4", f)
		}
	}
	// Rows come sorted by (trace, alloc, sched, rep, job_id).
	f, err := os.Open(filepath.Join(dirs[0], schema.JobsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := parquet.NewGenericReader[schema.Job](f)
	jobs := make([]schema.Job, rd.NumRows())
	if n, err := rd.Read(jobs); n != len(jobs) {
		t.Fatalf("read %d of %d rows: %v", n, len(jobs), err)
	}
	key := func(r schema.Job) string { return r.Trace + "\x00" + r.Alloc + "\x00" + r.Sched }
	for i := 1; i < len(jobs); i++ {
		a, b := jobs[i-1], jobs[i]
		if key(a) > key(b) || key(a) == key(b) && a.JobID >= b.JobID {
			t.Fatalf("rows %d, %d out of order: %+v %+v", i-1, i, a, b)
		}
	}
	// 2 traces × 24 pairs (--alloc all); per trace, accepted non-partial jobs.
	want := 24 * ((600 - 7 - 6) + (400 - 4 - 4))
	if len(jobs) != want {
		t.Errorf("%d job rows, want %d", len(jobs), want)
	}
	if jobs[0].Trace != "a" || jobs[0].Alloc != "contig" || jobs[0].Sched != "conservative" {
		t.Errorf("first row %+v", jobs[0])
	}
	for _, r := range jobs {
		var held int64
		for _, p := range r.Placement {
			held += int64(p.W) * int64(p.H)
		}
		if held != r.ReqProcs || r.Wait < 0 || r.AllocProcs != float64(r.ReqProcs) || r.Load != 0.8 {
			t.Fatalf("bad row %+v", r)
		}
	}
}

func TestNothingWrittenOnError(t *testing.T) {
	dir := t.TempDir()
	if _, err := Run([]*trace.Trace{tiny()}, Options{Out: dir, Scheds: []string{"nope"}}); err == nil || !strings.Contains(err.Error(), `unknown scheduler "nope"`) {
		t.Errorf("err %v", err)
	}
	// An output path that cannot be a directory.
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run([]*trace.Trace{tiny()}, Options{Out: file}); err == nil {
		t.Errorf("no error writing into a file")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
	// No machine at all: no header size and no job with a processor count.
	tr := tiny()
	tr.Header = nil
	for i := range tr.Jobs {
		tr.Jobs[i].ReqProcs, tr.Jobs[i].AllocProcs = -1, -1
	}
	if _, err := Run([]*trace.Trace{tr}, Options{}); err == nil || !strings.Contains(err.Error(), "no machine") {
		t.Errorf("err %v", err)
	}
}

func TestFormatSummary(t *testing.T) {
	rows, err := Run([]*trace.Trace{tiny()}, Options{Allocs: []string{"count", "contig"}, Scheds: []string{"fcfs", "easy"}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := FormatSummary(&b, rows, nil, TableFull); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) != 5 || !strings.Contains(lines[0], "mean_bsld") || !strings.Contains(lines[1], "contig") {
		t.Fatalf("table:\n%s", b.String())
	}
	for _, l := range lines[1:] {
		if len(l) != len(lines[0]) {
			t.Errorf("unaligned line %q", l)
		}
	}
}

// TestDefaultFlatAllocator checks the allocator default: count alone on a
// flat machine, every compatible allocator with "all" or on other
// machines, and the ones named as given.
func TestDefaultFlatAllocator(t *testing.T) {
	flat, _ := policy.ParseMachine("flat:32")
	mesh, _ := policy.ParseMachine("mesh:4x4")
	for _, c := range []struct {
		m    policy.Machine
		in   []string
		want []string
	}{
		{flat, nil, []string{"count"}},
		{flat, []string{AllAllocs}, nil},
		{flat, []string{"contig"}, []string{"contig"}},
		{mesh, nil, nil},
		{mesh, []string{AllAllocs}, nil},
	} {
		if got := AllocsFor(c.m, c.in); !slices.Equal(got, c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("AllocsFor(%s, %q) = %q, want %q", c.m, c.in, got, c.want)
		}
	}
	tr := []*trace.Trace{synthetic("a", 200, 3)}
	for _, c := range []struct {
		allocs []string
		pairs  int
	}{{nil, 12}, {[]string{AllAllocs}, 24}} {
		rows, err := Run(tr, Options{Workers: 1, Allocs: c.allocs, NoSeries: true, NoJobs: true, Out: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != c.pairs {
			t.Errorf("--alloc %q: %d runs, want %d", c.allocs, len(rows), c.pairs)
		}
	}
	if err := Validate(&Options{Allocs: []string{"all", "count"}}); err == nil {
		t.Error("all among other allocators accepted")
	}
}
