package main

import (
	"reflect"
	"testing"
)

func TestFlagsFirst(t *testing.T) {
	cases := []struct{ in, want []string }{
		{[]string{"report", "compare", "a", "b", "--out", "x.pdf", "-q"}, []string{"report", "compare", "--out", "x.pdf", "-q", "a", "b"}},
		{[]string{"report", "compare", "--tables=t", "a", "b"}, []string{"report", "compare", "--tables=t", "a", "b"}},
		{[]string{"report", "--in", "compare", "--out", "r.pdf"}, []string{"report", "--in", "compare", "--out", "r.pdf"}},
		{[]string{"report", "--in", "d"}, []string{"report", "--in", "d"}},
	}
	for _, c := range cases {
		if got := flagsFirst(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("flagsFirst(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseWindow(t *testing.T) {
	if w, err := parseWindow("10, 20.5"); err != nil || w.Start != 10 || w.End != 20.5 {
		t.Errorf("%+v %v", w, err)
	}
	for _, bad := range []string{"10", "20,10", "a,b"} {
		if _, err := parseWindow(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if w, err := parseWindow(""); err != nil || w.Set() {
		t.Error("empty window")
	}
}
