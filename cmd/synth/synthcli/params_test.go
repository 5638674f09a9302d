package synthcli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	xcli "github.com/schedlab/schedlab/cmd/internal/cli"
	"github.com/schedlab/schedlab/model/workload"
)

// badParam is a malformed value of one model parameter, with the flags it
// needs to matter (cv only matters for h2 service times).
type badParam struct {
	value   string
	context []string
}

// badParams has a malformed value of every parameter of every model; name
// takes any string, so it has none.
var badParams = map[string]map[string]badParam{
	"workload": {
		"machine": {value: "flat:0"}, "size": {value: "bogus"}, "size-mean": {value: "-1"}, "size-max": {value: "-1"},
		"service": {value: "bogus"}, "mean": {value: "-1"},
		"cv": {value: "0.5", context: []string{"--service", "h2"}}, "h2-alpha": {value: "1.5", context: []string{"--service", "h2"}},
		"h2": {value: "bogus", context: []string{"--service", "h2"}}, "coupling": {value: "bogus"}, "estimates": {value: "psychic"},
		"arrivals": {value: "bogus"}, "horizon": {value: "-1"}, "jobs": {value: "-5"}, "seed": {value: "x"},
		"priorities": {value: "-1"}, "laxity": {value: "0.5"}, "load": {value: "-1"}, "iat": {value: "-1"},
	},
	"malleable": {
		"procs": {value: "1"}, "work-mean": {value: "-1"}, "work-cv": {value: "0.5"}, "eff": {value: "a-b"}, "eff-dist": {value: "bogus"},
		"beta-p": {value: "-1", context: []string{"--eff-dist", "beta"}}, "beta-q": {value: "-1", context: []string{"--eff-dist", "beta"}},
		"perfect": {value: "maybe"}, "cap-mean": {value: "0.5"}, "horizon": {value: "-1"}, "jobs": {value: "-5"}, "seed": {value: "x"},
		"load": {value: "-1"}, "iat": {value: "-1"},
	},
	"lublin": {"procs": {value: "100"}, "jobs": {value: "-5"}, "estimates": {value: "psychic"}, "seed": {value: "x"}},
}

// A malformed value of every parameter of every model, as a flag: one
// line naming the flag (a usage error adds its pointer to --help), a
// failure, and no output file.
func TestBadParamFlags(t *testing.T) {
	dir := t.TempDir()
	for _, m := range workload.Models {
		for _, p := range m.Params {
			bad, ok := badParams[m.Name][p.Name]
			if !ok {
				if p.Name != "name" {
					t.Errorf("%s --%s: no malformed value in the test", m.Name, p.Name)
				}
				continue
			}
			out := filepath.Join(dir, m.Name+"-"+p.Name+".parquet")
			args := append([]string{m.Name}, bad.context...)
			if p.Type == workload.BoolParam {
				args = append(args, "--"+p.Name+"="+bad.value)
			} else {
				args = append(args, "--"+p.Name, bad.value)
			}
			if p.Name != "load" && p.Name != "iat" && m.Name != "lublin" {
				args = append(args, "--load", "0.5")
			}
			args = append(args, "-o", out)
			msg := synthMessage(args...)
			lines := strings.Split(msg, "\n")
			if msg == "" || len(lines) > 2 || (len(lines) == 2 && !strings.HasPrefix(lines[1], "Run 'synth")) {
				t.Errorf("%v: message %q, want one line", args, msg)
			}
			if !strings.HasPrefix(lines[0], "synth: --"+p.Name+" ") && !strings.Contains(lines[0], " -"+p.Name+":") && !strings.Contains(lines[0], " -"+p.Name+" ") {
				t.Errorf("%v: message %q does not name --%s", args, lines[0], p.Name)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%v: wrote %s", args, out)
			}
		}
	}
}

// synthMessage runs synth with args and returns its error as Main prints
// it ("" on success).
func synthMessage(args ...string) string {
	err := runSynth(args...)
	if err == nil {
		return ""
	}
	return xcli.Message("synth", err)
}

// The committed docs/workloads.md is what the descriptors generate.
func TestWorkloadsDocCurrent(t *testing.T) {
	var b bytes.Buffer
	if err := workload.WriteReference(&b); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../../docs/workloads.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("docs/workloads.md is not current: run go generate ./cmd/synth")
	}
}

// A malformed value of every flag of synth sweep (its own and its models'
// parameters): one line naming the flag, and no directory made.
func TestBadSweepFlags(t *testing.T) {
	dir := t.TempDir()
	type tc struct {
		flag string
		args []string
	}
	cases := []tc{
		{"model", []string{"--model", "lublin", "--load", "0.5"}},
		{"load", []string{"--load", "0.9:0.5:0.1"}},
		{"reps", []string{"--load", "0.5", "--reps", "0"}},
		{"crn", []string{"--load", "0.5", "--crn=maybe"}},
		{"format", []string{"--load", "0.5", "--format", "csv"}},
		{"name", []string{"--load", "0.5", "--name", "../x"}}, // F16 (issue 25): not outside --output
	}
	for _, m := range sweepModels {
		for _, p := range m.Params {
			bad, ok := badParams[m.Name][p.Name]
			if !ok || p.Name == "load" || p.Name == "iat" {
				continue
			}
			args := append([]string{"--model", m.Name, "--load", "0.5"}, bad.context...)
			if p.Type == workload.BoolParam {
				args = append(args, "--"+p.Name+"="+bad.value)
			} else {
				args = append(args, "--"+p.Name, bad.value)
			}
			cases = append(cases, tc{p.Name, args})
		}
	}
	for i, c := range cases {
		out := filepath.Join(dir, "sweep"+strconv.Itoa(i))
		args := append(append([]string{"sweep"}, c.args...), "-o", out)
		msg := synthMessage(args...)
		lines := strings.Split(msg, "\n")
		if msg == "" || len(lines) > 2 || (len(lines) == 2 && !strings.HasPrefix(lines[1], "Run 'synth")) {
			t.Errorf("%v: message %q, want one line", args, msg)
		}
		if !strings.HasPrefix(lines[0], "synth: --"+c.flag+" ") && !strings.Contains(lines[0], " -"+c.flag+":") && !strings.Contains(lines[0], " -"+c.flag+" ") {
			t.Errorf("%v: message %q does not name --%s", args, lines[0], c.flag)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: made %s", args, out)
		}
	}
}
