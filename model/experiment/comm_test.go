package experiment

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/model/network"
	"github.com/schedlab/schedlab/trace"
)

// pair is one 2×1 job (run 5) on an empty 4×4 mesh: FF places it on
// (0,0)–(1,0), so its two processors are 1 hop apart. With t_s = 3 and
// P_len = 8 a packet's zero-load latency is D·(t_s+1) + P_len − 1 = 11
// (network.ZeroLoad). The two packets of an all-to-all round go in
// opposite directions on different links and ejection channels, so the
// wormhole model has no contention here and agrees with the analytic one.
func pair() *trace.Trace {
	t := &trace.Trace{Name: "pair", Machine: "mesh:4x4"}
	t.Provenance.Load = -1
	j := trace.NewJob(1)
	j.Submit, j.Run, j.ReqWidth, j.ReqHeight, j.ReqProcs, j.Status = 0, 5, 2, 1, 2, 1
	t.Jobs = append(t.Jobs, j)
	return t
}

func TestCommSummaryHandWorked(t *testing.T) {
	if got := network.ZeroLoad(1, network.Params{Ts: 3, Plen: 8}); got != 11 {
		t.Fatalf("ZeroLoad(1) = %g, want 11", got)
	}
	// msgs=5, unit=msg: R packets per processor, R drawn for trace index 0.
	r5 := float64(network.Rounds(0, 0, 5))
	for _, c := range []struct {
		comm                 string
		commTime, packets    float64 // comm_time; packets per job (for hop_flits = packets·1 hop·P_len)
		response, pktLatency float64
	}{
		{"analytic:ts=3,plen=8,msgs=1", 11, 2, 16, 11},
		{"wormhole:ts=3,plen=8,msgs=1", 11, 2, 16, 11},
		{"analytic:ts=3,plen=8,msgs=5,unit=msg", 11 * r5, 2 * r5, 11*r5 + 5, 11},
		{"wormhole:ts=3,plen=8,msgs=5,unit=msg", 11 * r5, 2 * r5, 11*r5 + 5, 11},
		// One round of msgs=1 with P_len 16: 1·4 + 15 = 19.
		{"wormhole:ts=3,plen=16,msgs=1", 19, 2, 24, 19},
	} {
		rows, err := Run([]*trace.Trace{pair()}, Options{Allocs: []string{"ff"}, Scheds: []string{"fcfs"}, Comm: c.comm, Check: true, Workers: 1})
		if err != nil {
			t.Fatalf("%s: %v", c.comm, err)
		}
		r := rows[0]
		plen := 8.0
		if c.comm == "wormhole:ts=3,plen=16,msgs=1" {
			plen = 16
		}
		for _, m := range []struct {
			name      string
			got, want float64
		}{
			{"comm_time", r.CommTime, c.commTime},
			{"mean_response", r.MeanResponse, c.response},
			{"makespan", r.Makespan, c.response},
			{"pkt_latency", r.PktLatency, c.pktLatency},
			{"pkt_blocking", r.PktBlocking, 0},
			{"hop_flits", r.HopFlits, c.packets * plen},
			{"dispersion", r.Dispersion, 1},
			{"pieces", r.Pieces, 1},
			// The job holds both processors for its whole residence.
			{"utilization", r.Utilization, 2.0 / 16},
		} {
			if !near(m.got, m.want) {
				t.Errorf("%s: %s = %g, want %g", c.comm, m.name, m.got, m.want)
			}
		}
	}
	// Off: the residence is the run time and the communication columns
	// are NaN; the placement columns are still defined.
	rows, err := Run([]*trace.Trace{pair()}, Options{Allocs: []string{"ff"}, Scheds: []string{"fcfs"}, Comm: "off", Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r := rows[0]; r.MeanResponse != 5 || !math.IsNaN(r.CommTime) || !math.IsNaN(r.PktLatency) || !math.IsNaN(r.HopFlits) || r.Dispersion != 1 || r.Pieces != 1 {
		t.Errorf("off: %+v", r)
	}
	// A bad model is refused before anything runs.
	if _, err := Run([]*trace.Trace{pair()}, Options{Allocs: []string{"ff"}, Scheds: []string{"fcfs"}, Comm: "wormhole:plen=0"}); err == nil {
		t.Error("plen=0 accepted")
	}
}

// The placement columns: a hop distance on a hypercube (Hamming: a job of
// 3 processors gets a 2-cube, mean distance 4/3), none on a flat machine
// (NaN: node numbers are not places), whatever the output options.
func TestDispersionByMachine(t *testing.T) {
	three := func(machine string) *trace.Trace {
		t := &trace.Trace{Name: "three", Machine: machine}
		t.Provenance.Load = -1
		j := trace.NewJob(1)
		j.Submit, j.Run, j.ReqProcs, j.Status = 0, 5, 3, 1
		t.Jobs = append(t.Jobs, j)
		return t
	}
	for _, c := range []struct {
		machine, alloc string
		disp, pieces   float64
	}{
		{"cube:4", "buddy", 4.0 / 3, 1},
		{"flat:16", "contig", math.NaN(), math.NaN()},
	} {
		for _, out := range []string{"", t.TempDir()} {
			rows, err := Run([]*trace.Trace{three(c.machine)}, Options{Allocs: []string{c.alloc}, Scheds: []string{"fcfs"}, Workers: 1, Out: out, Placement: true})
			if err != nil {
				t.Fatalf("%s: %v", c.machine, err)
			}
			r := rows[0]
			same := func(a, b float64) bool { return near(a, b) || math.IsNaN(a) && math.IsNaN(b) }
			if !same(r.Dispersion, c.disp) || !same(r.Pieces, c.pieces) || r.Comm != "off" {
				t.Errorf("%s (out %q): dispersion %g pieces %g comm %q, want %g %g off", c.machine, out, r.Dispersion, r.Pieces, r.Comm, c.disp, c.pieces)
			}
		}
	}
}
