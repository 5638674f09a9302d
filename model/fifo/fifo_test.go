package fifo

import (
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

func ids(q *Queue) []int64 {
	var out []int64
	for _, j := range q.Jobs() {
		out = append(out, j.ID)
	}
	return out
}

// TestQueue pushes and pops past the compaction threshold, removes jobs
// by Scan and RemoveStarted, and checks the order kept and that a drained
// queue is reusable.
func TestQueue(t *testing.T) {
	var q Queue
	jobs := make([]policy.Job, 300)
	for i := range jobs {
		jobs[i] = policy.Job{ID: int64(i), Start: -1}
		q.Push(&jobs[i])
	}
	for i := range 200 {
		if j := q.Pop(); j.ID != int64(i) {
			t.Fatalf("pop %d gave job %d", i, j.ID)
		}
	}
	if q.Len() != 100 || q.Front().ID != 200 {
		t.Fatalf("after 200 pops: len %d, front %d", q.Len(), q.Front().ID)
	}
	// Remove the odd jobs, stop after job 250.
	q.Scan(func(j *policy.Job) (bool, bool) { return j.ID%2 == 1, j.ID == 250 })
	want := []int64{}
	for i := int64(200); i < 300; i++ {
		if i%2 == 0 || i > 250 {
			want = append(want, i)
		}
	}
	if got := ids(&q); !slices.Equal(got, want) {
		t.Fatalf("after Scan: %v, want %v", got, want)
	}
	for _, id := range []int64{200, 260, 299} {
		jobs[id].Start = 1
	}
	q.RemoveStarted()
	want = slices.DeleteFunc(want, func(id int64) bool { return id == 200 || id == 260 || id == 299 })
	if got := ids(&q); !slices.Equal(got, want) {
		t.Fatalf("after RemoveStarted: %v, want %v", got, want)
	}
	q.Scan(func(*policy.Job) (bool, bool) { return true, false })
	if q.Len() != 0 {
		t.Fatalf("emptied queue has %d jobs", q.Len())
	}
	q.Push(&jobs[0])
	if q.Len() != 1 || q.Front() != &jobs[0] || q.Pop() != &jobs[0] || q.Len() != 0 {
		t.Fatal("drained queue not reusable")
	}
}
