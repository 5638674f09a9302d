package policy

import (
	"math"
	"strings"
	"testing"
	"unsafe"
)

func TestParseSpec(t *testing.T) {
	name, p, err := ParseSpec("mq:q=32, order=down,by=procs")
	if err != nil || name != "mq" || len(p) != 3 || p["order"] != "down" || p.String() != "by=procs,order=down,q=32" {
		t.Fatalf("got %q %v %v (%q)", name, p, err, p.String())
	}
	if name, p, err := ParseSpec("fcfs"); err != nil || name != "fcfs" || len(p) != 0 || p.String() != "" {
		t.Fatalf("fcfs: %q %v %v", name, p, err)
	}
	for in, want := range map[string]string{
		"":              "empty name",
		":q=3":          "empty name",
		"mq:q":          "not key=value",
		"mq:q=3,q=4":    "given twice",
		"mq:q=3,,wtl=5": "not key=value",
	} {
		if _, _, err := ParseSpec(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSpec(%q): error %v, want %q", in, err, want)
		}
	}
}

func TestParams(t *testing.T) {
	p := Params{"wtl": "inf", "q": "8", "order": "up", "bad": "x1"}
	if v, err := p.Float("wtl", 0); err != nil || !math.IsInf(v, 1) {
		t.Errorf("wtl: %v %v", v, err)
	}
	if v, err := p.Float("missing", 2.5); err != nil || v != 2.5 {
		t.Errorf("default float: %v %v", v, err)
	}
	if _, err := p.Float("bad", 0); err == nil || !strings.Contains(err.Error(), `bad="x1": not a number`) {
		t.Errorf("bad float: %v", err)
	}
	if _, err := (Params{"x": "NaN"}).Float("x", 0); err == nil {
		t.Error("NaN accepted")
	}
	if v, err := p.Int("q", 1); err != nil || v != 8 {
		t.Errorf("q: %v %v", v, err)
	}
	if _, err := p.Int("order", 1); err == nil {
		t.Error("non-integer accepted")
	}
	if v, err := p.Choice("order", "down", "up", "down"); err != nil || v != "up" {
		t.Errorf("order: %v %v", v, err)
	}
	if _, err := p.Choice("bad", "a", "a", "b"); err == nil || !strings.Contains(err.Error(), "want one of a, b") {
		t.Errorf("choice: %v", err)
	}
	if err := p.Check("wtl", "q", "order"); err == nil || !strings.Contains(err.Error(), `unknown parameter "bad" (known: wtl, q, order)`) {
		t.Errorf("check: %v", err)
	}
	if err := (Params{"x": "1"}).Check(); err == nil || !strings.Contains(err.Error(), "takes none") {
		t.Errorf("check none: %v", err)
	}
	if !Supports(nil, Mesh) || !Supports([]string{Flat, Cube}, Cube) || Supports([]string{Flat}, Mesh) {
		t.Error("Supports")
	}
}

// Every run copies and scans the job array: Job stays within 120 bytes on
// 64-bit machines (1M jobs: 120 MB; 112 before the Window pointer of pcw's
// priorities and deadlines).
func TestJobSize(t *testing.T) {
	if s := unsafe.Sizeof(Job{}); s > 120 && unsafe.Sizeof(0) == 8 {
		t.Errorf("policy.Job is %d bytes, want at most 120", s)
	}
}

// A quoted value holds commas, spaces and equals signs, and is written
// back quoted; a value with a stray quote is refused.
func TestParseSpecQuotes(t *testing.T) {
	name, p, err := ParseSpec(`ext:cmd='python3 s.py --x=1,2',timeout=5,note="it's"`)
	if err != nil || name != "ext" || p["cmd"] != "python3 s.py --x=1,2" || p["timeout"] != "5" || p["note"] != "it's" {
		t.Fatalf("got %q %v %v", name, p, err)
	}
	if got, want := p.String(), `cmd='python3 s.py --x=1,2',note="it's",timeout=5`; got != want {
		t.Fatalf("String %s, want %s", got, want)
	}
	if _, _, err := ParseSpec(`ext:cmd=python3 'a b'`); err == nil || err.Error() != `policy "ext:cmd=python3 'a b'": parameter "cmd": a quoted value must be quoted whole ('...' or "...")` {
		t.Fatalf("stray quote: %v", err)
	}
	if _, _, err := ParseSpec(`x:k='a'b'`); err == nil || !strings.Contains(err.Error(), `parameter "k": a quoted value cannot hold its own quote character`) {
		t.Fatalf("inner quote: %v", err)
	}
	if got := SplitList(`fcfs,ext:cmd='a,b',easy`); len(got) != 3 || got[1] != "ext:cmd='a,b'" {
		t.Fatalf("SplitList %q", got)
	}
}
