package trace

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/parquet-go/parquet-go"
)

// prioTrace has jobs with a priority and a deadline, and one without.
func prioTrace() *Trace {
	tr := &Trace{Name: "p", Machine: "cube:4", Header: Header{{Key: "MaxProcs", Value: "16"}}}
	for i := int64(1); i <= 4; i++ {
		j := NewJob(i)
		j.Submit, j.Run, j.ReqProcs, j.AllocProcs = float64(i), 10, 4, 4
		j.Priority, j.Deadline = i%3, float64(i)+12.5
		tr.Jobs = append(tr.Jobs, j)
	}
	tr.Jobs[3].Priority, tr.Jobs[3].Deadline = Unknown, Unknown
	return tr
}

// The priority and deadline columns survive Parquet and Arrow round trips;
// SWF has no place for them and reads them back as -1.
func TestPriorityDeadlineRoundTrip(t *testing.T) {
	tr := prioTrace()
	dir := t.TempDir()
	p := filepath.Join(dir, "p.parquet")
	if err := WriteFile(p, tr); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(p, ReadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range tr.Jobs {
		if back.Jobs[i] != tr.Jobs[i] {
			t.Fatalf("parquet job %d: %+v, want %+v", i, back.Jobs[i], tr.Jobs[i])
		}
	}
	if back.Jobs[2].Priority != 0 || back.Jobs[1].Deadline != 14.5 || back.Jobs[3].Priority != Unknown {
		t.Fatalf("priorities/deadlines %+v", back.Jobs)
	}

	rec := ToRecord(tr, memory.DefaultAllocator)
	defer rec.Release()
	jobs, err := FromRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tr.Jobs {
		if jobs[i] != tr.Jobs[i] {
			t.Fatalf("arrow job %d: %+v, want %+v", i, jobs[i], tr.Jobs[i])
		}
	}

	s := filepath.Join(dir, "p.swf")
	if err := WriteFile(s, tr); err != nil {
		t.Fatal(err)
	}
	sw, err := ReadFile(s, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range sw.Jobs {
		if j.Priority != Unknown || j.Deadline != Unknown || j.Run != 10 || j.ID != int64(i+1) {
			t.Fatalf("swf job %d: %+v", i, j)
		}
	}
}

// oldJob is a trace row written before the priority and deadline columns
// existed.
type oldJob struct {
	ID             int64   `parquet:"job_id"`
	Submit         float64 `parquet:"submit_time"`
	Run            float64 `parquet:"run_time"`
	ReqProcs       int64   `parquet:"req_procs"`
	MaxParallelism int64   `parquet:"max_parallelism"`
}

// A file without the priority and deadline columns (every trace written
// before them) reads them as -1.
func TestPriorityDeadlineMissingColumns(t *testing.T) {
	var b bytes.Buffer
	w := parquet.NewGenericWriter[oldJob](&b)
	if _, err := w.Write([]oldJob{{1, 0, 5, 2, -1}, {2, 1, 6, 4, -1}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tr, err := readBytes(b.Bytes(), "old.parquet")
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range tr.Jobs {
		if j.Priority != Unknown || j.Deadline != Unknown || j.Run < 5 {
			t.Fatalf("job %+v", j)
		}
	}
}

// A negative priority other than -1, a negative deadline other than -1 and
// a non-finite deadline are refused, naming the file, the row and the
// column.
func TestPriorityDeadlineErrors(t *testing.T) {
	for _, c := range []struct {
		set  func(*Job)
		want string
	}{
		{func(j *Job) { j.Priority = -2 }, "bad.parquet: row 2: priority: -2 is negative (want a class ≥ 0, or -1 when unknown)"},
		{func(j *Job) { j.Deadline = -0.5 }, "bad.parquet: row 2: deadline: -0.5 is negative (want a time ≥ 0, or -1 when unknown)"},
		{func(j *Job) { j.Deadline = math.Inf(1) }, "bad.parquet: row 2: deadline: +Inf is not a finite number"},
		{func(j *Job) { j.Deadline = math.NaN() }, "bad.parquet: row 2: deadline: NaN is not a finite number"},
	} {
		tr := prioTrace()
		c.set(&tr.Jobs[1])
		_, err := readBytes(parquetBytes(t, tr), "bad.parquet")
		if err == nil || err.Error() != c.want {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	// Through WriteFile and ReadFile too.
	tr := prioTrace()
	tr.Jobs[0].Priority = -7
	p := filepath.Join(t.TempDir(), "b.parquet")
	if err := WriteFile(p, tr); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(p, ReadOptions{}); err == nil || !strings.Contains(err.Error(), "row 1: priority: -7") {
		t.Errorf("ReadFile error %v", err)
	}
}
