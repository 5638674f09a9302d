package reportcli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/traces"
)

// tinySuite is an M/M/1 suite small enough for a test: 4 replications of
// 3000 jobs at ρ = 0.5 (W_q = 1).
const tinySuite = `name = "tiny"
description = "M/M/1 at rho = 0.5"
[[workload]]
name = "mm1"
model = "workload"
machine = "flat:1"
size_max = 1
service = "exp"
mean = 1
loads = [0.5]
jobs = 3000
reps = 4
[replay]
allocs = ["count"]
scheds = ["fcfs"]
series = false
placement = false
warmup = 500
[full]
jobs = 6000
tolerance = { rel = 0.3, ci = 3 }
[quick]
tolerance = { rel = 0.3, ci = 3 }
[[expect]]
claim = "M/M/1 mean wait"
source = "theory"
metric = "mean_wait"
select = { trace = "mm1-load0.50-*" }
PUBLISHED
`

func writeSuite(t *testing.T, published string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tiny.toml")
	if err := os.WriteFile(p, []byte(strings.Replace(tinySuite, "PUBLISHED", published, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if e, ok := err.(*exec.ExitError); ok {
		return e.ExitCode()
	}
	return -1
}

func TestReproduceList(t *testing.T) {
	out, err := runReport(t, "reproduce", "--list")
	if err != nil || !regexp.MustCompile(`(?m)^queueing +13 `).MatchString(out) || !strings.HasPrefix(out, "suite") || strings.Count(out, "\n") != 1+len(traces.Suites()) {
		t.Errorf("--list: %v\n%s", err, out)
	}
}

// A run writes the table (stdout, .md, .csv, .pdf) and exits 0 when every
// claim agrees, 1 when one disagrees (after writing the table) unless
// --no-fail; --from evaluates earlier results without running.
func TestReproduceRun(t *testing.T) {
	good := writeSuite(t, `theory = { model = "M/M/c", servers = 1, rho = 0.5, mean = 1 }`)
	dir := filepath.Join(t.TempDir(), "r")
	// Flags after the suite, as documented.
	out, err := runReport(t, "reproduce", good, "--out", dir, "-q")
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if !strings.Contains(out, "1 claims: 1 agree, 0 consistent but not significant, 0 disagree, 0 not comparable") || !strings.Contains(out, "agrees (within ±30%") {
		t.Errorf("table:\n%s", out)
	}
	for _, f := range []string{"quick.md", "quick.csv", "quick.pdf", "quick/sweep.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	pdf1, _ := os.ReadFile(filepath.Join(dir, "quick.pdf"))

	// A wrong published value: the table is written, the exit status is 1.
	bad := writeSuite(t, `published = 3`)
	out, err = runReport(t, "reproduce", "--from", filepath.Join(dir, "quick"), "--out", dir, bad)
	if exitCode(err) != 1 || !strings.Contains(out, "disagrees (") || !strings.Contains(out, "reproduce tiny (quick): 1 of 1 claims disagree, 0 not comparable (0 agree, 0 consistent but not significant)") {
		t.Errorf("disagreement: %v\n%s", err, out)
	}
	if csv, _ := os.ReadFile(filepath.Join(dir, "quick.csv")); !bytes.Contains(csv, []byte(",disagrees,")) {
		t.Errorf("the table of a failing run is not written:\n%s", csv)
	}
	if out, err := runReport(t, "reproduce", "--from", filepath.Join(dir, "quick"), "--out", dir, "--no-fail", "-q", bad); err != nil {
		t.Errorf("--no-fail: %v\n%s", err, out)
	}

	// Running again, with one worker, gives the same PDF (the dataset is
	// replaced, not resumed).
	if out, err := runReport(t, "reproduce", "-q", "-j", "1", "--out", dir, good); err != nil {
		t.Fatalf("second run: %v\n%s", err, out)
	}
	if pdf2, _ := os.ReadFile(filepath.Join(dir, "quick.pdf")); !bytes.Equal(pdf1, pdf2) {
		t.Error("the PDF differs between two runs of the same suite")
	}

	// --full uses the full sizes, in its own dataset.
	out, err = runReport(t, "reproduce", good, "--full", "--out", dir)
	if err != nil || !strings.Contains(out, "(full)") || !strings.Contains(out, "24000 jobs") {
		t.Errorf("--full: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "full", "sweep.json")); err != nil {
		t.Error(err)
	}
}

func TestReproduceErrors(t *testing.T) {
	good := writeSuite(t, `published = 1`)
	notDataset := t.TempDir()
	if err := os.MkdirAll(filepath.Join(notDataset, "quick"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notDataset, "quick", "precious.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"reproduce"}, "want one SUITE (one of " + strings.Join(traces.Suites(), ", ") + ", or a .toml file), got 0 arguments"},
		{[]string{"reproduce", "nosuch"}, `no suite "nosuch" (have ` + strings.Join(traces.Suites(), ", ") + ")"},
		{[]string{"reproduce", "--quick", "--full", good}, "--quick and --full exclude each other"},
		{[]string{"reproduce", "--from", "x", "--seed", "3", good}, "--seed, --resume and -j apply to a run, not to --from"},
		{[]string{"reproduce", "--list", "queueing"}, "--list: takes no SUITE"},
		{[]string{"reproduce", "-j", "0", good}, "-j 0: want at least 1 worker"},
		{[]string{"reproduce", "--out", notDataset, good}, "is not a dataset of suite tiny: choose another --out, or remove it"},
		{[]string{"reproduce", "--from", filepath.Join(notDataset, "nothing"), good}, "summary.parquet"},
	} {
		out, err := runReport(t, tc.args...)
		if exitCode(err) != 1 || !strings.Contains(out, tc.want) {
			t.Errorf("report %s: %v\n%s\nwant %q", strings.Join(tc.args, " "), err, out, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(notDataset, "quick", "precious.txt")); err != nil {
		t.Error("a directory that is not a dataset was removed")
	}
}

// The embedded queueing suite agrees with queueing theory at its quick
// sizes, in a few seconds: what CI runs. Two claims are consistent but
// not significant: M/M/128 at ρ = 0.8 and 0.9, whose waits (about 1e-4
// of the mean service) are too rare at the quick sizes for a ±5%
// estimate.
func TestReproduceQueueingQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the queueing suite (3 M jobs)")
	}
	dir := t.TempDir()
	out, err := runReport(t, "reproduce", "queueing", "--out", dir, "-q")
	if err != nil || !strings.Contains(out, "13 claims: 11 agree, 2 consistent but not significant, 0 disagree, 0 not comparable") {
		t.Errorf("queueing --quick: %v\n%s", err, out)
	}
}
