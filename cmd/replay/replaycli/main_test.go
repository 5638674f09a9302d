package replaycli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	xcli "github.com/schedlab/schedlab/cmd/internal/cli"
)

func TestSplitSpecs(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"fcfs,easy"}, "fcfs|easy"},
		{[]string{"fcfs,mq:q=32,order=down,easy"}, "fcfs|mq:q=32,order=down|easy"},
		{[]string{"mq:q=32,order=down,by=procs", "sa:wtl=500"}, "mq:q=32,order=down,by=procs|sa:wtl=500"},
		{[]string{" fcfs , ,sjf"}, "fcfs|sjf"},
	} {
		got, err := splitSpecs("sched", c.in)
		if err != nil || strings.Join(got, "|") != c.want {
			t.Errorf("splitSpecs(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := splitSpecs("sched", []string{"q=3,fcfs"}); err == nil {
		t.Errorf("a leading parameter was accepted")
	}
}

const swf = `; MaxProcs: 4
1 0 -1 10 4 -1 -1 4 20 -1 1 1 -1 -1 -1 -1 -1 -1
2 5 -1 5 2 -1 -1 2 -1 -1 1 1 -1 -1 -1 -1 -1 -1
3 5 -1 0 1 -1 -1 1 -1 -1 1 2 -1 -1 -1 -1 -1 -1
`

func TestRun(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "tiny.swf")
	if err := os.WriteFile(in, []byte(swf), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout bytes.Buffer
	app := App()
	app.Writer = &stdout
	err := app.Run([]string{"replay", "run", "--check", "-j", "2", "--out", out,
		"--alloc", "count", "--sched", "fcfs,mq:q=4,order=down", "--sched", "easy", in})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"jobs.parquet", "summary.parquet", "series.parquet"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
	if len(lines) != 5 || !strings.Contains(lines[0], "mean_wait") || lines[4] != "records: tiny on flat:4 (header): 3 records, 3 replayed; adjusted: 2 estimate = run time (requested time unknown)" || !strings.Contains(stdout.String(), "mq:order=down,q=4") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	// FCFS on this trace: waits 0, 5, 5 → mean 3.33.
	if !strings.Contains(lines[2], " fcfs ") || !strings.Contains(lines[2], " 3.33 ") {
		t.Errorf("fcfs line %q", lines[2])
	}

	// Errors: one line, nothing written.
	out2 := filepath.Join(dir, "out2")
	for _, args := range [][]string{
		{"replay", "run", "--out", out2, "--sched", "nope", in},
		{"replay", "run", "--out", out2, "--estimates", "guess", in},
		{"replay", "run", "--out", out2, filepath.Join(dir, "missing.swf")},
	} {
		app := App()
		app.Writer = &bytes.Buffer{}
		err := app.Run(args)
		if err == nil || strings.Contains(xcli.Message("replay", err), "\n") {
			t.Errorf("%v: err %v", args[2:], err)
		}
	}
	if _, err := os.Stat(out2); !os.IsNotExist(err) {
		t.Errorf("%s exists after errors", out2)
	}
}

func TestList(t *testing.T) {
	var stdout bytes.Buffer
	app := App()
	app.Writer = &stdout
	if err := app.Run([]string{"replay", "list"}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"flat:N", "count", "contig", "fcfs", "mq", "easy", "conservative"} {
		if !strings.Contains(stdout.String(), w) {
			t.Errorf("list lacks %s", w)
		}
	}
}

// TestDefaults replays the embedded default traces and writes the report.
func TestDefaults(t *testing.T) {
	if testing.Short() {
		t.Skip("replays every embedded trace under every pair")
	}
	out := filepath.Join(t.TempDir(), "out")
	app := App()
	app.Writer, app.ErrWriter = &bytes.Buffer{}, &bytes.Buffer{}
	if err := app.Run([]string{"replay", "run", "--quiet", "--no-series", "--sched", "fcfs,easy", "--out", out}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"jobs.parquet", "summary.parquet", "report.pdf"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}
