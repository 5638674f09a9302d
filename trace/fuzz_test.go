package trace

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// FuzzSWFLine feeds arbitrary text to the SWF reader. It must never panic;
// whatever it accepts must survive a write and a re-read unchanged.
func FuzzSWFLine(f *testing.F) {
	for _, s := range []string{
		goodLine,
		"   15   599850 192180   3477    4     -1    -1    4  53940    -1  1  12  12  -1 -1 -1 -1 -1",
		"1 0.5 -1 1e3 4 -1 -1 4 200.75 -1 1 1 1 -1 -1 -1 -1 -1",
		"; MaxProcs: 8\n1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1",
		"1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1",
		"1 0 5 abc 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1",
		"1 +0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\r",
		"9223372036854775807 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
		"1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1 extra",
		";",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		tr, err := ReadSWF(strings.NewReader(text), "fuzz.swf", ReadOptions{})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		for i := range tr.Jobs {
			for k, v := range tr.Jobs[i].Fields() {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("job %d field %d is %v", i, k+1, v)
				}
			}
		}
		var buf bytes.Buffer
		if err := WriteSWF(&buf, tr); err != nil {
			t.Fatal(err)
		}
		// Not strict: a job larger than MaxProcs is accepted with a warning.
		// What was read is sorted, so the re-read must not sort again.
		back, err := ReadSWF(bytes.NewReader(buf.Bytes()), "back.swf", ReadOptions{})
		if err != nil {
			t.Fatalf("re-read of %q failed: %v", buf.String(), err)
		}
		if back.resorted {
			t.Fatalf("re-read of %q sorted again", buf.String())
		}
		if len(back.Jobs) != len(tr.Jobs) {
			t.Fatalf("%d jobs after round trip, want %d", len(back.Jobs), len(tr.Jobs))
		}
		for i := range tr.Jobs {
			if back.Jobs[i] != tr.Jobs[i] {
				t.Fatalf("job %d: %+v after round trip, want %+v", i, back.Jobs[i], tr.Jobs[i])
			}
		}
	})
}
