package schema

import (
	"bytes"
	"math"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/model/policy"
)

func TestColumnsInContractOrder(t *testing.T) {
	want := []string{"trace", "machine", "alloc", "sched", "rep", "job_id", "submit_time", "start_time", "end_time",
		"wait_time", "response_time", "slowdown", "bounded_slowdown", "req_procs", "alloc_procs", "load", "run_time",
		"estimate", "user_id", "placement", "suspensions", "migrations", "comm"}
	if got := Names(Job{}); !reflect.DeepEqual(got, want) {
		t.Errorf("job columns\n got %v\nwant %v", got, want)
	}
	for _, c := range Columns(Summary{}) {
		if c.Kind == List && (c.Name != "size_classes" || !c.Optional) || c.Kind == String && c.Optional && c.Name != "comm" {
			t.Errorf("summary column %s: kind %s optional %v", c.Name, c.Kind, c.Optional)
		}
	}
	cs := Columns(Summary{})
	var sc Column
	for _, c := range cs {
		if c.Name == "size_classes" {
			sc = c
		}
	}
	if tail := cs[len(cs)-12 : len(cs)-10]; tail[0].Name != "mean_active" || tail[1].Name != "capped_share" || !tail[0].Optional || !tail[1].Optional || tail[1].Kind != Double {
		t.Errorf("the malleable columns come before the mesh ones: %+v", tail)
	}
	if tail := cs[len(cs)-10 : len(cs)-4]; tail[0].Name != "dispersion" || tail[5].Name != "hop_flits" || !tail[5].Optional || tail[5].Kind != Double {
		t.Errorf("the mesh and communication columns come before the locality ones: %+v", tail)
	}
	if tail := cs[len(cs)-4 : len(cs)-1]; tail[0].Name != "max_hops" || tail[1].Name != "span" || tail[2].Name != "hop_bytes" || !tail[2].Optional || tail[2].Kind != Double {
		t.Errorf("the locality columns come before comm: %+v", tail)
	}
	for _, row := range []any{Summary{}, Job{}, Series{}} {
		cs := Columns(row)
		if c := cs[len(cs)-1]; c.Name != "comm" || c.Kind != String || !c.Optional {
			t.Errorf("%T: the comm column closes the file: %+v", row, c)
		}
	}
	if sc.Name != "size_classes" || len(sc.Elem) != 5 || sc.Elem[0].Name != "lo" || sc.Elem[4].Kind != Double {
		t.Errorf("size_classes column: %+v", sc)
	}
	if c := Columns(Job{})[19]; c.Kind != List || !c.Optional {
		t.Errorf("placement column: %+v", c)
	}
}

func TestSummaryMetric(t *testing.T) {
	s := Summary{Jobs: 7, MeanBSLD: 2.5, Power: math.Inf(1)}
	for _, c := range []struct {
		col  string
		want float64
		ok   bool
	}{{"jobs", 7, true}, {"mean_bsld", 2.5, true}, {"power", math.Inf(1), true}, {"trace", 0, false}, {"nope", 0, false}} {
		got, ok := s.Metric(c.col)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("Metric(%q) = %v, %v; want %v, %v", c.col, got, ok, c.want, c.ok)
		}
	}
}

// The placement column round-trips through Parquet as a LIST of structs,
// and a policy.Piece converts to a schema.Piece field for field.
func TestPlacementRoundTrip(t *testing.T) {
	p := policy.Subcube(0b1010, 0b0101)
	rows := []Job{
		{Trace: "t", JobID: 1, Placement: []Piece{Piece(policy.Range(0, 16)), Piece(policy.Range(32, 16))}},
		{Trace: "t", JobID: 2},
		{Trace: "t", JobID: 3, Placement: []Piece{Piece(p)}},
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[Job](&buf)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := parquet.Read[Job](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || len(got[0].Placement) != 2 || got[0].Placement[1].X != 32 || len(got[1].Placement) != 0 ||
		got[2].Placement[0] != (Piece{X: 0b1010, W: 4, H: 1, Mask: 0b0101}) {
		t.Errorf("round trip: %+v", got)
	}
}
