package network

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"runtime"
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/engine"
)

// runDigest replays a gabl06-like workload (16×16, sides uniform 1..16,
// exponential service mean 1, FCFS) of n jobs at mean inter-arrival time
// iat under allocator alloc and the wormhole model with unit and msgs,
// and returns a SHA-256 of every job's start and end (their bits) and
// communication statistics, in job order.
func runDigest(t testing.TB, alloc, unit string, msgs float64, n int, iat float64) string {
	m, tr, aspec, sspec := gabl06Setup(t, alloc, n, iat, 5)
	a, _ := aspec.New(m, nil)
	s, _ := sspec.New(m, nil)
	p := Defaults
	p.Unit, p.Msgs = unit, msgs
	mdl := NewWormhole(16, 16, p)
	jobs, _ := admit.Jobs(tr, m, admit.EstimatesRequested)
	res, err := engine.Run(jobs, m, a, s, engine.Options{Progress: mdl, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	put := func(x float64) { binary.Write(h, binary.LittleEndian, math.Float64bits(x)) }
	for k := range res.Jobs {
		j := &res.Jobs[k]
		st := mdl.Stats(int(j.Record))
		put(j.Start)
		put(j.End)
		put(st.Comm)
		put(st.Latency)
		put(st.Blocked)
		binary.Write(h, binary.LittleEndian, [3]int64{int64(st.Rounds), st.Packets, st.Hops})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// The wormhole model's results are fixed, bit for bit: every job's start,
// end and communication on three workloads (messages per processor near
// saturation under GABL and Paging(0), and all-to-all rounds), as the
// model gave them before its event queue and routing were made faster.
// A change of these digests is a change of the model's results.
func TestWormholeResultsFixed(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		// Go fuses multiply-adds on arm64, ppc64 and s390x: their last
		// bits may differ.
		t.Skip("digests recorded on amd64")
	}
	for _, c := range []struct {
		alloc, unit string
		msgs        float64
		n           int
		iat         float64
		want        string
	}{
		{"gabl", UnitMsg, 5, 300, 60, "7f25f6e01c04ed70"},
		{"paging", UnitMsg, 5, 300, 100, "d508e2ee97e705c2"},
		{"mbs", UnitRound, 2, 40, 300, "46411c337bdac9ec"},
	} {
		if got := runDigest(t, c.alloc, c.unit, c.msgs, c.n, c.iat); got != c.want {
			t.Errorf("%s unit=%s msgs=%g, %d jobs at IAT %g: digest %s, want %s", c.alloc, c.unit, c.msgs, c.n, c.iat, got, c.want)
		}
	}
}
