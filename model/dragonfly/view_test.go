package dragonfly

import (
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// dragonfly:g=3,a=2,p=2,h=1: three groups of two routers of two nodes:
// columns at x = 0, 1 | 3, 4 | 6, 7. Nodes 2..9 take router 1 whole,
// group 1 whole (one rectangle) and the bottom node of router 4.
func TestGroupsView(t *testing.T) {
	m, err := policy.ParseMachine("dragonfly:g=3,a=2,p=2,h=1")
	if err != nil {
		t.Fatal(err)
	}
	if w, h := layout(m); w != 8 || h != 2 {
		t.Fatalf("layout %d×%d, want 8×2", w, h)
	}
	got := rects(m, policy.Range(2, 7), nil)
	want := [][4]int32{{1, 0, 1, 2}, {3, 0, 2, 2}, {6, 0, 1, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rects %v, want %v", got, want)
	}
}
