package serve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
	"github.com/schedlab/schedlab/analysis/results"
)

// replayQueries are the replay requests of a run the tests below send:
// the whole run and windows inside it.
func replayQueries(d *data, id int) []string {
	q := fmt.Sprintf("/api/replay?run=%d", id)
	rj, err := d.cache.get(context.Background(), d.runs[id].key)
	if err != nil || len(rj.jobs) == 0 {
		return []string{q}
	}
	mid := (rj.tmin + rj.tmax) / 2
	return []string{q, q + "&t0=" + ftoa(mid), q + "&t1=" + ftoa(mid), q + "&t0=" + ftoa(rj.tmin+(mid-rj.tmin)/2) + "&t1=" + ftoa(mid)}
}

// replayBody answers the request path from d.
func replayBody(t testing.TB, d *data, path string) []byte {
	t.Helper()
	w := httptest.NewRecorder()
	d.api(d.replay).ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	if w.Code != http.StatusOK {
		t.Fatalf("%s: status %d: %s", path, w.Code, w.Body)
	}
	return w.Body.Bytes()
}

// F13 (issue 25): with a cache too small for every run, runs are loaded
// again on demand, the cache never holds more than its budget, and every
// answer is byte-identical to the answer with every run cached, from a
// streamed set or one held in memory.
func TestReplayCacheBounded(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 32, Jobs: 400, Loads: []float64{0.6, 0.9}, Reps: 2, Pairs: 3, Seed: 11})
	ref, err := newData(load(t, set), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ref.runs) != 12 {
		t.Fatalf("%d runs", len(ref.runs))
	}
	if _, runs, loads := ref.cache.stats(); runs != 12 || loads != 0 {
		t.Errorf("default cache after start: %d runs held, %d loads; want every run held by the warm-up, no load", runs, loads)
	}
	want := map[string][]byte{}
	var paths []string
	for id := range ref.runs {
		for _, p := range replayQueries(ref, id) {
			paths = append(paths, p)
			want[p] = replayBody(t, ref, p)
		}
	}
	rj, _ := ref.cache.get(context.Background(), ref.runs[0].key)
	budget := 3 * rj.size
	inMemory := set // fixture.Build's set holds its jobs: a sweep dataset is loaded so
	for name, s := range map[string]*results.Set{"streamed": load(t, set), "in memory": inMemory} {
		d, err := newData(s, Options{CacheBytes: budget})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for pass := range 3 {
			order := slices.Clone(paths)
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			for _, p := range order {
				if got := replayBody(t, d, p); !bytes.Equal(got, want[p]) {
					t.Fatalf("%s, pass %d, %s: answer differs from the fully cached one:\n%s\nwant\n%s", name, pass, p, got, want[p])
				}
				if used, runs, _ := d.cache.stats(); used > budget || runs > 3 {
					t.Fatalf("%s: %d bytes in %d runs held, budget %d", name, used, runs, budget)
				}
			}
		}
		if _, _, loads := d.cache.stats(); loads < 12 {
			t.Errorf("%s: %d loads with a cache of 3 runs out of 12", name, loads)
		}
	}
}

// TestReplayLoad is the load test of F13 (issue 25): 50 concurrent
// clients on loopback ask for replay windows of 12 runs (a fixture, or the
// results directory SCHEDLAB_SERVE_DIR), with every run cached and with a
// cache of a third of them; every answer must equal the one a lone client
// gets. It logs the median and 95th percentile of the latency (a
// measurement, not asserted: the machine is shared); the target
// is a p95 under 2 s on 2 cores. Skipped with -short; bounded in requests
// (50 × 4 per configuration) and in time (60 s a request).
func TestReplayLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test: skipped with -short")
	}
	var set *results.Set
	if dir := os.Getenv("SCHEDLAB_SERVE_DIR"); dir != "" {
		s, err := results.LoadWith(dir, results.LoadOptions{Stream: true})
		if err != nil {
			t.Fatal(err)
		}
		set = s
	} else {
		set = load(t, fixture.Build(fixture.Spec{Procs: 64, Jobs: 3000, Loads: []float64{0.6, 0.9}, Reps: 2, Pairs: 3, Seed: 7}))
	}
	const clients, perClient = 50, 4
	for _, third := range []bool{false, true} {
		o := Options{}
		if third {
			full, err := newData(set, Options{})
			if err != nil {
				t.Fatal(err)
			}
			used, runs, _ := full.cache.stats()
			o.CacheBytes = max(1, used/int64(max(runs, 1))*int64(len(full.runs)/3))
		}
		d, err := newData(set, o)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(d.api(d.replay))
		var paths []string
		want := map[string][]byte{}
		for id := range d.runs {
			p := fmt.Sprintf("/api/replay?run=%d", id)
			if id%2 == 1 {
				p += "&t0=" + ftoa(float64(id))
			}
			paths = append(paths, p)
			want[p] = replayBody(t, d, p)
		}
		client := &http.Client{Timeout: 60 * time.Second}
		var mu sync.Mutex
		var lat []time.Duration
		var wg sync.WaitGroup
		start := time.Now()
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range perClient {
					p := paths[(c+7*k)%len(paths)]
					t0 := time.Now()
					resp, err := client.Get(srv.URL + p)
					if err != nil {
						t.Error(err)
						return
					}
					b, err := io.ReadAll(resp.Body)
					resp.Body.Close()
					dt := time.Since(t0)
					if err != nil || resp.StatusCode != 200 || !bytes.Equal(b, want[p]) {
						t.Errorf("%s: status %d, %v, answer differs from a lone client's", p, resp.StatusCode, err)
						return
					}
					mu.Lock()
					lat = append(lat, dt)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		wall := time.Since(start)
		srv.Close()
		if len(lat) == 0 {
			t.Fatal("no answer")
		}
		slices.Sort(lat)
		q := func(p float64) float64 { return lat[int(p*float64(len(lat)-1))].Seconds() }
		used, runs, loads := d.cache.stats()
		t.Logf("%d runs, cache %d MiB (%d runs, %d MiB held, %d loads): %d requests from %d clients in %.1f s: median %.3f s, p95 %.3f s, max %.3f s",
			len(d.runs), d.cache.budget>>20, runs, used>>20, loads, len(lat), clients, wall.Seconds(), q(0.5), q(0.95), q(1))
	}
}

// BenchmarkReplay measures one whole-run replay answer of a run of
// 20 000 jobs: from the cache (hit), and read and prepared again from a
// streamed jobs.parquet of four such runs (miss: a cache of one run, the
// requests alternating between two runs).
func BenchmarkReplay(b *testing.B) {
	set := load(b, fixture.Build(fixture.Spec{Procs: 64, Jobs: 20000, Reps: 1, Pairs: 4, Seed: 7}))
	for _, miss := range []bool{false, true} {
		name, o := "hit", Options{}
		if miss {
			name = "miss"
			full, err := newData(set, Options{})
			if err != nil {
				b.Fatal(err)
			}
			used, runs, _ := full.cache.stats()
			o.CacheBytes = used / int64(runs)
		}
		d, err := newData(set, o)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for i := range b.N {
				replayBody(b, d, fmt.Sprintf("/api/replay?run=%d", 2*(i%2)))
			}
		})
	}
}
