package trace

import (
	"fmt"
	"math"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// column describes one trace column: its name, whether it holds integers,
// and how to read and write it on a Job.
type column struct {
	name string
	int  bool
	getF func(*Job) float64
	getI func(*Job) int64
	setF func(*Job, float64)
	setI func(*Job, int64)
}

func fcol(name string, p func(*Job) *float64) column {
	return column{name: name, getF: func(j *Job) float64 { return *p(j) }, setF: func(j *Job, v float64) { *p(j) = v }}
}

func icol(name string, p func(*Job) *int64) column {
	return column{name: name, int: true, getI: func(j *Job) int64 { return *p(j) }, setI: func(j *Job, v int64) { *p(j) = v }}
}

// columns lists every trace column in the public order.
var columns = []column{
	icol("job_id", func(j *Job) *int64 { return &j.ID }),
	fcol("submit_time", func(j *Job) *float64 { return &j.Submit }),
	fcol("wait_time", func(j *Job) *float64 { return &j.Wait }),
	fcol("run_time", func(j *Job) *float64 { return &j.Run }),
	icol("alloc_procs", func(j *Job) *int64 { return &j.AllocProcs }),
	fcol("avg_cpu_time", func(j *Job) *float64 { return &j.AvgCPU }),
	fcol("used_memory", func(j *Job) *float64 { return &j.UsedMem }),
	icol("req_procs", func(j *Job) *int64 { return &j.ReqProcs }),
	fcol("req_time", func(j *Job) *float64 { return &j.ReqTime }),
	fcol("req_memory", func(j *Job) *float64 { return &j.ReqMem }),
	icol("status", func(j *Job) *int64 { return &j.Status }),
	icol("user_id", func(j *Job) *int64 { return &j.User }),
	icol("group_id", func(j *Job) *int64 { return &j.Group }),
	icol("executable", func(j *Job) *int64 { return &j.Executable }),
	icol("queue", func(j *Job) *int64 { return &j.Queue }),
	icol("partition", func(j *Job) *int64 { return &j.Partition }),
	icol("preceding_job", func(j *Job) *int64 { return &j.Preceding }),
	fcol("think_time", func(j *Job) *float64 { return &j.ThinkTime }),
	icol("req_width", func(j *Job) *int64 { return &j.ReqWidth }),
	icol("req_height", func(j *Job) *int64 { return &j.ReqHeight }),
	fcol("work", func(j *Job) *float64 { return &j.Work }),
	fcol("efficiency", func(j *Job) *float64 { return &j.Efficiency }),
	icol("max_parallelism", func(j *Job) *int64 { return &j.MaxParallelism }),
	icol("priority", func(j *Job) *int64 { return &j.Priority }),
	fcol("deadline", func(j *Job) *float64 { return &j.Deadline }),
}

// ArrowSchema is the Arrow schema of a trace table: the Parquet columns,
// int64 for counts and identifiers, float64 for times and quantities.
func ArrowSchema(md *arrow.Metadata) *arrow.Schema {
	fields := make([]arrow.Field, len(columns))
	for i, c := range columns {
		t := arrow.DataType(arrow.PrimitiveTypes.Float64)
		if c.int {
			t = arrow.PrimitiveTypes.Int64
		}
		fields[i] = arrow.Field{Name: c.name, Type: t}
	}
	return arrow.NewSchema(fields, md)
}

// ToRecord builds an Arrow record holding t's jobs, one row per job, with
// the trace's metadata (the same keys as the Parquet file) on the schema.
// The caller must Release the record.
func ToRecord(t *Trace, mem memory.Allocator) arrow.Record {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	kv := t.metadata()
	keys, vals := make([]string, len(kv)), make([]string, len(kv))
	for i, p := range kv {
		keys[i], vals[i] = p[0], p[1]
	}
	md := arrow.NewMetadata(keys, vals)
	b := array.NewRecordBuilder(mem, ArrowSchema(&md))
	defer b.Release()
	for ci, c := range columns {
		if c.int {
			fb := b.Field(ci).(*array.Int64Builder)
			fb.Reserve(len(t.Jobs))
			for i := range t.Jobs {
				fb.UnsafeAppend(c.getI(&t.Jobs[i]))
			}
		} else {
			fb := b.Field(ci).(*array.Float64Builder)
			fb.Reserve(len(t.Jobs))
			for i := range t.Jobs {
				fb.UnsafeAppend(c.getF(&t.Jobs[i]))
			}
		}
	}
	return b.NewRecord()
}

// FromRecord reads jobs back from an Arrow record. Columns are found by
// name; a missing column reads as Unknown, a null value as Unknown, and a
// column of the wrong type is an error.
func FromRecord(rec arrow.Record) ([]Job, error) {
	n := int(rec.NumRows())
	jobs := make([]Job, n)
	for i := range jobs {
		jobs[i] = NewJob(Unknown)
	}
	schema := rec.Schema()
	for _, c := range columns {
		idx := schema.FieldIndices(c.name)
		if len(idx) == 0 {
			continue
		}
		col := rec.Column(idx[0])
		switch a := col.(type) {
		case *array.Int64:
			for i := 0; i < n; i++ {
				v := int64(Unknown)
				if a.IsValid(i) {
					v = a.Value(i)
				}
				if c.int {
					c.setI(&jobs[i], v)
				} else {
					c.setF(&jobs[i], float64(v))
				}
			}
		case *array.Float64:
			for i := 0; i < n; i++ {
				v := float64(Unknown)
				if a.IsValid(i) {
					v = a.Value(i)
				}
				if c.int {
					if !isWhole(v) {
						return nil, fmt.Errorf("column %s row %d: %v is not an integer", c.name, i+1, v)
					}
					if math.Abs(v) > MaxInt {
						return nil, fmt.Errorf("column %s row %d: %v is out of range (integer columns stored as doubles hold at most ±2^53)", c.name, i+1, v)
					}
					c.setI(&jobs[i], int64(v))
				} else {
					c.setF(&jobs[i], v)
				}
			}
		default:
			return nil, fmt.Errorf("column %s: type %s, want int64 or float64", c.name, col.DataType())
		}
	}
	return jobs, nil
}
