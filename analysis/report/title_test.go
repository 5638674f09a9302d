package report

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/analysis/results"
)

// The title page names the bytes every input came from: its source's
// SHA-256 (generated traces have none).
func TestTitleShowsInputSHA256(t *testing.T) {
	sum := strings.Repeat("0123456789abcdef", 4)
	set := &results.Set{Traces: []results.TraceInfo{
		{Name: "kth", Source: "/logs/KTH-SP2-1996-2.1-cln.swf.gz", Generator: "swf", SHA256: sum},
		{Name: "w1", Generator: "workload"},
	}}
	pages, err := buildTitle(&Context{Set: set, Level: 0.95, TimeUnit: "s"}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range pages[0].(*TextPage).Lines {
		if strings.Contains(l[1], sum) || l[0] == "Input SHA-256" {
			got = append(got, l[0]+": "+l[1])
		}
	}
	if want := "Input SHA-256: KTH-SP2-1996-2.1-cln.swf.gz " + sum; len(got) != 1 || got[0] != want {
		t.Fatalf("title lines %q, want [%q]", got, want)
	}
}
