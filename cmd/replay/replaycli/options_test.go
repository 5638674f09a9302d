package replaycli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/experiment"
	"github.com/schedlab/schedlab/model/workload"
)

// badFlags has a malformed value of every flag of replay run; a boolean's
// is a value that is not one.
var badFlags = map[string]string{
	"machine": "flat:0", "mode": "elastic", "alloc": "nosuch", "sched": "nosuch", "out": "", "j": "0",
	"check": "maybe", "shape": "round", "comm": "tachyon", "estimates": "psychic", "bsld-tau": "-5",
	"warmup": "-1", "until-last-arrival": "maybe", "until": "-3", "keep-partial": "maybe", "no-series": "maybe",
	"placement": "maybe", "table": "wide", "force-memory": "maybe", "quiet": "maybe", "strict": "maybe",
	"events": "batch", "warmup-finished": "1.5", "stretch": "sst:a=1",
}

// oneLine checks that msg is one line (a usage error adds its pointer to
// --help on a second) and returns it.
func oneLine(t *testing.T, what, msg string) string {
	t.Helper()
	lines := strings.Split(msg, "\n")
	if msg == "" || len(lines) > 2 || (len(lines) == 2 && !strings.HasPrefix(lines[1], "Run 'replay")) {
		t.Errorf("%s: message %q, want one line", what, msg)
	}
	return lines[0]
}

// A malformed value of every replay option, as a flag: one line naming the
// flag, a failure, and nothing written.
func TestBadOptionFlags(t *testing.T) {
	dir := t.TempDir()
	in := writeSWF(t, dir, "tiny.swf", swf)
	for _, o := range experiment.ReplayOptions {
		if o.Flag == "" {
			continue
		}
		bad, ok := badFlags[o.Name]
		if !ok {
			t.Errorf("--%s: no malformed value in the test", o.Flag)
			continue
		}
		out := filepath.Join(dir, "out-"+o.Name)
		flag := "--" + o.Flag
		if len(o.Flag) == 1 {
			flag = "-" + o.Flag
		}
		args := []string{"run", "--out", out, flag, bad, in}
		if o.Kind == experiment.BoolOption {
			args = []string{"run", "--out", out, flag + "=" + bad, in}
		}
		msg, _, _ := runApp(args...)
		line := oneLine(t, strings.Join(args, " "), msg)
		if !strings.HasPrefix(line, "replay: "+flag+" ") && !strings.Contains(line, " -"+o.Flag+":") {
			t.Errorf("%v: message %q does not name %s", args, line, flag)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: created %s", args, out)
		}
	}
}

// badKeys has a malformed value of every [replay] key, as TOML.
var badKeys = map[string]string{
	"machines": `["flat:0"]`, "mode": `"elastic"`, "allocs": `["nosuch"]`, "scheds": `["nosuch"]`, "check": `"maybe"`,
	"shape": `"round"`, "comm": `"tachyon"`, "estimates": `"psychic"`, "bsld_tau": `-5`, "warmup": `-1`,
	"until_last_arrival": `"maybe"`, "until": `-3`, "keep_partial": `"maybe"`, "series": `"maybe"`, "jobs": `"maybe"`,
	"placement": `"maybe"`, "events": `"batch"`, "warmup_finished": `1.5`, "stretch": `"hops:alpha=-1"`,
}

// sweepFails runs replay sweep on a plan whose line 'line' is the bad key
// and checks the message names the file, the line and key, and that
// nothing is written.
func sweepFails(t *testing.T, dir, name, plan string, line int, key string) {
	t.Helper()
	path := filepath.Join(dir, name+".toml")
	if err := os.WriteFile(path, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out-"+name)
	msg, _, _ := runApp("sweep", "--quiet", "--out", out, path)
	got := oneLine(t, name, msg)
	want := fmt.Sprintf("replay: %s:%d: %s", path, line, key)
	if !strings.HasPrefix(got, want) {
		t.Errorf("%s: message %q, want it to start %q", name, got, want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s: created %s", name, out)
	}
}

// A malformed value of every [replay] key of a plan: one line naming the
// file, the line and the key, and nothing written.
func TestBadReplayKeys(t *testing.T) {
	dir := t.TempDir()
	for _, o := range experiment.ReplayOptions {
		if o.Key == "" {
			continue
		}
		bad, ok := badKeys[o.Key]
		if !ok {
			t.Errorf("replay.%s: no malformed value in the test", o.Key)
			continue
		}
		plan := "name = \"t\"\n[[workload]]\nmodel = \"workload\"\nloads = [0.5]\njobs = 20\n[replay]\n" + o.Key + " = " + bad + "\n"
		sweepFails(t, dir, "replay-"+o.Key, plan, 7, "replay."+o.Key)
	}
}

// badModelKeys has a malformed value of every plan key of every model,
// as TOML, with the keys it needs to matter.
var badModelKeys = map[string]map[string][2]string{
	"workload": {
		"machine": {`"flat:0"`}, "size": {`"bogus"`}, "size_mean": {`-1`}, "size_max": {`-1`}, "service": {`"bogus"`}, "mean": {`-1`},
		"cv": {`0.5`, `service = "h2"`}, "h2_alpha": {`1.5`, `service = "h2"`}, "h2": {`"bogus"`, `service = "h2"`},
		"coupling": {`"bogus"`}, "estimates": {`"psychic"`}, "arrivals": {`"bogus"`}, "horizon": {`-1`}, "jobs": {`-5`},
		"seed": {`"x"`}, "priorities": {`-1`}, "laxity": {`"0.5"`},
	},
	"malleable": {
		"procs": {`1`}, "work_mean": {`-1`}, "work_cv": {`0.5`}, "eff": {`"a-b"`}, "eff_dist": {`"bogus"`},
		"beta_p": {`-1`, `eff_dist = "beta"`}, "beta_q": {`-1`, `eff_dist = "beta"`}, "perfect": {`"maybe"`}, "cap_mean": {`0.5`},
		"horizon": {`-1`}, "jobs": {`-5`}, "seed": {`"x"`},
	},
	"lublin": {"procs": {`100`}, "jobs": {`-5`}, "estimates": {`"psychic"`}, "seed": {`"x"`}},
}

// A malformed value of every plan key of every workload model: one line
// naming the file, the line and the key, and nothing written.
func TestBadModelKeys(t *testing.T) {
	dir := t.TempDir()
	for _, m := range workload.Models {
		for _, key := range m.Keys() {
			bad, ok := badModelKeys[m.Name][key]
			if !ok {
				t.Errorf("%s: workload.%s: no malformed value in the test", m.Name, key)
				continue
			}
			plan := "name = \"t\"\n[[workload]]\nmodel = " + strconv.Quote(m.Name) + "\n"
			if m.Name != "lublin" {
				plan += "loads = [0.5]\n"
			}
			if bad[1] != "" {
				plan += bad[1] + "\n"
			}
			line := strings.Count(plan, "\n") + 1
			plan += key + " = " + bad[0] + "\n[replay]\nscheds = [\"fcfs\"]\n"
			sweepFails(t, dir, m.Name+"-"+key, plan, line, "workload[1]."+key+": ")
		}
	}
}

// The committed docs/replay-options.md is what ReplayOptions generates.
func TestReplayOptionsDocCurrent(t *testing.T) {
	var b bytes.Buffer
	if err := experiment.WriteReference(&b); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../../docs/replay-options.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("docs/replay-options.md is not current: run go generate ./cmd/replay")
	}
}

// A malformed value of every checked flag of replay sweep: one line naming
// the flag, and nothing written.
func TestBadSweepFlags(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "ok.toml")
	if err := os.WriteFile(plan, []byte("name = \"t\"\n[[workload]]\nmodel = \"workload\"\nloads = [0.5]\njobs = 20\n[replay]\nscheds = [\"fcfs\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flag string
		args []string
	}{
		{"-j", []string{"-j", "0"}},
		{"--shard", []string{"--shard", "3/2"}},
		{"--emit", []string{"--emit", "bogus"}},
		{"--shards", []string{"--emit", "slurm", "--shards", "0"}},
		{"--resume", []string{"--resume=maybe"}},
	} {
		out := filepath.Join(dir, "out"+c.flag)
		args := append(append([]string{"sweep", "--quiet", "--out", out}, c.args...), plan)
		msg, stdout, _ := runApp(args...)
		line := oneLine(t, strings.Join(args, " "), msg)
		if !strings.HasPrefix(line, "replay: "+c.flag+" ") && !strings.Contains(line, " "+strings.TrimLeft(c.flag, "-")+":") && !strings.Contains(line, " -"+strings.TrimLeft(c.flag, "-")+":") {
			t.Errorf("%v: message %q does not name %s", args, line, c.flag)
		}
		if _, err := os.Stat(out); err == nil || stdout != "" {
			t.Errorf("%v: wrote %s or printed %q", args, out, stdout)
		}
	}
}
