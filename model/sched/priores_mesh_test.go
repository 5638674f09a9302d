package sched

import (
	"fmt"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/mesh"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/workload"
)

// meshReserver is what the tests read of a mesh allocator's reservations.
type meshReserver interface {
	policy.Reserver
	Reservation(j *policy.Job) (mesh.Rect, bool)
}

// meshAlloc returns the named mesh allocator on m.
func meshAlloc(t testing.TB, name string, m policy.Machine) policy.Allocator {
	t.Helper()
	for _, s := range mesh.Allocators() {
		if s.Name == name {
			a, err := s.New(m, nil)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
	}
	t.Fatalf("no mesh allocator %q", name)
	return nil
}

// meshJobs builds jobs of w×h requests: submit, run, w, h.
func meshJobs(rows [][4]float64) []policy.Job {
	jobs := make([]policy.Job, len(rows))
	for i, r := range rows {
		w, h := int(r[2]), int(r[3])
		jobs[i] = policy.Job{Index: int32(i), ID: int64(i + 1), Submit: r[0], Run: r[1], Estimate: r[1],
			Procs: w * h, Width: int32(w), Height: int32(h), User: -1, Start: -1, End: -1}
	}
	return jobs
}

// On a 4×4 mesh with first fit (worked by hand).
//
//   - J1 (t=0, 4×2, run 10) goes to <0,2,3,3>. J2 (t=1, 4×4, run 5)
//     reserves the whole mesh, its only place. J3 (t=2, 2×2, run 1) would
//     fit in the free rows, which are reserved, and cannot reserve. At 10 J1
//     ends: J2 starts on its reservation (phase 1), and J3 at 15. With
//     reserve=false J3 starts at 2, J2 at 10.
//   - Phase 2: J1 (2×4, run 20) at <0,0,1,3>, J2 (2×4, run 10) at
//     <2,0,3,3>. J3 (t=1, 2×4, run 1) reserves a place with no free node
//     over one job: J1's or J2's, the lower x, J1's. At 10 J2 ends: J3's
//     reservation is still busy, but first fit places it where J2 was
//     (phase 2), at 10 rather than 20.
func TestGoldenPrioResMesh(t *testing.T) {
	m, _ := policy.ParseMachine("mesh:4x4")
	for _, c := range []struct {
		rows      [][4]float64
		spec      string
		want, pos string
	}{
		{[][4]float64{{0, 10, 4, 2}, {1, 5, 4, 4}, {2, 1, 2, 2}}, "prio-res", "[0 10 15]", "[<0,2,3,3> <0,0,3,3> <0,0,1,1>]"},
		{[][4]float64{{0, 10, 4, 2}, {1, 5, 4, 4}, {2, 1, 2, 2}}, "prio-res:reserve=false", "[0 10 2]", "[<0,2,3,3> <0,0,3,3> <0,0,1,1>]"},
		{[][4]float64{{0, 20, 2, 4}, {0, 10, 2, 4}, {1, 1, 2, 4}}, "prio-res", "[0 0 10]", "[<0,0,1,3> <2,0,3,3> <2,0,3,3>]"},
	} {
		jobs := meshJobs(c.rows)
		res, err := engine.Run(jobs, m, meshAlloc(t, "ff", m), newSched(t, c.spec, m), engine.Options{Check: true, Placement: true})
		if err != nil {
			t.Fatal(err)
		}
		var st []float64
		var pos []string
		for i, j := range res.Jobs {
			st = append(st, j.Start)
			p := res.Placement(i)[0]
			pos = append(pos, fmt.Sprintf("<%d,%d,%d,%d>", p.X, p.Y, p.X+p.W-1, p.Y+p.H-1))
		}
		if got := fmt.Sprint(st); got != c.want {
			t.Errorf("%s: starts %s, want %s", c.spec, got, c.want)
		}
		if got := fmt.Sprint(pos); got != c.pos {
			t.Errorf("%s: placements %s, want %s", c.spec, got, c.pos)
		}
	}
}

// meshChecker wraps PrioRes on a mesh and checks, at every pass, that the
// reservation list and the allocator's reservations agree, that a job
// whose reservation was ready goes exactly there, and that no job started
// overlaps a reservation that another job holds across the pass.
type meshChecker struct {
	*PrioRes
	t      *testing.T
	ready  int // reserved jobs started on their ready reservation
	moved  int // reserved jobs started elsewhere (phase 2)
	passes int
}

func (c *meshChecker) Schedule(sys policy.System) {
	t := c.t
	rv, _ := sys.Reservations().(meshReserver)
	before := map[*policy.Job]mesh.Rect{}
	ready := map[*policy.Job]bool{}
	for _, r := range c.res {
		before[r.j], _ = rv.Reservation(r.j)
		ready[r.j] = rv.Ready(r.j)
	}
	c.PrioRes.Schedule(sys)
	c.passes++
	if !c.reserve {
		if len(c.res) != 0 || rv.Held() != 0 {
			t.Fatalf("t=%g: reservations without reserve", sys.Now())
		}
		return
	}
	held := 0
	for _, r := range c.res {
		p, ok := rv.Reservation(r.j)
		if !ok || r.j.Alloc != nil || r.held != 0 || len(r.claims) != 0 {
			t.Fatalf("t=%g: job %d in the reservation list holds none in the allocator", sys.Now(), r.j.ID)
		}
		if q, was := before[r.j]; was && q != p {
			t.Fatalf("t=%g: job %d's reservation moved from %v to %v", sys.Now(), r.j.ID, q, p)
		}
		n := 0
		for _, o := range sys.Running() {
			n += overlapArea(o.Alloc.(*mesh.Alloc).Rect, p)
		}
		held += p.W*p.H - n
	}
	if held != rv.Held() || held > sys.Capacity().Free() {
		t.Fatalf("t=%g: held %d, allocator %d, free %d", sys.Now(), held, rv.Held(), sys.Capacity().Free())
	}
	for _, j := range sys.Running() {
		if j.Start != sys.Now() {
			continue
		}
		at := j.Alloc.(*mesh.Alloc).Rect
		if q, was := before[j]; was {
			if ready[j] && at != q {
				t.Fatalf("t=%g: job %d at %v, its ready reservation %v", sys.Now(), j.ID, at, q)
			}
			if ready[j] {
				c.ready++
			} else {
				c.moved++
			}
		}
		for o, q := range before {
			if _, still := rv.Reservation(o); o != j && still && overlapArea(at, q) > 0 {
				t.Fatalf("t=%g: job %d at %v over job %d's reservation %v", sys.Now(), j.ID, at, o.ID, q)
			}
		}
	}
}

func overlapArea(r, s mesh.Rect) int {
	w := min(r.X2(), s.X2()) - max(r.X, s.X) + 1
	h := min(r.Y2(), s.Y2()) - max(r.Y, s.Y) + 1
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// Every mesh allocator replays a synthetic workload under prio-res with and
// without reservations and with a starvation bound, with the engine's
// checks and the checker's: every job completes, no reservation is left,
// reserved jobs start both on their reservations and elsewhere.
func TestPrioResMeshReplay(t *testing.T) {
	for _, machine := range []string{"mesh:16x8", "mesh:16x16"} {
		m, _ := policy.ParseMachine(machine)
		tr, err := workload.Generate(workload.WorkloadSpec{Machine: machine, Size: workload.SizeSpec{Dist: "uniform"},
			Service: workload.Service{Kind: "exp", Mean: 10}, Arrivals: workload.Arrivals{Kind: "poisson", Load: 0.7, Jobs: 1500}, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		src, _ := admit.Jobs(tr, m, admit.EstimatesRequested)
		for _, spec := range mesh.Allocators() {
			if spec.Machines != nil && spec.Machines(m) != nil || machine == "mesh:16x16" && spec.Name != "2dbs" {
				continue
			}
			if _, ok := meshAlloc(t, spec.Name, m).(meshReserver); !ok {
				continue // non-contiguous allocators (gabl, paging, …) offer no reservations
			}
			for _, s := range []string{"prio-res", "prio-res:max_pri=0", "prio-res:max_pri=5", "prio-res:reserve=false"} {
				jobs := slices.Clone(src)
				c := &meshChecker{PrioRes: newSched(t, s, m).(*PrioRes), t: t}
				res, err := engine.Run(jobs, m, meshAlloc(t, spec.Name, m), c, engine.Options{Check: true})
				if err != nil {
					t.Fatalf("%s/%s on %s: %v", spec.Name, s, machine, err)
				}
				for _, j := range res.Jobs {
					if j.Start < j.Submit || j.End < 0 {
						t.Fatalf("%s/%s: job %d not run", spec.Name, s, j.ID)
					}
				}
				if len(c.res) != 0 || c.waiting.len() != 0 {
					t.Errorf("%s/%s: %d reservations, %d waiting left", spec.Name, s, len(c.res), c.waiting.len())
				}
				if c.reserve && c.ready == 0 {
					t.Errorf("%s/%s: no job started on its reservation", spec.Name, s)
				}
				t.Logf("%s/%s on %s: %d ready starts, %d moved", spec.Name, s, machine, c.ready, c.moved)
			}
		}
	}
}

// Without reservations, prio-res with MAX_PRI = ∞ is Scan All on meshes
// too (Chu §5.4).
func TestPrioResMeshIsSA(t *testing.T) {
	m, _ := policy.ParseMachine("mesh:16x8")
	tr, err := workload.Generate(workload.WorkloadSpec{Machine: "mesh:16x8", Size: workload.SizeSpec{Dist: "uniform"},
		Service: workload.Service{Kind: "exp", Mean: 10}, Arrivals: workload.Arrivals{Kind: "poisson", Load: 0.8, Jobs: 1000}, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	src, _ := admit.Jobs(tr, m, admit.EstimatesRequested)
	for _, alloc := range []string{"ff", "bl", "eet-sb"} {
		var got [2][]float64
		for k, s := range []string{"sa", "prio-res:reserve=false"} {
			res, err := engine.Run(slices.Clone(src), m, meshAlloc(t, alloc, m), newSched(t, s, m), engine.Options{Check: true})
			if err != nil {
				t.Fatal(err)
			}
			got[k] = starts(res.Jobs)
		}
		if i := firstDiff(got[0], got[1]); i >= 0 {
			t.Errorf("%s: sa and prio-res:reserve=false differ at job %d: %g, %g", alloc, i, got[0][i], got[1][i])
		}
	}
}
