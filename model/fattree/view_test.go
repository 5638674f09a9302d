package fattree

import (
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// fattree:2x2x2: four leaf switches of two nodes, two under each level-2
// switch: columns at x = 0, 1 | gap | 3, 4. Nodes 1..5 take the top of
// leaf 0, leaf 1 whole, and leaf 2 whole (past the gap).
func TestSwitchesView(t *testing.T) {
	m, err := policy.ParseMachine("fattree:2x2x2")
	if err != nil {
		t.Fatal(err)
	}
	if w, h := layout(m); w != 5 || h != 2 {
		t.Fatalf("layout %d×%d, want 5×2", w, h)
	}
	got := rects(m, policy.Range(1, 5), nil)
	want := [][4]int32{{0, 1, 1, 1}, {1, 0, 1, 2}, {3, 0, 1, 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rects %v, want %v", got, want)
	}
}
