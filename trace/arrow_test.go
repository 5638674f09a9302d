package trace

import (
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
)

func TestArrowRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tr := &Trace{Name: "a", Header: Header{{"MaxProcs", "64"}}}
	for i := int64(1); i <= 100; i++ {
		j := NewJob(i)
		j.Submit, j.Run, j.ReqProcs, j.ReqTime, j.Status, j.User = float64(i*3), float64(i)+0.25, i%64+1, 500, 1, i%7
		tr.Jobs = append(tr.Jobs, j)
	}
	rec := ToRecord(tr, mem)
	defer rec.Release()
	if rec.NumRows() != 100 || int(rec.NumCols()) != NumFields+len(ExtraFieldNames) {
		t.Fatalf("record %d×%d", rec.NumRows(), rec.NumCols())
	}
	for i, name := range append(FieldNames[:], ExtraFieldNames...) {
		if got := rec.ColumnName(i); got != name {
			t.Fatalf("column %d is %q, want %q", i, got, name)
		}
	}
	if v, ok := rec.Schema().Metadata().GetValue("swf.MaxProcs"); !ok || v != "64" {
		t.Fatalf("metadata swf.MaxProcs = %q", v)
	}
	jobs, err := FromRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		if jobs[i] != tr.Jobs[i] {
			t.Fatalf("row %d: %+v, want %+v", i, jobs[i], tr.Jobs[i])
		}
	}
}
