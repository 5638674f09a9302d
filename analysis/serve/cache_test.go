package serve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedlab/schedlab/analysis/results"
)

func key(i int) results.Key { return results.Key{Trace: fmt.Sprint("t", i)} }

// sized returns a loader of runs of the given sizes (by key index),
// counting its calls per key.
func sized(sizes map[int]int64, calls map[results.Key]int, mu *sync.Mutex) func(results.Key) (*runJobs, error) {
	return func(k results.Key) (*runJobs, error) {
		mu.Lock()
		calls[k]++
		mu.Unlock()
		var i int
		fmt.Sscanf(k.Trace, "t%d", &i)
		return &runJobs{key: k, size: sizes[i]}, nil
	}
}

// F13 (issue 25): the replay cache holds at most its budget, evicting
// the least recently used run first; a run larger than the budget is
// served but not kept.
func TestRunCacheLRU(t *testing.T) {
	calls := map[results.Key]int{}
	var mu sync.Mutex
	c := newRunCache(30, 2, sized(map[int]int64{1: 10, 2: 10, 3: 10, 4: 10, 5: 25, 6: 31}, calls, &mu))
	ctx := context.Background()
	get := func(i int) {
		t.Helper()
		rj, err := c.get(ctx, key(i))
		if err != nil || rj.key != key(i) {
			t.Fatalf("get %d: %v, %v", i, rj, err)
		}
		if used, _, _ := c.stats(); used > 30 {
			t.Fatalf("after get %d: %d bytes held, budget 30", i, used)
		}
	}
	for _, step := range []struct {
		get   int
		loads int   // calls of key get so far
		held  []int // the runs held, most recently used first
	}{
		{1, 1, []int{1}},
		{2, 1, []int{2, 1}},
		{3, 1, []int{3, 2, 1}},
		{1, 1, []int{1, 3, 2}}, // a hit: 1 becomes the most recent
		{4, 1, []int{4, 1, 3}}, // 2, the least recently used, goes
		{2, 2, []int{2, 4, 1}}, // 2 again: loaded a second time, 3 goes
		{5, 1, []int{5}},       // 25 bytes: every other run goes
		{6, 1, []int{5}},       // over the budget: served, not kept
		{6, 2, []int{5}},       // so loaded again
		{1, 2, []int{1}},       // 10 + 25 > 30: 5 goes
		{5, 2, []int{5}},
	} {
		get(step.get)
		if got := calls[key(step.get)]; got != step.loads {
			t.Errorf("get %d: %d loads, want %d", step.get, got, step.loads)
		}
		var held []int
		for e := c.lru.Front(); e != nil; e = e.Next() {
			var i int
			fmt.Sscanf(e.Value.(*runJobs).key.Trace, "t%d", &i)
			held = append(held, i)
		}
		if fmt.Sprint(held) != fmt.Sprint(step.held) || len(c.byKey) != len(held) {
			t.Errorf("after get %d: held %v (%d keys), want %v", step.get, held, len(c.byKey), step.held)
		}
	}
	// put (the warm-up) never evicts.
	if c.put(&runJobs{key: key(7), size: 10}) {
		t.Error("put evicted to make room")
	}
	if !c.put(&runJobs{key: key(5), size: 25}) {
		t.Error("put of a run held reported false")
	}
}

// F13 (issue 25): concurrent requests for one run share a single load.
func TestRunCacheSharedLoad(t *testing.T) {
	release := make(chan struct{})
	var n atomic.Int32
	c := newRunCache(1<<20, 2, func(k results.Key) (*runJobs, error) {
		n.Add(1)
		<-release
		return &runJobs{key: k, size: 1}, nil
	})
	const clients = 20
	got := make(chan *runJobs, clients)
	for range clients {
		go func() {
			rj, err := c.get(context.Background(), key(1))
			if err != nil {
				t.Error(err)
			}
			got <- rj
		}()
	}
	// Every client is waiting on the one load before it is released.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		c.mu.Lock()
		waiting := c.loading[key(1)] != nil
		c.mu.Unlock()
		if waiting && n.Load() == 1 || time.Now().After(deadline) {
			break
		}
	}
	time.Sleep(20 * time.Millisecond) // let the late clients arrive (they share the load or hit the cache)
	close(release)
	first := <-got
	for range clients - 1 {
		if rj := <-got; rj != first {
			t.Fatal("clients got different copies of the run")
		}
	}
	if n.Load() != 1 {
		t.Errorf("%d loads of one run, want 1", n.Load())
	}
}

// F13 (issue 25): a load of one run does not hold up a load of another.
// Run A's load waits until run B's has started: under one global lock it
// would wait forever (the test fails after 10 s instead).
func TestRunCacheLoadsDoNotWaitOnEachOther(t *testing.T) {
	bStarted := make(chan struct{})
	c := newRunCache(1<<20, 2, func(k results.Key) (*runJobs, error) {
		switch k {
		case key(1):
			select {
			case <-bStarted:
			case <-time.After(10 * time.Second):
				return nil, errors.New("run 2's load never started while run 1's was under way")
			}
		case key(2):
			close(bStarted)
		}
		return &runJobs{key: k, size: 1}, nil
	})
	errs := make(chan error, 2)
	for _, i := range []int{1, 2} {
		go func() {
			_, err := c.get(context.Background(), key(i))
			errs <- err
		}()
		time.Sleep(10 * time.Millisecond) // run 1's load first
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// A request that gives up does not cancel the load, whose run is cached;
// a load that fails or panics is reported to every waiter, not cached,
// and retried by the next request.
func TestRunCacheCancelAndFailure(t *testing.T) {
	release := make(chan struct{})
	var n atomic.Int32
	c := newRunCache(1<<20, 1, func(k results.Key) (*runJobs, error) {
		n.Add(1)
		switch k {
		case key(1):
			<-release
		case key(2):
			if n.Load() < 3 {
				return nil, errors.New("disk on fire")
			}
		case key(3):
			if n.Load() < 5 {
				panic("decoder bug")
			}
		}
		return &runJobs{key: k, size: 1}, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.get(ctx, key(1)); !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled request: %v", err)
	}
	close(release)
	if rj, err := c.get(context.Background(), key(1)); err != nil || rj.key != key(1) {
		t.Fatal(rj, err)
	}
	if n.Load() != 1 {
		t.Errorf("%d loads of run 1, want 1 (the canceled request's load is reused)", n.Load())
	}
	if _, err := c.get(context.Background(), key(2)); err == nil || err.Error() != "disk on fire" {
		t.Errorf("failed load: %v", err)
	}
	if _, err := c.get(context.Background(), key(2)); err != nil {
		t.Errorf("retry after a failed load: %v", err)
	}
	if _, err := c.get(context.Background(), key(3)); err == nil || !strings.HasPrefix(err.Error(), "trace t3, ") || !strings.HasSuffix(err.Error(), ": preparing the replay: decoder bug") {
		t.Errorf("panicking load: %v", err)
	}
	if _, err := c.get(context.Background(), key(3)); err != nil {
		t.Errorf("retry after a panicking load: %v", err)
	}
	if _, runs, loads := c.stats(); runs != 3 || loads != 5 {
		t.Errorf("%d runs held, %d loads; want 3 and 5", runs, loads)
	}
}
