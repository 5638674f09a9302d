package schema

import (
	"testing"
	"testing/quick"
)

func TestCellPath(t *testing.T) {
	k := CellKey{Sweep: "quick", Machine: "flat:128", Alloc: "count", Sched: "mq:q=32,order=down", Trace: "quick-load0.50-rep01", Rep: 1}
	got := k.Path(SummaryTable)
	want := "summary/sweep=quick/machine=flat%3A128/alloc=count/sched=mq%3Aq%3D32%2Corder%3Ddown/part-quick-load0.50-rep01-1.parquet"
	if got != want {
		t.Errorf("Path = %s, want %s", got, want)
	}
	k.Comm = "wormhole:ts=3,plen=16,msgs=5,unit=msg"
	got = k.Path(SummaryTable)
	want = "summary/sweep=quick/machine=flat%3A128/comm=wormhole%3Ats%3D3%2Cplen%3D16%2Cmsgs%3D5%2Cunit%3Dmsg/alloc=count/sched=mq%3Aq%3D32%2Corder%3Ddown/part-quick-load0.50-rep01-1.parquet"
	if got != want {
		t.Errorf("Path with comm = %s, want %s", got, want)
	}
	for _, s := range []string{".", "..", ".hidden", "a/b", "%", "x y"} {
		e := Escape(s)
		if e == "" || e[0] == '.' {
			t.Errorf("Escape(%q) = %q: hidden or relative", s, e)
		}
		for _, c := range []byte(e) {
			if c == '/' || c == ' ' {
				t.Errorf("Escape(%q) = %q holds %q", s, e, c)
			}
		}
	}
}

func TestEscapeRoundTrip(t *testing.T) {
	f := func(s string) bool {
		u, err := Unescape(Escape(s))
		return err == nil && u == s
	}
	if err := quick.Check(f, nil); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"%", "%4", "%zz", "a%G0"} {
		if _, err := Unescape(bad); err == nil {
			t.Errorf("Unescape(%q): no error", bad)
		}
	}
}
