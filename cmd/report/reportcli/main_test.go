package reportcli

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedlab/schedlab/analysis/results"
)

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

func TestParsePairs(t *testing.T) {
	got, err := parsePairs("count/fcfs, ff/mq:q=32,order=down,paging:k=1,order=row/sa:wtl=500")
	want := []results.Pair{{Alloc: "count", Sched: "fcfs"}, {Alloc: "ff", Sched: "mq:q=32,order=down"}, {Alloc: "paging:k=1,order=row", Sched: "sa:wtl=500"}}
	if err != nil || len(got) != len(want) {
		t.Fatalf("%v %v", got, err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("pair %d: %v, want %v", i, got[i], want[i])
		}
	}
	if _, err := parsePairs("count"); err == nil || !strings.Contains(err.Error(), "--pairs") {
		t.Errorf("bad pair: %v", err)
	}
	if ps, err := parsePairs(""); err != nil || len(ps) != 0 {
		t.Errorf("empty: %v %v", ps, err)
	}
}

// --pairs names pairs of the results; an unknown one is an error naming it.
func TestPairsFlag(t *testing.T) {
	in := smallResults(t)
	dir := t.TempDir()
	if out, err := runReport(t, "--in", in, "--out", filepath.Join(dir, "r.pdf"), "--pairs", "count/easy", "-q"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	out, err := runReport(t, "--in", in, "--out", filepath.Join(dir, "r.pdf"), "--pairs", "count/nosuch", "-q")
	if err == nil || !strings.Contains(out, `--pairs "count / nosuch": no such pair`) {
		t.Errorf("unknown pair: %v\n%s", err, out)
	}
}

// TestMain runs the command itself when the test binary is re-executed with
// REPORT_TEST_MAIN=1 (see runReport).
func TestMain(m *testing.M) {
	if os.Getenv("REPORT_TEST_MAIN") == "1" {
		Main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runReport runs `report args...` in a child process and returns its
// combined output and error (non-nil on a non-zero exit).
func runReport(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "REPORT_TEST_MAIN=1")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("report %s: timed out (blocked on a special file?)", strings.Join(args, " "))
	}
	return string(out), err
}

// smallResults writes a two-pair, two-trace results directory.
func smallResults(t *testing.T) string {
	t.Helper()
	set := &results.Set{Version: "test", Jobs: []results.Job{}}
	for _, tr := range []string{"a", "b"} {
		set.Traces = append(set.Traces, results.TraceInfo{Name: tr, Generator: "test", Load: -1, Machine: "flat:8", Jobs: 10})
		for _, s := range []string{"easy", "fcfs"} {
			set.Summary = append(set.Summary, results.Summary{Trace: tr, Machine: "flat:8", Alloc: "count", Sched: s, Jobs: 10,
				MeanResponse: 12, SDResponse: 3, MeanWait: 2, MeanSlowdown: 1.5, MeanBSLD: 1.2, Utilization: 0.6,
				Makespan: 100, Throughput: 0.1, Power: 0.05, MeanQueue: 0.4, Load: -1, Procs: 8, BSLDTau: 10, MaxWait: 9, MeanRun: 10})
		}
	}
	dir := t.TempDir()
	if err := results.WriteDir(dir, set); err != nil {
		t.Fatal(err)
	}
	return dir
}

// isSpecial reports whether path is still the special file the test made.
func isSpecial(t *testing.T, path string, mode os.FileMode) bool {
	t.Helper()
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode().Type() == mode
}

// TestOutputsNeverReplaceSpecialFiles: `report --out /dev/null` used to
// exit 0 and replace the device with a regular file, because every output
// is written to a temporary file renamed over the target. Every file the
// report writes (PDF, figures, tables) goes through trace.AtomicWrite,
// which must refuse a target that exists and is not a regular file: the
// command fails and leaves the special file in place. The targets are made
// in a temporary directory (a FIFO, and a null character device when
// permitted), never the real /dev/null.
func TestOutputsNeverReplaceSpecialFiles(t *testing.T) {
	in := smallResults(t)
	// A normal run, to learn the figure and table names.
	ok := t.TempDir()
	if out, err := runReport(t, "--in", in, "--out", filepath.Join(ok, "r.pdf"), "--figures", filepath.Join(ok, "fig"), "--tables", filepath.Join(ok, "tab"), "-q"); err != nil {
		t.Fatalf("normal run: %v\n%s", err, out)
	}
	figs, _ := filepath.Glob(filepath.Join(ok, "fig", "*-col.pdf"))
	tabs, _ := filepath.Glob(filepath.Join(ok, "tab", "*.csv"))
	if len(figs) == 0 || len(tabs) == 0 {
		t.Fatalf("normal run wrote %d figures, %d tables", len(figs), len(tabs))
	}
	type special struct {
		name string
		mode os.FileMode
		make func(path string) error
	}
	kinds := []special{{"fifo", os.ModeNamedPipe, func(p string) error { return syscall.Mkfifo(p, 0o666) }}}
	probe := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(probe, syscall.S_IFCHR|0o666, int(devNull())); err == nil {
		kinds = append(kinds, special{"char device", os.ModeDevice | os.ModeCharDevice, func(p string) error {
			return syscall.Mknod(p, syscall.S_IFCHR|0o666, int(devNull()))
		}})
	} else if !errors.Is(err, syscall.EPERM) {
		t.Logf("mknod: %v (character device case skipped)", err)
	}
	for _, k := range kinds {
		for _, target := range []struct{ what, flag, file string }{
			{"PDF", "--out", "report.pdf"},
			{"figure", "--figures", filepath.Base(figs[0])},
			{"table", "--tables", filepath.Base(tabs[0])},
		} {
			dir := t.TempDir()
			path := filepath.Join(dir, target.file)
			if err := k.make(path); err != nil {
				t.Fatal(err)
			}
			args := []string{"--in", in, "-q", "--out", filepath.Join(t.TempDir(), "r.pdf")}
			if target.flag == "--out" {
				args[len(args)-1] = path
			} else {
				args = append(args, target.flag, dir)
			}
			out, err := runReport(t, args...)
			if err == nil {
				t.Errorf("%s onto a %s: exit 0, want an error\n%s", target.what, k.name, out)
			}
			if !isSpecial(t, path, k.mode) {
				t.Errorf("%s onto a %s: the %s was replaced", target.what, k.name, k.name)
			}
		}
	}
}

// devNull is the device number of /dev/null (major 1, minor 3 on Linux).
func devNull() uint64 {
	var st syscall.Stat_t
	if syscall.Stat("/dev/null", &st) == nil && st.Rdev != 0 {
		return uint64(st.Rdev)
	}
	return uint64(1)<<8 | 3
}

// F11 (issue 25): a confidence level outside (0, 1) (NaN included) and a
// window that is not finite are refused with one line, before reading.
func TestBadLevelAndWindow(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--level", "NaN"}, "report: --level NaN: want a confidence level between 0 and 1 (e.g. 0.95)"},
		{[]string{"--level", "1"}, "report: --level 1: want a confidence level between 0 and 1 (e.g. 0.95)"},
		{[]string{"--window", "NaN,Inf"}, `report: --window "NaN,Inf": want START,END, finite numbers with START < END`},
		{[]string{"--window", "0,Inf"}, `report: --window "0,Inf": want START,END, finite numbers with START < END`},
		{[]string{"compare", "--level", "NaN", "a", "b"}, "report: --level NaN: want a confidence level between 0 and 1 (e.g. 0.95)"},
		{[]string{"serve", "--level", "-1", "a"}, "report: --level -1: want a confidence level between 0 and 1 (e.g. 0.95)"},
		{[]string{"serve", "--cache-mb", "0", "a"}, "report: --cache-mb 0: want a size in MiB from 1 to 1048576"},
		{[]string{"serve", "--cache-mb", "1048577", "a"}, "report: --cache-mb 1048577: want a size in MiB from 1 to 1048576"},
	} {
		out, err := runReport(t, c.args...)
		if err == nil || strings.TrimSpace(out) != c.want {
			t.Errorf("%v: %v, output %q, want %q", c.args, err, out, c.want)
		}
	}
}

// F15 (issue 25): the temporary PDF of a report killed before its rename
// (a dead process's id in its name) is removed by the next report.
func TestStaleTemporaryPDFRemoved(t *testing.T) {
	in := smallResults(t)
	dir := t.TempDir()
	stale := filepath.Join(dir, ".r.pdf.tmp-2147483646-1234")
	if err := os.WriteFile(stale, []byte("%PDF-half"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := runReport(t, "--in", in, "--out", filepath.Join(dir, "r.pdf"), "-q"); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("%s still there", stale)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.pdf")); err != nil {
		t.Error(err)
	}
}
