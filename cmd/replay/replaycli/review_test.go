package replaycli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSplitSpecsErrors(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string // in the error
	}{
		// A parameter after a spec without ':' is a typo for "fcfs:q=3",
		// not a policy named "fcfs,q=3".
		{[]string{"fcfs,q=3"}, `"q=3" follows "fcfs"`},
		// An empty list must not silently mean "every policy".
		{[]string{""}, "empty"},
		{[]string{" , "}, "empty"},
	} {
		_, err := splitSpecs("sched", c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("splitSpecs(%q): err %v, want %q", c.in, err, c.want)
		}
	}
}

func TestRunFlagErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "tiny.swf")
	bad := filepath.Join(dir, "bad.swf")
	if err := os.WriteFile(good, []byte(swf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(swf+"4 6 -1 x 1 -1 -1 1 -1 -1 1 2 -1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A previous run's results, which a failed run must leave alone.
	out := filepath.Join(dir, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	prev := filepath.Join(out, "summary.parquet")
	if err := os.WriteFile(prev, []byte("previous"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bsld-tau", "0", good}, "bsld-tau"},
		{[]string{"--bsld-tau", "-5", good}, "bsld-tau"},
		{[]string{"--sched", "fcfs,q=3", good}, `follows "fcfs"`},
		{[]string{"--sched", ",", good}, "empty"},
		{[]string{good, bad}, "bad.swf:5: field 4 (run_time)"},
		{[]string{"--warmup", "-1", good}, "warmup"},
		{[]string{"--machine", "flat:0", good}, "flat:0"},
	} {
		app := App()
		app.Writer, app.ErrWriter = &bytes.Buffer{}, &bytes.Buffer{}
		err := app.Run(append([]string{"replay", "run", "--quiet", "--out", out}, c.args...))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err %v, want %q", c.args, err, c.want)
		}
		ents, _ := os.ReadDir(out)
		b, _ := os.ReadFile(prev)
		if len(ents) != 1 || string(b) != "previous" {
			t.Errorf("%v: output directory changed: %v", c.args, ents)
		}
	}
}
