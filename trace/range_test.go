package trace

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/parquet-go/parquet-go"
)

// Integer fields hold at most ±2^53 (MaxInt) and processor counts at most
// MaxProcCount, whatever the format: a larger value is refused with its
// location, never wrapped or rounded.
func TestIntegerBounds(t *testing.T) {
	type ints struct {
		JobID          int64 `parquet:"job_id"`
		ReqProcs       int64 `parquet:"req_procs"`
		MaxParallelism int64 `parquet:"max_parallelism"`
	}
	pq := func(rows ...ints) func() error {
		return func() error {
			var b bytes.Buffer
			if err := parquet.Write(&b, rows); err != nil {
				t.Fatal(err)
			}
			_, err := readBytes(b.Bytes(), "t.parquet")
			return err
		}
	}
	swf := func(line string) func() error {
		return func() error {
			_, err := ReadSWF(strings.NewReader("; MaxProcs: 4\n"+line+"\n"), "t.swf", ReadOptions{})
			return err
		}
	}
	for _, c := range []struct {
		name string
		read func() error
		want string
	}{
		{"SWF procs past 2^31-1", swf("1 0 -1 10 1 -1 -1 3000000000 10 -1 1 1 1 1 1 -1 -1 -1"),
			"t.swf:2: field 8 (req_procs): 3000000000 is out of range (processor counts are at most 2147483647)"},
		{"SWF allocated procs", swf("1 0 -1 10 4294967296 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1"),
			"t.swf:2: field 5 (alloc_procs): 4294967296 is out of range (processor counts are at most 2147483647)"},
		{"Parquet int64 job number past 2^53", pq(ints{1, 1, -1}, ints{1 << 62, 1, -1}),
			"t.parquet: row 2: field 1 (job_id): 4611686018427387904 is out of range (integer fields hold at most ±2^53)"},
		{"Parquet most negative job number", pq(ints{math.MinInt64, 1, -1}),
			"t.parquet: row 1: field 1 (job_id): -9223372036854775808 is out of range (integer fields hold at most ±2^53)"},
		{"Parquet max_parallelism", pq(ints{1, 1, 1 << 40}),
			"t.parquet: row 1: max_parallelism: 1099511627776 is out of range (processor counts are at most 2147483647)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.read()
			if err == nil || err.Error() != c.want {
				t.Errorf("got %v\nwant %s", err, c.want)
			}
		})
	}
}

// SWF text holds integer fields exactly: a large job number is written as
// its digits (it was converted through float64, and math.MaxInt64 came out
// as -9223372036854775808).
func TestWriteSWFIntegersExact(t *testing.T) {
	for _, id := range []int64{math.MaxInt64, 1<<53 + 1, -(1<<53 + 1)} {
		j := NewJob(id)
		var b bytes.Buffer
		if err := WriteSWF(&b, &Trace{Jobs: []Job{j}}); err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Fields(b.String())[0], strconv.FormatInt(id, 10); got != want {
			t.Errorf("job %d written as %s", id, got)
		}
	}
}

// FromRecord refuses float64 values that an integer column cannot hold.
func TestFromRecordIntegerRange(t *testing.T) {
	mem := memory.NewGoAllocator()
	for _, c := range []struct {
		v    float64
		want string
	}{
		{1e300, "column req_procs row 2: 1e+300 is out of range"},
		{math.Ldexp(1, 60), "column req_procs row 2: 1.152921504606847e+18 is out of range"},
		{2.5, "column req_procs row 2: 2.5 is not an integer"},
	} {
		schema := arrow.NewSchema([]arrow.Field{{Name: "req_procs", Type: arrow.PrimitiveTypes.Float64}}, nil)
		b := array.NewRecordBuilder(mem, schema)
		b.Field(0).(*array.Float64Builder).AppendValues([]float64{4, c.v}, nil)
		rec := b.NewRecord()
		_, err := FromRecord(rec)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.v, err, c.want)
		}
		rec.Release()
		b.Release()
	}
}

// A header MaxProcs that is not a processor count is ignored with a warning
// (it was ignored silently when not an int64, and taken as the machine size
// when above 2^31-1).
func TestHeaderMaxProcsBound(t *testing.T) {
	for _, c := range []struct {
		header string
		want   int64
		warn   string
	}{
		{"; MaxProcs: 64\n", 64, ""},
		{"; MaxProcs: 3000000000\n; MaxNodes: 32\n", 32, `t.swf: header MaxProcs "3000000000" is not a processor count (an integer up to 2147483647); ignored`},
		{"; MaxProcs: 99999999999999999999\n", Unknown, `t.swf: header MaxProcs "99999999999999999999" is not a processor count (an integer up to 2147483647); ignored`},
		{"; MaxProcs: 1e3\n", Unknown, `t.swf: header MaxProcs "1e3" is not a processor count (an integer up to 2147483647); ignored`},
	} {
		tr, err := ReadSWF(strings.NewReader(c.header+"1 0 -1 10 1 -1 -1 16 10 -1 1 1 1 1 1 -1 -1 -1\n"), "t.swf", ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var warn string
		if len(tr.Warnings) > 0 {
			warn = tr.Warnings[0]
		}
		if tr.MaxProcs() != c.want || warn != c.warn {
			t.Errorf("%q: MaxProcs %d, warnings %q; want %d, %q", c.header, tr.MaxProcs(), tr.Warnings, c.want, c.warn)
		}
	}
}
