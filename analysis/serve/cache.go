package serve

import (
	"container/list"
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/schedlab/schedlab/analysis/results"
)

// DefaultCacheBytes is the default bound of the replay cache
// (Options.CacheBytes): the runs prepared for the replay kept in memory,
// about 170 bytes per job (a job, its placement and three queue steps: a
// run of 100 000 jobs takes about 17 MiB).
const DefaultCacheBytes = 256 << 20

// runCache keeps prepared runs for the replay within a byte budget,
// evicting the least recently used first. Loads are per run: requests for
// different runs do not wait for each other (up to the number of loads
// allowed at once, the semaphore's size), and concurrent requests for one
// run share a single load. A run larger than the whole budget is served
// but not kept. Memory is therefore bounded by the budget plus the runs
// being loaded (at most cap(sem)) and those being answered.
type runCache struct {
	budget int64
	load   func(results.Key) (*runJobs, error)
	sem    chan struct{} // one token per load under way

	mu      sync.Mutex
	used    int64                         // bytes of the runs in lru
	lru     *list.List                    // *runJobs, most recently used first
	byKey   map[results.Key]*list.Element // the runs in lru
	loading map[results.Key]*loadCall     // loads under way
	loads   int                           // loads started (for tests)
}

// loadCall is a load under way; done is closed once rj or err is set.
type loadCall struct {
	done chan struct{}
	rj   *runJobs
	err  error
}

// newRunCache returns a cache of at most budget bytes (DefaultCacheBytes
// when ≤ 0) whose misses call load, at most loaders at once (GOMAXPROCS,
// and at least 2, when ≤ 0).
func newRunCache(budget int64, loaders int, load func(results.Key) (*runJobs, error)) *runCache {
	if budget <= 0 {
		budget = DefaultCacheBytes
	}
	if loaders <= 0 {
		loaders = max(2, runtime.GOMAXPROCS(0))
	}
	return &runCache{budget: budget, load: load, sem: make(chan struct{}, loaders),
		lru: list.New(), byKey: map[results.Key]*list.Element{}, loading: map[results.Key]*loadCall{}}
}

// get returns the prepared run k: from the cache, from a load of k under
// way, or from a new load. It returns ctx's error if ctx ends first; the
// load goes on and its result is cached for the next request.
func (c *runCache) get(ctx context.Context, k results.Key) (*runJobs, error) {
	c.mu.Lock()
	if e, ok := c.byKey[k]; ok {
		c.lru.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*runJobs), nil
	}
	lc, ok := c.loading[k]
	if !ok {
		lc = &loadCall{done: make(chan struct{})}
		c.loading[k] = lc
		c.loads++
		go c.run(k, lc)
	}
	c.mu.Unlock()
	select {
	case <-lc.done:
		return lc.rj, lc.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// run performs the load lc of k and caches its result.
func (c *runCache) run(k results.Key, lc *loadCall) {
	defer func() {
		if p := recover(); p != nil {
			lc.rj, lc.err = nil, fmt.Errorf("trace %s, %s, rep %d: preparing the replay: %v", k.Trace, k.Pair, k.Rep, p)
		}
		c.mu.Lock()
		delete(c.loading, k)
		if lc.err == nil {
			c.add(lc.rj)
		}
		c.mu.Unlock()
		close(lc.done)
	}()
	c.sem <- struct{}{}
	defer func() { <-c.sem }()
	lc.rj, lc.err = c.load(k)
}

// put adds rj unless the cache holds its run already or it would not
// fit without evicting (the warm-up while the server starts); it reports
// whether the cache holds the run.
func (c *runCache) put(rj *runJobs) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[rj.key]; ok {
		return true
	}
	if c.used+rj.size > c.budget {
		return false
	}
	c.add(rj)
	return true
}

// add inserts rj as the most recently used run, evicting the least
// recently used until it fits; a run larger than the budget is not kept.
// c.mu is held.
func (c *runCache) add(rj *runJobs) {
	if rj.size > c.budget {
		return
	}
	if _, ok := c.byKey[rj.key]; ok {
		return
	}
	for c.used+rj.size > c.budget {
		e := c.lru.Back()
		old := c.lru.Remove(e).(*runJobs)
		delete(c.byKey, old.key)
		c.used -= old.size
	}
	c.byKey[rj.key] = c.lru.PushFront(rj)
	c.used += rj.size
}

// stats returns the bytes and runs held and the loads started.
func (c *runCache) stats() (used int64, runs, loads int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used, c.lru.Len(), c.loads
}
